"""The saved rolls page: the player's own and the table's, each rolled with a tap (the
result is posted in the game's chat as the player's roll), renamed or deleted; and a
form that saves a new one of the player's own (or, for the host, one for the whole
table), checked like ``/save``."""

from __future__ import annotations

from typing import Any

import aiohttp_jinja2
from aiohttp import web

from core.campaigns import saved_rolls
from core.campaigns.saved_rolls import Table
from core.rules.errors import Malformed
from core.views.viewer_pages import snapshot_for_viewer
from core.words.i18n import N_
from webapp.deps import DEPS, unit_of
from webapp.errors import checked_json
from webapp.i18n import request_lang
from webapp.views import _player, authenticate

NOT_UNDERSTOOD = N_("That request was not understood.")
ROLLED = N_("🎲 {name}: {total}. Posted in the game's chat.")
SAVED = N_("Saved {name}: {text}.")
REPLACED = N_("Saved {name} in place of the old one: {text}.")
RENAMED = N_("Renamed to {name}.")
RENAMED_ALSO = N_("Renamed to {name}. Also updated: {updated}.")
DELETED = N_("Deleted {name}.")


async def _game(request: web.Request) -> tuple[Any, Table, bool]:
    """The game behind the token (for a member), its table, and whether the viewer hosts it."""
    viewer = authenticate(request).user.id
    registry = request.app[DEPS].campaigns.registry
    snapshot = await snapshot_for_viewer(registry, request.match_info["token"], viewer)
    view = snapshot.projection.view
    return view, Table(view.chat_tg_id, view.topic_id), view.host_id == viewer


async def saved_page(request: web.Request) -> web.Response:
    view, table, hosting = await _game(request)
    rolls = await saved_rolls.listed(authenticate(request).user.id, table)
    context = {
        "view": view,
        "token": view.app_token,
        "hosting": hosting,
        "own": [r for r in rolls if not r.table],
        "shared": [r for r in rolls if r.table],
        "lang": request_lang(request),
    }
    return aiohttp_jinja2.render_template("saved.html", request, context)


def _saved_id(request: web.Request) -> int:
    raw = request.match_info["saved"]
    if not raw.isdigit() or len(raw) > 18:
        raise Malformed(NOT_UNDERSTOOD)
    return int(raw)


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json(loads=checked_json)
    except ValueError:
        raise Malformed(NOT_UNDERSTOOD) from None
    if not isinstance(body, dict):
        raise Malformed(NOT_UNDERSTOOD)
    return body


async def api_roll(request: web.Request) -> web.Response:
    """Roll one saved roll; its result goes to the game's chat through the outbox."""
    view, table, _ = await _game(request)
    deps = request.app[DEPS]
    player = _player(authenticate(request))
    unit = unit_of(request)
    posted = await saved_rolls.roll_at_table(
        deps.play, player, table, view.language, _saved_id(request), unit=unit
    )
    if deps.sent is not None:  # what the roll wrote to the outbox, sent now
        await deps.sent(unit)
    lang = request_lang(request)
    result = posted.result
    label = result.expression.label
    done = lang.gettext(ROLLED, name=label, total=str(result.total))
    return web.json_response({"ok": True, "total": result.total, "done": done})


def _for_table(body: dict[str, Any]) -> bool:
    """Whether the form asks to save for the whole table (its ``table`` box ticked)."""
    asked = body.get("table", False)
    if isinstance(asked, bool):
        return asked
    if isinstance(asked, str) and len(asked) <= 8:
        return asked not in ("", "no")
    raise Malformed(NOT_UNDERSTOOD)


async def api_save(request: web.Request) -> web.Response:
    """Save a new roll (a name and its dice) of the viewer's own or, from the host, for
    the whole table, as ``/save`` and ``/save table`` do."""
    view, table, _ = await _game(request)
    body = await _body(request)
    name, text = body.get("name"), body.get("text")
    if not isinstance(name, str) or not isinstance(text, str):
        raise Malformed(NOT_UNDERSTOOD)
    viewer = authenticate(request).user.id
    if _for_table(body):
        roll, replaced = await saved_rolls.save_for_table(
            viewer, name[:200], text[:1000], table, view.host_id, unit=unit_of(request)
        )
    else:
        roll, replaced = await saved_rolls.save(
            viewer, name[:200], text[:1000], unit=unit_of(request)
        )
    done = request_lang(request).gettext(
        REPLACED if replaced else SAVED, name=roll.name, text=roll.text
    )
    return web.json_response({"ok": True, "id": roll.id, "done": done})


async def api_rename(request: web.Request) -> web.Response:
    _, table, hosting = await _game(request)
    name = (await _body(request)).get("name")
    if not isinstance(name, str):
        raise Malformed(NOT_UNDERSTOOD)
    viewer = authenticate(request).user.id
    renamed = await saved_rolls.rename(
        _saved_id(request), viewer, name[:200], table if hosting else None, unit=unit_of(request)
    )
    lang = request_lang(request)
    updated = ", ".join(renamed.updated)
    done = (
        lang.gettext(RENAMED_ALSO, name=renamed.roll.name, updated=updated)
        if updated
        else lang.gettext(RENAMED, name=renamed.roll.name)
    )
    return web.json_response({"ok": True, "done": done})


async def api_delete(request: web.Request) -> web.Response:
    _, table, hosting = await _game(request)
    viewer = authenticate(request).user.id
    hosted = table if hosting else None
    gone = await saved_rolls.delete(_saved_id(request), viewer, hosted, unit=unit_of(request))
    done = request_lang(request).gettext(DELETED, name=gone.name)
    return web.json_response({"ok": True, "done": done})


def setup_saved_routes(app: web.Application) -> None:
    app.router.add_get("/app/c/{token}/saved", saved_page)
    app.router.add_post("/api/c/{token}/saved", api_save)
    app.router.add_post("/api/c/{token}/saved/{saved}/roll", api_roll)
    app.router.add_post("/api/c/{token}/saved/{saved}/rename", api_rename)
    app.router.add_post("/api/c/{token}/saved/{saved}/delete", api_delete)
