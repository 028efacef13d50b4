"""The rules' choices are the panel's buttons: over random states of each game's panel,
every button shown is a legal choice, every legal choice is shown (or taken by a
reply the panel asks for), and an advised choice is never worse for the player."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.rules.choice import Choice
from core.rules.errors import StonetableError
from core.rules.nsu.action_roll import ActionKind, Phase, RollState
from core.rules.nsu.details import DetailKind, Polarity
from core.rules.nsu.play_table import campaign_of
from core.rules.nsu.roll_choices import (
    TEXT,
    AfterRoll,
    Forecast,
    detail_choices,
    player_score,
    roll_choices,
)
from core.rules.nsu.roll_panel import ROLL_RULES, RollPanel
from core.rules.rng import SeededRng
from core.rules.table import Table
from core.words.i18n import lang_for
from tests.support.nsu_table import character, split, world
from tests.support.nsu_table import table as nsu_table
from tests.tgbot.test_render_now_line import nsu_view
from tests.tgbot.test_render_nsu_play import settle
from tgbot.callback import PanelButton, decode
from tgbot.render.nsu_play import NsuRollRenderer

EN = lang_for("en")
CHARACTERS = {1: "Ana", 2: "Bo", 3: "Cy", 4: "Dee", 5: "Eli"}
SEATS = {1: "Alice", 2: "Bob", 3: "Carol", 4: "Dave", 5: "Erin"}
WEIGHED = (ActionKind.KEEP_DIE, ActionKind.TAKE_HELPER_DIE, ActionKind.CHOOSE_SKILL_SIGN)


def shown(state: Any, t: Table) -> tuple[str, set[tuple[str, str]]]:
    """The panel's text and its buttons as (action, argument)."""
    html, markup = NsuRollRenderer().render(nsu_view(state, t), EN)
    found: set[tuple[str, str]] = set()
    for row in markup.inline_keyboard if markup is not None else ():
        for b in row:
            data = decode(b.callback_data)
            if not isinstance(data, PanelButton):
                continue  # the safety tools' row, open in every state of a game
            found.add((data.action, data.argument))
    return html, found


def refusal(t: Table, state: Any, actor: int, verb: str, argument: str, seed: int) -> str:
    """Why the rules refuse this press or reply ("" when they accept it)."""
    try:
        ROLL_RULES.act(t, state, actor, verb, argument, SeededRng(seed))
    except StonetableError as error:
        return repr(error)
    return ""


def sent(choice: Choice[Any], actor: int, roll: RollState) -> tuple[str, str]:
    """What taking ``choice`` sends: a button's action and argument, or a reply's words."""
    if not choice.by_reply:
        return choice.verb.value, choice.argument
    verb = choice.verb
    if verb in (ActionKind.CHOOSE_MOOD, ActionKind.HELP):
        named = [m.name for m in roll.character(actor).moods if m.name is not None]
        return TEXT, named[0]
    if verb is AfterRoll.ADD_DETAIL:
        assert roll.outcome is not None
        grant = roll.outcome.grants[choice.count - 1]
        if grant.kind is DetailKind.SCENE:
            return TEXT, "scene: Bridge down"
        sign = "-" if grant.polarity is Polarity.NEGATIVE else "+"
        return TEXT, f"{sign}Winded @ Ana"
    words = {
        ActionKind.STATE_OUTCOME: "I climb the mill wheel",
        ActionKind.SET_ASPECT_EDGE: "+Rope",
        ActionKind.CREATE_SKILL: "Juggling",
        ActionKind.RENAME_MOOD: "Furious",
    }
    return TEXT, words[verb]


def play_advised(t: Table, state: Any, seed: int) -> RollState:
    """Go on from ``state`` with nobody helping, the Arbiters keeping the first face,
    and the roller taking every advised choice, until the roll is settled."""
    for _ in range(12):
        roll = RollPanel.from_dict(state).roll
        if roll.outcome is not None:
            return roll
        open_now = [c for c in roll_choices(roll) if c.verb in WEIGHED]
        pick = next((c for c in open_now if c.advised), None)
        if pick is None:  # the Arbiters keep a face: the first
            pick = open_now[0]
        actor = min(pick.by)
        state = ROLL_RULES.act(
            t, state, actor, pick.verb.value, pick.argument, SeededRng(seed)
        ).state
    raise AssertionError("the roll did not settle")


