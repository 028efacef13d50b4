"""Campaign export and import as JSON, so players can keep (and move) their world.

The archive holds the campaign's state, its members with their roles and sheets,
its log, and (``nudges``) its reminder wait, who muted reminders, and its turn order;
an archive from before those imports without them, as a game from before them is.
:func:`export_campaign` is the whole game, secrets included (the operator's command);
:func:`export_for_member` is what a member downloads from the Mini App: their
projection of it (:mod:`core.views.projection`), nothing more (no turn order either).
Open procedures (panels) are not exported: they are finished or started again
after an import. Importing validates the whole file before writing
anything, and writes it in one transaction.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from core.campaigns import Campaigns, CampaignView
from core.campaigns.play import ChatRef, PlayerRef
from core.rules.errors import Malformed, NotAllowedNow, StonetableError
from core.rules.log import Words
from core.rules.reminders import MAX_WAIT, MIN_WAIT
from core.rules.table import Role
from core.rules.turns import TurnOrder
from core.store import reminders
from core.store.models import Campaign, CampaignStatus, LogEntry, Member
from core.store.repo import guarded, upsert_chat, upsert_player
from core.store.unit import UnitOfWork
from core.views.projection import LogLineView, Projection

FORMAT = "stonetable-campaign"
VERSION = 1
MAX_MEMBERS = 200
MAX_LOG = 5000


async def export_campaign(campaign_id: int, now: float) -> dict[str, Any]:
    """The whole campaign as JSON-ready data."""
    async with guarded():
        campaign = await Campaign.get(id=campaign_id).select_related("chat", "host")
        members = await Member.filter(campaign_id=campaign_id).select_related("player")
        log = await LogEntry.filter(campaign_id=campaign_id).order_by("id").limit(MAX_LOG)
        settings = await reminders.settings_of(campaign_id)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": datetime.fromtimestamp(now, UTC).isoformat(),
        "system": campaign.system,
        "status": campaign.status.value,
        "chat_title": campaign.chat.title,
        "host": campaign.host.tg_id,
        "state": campaign.state,
        "members": [
            {
                "player": {
                    "id": m.player.tg_id,
                    "first_name": m.player.first_name,
                    "last_name": m.player.last_name,
                    "username": m.player.username,
                },
                "roles": list(m.roles),
                "sheet": m.sheet,
                "active": m.active,
            }
            for m in members
        ],
        "log": [
            {
                "kind": e.kind,
                "text": e.text,
                "players": e.player_ids,
                "at": e.created_at.isoformat(),
                **({} if e.words is None else {"words": e.words}),
            }
            for e in log
        ],
        "nudges": {
            "wait_minutes": (
                None if settings.wait is None else int(settings.wait.total_seconds() // 60)
            ),
            "muted": sorted(settings.muted),
            "order": None if settings.order is None else settings.order.to_dict(),
        },
    }


def export_for_member(
    projection: Projection, log: tuple[LogLineView, ...], now: float
) -> dict[str, Any]:
    """A member's copy of the game: exactly their projection of it, as JSON-ready data.

    Same format as :func:`export_campaign`, built from what this member may see: the
    projected state, the active members with their projected sheets, the log.
    """
    view, table = projection.view, projection.table
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": datetime.fromtimestamp(now, UTC).isoformat(),
        "system": view.system.key,
        "status": view.status.value,
        "chat_title": view.chat_title,
        "host": view.host_id,
        "state": dict(table.state),
        "members": [
            {
                "player": {"id": m.player_id, "first_name": m.name},
                "roles": sorted(r.value for r in m.roles),
                "sheet": dict(table.seats[m.player_id].sheet),
                "active": True,
            }
            for m in view.members
            if m.player_id in table.seats
        ],
        "log": [
            {
                "kind": str(e.kind),
                "text": e.text,
                "players": list(e.players),
                "at": e.at.isoformat(),
                **({} if e.words is None else {"words": e.words.to_json()}),
            }
            for e in log
        ],
    }


def _words(data: object) -> dict[str, Any] | None:
    """A log line's words as exported (message id and values), or None when absent or odd."""
    said = Words.from_json(data)
    return None if said is None else said.to_json()


def _fail(what: str) -> Malformed:
    return Malformed("That file isn't a Stonetable campaign export ({what}).", what=what)


