"""The NSU map, card details and card authoring pages, and card pictures.

Secrecy: every card goes through :func:`visible_map` / :func:`visible_card` for
the viewer of this request; a face the viewer may not see is never put in a
context, so neither the HTML nor the JSON can hold it. Pictures are served
only to viewers who may see that face, and accepted only from the card's author.
"""

from __future__ import annotations

from typing import Any

import aiohttp_jinja2
from aiohttp import web

from core.campaigns import CampaignView
from core.campaigns.pictures import MAX_PICTURE_BYTES, BadPicture, check_picture, face_key
from core.rules.choice import actors
from core.rules.errors import Malformed, NotAllowedNow, StonetableError
from core.rules.nsu.campaign import NsuCampaign, campaign_of, character_of
from core.rules.nsu.cards_page import page_choices
from core.rules.nsu.details import DetailKind, Polarity
from core.rules.nsu.roll_panel import ROLL_PANEL, RollPanel, grants_for
from core.rules.nsu.setup import LOCATIONS_PER_PLAYER, SetupStep, describe_step
from core.rules.nsu.setup_panel import column_choices, dealing_choices
from core.rules.nsu.world import (
    CardView,
    LocationCard,
    World,
    arbiters,
    on_screen,
    visible_card,
    visible_map,
)
from core.rules.table import Table
from core.views.open_panels import OpenPanel
from core.views.projection import open_panels
from core.views.viewer_pages import Snapshot, snapshot_for_viewer
from core.words.i18n import N_
from webapp.auth import InitDataInvalid
from webapp.deps import DEPS, unit_of
from webapp.errors import checked_json, message_of, problem_response, status_of
from webapp.i18n import request_lang
from webapp.sheets.nsu import ACTIONS, clock_slices
from webapp.views import _dumps, _player, authenticate, cached_page

NSU = "nsu"


def _key(view: CampaignView, card: LocationCard) -> str:
    return face_key(view.id, card.author_id, card.title, card.description)


def _name_of(table: Table, player_id: int) -> str:
    seat = table.seat(player_id)
    if seat is None:
        return "someone"
    character = character_of(seat)
    return character.name if character is not None else seat.name


def card_view(
    view: CampaignView,
    world: World,
    card: CardView,
    viewer_id: int,
    pictures: frozenset[str],
    *,
    detail: bool = False,
) -> dict[str, Any]:
    """What the viewer may see of one card, as plain data."""
    out: dict[str, Any] = {
        "id": card.id,
        "danger": None if card.danger is None else card.danger.label,
        "reward": None if card.reward is None else card.reward.label,
        "revealed": card.revealed,
        "face_visible": card.face_visible,
        "current": world.current == card.id,
    }
    if detail:
        out["danger_guide"] = None if card.danger is None else card.danger.guide
        out["reward_guide"] = None if card.reward is None else card.reward.guide
    if not card.face_visible:
        return out
    full = world.card(card.id)
    out.update(
        title=card.title,
        mine=card.author_id == viewer_id,
        clock_ticks=card.clock_ticks,
        clock=clock_slices(card.clock_ticks or 0),
        picture=_key(view, full) in pictures,
    )
    if detail:
        out.update(
            description=card.description,
            collateral_target=card.collateral_target,
            danger_type=card.danger_type,
            treasure_type=card.treasure_type,
            scene_details=list(card.scene_details or ()),
        )
    return out


def _cell(
    view: CampaignView,
    world: World,
    cell: CardView | None,
    viewer_id: int,
    pictures: frozenset[str],
) -> dict[str, Any] | None:
    """One place on the map as this viewer may see it (None: no card there)."""
    return None if cell is None else card_view(view, world, cell, viewer_id, pictures)


