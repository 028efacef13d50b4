"""Use cases: what a player can do, independent of Telegram or the web.

Each use case validates its input first (so bad input changes nothing), then
loads, applies a rule and saves inside one transaction, and returns plain data
for the edges to render.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from core.rules import dice
from core.rules.errors import Malformed
from core.rules.rng import Rng
from core.rules.roll_cost import is_large
from core.runtime.errors import TryAgain
from core.runtime.heavy import HeavyWork
from core.runtime.locks import KeyedLock
from core.store.models import Chat, PendingNote, RollRecord
from core.store.repo import chat_id, guarded, player_id, upsert_chat, upsert_player
from core.store.sql import dump_json, execute, fetch, now
from core.store.unit import UnitOfWork

RECENT_ROLLS = 10
_ADD_ROLL = (
    "INSERT INTO roll_record (chat_id, player_id, notation, label, total, faces, created_at,"
    " topic_id, campaign_id, seen_by, revealed)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
    " (SELECT id FROM campaign WHERE live_chat_id = ? AND topic_id = ?), ?, ?)"
)
MAX_HELD_NOTES = 30
ID_MIN, ID_MAX = -(2**63), 2**63 - 1  # every Telegram id is stored as a signed 64-bit integer
ID_OUT_OF_RANGE = "That Telegram account or chat can't be used here: its id is out of range."


def check_id(value: int) -> int:
    """``value`` if it fits the store's 64-bit ids.

    Raises:
        Malformed: it does not (no real Telegram id is that large).
    """
    if not ID_MIN <= value <= ID_MAX:
        raise Malformed(ID_OUT_OF_RANGE)
    return value


@dataclass(frozen=True)
class PlayerRef:
    """Who is acting, as Telegram tells us."""

    tg_id: int
    first_name: str
    last_name: str = ""
    username: str = ""
    language_code: str | None = None  # their Telegram app's language (None: not told)

    def __post_init__(self) -> None:
        check_id(self.tg_id)

    @property
    def display_name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p) or "player"


@dataclass(frozen=True)
class ChatRef:
    tg_id: int
    kind: str
    title: str = ""
    topic: int = 0  # the forum topic (message_thread_id); 0: a plain group or General

    def __post_init__(self) -> None:
        check_id(self.tg_id)


@dataclass(frozen=True)
class TableRoll:
    """A roll made outside the chat (in the Mini App), to be posted there as the player's."""

    result: dice.RollResult
    chat_tg_id: int
    topic: int
    who: str
    language: str


@dataclass(frozen=True)
class SecretRoll:
    """A secret roll as it is recorded to the outbox: what its messages are drawn from."""

    result: dice.RollResult
    roll_id: int


@dataclass(frozen=True)
class HeldNotes:
    """A player's held private messages, taken to be sent (recorded to the outbox)."""

    tg_id: int
    notes: list[tuple[str, dict[str, object] | None]]


@dataclass(frozen=True)
class RollLine:
    notation: str
    label: str
    total: int
    chat_title: str
    at: datetime


@dataclass(frozen=True)
class Home:
    """What the Mini App's first page shows a player."""

    player: PlayerRef
    chat_title: str
    recent_rolls: tuple[RollLine, ...]


def _roll_rows(
    chat_row: int,
    player_row: int,
    chat: ChatRef,
    expression: dice.DiceExpression,
    result: dice.RollResult,
    seen_by: tuple[int, ...] | None,
) -> list[tuple[object, ...]]:
    """The roll's rows as ``_ADD_ROLL`` takes them (who saw it, for a secret roll): one
    per repeat, each its own roll of the expression rolled once, all at one moment (the
    history reads a repeated roll's rows back by it)."""
    once = replace(expression, repeat=1).notation
    at = now()
    seen = None if seen_by is None else dump_json(sorted(set(seen_by)))
    return [
        (
            chat_row,
            player_row,
            once,
            expression.label,
            outcome.total,
            dump_json(_faces(outcome)),
            at,
            chat.topic,
            chat.tg_id,
            chat.topic,
            seen,
            False,
        )
        for outcome in result.outcomes
    ]


