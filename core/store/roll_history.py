"""The rolls made in a chat, read back: ``/rolls`` and the Mini App's roll history.

Every ``/roll`` is stored (:meth:`core.campaigns.play.Play.roll`) with who rolled, the expression
as text, the total, the dice, the note, the chat and topic, the game live there and the
time; a game system's own roll (a library game's, a group's own system's) is stored with
it (:func:`core.campaigns.base.settling`) with the system's words: its name, the version
that rolled, the inputs, the outcome and its chance. A secret roll also keeps who saw it
(``seen_by``: the roller and the GM); until it is revealed it is read back only by them.
:func:`visible_to` is that rule, the one place it is decided; every reader here applies
it before a roll leaves this module, so the group's ``/rolls`` and other members' pages
never hold a secret roll's dice or note.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.store.models import Campaign
from core.store.repo import guarded
from core.store.sql import fetch, load_json

CHAT_ROLLS = 10  # /rolls shows this many
PAGE_ROLLS = 100  # the Mini App's history shows at most this many
_BATCH = 200
_MAX_READ = 5000  # a history never reads further back than this many rolls

_ROLLS = (
    "SELECT r.id AS id, r.notation AS notation, r.label AS label, r.total AS total,"
    " r.faces AS faces, r.created_at AS created_at, r.campaign_id AS campaign_id,"
    " r.seen_by AS seen_by, r.revealed AS revealed, r.system AS system, p.tg_id AS player_tg_id,"
    " p.first_name AS first_name, p.last_name AS last_name"
    " FROM roll_record r JOIN chat c ON c.id = r.chat_id JOIN player p ON p.id = r.player_id"
    " WHERE c.tg_id = ? AND r.topic_id = ?{more}"
    " ORDER BY r.id DESC LIMIT ? OFFSET ?"
)


def visible_to(seen_by: Sequence[int] | None, revealed: bool, viewer: int | None) -> bool:
    """Whether a stored roll may be shown to ``viewer`` (None: everyone in the chat).

    A public roll (``seen_by`` None) and a revealed one show to all; a secret roll
    only to those who saw it when it was rolled.
    """
    return seen_by is None or revealed or (viewer is not None and viewer in seen_by)


@dataclass(frozen=True)
class StoredRoll:
    """One roll as it was stored (never rolled again: the engine may have changed)."""

    id: int
    player_tg_id: int
    who: str
    notation: str
    note: str
    total: int
    faces: tuple[tuple[tuple[int, int], ...], ...]  # per dice term: (value, kept)
    at: datetime
    campaign_id: int | None
    secret: bool  # rolled in secret (shown here: the viewer saw it, or it was revealed)
    # a game system's own roll: its name, version, inputs, outcome and chance (in every
    # language, see core.rules.dicesystem.table.history); None: dice notation
    system: Mapping[str, Any] | None = None


def _name(row: dict[str, Any]) -> str:
    return " ".join(p for p in (row["first_name"], row["last_name"]) if p) or "player"


def _at(value: object) -> datetime:
    if isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))


def _stored(row: dict[str, Any]) -> StoredRoll:
    faces = load_json(row["faces"]) or []
    return StoredRoll(
        id=int(row["id"]),
        player_tg_id=int(row["player_tg_id"]),
        who=_name(row),
        notation=str(row["notation"]),
        note=str(row["label"] or ""),
        total=int(row["total"]),
        faces=tuple(tuple((int(f[0]), int(f[1])) for f in term) for term in faces),
        at=_at(row["created_at"]),
        campaign_id=None if row["campaign_id"] is None else int(row["campaign_id"]),
        secret=load_json(row["seen_by"]) is not None,
        system=_system(row.get("system")),
    )


def _system(value: object) -> Mapping[str, Any] | None:
    found = load_json(value) if value is not None else None
    return found if isinstance(found, Mapping) else None


async def rolls_in(
    chat_tg_id: int,
    topic: int,
    viewer: int | None,
    *,
    limit: int = CHAT_ROLLS,
    player: int | None = None,
    campaign: int | None = None,
) -> tuple[StoredRoll, ...]:
    """The newest ``limit`` rolls of a chat's topic that ``viewer`` may see, newest first.

    Args:
        viewer: the Telegram id reading; None for the chat itself (only what all saw).
        player: only this player's rolls (Telegram id).
        campaign: only rolls made while this game was live there.
    """
    more, values = "", list[object]([chat_tg_id, topic])
    if player is not None:
        more += " AND p.tg_id = ?"
        values.append(player)
    if campaign is not None:
        more += " AND r.campaign_id = ?"
        values.append(campaign)
    query = _ROLLS.format(more=more)
    found: list[StoredRoll] = []
    async with guarded():
        for offset in range(0, _MAX_READ, _BATCH):
            rows = await fetch(query, [*values, _BATCH, offset])
            for row in rows:
                if visible_to(load_json(row["seen_by"]), bool(row["revealed"]), viewer):
                    found.append(_stored(row))
                    if len(found) == limit:
                        return tuple(found)
            if len(rows) < _BATCH:
                break
    return tuple(found)


@dataclass(frozen=True)
class GameAt:
    """A game played in a chat's topic, to filter its rolls by."""

    id: int
    system: str  # the game system's key
    started: datetime
    state: Mapping[str, Any] | None = None  # its campaign state (a group's own system's name)