def score(roll: RollState) -> int:
    outcome = roll.outcome
    assert outcome is not None and roll.risk is not None
    return player_score(roll.risk, outcome.aspect_total, outcome.mood_face)


def check_advice(t: Table, state: Any, roll: RollState, seed: int) -> None:
    """Each weighed choice, played on as advised: the advised ones score highest, and a
    forecast says exactly what happens."""
    choices = [c for c in roll_choices(roll) if c.verb in WEIGHED]
    groups: dict[tuple[Any, str, str], list[Choice[Any]]] = {}
    for c in choices:
        key = (c.verb, c.who, c.name if c.verb is ActionKind.KEEP_DIE else "")
        groups.setdefault(key, []).append(c)
    for group in groups.values():
        results = {}
        for c in group:
            after = ROLL_RULES.act(t, state, min(c.by), c.verb.value, c.argument, SeededRng(seed))
            final = play_advised(t, after.state, seed)
            results[c] = score(final)
            forecast = c.consequence
            if isinstance(forecast, Forecast):
                assert final.outcome is not None
                assert (forecast.winner, forecast.difference) == (
                    final.outcome.winner,
                    final.outcome.difference,
                ), (c, final.outcome)
                assert forecast.score == results[c]
        best = max(results.values())
        for c in group:
            if c.advised:
                assert results[c] == best, (c, results)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seed=st.integers(0, 10_000), helpers=st.sampled_from([(), (2,), (2, 3)]), data=st.data())
def test_nsu_roll_buttons_are_exactly_the_rules_choices(
    seed: int, helpers: tuple[int, ...], data: st.DataObject
) -> None:
    on_screen = {1, *helpers}
    w = split(world((1, 2, 3, 4, 5)), on_screen, {1, 2, 3, 4, 5} - on_screen)
    sheets = {p: character(n) for p, n in CHARACTERS.items()}
    sheets[1] = replace(
        sheets[1], skills=tuple(replace(s, modifier=i) for i, s in enumerate(sheets[1].skills))
    )
    t = nsu_table(w, sheets, names=SEATS)
    out = ROLL_RULES.open(t, 1, "", SeededRng(seed))
    t, state = settle(t, out), out.state
    for step in range(40):
        if out.closed:
            break
        panel = RollPanel.from_dict(state)
        choices: list[Choice[Any]] = [
            *roll_choices(panel.roll),
            *detail_choices(panel, campaign_of(t).world),
        ]
        html, buttons = shown(state, t)
        wanted = {(c.verb.value, c.argument) for c in choices if not c.by_reply}
        helps = [c for c in choices if c.verb is ActionKind.HELP]
        if helps and all(c.by_reply for c in helps):  # too many to show: allies reply
            assert "reply with your mood" in html
        assert buttons == wanted, (panel.roll.phase, buttons ^ wanted)
        # Every choice is taken by whom it names (and by nobody else, for a button).
        for c in choices:
            verb, argument = sent(c, min(c.by), panel.roll)
            refused = refusal(t, state, min(c.by), verb, argument, seed)
            assert not refused, (panel.roll.phase, c, argument, refused)
            outsider = next(p for p in (1, 2, 3, 4, 5, 99) if p not in c.by)
            if not c.by_reply and c.verb not in (AfterRoll.TICK_CLOCK, AfterRoll.UNTICK_CLOCK):
                assert refusal(t, state, outsider, verb, argument, seed), (c, outsider)
        if any(c.verb in WEIGHED for c in choices):
            check_advice(t, state, panel.roll, seed)
        # Move on by one choice, drawn by the test (a reply's words where it takes words).
        kinds = list(dict.fromkeys(c.verb for c in choices if c.verb is not ActionKind.CANCEL))
        if not kinds:
            kinds = [ActionKind.CANCEL]
        kind = data.draw(st.sampled_from(kinds), label=f"kind {step}")
        choice = data.draw(st.sampled_from([c for c in choices if c.verb is kind]))
        actor = min(choice.by)
        verb, argument = sent(choice, actor, panel.roll)
        out = ROLL_RULES.act(t, state, actor, verb, argument, SeededRng(seed + step))
        t, state = settle(t, out), out.state
    assert out.closed or RollPanel.from_dict(state).roll.phase is not Phase.CANCELLED


