"""A short No Stone Unturned campaign, start to finish, through the bot only.

Three players (Alice, "<b>Bo</b> & Co" and Chidi) play it the way a new table
would: /newgame, worldbuilding on the group's panel, locations and characters
in private, an adventure with four Action Rolls (help, advantage, a harsh loss,
an overload into Overcome), and a downtime with Recover Harm and Scout. Every
step is a command, a button press or a reply; the dice are scripted, so the
outcomes are fixed. Along the way: wrong-player, double and stale presses, a
restart in the middle of a roll, and no secret in a chat it doesn't belong in.
"""

from __future__ import annotations

import asyncio
import copy
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from core.rules.nsu.campaign import campaign_of, character_of
from core.rules.nsu.details import Detail, Polarity
from core.rules.nsu.sheet import (
    Character,
    CharacterDraft,
    Die,
    assign_aspects,
    choose_name,
    consider_rumours,
    describe,
    finish_creation,
    invent_sentiments,
    pick_moods,
    write_skills,
)
from core.rules.nsu.world import World
from core.rules.table import Role, Seat, Table
from core.store.models import Campaign, Member
from core.store.models import Panel as PanelRow
from tests.support.nsu_bot import (
    ALICE,
    BO,
    CHIDI,
    PLAYERS,
    TIMEOUT,
    Faces,
    Json,
    build_world,
    buttons,
    card,
    find_button,
    make_character,
    message,
    reply_refused,
    seat_three,
)
from tests.support.stack import GROUP, Stack, campaigns, running_stack
from tgbot.main import Runtime
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ANA, BOLD, CY = "Ana", "Bo <i>the</i> Bold & Co", "Cy"
NAMES = {ALICE: ANA, BO: BOLD, CHIDI: CY}
# The shuffle keeps the cards in the order written (each swap picks the card itself),
# so the map is L1 L2 L3 / L4 L5 L6 with Alice's, Bo's, then Chidi's two cards.
DEAL = (5, 4, 3, 2, 1)
CURIOUS, WARY, ANGRY = 0, 2, 4  # mood lines: the first d8, d6 and d4 lines
OUTSIDER = 1004  # in the group, not in the game
POSITIVE = Polarity.POSITIVE
PLAYER_NAMES = {ALICE: "Alice Marsh", BO: "<b>Bo</b> & Co", CHIDI: "Chidi Okafor"}
DANGER_REWARD = (2, 3, 1, 4, 3, 2, 4, 1, 2, 2, 1, 3)


@pytest.fixture
def faces() -> Faces:
    return Faces([])


@pytest.fixture
async def stack(db: str, faces: Faces) -> Stack:  # type: ignore[misc]
    async with running_stack(db, rng=faces, players=default_cast()) as running:
        yield running


# -- what the database says ------------------------------------------------------------


async def table_now() -> Table:
    row = await Campaign.get(system="nsu")
    return Table(row.id, "nsu", row.state, {})


async def world_now() -> World:
    return campaign_of(await table_now()).require_world()


async def sheet_of(player: int) -> Character:
    member = await Member.get(player__tg_id=player, active=True)
    found = character_of(Seat(player, "", frozenset({Role.PLAYER}), member.sheet))
    assert found is not None
    return found


async def stored() -> tuple[Any, ...]:
    """Everything a refused press must leave alone: campaign, sheets and panels."""
    campaign = await Campaign.get(system="nsu")
    sheets = [m.sheet for m in await Member.all().order_by("id")]
    panels = [(p.id, p.version, p.state) for p in await PanelRow.all().order_by("id")]
    return campaign.state, sheets, panels


# -- playing ---------------------------------------------------------------------------


async def tap(stack: Stack, user: int, chat: int, message_id: int, label: str) -> Json:
    """Press a button that must work (no alert); return the redrawn panel."""
    data = find_button(message(stack, chat, message_id), label)["callback_data"]
    mark = stack.api.mark()
    pressed = await stack.api.press_button(user, chat, message_id, data)
    answer = await pressed.answered(TIMEOUT)
    assert not answer["text"], answer["text"]
    return await stack.api.wait_for_message(
        chat, lambda m: m["message_id"] == message_id, timeout=TIMEOUT, since=mark
    )


