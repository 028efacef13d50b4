"""A campaign's lifecycle: who may pause, end and resume it, and for how long it can come back.

A campaign is playing, paused or ended. Only its host pauses, ends or resumes it.
Ending keeps everything (sheets, map, log); an ended campaign can be resumed in its
chat for ``RESUME_DAYS`` days from the moment it ended, and only while no other game
runs there. Time is an argument (``now``); nothing here reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from core.rules.errors import NotAllowedNow, NotYourTurn

RESUME_DAYS = 30
RESUME_WINDOW = timedelta(days=RESUME_DAYS)


class Stage(StrEnum):
    """Where a campaign is in its life (the store keeps the same words)."""

    PLAYING = "active"
    PAUSED = "paused"
    ENDED = "archived"


class Step(StrEnum):
    """A change of stage the host asks for."""

    PAUSE = "pause"
    RESUME = "resume"
    END = "end"


HOST_ONLY = {
    Step.PAUSE: "Only the host can pause the game.",
    Step.RESUME: "Only the host can resume the game.",
    Step.END: "Only the host can end the game.",
}


@dataclass(frozen=True)
class Ended:
    """An ended campaign as the lifecycle sees it."""

    host_id: int
    ended_at: datetime


def check_host(step: Step, actor_id: int, host_id: int) -> None:
    """Only the host changes a campaign's stage.

    Raises:
        NotYourTurn: the actor is not the host.
    """
    if actor_id != host_id:
        raise NotYourTurn(HOST_ONLY[step])


def next_stage(stage: Stage, step: Step) -> Stage:
    """The stage a live campaign moves to (ending one is confirmed first, see ``check_end``).

    Raises:
        NotAllowedNow: the step makes no sense at this stage.
    """
    if stage is Stage.ENDED:
        raise NotAllowedNow("That game has ended.")
    if step is Step.PAUSE:
        if stage is Stage.PAUSED:
            raise NotAllowedNow("The game is already paused. The host can /resume it.")
        return Stage.PAUSED
    if step is Step.RESUME:
        if stage is Stage.PLAYING:
            raise NotAllowedNow("The game is already running.")
        return Stage.PLAYING
    return Stage.ENDED


def resumable_until(ended_at: datetime) -> datetime:
    """The last moment an ended campaign can still be resumed."""
    return ended_at + RESUME_WINDOW


def may_resume(ended_at: datetime, now: datetime) -> bool:
    """Whether an ended campaign can still come back at ``now``."""
    return now <= resumable_until(ended_at)


def check_resume(ended: Ended, actor_id: int, now: datetime) -> None:
    """Whether the host may bring back an ended campaign at ``now``.

    Raises:
        NotAllowedNow: it ended more than ``RESUME_DAYS`` days ago.
        NotYourTurn: the actor is not its host.
    """
    if not may_resume(ended.ended_at, now):
        raise NotAllowedNow(
            f"The last game here ended on {ended.ended_at.day} {ended.ended_at:%B %Y}, more than "
            f"{RESUME_DAYS} days ago, so it can't be brought back. "
            "Start a new one with /newgame."
        )
    check_host(Step.RESUME, actor_id, ended.host_id)
