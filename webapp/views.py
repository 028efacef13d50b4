"""Thin views: authenticate, call one use case, render. Errors: see webapp.errors."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

import aiohttp_jinja2
from aiohttp import web

from core.campaigns import CampaignView, describe_members
from core.campaigns.pictures import MAX_PICTURE_BYTES
from core.campaigns.play import Home, PlayerRef
from core.campaigns.portraits import MAX_CAPTION
from core.rules import dice
from core.rules.dice_odds import DiceOdds
from core.rules.errors import Malformed, StonetableError
from core.rules.said import worded
from core.runtime.errors import OneAtATime
from core.views import projection
from core.views.archive import export_for_member
from core.views.viewer_pages import Snapshot, snapshot_for_viewer
from core.words.dice_words import target_words
from core.words.i18n import N_, Lang
from webapp.assets import ASSETS
from webapp.auth import InitDataInvalid, WebAppInitData, validate_init_data
from webapp.deps import DEPS, WebDeps, unit_of
from webapp.errors import NOT_UNDERSTOOD, checked_json, message_of
from webapp.i18n import language_names, request_lang, script_words
from webapp.odds_json import Bar, odds_chart, odds_json_text
from webapp.page_cache import PAGES, respond
from webapp.sheets import MembersPage, SheetPage
from webapp.sheets.dicesystem import DiceSheetPage

DICE_SHEETS = "webapp.sheets.dicesystem"

T = TypeVar("T")


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


# A game's status, as the campaign page's header shows it (message ids).
STATUS_WORDS = (N_("active"), N_("paused"), N_("archived"))


START_PARAM = re.compile(r"[A-Za-z0-9_-]{0,512}")  # a Mini App link's startapp


def _player(init: WebAppInitData) -> PlayerRef:
    u = init.user
    return PlayerRef(u.id, u.first_name, u.last_name, u.username, u.language_code or None)


def _page(deps: WebDeps, view: CampaignView) -> SheetPage:
    page = deps.sheets.get(view.system.key)
    if page is not None:
        return page
    if view.system.sheet_module == DICE_SHEETS:  # a group's own game as data
        return DiceSheetPage(view.system.key)
    return MembersPage(view.system.key)


def _sheet_context(snapshot: Snapshot, viewer_id: int, page: SheetPage) -> dict[str, Any]:
    view = snapshot.view
    return {
        "view": view,
        "page": page,
        "token": view.app_token,
        "sheet": page.context(view, snapshot.table, viewer_id),
    }


async def cached_page(
    request: web.Request,
    kind: str,
    token: str,
    render: Callable[[Snapshot, int], tuple[str, str]],
    *,
    pictures: bool = False,
    portraits: bool = False,
) -> web.Response:
    """A campaign page for one of its members: rendered once per change of what it shows.

    initData and membership are checked on every call, and the campaign read
    afresh; see :mod:`webapp.page_cache`.
    """
    deps = _deps(request)
    viewer = authenticate(request).user.id
    snapshot = await snapshot_for_viewer(
        deps.campaigns.registry, token, viewer, pictures=pictures, portraits=portraits
    )
    page = request.app[PAGES].get_or_render(
        (kind, viewer, snapshot.fingerprint), lambda: render(snapshot, viewer)
    )
    return respond(request, page)


async def _sheet_page(request: web.Request, token: str) -> web.Response:
    lang = request_lang(request)

    def render(snapshot: Snapshot, viewer: int) -> tuple[str, str]:
        deps = _deps(request)
        context = _sheet_context(snapshot, viewer, _page(deps, snapshot.view))
        context["lang"] = lang
        context["portraits"] = deps.campaigns.portraits.slots(
            snapshot.table, viewer, snapshot.portraits
        )
        context["max_portrait_bytes"] = MAX_PICTURE_BYTES
        context["caption_limit"] = MAX_CAPTION
        return aiohttp_jinja2.render_string("campaign.html", request, context), "text/html"

    return await cached_page(request, f"sheet.{lang.code}", token, render, portraits=True)


async def campaign_page(request: web.Request) -> web.Response:
    return await _sheet_page(request, request.match_info["token"])


async def api_campaign(request: web.Request) -> web.Response:
    def render(snapshot: Snapshot, viewer: int) -> tuple[str, str]:
        view = snapshot.view
        sheet = _page(_deps(request), view).context(view, snapshot.table, viewer)
        data = {
            "system": view.system.key,
            "status": view.status.value,
            "chat_title": view.chat_title,
            "members": describe_members(view),
            "sheet": sheet,
        }
        return _dumps(data), "application/json"

    return await cached_page(request, "sheet.json", request.match_info["token"], render)


async def api_export(request: web.Request) -> web.Response:
    """A member downloads the game as they see it, as JSON (their projection, no secrets)."""
    deps = _deps(request)
    viewer = authenticate(request).user.id
    snapshot = await snapshot_for_viewer(
        deps.campaigns.registry, request.match_info["token"], viewer
    )
    seen = snapshot.projection
    data = export_for_member(seen, await projection.log_of(seen), deps.clock())
    view = seen.view
    name = f"stonetable-{view.system.key}-{view.id}.json"
    return web.json_response(
        data, dumps=_dumps, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


async def api_edit(request: web.Request) -> web.Response:
    """Apply one edit through the rules; the page reloads its fragment after."""
    deps = _deps(request)
    viewer = _player(authenticate(request))
    body = await request.json(loads=checked_json)
    if not isinstance(body, dict) or not isinstance(body.get("action"), str):
        raise Malformed(NOT_UNDERSTOOD)
    payload = body.get("payload") or {}
    if not isinstance(payload, dict):
        raise Malformed(NOT_UNDERSTOOD)
    action = body["action"][:40]
    unit = unit_of(request)
    edited = await projection.edit(
        deps.campaigns,
        request.match_info["token"],
        viewer,
        action,
        _as_typed(request, action, payload),
        unit=unit,
    )
    if deps.sent is not None:  # e.g. the group's panel shows the ticked clock
        await deps.sent(unit)
    seen = edited.projection
    context = _page(deps, seen.view).context(seen.view, seen.table, viewer.tg_id)
    return web.json_response({"ok": True, "sheet": context}, dumps=_dumps)


def _as_typed(
    request: web.Request, action: str, payload: dict[str, Any]
) -> dict[str, Any] | Callable[[str], dict[str, Any]]:
    """An edit's payload as the rules name things: a page that shows game words in the
    viewer's language (``read_edit``) reads them back from what the viewer typed, once
    the edit knows its campaign's game system."""
    deps = _deps(request)
    if not any(action in getattr(p, "typed_edits", ()) for p in deps.sheets.values()):
        return payload
    lang = request_lang(request)

    def typed(system: str) -> dict[str, Any]:
        page = deps.sheets.get(system) or MembersPage(system)
        read = getattr(page, "read_edit", None)
        if read is None or action not in getattr(page, "typed_edits", ()):
            return payload
        return dict(read(action, payload, lang))

    return typed


