"""/say and /npc: posting in character in a game's chat, with dice in square brackets.

``/say I swing [1d20+5]`` speaks as the player's character; ``/npc Gobbo: Stop!`` as a
character the host or game master plays, ``/npc The door creaks.`` as the narrator.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import BaseHandler, CommandHandler

from core.words.i18n import N_
from tgbot.context import StonetableContext
from tgbot.outbox import sent_with
from tgbot.updates import CommandSpec, actor, command_args

COMMANDS = [
    CommandSpec("say", N_("Speak as your character: /say I swing [1d20+5]"), private=False),
    CommandSpec(
        "npc",
        N_("Host or GM: speak as another, /npc Gobbo: Halt! (no name: the narrator)"),
        private=False,
    ),
]


async def say(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    posts = context.deps.campaigns.posts
    posted = await posts.say(chat, player, command_args(update), unit=context.unit)
    await sent_with(context, posted)


async def npc(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    posts = context.deps.campaigns.posts
    posted = await posts.npc(chat, player, command_args(update), unit=context.unit)
    await sent_with(context, posted)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [CommandHandler("say", say), CommandHandler("npc", npc)]