def map_context(
    view: CampaignView, table: Table, viewer_id: int, pictures: frozenset[str]
) -> dict[str, Any]:
    """The map for one viewer: backs for everyone, faces only where the rules allow."""
    campaign = campaign_of(table)
    world = campaign.current_world()
    dealing = dealing_context(campaign, viewer_id)
    if world is None or world.grid is None:
        return {
            "dealt": False,
            "status": _setup_status(campaign),
            "status_words": _setup_words(campaign),
            "dealing": dealing,
            "actions": ACTIONS,
        }
    seen = visible_map(world, viewer_id)
    rows = [[_cell(view, world, cell, viewer_id, pictures) for cell in row] for row in seen.rows]
    together = not world.groups
    return {
        "dealt": True,
        "status": None if dealing is None else _setup_status(campaign),
        "status_words": None if dealing is None else _setup_words(campaign),
        "rows": rows,
        "columns": len(rows[0]) if rows else 0,
        "home": None if seen.home is None else list(seen.home),
        "at_home": seen.current is None,
        "current": seen.current,
        "current_title": next(
            (c["title"] for row in rows for c in row if c and c["current"] and c.get("title")),
            seen.current,
        ),
        "together": together,
        "on_screen": sorted(_name_of(table, p) for p in on_screen(world) if p in table.seats),
        "arbiters": []
        if together
        else sorted(_name_of(table, p) for p in arbiters(world) if p in table.seats),
        "dealing": dealing,
        "actions": ACTIONS,
    }


def dealing_context(campaign: NsuCampaign, viewer_id: int) -> dict[str, Any] | None:
    """The last worldbuilding steps on the map page: deal the map, then roll Danger and Reward.

    None outside those steps. ``can_act`` says whether the rules let this viewer do
    it (anyone building the world, as in the group's panel); the rules check again.
    """
    setup = campaign.setup
    if setup is None or setup.step not in (SetupStep.MAP, SetupStep.DANGER_AND_REWARD):
        return None
    step = setup.step
    can_act = viewer_id in actors(dealing_choices(setup))
    return {
        "step": step.value,
        "can_act": can_act,
        "cards": len(setup.world.cards),
        "widths": list(column_choices(len(setup.world.cards))) if step is SetupStep.MAP else [],
    }


def _setup_words(campaign: NsuCampaign) -> dict[str, str]:
    """Where worldbuilding stands, as message ids: ``text`` with ``{step}`` in it."""
    step = "" if campaign.setup is None else describe_step(campaign.setup.step)
    if campaign.setup is None:
        return {"text": N_("Worldbuilding hasn't begun yet."), "step": step}
    if campaign.setup.step is SetupStep.MAP:
        text = N_("Every location is written: the cards are ready to be dealt face down.")
        return {"text": text, "step": step}
    if campaign.setup.step is SetupStep.DANGER_AND_REWARD:
        return {
            "text": N_("The map is dealt: Danger and Reward are still to be rolled."),
            "step": step,
        }
    return {"text": N_("The table is busy with {step}."), "step": step}


def _setup_status(campaign: NsuCampaign) -> str:
    words = _setup_words(campaign)
    return words["text"].format(step=words["step"])


def card_context(
    view: CampaignView, table: Table, viewer_id: int, card_id: str, pictures: frozenset[str]
) -> dict[str, Any]:
    """One card for the detail page.

    Raises:
        Malformed: no such card.
    """
    world = campaign_of(table).current_world()
    if world is None:
        raise Malformed("There is no such location card.")
    card = world.card(card_id)
    return {
        "card": card_view(
            view, world, visible_card(card, viewer_id), viewer_id, pictures, detail=True
        ),
        "actions": ACTIONS,
    }


def cards_context(
    view: CampaignView, table: Table, viewer_id: int, pictures: frozenset[str]
) -> dict[str, Any]:
    """The viewer's own cards (theirs to read in full) and the authoring form when allowed."""
    campaign = campaign_of(table)
    world = campaign.current_world()
    mine = [] if world is None else [c for c in world.cards if c.author_id == viewer_id]
    choices = page_choices(campaign, viewer_id)
    return {
        "cards": [
            {
                "id": c.id,
                "title": c.title,
                "description": c.description,
                "collateral_target": c.collateral_target,
                "danger_type": c.danger_type,
                "treasure_type": c.treasure_type,
                "danger": c.danger.label if c.danger is not None else None,
                "reward": c.reward.label if c.reward is not None else None,
                "revealed": c.revealed,
                "picture": _key(view, c) in pictures,
                "editable": c.id in choices.revisable,
            }
            for c in mine
        ],
        "can_author": choices.author,
        "written": len(mine),
        "per_player": LOCATIONS_PER_PLAYER,
        "status": None if world is not None and world.grid is not None else _setup_status(campaign),
        "status_words": None
        if world is not None and world.grid is not None
        else _setup_words(campaign),
        "actions": ACTIONS,
    }


