"""Lifecycle rules: only the host changes a stage; an ended game comes back for 30 days."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.errors import NotAllowedNow, NotYourTurn
from core.rules.lifecycle import (
    RESUME_DAYS,
    Ended,
    Stage,
    Step,
    check_host,
    check_resume,
    may_resume,
    next_stage,
    resumable_until,
)

ENDED_AT = datetime(2026, 11, 3, 18, 30, tzinfo=UTC)
moments = st.datetimes(
    min_value=datetime(2020, 1, 1), max_value=datetime(2035, 1, 1), timezones=st.just(UTC)
)


def test_only_the_host_pauses_ends_or_resumes() -> None:
    for step in Step:
        check_host(step, 7, 7)
        with pytest.raises(NotYourTurn, match="Only the host"):
            check_host(step, 8, 7)


def test_stages_move_as_a_table_expects() -> None:
    assert next_stage(Stage.PLAYING, Step.PAUSE) is Stage.PAUSED
    assert next_stage(Stage.PAUSED, Step.RESUME) is Stage.PLAYING
    assert next_stage(Stage.PLAYING, Step.END) is Stage.ENDED
    assert next_stage(Stage.PAUSED, Step.END) is Stage.ENDED
    with pytest.raises(NotAllowedNow, match="already paused"):
        next_stage(Stage.PAUSED, Step.PAUSE)
    with pytest.raises(NotAllowedNow, match="already running"):
        next_stage(Stage.PLAYING, Step.RESUME)
    for step in Step:
        with pytest.raises(NotAllowedNow, match="ended"):
            next_stage(Stage.ENDED, step)


def test_an_ended_game_comes_back_for_exactly_thirty_days() -> None:
    last = ENDED_AT + timedelta(days=RESUME_DAYS)
    assert resumable_until(ENDED_AT) == last
    check_resume(Ended(7, ENDED_AT), 7, last)
    with pytest.raises(NotAllowedNow, match=r"ended on 3 November 2026, more than 30 days ago"):
        check_resume(Ended(7, ENDED_AT), 7, last + timedelta(microseconds=1))
    with pytest.raises(NotYourTurn):
        check_resume(Ended(7, ENDED_AT), 8, ENDED_AT)


@given(ended_at=moments, later=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=400)))
def test_resumable_is_the_window_and_nothing_else(ended_at: datetime, later: timedelta) -> None:
    now = ended_at + later
    assert may_resume(ended_at, now) == (later <= timedelta(days=RESUME_DAYS))
    if later > timedelta(days=RESUME_DAYS):
        with pytest.raises(NotAllowedNow, match="/newgame"):
            check_resume(Ended(1, ended_at), 1, now)
    else:
        check_resume(Ended(1, ended_at), 1, now)


@given(ended_at=moments, actor=st.integers(1, 10**12), host=st.integers(1, 10**12))
def test_within_the_window_only_the_host_resumes(ended_at: datetime, actor: int, host: int) -> None:
    if actor == host:
        check_resume(Ended(host, ended_at), actor, ended_at)
    else:
        with pytest.raises(NotYourTurn):
            check_resume(Ended(host, ended_at), actor, ended_at)
