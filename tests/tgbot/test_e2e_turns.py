"""The turn order end to end through the local Bot API server: /turns by names, by
buttons and rolled, /next by the holder, the host and anyone else, and /undo of both."""

from __future__ import annotations

from typing import Any

import pytest

from core.store import reminders
from tests.support.stack import GROUP, Stack, running_stack
from tests.tgbot.test_e2e_d20 import (
    ALICE,
    BO,
    CHIDI,
    ZOE,
    Dice,
    campaigns,
    say,
    start_game,
    tap,
)
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

BO_TEXT = "<b>Bo</b> & Co"  # and as it reads


@pytest.fixture
async def dice() -> Dice:
    return Dice()


@pytest.fixture
async def stack(db: str, dice: Dice) -> Any:
    async with running_stack(db, rng=dice, players=default_cast()) as running:
        yield running


async def order_of(stack: Stack) -> tuple[int, ...]:
    view = await campaigns(stack).require_current(GROUP)
    order = (await reminders.settings_of(view.id)).order
    return () if order is None else (*order.players, order.holder)


def mentions(message: dict) -> list[int]:
    return [e["user"]["id"] for e in message.get("entities", []) if e["type"] == "text_mention"] + [
        int(e["url"].split("=")[1])
        for e in message.get("entities", [])
        if e["type"] == "text_link" and e.get("url", "").startswith("tg://user")
    ]


async def test_turns_by_names_then_next_by_holder_host_and_someone_else(stack: Stack) -> None:
    await start_game(stack)
    refused = await say(stack, BO, "/turns Chidi Okafor, Alice Marsh")  # not the host
    assert refused["text"] == "✋ Only the host sets the turn order."
    one = await say(stack, ALICE, "/turns Chidi Okafor")
    assert one["text"] == "⏳ A turn order needs at least two players in the game."
    nobody = await say(stack, ALICE, "/turns Chidi Okafor, Nemo")
    assert nobody["text"] == "🤔 Nobody in this game is called “Nemo”."
    assert await order_of(stack) == ()

    set_ = await say(stack, ALICE, f"/turns chidi okafor, {BO_TEXT}, Alice Marsh")
    assert set_["text"] == (
        f"🔁 Turn order: Chidi Okafor → {BO_TEXT} → Alice Marsh\n"
        "Chidi Okafor, it's your turn. Pass it on with /next."
    )
    assert mentions(set_) == [CHIDI]
    assert await order_of(stack) == (CHIDI, BO, ALICE, CHIDI)

    status = await say(stack, BO, "/status")
    assert f"🔁 Turn: Chidi Okafor (then {BO_TEXT}, Alice Marsh)" in status["text"]
    assert "⏳ Waiting on Chidi Okafor" in status["text"]

    other = await say(stack, BO, "/next")
    assert other["text"] == "✋ It's Chidi Okafor's turn: they or the host pass it on with /next."
    passed = await say(stack, CHIDI, "/next")
    assert passed["text"] == (
        f"🔁 {BO_TEXT}, it's your turn (then Alice Marsh, Chidi Okafor). Pass it on with /next."
    )
    assert mentions(passed) == [BO]
    by_host = await say(stack, ALICE, "/next")
    assert by_host["text"].startswith("🔁 Alice Marsh, it's your turn (then Chidi Okafor")
    assert await order_of(stack) == (CHIDI, BO, ALICE, ALICE)

    # /undo takes back the host's /next, then (nothing of hers on top) her /turns stays hers
    back = await say(stack, ALICE, "/undo")
    assert back["text"] == "↩ Alice Marsh took back: passing the turn"
    assert await order_of(stack) == (CHIDI, BO, ALICE, BO)
    theirs = await say(stack, ALICE, "/undo")  # Chidi's /next is on top of her /turns
    assert "Someone else acted after your last step" in theirs["text"]
    back = await say(stack, CHIDI, "/undo")
    assert back["text"] == "↩ Chidi Okafor took back: passing the turn"
    assert await order_of(stack) == (CHIDI, BO, ALICE, CHIDI)
    stranger = await say(stack, ZOE, "/next")  # not in the game
    assert stranger["text"] == "⏳ You're not in this game."
    assert await order_of(stack) == (CHIDI, BO, ALICE, CHIDI)
    back = await say(stack, ALICE, "/undo")  # her /turns is the latest step again
    assert back["text"] == "↩ Alice Marsh took back: setting the turn order"
    assert await order_of(stack) == ()
    status = await say(stack, BO, "/status")
    assert "🔁 Turn" not in status["text"]


