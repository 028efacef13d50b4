"""Reminders that last: each game's wait, mutes and turn order, each player's quiet hours,
and the next reminder to every player a game waits on, as rows.

When the table moves on, :func:`schedule` restarts the wait: each player it now waits
on gets a private reminder due a wait later (past their quiet hours), and a reminder to
anyone it no longer waits on is dropped. A worker's sweep claims the due rows with
:func:`claim_due`, as outbox rows are claimed (:mod:`core.store.outbox`): a lease, a
conditional ``UPDATE`` with one winner, and on PostgreSQL a dead worker's rows taken over
at once (:mod:`core.store.liveness`); a claimed reminder is then either sent
(:func:`sent`: the private one becomes the group line a second wait later, the group
line ends the wait) or let go (:func:`release`). A paused or ended game, a leaving player
and a mute :func:`cancel` theirs; a paused game's rows are never claimed.

The clock is passed in (``now``, an aware datetime): nothing here reads the time itself.
The reminders' timing is the rules' (:mod:`core.rules.reminders`); this module keeps it.

Invariants: at most one row per player and game; a row is claimed by one worker at a time.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.rules.errors import Malformed
from core.rules.registry import GameSystem
from core.rules.reminders import (
    BAD_ZONE,
    NEW_GAME_WAIT,
    Due,
    PlayerNudges,
    QuietHours,
    Stage,
    after_sent,
    first_reminders,
    parse_offset,
    parse_quiet,
)
from core.rules.table import Table
from core.rules.turns import TurnOrder, without
from core.rules.waiting import Waiting, awaited_at_table
from core.store import liveness, outbox
from core.store.models import CampaignStatus, GameNudges, Panel, PlayerQuiet, ReminderRow
from core.store.sql import execute, fetch

LEASE = timedelta(seconds=60)  # how long a worker holds the reminders it is sending


@dataclass(frozen=True)
class GameSettings:
    """A game's reminder settings and turn order as kept."""

    wait: timedelta | None = None  # None: reminders off (every game from before them)
    muted: frozenset[int] = frozenset()
    order: TurnOrder | None = None
    since: datetime | None = None  # when the table last moved on


class OpenPanel(NamedTuple):
    """An open panel of a game as a change read it: its state as stored, or typed."""

    id: int
    kind: str
    state: object


@dataclass(frozen=True)
class Claimed:
    """A due reminder one worker claimed: send it, then :func:`sent` or :func:`release`."""

    id: int
    campaign_id: int
    due: Due
    token: str


def _epoch(moment: datetime) -> float:
    return moment.timestamp()


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


async def settings_of(campaign_id: int) -> GameSettings:
    """The game's settings (off, with no row: a game from before reminders)."""
    row = await GameNudges.get_or_none(campaign_id=campaign_id)
    if row is None:
        return GameSettings()
    return GameSettings(
        wait=None if row.wait_minutes is None else timedelta(minutes=row.wait_minutes),
        muted=frozenset(int(p) for p in row.muted),
        order=None if row.turn_order is None else TurnOrder.from_dict(row.turn_order),
        since=_moment(row.since) if row.since else None,
    )


async def _row(campaign_id: int) -> GameNudges:
    row, _ = await GameNudges.get_or_create(
        campaign_id=campaign_id, defaults={"wait_minutes": None, "muted": []}
    )
    return row


