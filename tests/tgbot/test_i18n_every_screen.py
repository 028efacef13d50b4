"""Every screen of every game, played at random, speaks the table's language.

The same random walks as the one-truth property (presses on group and private
panels, replies, commands, Mini App edits) are played by a table whose Telegram
apps all speak one language, against the real application and the local Bot API
server. After each move every message in the group and in each private chat (its
text and its button labels) and the answer to a press must hold no English word
outside player-written text and game data, and no button label may be wider than a
360 px phone allows (tests/support/phone.py measures it with a real font):

- in the pseudo-language ``xx`` every catalogue message is bracketed, so a word
  outside brackets is a literal that skipped the catalogue;
- in Russian, a Latin word left over is English nobody translated.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from core.rules.systems import LIBRARY, library_definition
from tests.support.nsu_bot import ALICE, BO, CHIDI, TIMEOUT, buttons
from tests.support.phone import cut_labels
from tests.support.stack import GROUP, Stack, running_stack
from tests.tgbot.test_i18n_pseudo import leaks
from tests.tgbot.test_one_truth_property import (
    GAMES,
    PLAYERS,
    REPLIES,
    Game,
    fresh_game,
    moves,
    play,
)
from tgbot.sandbox.fake_api import Player

pytestmark = [pytest.mark.e2e]  # the language is the same on any store: SQLite only

Json = dict[str, Any]

# What the walks themselves write (player text), the system names they type, and names
# that are never translated (the product's, Telegram's).
WRITTEN = (
    "Stonetable",
    "Telegram",
    "No Stone Unturned",
    "Cortex",
    "Curious",
    "Wary",
    "Angry",
    *REPLIES,
    "Justice",
    "Rope",
    "Truth",
    "Fog",
    "Hope",
    "Chidi Okafor",
    "I climb",
    "A bell at noon",
    "No ghosts",
    "threat",
    "cortex",
    "d20",
    "nsu",
    "might",
    # /help's examples (the greeting's "All commands" button sends it): Cortex's heroes
    # and the words its commands take as typed
    "Lex",
    "Clark",
    "Lois",
    "vs",
    "value",
    "world",
    "NSU",
    "off",  # /story off, as typed
)


# What players type as it stands, whatever their language: the dice and check notation
# (``2d20kl1``, ``d20 adv``, ``/check strong +2 dc15``, ``vs14``) and language codes.
NOTATION = re.compile(r"\b(?:\d*d\d+\w*|adv|dis|dc\d+|vs\d+|weak|average|strong|en|ru)\b")


# the library games' keys, typed after /newgame as they are: identifiers, like commands
GAME_KEYS = re.compile(r"\b(?:" + "|".join(LIBRARY) + r")\b")


# the library games' own names (a game's name, like "Pathfinder", is the same in any language)
GAME_NAMES = tuple(
    name
    for key in LIBRARY
    for name in (library_definition(key).name.en, library_definition(key).name.ru)
)


def english(text: str) -> list[str]:
    """The English words of ``text`` outside player text, game data and notation."""
    return leaks(GAME_KEYS.sub(" ", NOTATION.sub(" ", text)), (*WRITTEN, *GAME_NAMES))


def cast(language: str) -> list[Player]:
    """The walks' three players (and a fourth who never plays), all speaking ``language``."""
    return [
        Player(ALICE, "Alice", "Marsh", "alice_marsh", language_code=language, started=True),
        Player(BO, "<b>Bo</b> & Co", language_code=language, started=True),
        Player(CHIDI, "Chidi", "Okafor", "chidi_o", language_code=language, started=True),
        Player(1004, "Zoë", "🐉 Drake", "zoe_drake", language_code=language, started=True),
    ]


def screen_leaks(stack: Stack) -> list[str]:
    """Every English word the bot put on screen: its messages' texts and button labels."""
    found: list[str] = []
    for chat in (GROUP, *PLAYERS):
        for message in stack.api.messages(chat):
            if not message.get("from", {}).get("is_bot"):
                continue  # what a player wrote
            text = message.get("text") or message.get("caption") or ""
            for word in english(text):
                found.append(f"chat {chat}: {word!r} in {text[:160]!r}")
            for button in buttons(message):
                for word in english(button.get("text", "")):
                    found.append(f"chat {chat}: {word!r} on button {button.get('text')!r}")
    return found


def screen_cuts(stack: Stack) -> list[str]:
    """Every button label on screen a 360 px phone would cut, measured with a real font.

    The pseudo-language's brackets are taken off, so its walk measures the English labels
    (its accented letters are as wide as the plain ones); Russian is measured as it is.
    """
    found: list[str] = []
    for chat in (GROUP, *PLAYERS):
        for message in stack.api.messages(chat):
            if not message.get("from", {}).get("is_bot"):
                continue
            keyboard = (message.get("reply_markup") or {}).get("inline_keyboard") or []
            rows = [[str(b.get("text", "")).translate(UNBRACKET) for b in row] for row in keyboard]
            found += [f"chat {chat}: {cut}" for cut in cut_labels(rows)]
    return found


UNBRACKET = str.maketrans("", "", "⟦⟧")


async def move(stack: Stack, game: Game, kind: str, pick: int, player: int) -> list[str]:
    """One move of the walk; returns the English words of a press's answer, if any."""
    press = await play(stack, game, kind, pick, player)
    if press is None:
        return []
    try:
        answer = await press.answered(TIMEOUT)
    except TimeoutError:
        return []
    said = str(answer.get("text") or "")
    return [f"answer: {w!r} in {said!r}" for w in english(said)]


@pytest.fixture(params=["xx", "ru"])
async def stack(request: pytest.FixtureRequest, db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=cast(request.param)) as running:
        for pid in PLAYERS:
            await running.api.start_bot(pid)
        yield running


@pytest.mark.parametrize("system", sorted(GAMES))
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(walk=moves)
async def test_every_screen_of_every_game_speaks_the_tables_language(
    stack: Stack, system: str, walk: list[tuple[str, int, int]]
) -> None:
    game = GAMES[system]
    await fresh_game(stack, game)
    assert screen_leaks(stack) == []
    assert screen_cuts(stack) == []
    for step, (kind, pick, player) in enumerate(walk):
        said = await move(stack, game, kind, pick, player)
        assert said == [], (step, kind, said)
        shown = screen_leaks(stack)
        assert shown == [], (step, kind, shown[:8])
        cut = screen_cuts(stack)
        assert cut == [], (step, kind, cut[:8])
        await asyncio.sleep(0)
