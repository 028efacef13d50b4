"""The button-press path's own statements: what a press checks before it takes the
campaign's lock, the panel's save with a version check, and what an outcome saves
beside it (the campaign's state, sheets, the log, panels it closed).

A press reads its panel, the campaign and its members through the one loader
(:data:`core.store.loader.LOAD`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.rules.history import HistoryRoll
from core.rules.log import LogLine
from core.store.sql import Statement, dump_json, fetch, now


@dataclass(frozen=True)
class PanelHead:
    """What a press checks before taking the campaign's lock."""

    campaign_id: int
    version: int
    closed: bool


_HEAD = "SELECT campaign_id, version, closed FROM panel WHERE id = ?"

_SAVE = (
    "UPDATE panel SET state = ?, version = ?, closed = ?"
    " WHERE id = ? AND version = ? AND closed = ? RETURNING id"
)


async def panel_head(panel_id: int) -> PanelHead | None:
    rows = await fetch(_HEAD, (panel_id,))
    if not rows:
        return None
    row = rows[0]
    return PanelHead(int(row["campaign_id"]), int(row["version"]), bool(row["closed"]))


async def save_panel(panel_id: int, version: int, state: dict[str, Any], closed: bool) -> bool:
    """Store a panel's next version; False when it is no longer at ``version`` or closed."""
    return bool(await fetch(*save_statement(panel_id, version, state, closed)))


def save_statement(panel_id: int, version: int, state: dict[str, Any], closed: bool) -> Statement:
    """The statement of :func:`save_panel`: a row back when the panel was saved."""
    return _SAVE, (dump_json(state), version + 1, closed, panel_id, version, False)


# What an outcome saves beside its panel (core.campaigns.base.settling): the campaign's
# state with a version check, a player's sheet, the log's new lines.
_SAVE_CAMPAIGN = (
    "UPDATE campaign SET state = ?, version = ? WHERE id = ? AND version = ? RETURNING id"
)
_SAVE_SHEET = "UPDATE member SET sheet = ? WHERE id = ?"
_LOG = "INSERT INTO log_entry (campaign_id, kind, text, player_ids, words, created_at) VALUES "
_CLOSE = "UPDATE panel SET closed = ?, version = ? WHERE id = ?"


def campaign_statement(campaign_id: int, version: int, state: dict[str, Any]) -> Statement:
    """The campaign's new state at ``version + 1``: a row back when ``version`` was current."""
    return _SAVE_CAMPAIGN, (dump_json(state), version + 1, campaign_id, version)


def sheet_statement(member_id: int, sheet: dict[str, Any]) -> Statement:
    return _SAVE_SHEET, (dump_json(sheet), member_id)


def log_statement(campaign_id: int, lines: Sequence[LogLine]) -> Statement:
    """The log's new lines (at least one), in their order, in one statement."""
    at = now()
    marks = ", ".join("(?, ?, ?, ?, ?, ?)" for _ in lines)
    values: list[Any] = []
    for line in lines:
        words = None if line.words is None else dump_json(line.words.to_json())
        values += [campaign_id, line.kind.value, line.text[:500], dump_json(list(line.player_ids))]
        values += [words, at]
    return _LOG + marks, values


_HISTORY = (  # VALUES, so that each value's type is the column's (PostgreSQL)
    "INSERT INTO roll_record (chat_id, player_id, notation, label, total, faces, created_at,"
    " topic_id, campaign_id, seen_by, revealed, system)"
    " VALUES ((SELECT chat_id FROM campaign WHERE id = ?), (SELECT id FROM player WHERE tg_id = ?),"
    " ?, ?, ?, ?, ?, (SELECT topic_id FROM campaign WHERE id = ?), ?, ?, ?, ?) RETURNING id"
)


def history_statement(
    campaign_id: int, roll: HistoryRoll, seen_by: Sequence[int] | None = None
) -> Statement:
    """A game's own roll kept in its chat's roll history, as played in the campaign (a
    secret one with who saw it); its row's id comes back."""
    faces = [[[total, int(kept)] for total, kept in group] for group in roll.faces]
    seen = None if seen_by is None else dump_json(list(seen_by))
    values = [campaign_id, roll.by, roll.notation, "", roll.total, dump_json(faces), now()]
    return _HISTORY, [*values, campaign_id, campaign_id, seen, False, dump_json(roll.system)]


def close_statement(panel_id: int, version: int) -> Statement:
    """A panel closed at ``version`` (a change called its procedure over or retired it)."""
    return _CLOSE, (True, version, panel_id)
