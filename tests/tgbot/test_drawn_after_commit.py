"""A panel's message is drawn after its change committed, outside the campaign's lock.

A press and a Mini App edit write their panels' messages to the outbox undrawn (a
``panel`` row: which panel, which message) in the change's transaction; the text is
drawn by the panel's renderer as the row is sent (:meth:`tgbot.outbox.Planner.drawn`).
The whole application runs against the local Bot API server; every renderer is
watched, and each drawing notes whether a transaction was open or a campaign's lock
held as it ran. What a row sent late draws (the panel as it stands) is checked by the
fault tests (``tests/tgbot/test_outbox_faults.py``: a press killed after its commit).
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import pytest
from tortoise import connections
from tortoise.backends.base.client import TransactionalDBClient

from core.rules.rng import ScriptedRng
from core.runtime.locks import InProcessKeyedLock
from core.store.sql import fetch, load_json
from tests.support.mini_app import init_for
from tests.support.stack import GROUP, Stack, campaigns, running_stack
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]


class Watched:
    """A renderer whose every drawing notes how it was called: inside a transaction,
    under a campaign's lock."""

    def __init__(self, renderer: Any, seen: list[tuple[bool, bool]], locks: Any) -> None:
        self._renderer = renderer
        self._seen = seen
        self._locks = locks

    def __getattr__(self, name: str) -> Any:
        return getattr(self._renderer, name)

    def render(self, view: Any, lang: Any) -> Any:
        inside = isinstance(connections.get("default"), TransactionalDBClient)
        self._seen.append((inside, self._locks.held_keys > 0))
        return self._renderer.render(view, lang)


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, rng=ScriptedRng([2, 3, 1, 7, 2, 5]), players=default_cast()) as s:
        yield s


async def test_a_press_and_a_mini_app_edit_draw_their_panels_after_the_commit(
    stack: Stack,
) -> None:
    from tests.tgbot.test_e2e_threat import ALICE, BO, ref, say, start_game, tap

    application = stack.runtime.application
    assert application is not None
    locks = stack.runtime.locks
    assert isinstance(locks, InProcessKeyedLock)
    drawn: dict[str, Any] = application.deps.renderers  # type: ignore[assignment]
    seen: list[tuple[bool, bool]] = []
    for kind, renderer in list(drawn.items()):
        drawn[kind] = Watched(renderer, seen, locks)

    token = await start_game(stack)
    approach = {"name": "Prowess", "value": 2}
    await campaigns(stack).edit(token, ref(stack, BO), "approach.set", approach)
    climb = await stack.api.send_text(BO, GROUP, "I climb the tower")
    panel = await say(stack, ALICE, "/threat", reply_to=climb["message_id"])
    _, panel = await tap(stack, ALICE, panel, "⚠️ Threat +0")  # the keypad opens
    seen.clear()
    _, panel = await tap(stack, ALICE, panel, "+3")  # the GM sets the threat
    assert "+3 (desperate)" in panel["text"]  # what the table sees, drawn after the commit
    assert seen, "the press drew nothing"
    assert seen == [(False, False)] * len(seen), seen  # no drawing in the change

    rows = await fetch("SELECT kind, payload FROM outbox WHERE kind = ? ORDER BY id", ("panel",))
    assert rows, "no panel row"
    for row in rows:  # written undrawn: which panel, which message
        assert "text" not in load_json(row["payload"]), row

    seen.clear()
    headers = {"Authorization": f"tma {init_for(stack, BO, token)}"}
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{stack.origin}/api/c/{token}/edit",
            headers={**headers, "Idempotency-Key": "drawn-after-1"},
            json={"action": "momentum.gain", "payload": {}},
        ) as response,
    ):
        assert response.status == 200, await response.text()
    assert seen, "the edit redrew no panel"  # the open panel shows the table as it is now
    assert seen == [(False, False)] * len(seen), seen


class Statements(logging.Handler):
    """Counts the statements the ORM's connections log (each one, on either backend)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


async def test_what_a_change_draws_in_its_transaction_reads_nothing(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change's own messages (its follow-up notes, a card's face to its author in
    private; the handlers' replies) are drawn in its transaction from what it holds: no
    statement runs while the planner draws them (a private note's line naming its game
    is settled as it is sent)."""
    from tests.support import nsu_bot
    from tests.tgbot.test_e2e_lifecycle import Clock
    from tgbot.outbox import Planner

    statements = Statements()
    client_log = logging.getLogger("tortoise.db_client")
    client_log.addHandler(statements)
    level = client_log.level
    client_log.setLevel(logging.DEBUG)
    drawing: list[tuple[str, int]] = []
    plan = Planner.__call__

    async def watched(self: Planner, result: object, how: str) -> Any:
        before = statements.count
        effects = await plan(self, result, how)
        drawing.append((type(result).__name__, statements.count - before))
        return effects

    monkeypatch.setattr(Planner, "__call__", watched)
    alice, bo, chidi = nsu_bot.PLAYERS
    try:
        async with running_stack(db, clock=Clock(), players=default_cast()) as stack:
            await nsu_bot.seat_three(stack)
            board = await nsu_bot.build_world(stack)
            for pid in nsu_bot.PLAYERS:
                await nsu_bot.make_character(stack, pid, board if pid == chidi else None)
            adventure = (await nsu_bot.say(stack, alice, "/adventure"))["message_id"]
            await nsu_bot.press(stack, bo, GROUP, adventure, "➡️ Travel")
            await nsu_bot.press(stack, bo, GROUP, adventure, "➡️")  # a card flips
            await stack.api.wait_for_message(  # the scene's Arbiters read the card in private
                alice, lambda m: "You arbitrate" in (m.get("text") or ""), timeout=20
            )
    finally:
        client_log.removeHandler(statements)
        client_log.setLevel(level)
    assert statements.count, "the ORM logged no statement: the count would prove nothing"
    assert len(drawing) > 20, drawing
    assert [d for d in drawing if d[1]] == [], drawing
