"""A group's own game systems: a definition its hosts write (docs/systems.md), kept with
every version saved, listed beside the library's, shared by a link and imported as a copy.

Who may change them: a host of a game in the group (a player with the host's role in
any of its games, running or ended, in any topic). A group that has had no game yet
has no host: there anyone in it may write the group's systems.

Every change checks the text as the dice engine reads it (:func:`read_system`: the
fields, the bands, plain labels, the inputs' ranges, the work its exact odds take)
and the store's own limits, before anything is stored; bad input changes nothing.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from tortoise.exceptions import IntegrityError

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.registry import default_registry
from core.rules.systems import Definition, SystemOdds, library, odds, parse_args, read_system
from core.rules.table import Role
from core.runtime.locks import KeyedLock
from core.store.models import Member, OwnSystem, OwnSystemVersion
from core.store.repo import guarded
from core.store.unit import UnitOfWork

MAX_OWN_SYSTEMS = 20  # a group's own systems
MAX_OWN_BYTES = 8 * 1024  # a definition's text, in UTF-8 bytes
SHARE_PREFIX = "sys_"  # a /start payload that imports a shared system

# A short definition: the editor's first text, and /system new's example.
EXAMPLE = """key = "coin"
version = 1
source = "our table"
example = "+1"
value = "total(roll) + bonus"
name = { en = "Coin toss", ru = "Бросок монеты" }
about = { en = "Two coins: heads are 1", ru = "Две монеты: орёл — 1" }

[[inputs]]
key = "bonus"
name = { en = "bonus", ru = "бонус" }
default = 0
min = 0
max = 2

[dice.roll]
count = "2"
die = "d2"

[[outcomes]]
key = "win"
min = 4
label = { en = "Win", ru = "Победа" }

[[outcomes]]
key = "lose"
max = 3
label = { en = "Lose", ru = "Поражение" }
"""

NOT_A_GROUP = "A group's own game systems live in a group: write /system there."
NOT_HOST = "Only a host of a game in this group can change its game systems."
TOO_MANY = "This group has {limit} game systems already: delete one first."
TOO_LONG = "That definition is too long to keep: at most {limit} bytes."
KEY_TAKEN = "A game system with the key “{key}” exists already: pick another key."
NAME_TAKEN = "A game system called “{name}” exists already: pick another name."
NO_SUCH = "This group has no game system “{key}”. /system lists them."
KEY_CHANGED = "The new text must keep the key “{key}”: a new key is a new system (/system new)."
NO_SHARED = "That link doesn't lead to a game system any more: ask for a new one."


@dataclass(frozen=True)
class OwnVersion:
    """One saved version of a group's system, as read."""

    key: str
    version: int
    text: str
    definition: Definition


@dataclass(frozen=True)
class Listed:
    """A system in a group's list: the group's own (with its version) or the library's."""

    key: str
    name_en: str
    name_ru: str
    version: int = 0  # 0: the library's
    own: bool = False

    def name(self, code: str) -> str:
        return self.name_ru if code == "ru" else self.name_en


def _fold(name: str) -> str:
    return " ".join(name.casefold().split())


def _library_taken() -> tuple[set[str], set[str]]:
    """The keys and names the library and the bot's own games hold."""
    keys: set[str] = set()
    names: set[str] = set()
    for definition in library():
        keys.add(definition.key)
        names.update({_fold(definition.name.en), _fold(definition.name.ru)})
    for system in default_registry():
        keys.add(system.key)
        names.add(_fold(system.name))
    return keys, names


def check_text(text: str) -> Definition:
    """``text`` read as a definition a group may keep.

    Raises:
        Malformed: too long to keep, or not a valid definition (the field named).
    """
    if len(text.encode("utf-8")) > MAX_OWN_BYTES:
        raise Malformed(TOO_LONG, limit=MAX_OWN_BYTES)
    return read_system(text)


async def is_host(chat_tg_id: int, user_tg_id: int) -> bool:
    """Whether the user may change the group's systems: a host of one of its games, or
    anyone while the group has had no game."""
    async with guarded():
        members = await Member.filter(campaign__chat__tg_id=chat_tg_id).values(
            "roles", "player__tg_id"
        )
    hosts = {m["player__tg_id"] for m in members if Role.HOST.value in (m["roles"] or [])}
    return not hosts or user_tg_id in hosts