async def games_in(chat_tg_id: int, topic: int) -> tuple[GameAt, ...]:
    """Every game played in a chat's topic, newest first."""
    async with guarded():
        rows = (
            await Campaign.filter(chat__tg_id=chat_tg_id, topic_id=topic)
            .order_by("-id")
            .values_list("id", "system", "created_at", "state")
        )
    return tuple(GameAt(int(i), str(s), _at(c), load_json(st)) for i, s, c, st in rows)


@dataclass(frozen=True)
class KeptRoll:
    """One stored roll with who saw it, for deciding about it (not for showing).
    ``repeats``: every roll made with it at once (a repeated roll's rows, itself first)."""

    roll: StoredRoll
    seen_by: tuple[int, ...] | None
    revealed: bool
    chat_tg_id: int
    topic: int
    repeats: tuple[StoredRoll, ...] = ()


_ONE = (
    "SELECT r.id AS id, r.notation AS notation, r.label AS label, r.total AS total,"
    " r.faces AS faces, r.created_at AS created_at, r.campaign_id AS campaign_id,"
    " r.seen_by AS seen_by, r.revealed AS revealed, r.system AS system, r.topic_id AS topic_id,"
    " p.tg_id AS player_tg_id, p.first_name AS first_name, p.last_name AS last_name,"
    " c.tg_id AS chat_tg_id"
    " FROM roll_record k JOIN roll_record r ON r.chat_id = k.chat_id"
    " AND r.player_id = k.player_id AND r.topic_id = k.topic_id AND r.created_at = k.created_at"
    " AND r.id >= k.id"
    " JOIN chat c ON c.id = r.chat_id JOIN player p ON p.id = r.player_id"
    " WHERE k.id = ? ORDER BY r.id"
)


async def kept_roll(roll_id: int) -> KeptRoll | None:
    """A stored roll by its id, with who saw it and the repeats rolled with it (a
    repeated roll's rows share its moment); None when there is none."""
    async with guarded():
        rows = await fetch(_ONE, (roll_id,))
    if not rows:
        return None
    row = rows[0]
    seen = load_json(row["seen_by"])
    same = [r for r in rows if load_json(r["seen_by"]) == seen]
    return KeptRoll(
        _stored(row),
        None if seen is None else tuple(int(p) for p in seen),
        bool(row["revealed"]),
        int(row["chat_tg_id"]),
        int(row["topic_id"]),
        tuple(_stored(r) for r in same),
    )
