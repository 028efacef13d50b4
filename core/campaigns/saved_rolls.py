"""Saved rolls: ``/save atk 1d20+5 adv``, then ``/roll atk``.

A player's own saved rolls go with them everywhere (private chats, every group, the
Mini App). A game's host may also save rolls for the whole table: those belong to the
chat's topic and every player there can use them; a player's own roll of the same
name wins. Names are kept as typed and found whatever their case
(:func:`core.rules.saved.key`); the text is checked as a roll (with the saved rolls
it uses) before anything is stored, so bad input changes nothing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Any

from tortoise.exceptions import IntegrityError

from core.campaigns.play import ChatRef, Play, PlayerRef, TableRoll
from core.rules import dice
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.saved import (
    Expansion,
    check_name,
    expand,
    key,
    might_use,
    renamed_in,
    unknown_name,
    uses,
)
from core.store.models import Chat, Player
from core.store.models import SavedList as ListRow
from core.store.models import SavedRoll as SavedRow
from core.store.repo import guarded, player_id
from core.store.unit import UnitOfWork

_FIRST_WORD = re.compile(r"[^\W\d_]+")  # the letters a saved roll's name starts with

MAX_SAVED = 50  # saved rolls per player, and per table
MAX_TEXT = dice.MAX_INPUT

NO_SUCH = "There is no saved roll “{name}”. /saved lists yours."
TAKEN = "There is a saved roll “{name}” already. Delete it first, or pick another name."
TOO_MANY = "That's {limit} saved rolls already: delete one first."
TEXT_TOO_LONG = "That roll is too long to save: at most {limit} characters."
NOT_HOST = "Only the host of the game here can save rolls for the whole table."
NOT_YOURS = "That saved roll isn't yours to change."
GONE = "That saved roll is no longer there."
THEIR_LIST = "These are {name}'s saved rolls: /saved shows yours."
SOMEONE_ELSES_LIST = "These are another player's saved rolls: /saved shows yours."
RENAME_TOO_LONG = (
    "With the new name, “{name}” (which uses this roll) would be longer than {limit} "
    "characters. Pick a shorter name."
)


@dataclass(frozen=True)
class Table:
    """Where a table's saved rolls belong: a chat's topic (0: none, or General)."""

    chat_tg_id: int
    topic: int = 0


@dataclass(frozen=True)
class SavedRoll:
    """One saved roll as a player sees it."""

    name: str
    text: str
    id: int = 0
    table: bool = False  # saved by the game's host for the whole table
    was_text: str = ""  # its text before the notation read it otherwise (not yet shown)


@dataclass(frozen=True)
class Reread:
    """A saved roll the notation now reads otherwise: its text before and now, and how
    the reading changed (:func:`core.rules.dice.reading_changes`; ``rewritten`` when its
    ``cs``/``cf`` counts were rewritten to the same count in today's notation)."""

    name: str
    before: str
    now: str
    changes: tuple[str, ...]
    rewritten: bool


@dataclass(frozen=True)
class Resolved:
    """A roll's text with its saved rolls read: the expression to roll (its note names
    the saved roll used), and the saved rolls it named."""

    expression: dice.DiceExpression
    used: tuple[SavedRoll, ...]


def _saved(row: SavedRow) -> SavedRoll:
    return SavedRoll(
        row.name, row.text, int(row.id), row.table_chat_tg_id is not None, row.was_text
    )


async def reread_once(rolls: Sequence[SavedRoll]) -> tuple[Reread, ...]:
    """Of ``rolls``, those the notation reads otherwise than when they were saved, told
    once: each is marked shown, so the next call leaves it out."""
    pending = [r for r in rolls if r.was_text]
    if not pending:
        return ()
    async with guarded():
        shown = (
            await SavedRow.filter(id__in=[r.id for r in pending])
            .exclude(was_text="")
            .update(was_text="")
        )
    if not shown:  # another request told them first
        return ()
    return tuple(
        Reread(
            r.name,
            r.was_text,
            r.text,
            dice.reading_changes(r.text),
            dice.counts_rewritten(r.was_text) == r.text and r.was_text != r.text,
        )
        for r in pending
    )


def _where(owner: int | None, table: Table | None) -> dict[str, Any]:
    if table is not None:
        return {"table_chat_tg_id": table.chat_tg_id, "topic_id": table.topic}
    return {"owner_tg_id": owner}


async def listed(user_id: int, table: Table | None = None) -> tuple[SavedRoll, ...]:
    """The user's own saved rolls, then the table's (those the user's own don't hide),
    each by name."""
    async with guarded():
        own = await SavedRow.filter(owner_tg_id=user_id).order_by("name_key")
        shared = (
            await SavedRow.filter(table_chat_tg_id=table.chat_tg_id, topic_id=table.topic).order_by(
                "name_key"
            )
            if table is not None
            else []
        )
    mine = {row.name_key for row in own}
    return tuple(_saved(r) for r in own) + tuple(
        _saved(r) for r in shared if r.name_key not in mine
    )


async def list_for(player: PlayerRef, table: Table | None = None) -> tuple[SavedRoll, ...]:
    """:func:`listed`, for a list the player is shown: they are kept as a player (with
    their name as now), so a press on their list by someone else can name them."""
    async with guarded(), UnitOfWork().committing():
        await player_id(
            player.tg_id, player.first_name, player.last_name, player.username,
            player.language_code,
        )  # fmt: skip
    return await listed(player.tg_id, table)


def _book(saved: tuple[SavedRoll, ...]) -> dict[str, str]:
    return {key(s.name): s.text for s in saved}


async def suggestions(user_id: int, prefix: str, limit: int = 10) -> list[SavedRoll]:
    """The user's own saved rolls whose name starts with ``prefix`` (any case), by name."""
    start = key(prefix.strip())
    if len(start) > 32 or limit <= 0:
        return []
    async with guarded():
        rows = (
            await SavedRow.filter(owner_tg_id=user_id, name_key__startswith=start)
            .order_by("name_key")
            .limit(limit)
        )
    return [_saved(r) for r in rows]


async def offered(user_id: int, query: str, limit: int) -> list[tuple[str, str]]:
    """The player's saved rolls offered for an inline query, as (name, notation): the
    query itself when it uses them (``atk+2``), then those whose name starts with its
    first word. Each is spelled out in plain dice, so one that uses another rolls too;
    one that no longer reads (a roll it used was deleted) is left out."""
    typed = query.strip()
    found: list[tuple[str, str]] = []
    if might_use(typed):
        with suppress(Malformed):
            if (resolved := await resolve(typed, user_id)) is not None:
                found.append((typed, resolved.expression.notation))
    word = _FIRST_WORD.match(typed)
    for saved in await suggestions(user_id, word[0] if word else "", limit):
        with suppress(Malformed):
            if (resolved := await resolve(saved.name, user_id)) is not None:
                found.append((saved.name, resolved.expression.notation))
    return found


async def resolve(text: str, user_id: int, table: Table | None = None) -> Resolved | None:
    """``text`` read with the saved rolls the user may use here; None when it names none.

    Raises:
        Malformed: the text (or a saved roll it uses) is no roll, or the saved rolls
            loop.
    """
    words = text.split()
    if not words:
        return None
    saved = await listed(user_id, table)
    book = _book(saved)
    if not uses(text, book):
        if unknown_name(text, book) is not None:
            expand(text, book)  # no roll: refused naming the saved roll there is none of
        return None
    found: Expansion = expand(text, book)
    by_key = {key(s.name): s for s in saved}
    used = tuple(by_key[k] for k in dict.fromkeys(found.used))
    names = ", ".join(s.name for s in used)
    note = found.expression.label
    label = f"{names}: {note}" if note and note != names else names
    return Resolved(replace(found.expression, label=label[: dice.MAX_LABEL]), used)


async def saved_or_text(chat: ChatRef, player: PlayerRef, text: str) -> str | dice.DiceExpression:
    """``text`` read with the player's saved rolls (the table's too, in a group), or as it
    is when it names none."""
    if not might_use(text):
        return text
    table = None if chat.kind == "private" else Table(chat.tg_id, chat.topic)
    resolved = await resolve(text, player.tg_id, table)
    return text if resolved is None else resolved.expression


def check_text(text: str, book: Mapping[str, str], name: str | None = None) -> str:
    """The roll's text as it will be saved, checked as a roll with the saved rolls it uses.

    Raises:
        Malformed: it is empty, too long, or not a roll.
    """
    text = " ".join(text.split())
    if len(text) > MAX_TEXT:
        raise Malformed(TEXT_TOO_LONG, limit=MAX_TEXT)
    expand(text, book, within=name)
    return text


async def save(
    owner: int,
    name: str,
    text: str,
    table: Table | None = None,
    *,
    unit: UnitOfWork | None = None,
) -> tuple[SavedRoll, bool]:
    """Save ``text`` under ``name`` for ``owner`` (or, given ``table``, for the whole
    table); a roll of the same name is replaced. Also whether one was replaced.
    ``unit``: the change's unit of work (a Mini App request's carries its key).

    Raises:
        Malformed: the name or the roll can't be saved (nothing changes).
        NotAllowedNow: too many saved rolls already.
    """
    name = check_name(name)
    # the table's rolls may use the table's only; a player's, their own
    book = _book(await (listed(0, table) if table is not None else listed(owner)))
    book[key(name)] = text  # a roll using its own name is a loop
    text = check_text(text, book, name)
    where = _where(owner, table)
    try:
        async with guarded(), (unit or UnitOfWork()).committing():  # with the request's key
            row = await SavedRow.get_or_none(**where, name_key=key(name))
            if row is not None:
                row.name, row.text, row.was_text = name, text, ""  # saved anew: read today
                await row.save(update_fields=["name", "text", "was_text"])
                return _saved(row), True
            if await SavedRow.filter(**where).count() >= MAX_SAVED:
                raise NotAllowedNow(TOO_MANY, limit=MAX_SAVED)
            row = await SavedRow.create(**where, name=name, name_key=key(name), text=text)
    except IntegrityError as error:  # saved meanwhile by another request
        raise NotAllowedNow(TAKEN, name=name) from error
    return _saved(row), False


async def save_for_table(
    owner: int,
    name: str,
    text: str,
    table: Table | None,
    host_id: int | None,
    *,
    unit: UnitOfWork | None = None,
) -> tuple[SavedRoll, bool]:
    """Save ``text`` under ``name`` for the whole ``table``, as its game's host
    (``host_id``) may; a roll of the same name there is replaced.

    Raises:
        NotAllowedNow: ``owner`` is not the host, or there is no game's table here
            (nothing changes), or too many saved rolls already.
        Malformed: the name or the roll can't be saved (nothing changes).
    """
    if table is None or host_id is None or host_id != owner:
        raise NotAllowedNow(NOT_HOST)
    return await save(owner, name, text, table, unit=unit)


async def find(owner: int, name: str, table: Table | None = None) -> SavedRoll:
    """The owner's saved roll called ``name`` (or the table's, given ``table``).

    Raises:
        NotAllowedNow: there is none.
    """
    async with guarded():
        row = await SavedRow.get_or_none(**_where(owner, table), name_key=key(name.strip()))
    if row is None:
        raise NotAllowedNow(NO_SUCH, name=name.strip()[:32])
    return _saved(row)


async def by_id(saved_id: int) -> SavedRoll | None:
    async with guarded():
        row = await SavedRow.get_or_none(id=saved_id)
    return None if row is None else _saved(row)


async def usable(saved_id: int, user_id: int, table: Table | None) -> SavedRoll:
    """Saved roll ``saved_id`` if ``user_id`` may roll it here (theirs, or this table's).

    Raises:
        NotAllowedNow: it is gone, or not theirs to use here.
    """
    async with guarded():
        row = await SavedRow.get_or_none(id=saved_id)
    if row is None:
        raise NotAllowedNow(GONE)
    own = row.owner_tg_id == user_id
    here = table is not None and (row.table_chat_tg_id, row.topic_id) == (
        table.chat_tg_id,
        table.topic,
    )
    if not (own or here):
        raise NotAllowedNow(GONE)
    return _saved(row)


def mark(roll: SavedRoll) -> str:
    """A short fingerprint of a saved roll as a list shows it (its name and text): a
    list's button carries it, so a press on a list drawn before a change is told apart."""
    return hashlib.sha256(f"{roll.name}\x00{roll.text}".encode()).hexdigest()[:8]


async def pressed(
    saved_id: int, owner: int, shown: str, user_id: int, table: Table | None
) -> SavedRoll | None:
    """The saved roll a ``/saved`` list's button rolls for ``user_id``; None when the
    list no longer shows the saved rolls as they are (one was renamed, changed or
    deleted since it was drawn): then it is drawn anew and nothing rolls.

    Raises:
        NotAllowedNow: the list is someone else's (``owner``'s) and the roll is not
            this table's, so not the presser's to roll.
    """
    async with guarded():
        row = await SavedRow.get_or_none(id=saved_id)
        here = (
            row is not None
            and table is not None
            and (row.table_chat_tg_id, row.topic_id) == (table.chat_tg_id, table.topic)
        )
        person = None if user_id == owner or here else await Player.get_or_none(tg_id=owner)
    if user_id != owner and not here:
        name = " ".join(p for p in (person.first_name, person.last_name) if p) if person else ""
        if not name:
            raise NotAllowedNow(SOMEONE_ELSES_LIST)
        raise NotAllowedNow(THEIR_LIST, name=name)
    roll = None if row is None else _saved(row)
    if roll is None or mark(roll) != shown:
        return None
    return await usable(saved_id, user_id, table)


async def _row(saved_id: int, user_id: int, hosted: Table | None) -> SavedRow:
    """Saved roll ``saved_id`` if ``user_id`` may change it: their own, or the table's
    of ``hosted`` (a table whose game they host)."""
    async with guarded():
        row = await SavedRow.get_or_none(id=saved_id)
    if row is None:
        raise NotAllowedNow(GONE)
    if row.owner_tg_id == user_id:
        return row
    if hosted is not None and (row.table_chat_tg_id, row.topic_id) == (
        hosted.chat_tg_id,
        hosted.topic,
    ):
        return row
    raise NotAllowedNow(NOT_YOURS)


@dataclass(frozen=True)
class Renamed:
    """A renamed saved roll, and the names of the other saved rolls (of its owner, or of
    its table) that used it and now name it anew."""

    roll: SavedRoll
    updated: tuple[str, ...] = ()


async def rename(
    saved_id: int,
    user_id: int,
    new: str,
    hosted: Table | None = None,
    *,
    unit: UnitOfWork | None = None,
) -> Renamed:
    """Give a saved roll another name; the saved rolls beside it (the owner's, or the
    table's) that use it are rewritten to use the new name, in the same transaction.

    Raises:
        Malformed: the new name can't be a saved roll's.
        NotAllowedNow: it is gone or not the user's, the name is taken, or a roll using
            it would grow too long.
    """
    new = check_name(new)
    row = await _row(saved_id, user_id, hosted)
    old = row.name
    async with guarded():
        where = _where(row.owner_tg_id, None)
        if row.table_chat_tg_id is not None:
            where = _where(None, Table(row.table_chat_tg_id, row.topic_id))
        clash = await SavedRow.filter(**where, name_key=key(new)).exclude(id=row.id).exists()
        if clash:
            raise NotAllowedNow(TAKEN, name=new)
        row.name, row.name_key = new, key(new)
        try:
            async with (unit or UnitOfWork()).committing():  # with the request's key
                await row.save(update_fields=["name", "name_key"])
                updated = await _rewrite_uses(where, row, old, new)
        except IntegrityError as error:
            raise NotAllowedNow(TAKEN, name=new) from error
    return Renamed(_saved(row), updated)


async def _rewrite_uses(
    where: dict[str, Any], renamed: SavedRow, old: str, new: str
) -> tuple[str, ...]:
    """Make the saved rolls of ``where`` that use ``old`` name ``new``; their names."""
    if key(old) == key(new):
        return ()  # only its case changed: every use still finds it
    updated = []
    for other in await SavedRow.filter(**where).exclude(id=renamed.id).order_by("name_key"):
        text = renamed_in(other.text, old, new)
        if text == other.text:
            continue
        if len(text) > MAX_TEXT:
            raise NotAllowedNow(RENAME_TOO_LONG, name=other.name, limit=MAX_TEXT)
        other.text = text
        await other.save(update_fields=["text"])
        updated.append(other.name)
    return tuple(updated)


async def delete(
    saved_id: int, user_id: int, hosted: Table | None = None, *, unit: UnitOfWork | None = None
) -> SavedRoll:
    """Delete a saved roll of the user's (or of the table they host).

    Raises:
        NotAllowedNow: it is gone or not the user's.
    """
    row = await _row(saved_id, user_id, hosted)
    async with guarded(), (unit or UnitOfWork()).committing():  # with the request's key
        await row.delete()
    return _saved(row)


async def roll_at_table(
    play: Play,
    player: PlayerRef,
    table: Table,
    language: str,
    saved_id: int,
    *,
    unit: UnitOfWork | None = None,
) -> TableRoll:
    """Roll a saved roll from the Mini App: kept like /roll, posted in the game's chat
    (``table``) as the player's roll, in the game's ``language``.

    Raises:
        NotAllowedNow: the saved roll is gone, or not the player's to use here.
        Malformed: it no longer reads (a saved roll it used was renamed, or loops).
    """
    roll = await usable(saved_id, player.tg_id, table)
    resolved = await resolve(roll.name, player.tg_id, table)
    if resolved is None:
        raise NotAllowedNow(GONE)
    async with guarded():
        chat = await Chat.get_or_none(tg_id=table.chat_tg_id)
    kind, title = (chat.kind.value, chat.title) if chat is not None else ("supergroup", "")
    where = ChatRef(table.chat_tg_id, kind, title, table.topic)
    return await play.roll_at_table(where, player, resolved.expression, language, unit=unit)


@dataclass(frozen=True)
class ShownList:
    """A ``/saved`` list on screen: its message, whose saved rolls it shows, and where
    (``table``: the group topic whose table's rolls it shows too; None in private)."""

    chat_tg_id: int
    message_id: int
    owner: int
    table: Table | None
    language: str


def _shown(row: ListRow) -> ShownList:
    table = Table(row.chat_tg_id, row.topic_id) if row.in_group else None
    return ShownList(row.chat_tg_id, row.message_id, row.owner_tg_id, table, row.language)


async def lists_here(owner: int, where: Table) -> tuple[ShownList, ...]:
    """``owner``'s lists on screen in a chat's topic (``where``; a private chat's topic 0):
    those a newer list there supersedes."""
    async with guarded():
        rows = await ListRow.filter(
            owner_tg_id=owner, chat_tg_id=where.chat_tg_id, topic_id=where.topic
        )
    return tuple(_shown(r) for r in rows)


async def list_shown(shown: ShownList) -> None:
    """Keep a list just posted, to redraw when its saved rolls change; the owner's older
    lists in the same chat's topic are no longer kept (it supersedes them)."""
    topic = shown.table.topic if shown.table is not None else 0
    async with guarded(), UnitOfWork().committing():
        await ListRow.filter(
            owner_tg_id=shown.owner, chat_tg_id=shown.chat_tg_id, topic_id=topic
        ).delete()
        await ListRow.create(
            chat_tg_id=shown.chat_tg_id, message_id=shown.message_id, owner_tg_id=shown.owner,
            topic_id=topic, in_group=shown.table is not None, language=shown.language,
        )  # fmt: skip


async def lists_showing(owner: int, table: Table | None) -> tuple[ShownList, ...]:
    """The lists on screen that show ``owner``'s saved rolls, or ``table``'s: those to
    redraw after one of them changed."""
    async with guarded():
        rows = list(await ListRow.filter(owner_tg_id=owner))
        if table is not None:
            rows += await ListRow.filter(
                chat_tg_id=table.chat_tg_id, topic_id=table.topic, in_group=True
            ).exclude(owner_tg_id=owner)
    return tuple(_shown(r) for r in rows)