def waiting_details(
    table: Table, viewer_id: int, panels: tuple[OpenPanel, ...]
) -> list[dict[str, Any]]:
    """Settled rolls with details this viewer may add now (each grant once)."""
    out = []
    for panel in panels:
        roll = panel.model
        if not isinstance(roll, RollPanel):
            continue
        mine = grants_for(roll, viewer_id)
        outcome = roll.roll.outcome
        if not mine or outcome is None:
            continue
        grants = []
        for index in mine:
            grant = outcome.grants[index]
            negative = grant.polarity is Polarity.NEGATIVE
            if grant.kind is DetailKind.SCENE:
                kind = N_("a scene detail (negative)") if negative else N_("a scene detail")
            else:
                kind = N_("a hard detail (negative)") if negative else N_("a hard detail")
            grants.append(kind)
        out.append(
            {
                "panel": panel.id,
                "version": panel.version,
                "roller": _name_of(table, roll.roll.roller),
                "desired": roll.roll.desired_outcome or "",
                "grants": grants,
            }
        )
    return out


# --- views --------------------------------------------------------------------


async def _snapshot(request: web.Request) -> Snapshot:
    deps = request.app[DEPS]
    viewer = authenticate(request).user.id
    snapshot = await snapshot_for_viewer(
        deps.campaigns.registry, request.match_info["token"], viewer, pictures=True
    )
    if snapshot.system != NSU:
        raise Malformed("This game has no map.")
    return snapshot


async def _load(request: web.Request) -> tuple[CampaignView, Table, int, frozenset[str]]:
    snapshot = await _snapshot(request)
    return snapshot.view, snapshot.table, snapshot.viewer, snapshot.picture_keys


def _problem(request: web.Request, error: Exception, *, json: bool) -> web.Response:
    """A missing map or card is "not found"; everything else as everywhere else."""
    status = 404 if isinstance(error, Malformed) else status_of(error)
    return problem_response(request, error, status=status, json_body=json)


async def map_page(request: web.Request) -> web.Response:
    try:
        snapshot = await _snapshot(request)
    except (InitDataInvalid, StonetableError) as error:
        return _problem(request, error, json=False)
    view, table, viewer = snapshot.view, snapshot.table, snapshot.viewer
    context = map_context(view, table, viewer, snapshot.picture_keys)
    try:
        panels = await open_panels(snapshot.projection, ROLL_PANEL)
    except StonetableError as error:
        return _problem(request, error, json=False)
    context["details"] = waiting_details(table, viewer, panels)
    return aiohttp_jinja2.render_template(
        "nsu/map.html",
        request,
        {"view": view, "token": view.app_token, "map": context, "lang": request_lang(request)},
    )


async def api_map(request: web.Request) -> web.Response:
    def render(snapshot: Snapshot, viewer: int) -> tuple[str, str]:
        if snapshot.system != NSU:
            raise Malformed("This game has no map.")
        context = map_context(snapshot.view, snapshot.table, viewer, snapshot.picture_keys)
        context.pop("actions", None)
        return _dumps(context), "application/json"

    token = request.match_info["token"]
    try:
        return await cached_page(request, "nsu.map.json", token, render, pictures=True)
    except (InitDataInvalid, StonetableError) as error:
        return _problem(request, error, json=True)


async def card_page(request: web.Request) -> web.Response:
    try:
        view, table, viewer, pictures = await _load(request)
        context = card_context(view, table, viewer, request.match_info["card"][:16], pictures)
    except (InitDataInvalid, StonetableError) as error:
        return _problem(request, error, json=False)
    return aiohttp_jinja2.render_template(
        "nsu/card.html",
        request,
        {"view": view, "token": view.app_token, **context, "lang": request_lang(request)},
    )


async def cards_page(request: web.Request) -> web.Response:
    try:
        view, table, viewer, pictures = await _load(request)
    except (InitDataInvalid, StonetableError) as error:
        return _problem(request, error, json=False)
    context = cards_context(view, table, viewer, pictures)
    return aiohttp_jinja2.render_template(
        "nsu/cards.html",
        request,
        {"view": view, "token": view.app_token, "mine": context, "lang": request_lang(request)},
    )


