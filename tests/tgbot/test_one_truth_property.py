"""Property: whatever players do, from whichever surface, no screen shows an old state.

Random sequences of actions from every surface (a button on a group panel or a
private one, a reply to a panel, a command, a Mini App edit), for each of the four
game systems, against the real application and the local Bot API server. After each
action, once the bot is idle, every message still carrying panel buttons must read
exactly as a fresh render of the current state, and no chat may hold two live panels
of one procedure (:func:`tests.support.one_truth.stale_views`). A message a change
retires (a second command supersedes its panel, the game ends) reads as it did just
before, plus one line, and never changes again (:class:`~tests.support.one_truth.Retirements`).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.nsu_bot import ALICE, BO, CHIDI, TIMEOUT, buttons
from tests.support.one_truth import Retirements, stale_views
from tests.support.stack import GROUP, Stack, campaigns, running_stack
from tgbot.sandbox.fake_api import ButtonPress, default_cast
from webapp.auth import make_init_data

pytestmark = [pytest.mark.e2e, pytest.mark.db]

PLAYERS = (ALICE, BO, CHIDI)
REPLIES = ("Hello <b>there</b> & more", "3", "Curious, Wary, Angry", "Water", "No ghosts")
Json = dict[str, Any]


@dataclass(frozen=True)
class Game:
    """How a table of one system plays, in the moves the walk picks from."""

    newgame: str
    commands: tuple[str, ...]
    edits: tuple[tuple[str, Json], ...]
    warm_up: tuple[tuple[int, str], ...] = ()


GAMES = {
    "threat": Game(
        "/newgame threat",
        ("/roll 3d2t", "/threat 3d", "/threat 2d", "/roll 2d6"),
        (
            ("momentum.gain", {}),
            ("momentum.lose", {}),
            ("harm.take", {}),
            ("harm.heal", {"player": BO}),
        ),
    ),
    "cortex": Game(
        "/newgame cortex",
        ("/pool", "/test", "/contest Chidi Okafor", "/endscene", "/trouble"),
        (("feature.add", {"name": "Fog"}), ("scene.end", {}), ("text", {"text": "value Hope d8"})),
        warm_up=(
            (BO, "/trait value Justice d10"),
            (BO, "/trait asset Rope d8"),
            (CHIDI, "/trait value Truth d8"),
        ),
    ),
    "d20": Game(
        "/newgame d20",
        ("/check might dc12", "/check dc10", "/rest", "/check"),
        (
            ("harm.heal", {"player": BO, "wounds": 6}),
            ("sheets.lock", {"locked": True}),
            ("sheets.lock", {"locked": False}),
        ),
    ),
    "nsu": Game(
        "/newgame nsu",
        ("/begin", "/adventure", "/character", "/locations", "/act I climb", "/downtime home"),
        (
            ("setup.agree", {}),
            ("setup.pass_ban", {}),
            ("setup.ban", {"text": "No ghosts"}),
            ("setup.pass_statement", {}),
            ("setup.statement", {"text": "A bell at noon", "builds_on": None}),
            ("safety.knock", {}),
        ),
    ),
}

moves = st.lists(
    st.tuples(
        st.sampled_from(("press",) * 4 + ("command",) * 2 + ("edit",) * 2 + ("reply",) + ("late",)),
        st.integers(0, 10**6),
        st.sampled_from(PLAYERS),
    ),
    min_size=10,
    max_size=30,
)


async def idle(stack: Stack) -> None:
    """Wait until the bot has handled every update sent to it (twice idle, 20 ms apart).

    The poller confirms an update to Telegram only once its turn (:func:`tgbot.inbox.turn`)
    has run its handlers and sent its outbox, so nothing unconfirmed and nothing in hand
    means all were handled and shown.
    """
    application = stack.runtime.application
    assert application is not None

    def quiet() -> bool:
        return (
            not stack.api.pending_updates()
            and application.update_processor.current_concurrent_updates == 0
        )

    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if quiet():
            await asyncio.sleep(0.02)
            if quiet():
                return
        await asyncio.sleep(0.01)
    raise AssertionError("the bot did not finish handling its updates")


async def say(stack: Stack, user: int, text: str, chat: int = GROUP) -> None:
    await stack.api.send_text(user, chat, text)
    await idle(stack)


async def mini_app_edit(stack: Stack, user: int, action: str, payload: Json) -> None:
    token = (await campaigns(stack).require_current(GROUP)).app_token
    init = make_init_data(
        stack.api.token,
        stack.api.players[user].user_dict(),
        int(time.time()) - 5,
        start_param=token,
        chat_type="supergroup",
    )
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{stack.origin}/api/c/{token}/edit",
            headers={"Authorization": "tma " + init},
            json={"action": action, "payload": payload},
        ) as response,
    ):
        assert response.status < 500, await response.text()


def tappable(stack: Stack) -> list[tuple[int, int, str]]:
    """Every callback button on screen, as (chat, message, data)."""
    found = []
    for chat in (GROUP, *PLAYERS):
        for message in stack.api.messages(chat):
            for button in buttons(message):
                if button.get("callback_data"):
                    found.append((chat, message["message_id"], button["callback_data"]))
    return found


def panels(stack: Stack) -> list[tuple[int, int]]:
    """Every message showing panel buttons, as (chat, message)."""
    return sorted({(c, m) for c, m, data in tappable(stack) if data.startswith("p1:")})


async def fresh_game(stack: Stack, game: Game) -> None:
    """End the game running in the group (through the bot, as a host would) and start one."""
    if await campaigns(stack).current(GROUP) is not None:
        await say(stack, ALICE, "/endgame")
        question = stack.api.last_message(GROUP)
        assert question is not None
        data = buttons(question)[0]["callback_data"]  # End (whatever the language), then Keep
        await (await stack.api.press_button(ALICE, GROUP, question["message_id"], data)).answered(
            TIMEOUT
        )
        await idle(stack)
    await say(stack, ALICE, game.newgame)
    for pid in (BO, CHIDI):
        await say(stack, pid, "/join")
    for pid, text in game.warm_up:
        await say(stack, pid, text)


async def play(
    stack: Stack,
    game: Game,
    kind: str,
    pick: int,
    player: int,
    retirements: Retirements | None = None,
) -> ButtonPress | None:
    """One move of a walk, once the bot is idle again (a press's handle, to read its answer).

    A ``late`` move presses an old panel button of a retired message, as a phone that
    missed the retirement still shows it (a press when there is none).
    """
    press = None
    late = retirements.late_presses() if retirements is not None else []
    if kind == "late" and late:
        chat, message_id, data, seen = late[pick % len(late)]
        presser = chat if chat != GROUP else player
        press = await stack.api.press_button(presser, chat, message_id, data, as_seen=seen)
    elif kind in ("press", "late"):
        on_screen = tappable(stack)
        if not on_screen:
            return None
        chat, message_id, data = on_screen[pick % len(on_screen)]
        presser = chat if chat != GROUP else player
        press = await stack.api.press_button(presser, chat, message_id, data)
    elif kind == "reply":
        shown = panels(stack)
        if not shown:
            return None
        chat, message_id = shown[pick % len(shown)]
        await stack.api.reply_to(
            chat if chat != GROUP else player, chat, message_id, REPLIES[pick % len(REPLIES)]
        )
    elif kind == "command":
        await stack.api.send_text(player, GROUP, game.commands[pick % len(game.commands)])
    else:
        action, payload = game.edits[pick % len(game.edits)]
        await mini_app_edit(stack, player, action, payload)
    await idle(stack)
    return press


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        for pid in PLAYERS:
            await running.api.start_bot(pid)
        yield running


@pytest.mark.parametrize("system", sorted(GAMES))
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(walk=moves)
async def test_every_screen_with_buttons_shows_the_current_state(
    stack: Stack, system: str, walk: list[tuple[str, int, int]]
) -> None:
    game = GAMES[system]
    await fresh_game(stack, game)
    retirements = Retirements()  # superseded messages: as they read, plus one line
    assert await stale_views(stack) == []
    assert retirements.check(stack) == []
    for step, (kind, pick, player) in enumerate(walk):
        await play(stack, game, kind, pick, player, retirements)
        problems = await stale_views(stack) + retirements.check(stack)
        assert problems == [], (step, kind, problems)
