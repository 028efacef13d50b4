"""The campaign log page and JSON: rolls and details in order, filterable by character."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import aiohttp_jinja2
from aiohttp import web
from babel.dates import format_datetime

from core.campaigns import CampaignView
from core.i18n import DEFAULT, N_, PSEUDO, Lang, lang_for
from core.projection import LogLineView, log_of
from core.rules.errors import Malformed
from core.rules.table import Table
from core.undo import Undos, undo_for_viewer
from core.viewer_pages import snapshot_for_viewer
from webapp.deps import DEPS
from webapp.i18n import request_lang
from webapp.views import _dumps, _player, authenticate

# The tags a log line carries, as the page shows them (nouns: "a roll", not "to roll").
KINDS: dict[str, Callable[[Lang], str]] = {
    "roll": lambda lang: lang.pgettext("a log line's tag", "roll"),
    "detail": lambda lang: lang.pgettext("a log line's tag", "detail"),
    "map": lambda lang: lang.pgettext("a log line's tag", "map"),
    "clock": lambda lang: lang.pgettext("a log line's tag", "clock"),
    "undo": lambda lang: lang.pgettext("a log line's tag", "undo"),
}


def _moment(at: datetime, lang: Lang) -> str:
    """Day, month and time: "03 Sep 14:05" in English (as always), Babel's month elsewhere."""
    if lang.code in (DEFAULT, PSEUDO):
        return at.strftime("%d %b %H:%M")
    return format_datetime(at, "dd MMM HH:mm", tzinfo=at.tzinfo, locale=lang.babel_locale)


def character_names(view: CampaignView, table: Table) -> dict[int, str]:
    """Characters' names by player, where the system has named characters."""
    return dict(view.system.campaign.character_names(table))


def log_context(
    view: CampaignView,
    entries: tuple[LogLineView, ...],
    who: int | None,
    characters: dict[int, str] | None = None,
    lang: Lang | None = None,
) -> dict[str, Any]:
    """Entries (optionally only those about one player) and the filter's choices."""
    shown = [e for e in entries if who is None or who in e.players]
    characters = characters or {}
    lang = lang or lang_for(None)
    return {
        "who": who,
        "people": [
            {"id": m.player_id, "name": m.name, "character": characters.get(m.player_id)}
            for m in view.members
        ],
        "entries": [
            {
                "kind": e.kind,
                "label": KINDS[e.kind](lang) if e.kind in KINDS else e.kind,
                "text": e.text_in(lang),
                "players": list(e.players),
                "at": e.at.isoformat(),
                "time": _moment(e.at, lang),
            }
            for e in shown
        ],
    }


def _who(request: web.Request) -> int | None:
    raw = request.query.get("who", "")
    return int(raw) if raw.isdigit() and len(raw) < 20 else None


async def _load(request: web.Request) -> dict[str, Any]:
    deps = request.app[DEPS]
    viewer = authenticate(request).user.id
    snapshot = await snapshot_for_viewer(
        deps.campaigns.registry, request.match_info["token"], viewer
    )
    seen = snapshot.projection
    view, table = seen.view, seen.table
    lang = request_lang(request)
    context = log_context(
        view, await log_of(seen), _who(request), character_names(view, table), lang
    )
    last = await Undos(deps.campaigns).last_change(view.id, viewer)
    context["undo"] = None if last is None else {"step": last[0], "label": lang.gettext(last[1])}
    return {"view": view, "token": view.app_token, "log": context, "lang": lang}


async def log_page(request: web.Request) -> web.Response:
    context = await _load(request)
    view = context["view"]
    viewer = authenticate(request).user.id
    if view.host_id == viewer:  # the host may share the story (webapp/story.py)
        from core.story import shared_link
        from webapp.story import story_url

        secret = await shared_link(request.app[DEPS].campaigns.registry, view.app_token, viewer)
        context["story"] = {"url": None if secret is None else story_url(request, secret)}
    return aiohttp_jinja2.render_template("log.html", request, context)


async def api_log(request: web.Request) -> web.Response:
    context = await _load(request)
    return web.json_response(context["log"], dumps=_dumps)


async def api_undo(request: web.Request) -> web.Response:
    """Take back the viewer's last step, the one their log offered (``version``: its id)."""
    deps = request.app[DEPS]
    viewer = _player(authenticate(request))
    body = await request.json()
    step = body.get("version") if isinstance(body, dict) else None
    if not isinstance(step, int) or isinstance(step, bool):
        raise Malformed(N_("That button is out of date. Reload the log."))
    back = await undo_for_viewer(deps.campaigns, request.match_info["token"], viewer, step)
    if deps.panel_shown is not None:  # the group's panels read as they did
        await deps.panel_shown(back.changed)
    label = request_lang(request).gettext(back.label)
    return web.json_response({"ok": True, "label": label}, dumps=_dumps)


def setup_log_routes(app: web.Application) -> None:
    app.router.add_get("/app/c/{token}/log", log_page)
    app.router.add_get("/api/c/{token}/log", api_log)
    app.router.add_post("/api/c/{token}/undo", api_undo)
