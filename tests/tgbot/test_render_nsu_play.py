"""The NSU play panels render within Telegram's limits, with every name escaped."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from core.rules.nsu.downtime_panel import DOWNTIME_RULES
from core.rules.nsu.glance import nsu_status_lines
from core.rules.nsu.roll_panel import ROLL_RULES
from core.rules.rng import ScriptedRng
from core.rules.table import Seat, Table
from core.words.i18n import lang_for
from tests.support.nsu_table import character, split, table, world
from tests.support.panel_views import read_as
from tgbot.render.nsu_downtime import NsuDowntimeRenderer
from tgbot.render.nsu_play import NsuRollRenderer
from tgbot.sandbox.fake_api import parse_html

EN = lang_for("en")

PLAYERS = (1, 2, 3, 4, 5)
LONG = "<b>" + "Ω" * 52 + "</b>"


def big_table() -> Table:
    w = split(world(PLAYERS), {1, 2, 3}, {4, 5})
    chars = {p: character(f"{LONG}{p}"[-60:]) for p in PLAYERS}
    return table(w, chars, names={p: f"<i>Player</i> & {p} " + "z" * 40 for p in PLAYERS})


def settle(t: Table, out: Any) -> Table:
    seats = dict(t.seats)
    for p, s in out.sheets.items():
        seats[p] = Seat(p, seats[p].name, seats[p].roles, s)
    state = t.state if out.campaign_state is None else out.campaign_state
    return Table(t.campaign_id, t.system, json.loads(json.dumps(state)), seats)


def view(state: Any, t: Table, closed: bool = False) -> Any:
    return SimpleNamespace(
        id=12345,
        version=999,
        state=state,
        table=t,
        closed=closed,
        events=(),
        typed=read_as(state),
    )


def check(text: str) -> None:
    plain, _ = parse_html(text)
    assert len(plain) <= 4096 and len(text) <= 6000
    assert "<b>Ω" in plain  # names are escaped, so they show as typed


def test_a_helped_roll_with_long_names_fits_and_is_escaped() -> None:
    rng = ScriptedRng([3, 1, 8, 2, 7, 8, 8])
    t = big_table()
    out = ROLL_RULES.open(t, 1, "x" * 480 + " <script>", rng)
    state = out.state
    for actor, action, arg in [
        (4, "choose_aspect", "body"),
        (5, "choose_risk", "world"),
        (1, "choose_mood", "1"),
        (1, "set_aspect_edge", "+" + "r" * 50 + "; -" + "s" * 50),
        (1, "risk_sentiment", "1"),
        (1, "roll", ""),
        (2, "help", "2.1"),
        (3, "help", "3.1"),
    ]:
        out = ROLL_RULES.act(t, state, actor, action, arg, rng)
        t, state = settle(t, out), out.state
        text, _ = NsuRollRenderer().render(view(state, t), EN)
        check(text)
    assert "&lt;script&gt;" in text


def test_a_long_downtime_fits() -> None:
    rng = ScriptedRng([4] * 30)
    t = big_table()
    out = DOWNTIME_RULES.open(t, 1, "home", rng)
    t, state = settle(t, out), out.state
    for _ in range(8):
        out = DOWNTIME_RULES.act(t, state, 2, "more_time", "0", rng)
        t, state = settle(t, out), out.state
    for player in PLAYERS:
        out = DOWNTIME_RULES.act(t, state, player, "seek", "", rng)
        t, state = settle(t, out), out.state
    text, markup = NsuDowntimeRenderer().render(view(state, t), EN)
    check(text)
    assert markup is not None and "… and 6 earlier." in text


def plain(state: Any, t: Table, renderer: Any) -> str:
    text, _ = renderer.render(view(state, t), EN)
    return str(parse_html(text)[0])


def test_every_step_after_the_dice_names_who_acts_next() -> None:
    w = split(world((1, 2, 3)), {1, 2}, {3})
    t = table(w, {1: character("Ana"), 2: character("Bo"), 3: character("Cy")})
    rng = ScriptedRng([2, 3, 5])
    out = ROLL_RULES.open(t, 1, "I climb", rng)
    state = out.state
    steps = [
        (3, "choose_aspect", "body"),
        (3, "choose_risk", "world"),
        (1, "choose_mood", "1"),
        (1, "set_aspect_edge", ""),
        (1, "choose_skill", "1"),
        (1, "roll", ""),
    ]
    for actor, action, arg in steps:
        out = ROLL_RULES.act(t, state, actor, action, arg, rng)
        t, state = settle(t, out), out.state
    text = plain(state, t, NsuRollRenderer())
    assert "Allies on screen may help" in text
    assert "Ana: keep your own mood die, or wait for an ally's help." in text
    out = ROLL_RULES.act(t, state, 2, "help", "2.1", rng)
    t, state = settle(t, out), out.state
    text = plain(state, t, NsuRollRenderer())
    assert "Allies on screen may help" not in text
    assert "Ana: keep your own mood die or take a helper's." in text
    # The World is at risk: the higher mood die wins, and the skill is best taken away.
    assert "Ana wins when the Mood die beats the Aspect die" in text
    assert "Your own 3: aspect 1 vs mood 3, Ana wins by 2." in text
    assert "Take Bo's 5: aspect 1 vs mood 5, Ana wins by 4." in text
    assert text.count("👍") == 1 and "and so does an ally. 👍" in text
    out = ROLL_RULES.act(t, state, 1, "take_helper_die", "2", rng)
    t, state = settle(t, out), out.state
    assert "Ana: add your skill to the aspect die, or take it away." in plain(
        state, t, NsuRollRenderer()
    )


def test_the_scouts_roll_in_downtime_says_whose_step_it_is() -> None:
    t = table(world((1, 2, 3)), {1: character("Ana"), 2: character("Bo"), 3: character("Cy")})
    rng = ScriptedRng([4, 2, 6, 6])
    out = DOWNTIME_RULES.open(t, 1, "home", rng)
    t, state = settle(t, out), out.state
    expected = {
        ("scout_pick", ""): "Bo: pick a face-down card nearby",
        ("scout_card", "2"): "The scout replies with how they go about it.",
        ("text", "I sneak up"): "Arbiters: pick the aspect and say what is most at risk.",
        ("choose_aspect", "mind"): "Arbiters: pick the aspect and say what is most at risk.",
        ("choose_risk", "character"): "Bo: pick your mood",
        ("choose_mood", "1"): "Do details help or hinder?",
        ("set_aspect_edge", "+Rope"): "Bo: pick a skill",
        ("roll", ""): "Bo: pick which aspect die to keep.",
        ("keep_die", "aspect.2"): "The scout lost: accept the details",  # settled unasked
    }
    for (action, arg), hint in expected.items():
        actor = 1 if action in ("choose_aspect", "choose_risk") else 2
        out = DOWNTIME_RULES.act(t, state, actor, action, arg, rng)
        t, state = settle(t, out), out.state
        assert hint in plain(state, t, NsuDowntimeRenderer()), (action, hint)


def test_prompts_that_ask_for_line_numbers_list_the_lines() -> None:
    hurt = character("Ana").add_harm("Bruised <ribs>").add_harm("Cold")
    t = table(world((1, 2)), {1: hurt, 2: character("Bo")})
    out = DOWNTIME_RULES.open(t, 1, "home", ScriptedRng([4]))
    t, state = settle(t, out), out.state
    out = DOWNTIME_RULES.act(t, state, 1, "recover", "", ScriptedRng([]))
    t, state = settle(t, out), out.state
    out = DOWNTIME_RULES.act(t, state, 2, "seek", "", ScriptedRng([]))
    t, state = settle(t, out), out.state
    text = plain(state, t, NsuDowntimeRenderer())
    assert "Harm: 1. Bruised <ribs> · 2. Cold" in text
    assert "Skills: 1. Climbing ±1 · 2. Haggling ±1 · 3. Tinkering ±1" in text
    out = DOWNTIME_RULES.act(t, state, 2, "drop", "", ScriptedRng([]))
    t, state = settle(t, out), out.state
    out = DOWNTIME_RULES.act(t, state, 2, "reconnect", "", ScriptedRng([]))
    t, state = settle(t, out), out.state
    text = plain(state, t, NsuDowntimeRenderer())
    assert "Sentiments: 1. My sister · 2. The old compass · 3. Nothing is wasted" in text
    assert "Moods: 1. Curious · 2. open d8 · 3. Wary" in text


def test_a_fresh_downtime_says_what_to_do() -> None:
    t = table(world((1, 2)), {1: character("Ana").add_harm("Cold"), 2: character("Bo")})
    out = DOWNTIME_RULES.open(t, 1, "home", ScriptedRng([4]))
    t, state = settle(t, out), out.state
    text = plain(state, t, NsuDowntimeRenderer())
    assert "Each of you: open 🛌 Rest & heal" in text and "tap 🏁 End downtime" in text
    out = DOWNTIME_RULES.act(t, state, 1, "recover", "", ScriptedRng([]))
    t, state = settle(t, out), out.state
    assert "Each of you" not in plain(state, t, NsuDowntimeRenderer())  # Ana's prompt instead


def test_a_scouts_world_at_risk_roll_promises_no_clock_ticks() -> None:
    t = table(world((1, 2, 3)), {1: character("Ana"), 2: character("Bo"), 3: character("Cy")})
    rng = ScriptedRng([4, 1, 6])
    out = DOWNTIME_RULES.open(t, 1, "home", rng)
    t, state = settle(t, out), out.state
    for actor, action, arg in [
        (2, "scout_pick", ""),
        (2, "scout_card", "2"),
        (2, "text", "I sneak up"),
        (1, "choose_aspect", "body"),
        (1, "choose_risk", "world"),
        (2, "choose_mood", "1"),
        (2, "set_aspect_edge", ""),
        (2, "roll", ""),
    ]:
        out = DOWNTIME_RULES.act(t, state, actor, action, arg, rng)
        t, state = settle(t, out), out.state
    text = plain(state, t, NsuDowntimeRenderer())
    assert "Bo wins" in text and "At risk: the World" in text
    assert "ticks the Collateral Clock" not in text  # the card is face down: no clock


def test_ruling22_a_row_one_win_with_nobody_on_screen_says_no_ally_adds_a_detail() -> None:
    w = split(world((1, 2, 3)), {1}, {2, 3})
    t = table(w, {1: character("Ana"), 2: character("Bo"), 3: character("Cy")})
    rng = ScriptedRng([2, 3])  # aspect 2, mood 3: the World at risk, Ana wins by 1
    out = ROLL_RULES.open(t, 1, "I climb", rng)
    state = out.state
    for actor, action, arg in [
        (3, "choose_aspect", "body"),
        (3, "choose_risk", "world"),
        (1, "choose_mood", "1"),
        (1, "set_aspect_edge", ""),
        (1, "roll", ""),
    ]:
        out = ROLL_RULES.act(t, state, actor, action, arg, rng)
        t, state = settle(t, out), out.state
    text = plain(state, t, NsuRollRenderer())
    assert "Row 1:" in text
    assert "No ally is on screen, so the ally's detail is not added." in text
    assert "an ally of" not in text


def test_ruling23_a_reconnect_that_fills_a_track_asks_for_a_mark_and_a_name() -> None:
    ana = character("Ana").endanger_sentiment(0).endanger_sentiment(0).raise_mood(4, 3)
    t = table(world((1, 2)), {1: ana, 2: character("Bo")})
    out = DOWNTIME_RULES.open(t, 1, "home", ScriptedRng([4]))
    t, state = settle(t, out), out.state
    for action, arg in [("reconnect", ""), ("text", "1 5")]:  # Angry (d4, 3) +3: full
        out = DOWNTIME_RULES.act(t, state, 1, action, arg, ScriptedRng([]))
        t, state = settle(t, out), out.state
    _, markup = NsuDowntimeRenderer().render(view(state, t), EN)
    shown = plain(state, t, NsuDowntimeRenderer())
    assert "🌀 Ana: Angry filled its track and is back to 0." in shown
    assert "Tap a sentiment to mark. Reply with a stronger name for Angry." in shown
    assert "Ana's Angry fills its track: back to 0." in shown
    assert markup is not None
    labels = [b.text for row in markup.inline_keyboard for b in row]
    assert "💔 Ana: mark My sister" in labels and "💔 Ana: mark Nothing is wasted" in labels
    out = DOWNTIME_RULES.act(t, state, 1, "endanger", "3", ScriptedRng([]))
    t, state = settle(t, out), out.state
    out = DOWNTIME_RULES.act(t, state, 1, "text", "Furious <3", ScriptedRng([]))
    t, state = settle(t, out), out.state
    shown = plain(state, t, NsuDowntimeRenderer())
    assert "Ana marks a sentiment: now at risk." in shown
    assert "Ana's Angry becomes Furious <3." in shown
    assert "filled its track and is back to 0" not in shown


def test_an_overcome_ally_is_named_on_the_roll_and_cannot_help() -> None:
    hurt = character("Bo")
    for i in range(4):
        hurt = hurt.add_harm(f"Hurt {i}")
    assert hurt.overcome
    w = split(world((1, 2, 3)), {1, 2}, {3})  # Bo is on screen with Ana
    t = table(w, {1: character("Ana"), 2: hurt, 3: character("Cy")})
    out = ROLL_RULES.open(t, 1, "I climb", ScriptedRng([]))
    text, _ = NsuRollRenderer().render(view(out.state, t), EN)
    plain, _ = parse_html(text)
    assert "💀 Bo is Overcome: they can't act or help until a harm is recovered." in plain
    assert any("Bo (P2), Overcome: can't act until healed" in line for line in nsu_status_lines(t))


def test_a_project_prompt_and_its_progress_say_which_project_and_why() -> None:
    t = table(world((1, 2)), {1: character("Ana"), 2: character("Bo")})
    out = DOWNTIME_RULES.open(t, 1, "home", ScriptedRng([4]))
    t, state = settle(t, out), out.state
    out = DOWNTIME_RULES.act(t, state, 1, "project", "", ScriptedRng([]))
    t, state = settle(t, out), out.state
    text = plain(state, t, NsuDowntimeRenderer())
    assert "1 mind #1 rolls mood 1 against your Mind die for project #1" in text
    assert "Moods: 1. Curious · 2. open d8 · 3. Wary" in text and "Projects: none yet" in text
    out = DOWNTIME_RULES.act(t, state, 1, "text", "1 mind 6 Fix the <mill>", ScriptedRng([5, 2]))
    t, state = settle(t, out), out.state
    text = plain(state, t, NsuDowntimeRenderer())
    assert "📜 Fix the <mill>: mood die 5 against aspect die 2, a gap of 3: now 3/6." in text


def test_downtime_offers_only_the_free_actions_that_would_do_something() -> None:
    t = table(world((1, 2)), {1: character("Ana").add_harm("Cold"), 2: character("Bo")})
    out = DOWNTIME_RULES.open(t, 1, "home", ScriptedRng([4]))
    t, state = settle(t, out), out.state
    text = plain(state, t, NsuDowntimeRenderer())
    ana = next(line for line in text.splitlines() if line.startswith("• Ana"))
    bo = next(line for line in text.splitlines() if line.startswith("• Bo"))
    assert "free: Recover Harm" in ana and "Upgrade" not in ana  # no skill is ready
    assert "free:" not in bo  # nothing to heal, nothing to upgrade
    now = text.splitlines()[-1]
    assert "Ana (P1): recover harm (free)" in now and "upgrade skills" not in now