async def _card_for_picture(
    request: web.Request,
) -> tuple[CampaignView, LocationCard, int, NsuCampaign]:
    view, table, viewer, _ = await _load(request)
    campaign = campaign_of(table)
    world = campaign.current_world()
    if world is None:
        raise Malformed("There is no such location card.")
    return view, world.card(request.match_info["card"][:16]), viewer, campaign


async def picture(request: web.Request) -> web.Response:
    """A card's picture, only for viewers who may see its face."""
    deps = request.app[DEPS]
    try:
        view, card, viewer, _ = await _card_for_picture(request)
        if not visible_card(card, viewer).face_visible:  # the viewer's projection
            raise Malformed("There is no such picture.")
        found = await deps.pictures.get(view.id, _key(view, card))
    except (InitDataInvalid, StonetableError) as error:
        return _problem(request, error, json=True)
    if found is None:
        return web.json_response({"error": "There is no such picture."}, status=404)
    media_type, data = found
    return web.Response(
        body=data,
        content_type=media_type,
        headers={"Content-Disposition": "inline", "Cache-Control": "private, no-store"},
    )


async def upload_picture(request: web.Request) -> web.Response:
    """The author adds or replaces the picture of one of their cards (PNG/JPEG body)."""
    deps = request.app[DEPS]
    try:
        view, card, viewer, campaign = await _card_for_picture(request)
        if card.id not in page_choices(campaign, viewer).pictured:
            raise NotAllowedNow(N_("Only the card's author can give it a picture."))
        data = (await request.read())[: MAX_PICTURE_BYTES + 1]  # read once, for its key too
        check_picture(data)
    except BadPicture as error:
        return web.json_response({"error": message_of(error, request_lang(request))}, status=400)
    except (InitDataInvalid, StonetableError) as error:
        return _problem(request, error, json=True)
    try:
        await deps.pictures.save(view.id, _key(view, card), viewer, data, unit=unit_of(request))
    except StonetableError as error:
        return _problem(request, error, json=True)
    await deps.campaigns.events.publish(view.id)
    return web.json_response({"ok": True})


async def add_detail(request: web.Request) -> web.Response:
    """Write one granted detail of a settled roll, as a reply to its panel would."""
    deps = request.app[DEPS]
    try:
        viewer = _player(authenticate(request))
        snapshot = await snapshot_for_viewer(
            deps.campaigns.registry, request.match_info["token"], viewer.tg_id
        )
        body = await request.json(loads=checked_json)
        if not isinstance(body, dict):
            raise Malformed("That request was not understood.")
        version, text = body.get("version"), body.get("text")
        if not isinstance(version, int) or not isinstance(text, str) or not text.strip():
            raise Malformed("Write the detail.")
        panel_id = int(request.match_info["panel"][:12])
        if panel_id not in {p.id for p in await open_panels(snapshot.projection, ROLL_PANEL)}:
            raise NotAllowedNow("That roll is over.")
        unit = unit_of(request)
        await deps.campaigns.act(panel_id, version, viewer, "text", text[:300], unit=unit)
    except (ValueError, UnicodeDecodeError):
        return web.json_response({"error": "That request was not understood."}, status=400)
    except Malformed as error:
        return web.json_response({"error": error.message}, status=400)
    except (InitDataInvalid, StonetableError) as error:
        return _problem(request, error, json=True)
    if deps.sent is not None:  # its message, written with it, goes out now
        await deps.sent(unit)
    return web.json_response({"ok": True})


def setup_nsu_routes(app: web.Application) -> None:
    app.router.add_get("/app/c/{token}/map", map_page)
    app.router.add_get("/api/c/{token}/map", api_map)
    app.router.add_get("/app/c/{token}/map/{card}", card_page)
    app.router.add_get("/app/c/{token}/cards", cards_page)
    app.router.add_get("/api/c/{token}/cards/{card}/picture", picture)
    app.router.add_post("/api/c/{token}/cards/{card}/picture", upload_picture)
    app.router.add_post("/api/c/{token}/rolls/{panel}/detail", add_detail)