async def _check_host(chat_tg_id: int, user_tg_id: int) -> None:
    if chat_tg_id > 0:  # a private chat's id is the user's, positive; a group's negative
        raise NotAllowedNow(NOT_A_GROUP)
    if not await is_host(chat_tg_id, user_tg_id):
        raise NotAllowedNow(NOT_HOST)


async def _check_free(chat_tg_id: int, definition: Definition, itself: int | None) -> None:
    keys, names = _library_taken()
    others = [s for s in await OwnSystem.filter(chat_tg_id=chat_tg_id) if s.id != itself]
    keys.update(s.key for s in others)
    for s in others:
        names.update({_fold(s.name_en), _fold(s.name_ru)})
    if definition.key in keys and itself is None:
        raise NotAllowedNow(KEY_TAKEN, key=definition.key)
    for name in (definition.name.en, definition.name.ru):
        if _fold(name) in names:
            raise NotAllowedNow(NAME_TAKEN, name=name)


async def _add(chat_tg_id: int, user_tg_id: int, text: str, definition: Definition) -> OwnVersion:
    """Store a new system (within an open transaction), its first version."""
    await _check_free(chat_tg_id, definition, None)
    if await OwnSystem.filter(chat_tg_id=chat_tg_id).count() >= MAX_OWN_SYSTEMS:
        raise NotAllowedNow(TOO_MANY, limit=MAX_OWN_SYSTEMS)
    try:
        row = await OwnSystem.create(
            chat_tg_id=chat_tg_id,
            key=definition.key,
            name_en=definition.name.en,
            name_ru=definition.name.ru,
            version=1,
            created_by_tg_id=user_tg_id,
            updated_by_tg_id=user_tg_id,
        )
    except IntegrityError as error:  # the same key, added meanwhile
        raise NotAllowedNow(KEY_TAKEN, key=definition.key) from error
    await OwnSystemVersion.create(system=row, version=1, text=text, saved_by_tg_id=user_tg_id)
    return OwnVersion(definition.key, 1, text, definition)


async def create(
    chat_tg_id: int, user_tg_id: int, text: str, *, locks: KeyedLock, unit: UnitOfWork
) -> OwnVersion:
    """Keep ``text`` as a new system of the group, its version 1.

    Raises:
        Malformed: the text isn't a definition the group may keep (nothing stored).
        NotAllowedNow: not a host, not a group, too many systems, key or name taken.
    """
    definition = check_text(text)
    await _check_host(chat_tg_id, user_tg_id)
    async with unit.saving(locks, f"systems:{chat_tg_id}"):
        return await _add(chat_tg_id, user_tg_id, text, definition)


async def edit(
    chat_tg_id: int, user_tg_id: int, key: str, text: str, *, locks: KeyedLock, unit: UnitOfWork
) -> OwnVersion:
    """Save ``text`` as the next version of the group's system ``key``; every earlier
    version stays, for the rolls and games made under it.

    Raises:
        Malformed: the text isn't a definition the group may keep (nothing stored).
        NotAllowedNow: not a host, no such system, its key changed, a name taken.
    """
    definition = check_text(text)
    await _check_host(chat_tg_id, user_tg_id)
    async with unit.saving(locks, f"systems:{chat_tg_id}"):
        row = await OwnSystem.get_or_none(chat_tg_id=chat_tg_id, key=key.strip().lower())
        if row is None:
            raise NotAllowedNow(NO_SUCH, key=key[:32])
        if definition.key != row.key:
            raise NotAllowedNow(KEY_CHANGED, key=row.key)
        await _check_free(chat_tg_id, definition, int(row.id))
        version = row.version + 1
        await OwnSystemVersion.create(
            system=row, version=version, text=text, saved_by_tg_id=user_tg_id
        )
        await OwnSystem.filter(id=row.id).update(
            version=version,
            name_en=definition.name.en,
            name_ru=definition.name.ru,
            updated_by_tg_id=user_tg_id,
        )
        return OwnVersion(row.key, version, text, definition)


async def delete(
    chat_tg_id: int, user_tg_id: int, key: str, *, locks: KeyedLock, unit: UnitOfWork
) -> str:
    """Delete the group's system ``key`` and its versions; its key, as kept.

    A game already started under it keeps the definition it started with.

    Raises:
        NotAllowedNow: not a host, or no such system.
    """
    await _check_host(chat_tg_id, user_tg_id)
    async with unit.saving(locks, f"systems:{chat_tg_id}"):
        row = await OwnSystem.get_or_none(chat_tg_id=chat_tg_id, key=key.strip().lower())
        if row is None:
            raise NotAllowedNow(NO_SUCH, key=key[:32])
        await row.delete()
        return row.key


