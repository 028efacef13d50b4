"""``POST /api/c/<token>/roll``: a tap on the sheet starts the game's roll in its chat.

The body names what was tapped (``{"what": "approach", "name": "Guile"}``); the
game's sheet page turns it into the panel and words its chat command takes, and
the panel is opened by the command's use case (:func:`core.campaigns.sheet_rolls.start_roll`).
Its message is written to the outbox with the change and sent to the game's chat
and topic. Refusals are raised and answered by :mod:`webapp.errors`; the request's
Idempotency-Key (:mod:`webapp.request_keys`) keeps a retry from opening a second
panel.
"""

from __future__ import annotations

from aiohttp import web

from core.campaigns.sheet_rolls import start_roll
from core.rules.errors import Malformed
from core.views.viewer_pages import snapshot_for_viewer
from webapp.deps import DEPS, unit_of
from webapp.errors import NOT_UNDERSTOOD, checked_json
from webapp.sheets import roll_of
from webapp.views import _page, _player, authenticate

MAX_NAME = 100


async def api_roll(request: web.Request) -> web.Response:
    deps = request.app[DEPS]
    viewer = _player(authenticate(request))
    token = request.match_info["token"]
    body = await request.json(loads=checked_json)
    if not isinstance(body, dict):
        raise Malformed(NOT_UNDERSTOOD)
    what, name = body.get("what"), body.get("name", "")
    if not isinstance(what, str) or not isinstance(name, str):
        raise Malformed(NOT_UNDERSTOOD)
    snapshot = await snapshot_for_viewer(deps.campaigns.registry, token, viewer.tg_id)
    kind, words = roll_of(_page(deps, snapshot.view), what[:20], name[:MAX_NAME])
    unit = unit_of(request)
    panel = await start_roll(deps.campaigns, token, viewer, kind, words, unit=unit)
    if deps.sent is not None:  # its message, written with it, goes out now
        await deps.sent(unit)
    return web.json_response({"ok": True, "panel": panel.id})


def setup_sheet_roll_routes(app: web.Application) -> None:
    app.router.add_post("/api/c/{token}/roll", api_roll)