async def test_turns_rolled_shows_the_rolls_and_stands(stack: Stack, dice: Dice) -> None:
    await start_game(stack)
    nothing = await say(stack, ALICE, "/next")
    assert nothing["text"] == "⏳ This game has no turn order. The host sets one with /turns."
    dice.push(12, 17, 12, 9, 14)  # Alice, Bo, Chidi; then Alice and Chidi roll off
    rolled = await say(stack, ALICE, "/turns roll")
    assert rolled["text"] == (
        "🎲 The turn order was rolled (d20 + modifier):\n"
        f"🎲 {BO_TEXT}: 17\n"
        "🎲 Chidi Okafor: 12 (tie, rolled off: 14)\n"
        "🎲 Alice Marsh: 12 (tie, rolled off: 9)\n"
        f"🔁 Turn order: {BO_TEXT} → Chidi Okafor → Alice Marsh\n"
        f"{BO_TEXT}, it's your turn. Pass it on with /next."
    )
    assert await order_of(stack) == (BO, CHIDI, ALICE, BO)
    stands = await say(stack, ALICE, "/undo")
    assert stands["text"] == "⏳ The dice were rolled on your last step: rolled dice stand."
    assert await order_of(stack) == (BO, CHIDI, ALICE, BO)


async def test_turns_by_buttons(stack: Stack, dice: Dice) -> None:
    await start_game(stack)
    panel = await say(stack, ALICE, "/turns")
    assert panel["text"] == "🔁 Tap the players in turn order, first to last."
    answer, _ = await tap(stack, BO, panel, "Chidi Okafor")  # only the host
    assert answer["text"] == "✋ Only the host sets the turn order."
    _, panel = await tap(stack, ALICE, panel, "Chidi Okafor")
    assert panel["text"].endswith("So far: Chidi Okafor")
    _, panel = await tap(stack, ALICE, panel, "✖ Clear")
    assert "So far" not in panel["text"]
    await stack.api.send_text(ZOE, GROUP, "/join")  # the buttons were drawn for three
    await stack.api.wait_for_message(GROUP, lambda m: "joined" in m.get("text", ""), 10)
    answer, _ = await tap(stack, ALICE, panel, "Alice Marsh")
    assert answer["text"] == "🤔 That button is out of date. Use the latest message."
    assert await order_of(stack) == ()

    panel = await say(stack, ALICE, "/turns")
    _, panel = await tap(stack, ALICE, panel, BO_TEXT)
    _, panel = await tap(stack, ALICE, panel, "Alice Marsh")
    assert panel["text"].endswith(f"So far: {BO_TEXT}, Alice Marsh")
    _, panel = await tap(stack, ALICE, panel, "Zoë 🐉 Drake")  # the last one follows
    assert panel["text"] == (
        f"🔁 Turn order: {BO_TEXT} → Alice Marsh → Zoë 🐉 Drake → Chidi Okafor\n"
        f"{BO_TEXT}, it's your turn. Pass it on with /next."
    )
    assert not (panel.get("reply_markup") or {}).get("inline_keyboard")
    assert await order_of(stack) == (BO, ALICE, ZOE, CHIDI, BO)

    panel = await say(stack, ALICE, "/turns")  # rolled from the buttons
    dice.push(3, 20, 7, 11)
    _, panel = await tap(stack, ALICE, panel, "🎲 Roll for it")
    assert panel["text"].startswith("🎲 The turn order was rolled")
    assert await order_of(stack) == (BO, ZOE, CHIDI, ALICE, BO)


