"""How a post in character looks: the speaker's name, their words as typed (escaped),
and each roll where it was written, ``[1d20+5 (12) = 17]`` with the notation and the
total in bold and the dice compactly between."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultCachedPhoto,
    InputTextMessageContent,
)
from telegram.constants import ParseMode

from core.campaigns.portraits import MAX_CAPTION
from core.campaigns.posts import Character, Posted, Speaker, offer_id
from core.rules import dice
from core.rules.errors import Malformed
from core.rules.in_character import Post, Rolled, Spoken
from core.words.i18n import N_, Lang
from tgbot.render.text import MAX_MESSAGE, esc

MAX_FACES = 12  # dice shown in one bracket; more are counted
TOO_LONG_POST = N_(
    "That post would be longer than Telegram allows ({limit} characters). Split it in two."
)
TOO_LONG_CAPTION = N_(
    "That post would be longer than a picture's caption allows ({limit} characters). "
    "Post it with /say, where it goes as text alone, or split it in two."
)
_TAG = re.compile(r"<[^>]*>")
ICONS = {Speaker.CHARACTER: "💬", Speaker.OTHER: "🎭", Speaker.NARRATOR: "📜"}


def _die(die: dice.DieRoll) -> str:
    text = str(die.total) + ("!" if any(f.exploded for f in die.faces) else "")
    return text if die.kept else f"<s>{text}</s>"


def _faces(outcome: dice.Outcome) -> str:
    """The dice of one roll, compactly: ``12`` or ``4, <s>1</s>, 6 | 3``."""
    shown: list[str] = []
    left = MAX_FACES
    more = 0
    for part in outcome.parts:
        if isinstance(part, dice.SetRoll):
            values = [str(v) if kept else f"<s>{v}</s>" for v, kept in part.values]
        else:
            values = [_die(d) for d in part.rolled]
        more += max(len(values) - left, 0)
        if left > 0:
            shown.append(", ".join(values[:left]))
        left -= min(len(values), left)
    return " | ".join(shown) + (f", +{more}" if more else "")


def _verdict(outcome: dice.Outcome) -> str:
    return "" if outcome.reached is None else (" ✅" if outcome.reached else " ❌")


def rolled(piece: Rolled) -> str:
    """One bracket's roll: ``[<b>1d20+5</b> (12) = <b>17</b>]``."""
    outcomes = piece.result.outcomes
    faces = "; ".join(_faces(o) for o in outcomes)
    total = ", ".join(str(o.total) + _verdict(o) for o in outcomes)
    return f"[<b>{esc(piece.written.strip())}</b> ({faces}) = <b>{total}</b>]"


def words_of(post: Post) -> str:
    """The post's words (HTML): the text escaped, each roll in place."""
    return "".join(esc(p.text) if isinstance(p, Spoken) else rolled(p) for p in post.pieces)


def render_post(posted: Posted) -> str:
    """The message a post in character is (HTML)."""
    said = words_of(posted.post)
    icon = ICONS[posted.speaker]
    if posted.speaker is Speaker.NARRATOR:
        return f"{icon} <i>{said}</i>"
    return f"{icon} <b>{esc(posted.name)}</b>: {said}"


def shown_length(text: str) -> int:
    """How long Telegram counts an HTML message: its text without tags, in UTF-16 units."""
    return len(html.unescape(_TAG.sub("", text)).encode("utf-16-le")) // 2


def fitting(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` (HTML) if Telegram takes it as a message (``limit``: :data:`MAX_CAPTION`,
    as a picture's caption).

    Raises:
        Malformed: it is longer than ``limit``; the message names the limit.
    """
    if shown_length(text) > limit:
        raise Malformed(TOO_LONG_CAPTION if limit == MAX_CAPTION else TOO_LONG_POST, limit=limit)
    return text


def with_portrait(text: str) -> bool:
    """Whether a post (HTML) goes under its speaker's portrait: it fits a caption, as
    Telegram counts it. A longer post goes as text alone, never cut."""
    return shown_length(text) <= MAX_CAPTION


def speaking(name: str, lang: Lang) -> str:
    """HTML posted when an inline post is picked, before its dice are in."""
    return "💬 " + lang.gettext("<b>{name}</b> speaks…", name=esc(name))


def say_more(lang: Lang) -> InlineKeyboardMarkup:
    """The one button under an inline post: another post. It also makes Telegram give
    the posted message an ``inline_message_id``, which the edit with the dice needs."""
    text = "💬 " + lang.gettext("Say more")
    button = InlineKeyboardButton(text, switch_inline_query_current_chat="")
    return InlineKeyboardMarkup([[button]])


def post_articles(
    query: str, characters: Sequence[Character], lang: Lang
) -> list[InlineQueryResultArticle | InlineQueryResultCachedPhoto]:
    """The inline results "as Mirra" for ``query``: one per character the player has
    (the game's chat named when there are several); none for an empty query. A character
    whose portrait Telegram has (sent once with a post) posts it, the post its caption."""
    text = query.strip()
    if not text:
        return []
    several = len(characters) > 1
    results: list[InlineQueryResultArticle | InlineQueryResultCachedPhoto] = []
    for c in characters:
        title = _short("💬 " + lang.gettext("as {name}", name=c.name))
        description = _short(f"{c.chat_title} · {text}" if several else text)
        if c.portrait_file_id is not None:
            results.append(
                InlineQueryResultCachedPhoto(
                    id=offer_id(c.campaign_id, query, pictured=True),
                    photo_file_id=c.portrait_file_id,
                    title=title,
                    description=description,
                    caption=speaking(c.name, lang),
                    parse_mode=ParseMode.HTML,
                    reply_markup=say_more(lang),
                )
            )
            continue
        results.append(
            InlineQueryResultArticle(
                id=offer_id(c.campaign_id, query),
                title=title,
                description=description,
                input_message_content=InputTextMessageContent(
                    speaking(c.name, lang), parse_mode=ParseMode.HTML
                ),
                reply_markup=say_more(lang),
            )
        )
    return results


def _short(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
