"""NSU play end to end through the local Bot API server: /act, details, /odds, restarts.

Three players at a split table (Alice and Bo on screen, Chidi arbitrates). The
world and characters are put in place through the pure rules, not worldbuilding.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest

from core.rules.nsu.campaign import campaign_of, character_of
from core.rules.nsu.sheet import Character
from core.rules.table import Role, Seat
from core.store.models import Campaign, Member
from core.store.models import Panel as PanelRow
from tests.support.nsu_bot import ALICE, BO, CHIDI, Faces
from tests.support.nsu_table import campaign_state, character, sheet, split, world
from tests.support.stack import GROUP, Stack, campaigns, labels, mini_app_get, running_stack
from tgbot.main import Runtime
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ANA, BOLD = "Ana", "Bo <i>the</i> Bold & Co"  # characters; Bo's player is "<b>Bo</b> & Co"
LOOK = "🔭 Bo <i>the</i> Bold: see it"  # a long name is shortened to fit a phone
FACES = [2, 3, 7, 2, 6, 4, 1, 2]


@pytest.fixture
def faces() -> Faces:
    return Faces([])


@pytest.fixture
async def stack(db: str, faces: Faces) -> Stack:  # type: ignore[misc]
    async with running_stack(db, rng=faces, players=default_cast()) as running:
        yield running


async def say(stack: Stack, user: int, text: str) -> dict[str, Any]:
    await stack.api.send_text(user, GROUP, text)
    return await stack.api.wait_for_message(GROUP, timeout=10)


def data_of(message: dict[str, Any], label: str) -> str:
    rows = message["reply_markup"]["inline_keyboard"]
    found = [b["callback_data"] for row in rows for b in row if b["text"].startswith(label)]
    assert found, f"no button {label!r} in {labels(message)}"
    return str(found[0])


async def tap(stack: Stack, user: int, message: dict[str, Any], label: str) -> dict[str, Any]:
    """Press a button that must work; return the edited panel."""
    press = await stack.api.press_button(
        user, GROUP, message["message_id"], data_of(message, label)
    )
    answer = await press.answered(10)
    assert not answer["text"], answer["text"]
    return await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == message["message_id"], timeout=10
    )


async def refused(stack: Stack, user: int, message: dict[str, Any], label: str) -> str:
    """Press a button that must be refused; return the alert."""
    press = await stack.api.press_button(
        user, GROUP, message["message_id"], data_of(message, label)
    )
    answer = await press.answered(10)
    assert answer["show_alert"] and answer["text"]
    return str(answer["text"])


async def reply(stack: Stack, user: int, message: dict[str, Any], text: str) -> dict[str, Any]:
    await stack.api.reply_to(user, GROUP, message["message_id"], text)
    return await stack.api.wait_for_message(
        GROUP,
        lambda m: (
            m["from"]["id"] == stack.api.bot_id
            and (m["message_id"] == message["message_id"] or "reply_to_message" in m)
        ),
        timeout=10,
    )


def bot_messages(stack: Stack) -> int:
    return sum(1 for m in stack.api.messages(GROUP) if m["from"]["id"] == stack.api.bot_id)


async def start_table(stack: Stack, characters: dict[int, Character]) -> int:
    """A game with the world built and everyone's character made; returns the campaign id."""
    started = (await say(stack, ALICE, "/newgame nsu"))["text"]
    assert "No Stone Unturned" in started and "the host sends /begin" in started
    for user in (BO, CHIDI):
        assert "joined the game" in (await say(stack, user, "/join"))["text"]
    view = await campaigns(stack).require_current(GROUP)
    w = split(world((ALICE, BO, CHIDI)), {ALICE, BO}, {CHIDI})
    await Campaign.filter(id=view.id).update(state=campaign_state(w))
    for player, made in characters.items():
        member = await Member.get(campaign_id=view.id, player__tg_id=player)
        await Member.filter(id=member.id).update(sheet=sheet(made))
    return view.id


def default_characters() -> dict[int, Character]:
    ana = character(ANA).add_harm("Bruised").add_harm("Cold").add_harm("Hungry").raise_mood(2, 3)
    return {ALICE: ana, BO: character(BOLD), CHIDI: character("Cy")}


async def sheet_of(player: int) -> Character:
    member = await Member.get(player__tg_id=player, active=True)
    found = character_of(Seat(player, "", frozenset({Role.PLAYER}), member.sheet))
    assert found is not None
    return found


async def world_now(campaign_id: int) -> Any:
    row = await Campaign.get(id=campaign_id)
    from core.rules.table import Table

    return campaign_of(Table(campaign_id, "nsu", row.state, {})).world


