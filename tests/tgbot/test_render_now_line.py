"""Every open panel ends with one line naming who acts now and what they choose between."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.campaigns import PanelView
from core.rules.choice import actors
from core.rules.cortex.panel import CONFLICT_PANEL, Press
from core.rules.d20check import SYSTEM as D20
from core.rules.d20check.table import CheckPanelState, pool_counts
from core.rules.errors import NotAllowedNow, StonetableError
from core.rules.nsu.action_roll import ActionKind as RollKind
from core.rules.nsu.adventure_panel import adventure_choices, scene
from core.rules.nsu.campaign import character_of
from core.rules.nsu.cards_panel import cards_choices, cards_view
from core.rules.nsu.character_panel import STEPS, creation_choices, creation_view
from core.rules.nsu.downtime_panel import SIDE as DOWNTIME_SIDE
from core.rules.nsu.downtime_panel import DowntimePanelState, current_downtime, downtime_choices
from core.rules.nsu.play_table import campaign_of
from core.rules.nsu.roll_choices import AfterRoll, detail_choices, roll_choices
from core.rules.nsu.roll_panel import ROLL_RULES, RollPanel
from core.rules.nsu.safety_panel import safety_choices
from core.rules.nsu.setup_panel import board as setup_board
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.rules.threat.panel import ActionKind
from core.rules.threat.table import roll_view
from core.words.i18n import lang_for
from tests.core.rules.cortex.test_campaign_panel import (
    CLARK,
    LOIS,
    PANEL,
    WATCHTOWER,
    Game,
    _chidi,
)
from tests.core.rules.cortex.test_campaign_panel import game as _cortex_game
from tests.core.rules.nsu.table_support import (
    ALICE,
    BOB,
    CARA,
    NAMES,
    Harness,
    build_world,
    card_fields,
    make_character,
)
from tests.core.rules.nsu.test_downtime_panel import ANA as DT_ANA
from tests.core.rules.nsu.test_downtime_panel import BEN as DT_BEN
from tests.core.rules.nsu.test_downtime_panel import CY as DT_CY
from tests.core.rules.nsu.test_downtime_panel import STEPS as DT_STEPS
from tests.core.rules.nsu.test_downtime_panel import Driver, fresh
from tests.support.nsu_table import character, split, world
from tests.support.nsu_table import table as nsu_table
from tests.support.panel_views import read_as
from tests.tgbot.test_render_d20 import ANA as ANA_D20
from tests.tgbot.test_render_d20 import BO as BO_D20
from tests.tgbot.test_render_d20 import GIL as GIL_D20
from tests.tgbot.test_render_d20 import table as d20_table
from tests.tgbot.test_render_d20 import view as d20_view
from tests.tgbot.test_render_nsu import RENDER as NSU_RENDER
from tests.tgbot.test_render_nsu import view as setup_view
from tests.tgbot.test_render_nsu_play import settle
from tests.tgbot.test_render_threat import ANA, BO, GM, RENDERER, RULES, table, view_of
from tgbot.render.cortex import ConflictRenderer
from tgbot.render.d20 import CheckRenderer
from tgbot.render.nsu_downtime import NsuDowntimeRenderer
from tgbot.render.nsu_play import NsuRollRenderer
from tgbot.sandbox.fake_api import parse_html

EN = lang_for("en")

game = _cortex_game
SETUP_RENDER = NSU_RENDER["nsu.setup"]
THREAT_NAMES = {GM: "Gail & <GM>", ANA: "Ana <3", BO: "<b>Bo</b> & <i>Co"}


def named(line: str, name: str) -> bool:
    """Whether ``name`` is one of the people the line names (alone or as "Birch (Alice)")."""
    return any(f"{name}{end}" in line for end in (":", " or", ",", " ("))


THIRD_PERSON = re.compile(r"\b(they|them|their|theirs|themselves|themself)\b", re.IGNORECASE)


def spoken_to(line: str) -> list[str]:
    """What a "👉 Name: …" line says of the one who acts in the third person: each part
    after a name and a colon must address that person ("keep your own mood die")."""
    if not line.startswith("👉 "):
        return []
    said = [part.split(": ", 1)[1] for part in line[2:].split(" · ") if ": " in part]
    return [found for part in said for found in THIRD_PERSON.findall(part)]


def last_line(html: str) -> str:
    """The panel's last line, in the second person to whoever it names."""
    text, _ = parse_html(html)
    line = text.splitlines()[-1]
    assert spoken_to(line) == [], line
    return line


