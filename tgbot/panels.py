"""How panels look in the chat: one renderer per panel kind, found by kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.words.i18n import Lang
from tgbot.callback import PanelButton


class PanelRenderer(Protocol):
    """Turns a panel into HTML text and buttons in a language (pure: no I/O).

    ``lang`` is the language of the chat the panel's message is in
    (:func:`tgbot.i18n.lang_at`)."""

    kind: str

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]: ...


def button(view: PanelView, label: str, action: str, argument: str = "") -> InlineKeyboardButton:
    """A button that applies ``action`` to this version of the panel."""
    data = PanelButton(view.id, view.version, action, argument).encode()
    return InlineKeyboardButton(label, callback_data=data)


def keyboard(rows: Sequence[Sequence[InlineKeyboardButton]]) -> InlineKeyboardMarkup | None:
    rows = [list(row) for row in rows if row]
    return InlineKeyboardMarkup(rows) if rows else None


@dataclass(frozen=True)
class Note:
    """A message a panel's change sends elsewhere (a private chat, or a notice in the group)."""

    chat_id: int
    text: str  # HTML
    markup: InlineKeyboardMarkup | None = None


@dataclass(frozen=True)
class Refresh:
    """Another panel whose message should be redrawn after this change."""

    panel_id: int


FollowUp = Note | Refresh


class FollowsUp(Protocol):
    """A renderer that also says what a change sends elsewhere (pure: no I/O).

    Each note is worded in its reader's language: a player's private note in
    :func:`tgbot.i18n.voice` of that player, a group notice in the game's."""

    def follow_ups(self, view: PanelView) -> Sequence[FollowUp]: ...


Renderers = Mapping[str, PanelRenderer]
