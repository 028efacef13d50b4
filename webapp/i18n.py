"""The Mini App's words: each request is answered in its viewer's Telegram language.

Templates use jinja2's i18n extension (``{% trans %}``, ``_()``); a render passes
the viewer's language as ``lang`` (:func:`request_lang`), and the catalogue
functions read it from there. The scripts' words come from the shell page, in every
language, and the script picks the viewer's.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

import jinja2
from aiohttp import web
from babel import Locale
from jinja2.runtime import Context
from jinja2.utils import pass_context
from markupsafe import Markup

from core.words.cortex_words import stress_name
from core.words.i18n import N_, Lang, available, lang_for
from core.words.map_words import mark

SCRIPT_WORDS = {
    "loading": N_("Opening your table…"),
    "offline_title": N_("No connection"),
    "offline_text": N_("Check your connection and open the app again."),
    "failed": N_("That didn't work."),
    # a change the server could not save yet: the page sends the same action again
    "retrying": N_("Not saved yet. Trying again…"),
    "try_again": N_("Your change was not saved. Please try again."),
    # a change saved after a retry (or one the server had already saved)
    "done": N_("Done. Your change was saved."),
    "draft_restored": N_("Your unsaved text is back."),
    "full_screen": N_("Full screen"),
    "leave_full_screen": N_("✕ Leave full screen"),
    "no_full_screen": N_("Full screen isn't available here."),
    # a tap on the sheet opened its roll's panel in the game's chat
    "roll_started": N_("Roll started in the chat"),
}
LANGUAGE_HEADER = "X-Stonetable-Language"
"""The language the player chose in the app's preferences (words only; none: Telegram's)."""


def _lang(context: Context) -> Lang:
    found = context.get("lang")
    return found if isinstance(found, Lang) else lang_for(None)


@pass_context
def _gettext(context: Context, message: str, **values: Any) -> Markup:
    return Markup(_lang(context).translations.gettext(message)) % values


@pass_context
def _ngettext(context: Context, singular: str, plural: str, n: int, **values: Any) -> Markup:
    lang = _lang(context)
    values.setdefault("num", lang.number(n))
    return Markup(lang.translations.ngettext(singular, plural, n)) % values


@pass_context
def _pgettext(context: Context, where: str, message: str, **values: Any) -> Markup:
    return Markup(_lang(context).translations.pgettext(where, message)) % values


@pass_context
def _word(context: Context, message: str, **values: Any) -> str:
    """A message id held in a value (a label, a step's name), as plain text to escape."""
    return _lang(context).gettext(message, **values) if message else ""


@pass_context
def _stress(context: Context, name: str) -> str:
    """A Cortex Stress type as the viewer reads it (a default one translated), plain text."""
    return stress_name(name, _lang(context))


@pass_context
def _mark(context: Context, label: str | None) -> str:
    """A map label (``L3``, ``D2``, ``R4``) in the viewer's letters, plain text."""
    return mark(label, _lang(context))


def script_words() -> str:
    """Every language's words for the scripts, as JSON for the shell page."""
    words = {
        code: {k: lang_for(code).gettext(v) for k, v in SCRIPT_WORDS.items()}
        for code in available()
    }
    return json.dumps(words, ensure_ascii=False).replace("</", "<\\/")


def request_lang(request: web.Request) -> Lang:
    """The viewer's language, from their launch data (English without it).

    Words only: a launch that fails its signature check still says which language
    to refuse it in; nothing else is read from it. A language the player chose in the
    app's preferences (the ``X-Stonetable-Language`` header) comes first.
    """
    chosen = request.headers.get(LANGUAGE_HEADER, "").strip().lower()
    if chosen in available():
        return lang_for(chosen)
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "tma":
        return lang_for(None)
    try:
        user = json.loads(parse_qs(value.strip()).get("user", ["{}"])[0])
    except ValueError:
        return lang_for(None)
    code = user.get("language_code") if isinstance(user, dict) else None
    return lang_for(code if isinstance(code, str) else None)


def language_names() -> list[tuple[str, str]]:
    """Every catalogue, named as its speakers name it: (en, English), (ru, Русский)."""
    names = []
    for code in available():
        name = Locale.parse(code).get_display_name(code) or code
        names.append((code, name[:1].upper() + name[1:]))
    return names


def install(env: jinja2.Environment) -> None:
    """jinja2's i18n extension, speaking the ``lang`` each render passes (English without).

    The catalogue's text is trusted markup; the values put into it are escaped.
    """
    env.add_extension("jinja2.ext.i18n")
    env.globals.update(gettext=_gettext, ngettext=_ngettext, pgettext=_pgettext, word=_word)
    env.filters["stress"] = _stress  # a Cortex Stress type: {{ x.type|stress }}
    env.filters["mark"] = _mark  # a map label in the viewer's letters: {{ c.danger|mark }}
    env.newstyle_gettext = True  # type: ignore[attr-defined]