def _faces(outcome: dice.Outcome) -> list[list[list[int]]]:
    """Each dice term's dice as [total, kept]."""
    return [
        [[die.total, int(die.kept)] for die in part.rolled]
        for part in outcome.parts
        if isinstance(part, dice.DiceRoll)
    ]


class Play:
    """The application's use cases, with their dependencies passed in.

    ``heavy`` runs large rolls (:func:`core.rules.roll_cost.is_large`) in a worker
    process, one at a time per player; without it every roll is made at once.
    """

    def __init__(
        self,
        rng: Rng,
        locks: KeyedLock,
        clock: Callable[[], float],
        *,
        heavy: HeavyWork | None = None,
    ) -> None:
        self.rng = rng
        self.locks = locks
        self.clock = clock
        self.heavy = heavy

    async def roll(
        self,
        chat: ChatRef,
        player: PlayerRef,
        text: str | dice.DiceExpression,
        *,
        unit: UnitOfWork | None = None,
        seen_by: tuple[int, ...] | None = None,
    ) -> dice.RollResult:
        """Roll dice notation for a player in a chat and keep it in the log.

        The record keeps the chat's topic and the game live there, for the history.

        Args:
            text: dice notation, or an expression read already (a saved roll's).
            unit: the change's unit of work: the Telegram update asking is claimed with
                the record, so a redelivered copy rolls nothing (AlreadyHandled); its
                message is recorded on it, sent after the commit.
            seen_by: a secret roll: the Telegram ids of those shown it (the roller,
                a GM); the history shows it to no one else until it is revealed.

        Raises:
            Malformed: the notation is not a roll (nothing is stored).
            TryAgain: the database is unreachable.
        """
        result, _ = await self._roll(chat, player, text, unit, seen_by, kept=False)
        return result

    async def roll_at_table(
        self,
        chat: ChatRef,
        player: PlayerRef,
        expression: dice.DiceExpression,
        language: str,
        *,
        unit: UnitOfWork | None = None,
    ) -> TableRoll:
        """A roll made in the Mini App (a saved roll tapped), kept like :meth:`roll` and
        posted in the game's chat as the player's roll, in the game's ``language``."""
        posted: list[TableRoll] = []

        def shown(result: dice.RollResult) -> TableRoll:
            posted.append(TableRoll(result, chat.tg_id, chat.topic, player.display_name, language))
            return posted[-1]

        await self._roll(chat, player, expression, unit, None, kept=False, shown=shown)
        return posted[0]

    async def roll_in_secret(
        self,
        chat: ChatRef,
        player: PlayerRef,
        text: str | dice.DiceExpression,
        seen_by: tuple[int, ...],
        *,
        unit: UnitOfWork | None = None,
    ) -> tuple[dice.RollResult, int]:
        """:meth:`roll`, kept as a secret roll seen by ``seen_by``; also the record's id
        (its reveal button names it)."""
        return await self._roll(chat, player, text, unit, seen_by, kept=True)

    async def _roll(
        self,
        chat: ChatRef,
        player: PlayerRef,
        text: str | dice.DiceExpression,
        unit: UnitOfWork | None,
        seen_by: tuple[int, ...] | None,
        *,
        kept: bool,
        shown: Callable[[dice.RollResult], object] | None = None,
    ) -> tuple[dice.RollResult, int]:
        expression = text if isinstance(text, dice.DiceExpression) else dice.parse(text)
        if self.heavy is not None and is_large(expression):
            result = await self.heavy.run(player.tg_id, dice.roll, expression, self.rng)
        else:
            result = dice.roll(expression, self.rng)
        unit = unit or UnitOfWork()
        shown_as = result if shown is None else shown(result)
        # its message drawn from the dice, before the transaction (a secret roll's needs
        # the record's id: drawn in it)
        effects = None if kept else await unit.plan(shown_as)
        async with guarded(), unit.atomic():
            # hand-written statements: the ORM's query building cost more than the roll
            chat_row = await chat_id(chat.tg_id, chat.kind, chat.title)
            player_row = await player_id(
                player.tg_id,
                player.first_name,
                player.last_name,
                player.username,
                player.language_code,
            )
            rows = _roll_rows(chat_row, player_row, chat, expression, result, seen_by)
            if kept:  # a secret roll: its first row's id names it on the reveal button
                ids = [int((await fetch(_ADD_ROLL + " RETURNING id", v))[0]["id"]) for v in rows]
                roll_id = ids[0]
                # its private note, then the chat's line, sent after the commit
                await unit.record(SecretRoll(result, roll_id))
                return result, roll_id
            for values in rows:  # each repeat its own roll, in the history and the averages
                await execute(_ADD_ROLL, values)
            await unit.record(shown_as, effects=effects)  # its message, sent after the commit
        return result, 0

    async def health(self) -> bool:
        """True when the database answers."""
        try:
            async with guarded():
                await Chat.filter(id=0).exists()
        except TryAgain:
            return False
        return True

    async def chat_app_token(self, chat: ChatRef) -> str:
        """The unguessable token that opens the Mini App for a chat."""
        async with guarded():
            return (await upsert_chat(chat.tg_id, chat.kind, chat.title)).app_token

    async def mark_started(self, player: PlayerRef) -> None:
        """Remember that a player opened a private chat with the bot."""
        async with guarded():
            row = await upsert_player(
                player.tg_id,
                player.first_name,
                player.last_name,
                player.username,
                player.language_code,
            )
            if not row.started_private:
                row.started_private = True
                await row.save(update_fields=["started_private"])

    async def hold_note(self, tg_id: int, text: str, markup: dict[str, object] | None) -> None:
        """Keep a private message for a player the bot cannot reach right now."""
        async with guarded(), UnitOfWork().committing():
            await PendingNote.create(player_tg_id=tg_id, text=text, markup=markup)
            stale = (
                await PendingNote.filter(player_tg_id=tg_id)
                .order_by("-id")
                .offset(MAX_HELD_NOTES)
                .values_list("id", flat=True)
            )
            if stale:
                await PendingNote.filter(id__in=list(stale)).delete()

    async def take_notes(
        self, tg_id: int, *, unit: UnitOfWork | None = None
    ) -> list[tuple[str, dict[str, object] | None]]:
        """The held private messages of a player, oldest first; they are removed."""
        unit = unit or UnitOfWork()
        async with guarded(), unit.atomic():
            notes = await PendingNote.filter(player_tg_id=tg_id).order_by("id")
            await PendingNote.filter(id__in=[n.id for n in notes]).delete()
            taken = HeldNotes(tg_id, [(n.text, n.markup) for n in notes])
            if notes:
                await unit.record(taken)  # their messages, sent after the commit
        return taken.notes

    async def home(self, player: PlayerRef, start_param: str) -> Home:
        """The Mini App home page for a verified player.

        The chat named by ``start_param`` is shown only to players who have
        played in it; nothing about other players is returned.
        """
        async with guarded():
            row = await upsert_player(
                player.tg_id,
                player.first_name,
                player.last_name,
                player.username,
                player.language_code,
            )
            chat_title = ""
            if start_param:
                chat = await Chat.get_or_none(app_token=start_param)
                if chat is not None and await RollRecord.exists(chat=chat, player=row):
                    chat_title = chat.title
            records = (
                await RollRecord.filter(player=row)
                .order_by("-created_at", "-id")
                .limit(RECENT_ROLLS)
                .prefetch_related("chat")
            )
        lines = tuple(
            RollLine(r.notation, r.label, r.total, r.chat.title, r.created_at) for r in records
        )
        return Home(player=player, chat_title=chat_title, recent_rolls=lines)
