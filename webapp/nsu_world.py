"""The NSU World page: every worldbuilding step, as in the group's panel.

The page shows the step, the world so far and whose turn it is, and offers only
the moves :func:`core.rules.nsu.setup_turn.setup_turn` gives this viewer. Its
forms post the rules' own ``setup.*`` edits (see
:mod:`core.rules.nsu.edits_setup`), which check everything again. After
worldbuilding the page shows the world read-only. Nothing here reads a card's
face: locations are written on My cards, dealt and rolled on the Map.
"""

from __future__ import annotations

from typing import Any

import aiohttp_jinja2
from aiohttp import web

from core.rules.errors import Malformed, StonetableError
from core.rules.nsu.campaign import NsuCampaign, campaign_of
from core.rules.nsu.glance import LEVEL_NAMES
from core.rules.nsu.setup import LOCATIONS_PER_PLAYER, ActionKind, SetupState, SetupStep
from core.rules.nsu.setup_turn import setup_turn
from core.rules.nsu.world import RESOURCE_COUNT, ResourceLevel, SafetyTool, World
from core.rules.table import Table
from core.views.viewer_pages import snapshot_for_viewer
from core.words.i18n import N_
from webapp.auth import InitDataInvalid
from webapp.deps import DEPS
from webapp.errors import problem_response, status_of
from webapp.i18n import request_lang
from webapp.views import authenticate

NSU = "nsu"

# The rules' edits this page posts (core/rules/nsu/edits_setup.py).
WORLD_ACTIONS: dict[str, str] = {
    "tone": "setup.tone",
    "agree": "setup.agree",
    "ban": "setup.ban",
    "pass_ban": "setup.pass_ban",
    "first": "setup.first_speaker",
    "statement": "setup.statement",
    "pass_statement": "setup.pass_statement",
    "full": "setup.card_full",
    "scope": "setup.scope",
    "finish_scope": "setup.finish_scope",
    "resource": "setup.resource",
    "abundance": "setup.abundance",
}

TOOL_LABELS: dict[SafetyTool, str] = {
    SafetyTool.X_CARD: N_("X-card"),
    SafetyTool.LINES_AND_VEILS: N_("Lines & veils"),
    SafetyTool.KNOCKS: N_("Knocks"),
}

# Which forms and buttons each of the viewer's moves shows.
_MOVES: dict[ActionKind, str] = {
    ActionKind.PROPOSE_TONE: "tone",
    ActionKind.AGREE_TONE: "agree",
    ActionKind.BAN: "ban",
    ActionKind.PASS_BAN: "pass_ban",
    ActionKind.CHOOSE_FIRST_SPEAKER: "first",
    ActionKind.MAKE_STATEMENT: "statement",
    ActionKind.PASS_STATEMENT: "pass_statement",
    ActionKind.DECLARE_CARD_FULL: "full",
    ActionKind.ANSWER_SCOPE: "scope",
    ActionKind.FINISH_SCOPE: "finish_scope",
    ActionKind.NAME_RESOURCE: "resource",
    ActionKind.CHOOSE_ABUNDANCE: "abundance",
    ActionKind.AUTHOR_LOCATION: "author",
    ActionKind.DEAL_MAP: "deal",
    ActionKind.ROLL_DANGER_AND_REWARD: "roll",
}


def _name(table: Table, player_id: int) -> str:
    seat = table.seat(player_id)
    return seat.name if seat is not None else "someone"


def world_summary(table: Table, world: World) -> dict[str, Any]:
    """The public world so far (never a card's face)."""
    return {
        "tone": world.tone,
        "tools": [TOOL_LABELS[t] for t in SafetyTool if t in world.safety_tools],
        "bans": [{"by": _name(table, b.author_id), "text": b.text} for b in world.bans],
        "settlement": [
            {
                "number": i + 1,
                "by": _name(table, s.author_id),
                "text": s.text,
                "builds_on": None if s.builds_on is None else s.builds_on + 1,
            }
            for i, s in enumerate(world.settlement)
        ],
        "scope": [
            {
                "question": N_("A note") if a.question is None else a.question.prompt,
                "text": a.text,
                "by": _name(table, a.author_id),
            }
            for a in world.scope
        ],
        "resources": [
            {
                "name": r.name,
                "level": LEVEL_NAMES[r.level],
                "abundant": r.level is ResourceLevel.ABUNDANCE,
            }
            for r in world.resources
        ],
        "cards": len(world.cards),
    }


def world_context(table: Table, viewer_id: int) -> dict[str, Any]:
    """The World page for one viewer: the step, the world so far and the viewer's moves."""
    campaign: NsuCampaign = campaign_of(table)
    setup = campaign.setup
    world = setup.world if setup is not None else campaign.current_world()
    base: dict[str, Any] = {
        "actions": WORLD_ACTIONS,
        "world": None if world is None else world_summary(table, world),
        "tool_choices": [{"value": t.value, "label": TOOL_LABELS[t]} for t in SafetyTool],
    }
    if setup is None or setup.step is SetupStep.DONE:
        return {**base, "building": False, "built": world is not None, "step": None}
    turn = setup_turn(setup, viewer_id)
    me = {_MOVES[kind] for kind in turn.can}
    return {
        **base,
        "built": False,
        "building": turn.building,
        "step": turn.step.value,
        "label": turn.label,
        "number": turn.number,
        "steps": turn.steps,
        "can": sorted(me),
        "waiting": [_name(table, p) for p in turn.waiting_for],
        "me_waited": viewer_id in turn.waiting_for,
        **_table_so_far(table, setup),
        "speaker": None if turn.speaker is None else _name(table, turn.speaker),
        "my_turn": turn.speaker == viewer_id,
        "questions": [{"value": q.value, "prompt": q.prompt} for q in turn.open_questions],
        "resources_left": turn.resources_left,
        "resources_total": RESOURCE_COUNT,
        "one_each": turn.one_each,
        "per_player": LOCATIONS_PER_PLAYER,
    }


def _table_so_far(table: Table, setup: SetupState) -> dict[str, Any]:
    """Who agreed to the tone, the players, the settlement's passes and room, who wrote what."""
    return {
        "tone_proposed": setup.tone_proposed,
        "agreed": [_name(table, p) for p in setup.players if p in setup.agreed],
        "to_agree": [_name(table, p) for p in setup.players if p not in setup.agreed],
        "proposed_tools": [t.value for t in setup.world.safety_tools],
        "players": [{"id": p, "name": _name(table, p)} for p in setup.players],
        "passes": setup.passes_in_row,
        "capacity": setup.settlement_capacity,
        "written": {
            _name(table, p): sum(1 for c in setup.world.cards if c.author_id == p)
            for p in setup.players
        },
    }


async def world_page(request: web.Request) -> web.Response:
    deps = request.app[DEPS]
    try:
        viewer = authenticate(request).user.id
        snapshot = await snapshot_for_viewer(
            deps.campaigns.registry, request.match_info["token"], viewer
        )
        if snapshot.system != NSU:
            raise Malformed("This game has no worldbuilding.")
    except (InitDataInvalid, StonetableError) as error:
        status = 404 if isinstance(error, Malformed) else status_of(error)
        return problem_response(request, error, status=status, json_body=False)
    context = world_context(snapshot.table, viewer)
    view = snapshot.view
    return aiohttp_jinja2.render_template(
        "nsu/world.html",
        request,
        {"view": view, "token": view.app_token, "w": context, "lang": request_lang(request)},
    )


def setup_world_routes(app: web.Application) -> None:
    app.router.add_get("/app/c/{token}/world", world_page)