async def test_three_rolls_help_advantage_overload_harm_and_a_restart(
    stack: Stack, faces: Faces
) -> None:
    campaign_id = await start_table(stack, default_characters())
    faces.push(*FACES)

    # Roll 1: Ana acts, Bo helps, Chidi arbitrates.
    before = bot_messages(stack)
    panel = await say(stack, ALICE, "/act I cross the <b>rope</b> bridge")
    assert "<b>rope</b>" in panel["text"]  # shown as text, not markup
    assert {"🛑 X-card", "✊ Knock"} <= set(labels(panel))  # safety one tap away
    assert (
        "Arbiters: Cy (Chidi Okafor)" in panel["text"]
        and f"On screen with them: {BOLD}" in panel["text"]
    )
    first_keyboard = copy.deepcopy(panel["reply_markup"])
    assert "for someone else" in await refused(stack, BO, panel, "⚖️ Body")
    panel = await tap(stack, CHIDI, panel, "⚖️ Body")
    panel = await tap(stack, CHIDI, panel, "🌍 World")
    panel = await tap(stack, ALICE, panel, "Ana: Curious d8")
    panel = await tap(stack, ALICE, panel, "No details apply")
    panel = await tap(stack, ALICE, panel, "🎲 Ana: roll")
    assert "Aspect d4: 2" in panel["text"] and "Mood d8: 3" in panel["text"]
    assert "Ana's help" not in panel["text"]
    panel = await tap(stack, BO, panel, f"🤝 {BOLD}: Curious d8")
    panel = await tap(stack, ALICE, panel, f"Ana: take {BOLD}'s 7")
    text = panel["text"]
    assert "Aspect 2 vs Mood 7" in text and "difference 5, Ana wins" in text
    assert "Row 5+: The winners add two hard details." in text
    assert "1. Ana adds a hard detail — waiting" in text
    panel = await reply(stack, ALICE, panel, "Knocked <out> @ The <Guard>")
    assert "−<b>Knocked <out></b>" not in panel["text"]  # escaped
    assert "Knocked &lt;out&gt;" not in panel["text"] and "Knocked <out>" in panel["text"]
    assert (
        "on The <Guard>" in panel["text"]
        and "Collateral Clock at The <Drowned> Mill: 3/8" in (panel["text"])
    )
    panel = await reply(stack, ALICE, panel, "scene: Bridge & rope cut")
    assert labels(panel) == [] and "4/8" in panel["text"]
    assert bot_messages(stack) - before <= 2
    w = await world_now(campaign_id)
    assert w.card("a").scene_details == ("Bridge & rope cut",) and w.card("a").clock.ticks == 4
    assert (await sheet_of(BO)).moods[0].level == 1  # the helper raised their mood

    # A button kept by a client from the first roll does nothing.
    stack.api._chat(GROUP).messages[panel["message_id"]]["reply_markup"] = first_keyboard
    assert "out of date" in await refused(stack, CHIDI, panel, "⚖️ Body")

    # Roll 2: Bo acts with advantage; a double press, and a restart in the middle.
    before = bot_messages(stack)
    panel = await say(stack, BO, "/act I <b>leap</b> the gap")
    data = data_of(panel, "⚖️ Mind")
    presses = [await stack.api.press_button(CHIDI, GROUP, panel["message_id"], data) for _ in "ab"]
    answers = list(await asyncio.gather(*(p.answered(10) for p in presses)))
    assert sorted(bool(a["text"]) for a in answers) == [False, True]
    panel = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == panel["message_id"], timeout=10
    )
    assert (await PanelRow.get(message_id=panel["message_id"])).version == 1
    panel = await tap(stack, CHIDI, panel, "🧍 Character")

    old = stack.runtime
    await old.stop()
    stack.runtime = Runtime(old.settings, rng=faces, rate_limit=False)
    await stack.runtime.start()

    panel = await tap(stack, BO, panel, f"{BOLD}: Wary d6")
    panel = await reply(stack, BO, panel, "+Rope <ladder>; +Calm")
    assert "+Rope <ladder>; +Calm (advantage)" in panel["text"]
    panel = await tap(stack, BO, panel, f"🎲 {BOLD}: roll")
    assert "Aspect d8: 2 | 6 → keep ?" in panel["text"]
    assert "out of date" not in await refused(stack, CHIDI, panel, "Keep aspect 6")
    panel = await tap(stack, BO, panel, "Keep aspect 6")
    panel = await tap(stack, BO, panel, f"{BOLD}: my own mood die (4)")
    assert "Aspect 6 vs Mood 4" in panel["text"] and "Row 2" in panel["text"]
    panel = await reply(stack, BO, panel, "+Steady footing")
    assert labels(panel) == [] and "on Bo <i>the</i> Bold & Co" in panel["text"]
    assert bot_messages(stack) - before <= 2
    bold = await sheet_of(BO)
    assert [d.name for d in bold.details] == ["Steady footing"]

    # Roll 3: Ana overloads Wary; Chidi's harm makes her Overcome.
    before = bot_messages(stack)
    panel = await say(stack, ALICE, "/act I hold the door")
    panel = await tap(stack, CHIDI, panel, "⚖️ Heart")
    panel = await tap(stack, CHIDI, panel, "🧍 Character")
    panel = await tap(stack, ALICE, panel, "Ana: Wary d6 (3/7)")
    panel = await tap(stack, ALICE, panel, "No details apply")
    panel = await tap(stack, ALICE, panel, "🎲 Ana: roll")
    panel = await tap(stack, ALICE, panel, "Ana: my own mood die (2)")
    text = panel["text"]
    assert "the Arbiters win" in text and "Row 1" in text and "Wary is overloaded!" in text
    panel = await reply(stack, CHIDI, panel, "harm: Broken <wrist>")
    panel = await reply(stack, CHIDI, panel, "Shaken")
    assert labels(panel) == []
    assert bot_messages(stack) - before <= 2
    ana = await sheet_of(ALICE)
    assert ana.overcome and ana.harms[-1] == "Broken <wrist>" and ana.moods[2].overloaded
    refusal = await say(stack, ALICE, "/act I get up")
    assert "Overcome" in refusal["text"]


