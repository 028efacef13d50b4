"""Every route at once: a game token that can't be one is "not found" before any
query, and a state-changing API request is checked, then keyed, before its view runs.

For ``POST``/``PUT``/``PATCH``/``DELETE`` under ``/api/c/`` (every route that changes
a game), in this order:

1. initData is checked (401), then, on a game's route, membership (403): both
   before the body is read;
2. the body is read and fingerprinted with the method and path;
3. the view runs with the request's unit of work (``request[UNIT]``, carrying the
   ``Idempotency-Key``: 8 to 100 of ``A-Z a-z 0-9 _ - . :``, else 400): the change's
   transaction stores the key first (:mod:`core.store.request_keys`), and its answer is
   added to the key's row;
4. a key this user already used is found by that insert (:class:`KeyReused`: the
   transaction rolls back before reading anything): the first answer is sent again,
   marked ``Idempotent-Replayed: true``, and nothing runs twice; the same key with
   another body or route answers 422.

A request without a key (a page from before keys) is handled as before, with no
replay. Keys are kept a day (``core.store.housekeeping.KEEP_REQUEST_KEYS``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Awaitable, Callable

from aiohttp import web

from core.campaigns.idempotency import Kept, KeyReused, Pending, keep_answer, kept
from core.rules.errors import Malformed, NotAllowedNow
from core.views.viewer_pages import GONE, check_member
from core.words.i18n import N_
from webapp.deps import DEPS, UNIT
from webapp.errors import problem_response
from webapp.i18n import request_lang
from webapp.views import authenticate

log = logging.getLogger(__name__)

HEADER = "Idempotency-Key"
CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
KEY = re.compile(r"[A-Za-z0-9_.:-]{8,100}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what secrets.token_urlsafe makes, and fits
GAME_ROUTES = ("/api/c/", "/app/c/")  # the routes whose {token} names a game
KEEP_ANSWERS_UP_TO = 256 * 1024  # bytes of an answer kept for replays

BAD_KEY = N_("That request was not understood.")
KEY_REUSED = N_("That action was already sent with different details. Reload the page.")
DONE = N_("Done. Your change was saved.")


def _replayed(request: web.Request, first: Kept, fingerprint: str) -> web.Response:
    headers = {"Idempotent-Replayed": "true"}
    if first.fingerprint != fingerprint:
        lang = request_lang(request)
        return web.json_response({"error": lang.gettext(KEY_REUSED)}, status=422)
    if first.status is None or first.response is None:  # saved; its answer was never kept
        return _done(request, headers)
    return web.Response(
        text=first.response, status=first.status, content_type="application/json", headers=headers
    )


def _done(request: web.Request, headers: dict[str, str] | None = None) -> web.Response:
    """The answer for a change known to be saved whose own answer is not at hand."""
    lang = request_lang(request)
    return web.json_response({"ok": True, "done": lang.gettext(DONE)}, headers=headers)


async def _keep(request: web.Request, pending: Pending, response: web.StreamResponse) -> None:
    if not isinstance(response, web.Response) or not 200 <= response.status < 300:
        return
    body = response.body
    if not isinstance(body, bytes) or len(body) > KEEP_ANSWERS_UP_TO:
        text = json.dumps({"ok": True})
    else:
        text = body.decode("utf-8", "replace")
    try:
        await keep_answer(pending, response.status, text)
    except Exception:  # the change stands; a retry gets "done" instead of this answer
        log.warning("Could not keep the answer of %s", request.path, exc_info=True)


@web.middleware
async def request_keys(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    token = request.match_info.get("token") if request.path.startswith(GAME_ROUTES) else None
    if token is not None and not TOKEN.fullmatch(token):
        json_body = request.path.startswith("/api/")
        return problem_response(request, NotAllowedNow(GONE), status=404, json_body=json_body)
    if request.method not in CHANGING or not request.path.startswith("/api/c/"):
        return await handler(request)
    key = request.headers.get(HEADER)
    if key is not None and not KEY.fullmatch(key):
        raise Malformed(BAD_KEY)
    user = authenticate(request).user.id
    if token is not None:
        await check_member(token, user)  # before the body is read
    body = await request.read()
    fingerprint = hashlib.sha256(
        b"%s %s\n%s" % (request.method.encode(), request.path.encode(), body)
    ).hexdigest()
    pending = Pending(user, key, fingerprint)
    request[UNIT] = request.app[DEPS].unit(pending)
    try:
        response = await handler(request)
    except KeyReused:  # another try of this action was saved first
        first = await kept(user, key or "")
        if first is None:
            raise
        return _replayed(request, first, fingerprint)
    except Exception:
        if not pending.recorded:
            raise
        # The change is saved; what failed came after (e.g. showing it in the chat).
        log.exception("A saved change's request failed after its commit")
        return _done(request)
    if key is not None and pending.recorded:
        await _keep(request, pending, response)
    return response
