"""The one place that turns errors into HTTP answers.

API routes (``/api/...``) answer JSON ``{"error": message}``; pages answer the
matching fragment. Views simply raise.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable

import aiohttp_jinja2
from aiohttp import web

from core.rules.errors import Malformed, NotAllowedNow, StonetableError
from core.rules.said import worded
from core.rules.text import Unstorable, check_all, checked
from core.runtime.errors import OneAtATime, TryAgain
from core.words.i18n import N_, Lang
from webapp.auth import InitDataInvalid
from webapp.i18n import request_lang

log = logging.getLogger(__name__)

NOT_UNDERSTOOD = N_("That request was not understood.")
RETRY_AFTER = 2  # seconds, on every 503


def status_of(error: Exception) -> int:
    """The HTTP status for an error a user can meet."""
    if isinstance(error, InitDataInvalid):
        return 401
    if isinstance(error, Malformed):
        return 400
    if isinstance(error, OneAtATime):  # a user's heavy requests go one at a time
        return 429
    if isinstance(error, NotAllowedNow):
        return 403
    if isinstance(error, TryAgain):
        return 503
    return 400


def message_of(error: Exception, lang: Lang) -> str:
    """The sentence for an error, in the viewer's language (catalogue ids translated here)."""
    if isinstance(error, InitDataInvalid):
        return "unauthorized"
    if isinstance(error, StonetableError):
        values = {k: worded(v, lang.gettext, lang.pgettext) for k, v in error.values.items()}
        return lang.gettext(error.message_id, **values)
    return lang.gettext(NOT_UNDERSTOOD)


def problem_response(
    request: web.Request,
    error: Exception,
    *,
    status: int | None = None,
    json_body: bool | None = None,
) -> web.Response:
    """The answer for an error: JSON for API routes, a page fragment otherwise."""
    status = status_of(error) if status is None else status
    lang = request_lang(request)
    if json_body is None:
        json_body = request.path.startswith("/api/")
    if json_body:
        response = web.json_response({"error": message_of(error, lang)}, status=status)
    else:
        template = "unauthorized.html" if status == 401 else "problem.html"
        response = aiohttp_jinja2.render_template(
            template, request, {"message": message_of(error, lang), "lang": lang}, status=status
        )
    if status in (429, 503):  # "try again": the page retries the same action after this long
        response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def checked_json(text: str) -> object:
    """A request's JSON body (``request.json(loads=checked_json)``), every text in it one
    the store can keep.

    Raises:
        Unstorable: a text holds a NUL or a broken character (400, before any change).
    """
    value = json.loads(text)
    check_all(value)
    return value


@web.middleware
async def errors(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    try:
        for value in request.match_info.values():
            checked(value)  # a path the store cannot keep: 400, not a lookup
        return await handler(request)
    except (InitDataInvalid, StonetableError, json.JSONDecodeError, UnicodeDecodeError) as error:
        if isinstance(error, Unstorable) or (
            isinstance(error, Malformed) and error.__cause__ is not None
        ):
            log.info("Refused bad input (not an outage): %s", error.__cause__ or error)
        return problem_response(request, error)
    except RecursionError as error:  # JSON nested deeper than Python reads: not understood
        return problem_response(request, error, status=400)
