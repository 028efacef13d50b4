"""The "nsu.roll" panel: /act to details, on the table's JSON."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn, StonetableError
from core.rules.nsu.action_roll import Phase, TargetKind, Winner
from core.rules.nsu.play_table import character_of
from core.rules.nsu.roll_panel import ROLL_RULES, RollPanel, read_detail
from core.rules.nsu.terms import ResultRow
from core.rules.nsu.world import world_from_dict
from core.rules.rng import ScriptedRng
from core.rules.table import Outcome, Seat, Table
from tests.support.nsu_table import character, split, table, world

ANA, BEN, CY = 1, 2, 3
NO_DICE = ScriptedRng([])


def fresh(**kw: Any) -> Table:
    w = split(world((ANA, BEN, CY)), {ANA, BEN}, {CY})
    return table(w, {ANA: character("Ana"), BEN: character("Ben"), CY: character("Cy")}, **kw)


def settle(t: Table, outcome: Outcome) -> Table:
    """What the application does with an outcome: keep state and sheets."""
    seats = dict(t.seats)
    for p, s in outcome.sheets.items():
        seats[p] = Seat(p, seats[p].name, seats[p].roles, s)
    state = t.state if outcome.campaign_state is None else outcome.campaign_state
    return Table(t.campaign_id, t.system, json.loads(json.dumps(state)), seats)


class Driver:
    def __init__(self, t: Table, actor: int, text: str, faces: list[int] | None = None) -> None:
        self.rng = ScriptedRng(faces or [])
        self.table = t
        out = ROLL_RULES.open(t, actor, text, self.rng)
        self.state = json.loads(json.dumps(out.state))
        self.last = out

    def do(self, actor: int, action: str, argument: str = "") -> Outcome:
        out = ROLL_RULES.act(self.table, self.state, actor, action, argument, self.rng)
        self.state = json.loads(json.dumps(out.state))
        self.table = settle(self.table, out)
        self.last = out
        return out

    @property
    def panel(self) -> RollPanel:
        return RollPanel.from_dict(self.state)

    def sheet(self, player: int) -> Any:
        seat = self.table.seat(player)
        assert seat is not None
        return character_of(seat)


def test_open_takes_the_desired_outcome_and_the_arbiters_from_the_world() -> None:
    d = Driver(fresh(), ANA, "I cross the <rope> bridge")
    roll = d.panel.roll
    assert roll.phase is Phase.STAKES and roll.desired_outcome == "I cross the <rope> bridge"
    assert roll.arbiters == {CY} and roll.allies == {BEN}
    assert d.panel.card == "a"


def test_everyone_together_means_everyone_else_arbitrates_and_nobody_helps() -> None:
    w = world((ANA, BEN, CY))
    t = table(w, {ANA: character("Ana"), BEN: character("Ben"), CY: character("Cy")})
    roll = Driver(t, ANA, "").panel.roll
    assert roll.phase is Phase.DESIRED_OUTCOME
    assert roll.arbiters == {BEN, CY} and roll.allies == frozenset()


def test_off_screen_players_and_players_without_a_character_cannot_act() -> None:
    with pytest.raises(NotAllowedNow, match="off screen"):
        ROLL_RULES.open(fresh(), CY, "I help from afar", NO_DICE)
    t = fresh()
    seats = dict(t.seats)
    seats[BEN] = Seat(BEN, "Ben", seats[BEN].roles, {"draft": {}})
    with pytest.raises(NotAllowedNow, match="character first"):
        ROLL_RULES.open(replace(t, seats=seats), BEN, "x", NO_DICE)


def test_no_rolls_during_setup_or_downtime() -> None:
    with pytest.raises(NotAllowedNow):
        ROLL_RULES.open(fresh(phase="downtime"), ANA, "x", NO_DICE)
    with pytest.raises(NotAllowedNow):
        ROLL_RULES.open(fresh(phase="setup"), ANA, "x", NO_DICE)


def test_a_helped_roll_with_advantage_writes_details_scene_and_clock() -> None:
    # Body d4 with advantage: 3 and 1; Ana's Curious d8: 2; Ben helps with his Curious d8: 7.
    d = Driver(fresh(), ANA, "I cross the bridge", [3, 1, 2, 7])
    with pytest.raises(NotYourTurn):
        d.do(ANA, "choose_aspect", "body")
    d.do(CY, "choose_aspect", "body")
    d.do(CY, "choose_risk", "world")
    with pytest.raises(NotYourTurn):
        d.do(BEN, "choose_mood", "1")
    d.do(ANA, "choose_mood", "1")
    assert d.sheet(ANA).moods[0].level == 1  # written at once (ruling 1)
    d.do(ANA, "text", "+Rope ladder; +Calm weather")
    assert d.panel.roll.aspect_edge is not None and d.panel.roll.aspect_edge.value == "advantage"
    d.do(ANA, "roll")
    with pytest.raises(NotYourTurn):  # Ben's help button pressed by Ana
        d.do(ANA, "help", f"{BEN}.1")
    d.do(BEN, "help", f"{BEN}.1")
    with pytest.raises(NotYourTurn):
        d.do(CY, "keep_die", "aspect.1")
    d.do(ANA, "keep_die", "aspect.1")
    d.do(ANA, "take_helper_die", str(BEN))
    roll = d.panel.roll
    assert roll.phase is Phase.DONE and roll.outcome is not None
    assert roll.outcome.winner is Winner.PLAYER
    assert roll.outcome.row is ResultRow.WIN_WITH_ALLY
    assert d.sheet(BEN).moods[0].level == 1
    assert not d.last.closed

    with pytest.raises(NotYourTurn):
        d.do(CY, "text", "Stunned @ Guard")
    out = d.do(ANA, "text", "Knocked <out> @ The Guard")
    assert out.campaign_state is not None
    w = world_from_dict(out.campaign_state["world"])
    assert w.card("a").clock.ticks == 3  # ruling 8
    out = d.do(BEN, "text", "scene: Rope bridge cut")
    w = world_from_dict(d.table.state["world"])
    assert w.card("a").scene_details == ("Rope bridge cut",) and w.card("a").clock.ticks == 4
    assert out.closed
    added = d.panel.roll.added
    assert added[0].target.kind is TargetKind.NPC and added[0].target.name == "The Guard"


def test_harm_up_to_overcome_then_no_more_acting() -> None:
    t = fresh()
    hurt = character("Ana").add_harm("Bruised").add_harm("Cold")
    seats = dict(t.seats)
    seats[ANA] = Seat(ANA, "Ana", seats[ANA].roles, {"character": hurt.to_dict()})
    t = replace(t, seats=seats)
    # Mind d8: 1; Ana's Curious d8: 8 -> Character at risk, mood higher: Arbiters win by 7.
    d = Driver(t, ANA, "I talk the warden down", [1, 8])
    d.do(CY, "text", "mind character")
    d.do(ANA, "text", "curious")
    d.do(CY, "set_aspect_edge", "")
    d.do(ANA, "roll")
    d.do(ANA, "take_helper_die", "none")
    roll = d.panel.roll
    assert roll.outcome is not None and roll.outcome.row is ResultRow.BIG_WIN
    assert roll.outcome.winner is Winner.ARBITERS
    d.do(CY, "text", "harm: Sprained ankle")
    assert d.sheet(ANA).harms == ("Bruised", "Cold", "Sprained ankle")
    out = d.do(CY, "text", "harm: Shaken")
    assert d.sheet(ANA).overcome and out.closed
    with pytest.raises(NotAllowedNow, match="Overcome"):
        ROLL_RULES.open(d.table, ANA, "I get up", NO_DICE)


def test_skip_and_clock_buttons() -> None:
    d = Driver(fresh(), ANA, "I sneak past", [2, 2])
    d.do(CY, "choose_aspect", "mind")
    d.do(CY, "choose_risk", "world")
    d.do(ANA, "choose_mood", "3")
    d.do(ANA, "set_aspect_edge", "")
    d.do(ANA, "roll")
    d.do(ANA, "take_helper_die", "none")
    roll = d.panel.roll
    assert roll.outcome is not None and roll.outcome.winner is Winner.TIE
    with pytest.raises(NotYourTurn):
        d.do(ANA, "skip", "1")
    d.do(CY, "skip", "1")
    d.do(BEN, "tick")
    assert world_from_dict(d.table.state["world"]).card("a").clock.ticks == 3
    d.do(CY, "untick")
    with pytest.raises(NotAllowedNow):
        d.do(CY, "skip", "1")
    out = d.do(ANA, "skip", "0")
    assert out.closed


def test_cancel_puts_the_sheets_back() -> None:
    d = Driver(fresh(), ANA, "I jump")
    d.do(CY, "choose_aspect", "body")
    d.do(CY, "choose_risk", "character")
    d.do(ANA, "choose_mood", "1")
    assert d.sheet(ANA).moods[0].level == 1
    out = d.do(CY, "cancel")
    assert out.closed and d.sheet(ANA).moods[0].level == 0


def test_bad_text_is_malformed() -> None:
    d = Driver(fresh(), ANA, "I jump")
    with pytest.raises(Malformed):
        d.do(CY, "text", "maybe soon")
    d.do(CY, "text", "body world")
    with pytest.raises(Malformed):
        d.do(ANA, "text", "Gleeful")
    d.do(ANA, "text", "d8 Gleeful")
    assert d.sheet(ANA).moods[1].name == "Gleeful"


def test_read_detail_grammar() -> None:
    d = Driver(fresh(), ANA, "x")
    roll = d.panel.roll
    names = {ANA: "Ana P", BEN: "Ben P"}
    e = read_detail("harm: Cut @ ben", roll, CY, names, None)
    assert e.harm and e.target.player == BEN and e.detail.polarity.value == "negative"
    e = read_detail("Inspired", roll, ANA, names, None)
    assert e.target.player == ANA and e.detail.polarity.value == "positive"
    e = read_detail("+Friendly @ Warden", roll, ANA, names, None)
    assert e.target.kind is TargetKind.NPC and e.detail.polarity.value == "positive"
    e = read_detail("Flooded @ scene", roll, CY, names, None)
    assert e.target.kind is TargetKind.SCENE and e.detail.kind.value == "scene"
    with pytest.raises(Malformed):
        read_detail("harm:", roll, CY, names, None)


def test_a_scene_detail_without_a_sign_favours_the_side_that_adds_it() -> None:
    from core.rules.nsu.details import Polarity
    from core.rules.nsu.terms import Side

    roll = Driver(fresh(), ANA, "x").panel.roll
    names = {ANA: "Ana P", BEN: "Ben P"}

    def polarity(text: str, actor: int, **kw: object) -> Polarity:
        entry = read_detail(text, roll, actor, names, None, **kw)  # type: ignore[arg-type]
        return entry.detail.polarity

    # The winners shape the scene: the roller's side in its favour, the Arbiters against.
    assert polarity("scene: Bridge down", ANA) is Polarity.POSITIVE
    assert polarity("Rope holds @ scene", ANA, side=Side.PLAYER) is Polarity.POSITIVE
    assert polarity("scene: Flooded", CY) is Polarity.NEGATIVE
    assert polarity("scene: Flooded", ANA, side=Side.ARBITERS) is Polarity.NEGATIVE
    # A sign always decides; a grant that must be negative stays so.
    assert polarity("scene: -Bridge down", ANA) is Polarity.NEGATIVE
    assert polarity("scene: +Calm", CY) is Polarity.POSITIVE
    cost = read_detail("scene: Bridge down", roll, ANA, names, Polarity.NEGATIVE)
    assert cost.detail.polarity is Polarity.NEGATIVE


def test_a_scene_grant_takes_any_reply_as_a_scene_detail_and_scene_replies_prefer_it() -> None:
    # Mind d8: 1; Ana's Wary d6: 4 -> World at risk, mood higher by 3: a hard and a scene detail.
    d = Driver(fresh(), ANA, "I wade across", [1, 4])
    d.do(CY, "text", "mind world")
    d.do(ANA, "text", "wary")
    d.do(ANA, "text", "none")
    d.do(ANA, "roll")
    d.do(ANA, "take_helper_die", "none")
    roll = d.panel.roll
    assert roll.outcome is not None and roll.outcome.row is ResultRow.WIN_WITH_SCENE
    d.do(ANA, "text", "scene: Stepping stones")
    assert d.panel.roll.added[0].grant == 1  # the scene grant, not the hard one
    d.do(ANA, "text", "+Sure-footed")
    assert d.panel.roll.added[1].grant == 0 and d.sheet(ANA).details[0].name == "Sure-footed"
    w = world_from_dict(d.table.state["world"])
    assert w.card("a").scene_details == ("Stepping stones",)


# -- fuzz: any press or reply is applied or refused with a rules error -------------------

STEPS: list[tuple[int, str, str]] = [
    (CY, "choose_aspect", "body"),
    (CY, "choose_risk", "world"),
    (ANA, "choose_mood", "1"),
    (ANA, "set_aspect_edge", ""),
    (ANA, "roll", ""),
    (ANA, "take_helper_die", "none"),
]
ACTIONS = ["text", "skip", "tick", "untick", "help", "keep_die", "choose_mood", "roll", "cancel"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    depth=st.integers(0, len(STEPS)),
    actor=st.sampled_from([ANA, BEN, CY, 99]),
    action=st.sampled_from(ACTIONS) | st.text(max_size=12),
    argument=st.text(max_size=40),
)
def test_any_press_is_applied_or_refused_cleanly(
    depth: int, actor: int, action: str, argument: str
) -> None:
    d = Driver(fresh(), ANA, "I try", [3, 5, 4, 4, 4, 4])
    for who, name, arg in STEPS[:depth]:
        d.do(who, name, arg)
    before = json.dumps(d.state, sort_keys=True)
    try:
        out = ROLL_RULES.act(d.table, d.state, actor, action, argument, d.rng)
    except StonetableError:
        assert json.dumps(d.state, sort_keys=True) == before
        return
    RollPanel.from_dict(json.loads(json.dumps(out.state)))


def test_a_player_who_joined_after_worldbuilding_rolls_with_the_party_together() -> None:
    w = world((ANA, BEN))
    t = table(w, {ANA: character("Ana"), BEN: character("Ben"), CY: character("Cy")})
    roll = Driver(t, CY, "I catch up").panel.roll
    assert roll.roller == CY and roll.arbiters == {ANA, BEN}


def test_a_full_mood_track_asks_for_a_mark_and_a_stronger_name() -> None:
    t = fresh()
    full = character("Ana").raise_mood(0, 8)  # Curious d8 at 8 of 9 boxes
    seats = dict(t.seats)
    seats[ANA] = Seat(ANA, "Ana", seats[ANA].roles, {"character": full.to_dict()})
    # Mind d8: 2; Curious d8: 7 -> World at risk, mood higher: Ana wins by 5.
    d = Driver(replace(t, seats=seats), ANA, "I push on", [2, 7])
    d.do(CY, "text", "mind world")
    d.do(ANA, "choose_mood", "1")
    d.do(ANA, "set_aspect_edge", "")
    d.do(ANA, "roll")
    d.do(ANA, "take_helper_die", "none")
    assert d.panel.roll.phase is Phase.MOOD_EFFECTS
    with pytest.raises(NotYourTurn):
        d.do(ANA, "endanger_sentiment", f"{BEN}.1")
    d.do(ANA, "endanger_sentiment", f"{ANA}.2")
    with pytest.raises(NotYourTurn):
        d.do(CY, "text", "Obsessed")  # the winning side renames: Ana
    d.do(ANA, "text", "Obsessed")
    ana = d.sheet(ANA)
    assert ana.moods[0].name == "Obsessed" and ana.moods[0].level == 0
    assert ana.sentiments[1].state.value == "at_risk"
    assert d.panel.roll.phase is Phase.DONE