async def start_new_game(campaign_id: int) -> None:
    """A new game: reminders on, at :data:`NEW_GAME_WAIT`."""
    row = await _row(campaign_id)
    row.wait_minutes = int(NEW_GAME_WAIT.total_seconds() // 60)
    await row.save(update_fields=["wait_minutes"])


async def set_wait(campaign_id: int, wait: timedelta | None) -> None:
    """``/nudge 12h`` or ``/nudge off``; reminders already due keep their time until the
    table moves on, except that ``off`` cancels them."""
    row = await _row(campaign_id)
    row.wait_minutes = None if wait is None else int(wait.total_seconds() // 60)
    if wait is None:
        row.since = 0.0  # the wait is no longer timed
    await row.save(update_fields=["wait_minutes", "since"])
    if wait is None:
        await cancel(campaign_id)


async def set_muted(campaign_id: int, player: int, muted: bool) -> None:
    """``/nudge mute`` (its reminder, private or in the group, is dropped) or ``unmute``."""
    row = await _row(campaign_id)
    kept = set(int(p) for p in row.muted)
    kept = kept | {player} if muted else kept - {player}
    row.muted = sorted(kept)
    await row.save(update_fields=["muted"])
    if muted:
        await cancel(campaign_id, player)


async def set_turn_order(campaign_id: int, order: TurnOrder | None) -> None:
    """Keep the game's turn order (None: no order)."""
    row = await _row(campaign_id)
    row.turn_order = None if order is None else order.to_dict()
    await row.save(update_fields=["turn_order"])


async def keep_imported(
    campaign_id: int, wait: timedelta | None, muted: Iterable[int], order: TurnOrder | None
) -> None:
    """An imported game's wait, mutes and turn order, as its export held them."""
    await GameNudges.update_or_create(
        campaign_id=campaign_id,
        defaults={
            "wait_minutes": None if wait is None else int(wait.total_seconds() // 60),
            "muted": sorted(set(muted)),
            "turn_order": None if order is None else order.to_dict(),
        },
    )


def zone_named(name: str) -> tzinfo:
    """The time zone a device named (an IANA name or a UTC offset).

    Raises:
        Malformed: neither.
    """
    if "/" in name or name.upper() == "UTC":
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            raise Malformed(BAD_ZONE) from None
    return parse_offset(name)


async def set_quiet_hours(player: int, hours: str | None, zone: str = "") -> None:
    """A player's quiet hours (``22:00-07:00`` on the clock of ``zone``), or None: none.

    Raises:
        Malformed: hours or zone that can't be read; nothing changes.
    """
    if hours is None:
        await PlayerQuiet.filter(player_tg_id=player).delete()
        return
    quiet = parse_quiet(hours, zone_named(zone))
    await PlayerQuiet.update_or_create(
        player_tg_id=player,
        defaults={
            "start": quiet.start.strftime("%H:%M"),
            "end": quiet.end.strftime("%H:%M"),
            "zone": zone,
        },
    )


async def quiet_hours_as_set(player: int) -> tuple[str, str, str] | None:
    """A player's quiet hours as they set them (from, to, time zone), or None."""
    row = await PlayerQuiet.get_or_none(player_tg_id=player)
    return None if row is None else (row.start, row.end, row.zone)


async def quiet_hours_of(players: Iterable[int]) -> dict[int, QuietHours]:
    """The quiet hours of those of ``players`` who set some."""
    found: dict[int, QuietHours] = {}
    for row in await PlayerQuiet.filter(player_tg_id__in=list(players)):
        try:
            found[row.player_tg_id] = parse_quiet(f"{row.start}-{row.end}", zone_named(row.zone))
        except Malformed:
            continue  # a zone this machine no longer knows: no quiet hours rather than none
    return found


async def _nudges(settings: GameSettings, players: Iterable[int]) -> dict[int, PlayerNudges]:
    listed = list(players)
    quiet = await quiet_hours_of(listed)
    return {p: PlayerNudges(p in settings.muted, quiet.get(p)) for p in listed}


async def schedule(campaign_id: int, awaited: frozenset[int], now: datetime) -> tuple[Due, ...]:
    """The table moved on at ``now`` and waits on ``awaited``: the wait restarts for each of
    them (a private reminder a wait later), and reminders to anyone else are dropped (their
    wait was met). Run inside the change's transaction. Returns what is now scheduled."""
    settings = await settings_of(campaign_id)
    if settings.wait is not None:
        await GameNudges.filter(campaign_id=campaign_id).update(since=_epoch(now))
    nudges = await _nudges(settings, awaited)
    due = first_reminders(awaited, now, settings.wait, nudges)
    keep = [d.player for d in due]
    await ReminderRow.filter(campaign_id=campaign_id).exclude(player_tg_id__in=keep).delete()
    for d in due:
        await ReminderRow.update_or_create(
            campaign_id=campaign_id,
            player_tg_id=d.player,
            defaults={
                "stage": d.stage.value,
                "due_at": _epoch(d.at),
                "claimed_until": 0.0,
                "claimed_by": "",
            },
        )
    return due


_MOVED = (
    "UPDATE game_nudges SET since = ? WHERE campaign_id = ? AND wait_minutes IS NOT NULL"
    " RETURNING wait_minutes, muted, turn_order"
)
_UPSERT = (
    "INSERT INTO reminder (campaign_id, player_tg_id, stage, due_at, claimed_until, claimed_by)"
    " VALUES {rows} ON CONFLICT (campaign_id, player_tg_id) DO UPDATE SET stage = excluded.stage,"
    " due_at = excluded.due_at, claimed_until = 0.0, claimed_by = ''"
)


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


async def moved_on(
    table: Table,
    system: GameSystem,
    now: datetime,
    held: Mapping[int, object] | None = None,
    panels: Iterable[OpenPanel] | None = None,
) -> tuple[Due, ...]:
    """The table moved on at ``now`` (any change to the game): :func:`schedule` for whoever
    it waits on now (:func:`awaited_at`), in as few statements as that takes: the wait's
    start kept and the settings read at once, and nothing more than dropping every
    reminder when reminders are off. Run inside the change's transaction. ``held``: the
    open panels' typed states the change already holds, by panel id (read no twice);
    ``panels``: the game's open panels as the change read them (None: read here)."""
    found = await fetch(_MOVED, (_epoch(now), table.campaign_id))
    if not found:  # reminders off (or a game from before them): nobody is reminded
        await execute("DELETE FROM reminder WHERE campaign_id = ?", (table.campaign_id,))
        return ()
    kept = found[0]
    order = _json(kept["turn_order"])
    settings = GameSettings(
        wait=timedelta(minutes=int(kept["wait_minutes"])),
        muted=frozenset(int(p) for p in _json(kept["muted"]) or ()),
        order=None if order is None else TurnOrder.from_dict(order),
    )
    awaited = await _awaited(table, system, settings, held or {}, panels)
    nudges = await _nudges(settings, awaited) if awaited else {}
    due = first_reminders(awaited, now, settings.wait, nudges)
    keep = [d.player for d in due]
    marks = "".join(f" AND player_tg_id <> {int(p)}" for p in keep)
    await execute(f"DELETE FROM reminder WHERE campaign_id = ?{marks}", (table.campaign_id,))
    if due:
        rows = ", ".join("(?, ?, ?, ?, 0.0, '')" for _ in due)
        cid = table.campaign_id
        values = tuple(v for d in due for v in (cid, d.player, d.stage.value, _epoch(d.at)))
        await execute(_UPSERT.format(rows=rows), values)
    return due


async def cancel(campaign_id: int, player: int | None = None) -> int:
    """Drop the game's reminders (a paused or ended game), or one player's (they left or
    muted them). Returns how many were dropped."""
    rows = ReminderRow.filter(campaign_id=campaign_id)
    if player is not None:
        rows = rows.filter(player_tg_id=player)
    return int(await rows.delete())


async def scheduled(campaign_id: int) -> dict[int, Due]:
    """The game's reminders by player (for the Mini App's "waiting on Bo" and tests)."""
    return {
        row.player_tg_id: Due(row.player_tg_id, Stage(row.stage), _moment(row.due_at))
        for row in await ReminderRow.filter(campaign_id=campaign_id)
    }


_DUE = (
    "SELECT r.id AS id FROM reminder r JOIN campaign c ON c.id = r.campaign_id"
    " WHERE r.due_at <= ? AND c.status = ? AND {claimable} ORDER BY r.due_at, r.id LIMIT {limit}"
)


async def claim_due(
    now: datetime, *, worker: str = outbox.WORKER, limit: int = 50, take_over: bool = True
) -> list[Claimed]:
    """Claim the reminders due at ``now`` in active games, for this worker alone: rows no
    worker holds, or whose lease ran out, or (PostgreSQL, ``take_over``) held by a worker
    that died. Two workers never claim the same row."""
    moment = _epoch(now)
    claimable = "r.claimed_until < ?"
    values: tuple[Any, ...] = (moment,)
    gone = await _dead_holders(moment, worker) if take_over else set()
    if gone:
        marks = ", ".join("?" for _ in gone)
        claimable = f"(r.claimed_until < ? OR substr(r.claimed_by, 1, 8) IN ({marks}))"
        values += tuple(sorted(gone))
    query = _DUE.format(claimable=claimable, limit=int(limit))
    found = await fetch(query, (moment, CampaignStatus.ACTIVE.value, *values))
    if not found:
        return []
    ids = [int(r["id"]) for r in found]
    token = f"{worker[:8]}{secrets.token_hex(4)}"  # this claim, not only this worker
    marks = ", ".join("?" for _ in ids)
    own = claimable.replace("r.", "")
    await execute(
        f"UPDATE reminder SET claimed_until = ?, claimed_by = ? WHERE id IN ({marks}) AND {own}",
        (moment + LEASE.total_seconds(), token, *ids, *values),
    )
    rows = await fetch(
        f"SELECT id, campaign_id, player_tg_id, stage, due_at FROM reminder"
        f" WHERE id IN ({marks}) AND claimed_by = ? ORDER BY due_at, id",
        (*ids, token),
    )
    return [
        Claimed(
            int(r["id"]),
            int(r["campaign_id"]),
            Due(int(r["player_tg_id"]), Stage(str(r["stage"])), _moment(float(r["due_at"]))),
            token,
        )
        for r in rows
    ]


async def _dead_holders(moment: float, worker: str) -> set[str]:
    """The workers (ids' first 8 digits) still leasing reminders that are dead."""
    if not liveness.watching():
        return set()
    found = await fetch(
        "SELECT DISTINCT substr(claimed_by, 1, 8) AS holder FROM reminder"
        " WHERE claimed_until >= ? AND claimed_by <> ?",
        (moment, ""),
    )
    return await liveness.dead({str(r["holder"]) for r in found} - {worker[:8]})


async def sent(claimed: Claimed, now: datetime) -> Due | None:
    """The claimed reminder was sent at ``now``: a private one becomes the group line a
    second wait later; the group line ends this wait (the row goes). Nothing when the
    claim was lost meanwhile (the table moved on: the row was rescheduled). Returns the
    reminder that follows, if any."""
    settings = await settings_of(claimed.campaign_id)
    nudges = await _nudges(settings, [claimed.due.player])
    follow = after_sent(claimed.due, now, settings.wait, nudges[claimed.due.player])
    if follow is None:
        await execute(
            "DELETE FROM reminder WHERE id = ? AND claimed_by = ?", (claimed.id, claimed.token)
        )
        return None
    changed = await execute(
        "UPDATE reminder SET stage = ?, due_at = ?, claimed_until = ?, claimed_by = ?"
        " WHERE id = ? AND claimed_by = ?",
        (follow.stage.value, _epoch(follow.at), 0.0, "", claimed.id, claimed.token),
    )
    return follow if changed else None


async def due_in_group(claimed: Claimed, now: datetime) -> bool:
    """The claimed private reminder can't reach its player (they never started the bot, or
    blocked it): the group line is due at ``now`` instead, unless they muted the game (then
    the wait ends). False when the claim was lost meanwhile."""
    settings = await settings_of(claimed.campaign_id)
    if claimed.due.player in settings.muted:
        return bool(
            await execute(
                "DELETE FROM reminder WHERE id = ? AND claimed_by = ?", (claimed.id, claimed.token)
            )
        )
    changed = await execute(
        "UPDATE reminder SET stage = ?, due_at = ?, claimed_until = ?, claimed_by = ?"
        " WHERE id = ? AND claimed_by = ?",
        (Stage.GROUP.value, _epoch(now), 0.0, "", claimed.id, claimed.token),
    )
    return bool(changed)


async def release(claimed: Iterable[Claimed]) -> None:
    """Give claimed reminders back unsent (a passing fault): any worker may send them now."""
    for c in claimed:
        await execute(
            "UPDATE reminder SET claimed_until = ?, claimed_by = ? WHERE id = ? AND claimed_by = ?",
            (0.0, "", c.id, c.token),
        )


async def drop_met(campaign_id: int, awaited: frozenset[int]) -> int:
    """Drop the reminders of players the table no longer waits on (their wait was met
    meanwhile), without restarting anyone else's wait. Returns how many went."""
    rows = ReminderRow.filter(campaign_id=campaign_id).exclude(player_tg_id__in=list(awaited))
    return int(await rows.delete())


async def left(campaign_id: int, player: int) -> bool:
    """``player`` left the game: their reminder goes, and they drop out of the turn order
    (the turn passing on if it was theirs). Returns whether the turn order changed."""
    await cancel(campaign_id, player)
    row = await GameNudges.get_or_none(campaign_id=campaign_id)
    if row is None or row.turn_order is None:
        return False
    order = TurnOrder.from_dict(row.turn_order)
    after = without(order, player)
    if after == order:
        return False
    await set_turn_order(campaign_id, after)
    return True


async def stopped(campaign_id: int, *, ended: bool) -> None:
    """The game was paused (its reminders go; they start again as the table moves on) or
    ended (its turn order goes too)."""
    await cancel(campaign_id)
    if ended:
        await GameNudges.filter(campaign_id=campaign_id).update(turn_order=None)


async def awaited_at(table: Table, system: GameSystem) -> tuple[frozenset[int], datetime | None]:
    """Whom the game waits on now (every open panel as its rules say, and the player
    holding the turn), and since when (None: the wait is not timed, reminders off)."""
    settings = await settings_of(table.campaign_id)
    return await _awaited(table, system, settings, {}), settings.since


async def _awaited(
    table: Table,
    system: GameSystem,
    settings: GameSettings,
    held: Mapping[int, object],
    panels: Iterable[OpenPanel] | None = None,
) -> frozenset[int]:
    """Whom the table waits on: its open ``panels`` (read here when None) and the turn."""
    if panels is None:
        found = Panel.filter(campaign_id=table.campaign_id, closed=False).order_by("id")
        panels = [OpenPanel(int(row.id), row.kind, row.state) for row in await found]
    waiting: list[Waiting] = []
    for panel in panels:
        if panel.kind not in system.panels:
            continue
        try:
            state = held.get(panel.id, panel.state)  # typed where the change holds it
            waiting.append(system.panel(panel.kind).waiting(table, state))
        except Malformed:
            continue  # a damaged panel waits on nobody
    holder = None if settings.order is None else settings.order.holder
    return awaited_at_table(waiting, holder) & frozenset(table.seats)