def _dumps(data: Any) -> str:
    return json.dumps(data, default=str)


async def _home(request: web.Request) -> Home:
    init = authenticate(request)
    start_param = init.start_param or request.query.get("startapp", "")
    if not START_PARAM.fullmatch(start_param):  # what Telegram passes, never anything else
        start_param = ""
    return await _deps(request).play.home(_player(init), start_param[:64])


async def shell(request: web.Request) -> web.Response:
    """The page Telegram opens; it holds no data until initData is checked."""
    deps = _deps(request)
    assets = request.app[ASSETS]
    css, js = assets.url("app.css"), assets.url("app.js")

    def render() -> tuple[str, str]:
        context = {
            "telegram_script": deps.telegram_script,
            "css_url": css,
            "js_url": js,
            "script_words": script_words(),
        }
        return aiohttp_jinja2.render_string("shell.html", request, context), "text/html"

    page = request.app[PAGES].get_or_render(("shell", 0, f"{css} {js}"), render)
    return respond(request, page)


async def home(request: web.Request) -> web.Response:
    token = request.query.get("startapp", "")[:64]
    if token:
        try:
            return await _sheet_page(request, token)
        except (InitDataInvalid, StonetableError):
            pass  # not a campaign this viewer is in: fall back to the home page
    page = await _home(request)
    campaigns = _deps(request).campaigns
    games = await projection.games_of(campaigns, page.player)
    stories = await projection.shared_stories_of(campaigns, page.player)
    lang = request_lang(request)
    waits = {
        game: worded(line, lang.gettext)
        for game, line in (await projection.waiting_of(campaigns, games)).items()
    }
    context = {"home": page, "games": games, "stories": stories, "lang": lang, "waits": waits}
    return aiohttp_jinja2.render_template("home.html", request, context)