async def refused(stack: Stack, user: int, message_id: int, data: str) -> str:
    """Press a button (by its data) that must be refused with an alert and change nothing."""
    before = await stored()
    shown = message(stack, GROUP, message_id)["text"]
    pressed = await stack.api.press_button(user, GROUP, message_id, data)
    answer = await pressed.answered(TIMEOUT)
    assert answer["show_alert"] and answer["text"]
    assert await stored() == before
    assert message(stack, GROUP, message_id)["text"] == shown  # the keyboard may be refreshed
    return str(answer["text"])


def data_of(stack: Stack, message_id: int, label: str) -> str:
    return str(find_button(message(stack, GROUP, message_id), label)["callback_data"])


async def answer(stack: Stack, user: int, message_id: int, text: str) -> Json:
    """Reply to a group panel as ``user``; return the panel as redrawn."""
    mark = stack.api.mark()
    await stack.api.reply_to(user, GROUP, message_id, text)
    return await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == message_id, timeout=TIMEOUT, since=mark
    )


async def answer_refused(stack: Stack, user: int, message_id: int, text: str) -> Json:
    """Reply to a group panel with something it must refuse; return the bot's answer."""
    before = await stored()
    answered = await reply_refused(stack, user, GROUP, message_id, text)
    assert await stored() == before
    return answered


async def command(stack: Stack, user: int, text: str) -> Json:
    """Send a command; return the bot's answer to it (the adventure panel a finished roll
    posts again may arrive in between, and is not the answer unless asked for)."""
    mark = stack.api.mark()
    await stack.api.send_text(user, GROUP, text)
    wants_adventure = text.startswith("/adventure")

    def answers(m: Json) -> bool:
        if m["from"]["id"] != stack.api.bot_id:
            return False
        return wants_adventure or not (m.get("text") or "").startswith("🧭 Adventure")

    return await stack.api.wait_for_message(GROUP, answers, timeout=TIMEOUT, since=mark)


def bot_messages_since(stack: Stack, mark: int, chat: int = GROUP) -> list[Json]:
    """New messages (not edits) the bot sent to a chat after ``mark``."""
    return [
        e["message"]
        for e in stack.api.events_since(mark)
        if e["kind"] == "message"
        and e["chat_id"] == chat
        and e["message"]["from"]["id"] == stack.api.bot_id
    ]


async def stale_press(stack: Stack, user: int, message_id: int, old: Json, label: str) -> str:
    """Press a button of an old keyboard, as a client that missed the edits would show it."""
    shown = stack.api._chat(GROUP).messages[message_id]
    current = copy.deepcopy(shown.get("reply_markup"))
    shown["reply_markup"] = copy.deepcopy(old)
    alert = await refused(stack, user, message_id, data_of(stack, message_id, label))
    if shown.get("reply_markup") == old:  # the bot left the message alone: show it as it was
        if current is None:
            shown.pop("reply_markup")
        else:
            shown["reply_markup"] = current
    return alert


def everything_seen(stack: Stack, until: int | None = None) -> dict[int, str]:
    """All that each chat was shown (up to event ``until``): every message and every edit,
    with their buttons; and for each player, the alerts only they saw."""
    assert stack.api.oldest_seq() == 1, "the change feed dropped events"
    seen: dict[int, list[str]] = {}
    for event in stack.api.events_since(0):
        if until is not None and event["seq"] > until:
            break
        if event["kind"] in ("message", "edit"):
            m = event["message"]
            shown = [m.get("text") or m.get("caption") or ""]
            shown += [b["text"] for b in buttons(m)]
            seen.setdefault(event["chat_id"], []).extend(shown)
        elif event["kind"] == "alert":
            seen.setdefault(event["user_id"], []).append(event["alert"]["text"])
    return {chat: "\n".join(parts) for chat, parts in seen.items()}


