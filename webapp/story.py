"""The campaign's story, shared by its host: a read-only page behind a secret link, and
the same page as one self-contained HTML file to download (pictures inlined).

Everything on it comes from the projection for anyone (:mod:`core.views.story`): the log in
reading order, the characters and the map as the whole table has seen them. The host
publishes and withdraws the link from the Mini App's log page.
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import web

from core.rules.errors import StonetableError
from core.views import story as stories
from core.views.projection import log_of
from core.views.viewer_pages import Snapshot
from core.words.i18n import N_, Lang, available, lang_for
from webapp.deps import DEPS, WebDeps
from webapp.errors import checked_json
from webapp.i18n import language_names
from webapp.log_lines import character_names, log_context
from webapp.views import _dumps, authenticate

STORY_LINES = 5000
CSS = Path(__file__).parent / "static" / "app.css"
STORY_CSP = (
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none';"
    " form-action 'none'; frame-ancestors 'none'"
)
STORY_HEADERS = {
    "Content-Security-Policy": STORY_CSP,
    "Cache-Control": "no-store",  # a withdrawn link must stop working at once
    "X-Robots-Tag": "noindex, nofollow",
}
GONE_TITLE = N_("This story is no longer shared")
MISSING_TITLE = N_("No story here")


def story_lang(request: web.Request) -> Lang:
    """The reader's language: ``?lang=`` first, then their browser's, else English."""
    chosen = request.query.get("lang", "")[:8]
    if chosen in available():
        return lang_for(chosen)
    for part in request.headers.get("Accept-Language", "").split(","):
        code = part.split(";")[0].strip().lower().split("-")[0]
        if code in available():
            return lang_for(code)
    return lang_for(None)


async def _pictures(deps: WebDeps, snapshot: Snapshot) -> dict[str, str]:
    """The pictures of the faces anyone may see, by card id, as data: URIs."""
    from webapp.nsu_map import _key

    found: dict[str, str] = {}
    for card in stories.shown_cards(snapshot):
        key = _key(snapshot.view, card)
        if key not in snapshot.picture_keys:
            continue
        picture = await deps.pictures.get(snapshot.view.id, key)
        if picture is not None:
            media_type, data = picture
            found[card.id] = f"data:{media_type};base64,{base64.b64encode(data).decode()}"
    return found


def _map(deps: WebDeps, snapshot: Snapshot, pictures: dict[str, str]) -> dict[str, Any] | None:
    """The NSU map as anyone sees it, and the face-up cards in full."""
    if not deps.campaigns.registry.find(snapshot.system).campaign.has_map:
        return None
    from core.rules.nsu.campaign import campaign_of
    from core.rules.nsu.world import visible_map
    from webapp.nsu_map import card_view, map_context

    keys = frozenset(snapshot.picture_keys)
    shown = map_context(snapshot.view, snapshot.table, stories.ANYONE, keys)
    if not shown.get("dealt"):
        return None
    world = campaign_of(snapshot.table).current_world()
    assert world is not None
    seen = visible_map(world, stories.ANYONE)
    cards = [
        {
            **card_view(snapshot.view, world, cell, stories.ANYONE, keys, detail=True),
            "picture": pictures.get(cell.id),
        }
        for row in seen.rows
        for cell in row
        if cell is not None and cell.face_visible
    ]
    return {**shown, "cards": cards}


async def render_story(request: web.Request, secret: str, *, download: bool) -> str:
    deps = request.app[DEPS]
    snapshot = await stories.story(deps.campaigns.registry, secret)
    seen = snapshot.projection
    view, table = seen.view, seen.table
    lang = story_lang(request)
    log = log_context(
        view, await log_of(seen, STORY_LINES), None, character_names(view, table), lang
    )
    page = deps.sheets.get(view.system.key)
    pictures = await _pictures(deps, snapshot)
    context = {
        "lang": lang,
        "view": view,
        "token": "",
        "log": log,
        "map": _map(deps, snapshot, pictures),
        "page": page,
        "sheet": None if page is None else page.context(view, table, stories.ANYONE),
        "css": CSS.read_text(encoding="utf-8"),
        "download": download,
        "secret": secret,
        "languages": language_names(),
        "made": datetime.fromtimestamp(deps.clock(), UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    text = aiohttp_jinja2.render_string("story.html", request, context)
    return text.replace("<details>", "<details open>")  # read without a script to unfold


async def _problem(request: web.Request, error: StonetableError) -> web.Response:
    lang = story_lang(request)
    gone = isinstance(error, stories.StoryWithdrawn)
    text = aiohttp_jinja2.render_string(
        "story_gone.html",
        request,
        {
            "lang": lang,
            "title": lang.gettext(GONE_TITLE if gone else MISSING_TITLE),
            "message": lang.gettext(error.message_id),
            "css": CSS.read_text(encoding="utf-8"),
        },
    )
    return web.Response(
        text=text, content_type="text/html", status=410 if gone else 404, headers=STORY_HEADERS
    )


async def story_page(request: web.Request) -> web.Response:
    try:
        text = await render_story(request, request.match_info["secret"], download=False)
    except (stories.NoStory, stories.StoryWithdrawn) as error:
        return await _problem(request, error)
    return web.Response(text=text, content_type="text/html", headers=STORY_HEADERS)


async def story_download(request: web.Request) -> web.Response:
    try:
        text = await render_story(request, request.match_info["secret"], download=True)
    except (stories.NoStory, stories.StoryWithdrawn) as error:
        return await _problem(request, error)
    headers = {**STORY_HEADERS, "Content-Disposition": 'attachment; filename="story.html"'}
    return web.Response(text=text, content_type="text/html", headers=headers)


def story_url(request: web.Request, secret: str) -> str:
    """The link to hand out, on the address the Mini App was reached at."""
    proto = request.headers.get("X-Forwarded-Proto", request.url.scheme).split(",")[0].strip()
    host = request.headers.get("X-Forwarded-Host", request.host).split(",")[0].strip()
    return f"{proto}://{host}/story/{secret}"


async def api_story(request: web.Request) -> web.Response:
    """The host shares the story (``publish``), stops sharing it (``withdraw``), or asks
    (GET) whether it is shared; answers the link, or null."""
    deps = request.app[DEPS]
    viewer = authenticate(request).user.id
    token = request.match_info["token"]
    registry = deps.campaigns.registry
    if request.method == "POST":
        body = await request.json(loads=checked_json)
        action = body.get("action") if isinstance(body, dict) else None
        if action == "publish":
            await stories.publish(registry, token, viewer)
        elif action == "withdraw":
            await stories.withdraw(
                registry, token, viewer, datetime.fromtimestamp(deps.clock(), UTC)
            )
        else:
            return web.json_response({"error": "unknown action"}, status=400)
    secret = await stories.shared_link(registry, token, viewer)
    url = None if secret is None else story_url(request, secret)
    return web.json_response({"url": url}, dumps=_dumps)


def setup_story_routes(app: web.Application) -> None:
    app.router.add_get("/story/{secret}", story_page)
    app.router.add_get("/story/{secret}/download", story_download)
    app.router.add_get("/api/c/{token}/story", api_story)
    app.router.add_post("/api/c/{token}/story", api_story)