def test_a_prompt_that_speaks_of_the_one_who_acts_is_caught() -> None:
    assert spoken_to("👉 Ana: keep their own mood die · Bo: help") == ["their"]
    assert spoken_to("👉 Ana (Alice): write THEIR locations") == ["THEIR"]
    assert spoken_to("👉 Ana: keep your own mood die or take a helper's") == []
    assert spoken_to("Ana took their die back.") == []


def players_named_once(html: str, players: Any) -> None:
    """The same person never twice in one panel: a player's own name shows at most once
    (with their character, on first mention), whoever acts and however often."""
    text, _ = parse_html(html)
    for player in players:
        assert text.count(player) <= 1, (player, text)


@settings(max_examples=60, deadline=None)
@given(
    presses=st.lists(
        st.tuples(
            st.sampled_from([GM, ANA, BO]),
            st.sampled_from([k.value for k in ActionKind]),
            st.sampled_from(["", "0", "1", "-2", "4", "expertise.on", "on", "off"]),
            st.integers(0, 1000),
        ),
        max_size=10,
    ),
)
def test_every_step_of_a_threat_roll_names_who_acts_now(
    presses: list[tuple[int, str, str, int]],
) -> None:
    t = table()
    state = RULES.open(t, ANA, "", SeededRng(1)).state
    closed = False
    for actor, action, argument, seed in [*presses, (0, "", "", 0)]:
        if not closed:
            choices = roll_view(t, state).choices
            html, _ = RENDERER.render(view_of(t, state), EN)
            line = last_line(html)
            assert line.startswith("👉 "), line
            for person, name in THREAT_NAMES.items():
                assert (name in line) == (person in actors(choices)), (line, name)
        try:
            out = RULES.act(t, state, actor, action, argument, SeededRng(seed))
        except StonetableError:
            continue
        state, closed = out.state, out.closed


def _cortex_view(g: Game) -> PanelView:
    opened = RULES.open(table(), GM, f"for={ANA}", SeededRng(1)).state
    base = view_of(table(), opened)
    cortex = replace(base.campaign, system=default_registry().find("cortex"))
    return replace(
        base, kind=CONFLICT_PANEL, state=g.panel, closed=g.closed, table=g.table, campaign=cortex
    )


CORTEX_NAMES = {WATCHTOWER: "the Watchtower", CLARK: "Clark", LOIS: "Lois", 3: "Chidi"}


@pytest.mark.parametrize("seed", range(4))
def test_every_step_of_a_cortex_conflict_names_who_acts_now(game: Game, seed: int) -> None:
    _chidi(game)
    rnd = random.Random(seed)
    renderer = ConflictRenderer()
    starts = ["test", "contest Lex", "contest Chidi", "contest Lex vs Lois"]
    seen = 0
    for _ in range(120):
        if game.closed or not game.panel or not game.view().current:
            try:
                game.open(rnd.choice([WATCHTOWER, CLARK, LOIS, 3]), rnd.choice(starts))
            except NotAllowedNow:
                game.edit(WATCHTOWER, "scene.end")
            continue
        view = game.view()
        html, _ = renderer.render(_cortex_view(game), EN)
        line = last_line(html)
        assert line.startswith("👉 "), line
        side = {Press.COMPLICATION, Press.CANCEL_TROUBLE, Press.END_SCENE}
        main = [c for c in view.choices if c.verb not in side] or list(view.choices)
        for person, name in CORTEX_NAMES.items():
            assert (f"{name}:" in line or f"{name} or" in line) == (person in actors(main)), (
                line,
                name,
            )
        seen += 1
        choice = rnd.choice(main)
        user = rnd.choice(sorted(choice.by))
        rng = SeededRng(rnd.randrange(10**6))
        try:
            out = PANEL.act(game.table, game.panel, user, choice.verb.value, choice.argument, rng)
        except StonetableError:
            continue  # refused for its argument (too few Plot Points...): nothing changed
        game.settle(out)
        game.panel, game.closed = out.state, out.closed
    assert seen > 20