async def test_a_russian_game_sets_and_passes_turns_in_russian(db: str) -> None:
    from tgbot.sandbox.fake_api import Player

    players = [
        Player(ALICE, "Ольга", "Петрова", "olga", language_code="ru", started=True),
        Player(BO, "Иван", language_code="ru-RU", started=True),
    ]
    async with running_stack(db, players=players) as stack:
        await say(stack, ALICE, "/newgame d20")
        await say(stack, BO, "/join")
        panel = await say(stack, ALICE, "/turns")
        assert panel["text"] == "🔁 Отметьте игроков в порядке ходов, от первого к последнему."
        set_ = await say(stack, ALICE, "/turns Иван, Ольга Петрова")
        assert set_["text"] == (
            "🔁 Порядок ходов: Иван → Ольга Петрова\nИван, ваш ход. Передайте его командой /next."
        )
        passed = await say(stack, BO, "/next")
        assert passed["text"] == (
            "🔁 Ольга Петрова, ваш ход (дальше: Иван). Передайте его командой /next."
        )
        status = await say(stack, BO, "/status")
        assert "🔁 Ход: Ольга Петрова (дальше: Иван)" in status["text"]
        other = await say(stack, BO, "/next")
        assert other["text"].startswith("✋ Сейчас ход: Ольга Петрова.")


async def panel_after(stack: Stack, user: int, text: str, panel: dict) -> tuple[dict, dict]:
    """Say ``text``; the reply, and the panel's message as the change redrew it."""
    mark = stack.api.mark()
    await stack.api.send_text(user, GROUP, text)
    reply = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] != panel["message_id"], since=mark, timeout=10
    )
    drawn = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == panel["message_id"], since=mark, timeout=10
    )
    return reply, drawn


async def test_an_open_panel_shows_whose_turn_it_is_as_the_order_changes(stack: Stack) -> None:
    await start_game(stack)
    panel = await say(stack, BO, "/check strong dc12")
    assert "🔁 Turn" not in panel["text"]  # no order yet
    _, panel = await panel_after(
        stack, ALICE, f"/turns Chidi Okafor, {BO_TEXT}, Alice Marsh", panel
    )
    assert panel["text"].endswith(f"\n\n🔁 Turn: Chidi Okafor (then {BO_TEXT}, Alice Marsh)")
    assert panel["reply_markup"]["inline_keyboard"]  # still open, its buttons kept
    _, panel = await panel_after(stack, CHIDI, "/next", panel)
    assert panel["text"].endswith(f"\n\n🔁 Turn: {BO_TEXT} (then Alice Marsh, Chidi Okafor)")
    _, panel = await panel_after(stack, CHIDI, "/undo", panel)  # his /next taken back
    assert panel["text"].endswith(f"\n\n🔁 Turn: Chidi Okafor (then {BO_TEXT}, Alice Marsh)")
    other = await say(stack, CHIDI, "/check weak dc8")  # a panel opened now shows it too
    assert other["text"].endswith(f"\n\n🔁 Turn: Chidi Okafor (then {BO_TEXT}, Alice Marsh)")
    _, other = await panel_after(stack, BO, "/leave", other)  # he drops out of the order
    assert other["text"].endswith("\n\n🔁 Turn: Chidi Okafor (then Alice Marsh)")


async def test_a_russian_panel_names_the_turn_in_russian(db: str) -> None:
    from tgbot.sandbox.fake_api import Player

    players = [
        Player(ALICE, "Ольга", "Петрова", "olga", language_code="ru", started=True),
        Player(BO, "Иван", language_code="ru-RU", started=True),
    ]
    async with running_stack(db, players=players) as stack:
        await say(stack, ALICE, "/newgame d20")
        await say(stack, BO, "/join")
        await say(stack, ALICE, "/turns Иван, Ольга Петрова")
        panel = await say(stack, BO, "/check strong dc12")
        assert panel["text"].endswith("\n\n🔁 Ход: Иван (дальше: Ольга Петрова)")
