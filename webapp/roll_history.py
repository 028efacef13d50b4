"""The roll history page and JSON: the campaign chat's recent rolls, filterable by player
and game, with each player's average against the expected average."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import aiohttp_jinja2
from aiohttp import web

from core.rules.registry import Registry
from core.views.projection import RollHistory, roll_history
from core.views.viewer_pages import snapshot_for_viewer
from core.words.i18n import Lang
from core.words.systems_words import history_words
from webapp.deps import DEPS
from webapp.i18n import request_lang
from webapp.log_lines import moment
from webapp.views import _dumps, authenticate


def _number(request: web.Request, name: str) -> int | None:
    raw = request.query.get(name, "")
    return int(raw) if raw.isdigit() and len(raw) < 19 else None


def _player(history: RollHistory, p: int, name: str, lang: Lang) -> dict[str, Any]:
    """A player's rolls, average and expected average, and whether above it."""
    luck = history.luck.get(p)
    return {
        "id": p,
        "name": name,
        "rolls": luck.rolls if luck is not None else 0,
        "average": lang.number(round(luck.average, 2)) if luck is not None else None,
        "expected": lang.number(round(luck.expected, 2)) if luck is not None else None,
        "above": luck is not None and luck.difference >= 0,
    }


def _notation(notation: str, system: Mapping[str, Any] | None, lang: Lang) -> dict[str, Any]:
    """What was rolled: the dice notation, or a game system's roll in words (its name,
    the version that rolled, the inputs) with what it came to (``outcome``)."""
    if system is None:
        return {"notation": notation, "outcome": None}
    what, came = history_words(system, lang)
    return {"notation": what, "outcome": came}


def history_context(
    history: RollHistory, registry: Registry, lang: Lang, who: int | None, game: int | None
) -> dict[str, Any]:
    """What the page and its JSON show: plain values, already worded."""
    names = dict(history.players)

    def game_name(system: str, state: Mapping[str, Any] | None) -> str:
        found = next((s for s in registry if s.key == system), None)
        if found is None:
            return system
        if state is not None:  # a group's own system: named as its text says
            found = found.campaign.shown_system(found, state, lang.code)
        return lang.gettext(found.name)

    return {
        "who": who,
        "game": game,
        "players": [_player(history, p, name, lang) for p, name in history.players],
        "games": [
            {
                "id": g.id,
                "name": game_name(g.system, g.state),
                "started": lang.day(g.started, "medium"),
            }
            for g in history.games
        ],
        "rolls": [
            {
                "id": r.id,
                "player": r.player_tg_id,
                "who": names.get(r.player_tg_id, r.who),
                **_notation(r.notation, r.system, lang),
                "total": r.total,
                "note": r.note,
                "secret": r.secret,
                "game": r.campaign_id,
                "at": r.at.isoformat(),
                "time": moment(r.at, lang),
            }
            for r in history.rolls
        ],
    }


async def _load(request: web.Request) -> dict[str, Any]:
    deps = request.app[DEPS]
    viewer = authenticate(request).user.id
    registry = deps.campaigns.registry
    snapshot = await snapshot_for_viewer(registry, request.match_info["token"], viewer)
    seen = snapshot.projection
    who, game = _number(request, "who"), _number(request, "game")
    history = await roll_history(seen, deps.heavy, who=who, game=game)
    lang = request_lang(request)
    return {
        "view": seen.view,
        "token": seen.view.app_token,
        "history": history_context(history, registry, lang, who, game),
        "lang": lang,
    }


async def rolls_page(request: web.Request) -> web.Response:
    context = await _load(request)
    return aiohttp_jinja2.render_template("rolls.html", request, context)


async def api_rolls(request: web.Request) -> web.Response:
    context = await _load(request)
    return web.json_response(context["history"], dumps=_dumps)


def setup_roll_routes(app: web.Application) -> None:
    app.router.add_get("/app/c/{token}/rolls", rolls_page)
    app.router.add_get("/api/c/{token}/rolls", api_rolls)