NSU_CHARACTERS = {1: "Ana", 2: "Bo", 3: "Cy", 4: "Dee", 5: "Eli"}
NSU_SEATS = {1: "Alice", 2: "Bob", 3: "Carol", 4: "Dave", 5: "Erin"}
ARGUMENTS = {
    "state_outcome": "I climb the mill wheel",
    "choose_aspect": "body",
    "choose_risk": "world",
    "choose_mood": "1",
    "set_aspect_edge": "+Rope",
    "choose_skill": "1",
    "create_skill": "Climbing",
    "risk_sentiment": "1",
    "choose_skill_sign": "+",
    "rename_mood": "Furious",
    "text": "+Winded @ Ana",
}


@pytest.mark.parametrize("seed", range(6))
def test_every_step_of_an_nsu_roll_names_who_acts_now(seed: int) -> None:
    w = split(world((1, 2, 3, 4, 5)), {1, 2, 3}, {4, 5})
    t = nsu_table(w, {p: character(n) for p, n in NSU_CHARACTERS.items()}, names=NSU_SEATS)
    rnd = random.Random(seed)
    out = ROLL_RULES.open(t, 1, "", SeededRng(seed))
    t, state = settle(t, out), out.state
    steps = 0
    while not out.closed and steps < 60:
        steps += 1
        panel = RollPanel.from_dict(state)
        choices = [*roll_choices(panel.roll), *detail_choices(panel, campaign_of(t).world)]
        always = (RollKind.CANCEL, AfterRoll.TICK_CLOCK, AfterRoll.UNTICK_CLOCK)
        side = [c for c in choices if c.verb not in always] or choices
        html, _ = NsuRollRenderer().render(nsu_view(state, t), EN)
        players_named_once(html, NSU_SEATS.values())
        line = last_line(html)
        assert line.startswith("👉 "), line
        for person in actors(side):
            names = (NSU_CHARACTERS[person], NSU_SEATS[person])
            assert any(n in line for n in names), (line, person)
        for person in set(NSU_CHARACTERS) - actors(side):
            assert NSU_CHARACTERS[person] + ":" not in line and NSU_SEATS[person] + ":" not in line
        choice = rnd.choice(side)
        actor = rnd.choice(sorted(choice.by))
        verb = choice.verb.value
        argument = choice.argument or ARGUMENTS.get(verb, "")
        if verb in ("help", "endanger_sentiment"):
            argument = f"{actor}.1"
        if verb in ("state_outcome", "rename_mood"):
            verb = "text"
        try:
            out = ROLL_RULES.act(t, state, actor, verb, argument, SeededRng(rnd.randrange(999)))
        except StonetableError:
            continue
        t, state = settle(t, out), out.state
    assert out.closed


def nsu_view(state: Any, t: Any) -> Any:
    return SimpleNamespace(
        id=1, version=1, state=state, table=t, closed=False, events=(), typed=read_as(state)
    )


D20_NAMES = {ANA_D20: "Ana", GIL_D20: "Gil", BO_D20: "Bo"}  # by the name in play


