"""The sandbox page's own words, in each player's language.

The page speaks the language of the player it plays as (as Telegram's app would
speak its user's); every catalogue's words go to the page, which switches with
the player. ``{name}``-style placeholders are filled in by the page's script.
"""

from __future__ import annotations

import json

from babel import Locale

from core.words.i18n import N_, Lang, available, lang_for

WORDS = {
    "sandbox": N_("Sandbox"),
    "mini_app": N_("Mini App"),
    "ok": N_("OK"),
    "chat": N_("Chat"),
    "tagline": N_("no Telegram needed"),
    "playing_as": N_("Playing as"),
    "language": N_("Their language"),
    "dark_theme": N_("Dark theme"),
    "light_theme": N_("Light theme"),
    "chats": N_("Chats"),
    "cancel_reply": N_("Cancel reply"),
    "placeholder": N_("Write a message or /command…"),
    "message": N_("Message"),
    "send": N_("Send"),
    "general_topic": N_("General"),
    "close_topic": N_("🔒 Close topic"),
    "reopen_topic": N_("🔓 Reopen topic"),
    "start": N_("Start"),
    "restart": N_("Restart bot"),
    "close_app": N_("Close Mini App"),
    "back": N_("Back"),
    "reload_app": N_("Reload Mini App"),
    "photo": N_("Photo"),
    "spoiler": N_("Spoiler"),
    "copied": N_("Copied"),
    "unsupported_button": N_("This button type is not part of the sandbox"),
    "show_replied": N_("Show the message this replies to"),
    "reply_to_this": N_("Reply to this message"),
    "reply": N_("Reply"),
    "edited": N_("edited"),
    "typing": N_("{bot} is typing…"),
    "sending": N_("{bot} is sending…"),
    "gone": N_("That message is no longer here"),
    "private_chat": N_("Private chat"),
    "group": N_("Group"),
    "open_app": N_("Open the Mini App"),
    "commands": N_("Commands"),
    "press_start": N_("Press Start to talk to {bot}."),
    "no_messages": N_("No messages here yet."),
    "what_can_it_do": N_("What can this bot do?"),
    "settings": N_("Settings"),
    "cancel": N_("Cancel"),
    "close_anyway": N_("Close anyway"),
    "unsaved": N_("Changes that you made may not be saved."),
    "players_and_bot": N_("{count} players and the bot"),
    "reply_to": N_("Reply to {name}: {text}"),
    "failed_start": N_("Sandbox failed to start: {error}"),
    "via": N_("via {bot}"),
    "inline_results": N_("Inline results"),
}


def page_words(lang: Lang) -> dict[str, str]:
    return {key: lang.gettext(message) for key, message in WORDS.items()}


def all_words() -> str:
    """Every catalogue's words, as JSON for the page (safe inside a script tag)."""
    words = {code: page_words(lang_for(code)) for code in available()}
    return json.dumps(words, ensure_ascii=False).replace("</", "<\\/")


def language_name(code: str) -> str:
    """A language as its speakers name it: English, Русский."""
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]
