"""How inline rolls look: the results offered while ``@bot 2d6+3`` is typed, and the
message they post (the dice follow in an edit, once the result is chosen)."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
)
from telegram.constants import ParseMode

from core.campaigns.inline_rolls import Offer, offers
from core.rules import dice
from core.words.i18n import N_, Lang
from tgbot.render.text import esc

DICE_HELP = "dice"  # the /start parameter of the button above results that are no roll
NO_ROLL = N_("🤔 That's no roll yet: how to write dice")
MAX_SWITCH = 256  # the longest query a switch_inline_query button may carry
MAX_TITLE = 100


def again_button(offer: Offer, lang: Lang) -> InlineKeyboardMarkup:
    """The one button under an inline roll: the same roll typed again, for another try.

    It also makes Telegram give the posted message an ``inline_message_id``, which the
    edit with the dice needs.
    """
    query = offer.name if offer.name else offer.text
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    "🎲 " + lang.gettext("Roll again"),
                    switch_inline_query_current_chat=query[:MAX_SWITCH],
                )
            ]
        ]
    )


def rolling_text(offer: Offer, who: str, lang: Lang) -> str:
    """HTML posted when the result is picked, before the dice are in."""
    if offer.name:
        return "🎲 " + lang.gettext(
            "<b>{name}</b> rolls <i>{roll}</i>: <code>{notation}</code>…",
            name=esc(who),
            roll=esc(offer.name),
            notation=esc(offer.text),
        )
    return "🎲 " + lang.gettext(
        "<b>{name}</b> rolls <code>{notation}</code>…", name=esc(who), notation=esc(offer.text)
    )


def _title(text: str) -> str:
    return text if len(text) <= MAX_TITLE else text[: MAX_TITLE - 1] + "…"


def _article(offer: Offer, who: str, lang: Lang) -> InlineQueryResultArticle:
    expression: dice.DiceExpression = offer.expression
    title = f"🎲 {offer.name}: {offer.text}" if offer.name else "🎲 " + offer.text
    description = lang.gettext("Roll {notation}", notation=expression.notation)
    if expression.label:
        description += f" — {expression.label}"
    return InlineQueryResultArticle(
        id=offer.id,
        title=_title(title),
        description=_title(description),
        input_message_content=InputTextMessageContent(
            rolling_text(offer, who, lang), parse_mode=ParseMode.HTML
        ),
        reply_markup=again_button(offer, lang),
    )


def inline_results(
    query: str, suggestions: Sequence[tuple[str, str]], who: str, lang: Lang
) -> tuple[list[InlineQueryResultArticle], InlineQueryResultsButton | None]:
    """The answer to an inline query: the typed roll first, then saved rolls suggested
    for it (name, text); for text that is no roll, the button Telegram shows above the
    results (it opens the private chat with the bot, whose ``/start dice`` says how to
    write dice). A hint is never a result: nothing that is no roll can be posted."""
    found = offers(query, suggestions)
    results = [_article(offer, who, lang) for offer in found.rolls]
    if found.refusal is None:
        return results, None
    return results, InlineQueryResultsButton(text=lang.gettext(NO_ROLL), start_parameter=DICE_HELP)