async def prefs(request: web.Request) -> web.Response:
    """The player's preferences: the app's language and haptics, kept by the app itself
    (Telegram's CloudStorage); and their quiet hours, kept here with their device's time
    zone (reminders due inside them wait until they end)."""
    viewer = _player(authenticate(request))
    quiet = await _deps(request).campaigns.quiet_hours(viewer)
    context = {"lang": request_lang(request), "languages": language_names(), "quiet": quiet}
    return aiohttp_jinja2.render_template("prefs.html", request, context)


QUIET_SET = N_("Quiet hours saved: no reminders from {start} to {end} ({zone}).")
QUIET_OFF = N_("No quiet hours: reminders come at any time.")


async def api_quiet(request: web.Request) -> web.Response:
    """Keep the viewer's quiet hours: ``{"from": "22:00", "to": "07:00", "zone":
    "Asia/Tokyo"}`` (the zone the device reports, or an offset such as ``+03:00``), or
    ``{"off": true}``. Hours or a zone that can't be read change nothing (400)."""
    viewer = _player(authenticate(request))
    body = await request.json(loads=checked_json)
    if not isinstance(body, dict):
        raise Malformed(NOT_UNDERSTOOD)
    lang = request_lang(request)
    campaigns = _deps(request).campaigns
    if body.get("off") is True:
        await campaigns.set_quiet_hours(viewer, None, unit=unit_of(request))
        return web.json_response({"ok": True, "quiet": None, "done": lang.gettext(QUIET_OFF)})
    start, end, zone = body.get("from"), body.get("to"), body.get("zone")
    if not all(isinstance(v, str) for v in (start, end, zone)):
        raise Malformed(NOT_UNDERSTOOD)
    assert isinstance(start, str) and isinstance(end, str) and isinstance(zone, str)
    kept = await campaigns.set_quiet_hours(
        viewer, f"{start.strip()[:5]}-{end.strip()[:5]}", zone.strip(), unit=unit_of(request)
    )
    assert kept is not None
    done = lang.gettext(QUIET_SET, start=kept.start, end=kept.end, zone=kept.zone)
    quiet = {"from": kept.start, "to": kept.end, "zone": kept.zone}
    return web.json_response({"ok": True, "quiet": quiet, "done": done})


async def api_me(request: web.Request) -> web.Response:
    page = await _home(request)
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
    deps = _deps(request)
    healthy = (deps.ready is None or deps.ready()) and await deps.play.health()
    return web.json_response({"ok": healthy}, status=200 if healthy else 503)


MAX_ODDS_TEXT = 300


async def _worked_out(request: web.Request, job: Callable[[dice.DiceExpression], T]) -> T | None:
    """``job`` of the expression in ``?expr=`` for a signed-in viewer (None when nothing
    was asked), worked out in a worker process as the viewer's one heavy job.

    Raises:
        InitDataInvalid: no, forged or stale initData.
        Malformed: not dice notation, or too large for exact odds.
        OneAtATime: the viewer's last heavy request is still being worked out.
        TooHeavy: it ran over the time limit.
    """
    init = authenticate(request)
    text = request.query.get("expr", "")[:MAX_ODDS_TEXT]
    if not text.strip():
        return None
    expression = dice.parse(text)
    return await _deps(request).heavy.run(init.user.id, job, expression)


def _target_text(result: DiceOdds | None, lang: Lang) -> str:
    target = None if result is None else result.expression.target
    return "" if target is None else target_words(target.op, target.value, lang)


async def api_odds(request: web.Request) -> web.Response:
    """``GET /api/odds?expr=1d20%2B5+adv+>=+15``: the exact distribution as JSON."""
    body = await _worked_out(request, odds_json_text)
    if body is None:
        raise Malformed(dice.NOTHING_TO_ROLL, examples=dice.EXAMPLES)
    return web.json_response(text=body)


async def odds_page(request: web.Request) -> web.Response:
    """The odds calculator: a field, then min/max/mean, a target's chance and a chart."""
    lang = request_lang(request)
    text = request.query.get("expr", "")[:MAX_ODDS_TEXT]
    problem = ""
    result: DiceOdds | None = None
    bars: list[Bar] = []
    try:
        chart = await _worked_out(request, odds_chart)  # the bars too, off the event loop
    except (Malformed, OneAtATime) as error:
        problem = message_of(error, lang)
    else:
        if chart is not None:
            result, bars = chart
    context = {
        "text": text,
        "example": lang.pgettext("examples of dice notation", "1d20+5 adv >= 15"),
        "result": result,
        "problem": problem,
        "bars": bars,
        "lang": lang,
        "mean": f"{result.mean:.2f}" if result else "",
        "target": _target_text(result, lang),
    }
    return aiohttp_jinja2.render_template("odds.html", request, context)