# -- the other games: buttons are exactly the choices, and each is accepted ----------------


def panel_buttons(markup: Any) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for row in markup.inline_keyboard if markup is not None else ():
        for b in row:
            data = decode(b.callback_data)
            if isinstance(data, PanelButton):
                found.add((data.action, data.argument))
    return found


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_threat_roll_buttons_are_exactly_the_rules_choices(data: st.DataObject, seed: int) -> None:
    from core.rules.threat.table import roll_view
    from tests.tgbot.test_render_threat import ANA, RENDERER, RULES, table, view_of

    t = table()
    out = RULES.open(t, ANA, "", SeededRng(seed))
    for step in range(15):
        if out.closed:
            break
        choices = roll_view(t, out.state).choices
        _, markup = RENDERER.render(view_of(t, out.state), EN)
        assert panel_buttons(markup) == {(c.verb.value, c.argument) for c in choices}
        for c in choices:
            try:
                RULES.act(t, out.state, min(c.by), c.verb.value, c.argument, SeededRng(seed))
            except StonetableError as refused:
                raise AssertionError((c, refused)) from None
        if not choices:
            break
        choice = data.draw(st.sampled_from(choices), label=f"step {step}")
        out = RULES.act(
            t, out.state, min(choice.by), choice.verb.value, choice.argument, SeededRng(seed + step)
        )


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 10_000), dc=st.sampled_from(["dc12", "dc5", ""]))
def test_d20_check_buttons_are_exactly_the_rules_choices(
    data: st.DataObject, seed: int, dc: str
) -> None:
    from core.rules.d20check import SYSTEM as D20
    from core.rules.d20check.table import CheckPanelState, pool_counts
    from tests.tgbot.test_render_d20 import ANA
    from tests.tgbot.test_render_d20 import table as d20_table
    from tests.tgbot.test_render_d20 import view as d20_view
    from tgbot.render.d20 import CheckRenderer

    t = d20_table(lucky=2, unlucky=2, bo=True)
    rules = D20.panel("d20.check")
    out = rules.open(t, ANA, dc, SeededRng(seed))
    for step in range(40):
        if out.closed:
            break
        panel = CheckPanelState.from_dict(out.state)
        choices = panel.choices(pool_counts(t.state).playable())
        _, markup = CheckRenderer().render(d20_view(t, out), EN)
        assert panel_buttons(markup) == {(c.verb.value, c.argument) for c in choices}, step
        for c in choices:
            try:
                rules.act(t, out.state, min(c.by), c.verb.value, c.argument, SeededRng(seed))
            except StonetableError as refused:
                raise AssertionError((c, refused)) from None
        choice = data.draw(st.sampled_from(choices), label=f"step {step}")
        out = rules.act(
            t, out.state, min(choice.by), choice.verb.value, choice.argument, SeededRng(seed + step)
        )


