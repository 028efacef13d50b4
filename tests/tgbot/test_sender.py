"""A press's edits go beside its answer: its own panel's and every other panel its change
redraws, all at once, through the local Bot API server; one that Telegram refuses is
given up alone, and the others still show."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from tests.support.bot_api import serve_app
from tests.support.nsu_bot import ALICE, CHIDI
from tests.support.one_truth import stale_views
from tests.support.stack import GROUP, Stack, running_stack
from tests.tgbot.test_e2e_nsu_play import default_characters, refused, say, start_table, tap
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

HOLD = 1.0  # seconds an edit waits for another to arrive beside it


class EditsInFlight:
    """A proxy before the Bot API server that, while ``holding``, keeps each
    ``editMessageText`` until a second one is in flight too (or ``HOLD`` passes), and
    notes the most that were in flight at once; ``calls``: every method called, in order."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.holding = False
        self.in_flight = 0
        self.peak = 0
        self.changed = asyncio.Condition()

    @asynccontextmanager
    async def __call__(self, target: str) -> AsyncIterator[str]:
        async def forward(request: web.Request) -> web.Response:
            method = request.match_info["method"]
            self.calls.append(method.lower())
            held = self.holding and method.lower() == "editmessagetext"
            if held:
                async with self.changed:
                    self.in_flight += 1
                    self.peak = max(self.peak, self.in_flight)
                    self.changed.notify_all()
                    with suppress(TimeoutError):
                        await asyncio.wait_for(
                            self.changed.wait_for(lambda: self.in_flight >= 2), HOLD
                        )
            try:
                headers = {"Content-Type": request.headers.get("Content-Type", "")}
                async with (
                    aiohttp.ClientSession() as http,
                    http.post(
                        f"{target}/{request.match_info['path']}/{method}",
                        data=await request.read(),
                        headers=headers,
                    ) as response,
                ):
                    body = await response.read()
                    return web.Response(
                        body=body, status=response.status, content_type="application/json"
                    )
            finally:
                if held:
                    self.in_flight -= 1

        app = web.Application()
        app.router.add_post("/{path}/{method}", forward)
        async with serve_app(app) as origin:
            yield origin


@pytest.fixture
def edits() -> EditsInFlight:
    return EditsInFlight()


@pytest.fixture
async def stack(db: str, edits: EditsInFlight) -> AsyncIterator[Stack]:
    async with running_stack(db, players=default_cast(), through=edits) as running:
        yield running


async def _roll_at_an_adventure(stack: Stack) -> tuple[dict[str, Any], dict[str, Any]]:
    """The adventure panel and an action roll, up to Ana's choice of a mood (which spends
    from her sheet: the change redraws the adventure panel too)."""
    await start_table(stack, default_characters())
    adventure = await say(stack, ALICE, "/adventure")
    assert "Adventure" in adventure["text"]
    panel = await say(stack, ALICE, "/act I cross the rope bridge")
    panel = await tap(stack, CHIDI, panel, "⚖️ Body")
    panel = await tap(stack, CHIDI, panel, "🌍 World")
    return adventure, panel


def _edited(stack: Stack, since: int) -> list[int]:
    """The group's messages edited after ``since``, in order."""
    return [
        event["message"]["message_id"]
        for event in stack.api.events_since(since)
        if event["kind"] == "edit" and event["chat_id"] == GROUP
    ]


def _deleted_by_an_admin(stack: Stack, message_id: int) -> None:
    """Someone with the rights deleted the bot's message in the group, in their app."""
    del stack.api._chats[GROUP].messages[message_id]


async def test_a_press_edits_its_panel_and_the_redrawn_one_at_once(
    stack: Stack, edits: EditsInFlight
) -> None:
    adventure, panel = await _roll_at_an_adventure(stack)
    mark = stack.api.mark()
    edits.holding = True
    try:
        panel = await tap(stack, ALICE, panel, "Ana: Curious d8")
    finally:
        edits.holding = False
    assert "Curious" in panel["text"]
    assert edits.peak == 2, "the two edits went one after the other"
    assert panel["message_id"] in _edited(stack, mark)
    assert await stale_views(stack) == []  # the adventure panel reads the table as it is now
    assert adventure["message_id"] != panel["message_id"]


async def test_a_redraw_telegram_refuses_is_given_up_alone(stack: Stack) -> None:
    adventure, panel = await _roll_at_an_adventure(stack)
    _deleted_by_an_admin(stack, adventure["message_id"])
    mark = stack.api.mark()
    panel = await tap(stack, ALICE, panel, "Ana: Curious d8")  # answered, no alert
    assert "Curious" in panel["text"]  # the press's own edit shows
    await asyncio.sleep(0.3)  # time for anything more it would send
    said = [m for m in stack.api.messages(GROUP) if m["message_id"] > panel["message_id"]]
    assert said == [], f"the group was told about a lost redraw: {said}"
    assert _edited(stack, mark) == [panel["message_id"]]
    # play goes on
    panel = await tap(stack, ALICE, panel, "No details apply")
    assert "roll" in panel["text"].lower()


async def test_a_refused_press_is_answered_with_its_alert_alone(
    stack: Stack, edits: EditsInFlight
) -> None:
    _, panel = await _roll_at_an_adventure(stack)
    before = stack.api.mark()
    calls = len(edits.calls)
    alert = await refused(stack, CHIDI, panel, "Ana: Curious d8")  # Ana's to choose
    assert alert  # the player is told why
    await asyncio.sleep(0.3)  # time for anything more it would send
    asked = [c for c in edits.calls[calls:] if c not in ("getupdates",)]
    assert asked == ["answercallbackquery"], asked  # no redraw of a message that is right
    assert _edited(stack, before) == []
