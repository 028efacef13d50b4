"""The campaign log page and JSON: rolls and details in order, filterable by character."""

from __future__ import annotations

from typing import Any

import aiohttp_jinja2
from aiohttp import web

from core.campaigns.undo import Undos, undo_for_viewer
from core.rules.errors import Malformed
from core.views.projection import log_of
from core.views.story import shared_link
from core.views.viewer_pages import snapshot_for_viewer
from core.words.i18n import N_
from webapp.deps import DEPS, unit_of
from webapp.errors import checked_json
from webapp.i18n import request_lang
from webapp.log_lines import character_names, log_context
from webapp.story import story_url
from webapp.views import _dumps, _player, authenticate


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
    body = await request.json(loads=checked_json)
    step = body.get("version") if isinstance(body, dict) else None
    if not isinstance(step, int) or isinstance(step, bool):
        raise Malformed(N_("That button is out of date. Reload the log."))
    unit = unit_of(request)
    token = request.match_info["token"]
    back = await undo_for_viewer(deps.campaigns, token, viewer, step, unit=unit)
    if deps.sent is not None:  # the group's panels read as they did
        await deps.sent(unit)
    label = request_lang(request).gettext(back.label)
    return web.json_response({"ok": True, "label": label}, dumps=_dumps)


def setup_log_routes(app: web.Application) -> None:
    app.router.add_get("/app/c/{token}/log", log_page)
    app.router.add_get("/api/c/{token}/log", api_log)
    app.router.add_post("/api/c/{token}/undo", api_undo)