def _cortex_game() -> Any:
    from tests.core.rules.cortex.test_campaign_panel import CLARK, LOIS, Game, _chidi

    g = Game()
    for line in ("value Justice d10", "value Love d8", "relationship Lois d8"):
        g.edit(CLARK, "text", text=line)
    for line in ("asset Farm Boy d8", "limit Kryptonite d10"):
        g.edit(CLARK, "text", text=line)
    for line in ("value Truth d10", "relationship Clark d8", "asset Reporter d8 ability"):
        g.edit(LOIS, "text", text=line)
    _chidi(g)
    return g


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    seed=st.integers(0, 10_000),
    start=st.sampled_from(["test", "contest Lex", "contest Chidi", "contest Lex vs Lois"]),
)
def test_cortex_conflict_buttons_are_exactly_the_rules_choices(
    data: st.DataObject, seed: int, start: str
) -> None:
    from tests.core.rules.cortex.test_campaign_panel import CLARK, LOIS, PANEL, WATCHTOWER
    from tests.tgbot.test_render_now_line import _cortex_view
    from tgbot.render.cortex import ConflictRenderer

    game = _cortex_game()
    for opener in (CLARK, LOIS, WATCHTOWER):  # whoever may start this one
        try:
            game.open(opener, start)
            break
        except StonetableError:
            continue
    for step in range(20):
        if game.closed or not game.panel or not game.view().current:
            break
        choices = game.view().choices
        _, markup = ConflictRenderer().render(_cortex_view(game), EN)
        assert panel_buttons(markup) == {(c.verb.value, c.argument) for c in choices}, step
        for c in choices:
            try:
                PANEL.act(
                    game.table, game.panel, min(c.by), c.verb.value, c.argument, SeededRng(seed)
                )
            except StonetableError as refused:
                raise AssertionError((c, refused)) from None
        if not choices:
            break
        choice = data.draw(st.sampled_from(choices), label=f"step {step}")
        out = PANEL.act(
            game.table,
            game.panel,
            min(choice.by),
            choice.verb.value,
            choice.argument,
            SeededRng(seed + step),
        )
        game.settle(out)
        game.panel, game.closed = out.state, out.closed


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_worldbuilding_buttons_are_exactly_the_rules_choices(data: st.DataObject) -> None:
    from core.rules.nsu import SYSTEM as NSU
    from core.rules.nsu.setup import ActionKind as SetupKind
    from core.rules.nsu.setup import SetupStep
    from core.rules.nsu.setup_panel import BoardVerb, board
    from tests.core.rules.nsu.table_support import ALICE, Harness
    from tests.tgbot.test_render_nsu import RENDER
    from tests.tgbot.test_render_nsu import view as setup_view

    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    rules = NSU.panel("nsu.setup")
    replies = {
        SetupKind.PROPOSE_TONE: "Weird & hopeful",
        SetupKind.BAN: "No dragons",
        SetupKind.MAKE_STATEMENT: "Walls & buses",
        SetupKind.ANSWER_SCOPE: "A week",
        SetupKind.NAME_RESOURCE: "Salt",
    }
    for step in range(40):
        b = board(h.table(), panel.state)
        if b is None or b.step is SetupStep.LOCATIONS:
            break
        choices = [c for c in b.button_choices() if c.verb is not BoardVerb.WRITE_LOCATIONS]
        _, markup = RENDER["nsu.setup"].render(setup_view(h, panel), EN)
        assert panel_buttons(markup) == {(c.verb.value, c.argument) for c in choices}, b.step
        for c in choices:
            try:
                rules.act(h.table(), panel.state, min(c.by), c.verb.value, c.argument, SeededRng(1))
            except StonetableError as refused:
                raise AssertionError((b.step, c, refused)) from None
        moves = [(min(c.by), c.verb.value, c.argument) for c in choices]
        moves += [
            (p, "text", f"{words} {step}")
            for kind, words in replies.items()
            for p in b.open_to(kind)
        ]
        actor, action, argument = data.draw(st.sampled_from(moves), label=f"step {step}")
        try:
            h.act(panel, actor, action, argument)
        except StonetableError:
            continue  # a reply the rules refuse (too long, a name taken...): nothing changed


DOWNTIME_REPLIES = (
    "Stiff wrist",  # a scar (Recover Harm)
    "1 3",  # skills that help a Seek Recovery
    "We rebuild the sluice",  # a plan
    "1 1",  # a reconnection
    "1 mind 6 Learn carpentry",  # a project
    "seeds",  # the resource a reward helps
    "Fierce",  # a mood's stronger name
    "swap 1 3",  # introspection
    "I sneak up",  # the Scout's outcome
    "Curious",  # the Scout's mood
    "+Rope",  # an edge or a detail
)
# The downtime actions a button starts, and its verb on the panel.
DOWNTIME_BUTTONS = {
    "RECOVER_HARM": "recover",
    "SEEK_RECOVERY": "seek",
    "INTROSPECT": "introspect",
    "RECONNECT": "reconnect",
    "UPGRADE_SKILLS": "upgrade",
    "SCOUT": "scout_pick",
    "PROPOSE_PLAN": "plan_pick",
    "WORK_ON_PROJECT": "project",
    "TRAIN_SKILLS": "train",
    "TICK_COLLATERAL": "tick",
    "UNTICK_COLLATERAL": "untick",
    "SPEND_MORE_TIME": "more_time",
    "BRING_REWARD_HOME": "reward",
    "VOTE_ON_PLAN": "vote",
    "ROLL_FOR_PLAN": "plan_roll",
    "SETTLE_PLAN": "plan_settle",
    "ADD_DIE_TO_PLAN": "plan_die",
    "REDUCE_MOOD": "clear",
    "FINISH_INTROSPECTION": "introspect_done",
    "ENDANGER_SENTIMENT": "endanger",
    "END_DOWNTIME": "end",
}


