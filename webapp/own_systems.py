"""The game systems page of a game's group: the group's own systems, and an editor that
checks a definition as it is typed and shows the exact chance of each outcome (worked
out in a worker process, as the other odds are); its hosts save it as a new system or
as the next version of one (core/campaigns/own_systems.py)."""

from __future__ import annotations

from typing import Any

import aiohttp_jinja2
from aiohttp import web

from core.campaigns import own_systems
from core.campaigns.views import CampaignView
from core.rules.errors import Malformed, NotAllowedNow
from core.views.viewer_pages import snapshot_for_viewer
from core.words.i18n import N_
from core.words.systems_words import chance_text
from webapp.deps import DEPS, unit_of
from webapp.errors import checked_json
from webapp.i18n import request_lang
from webapp.views import authenticate

NOT_UNDERSTOOD = N_("That request was not understood.")
KEPT = N_("Saved {name}, version {version}.")
SHARED = N_("{key} is shared: its link is below.")
MAX_ARGS = 200  # the sample inputs line, at most


async def _group(request: web.Request) -> tuple[CampaignView, int]:
    """The game behind the token (for a member), and the viewer."""
    viewer = authenticate(request).user.id
    registry = request.app[DEPS].campaigns.registry
    snapshot = await snapshot_for_viewer(registry, request.match_info["token"], viewer)
    return snapshot.projection.view, viewer


async def systems_page(request: web.Request) -> web.Response:
    view, viewer = await _group(request)
    lang = request_lang(request)
    listed = [s for s in await own_systems.listed(view.chat_tg_id) if s.own]
    key = request.query.get("key", "")[:32]
    text, example = own_systems.EXAMPLE, "+1"
    if key:
        try:
            found = await own_systems.own_version(view.chat_tg_id, key)
        except NotAllowedNow:
            key = ""
        else:
            text, example = found.text, found.definition.odds_example or found.definition.example
    hosting = await own_systems.is_host(view.chat_tg_id, viewer)
    shared = {  # the hosts' to pass on, as /system share gives them
        key: {"token": token, "link": _link(request, token)}
        for key, token in (await own_systems.share_tokens(view.chat_tg_id)).items()
        if hosting
    }
    context = {
        "view": view,
        "token": view.app_token,
        "own": listed,
        "key": key,
        "text": text,
        "example": example,
        "hosting": hosting,
        "shared": shared,
        "limit": own_systems.MAX_OWN_BYTES,
        "lang": lang,
    }
    return aiohttp_jinja2.render_template("systems.html", request, context)


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json(loads=checked_json)
    except ValueError:
        raise Malformed(NOT_UNDERSTOOD) from None
    if not isinstance(body, dict) or not isinstance(body.get("text"), str):
        raise Malformed(NOT_UNDERSTOOD)
    return body


async def api_check(request: web.Request) -> web.Response:
    """The definition typed so far, checked, and the exact chance of each outcome for the
    sample inputs; or the checker's words on what is wrong, in the viewer's language."""
    _, viewer = await _group(request)
    body = await _body(request)
    args = body.get("inputs", "")
    if not isinstance(args, str):
        raise Malformed(NOT_UNDERSTOOD)
    text = body["text"][: own_systems.MAX_OWN_BYTES + 1]
    table = await request.app[DEPS].heavy.run(
        viewer, own_systems.checked_odds, text, args[:MAX_ARGS]
    )
    lang = request_lang(request)
    return web.json_response(
        {
            "ok": True,
            "outcomes": [
                {
                    "key": row.outcome.key,
                    "label": row.outcome.label.in_language(lang.code),
                    "chance": f"{row.chance.numerator}/{row.chance.denominator}",
                    "shown": chance_text(row.chance, lang),
                }
                for row in table.outcomes
            ],
            "marks": [
                {
                    "key": row.mark.key,
                    "label": row.mark.label.in_language(lang.code),
                    "chance": f"{row.chance.numerator}/{row.chance.denominator}",
                    "shown": chance_text(row.chance, lang),
                }
                for row in table.marks
            ],
        }
    )


async def api_save(request: web.Request) -> web.Response:
    """Save the definition: the next version of the group's system of its key, or a new
    system; the group's hosts only."""
    view, viewer = await _group(request)
    text = (await _body(request))["text"][: own_systems.MAX_OWN_BYTES + 1]
    definition = own_systems.check_text(text)
    locks, unit = request.app[DEPS].campaigns.locks, unit_of(request)
    if definition.key in {s.key for s in await own_systems.listed(view.chat_tg_id) if s.own}:
        kept = await own_systems.edit(
            view.chat_tg_id, viewer, definition.key, text, locks=locks, unit=unit
        )
    else:
        kept = await own_systems.create(view.chat_tg_id, viewer, text, locks=locks, unit=unit)
    lang = request_lang(request)
    done = lang.gettext(
        KEPT, name=kept.definition.name.in_language(lang.code), version=kept.version
    )
    return web.json_response({"ok": True, "key": kept.key, "version": kept.version, "done": done})


def _link(request: web.Request, token: str) -> str:
    """A shared system's link, as /system share gives it ("" while the bot's name is
    unknown: the import command alone then)."""
    bot = request.app[DEPS].bot_username()
    return f"https://t.me/{bot}?startgroup={own_systems.SHARE_PREFIX}{token}" if bot else ""


async def api_share(request: web.Request) -> web.Response:
    """Share the group's system ``{"key": KEY}``: its token, made once and kept, and its
    link; the group's hosts only, as ``/system share KEY`` in the group."""
    view, viewer = await _group(request)
    try:
        body = await request.json(loads=checked_json)
    except ValueError:
        raise Malformed(NOT_UNDERSTOOD) from None
    key = body.get("key") if isinstance(body, dict) else None
    if not isinstance(key, str) or not key.strip():
        raise Malformed(NOT_UNDERSTOOD)
    locks, unit = request.app[DEPS].campaigns.locks, unit_of(request)
    token = await own_systems.share(view.chat_tg_id, viewer, key[:32], locks=locks, unit=unit)
    done = request_lang(request).gettext(SHARED, key=key.strip().lower()[:32])
    return web.json_response(
        {"ok": True, "token": token, "link": _link(request, token), "done": done}
    )


def setup_systems_routes(app: web.Application) -> None:
    app.router.add_get("/app/c/{token}/systems", systems_page)
    app.router.add_post("/api/c/{token}/systems/check", api_check)
    app.router.add_post("/api/c/{token}/systems", api_save)
    app.router.add_post("/api/c/{token}/systems/share", api_share)