def assert_secret(seen: dict[int, str], values: tuple[str, ...], allowed: set[int]) -> None:
    """``values`` appear nowhere but in the private chats of ``allowed``."""
    for chat, text in seen.items():
        if chat in allowed:
            continue
        for value in values:
            assert value not in text, (value, chat)


def made_by_the_rules(name: str) -> Character:
    """The sheet :func:`make_character` writes through the bot, made by the rules alone."""
    draft = choose_name(CharacterDraft(), name)
    draft = describe(draft, "they/them", "Tall, in a coat of maps")
    draft = pick_moods(draft, "Curious", "Wary", "Angry")
    draft = assign_aspects(draft, body=Die.D8, mind=Die.D6, heart=Die.D4)
    draft = invent_sentiments(draft, "My compass", None, "The bell")
    draft = write_skills(draft, "Climbing", "Talking", "Fixing")
    draft = consider_rumours(draft, "Heard of it at the market", "A trader's tale")
    return finish_creation(draft)


# -- the campaign ----------------------------------------------------------------------


async def test_a_short_campaign_from_newgame_to_the_end_of_downtime(
    stack: Stack, faces: Faces
) -> None:
    await seat_three(stack)
    board = await build_world(stack, faces, DEAL, DANGER_REWARD)
    world = await world_now()
    assert world.grid is not None and world.grid.rows == (("L1", "L2", "L3"), ("L4", "L5", "L6"))
    authors = [(c.author_id, c.title) for c in world.cards]
    assert authors == [(p, f"Title-{p}-{n}") for p in PLAYERS for n in (1, 2)]

    await make_character(stack, ALICE, name=ANA)
    await make_character(stack, BO, name=BOLD)
    await make_character(stack, CHIDI, board, name=CY)
    want = {p: made_by_the_rules(NAMES[p]) for p in PLAYERS}  # the sheets, step by step
    assert want[ALICE].moods[ANGRY].name == "Angry" and want[BO].moods[WARY].name == "Wary"

    async def sheets_agree() -> None:
        for p in PLAYERS:
            assert await sheet_of(p) == want[p], NAMES[p]

    await sheets_agree()

    # The adventure: the party heads to Chidi's first card (L5); Chidi paints the picture.
    panel = await command(stack, ALICE, "/adventure")
    adventure = panel["message_id"]
    assert "At home" in panel["text"]
    assert "/act what you want to happen" in panel["text"] and "/downtime home" in panel["text"]
    panel = await tap(stack, BO, GROUP, adventure, "➡️ Travel")
    assert "Where next?" in panel["text"]
    pairs = zip(DANGER_REWARD[::2], DANGER_REWARD[1::2], strict=True)
    backs = [f"➡️ L{i} · D{d} R{r}" for i, (d, r) in enumerate(pairs, 1)]
    assert [b["text"] for b in buttons(panel) if b["text"].startswith("➡️")] == backs
    mark = flip_seq = stack.api.mark()
    flipped = await tap(stack, BO, GROUP, adventure, "➡️ L5")
    assert "Title-1003-1" in flipped["text"] and "Danger-1003-1" not in flipped["text"]
    paint = await stack.api.wait_for_message(
        CHIDI, lambda m: "Paint the picture" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert "Treasure-1003-1" in paint["text"]
    # Together, everyone else arbitrates: Alice and Bo get the whole card too.
    for arbiter in (ALICE, BO):
        briefing = await stack.api.wait_for_message(
            arbiter, lambda m: "arbitrate" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
        )
        assert "Danger-1003-1" in briefing["text"] and "for the Arbiters only" in briefing["text"]

    # Alice and Bo go on together; Chidi, whose place it is, arbitrates.
    picking = await tap(stack, ALICE, GROUP, adventure, "Split up")
    assert "Tap who goes in the first group, then Split" in picking["text"]
    await tap(stack, ALICE, GROUP, adventure, f"▫️ {ANA}")  # characters, as in play
    await tap(stack, ALICE, GROUP, adventure, f"▫️ {BOLD}")
    split = await tap(stack, BO, GROUP, adventure, "✂️ Split")
    assert f"On screen: {ANA} (Alice Marsh), {BOLD} (<b>Bo</b> & Co)" in split["text"]
    assert f"Arbiters: {CY} (Chidi Okafor)" in split["text"]  # each person once, one way
    assert split["text"].count("Chidi Okafor") == split["text"].count("Alice Marsh") == 1
    outsider = await refused(stack, OUTSIDER, adventure, data_of(stack, adventure, "Regroup"))
    assert "/join" in outsider

    # Chidi plays the X-card from the panel: the group hears of it, naming nobody, and
    # nobody else is told anything.
    mark = stack.api.mark()
    pressed = await stack.api.press_button(
        CHIDI, GROUP, adventure, data_of(stack, adventure, "X-card")
    )
    assert "Nobody" in (await pressed.answered(TIMEOUT))["text"]
    notice = await stack.api.wait_for_message(
        GROUP, lambda m: "X-card" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    for name in ("Chidi", "Okafor", CY):
        assert name not in notice["text"]
    told = [e for e in stack.api.events_since(mark) if e["kind"] in ("message", "edit", "alert")]
    # Only the group hears anything: the notice, and the panel losing Bo's ↩ Undo (the
    # Split is no longer the latest step); no message or edit names who tapped.
    assert {e["chat_id"] for e in told if e["kind"] != "alert"} == {GROUP}
    for event in told:
        if event["kind"] != "alert":
            assert "Chidi" not in str(event["message"].get("reply_markup"))
    assert [e["alert"]["user_id"] for e in told if e["kind"] == "alert"] == [CHIDI]
    assert str(CHIDI) not in str((await table_now()).state.get("safety"))

    # Roll 1, with help: Ana crosses the bridge; Bo's die carries it.
    mark = stack.api.mark()
    panel = await command(stack, ALICE, "/act I cross the <b>rope</b> bridge")
    roll1 = roll = panel["message_id"]
    first_keyboard = copy.deepcopy(panel["reply_markup"])
    assert "<b>rope</b>" in panel["text"]  # shown as typed, not as markup
    assert "Arbiters: pick the aspect and say what is most at risk" in panel["text"]
    assert "for someone else" in await refused(stack, BO, roll, data_of(stack, roll, "⚖️ Body"))
    panel = await tap(stack, CHIDI, GROUP, roll, "⚖️ Body")
    panel = await tap(stack, CHIDI, GROUP, roll, "🌍 World")
    assert "Ana: pick your mood" in panel["text"]
    panel = await tap(stack, ALICE, GROUP, roll, "Ana: Angry d4 (0/5)")
    assert "Do details help or hinder? Reply" in panel["text"]
    panel = await tap(stack, ALICE, GROUP, roll, "No details apply")
    assert "Ana: pick a skill" in panel["text"] and "then roll" in panel["text"]
    faces.push(2, 3)
    panel = await tap(stack, ALICE, GROUP, roll, "🎲 Ana: roll")
    assert "Aspect d8: 2 · Mood d4: 3" in panel["text"]
    assert "Allies on screen may help" in panel["text"]
    faces.push(7)
    panel = await tap(stack, BO, GROUP, roll, f"🤝 {BOLD}: Curious d8")
    assert "Ana: keep your own mood die or take a helper's" in panel["text"]
    panel = await tap(stack, ALICE, GROUP, roll, f"Ana: take {BOLD}'s 7")
    assert "Aspect 2 vs Mood 7" in panel["text"] and "difference 5, Ana wins" in panel["text"]
    assert "1. Ana adds a hard detail — waiting" in panel["text"]
    assert "Reply to this message with a detail" in panel["text"]
    assert faces.remaining == 0
    panel = await answer(stack, ALICE, roll, "Knocked <out> @ The <Guard>")
    assert "on The <Guard>" in panel["text"] and "Title-1003-1: 1/8" in panel["text"]
    panel = await answer(stack, ALICE, roll, "scene: Bridge & rope cut")
    assert buttons(panel) == [] and "Title-1003-1: 2/8" in panel["text"]
    assert len(bot_messages_since(stack, mark)) <= 2
    want[ALICE] = want[ALICE].raise_mood(ANGRY)
    want[BO] = want[BO].raise_mood(CURIOUS)  # a helper raises the mood they roll
    await sheets_agree()

    # Roll 2, with advantage: Bo leaps. Chidi presses twice at once; the bot restarts midway.
    mark = stack.api.mark()
    panel = await command(stack, BO, "/act I <b>leap</b> the gap")
    roll = panel["message_id"]
    opening = copy.deepcopy(panel["reply_markup"])
    # A button kept from the first roll does nothing.
    assert "out of date" in await stale_press(stack, CHIDI, roll1, first_keyboard, "⚖️ Body")
    data = data_of(stack, roll, "⚖️ Mind")
    presses = [await stack.api.press_button(CHIDI, GROUP, roll, data) for _ in "ab"]
    answers = list(await asyncio.gather(*(p.answered(TIMEOUT) for p in presses)))
    assert sorted(bool(a["text"]) for a in answers) == [False, True]
    assert "out of date" in next(a["text"] for a in answers if a["text"])
    await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == roll, timeout=TIMEOUT, since=mark
    )
    assert (await PanelRow.get(message_id=roll, chat_tg_id=GROUP)).version == 1
    # A press on this roll's own first keyboard, after the aspect was picked, does nothing.
    assert "out of date" in await stale_press(stack, CHIDI, roll, opening, "⚖️ Heart")
    panel = await tap(stack, CHIDI, GROUP, roll, "🧍 Character")
    assert f"{BOLD}: pick your mood" in panel["text"]

    old = stack.runtime
    await old.stop()
    stack.runtime = Runtime(old.settings, rng=faces, rate_limit=False)
    await stack.runtime.start()

    panel = await tap(stack, BO, GROUP, roll, f"{BOLD}: Wary d6")
    panel = await answer(stack, BO, roll, "+Rope <ladder>")
    assert "+Rope <ladder> (advantage)" in panel["text"]
    faces.push(2, 6, 4)
    panel = await tap(stack, BO, GROUP, roll, f"🎲 {BOLD}: roll")
    assert "Aspect d6: 2 | 6 → keep ?" in panel["text"]
    assert f"{BOLD}: pick which aspect die to keep" in panel["text"]
    keep = data_of(stack, roll, "Keep aspect 6")
    assert "out of date" not in await refused(stack, CHIDI, roll, keep)
    faces.push(3)
    panel = await tap(stack, ALICE, GROUP, roll, "🤝 Ana: Angry d4")
    panel = await tap(stack, BO, GROUP, roll, "Keep aspect 6")
    panel = await tap(stack, BO, GROUP, roll, f"{BOLD}: my own mood die (4)")
    assert "Aspect 6 vs Mood 4: difference 2" in panel["text"] and "Row 2" in panel["text"]
    assert faces.remaining == 0
    panel = await answer(stack, BO, roll, "+Steady footing")
    assert buttons(panel) == [] and f"+Steady footing (hard) on {BOLD}" in panel["text"]
    assert len(bot_messages_since(stack, mark)) <= 2
    want[BO] = want[BO].raise_mood(WARY).add_detail(Detail("Steady footing", polarity=POSITIVE))
    want[ALICE] = want[ALICE].raise_mood(ANGRY)
    await sheets_agree()

    # Roll 3: Ana talks to the guard and loses badly; Chidi writes two harms.
    mark = stack.api.mark()
    panel = await command(stack, ALICE, "/act I talk the guard down")
    roll = panel["message_id"]
    await tap(stack, CHIDI, GROUP, roll, "⚖️ Mind")
    await tap(stack, CHIDI, GROUP, roll, "🧍 Character")
    await tap(stack, ALICE, GROUP, roll, "Ana: Curious d8")
    await tap(stack, ALICE, GROUP, roll, "No details apply")
    faces.push(1, 7)
    await tap(stack, ALICE, GROUP, roll, "🎲 Ana: roll")
    panel = await tap(stack, ALICE, GROUP, roll, "Ana: my own mood die (7)")
    assert "difference 6, the Arbiters win" in panel["text"]
    assert f"1. {CY} adds a hard detail — waiting" in panel["text"]
    wrong = await answer_refused(stack, ALICE, roll, "harm: Nothing much")
    assert "someone else" in wrong["text"]
    panel = await answer(stack, CHIDI, roll, "harm: Bruised ribs")
    panel = await answer(stack, CHIDI, roll, "harm: Cold to the bone")
    assert buttons(panel) == []
    assert len(bot_messages_since(stack, mark)) <= 2
    want[ALICE] = (
        want[ALICE].raise_mood(CURIOUS).add_harm("Bruised ribs").add_harm("Cold to the bone")
    )
    await sheets_agree()

    # Roll 4: Ana holds the door on Angry, past its threshold: it overloads; she is Overcome.
    mark = stack.api.mark()
    panel = await command(stack, ALICE, "/act I hold the door")
    roll = panel["message_id"]
    await tap(stack, CHIDI, GROUP, roll, "⚖️ Body")
    await tap(stack, CHIDI, GROUP, roll, "🌍 World")
    panel = await tap(stack, ALICE, GROUP, roll, "Ana: Angry d4 (2/5)")
    assert "Mood: Angry d4, level 3/5\n" in panel["text"]
    await tap(stack, ALICE, GROUP, roll, "No details apply")
    faces.push(8, 1)
    await tap(stack, ALICE, GROUP, roll, "🎲 Ana: roll")
    panel = await tap(stack, ALICE, GROUP, roll, "Ana: my own mood die (1)")
    text = panel["text"]
    assert "difference 7, the Arbiters win" in text and "Ana's Angry is overloaded!" in text
    assert "level 3/5 (advantage)" not in text  # rolled with one die
    panel = await answer(stack, CHIDI, roll, "harm: Broken <wrist>")
    panel = await answer(stack, CHIDI, roll, "harm: Shaken")
    assert buttons(panel) == [] and "Title-1003-1: 4/8" in panel["text"]
    assert len(bot_messages_since(stack, mark)) <= 2
    want[ALICE] = (
        want[ALICE].raise_mood(ANGRY).set_overloaded(ANGRY, True).add_harm("Broken <wrist>")
    ).add_harm("Shaken")
    assert want[ALICE].overcome
    await sheets_agree()
    overcome = (await command(stack, ALICE, "/act I get up"))["text"]
    assert "Overcome" in overcome and "/downtime home" in overcome and "Recover Harm" in overcome

    # Downtime at home: complications where the party was, a recovery point each.
    downtime_mark = stack.api.mark()
    faces.push(3)
    panel = await command(stack, BO, "/downtime home")
    down = panel["message_id"]
    assert "Collateral Clock 4/8: d6 = 3" in panel["text"]
    assert "Each of you: open 🛌 Rest & heal" in panel["text"]
    for p in PLAYERS:
        want[p] = want[p].add_recovery_points(1)
    # Nothing in Work & scout is open to Ana while Overcome (no skill of hers is ready)
    assert "Overcome" in await refused(stack, ALICE, down, data_of(stack, down, "🛠 Work"))

    # Ana seeks recovery with Bo's help, then turns a harm into a scar.
    await tap(stack, ALICE, GROUP, down, "🛌 Rest & heal")
    panel = await tap(stack, ALICE, GROUP, down, "🛌 Seek Recovery")
    assert "Ana: a friend may tap Help" in panel["text"] and "1. Climbing ±1" in panel["text"]
    panel = await tap(stack, BO, GROUP, down, "🤝 Help Ana")
    assert f"helped by {BOLD}" in panel["text"]
    assert "for whoever seeks" in await refused(stack, BO, down, data_of(stack, down, "🎲 Ana"))
    faces.push(3, 2)
    panel = await tap(stack, ALICE, GROUP, down, "🎲 Ana: roll")
    assert "Body 3, a friend's Heart 2 = 5, +3 recovery points" in panel["text"]
    want[ALICE] = want[ALICE].add_recovery_points(5)
    await tap(stack, ALICE, GROUP, down, "🛌 Rest & heal")
    panel = await tap(stack, ALICE, GROUP, down, "🩹 Recover Harm")
    assert "3. Broken <wrist>" in panel["text"]
    panel = await answer(stack, ALICE, down, "3 Stiff <wrist>")
    assert "turns Broken <wrist> into the scar Stiff <wrist>" in panel["text"]
    want[ALICE] = want[ALICE].recover_harm(2, "Stiff <wrist>")
    await sheets_agree()

    # Bo scouts Alice's second card: everyone else arbitrates; he wins and looks in private.
    await tap(stack, BO, GROUP, down, "🛠 Work & scout")
    panel = await tap(stack, BO, GROUP, down, "🔭 Scout")
    assert f"{BOLD}: pick a face-down card nearby" in panel["text"]
    mark = stack.api.mark()
    panel = await tap(stack, BO, GROUP, down, "🔭 L2 D1 R4")
    assert "The scout replies with how they go about it" in panel["text"]
    panel = await answer(stack, BO, down, "I climb the <ridge>")
    assert "Arbiters: pick the aspect" in panel["text"]
    await tap(stack, CHIDI, GROUP, down, "⚖️ Body")
    panel = await tap(stack, ALICE, GROUP, down, "🌍 World")
    assert f"{BOLD}: pick your mood" in panel["text"]
    await tap(stack, BO, GROUP, down, f"{BOLD}: Curious d8")
    await tap(stack, BO, GROUP, down, "No details apply")
    faces.push(1, 6)
    # Nobody can help a Scout: the roll settles on Bo's own mood die without asking.
    panel = await tap(stack, BO, GROUP, down, f"🎲 {BOLD}: roll")
    assert f"{BOLD} may look at L2 (D1 R4) in private" in panel["text"]
    assert "ticks the Collateral Clock" not in panel["text"]  # no clock on a face-down card
    look = await stack.api.wait_for_message(BO, timeout=TIMEOUT, since=mark)
    assert "Title-1001-2" in look["text"] and "Treasure-1001-2" in look["text"]
    peek = data_of(stack, down, "🔭 Bo <i>the</i> Bold: see it")
    assert "Only the scout" in await refused(stack, CHIDI, down, peek)
    panel = await answer(stack, BO, down, "+Knows the <hidden> path")
    panel = await tap(stack, BO, GROUP, down, "Skip detail 2 (Bo <i>the</i>)")
    want[BO] = want[BO].raise_mood(CURIOUS)
    want[BO] = want[BO].add_detail(Detail("Knows the <hidden> path", polarity=POSITIVE))
    await sheets_agree()
    assert faces.remaining == 0

    # The panel's numbers are the rules' numbers.
    for p in PLAYERS:
        c = want[p]
        line = f"{c.name} ({PLAYER_NAMES[p]}): "
        assert line in panel["text"], line
        shown = panel["text"].split(line)[1].split("\n")[0]
        assert f"recovery {c.recovery_points}/4" in shown
        assert (f"harm {len(c.harms)}/4" in shown) == bool(c.harms)

    # Chidi asks to end downtime; Chidi and Alice both confirm at once: it ends once,
    # the other is told.
    panel = await tap(stack, CHIDI, GROUP, down, "🏁 End downtime")
    assert "End downtime for everyone?" in panel["text"]
    end = data_of(stack, down, "✅ Yes, end downtime")
    mark = stack.api.mark()
    presses = [await stack.api.press_button(p, GROUP, down, end) for p in (CHIDI, ALICE)]
    answers = list(await asyncio.gather(*(p.answered(TIMEOUT) for p in presses)))
    assert sorted(bool(a["text"]) for a in answers) == [False, True]
    panel = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == down, timeout=TIMEOUT, since=mark
    )
    assert "Downtime</b> is over" not in panel["text"] and "Downtime is over" in panel["text"]
    assert "Ana turns Broken <wrist> into the scar Stiff <wrist>" in panel["text"]  # as it was
    assert buttons(panel) == []
    assert len(bot_messages_since(stack, downtime_mark)) == 1  # one panel; the rest are edits
    await sheets_agree()

    # The world after the campaign.
    world = await world_now()
    here = world.card("L5")
    assert here.revealed and here.clock.ticks == 4 and here.scene_details == ("Bridge & rope cut",)
    assert world.card("L2").scouted_by == frozenset({BO}) and not world.card("L2").revealed
    assert [c.id for c in world.cards if c.revealed] == ["L5"]
    assert world.current is None and campaign_of(await table_now()).phase.value == "adventure"

    # Every secret stayed with the people allowed to see it.
    seen = everything_seen(stack)
    assert set(seen) <= {GROUP, *PLAYERS, OUTSIDER}
    face_down = {"L1": (ALICE, 1), "L2": (ALICE, 2), "L3": (BO, 1), "L4": (BO, 2), "L6": (CHIDI, 2)}
    for cid, (pid, n) in face_down.items():
        assert world.card(cid).title == f"Title-{pid}-{n}" and not world.card(cid).revealed
        allowed = {pid, BO} if cid == "L2" else {pid}
        assert_secret(seen, card(pid, n), allowed)
    before_flip = everything_seen(stack, until=flip_seq)
    assert_secret(before_flip, card(CHIDI, 1), {CHIDI})
    assert "Title-1001-2" in seen[BO]

    # The Mini App, opened from /sheet, shows each player only what they may see, and the
    # game they download from it keeps the others' secrets too.
    token = (await campaigns(stack).require_current(GROUP)).app_token
    async with aiohttp.ClientSession() as http:
        for viewer in PLAYERS:
            sheet_button = buttons(await command(stack, viewer, "/sheet"))[0]
            launch = stack.api.open_web_app(viewer, sheet_button["url"], from_chat_id=GROUP)
            init_data = parse_qs(urlsplit(launch).fragment)["tgWebAppData"][0]
            headers = {"Authorization": f"tma {init_data}"}
            shown: dict[int, str] = {}
            for path in (f"/api/c/{token}", f"/api/c/{token}/map", f"/api/c/{token}/export"):
                async with http.get(stack.origin + path, headers=headers) as response:
                    assert response.status == 200, path
                    shown[viewer] = shown.get(viewer, "") + await response.text()
            async with http.get(f"{stack.origin}/app/c/{token}", headers=headers) as response:
                assert response.status == 200
                page = await response.text()
                shown[viewer] += page
            # The sheets on the page (the viewer's first) carry the rules' numbers.
            order = [viewer, *(p for p in PLAYERS if p != viewer)]
            levels = [(int(a), int(b)) for a, b in re.findall(r"Mood level (\d+) of (\d+)", page)]
            assert levels == [(m.level, m.die.boxes) for p in order for m in want[p].moods]
            points = [int(x) for x in re.findall(r"Recovery points (\d+) of 4", page)]
            assert points == [want[p].recovery_points for p in order]
            assert page.count('title="Overloaded"') == 1  # Ana's Angry
            for cid, (pid, n) in face_down.items():
                allowed = {pid, BO} if cid == "L2" else {pid}
                assert_secret(shown, card(pid, n), allowed)
            assert ("Title-1001-2" in shown[viewer]) == (viewer in (ALICE, BO))
