"""The Mini App and HTTP side: pages, JSON API, health and the Telegram webhook."""

from __future__ import annotations

import hmac
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import web

from webapp import views
from webapp.assets import ASSETS, Assets
from webapp.campaign_log import setup_log_routes
from webapp.deps import DEPS, WEBHOOK, WebDeps, Webhook
from webapp.errors import errors
from webapp.i18n import install as install_words
from webapp.live import setup_live
from webapp.nsu_map import setup_nsu_routes
from webapp.nsu_world import setup_world_routes
from webapp.own_systems import setup_systems_routes
from webapp.page_cache import PAGES, PageCache
from webapp.portraits import setup_portrait_routes
from webapp.request_keys import request_keys
from webapp.roll_history import setup_roll_routes
from webapp.saved_rolls import setup_saved_routes
from webapp.sheet_rolls import setup_sheet_roll_routes
from webapp.story import setup_story_routes

MAX_BODY_BYTES = 2 * 1024 * 1024  # the largest body taken (a webhook update: see the bot)

log = logging.getLogger(__name__)
HERE = Path(__file__).parent


CSP = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self' 'unsafe-inline';"
    " img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; object-src 'none'"
)


@web.middleware
async def security_headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    response = await handler(request)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    if request.path.startswith(("/app", "/api")):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("Cache-Control", "no-store")
    return response


async def receive_update(request: web.Request) -> web.Response:
    """Telegram's webhook: answer 200 only once the update is durable.

    The secret is checked in constant time (403 when wrong). The body, whatever it
    is, goes to the bot, which handles it before we answer, or keeps it as a dead
    letter when it can never be used: Telegram stops sending an update once it
    sees 200, so 200 must mean "handled". 503 means "not yet": Telegram sends it
    again and the update-id claim makes the copy change nothing.
    """
    hook = request.app[WEBHOOK]
    sent = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
    if not hmac.compare_digest(sent.encode(), hook.secret.encode()):
        return web.json_response({"ok": False}, status=403)
    # Read past the bound by one byte at most: the bot keeps an oversized body's start
    # as a dead letter (tgbot.inbox.MAX_BODY_BYTES), so Telegram moves on.
    body = bytearray()
    while len(body) <= MAX_BODY_BYTES and (chunk := await request.content.read(65536)):
        body += chunk
    if await hook.take(bytes(body[: MAX_BODY_BYTES + 1])):
        return web.json_response({"ok": True})
    return web.json_response({"ok": False}, status=503)


def create_app(deps: WebDeps, *, webhook: Webhook | None = None) -> web.Application:
    """Build the aiohttp application (nothing starts until it is run)."""
    app = web.Application(
        middlewares=[security_headers, errors, request_keys], client_max_size=MAX_BODY_BYTES
    )
    app[DEPS] = deps
    app[PAGES] = PageCache()
    env = aiohttp_jinja2.setup(
        app,
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=jinja2.select_autoescape(default=True),
    )
    install_words(env)
    app.router.add_get("/app", views.shell)
    app.router.add_get("/app/", views.shell)
    app.router.add_get("/app/home", views.home)
    app.router.add_get("/app/prefs", views.prefs)
    app.router.add_get("/app/odds", views.odds_page)
    app.router.add_get("/api/odds", views.api_odds)
    app.router.add_get("/app/c/{token}", views.campaign_page)
    app.router.add_get("/api/me", views.api_me)
    app.router.add_post("/api/quiet", views.api_quiet)
    app.router.add_get("/api/c/{token}", views.api_campaign)
    app.router.add_post("/api/c/{token}/edit", views.api_edit)
    app.router.add_get("/api/c/{token}/export", views.api_export)
    setup_live(app)
    setup_nsu_routes(app)
    setup_portrait_routes(app)
    setup_world_routes(app)
    setup_log_routes(app)
    setup_story_routes(app)
    setup_roll_routes(app)
    setup_sheet_roll_routes(app)
    setup_saved_routes(app)
    setup_systems_routes(app)
    app.router.add_get("/healthz", views.healthz)
    assets = app[ASSETS] = Assets(HERE / "static")
    app.router.add_get("/static/{name}", assets.serve)
    if webhook is not None:
        app[WEBHOOK] = webhook
        app.router.add_post(webhook.path, receive_update)
    return app