@pytest.mark.parametrize("seed", range(8))
def test_every_step_of_a_d20_check_names_who_acts_now(seed: int) -> None:
    rnd = random.Random(seed)
    t = d20_table(lucky=2, unlucky=2, bo=True)
    rules = D20.panel("d20.check")
    out = rules.open(t, ANA_D20, "dc12", SeededRng(seed))
    for _ in range(60):  # set-up groups open and close on the way (sub-steps with Back)
        if out.closed:
            break
        panel = CheckPanelState.from_dict(out.state)
        choices = panel.choices(pool_counts(t.state).playable())
        html, _ = CheckRenderer().render(d20_view(t, out), EN)
        players_named_once(html, [t.seats[ANA_D20].name])
        line = last_line(html)
        assert line.startswith("👉 "), line
        for person, name in D20_NAMES.items():
            assert named(line, name) == (person in actors(choices)), (line, name)
        choice = rnd.choice(choices)
        actor = rnd.choice(sorted(choice.by))
        seed_ = SeededRng(rnd.randrange(99))
        out = rules.act(t, out.state, actor, choice.verb.value, choice.argument, seed_)
    assert out.closed


def test_every_worldbuilding_step_names_who_acts_now() -> None:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    steps = [
        (BOB, "text", "Weird & hopeful"),
        (ALICE, "agree", ""),
        (CARA, "agree", ""),
        (ALICE, "text", "No dragons"),
        (BOB, "pass", ""),
        (CARA, "pass", ""),
        (ALICE, "text", "Walls & buses"),
        (BOB, "pass", ""),
        (CARA, "pass", ""),
        (ALICE, "text", "A week"),
        (ALICE, "scope", ""),
        *[(p, "text", n) for p, n in zip((ALICE, BOB, CARA, ALICE, BOB), "VWXYZ", strict=True)],
        (CARA, "abundance", "1"),
    ]

    def check() -> None:
        b = setup_board(h.table(), panel.state)
        assert b is not None
        html, _ = SETUP_RENDER.render(setup_view(h, panel), EN)
        line = last_line(html)
        assert line.startswith("👉 "), line
        for person in (ALICE, BOB, CARA):
            named = f"{NAMES[person]}:" in line or f"{NAMES[person]} or" in line
            named = named or f"{NAMES[person]}," in line
            assert named == (person in actors(b.choices())), (line, person)

    check()
    for actor, action, argument in steps:
        h.act(panel, actor, action, argument)
        check()
    for pid in (ALICE, BOB, CARA):  # each writes two cards in private
        cards = h.open("nsu.cards", pid, "9")
        for n in (1, 2):
            for value in card_fields(pid, n):
                check_private(h, cards, pid, cards_choices(cards_view(h.table(), cards.state)))
                h.act(cards, pid, "text", value)
            check()
        check_private(h, cards, pid, ())
    h.act(panel, BOB, "deal", "3")
    check()


def check_private(h: Harness, panel: Any, owner: int, choices: Any) -> None:
    """A private panel's last line names its owner while they act, and only them."""
    html, _ = NSU_RENDER[panel.kind].render(setup_view(h, panel), EN)
    line = last_line(html)
    assert line.startswith("👉 "), line
    assert (f"{NAMES[owner]}:" in line) == bool(choices), line
    assert all(f"{NAMES[p]}:" not in line for p in NAMES if p != owner), line


CHARACTER_ANSWERS = {
    "name": "Wren",
    "pronouns_and_look": "she/her",
    "moods": "Curious, Wary, Angry",
    "sentiments": "My compass\n-\nThe bell",
    "skills": "Climbing, Talking, Fixing",
    "rumours": "Heard of glass trees",
}


@pytest.mark.parametrize("seed", range(4))
def test_every_private_panel_step_names_its_owner(seed: int) -> None:
    rnd = random.Random(seed)
    h = Harness()
    build_world(h)
    panel = h.open("nsu.character", ALICE)
    for _ in range(30):
        if panel.closed:
            break
        choices = creation_choices(creation_view(h.table(), panel.state))
        check_private(h, panel, ALICE, choices)
        choice = rnd.choice(choices)
        argument = choice.argument or CHARACTER_ANSWERS.get(choice.name, "")
        try:
            panel = h.act(panel, ALICE, choice.verb.value, argument)
        except StonetableError:
            continue
    check_private(h, panel, ALICE, () if panel.closed else (1,))
    safety = h.open("nsu.safety", BOB, rnd.choice(["line", "veil"]))
    for action, argument in [("text", "Spiders"), ("kind", "veil"), ("text", "Fire")]:
        check_private(h, safety, BOB, safety_choices(safety.state))
        safety = h.act(safety, BOB, action, argument)