def downtime_shown(t: Table, state: Any) -> set[tuple[str, str]]:
    """The downtime panel's buttons as (action, argument); the private look as ("look", "")."""
    from tests.tgbot.test_render_nsu_play import view as play_view
    from tgbot.buttons.nsu import LookButton
    from tgbot.render.nsu_downtime import NsuDowntimeRenderer

    _, markup = NsuDowntimeRenderer().render(play_view(state, t), EN)
    found: set[tuple[str, str]] = set()
    for row in markup.inline_keyboard if markup is not None else ():
        for b in row:
            data = decode(b.callback_data)
            if isinstance(data, PanelButton):
                found.add((data.action, data.argument))
            elif isinstance(data, LookButton):
                found.add(("look", ""))
    return found


def downtime_reachable(state: Any, who: int) -> set[str]:
    """The verbs ``who`` finds on any page of the panel (the main one, each group, each
    player's own steps)."""
    from core.rules.nsu.downtime_panel import DowntimePanelState, Menu, panel_choices

    panel = DowntimePanelState.from_dict(state.panel)
    pages = [replace(panel, menu=m, focus=None) for m in Menu if m is not Menu.PLAYER]
    pages += [replace(panel, menu=Menu.PLAYER, focus=p) for p, _ in state.downtime.sheets]
    return {
        c.verb.value for page in pages for c in panel_choices(page, state.downtime) if who in c.by
    }


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 10_000), place=st.sampled_from(["home", "camp"]))
def test_downtime_buttons_are_exactly_the_rules_choices(
    data: st.DataObject, seed: int, place: str
) -> None:
    """Every button of the downtime prompt is one of the rules' choices and is accepted
    when pressed by someone it is open to; every downtime action the rules accept from a
    player is on a page of the panel that player can open."""
    from types import SimpleNamespace

    from core.rules.nsu.downtime import DowntimeKind
    from core.rules.nsu.downtime_panel import (
        DOWNTIME_RULES,
        Button,
        DowntimePanelState,
        current_downtime,
        panel_choices,
    )
    from tests.tgbot.test_render_nsu_play import settle

    hurt = character("Ana").add_harm("Bruised ribs")
    t = nsu_table(world((1, 2, 3), ticks=3), {1: hurt, 2: character("Bo"), 3: character("Cy")})
    out = DOWNTIME_RULES.open(t, 1, place, SeededRng(seed))
    t, panel_state = settle(t, out), out.state
    for step in range(30):
        if out.closed:
            break
        panel = DowntimePanelState.from_dict(panel_state)
        downtime = current_downtime(t)
        choices = panel_choices(panel, downtime)
        assert downtime_shown(t, panel_state) == {(c.verb.value, c.argument) for c in choices}
        for c in choices:
            assert c.by, c
            if c.verb is Button.LOOK:
                continue  # sent in private, not a step of the panel
            why = downtime_refusal(t, panel_state, min(c.by), c.verb.value, c.argument, seed)
            assert not why, (step, c, why)
        now = SimpleNamespace(panel=panel_state, downtime=downtime)
        for player, _ in downtime.sheets:
            reachable = downtime_reachable(now, player)
            for kind in DowntimeKind:
                verb = DOWNTIME_BUTTONS.get(kind.name)
                if verb is None or verb in reachable:
                    continue
                argument = {"vote": "yes", "plan_die": "body", "train": "body"}.get(verb, "1")
                argument = "0" if verb in ("tick", "untick", "more_time") else argument
                why = downtime_refusal(t, panel_state, player, verb, argument, seed)
                assert why, (step, player, kind, "accepted but on no page")
        presses = [
            (min(c.by), c.verb.value, c.argument) for c in choices if c.verb is not Button.LOOK
        ]
        presses += [(p, "text", words) for p in (1, 2, 3) for words in DOWNTIME_REPLIES]
        actor, action, argument = data.draw(st.sampled_from(presses), label=f"step {step}")
        try:
            out = DOWNTIME_RULES.act(
                t, panel_state, actor, action, argument, SeededRng(seed + step)
            )
        except StonetableError:
            continue  # a reply the rules refuse: nothing changed
        t, panel_state = settle(t, out), out.state


