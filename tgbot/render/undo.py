"""The ``↩ Undo`` button under a panel, for the one who just acted (pure)."""

from __future__ import annotations

from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.campaigns.undo import TookBack
from core.rules.undo import UNDO_SYMBOL
from core.words.i18n import Lang
from tgbot.buttons.undo import UndoButton


def undo_button(view: PanelView, lang: Lang) -> InlineKeyboardButton | None:
    """The rules' ``↩ Undo`` choice, labelled with its author's name (None if none)."""
    if view.undo is None:
        return None
    (author,) = view.undo.by
    member = view.campaign.member(author)
    name = member.name if member is not None else lang.gettext("player")
    data = UndoButton(view.id, view.version).encode()
    return InlineKeyboardButton(
        f"{UNDO_SYMBOL} " + lang.gettext("Undo ({name})", name=name), callback_data=data
    )


def with_undo(
    view: PanelView, markup: InlineKeyboardMarkup | None, lang: Lang
) -> InlineKeyboardMarkup | None:
    """``markup`` with the undo button as its last row, when one is offered."""
    button = undo_button(view, lang)
    if button is None:
        return markup
    rows = markup.inline_keyboard if markup is not None else ()
    return InlineKeyboardMarkup((*rows, (button,)))


def took_back_text(back: TookBack, lang: Lang, *, html: bool = True) -> str:
    """What the chat reads after an undo (HTML, or plain for a button's answer)."""
    label = lang.gettext(back.label)  # a message id: the rules name every step
    name, label = (escape(back.name), escape(label)) if html else (back.name, label)
    return f"{UNDO_SYMBOL} " + lang.gettext("{name} took back: {label}", name=name, label=label)