async def test_wrong_steps_and_bad_replies_are_answered_without_changes(
    stack: Stack, faces: Faces
) -> None:
    await start_table(stack, default_characters())
    panel = await say(stack, ALICE, "/act")
    assert "reply to this message with what you want" in panel["text"]
    answer = await reply(stack, BO, panel, "Let me do it")
    assert "someone else" in answer["text"]
    panel = await reply(stack, ALICE, panel, "I pick the <lock>")
    assert "I pick the <lock>" in panel["text"]
    assert "off screen" in (await say(stack, CHIDI, "/act I shout"))["text"]
    panel = await tap(stack, CHIDI, panel, "✖️ Call off")
    assert "Called off" in panel["text"] and labels(panel) == []


async def test_odds_of_a_planned_roll(stack: Stack) -> None:
    answer = await say(stack, BO, "/odds d6 d8 world adv")
    assert "Aspect d6 vs Mood d8, World at risk (Aspect advantage)" in answer["text"]
    assert "You win:" in answer["text"] and "5+:" in answer["text"]
    assert "Try: /odds" in (await say(stack, BO, "/odds d7 world"))["text"]
    # Outside a game of No Stone Unturned, a lone die is dice notation: its exact odds.
    assert "Odds of 1d7" in (await say(stack, BO, "/odds d7"))["text"]


async def private_texts(stack: Stack, user: int) -> list[str]:
    return [str(m.get("text", "")) for m in stack.api.messages(user)]