def _check(data: Any, campaigns: Campaigns) -> None:
    """Validate an archive completely before anything is written."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail("unknown format")
    if data.get("version") != VERSION:
        raise _fail(f"version {data.get('version')!r} is not supported")
    system = campaigns.registry.find(str(data.get("system", "")))
    if not isinstance(data.get("state"), dict):
        raise _fail("no campaign state")
    system.campaign.check_state(data["state"])  # a game system's text travels with it
    members = data.get("members")
    if not isinstance(members, list) or not 1 <= len(members) <= MAX_MEMBERS:
        raise _fail("no players")
    seen: set[int] = set()
    for member in members:
        player = member.get("player") if isinstance(member, dict) else None
        if not isinstance(player, dict) or not isinstance(player.get("id"), int):
            raise _fail("a player without an id")
        if player["id"] in seen:
            raise _fail("a player listed twice")
        seen.add(player["id"])
        roles = member.get("roles")
        if not isinstance(roles, list) or not all(r in {x.value for x in Role} for r in roles):
            raise _fail("unknown roles")
        if not isinstance(member.get("sheet"), dict):
            raise _fail("a sheet that is not an object")
    log = data.get("log", [])
    if (
        not isinstance(log, list)
        or len(log) > MAX_LOG
        or not all(isinstance(e, dict) and isinstance(e.get("text"), str) for e in log)
    ):
        raise _fail("a damaged log")
    _nudges(data.get("nudges"), seen)


def _nudges(
    data: Any, players: set[int]
) -> tuple[timedelta | None, frozenset[int], TurnOrder | None]:
    """An archive's reminder wait, mutes and turn order (none of them in an older one).

    Raises:
        Malformed: they are damaged, or name someone who is not in the game.
    """
    if data is None:
        return None, frozenset(), None
    if not isinstance(data, dict):
        raise _fail("damaged reminder settings")
    wait = data.get("wait_minutes")
    muted = data.get("muted", [])
    if wait is not None and (
        type(wait) is not int or not MIN_WAIT <= timedelta(minutes=wait) <= MAX_WAIT
    ):
        raise _fail("damaged reminder settings")
    if not isinstance(muted, list) or not all(type(p) is int and p in players for p in muted):
        raise _fail("damaged reminder settings")
    order = None
    if data.get("order") is not None:
        if not isinstance(data["order"], dict):
            raise _fail("a damaged turn order")
        try:
            order = TurnOrder.from_dict(data["order"])
        except StonetableError:
            raise _fail("a damaged turn order") from None
        if not set(order.players) <= players:
            raise _fail("a damaged turn order")
    return (None if wait is None else timedelta(minutes=wait)), frozenset(muted), order


async def import_campaign(
    campaigns: Campaigns,
    data: Any,
    chat: ChatRef,
    host: PlayerRef,
    *,
    unit: UnitOfWork | None = None,
) -> CampaignView:
    """Recreate an exported campaign in a group chat, hosted by ``host``.

    Raises:
        Malformed: the file is not a valid export (nothing is written).
        NotAllowedNow: not a group, or a game is already running there.
    """
    _check(data, campaigns)
    if chat.kind not in ("group", "supergroup"):
        raise NotAllowedNow("Import a game into a group chat.")
    unit = unit or UnitOfWork()
    async with unit.saving(campaigns.locks, f"chat:{chat.tg_id}:{chat.topic}"):
        if await Campaign.get_or_none(live_chat_id=chat.tg_id, topic_id=chat.topic) is not None:
            raise NotAllowedNow("A game is already running here. End it before importing.")
        chat_row = await upsert_chat(chat.tg_id, chat.kind, chat.title)
        host_row = await upsert_player(host.tg_id, host.first_name, host.last_name, host.username)
        campaign = await Campaign.create(
            chat=chat_row,
            live_chat_id=chat.tg_id,
            topic_id=chat.topic,
            system=data["system"],
            host=host_row,
            app_token=secrets.token_urlsafe(16),
            state=data["state"],
            status=CampaignStatus.ACTIVE,
        )
        importer_listed = False
        for member in data["members"]:
            player = member["player"]
            row = await upsert_player(
                player["id"],
                str(player.get("first_name", ""))[:128],
                str(player.get("last_name", ""))[:128],
                str(player.get("username", ""))[:64],
            )
            roles = [r for r in member["roles"] if r != Role.HOST.value]
            if player["id"] == host.tg_id:
                importer_listed = True
                roles = [Role.HOST.value, *roles]
            await Member.create(
                campaign=campaign,
                player=row,
                roles=roles or ["player"],
                sheet=member["sheet"],
                active=bool(member.get("active", True)),
            )
        if not importer_listed:
            await Member.create(
                campaign=campaign, player=host_row, roles=[Role.HOST.value, Role.PLAYER.value]
            )
        wait, muted, order = _nudges(
            data.get("nudges"), {m["player"]["id"] for m in data["members"]}
        )
        if "nudges" in data:
            await reminders.keep_imported(campaign.id, wait, muted, order)
        for entry in data.get("log", []):
            await LogEntry.create(
                campaign=campaign,
                kind=str(entry.get("kind", "note"))[:16],
                text=str(entry["text"])[:500],
                player_ids=[p for p in entry.get("players", []) if isinstance(p, int)],
                words=_words(entry.get("words")),
            )
    view = await campaigns.current(chat.tg_id, chat.topic)
    assert view is not None
    return view