def downtime_refusal(t: Table, state: Any, actor: int, verb: str, argument: str, seed: int) -> str:
    from core.rules.nsu.downtime_panel import DOWNTIME_RULES

    try:
        DOWNTIME_RULES.act(t, state, actor, verb, argument, SeededRng(seed))
    except StonetableError as error:
        return repr(error)
    return ""


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_private_panels_buttons_are_exactly_the_rules_choices(data: st.DataObject) -> None:
    """The card-writing panel (with a saved card to rewrite), character creation and the
    lines-and-veils panel: each button is a choice of the rules, accepted from its owner."""
    from core.rules.nsu import SYSTEM as NSU
    from core.rules.nsu.cards_panel import cards_choices, cards_view
    from core.rules.nsu.character_panel import creation_choices, creation_view
    from core.rules.nsu.safety_panel import safety_choices
    from core.rules.nsu.setup_panel import board
    from tests.core.rules.nsu.table_support import (
        ALICE,
        Harness,
        build_to_locations,
        build_world,
        card_fields,
    )
    from tests.tgbot.test_render_nsu import RENDER
    from tests.tgbot.test_render_nsu import view as setup_view

    words = {
        "text": "Wren",
        "name": "Wren",
        "pronouns_and_look": "she/her",
        "moods": "Curious, Wary, Angry",
        "sentiments": "My compass\n-\nThe bell",
        "skills": "Climbing, Talking, Fixing",
        "rumours": "Heard of glass trees",
    }

    def walk(h: Harness, panel: Any, choices_of: Any, steps: int) -> None:
        rules = NSU.panel(panel.kind)
        for step in range(steps):
            if panel.closed:
                return
            choices = choices_of(panel)
            _, markup = RENDER[panel.kind].render(setup_view(h, panel), EN)
            assert panel_buttons(markup) == {
                (c.verb.value, c.argument) for c in choices if not c.by_reply
            }, (panel.kind, step)
            for c in choices:
                if c.by_reply:
                    continue
                try:
                    rules.act(h.table(), panel.state, ALICE, c.verb.value, c.argument, SeededRng(1))
                except StonetableError as refused:
                    raise AssertionError((panel.kind, c, refused)) from None
            if not choices:
                return
            c = data.draw(st.sampled_from(choices), label=f"{panel.kind} {step}")
            argument = c.argument or words.get(c.name, f"Answer {step}")
            try:
                panel = h.act(panel, ALICE, c.verb.value, argument)
            except StonetableError:
                continue  # words the rules refuse for this step: nothing changed

    h = Harness()
    setup = build_to_locations(h)
    cards = h.open("nsu.cards", ALICE)
    for value in card_fields(ALICE, 1):  # one card saved: it may be rewritten
        cards = h.act(cards, ALICE, "text", value)
    walk(h, cards, lambda p: cards_choices(cards_view(h.table(), p.state)), 12)
    assert board(h.table(), setup.state) is not None
    h = Harness()
    build_world(h)
    character = h.open("nsu.character", ALICE)
    walk(h, character, lambda p: creation_choices(creation_view(h.table(), p.state)), 14)
    safety = h.open("nsu.safety", ALICE, data.draw(st.sampled_from(["line", "veil"])))
    walk(h, safety, lambda p: safety_choices(p.state), 4)
