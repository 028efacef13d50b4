"""Characters' portraits on the sheet: shown to the game's members, added, replaced or
removed by whoever the rules let (core.campaigns.portraits).

The picture is served only with a member's initData, as card pictures are; the page
fetches it with its header and shows it from memory. An upload is the picture's bytes
as the request's body (PNG or JPEG, recognised by its first bytes).
"""

from __future__ import annotations

from aiohttp import web

from core.rules.errors import Malformed
from core.words.i18n import N_
from webapp.deps import DEPS, unit_of
from webapp.i18n import request_lang
from webapp.views import _player, authenticate

NO_PORTRAIT = N_("There is no such portrait.")


def _player_of(request: web.Request) -> int:
    """The player whose portrait the route names."""
    text = request.match_info["player"][:20]
    if not text.lstrip("-").isdigit():
        raise Malformed(NO_PORTRAIT)
    return int(text)


async def portrait(request: web.Request) -> web.Response:
    """A character's portrait, for the members of its game."""
    deps = request.app[DEPS]
    viewer = authenticate(request).user.id
    found = await deps.campaigns.portraits.picture(
        request.match_info["token"], viewer, _player_of(request)
    )
    if found is None:
        lang = request_lang(request)
        return web.json_response({"error": lang.gettext(NO_PORTRAIT)}, status=404)
    media_type, data = found
    return web.Response(
        body=data,
        content_type=media_type,
        headers={"Content-Disposition": "inline", "Cache-Control": "private, no-store"},
    )


async def upload_portrait(request: web.Request) -> web.Response:
    """Add or replace a character's portrait (the picture's bytes as the body)."""
    deps = request.app[DEPS]
    viewer = _player(authenticate(request))
    data = await request.read()  # read once by the request keys' check, kept
    digest = await deps.campaigns.portraits.set(
        request.match_info["token"], viewer, _player_of(request), data, unit=unit_of(request)
    )
    return web.json_response({"ok": True, "portrait": digest})


async def remove_portrait(request: web.Request) -> web.Response:
    """Remove a character's portrait."""
    deps = request.app[DEPS]
    viewer = _player(authenticate(request))
    removed = await deps.campaigns.portraits.remove(
        request.match_info["token"], viewer, _player_of(request), unit=unit_of(request)
    )
    return web.json_response({"ok": True, "removed": removed})


def setup_portrait_routes(app: web.Application) -> None:
    app.router.add_get("/api/c/{token}/portraits/{player}", portrait)
    app.router.add_post("/api/c/{token}/portraits/{player}", upload_portrait)
    app.router.add_delete("/api/c/{token}/portraits/{player}", remove_portrait)