async def test_downtime_recover_harm_scout_and_a_plan(stack: Stack, faces: Faces) -> None:
    characters = default_characters()
    characters[ALICE] = characters[ALICE].add_harm("Broken wrist")  # Overcome
    campaign_id = await start_table(stack, characters)
    assert "Overcome" in (await say(stack, ALICE, "/act I get up"))["text"]
    # Complication d6 4; Ana's Body d4 3 and Bo's Heart d6 5; Bo's scout roll: Body 1, Curious 6;
    # Chidi's plan: Mind d8 8.
    faces.push(4, 3, 5, 1, 6, 8)

    panel = await say(stack, ALICE, "/downtime home")
    text = panel["text"]
    assert "Downtime</b> at home" not in text  # HTML is parsed, not shown
    assert "The <Drowned> Mill, Collateral Clock 2/8: d6 = 4: Relations worsen." in text
    assert "▶ 4-5 Relations worsen" in text and "Table for 1-3 ticks" in text
    assert "Ana (Alice Marsh): 1 action left" in text and "recovery 1/4" in text

    # Ana seeks recovery with Bo's help, then turns a harm into a scar.
    # Nothing in Work & scout is open to Ana while Overcome (no skill of hers is ready)
    assert "Overcome" in await refused(stack, ALICE, panel, "🛠 Work & scout")
    panel = await tap(stack, ALICE, panel, "🛌 Rest & heal")
    panel = await tap(stack, ALICE, panel, "🛌 Seek Recovery")
    panel = await tap(stack, BO, panel, "🤝 Help Ana")
    assert f"helped by {BOLD}" in panel["text"]
    assert "for whoever seeks" in await refused(stack, BO, panel, "🎲 Ana: roll")
    panel = await tap(stack, ALICE, panel, "🎲 Ana: roll")
    assert "Body 3, a friend's Heart 5 = 8, +3 recovery points" in panel["text"]
    panel = await tap(stack, ALICE, panel, "🛌 Rest & heal")
    panel = await tap(stack, ALICE, panel, "🩹 Recover Harm (free)")
    panel = await reply(stack, ALICE, panel, "4 Stiff <wrist>")
    assert "turns Broken wrist into the scar Stiff <wrist>" in panel["text"]
    assert not (await sheet_of(ALICE)).overcome

    # Bo scouts the Hollow Tower: everyone else arbitrates; he wins and looks in private.
    panel = await tap(stack, BO, panel, "🛠 Work & scout")
    panel = await tap(stack, BO, panel, "🔭 Scout a card")
    assert "Hollow Tower" not in panel["text"] and "Hollow Tower" not in str(labels(panel))
    panel = await tap(stack, BO, panel, "🔭 c D2 R3")
    panel = await reply(stack, BO, panel, "I climb the <ridge>")
    panel = await tap(stack, CHIDI, panel, "⚖️ Body")
    panel = await tap(stack, ALICE, panel, "🌍 World")
    panel = await tap(stack, BO, panel, f"{BOLD}: Curious d8")
    panel = await tap(stack, BO, panel, "No details apply")
    panel = await tap(stack, BO, panel, f"🎲 {BOLD}: roll")  # nobody can help: settled unasked
    assert f"{BOLD} may look at c (D2 R3) in private" in panel["text"]
    sent = await stack.api.wait_for_message(BO, timeout=10)  # sent at once, in private
    assert "The Hollow Tower" in sent["text"] and "secret face" in sent["text"]
    assert "Only the scout" in await refused(stack, CHIDI, panel, LOOK)
    look = await stack.api.press_button(BO, GROUP, panel["message_id"], data_of(panel, LOOK))
    assert "private chat" in (await look.answered(10))["text"]
    seen = await stack.api.wait_for_message(BO, timeout=10)  # and again on request
    assert "The Hollow Tower" in seen["text"]
    assert not any("Hollow Tower" in t for t in await private_texts(stack, CHIDI))
    assert not any("Hollow Tower" in str(m.get("text")) for m in stack.api.messages(GROUP))
    # the log names the Scout as the panel did, in every language
    token = (await campaigns(stack).require_current(GROUP)).app_token
    status, log = await mini_app_get(stack, CHIDI, f"/api/c/{token}/log")
    assert status == 200 and "Someone" not in log, log
    assert f"{BOLD} rolled: Aspect 1" in log and f"{BOLD} wins by" in log, log

    # Bo's win grants him two details: one by reply, one skipped.
    panel = await reply(stack, BO, panel, "+Knows the <hidden> path")
    assert "Knows the <hidden> path" in panel["text"]
    panel = await tap(stack, BO, panel, "Skip detail 2 (Bo <i>the</i>)")
    assert (await sheet_of(BO)).details[-1].name == "Knows the <hidden> path"

    # Chidi addresses the collateral at the mill; the others vote.
    panel = await tap(stack, CHIDI, panel, "🛠 Work & scout")
    panel = await tap(stack, CHIDI, panel, "🧹 Address Collateral")
    panel = await tap(stack, CHIDI, panel, "🧹 The <Drowned> Mill")
    panel = await reply(stack, CHIDI, panel, "We <rebuild> the mill race")
    assert "We <rebuild> the mill race" in panel["text"]
    assert "🎲 Cy: roll Mind" not in labels(panel)  # not before everyone has voted
    panel = await tap(stack, ALICE, panel, "👍 Sound plan")
    panel = await tap(stack, BO, panel, "👎 Won't work")
    panel = await tap(stack, CHIDI, panel, "🎲 Cy: roll Mind")
    assert "the clock goes 2 → 0" in panel["text"]

    panel = await tap(stack, BO, panel, "🏁 End downtime")
    assert "End downtime for everyone?" in panel["text"]
    panel = await tap(stack, CHIDI, panel, "✅ Yes, end downtime")
    assert "Downtime</b> is over" not in panel["text"] and labels(panel) == []
    assert "Downtime is over" in panel["text"] and "/adventure" in panel["text"]  # what next
    w = await world_now(campaign_id)
    assert w.card("a").clock.ticks == 0 and BO in w.card("c").scouted_by
    assert not w.card("c").revealed
    faces.push(2, 5)
    panel = await say(stack, ALICE, "/act I stand again")
    assert "Action Roll" in panel["text"]