async def share(
    chat_tg_id: int, user_tg_id: int, key: str, *, locks: KeyedLock, unit: UnitOfWork
) -> str:
    """The token another group imports the system ``key`` by (made once, then kept).

    Raises:
        NotAllowedNow: not a host, or no such system.
    """
    await _check_host(chat_tg_id, user_tg_id)
    async with unit.saving(locks, f"systems:{chat_tg_id}"):
        row = await OwnSystem.get_or_none(chat_tg_id=chat_tg_id, key=key.strip().lower())
        if row is None:
            raise NotAllowedNow(NO_SUCH, key=key[:32])
        if row.share_token is None:
            row.share_token = secrets.token_urlsafe(12)
            await OwnSystem.filter(id=row.id).update(share_token=row.share_token)
        return row.share_token


async def share_tokens(chat_tg_id: int) -> dict[str, str]:
    """The group's systems shared so far: each one's token, by key."""
    async with guarded():
        rows = await OwnSystem.filter(chat_tg_id=chat_tg_id, share_token__not_isnull=True)
    return {r.key: r.share_token for r in rows if r.share_token}


async def import_shared(
    chat_tg_id: int, user_tg_id: int, token: str, *, locks: KeyedLock, unit: UnitOfWork
) -> OwnVersion:
    """Copy the system shared by ``token`` (its newest version) into this group, as the
    group's own version 1.

    Raises:
        NotAllowedNow: not a host, the link leads nowhere, too many systems, key or name
            taken here.
    """
    await _check_host(chat_tg_id, user_tg_id)
    token = token.strip().removeprefix(SHARE_PREFIX)
    async with guarded():
        shared = await OwnSystem.get_or_none(share_token=token) if token else None
        found = (
            None
            if shared is None
            else await OwnSystemVersion.get_or_none(system_id=shared.id, version=shared.version)
        )
    if found is None:
        raise NotAllowedNow(NO_SHARED)
    definition = check_text(found.text)
    async with unit.saving(locks, f"systems:{chat_tg_id}"):
        return await _add(chat_tg_id, user_tg_id, found.text, definition)


async def own_definition(
    chat_tg_id: int, key: str, version: int | None = None
) -> tuple[Definition, int]:
    """The group's system ``key`` read, at ``version`` (the newest if None), with the
    version it is: what a game started under it keeps.

    Raises:
        NotAllowedNow: the group has no such system (or no such version).
    """
    found = await own_version(chat_tg_id, key, version)
    return found.definition, found.version


async def own_version(chat_tg_id: int, key: str, version: int | None = None) -> OwnVersion:
    """:func:`own_definition` with the text it was read from."""
    async with guarded():
        row = await OwnSystem.get_or_none(chat_tg_id=chat_tg_id, key=key.strip().lower()[:32])
        kept = (
            None
            if row is None
            else await OwnSystemVersion.get_or_none(
                system_id=row.id, version=row.version if version is None else version
            )
        )
    if row is None or kept is None:
        raise NotAllowedNow(NO_SUCH, key=key[:32])
    return OwnVersion(row.key, kept.version, kept.text, read_system(kept.text))


async def versions(chat_tg_id: int, key: str) -> tuple[int, ...]:
    """Every kept version of the group's system ``key``, oldest first."""
    async with guarded():
        rows = await OwnSystemVersion.filter(
            system__chat_tg_id=chat_tg_id, system__key=key.strip().lower()
        ).order_by("version")
    return tuple(r.version for r in rows)


async def listed(chat_tg_id: int) -> tuple[Listed, ...]:
    """The group's own systems by key, then the library's in its order."""
    async with guarded():
        rows = await OwnSystem.filter(chat_tg_id=chat_tg_id).order_by("key")
    own = tuple(Listed(r.key, r.name_en, r.name_ru, r.version, own=True) for r in rows)
    return own + tuple(Listed(d.key, d.name.en, d.name.ru) for d in library())


def checked_odds(text: str, args: str) -> SystemOdds:
    """``text`` checked as a definition a group may keep, and the exact chance of each of
    its outcomes for the inputs typed as ``/roll`` takes them (``args``): the editor's
    live answer, worked out off the event loop.

    Raises:
        Malformed: the text isn't a definition the group may keep, or ``args`` don't fit it.
    """
    definition = check_text(text)
    return odds(definition, parse_args(definition, args))
