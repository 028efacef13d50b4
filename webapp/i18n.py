"""The Mini App's words: each request is answered in its viewer's Telegram language.

Templates use jinja2's i18n extension (``{% trans %}``, ``_()``) with the callables
of the request's language passed in its context (English is only the fallback the
environment starts with). The scripts' words come from the shell page, in every
language, and the script picks the viewer's.
"""

from __future__ import annotations

import json
from typing import Any

import jinja2
from aiohttp import web
from markupsafe import Markup

from core.i18n import N_, Lang, available, lang_for
from webapp.auth import InitDataInvalid, validate_init_data
from webapp.deps import DEPS

SCRIPT_WORDS = {
    "loading": N_("Opening your table…"),
    "offline_title": N_("No connection"),
    "offline_text": N_("Check your connection and open the app again."),
    "failed": N_("That didn't work."),
}


def template_words(lang: Lang) -> dict[str, Any]:
    """``gettext``/``ngettext``/``pgettext`` for jinja2's i18n extension (new style).

    The catalogue's text is trusted markup; the values put into it are escaped.
    """

    def gettext(message: str, **values: Any) -> Markup:
        return Markup(lang.translations.gettext(message)) % values

    def ngettext(singular: str, plural: str, n: int, **values: Any) -> Markup:
        values.setdefault("num", lang.number(n))
        return Markup(lang.translations.ngettext(singular, plural, n)) % values

    def pgettext(context: str, message: str, **values: Any) -> Markup:
        return Markup(lang.translations.pgettext(context, message)) % values

    return {
        "gettext": gettext,
        "ngettext": ngettext,
        "pgettext": pgettext,
        "lang": lang,
        "lang_code": lang.babel_locale.language,
    }


def script_words() -> str:
    """Every language's words for the scripts, as JSON for the shell page."""
    words = {code: {k: lang_for(code).gettext(v) for k, v in SCRIPT_WORDS.items()}
             for code in available()}
    return json.dumps(words, ensure_ascii=False).replace("</", "<\\/")


def request_lang(request: web.Request) -> Lang:
    """The viewer's language, from their signed launch data (English without it)."""
    deps = request.app[DEPS]
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "tma":
        return lang_for(None)
    try:
        init = validate_init_data(
            value.strip(), deps.bot_token, now=deps.clock(), max_age=deps.initdata_max_age
        )
    except InitDataInvalid:
        return lang_for(None)
    return lang_for(init.user.language_code)


async def words_of(request: web.Request) -> dict[str, Any]:
    """aiohttp_jinja2 context processor: the request's language for every template."""
    return template_words(request_lang(request))


def install(env: jinja2.Environment) -> None:
    """The i18n extension's callables, English until a request passes its own."""
    env.add_extension("jinja2.ext.i18n")
    env.globals.update(template_words(lang_for(None)))
    env.newstyle_gettext = True  # type: ignore[attr-defined]