@pytest.mark.parametrize("seed", range(6))
def test_every_downtime_step_names_who_acts_now(seed: int) -> None:
    rnd = random.Random(seed)
    d = Driver(fresh(), [2, 4, 1] + [3] * 60)
    names = {DT_ANA: "Ana", DT_BEN: "Ben", DT_CY: "Cy"}
    for _ in range(40):
        panel = DowntimePanelState.from_dict(d.state)
        downtime = d.campaign.downtime
        if downtime is None:
            return
        downtime = current_downtime(d.table)
        choices = downtime_choices(panel, downtime)
        html, _ = NsuDowntimeRenderer().render(nsu_view(d.state, d.table), EN)
        line = last_line(html)
        assert line.startswith("👉 "), line
        main = [c for c in choices if c.verb not in DOWNTIME_SIDE] or list(choices)
        for person, name in names.items():
            assert named(line, name) == (person in actors(main)), (line, name)
            if person in actors(main):  # the player's own name too, where they must act
                assert f"{name} (P{person})" in line, line
        actor = rnd.choice(list(names))
        action = rnd.choice(DT_STEPS)
        argument = rnd.choice(["", "1", "2", "body", "world", "none", "Look", "2 3"])
        try:
            out = d.do(actor, action, argument)
        except StonetableError:
            continue
        if out.closed:
            return


@pytest.mark.parametrize("seed", range(4))
def test_every_adventure_step_names_who_acts_now(seed: int) -> None:
    rnd = random.Random(seed)
    h = Harness()
    build_world(h)
    for pid in (ALICE, BOB, CARA):
        make_character(h, pid)
    panel = h.open("nsu.adventure", ALICE)
    in_play = {pid: character_of(h.table().seats[pid]).name for pid in (ALICE, BOB, CARA)}
    for _ in range(20):
        choices = adventure_choices(scene(h.table(), panel.state))
        html, _ = NSU_RENDER["nsu.adventure"].render(setup_view(h, panel), EN)
        players_named_once(html, [f"({n})" for n in NAMES.values()])
        line = last_line(html)
        assert line.startswith("👉 "), line
        for pid, name in in_play.items():
            assert (name in line) == (pid in actors(choices)), (line, name)
        choice = rnd.choice(choices)
        h.act(panel, rnd.choice(sorted(choice.by)), choice.verb.value, choice.argument)


@pytest.mark.parametrize("lang", [EN, lang_for("ru")])
def test_skipping_every_character_step_offers_each_missing_step_at_once(lang: Any) -> None:
    """Past the last step with steps skipped, the review is no dead end: each missing
    step has its own button, and one press opens it (not one Back per step)."""
    h = Harness()
    build_world(h)
    panel = h.open("nsu.character", ALICE)
    for _ in STEPS:
        panel = h.act(panel, ALICE, "skip", "")
    view = creation_view(h.table(), panel.state)
    assert view.step is None and view.missing
    html, markup = NSU_RENDER[panel.kind].render(setup_view(h, panel), lang)
    assert markup is not None and "👉" in html
    labels = [b.text for row in markup.inline_keyboard for b in row]
    missing = [b for b in labels if b.startswith("✏️ ")]
    assert len(missing) == len(view.missing), labels
    jump = next(
        c for c in creation_choices(view) if c.name == view.missing[-1].value and c.argument
    )
    panel = h.act(panel, ALICE, jump.verb.value, jump.argument)
    assert creation_view(h.table(), panel.state).step is view.missing[-1]
