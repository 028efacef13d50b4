"""Thin views: authenticate, call one use case, render."""

from __future__ import annotations

import aiohttp_jinja2
from aiohttp import web

from core.play import Home, PlayerRef
from core.rules.errors import StonetableError
from webapp.auth import InitDataInvalid, WebAppInitData, validate_init_data
from webapp.deps import DEPS, WebDeps


def _deps(request: web.Request) -> WebDeps:
    return request.app[DEPS]


def authenticate(request: web.Request) -> WebAppInitData:
    """Who sent this request, from ``Authorization: tma <initData>``.

    Raises:
        InitDataInvalid: no, forged or stale initData.
    """
    deps = _deps(request)
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "tma":
        raise InitDataInvalid("missing")
    return validate_init_data(
        value.strip(), deps.bot_token, now=deps.clock(), max_age=deps.initdata_max_age
    )


def _player(init: WebAppInitData) -> PlayerRef:
    u = init.user
    return PlayerRef(u.id, u.first_name, u.last_name, u.username)


async def _home(request: web.Request) -> Home:
    init = authenticate(request)
    start_param = init.start_param or request.query.get("startapp", "")
    return await _deps(request).play.home(_player(init), start_param[:64])


async def shell(request: web.Request) -> web.Response:
    """The page Telegram opens; it holds no data until initData is checked."""
    deps = _deps(request)
    static = request.app.router["static"]
    return aiohttp_jinja2.render_template(
        "shell.html",
        request,
        {
            "load_telegram_script": deps.load_telegram_script,
            "css_url": static.url_for(filename="app.css"),
            "js_url": static.url_for(filename="app.js"),
        },
    )


async def home(request: web.Request) -> web.Response:
    try:
        page = await _home(request)
    except InitDataInvalid:
        return aiohttp_jinja2.render_template("unauthorized.html", request, {}, status=401)
    except StonetableError as error:
        return aiohttp_jinja2.render_template(
            "problem.html", request, {"message": error.message}, status=503
        )
    return aiohttp_jinja2.render_template("home.html", request, {"home": page})


async def api_me(request: web.Request) -> web.Response:
    try:
        page = await _home(request)
    except InitDataInvalid:
        return web.json_response({"error": "unauthorized"}, status=401)
    except StonetableError as error:
        return web.json_response({"error": error.message}, status=503)
    return web.json_response(
        {
            "player": {"id": page.player.tg_id, "name": page.player.display_name},
            "chat_title": page.chat_title,
            "recent_rolls": [
                {
                    "notation": r.notation,
                    "label": r.label,
                    "total": r.total,
                    "chat_title": r.chat_title,
                    "at": r.at.isoformat(),
                }
                for r in page.recent_rolls
            ],
        }
    )


async def healthz(request: web.Request) -> web.Response:
    healthy = await _deps(request).play.health()
    return web.json_response({"ok": healthy}, status=200 if healthy else 503)
