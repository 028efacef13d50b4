"""Writing a group's own game system step by step by reply (/system new alone): the bot
asks for the name, the dice, the inputs and the bands in turn, and the host answers
each question by replying to it (:mod:`core.rules.systems.drafting` reads the answers).

One draft per host and group, kept between the steps (``own_system_draft``), so any
worker takes the next answer. Each answer is checked by the same validator as a
definition written in one message; a refused answer changes nothing, and the host
answers the same question again. The last answer keeps the system as
:func:`core.campaigns.own_systems.create` does, and the draft goes with it. Starting
again drops the draft; so does a cancel.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.campaigns.own_systems import OwnVersion, _add, _check_free, _check_host, check_text
from core.rules.systems import read_system
from core.rules.systems.drafting import Step, answer, finished, text_of
from core.runtime.locks import KeyedLock
from core.store.models import OwnSystemDraft
from core.store.repo import guarded
from core.store.unit import UnitOfWork


@dataclass(frozen=True)
class Answered:
    """What an answer did: the next step to ask, or the system kept (then no step)."""

    step: Step | None
    kept: OwnVersion | None = None


async def start(chat_tg_id: int, author_tg_id: int, *, locks: KeyedLock, unit: UnitOfWork) -> Step:
    """Begin a new draft for ``author`` (dropping one they had here): its first step.

    Raises:
        NotAllowedNow: not a group, or not a host of a game in it.
    """
    await _check_host(chat_tg_id, author_tg_id)
    async with unit.saving(locks, f"systems:{chat_tg_id}"):
        await OwnSystemDraft.filter(chat_tg_id=chat_tg_id, author_tg_id=author_tg_id).delete()
        await OwnSystemDraft.create(
            chat_tg_id=chat_tg_id, author_tg_id=author_tg_id, step=Step.NAME.value, answers={}
        )
    return Step.NAME


async def asked(chat_tg_id: int, author_tg_id: int, message_id: int, *, unit: UnitOfWork) -> None:
    """Remember the message that asks ``author``'s draft its step: a reply to it answers."""
    async with unit.committing():
        await OwnSystemDraft.filter(chat_tg_id=chat_tg_id, author_tg_id=author_tg_id).update(
            asked_message_id=message_id
        )


async def waits_on(chat_tg_id: int, author_tg_id: int, message_id: int) -> bool:
    """Whether ``message_id`` is the question ``author``'s draft here waits to be answered."""
    async with guarded():
        return await OwnSystemDraft.exists(
            chat_tg_id=chat_tg_id, author_tg_id=author_tg_id, asked_message_id=message_id
        )


async def reply(
    chat_tg_id: int,
    author_tg_id: int,
    message_id: int,
    text: str,
    *,
    locks: KeyedLock,
    unit: UnitOfWork,
) -> Answered | None:
    """Answer the step the draft asked in ``message_id`` with ``text``; None when that
    message asks nothing of ``author`` (any more).

    Raises:
        Malformed: the answer can't be read, or the definition it makes is refused
            (nothing changes: the same question stands).
        NotAllowedNow: a name (or the key it makes) taken already; at the last step,
            as :func:`core.campaigns.own_systems.create`.
    """
    async with unit.saving(locks, f"systems:{chat_tg_id}"):
        draft = await OwnSystemDraft.get_or_none(
            chat_tg_id=chat_tg_id, author_tg_id=author_tg_id, asked_message_id=message_id
        )
        if draft is None:
            return None
        step = Step(draft.step)
        answers = answer(draft.answers, step, text)
        if step is Step.NAME:  # a key or name the group can't take is refused now
            await _check_free(chat_tg_id, read_system(text_of(answers)), None)
        after = step.next()
        if after is None:
            definition = finished(answers)
            assert definition is not None
            written = text_of(answers)
            check_text(written)
            await _check_host(chat_tg_id, author_tg_id)
            kept = await _add(chat_tg_id, author_tg_id, written, definition)
            await draft.delete()
            return Answered(None, kept)
        draft.answers, draft.step, draft.asked_message_id = answers, after.value, None
        await draft.save(update_fields=["answers", "step", "asked_message_id", "updated_at"])
        return Answered(after)


async def cancel(chat_tg_id: int, author_tg_id: int, *, locks: KeyedLock, unit: UnitOfWork) -> bool:
    """Drop ``author``'s draft here; whether there was one."""
    async with unit.saving(locks, f"systems:{chat_tg_id}"):
        gone = await OwnSystemDraft.filter(
            chat_tg_id=chat_tg_id, author_tg_id=author_tg_id
        ).delete()
    return bool(gone)
