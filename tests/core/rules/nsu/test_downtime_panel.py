"""The "nsu.downtime" panel: complications, actions with their prompts, the Scout's roll."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn, StonetableError
from core.rules.nsu.campaign import Phase, campaign_of, character_of
from core.rules.nsu.downtime import clearable_moods
from core.rules.nsu.downtime_panel import (
    DOWNTIME_RULES,
    SEEK,
    DowntimePanelState,
    Menu,
    Prompt,
    current_downtime,
    enders,
    looks,
    menu_openers,
    prompt_of,
    scout_must_decide,
    scout_roll,
    scouted_card,
)
from core.rules.rng import ScriptedRng
from core.rules.table import Outcome, Seat, Table
from tests.support.nsu_table import character, table, world

ANA, BEN, CY = 1, 2, 3


def fresh(ana_harms: int = 0, ticks: int = 3) -> Table:
    ana = character("Ana")
    for i in range(ana_harms):
        ana = ana.add_harm(f"Hurt {i}")
    w = world((ANA, BEN, CY), ticks=ticks)
    return table(w, {ANA: ana, BEN: character("Ben"), CY: character("Cy")})


def settle(t: Table, outcome: Outcome) -> Table:
    seats = dict(t.seats)
    for p, s in outcome.sheets.items():
        seats[p] = Seat(p, seats[p].name, seats[p].roles, s)
    state = t.state if outcome.campaign_state is None else outcome.campaign_state
    return Table(t.campaign_id, t.system, json.loads(json.dumps(state)), seats)


class Driver:
    def __init__(self, t: Table, faces: list[int], place: str = "home") -> None:
        self.rng = ScriptedRng(faces)
        out = DOWNTIME_RULES.open(t, ANA, place, self.rng)
        self.table = settle(t, out)
        self.state: Any = json.loads(json.dumps(out.state))
        self.last = out

    def do(self, actor: int, action: str, argument: str = "") -> Outcome:
        out = DOWNTIME_RULES.act(self.table, self.state, actor, action, argument, self.rng)
        self.state = json.loads(json.dumps(out.state))
        self.table = settle(self.table, out)
        self.last = out
        return out

    def sheet(self, player: int) -> Any:
        return character_of(self.table.seat(player))

    @property
    def campaign(self) -> Any:
        return campaign_of(self.table)


def test_open_rolls_complications_and_moves_to_downtime() -> None:
    d = Driver(fresh(), [4])
    campaign = d.campaign
    assert campaign.phase is Phase.DOWNTIME and campaign.downtime is not None
    (roll,) = campaign.downtime.complications
    assert roll.card_id == "a" and roll.face == 4 and roll.options[0].value == "relations_worsen"
    assert d.sheet(ANA).recovery_points == 1  # rest easy at home
    assert d.state["log"][0]["t"] == "ComplicationRolled"
    with pytest.raises(NotAllowedNow):
        DOWNTIME_RULES.open(d.table, ANA, "home", ScriptedRng([]))


def test_seek_recovery_with_a_helper_then_recover_harm() -> None:
    d = Driver(fresh(ana_harms=4), [4, 3, 5])
    with pytest.raises(NotAllowedNow, match="Overcome"):
        d.do(ANA, "scout_pick")
    d.do(ANA, "seek")
    with pytest.raises(NotYourTurn):
        d.do(BEN, "seek_roll")
    d.do(BEN, "seek_help", str(ANA))
    with pytest.raises(Malformed):
        d.do(ANA, "text", "climbing")
    d.do(ANA, "text", "1")
    assert prompt_of(d.state, ANA) == Prompt(SEEK, helper=BEN, skills=(0,))
    d.do(ANA, "seek_roll")
    assert d.sheet(ANA).recovery_points == 4  # 1 + 3 + 1 (Climbing) + 5, capped at 4
    assert d.state["log"][-1]["skill_bonus"] == 1
    d.do(ANA, "recover")
    with pytest.raises(Malformed):
        d.do(ANA, "text", "9 Stiff")
    d.do(ANA, "text", "4 Stiff wrist")
    ana = d.sheet(ANA)
    assert ana.scars == ("Stiff wrist",) and not ana.overcome and ana.recovery_points == 0
    with pytest.raises(NotAllowedNow):
        d.do(ANA, "recover")


def test_scout_wins_and_may_look_only_themselves() -> None:
    # Complication 2; Ben's Body d4: 1, Curious d8: 6 -> World at risk, mood higher: he wins.
    d = Driver(fresh(), [2, 1, 6])
    d.do(BEN, "scout_pick")
    with pytest.raises(NotAllowedNow):
        d.do(BEN, "scout_card", "1")  # his own card
    with pytest.raises(NotYourTurn):
        d.do(CY, "scout_card", "2")
    d.do(BEN, "scout_card", "2")
    roll = scout_roll(d.state)
    assert roll is not None and roll.arbiters == {ANA, CY} and roll.desired_outcome is None
    d.do(BEN, "text", "I climb the ridge to look")
    d.do(CY, "choose_aspect", "body")
    d.do(ANA, "choose_risk", "world")
    d.do(BEN, "choose_mood", "1")
    d.do(BEN, "set_aspect_edge", "")
    d.do(BEN, "roll")
    assert looks(d.state) == {BEN: "c"}
    # Ben won by 5: two hard details, his to add; the panel waits for them.
    with pytest.raises(NotAllowedNow):
        d.do(BEN, "end")
    with pytest.raises(NotYourTurn):
        d.do(CY, "text", "Spotted")
    d.do(BEN, "text", "+Knows the way")
    assert d.sheet(BEN).details[0].name == "Knows the way"
    d.do(BEN, "skip", "1")
    assert scout_roll(d.state) is None
    w = d.campaign.world
    assert BEN in w.card("c").scouted_by and not w.card("c").revealed
    assert d.sheet(BEN).moods[0].level == 1
    downtime = d.campaign.downtime
    assert downtime.budget(BEN).actions_left == 0


def test_a_lost_scout_chooses_to_turn_back() -> None:
    d = Driver(fresh(), [2, 4, 1])
    d.do(BEN, "scout_pick")
    d.do(BEN, "scout_card", "2")
    for actor, action, arg in [
        (BEN, "text", "Look"),
        (CY, "choose_aspect", "body"),
        (CY, "choose_risk", "world"),
        (BEN, "choose_mood", "1"),
        (BEN, "set_aspect_edge", ""),
        (BEN, "roll", ""),
    ]:
        d.do(actor, action, arg)
    assert scout_roll(d.state) is not None
    with pytest.raises(NotYourTurn):
        d.do(CY, "scout_turn_back")
    d.do(BEN, "scout_turn_back")
    assert looks(d.state) == {} and BEN not in d.campaign.world.card("c").scouted_by
    assert scout_roll(d.state) is None  # turning back rejects the details


def test_a_lost_scout_presses_on_and_takes_the_arbiters_harm() -> None:
    d = Driver(fresh(), [2, 4, 1])
    d.do(BEN, "scout_pick")
    d.do(BEN, "scout_card", "2")
    for actor, action, arg in [
        (BEN, "text", "Look"),
        (CY, "text", "body world"),
        (BEN, "choose_mood", "1"),
        (BEN, "set_aspect_edge", ""),
        (BEN, "roll", ""),
    ]:
        d.do(actor, action, arg)
    assert scout_must_decide(DowntimePanelState.from_dict(d.state)) == BEN
    d.do(BEN, "scout_press_on")
    assert scout_must_decide(DowntimePanelState.from_dict(d.state)) is None
    assert looks(d.state) == {BEN: "c"}
    with pytest.raises(NotAllowedNow):
        d.do(BEN, "scout_turn_back")
    d.do(CY, "text", "harm: Twisted knee")
    assert d.sheet(BEN).harms == ("Twisted knee",)
    d.do(ANA, "text", "Rockfall")  # the scene grant: told, the card stays face down
    assert scout_roll(d.state) is None


def test_address_collateral_with_votes() -> None:
    d = Driver(fresh(ticks=3), [4, 8])
    d.do(CY, "plan_pick")
    with pytest.raises(NotAllowedNow):
        d.do(CY, "plan_card", "1")  # face down, no collateral
    d.do(CY, "plan_card", "0")
    d.do(CY, "text", "We <rebuild> the mill race")
    with pytest.raises(NotAllowedNow):
        d.do(CY, "plan_roll")
    d.do(ANA, "vote", "yes")
    d.do(BEN, "vote", "no")
    d.do(CY, "plan_roll")
    assert d.campaign.world.card("a").clock.ticks == 0  # 8 + 0 - 3 = 5 ticks off


def test_end_downtime_asks_to_confirm_then_goes_back_to_adventure_and_closes() -> None:
    d = Driver(fresh(), [4])
    with pytest.raises(NotAllowedNow):
        d.do(BEN, "end", "yes")  # a stale confirm without the question changes nothing
    out = d.do(BEN, "end")
    assert not out.closed and DowntimePanelState.from_dict(d.state).menu is Menu.END
    d.do(CY, "menu")  # Not yet: back to the panel, still in downtime
    assert DowntimePanelState.from_dict(d.state).menu is Menu.MAIN
    d.do(BEN, "end")
    out = d.do(CY, "end", "yes")
    assert out.closed and d.campaign.phase is Phase.ADVENTURE and d.campaign.downtime is None


def test_groups_open_for_whoever_may_use_them_and_any_step_closes_them() -> None:
    d = Driver(fresh(ana_harms=1), [4] + [3] * 10)
    d.do(BEN, "menu", "work")
    assert DowntimePanelState.from_dict(d.state).menu is Menu.WORK
    d.do(BEN, "menu", "train")
    d.do(BEN, "menu", "work")  # Back from Train goes to Work
    assert DowntimePanelState.from_dict(d.state).menu is Menu.WORK
    with pytest.raises(NotAllowedNow):
        d.do(42, "menu", "rest")  # no character here
    with pytest.raises(Malformed):
        d.do(BEN, "menu", "cellar")
    d.do(ANA, "recover")
    assert DowntimePanelState.from_dict(d.state).menu is Menu.MAIN
    assert "menu" not in d.state  # the main page stores as before


def test_one_players_own_steps_open_as_a_page_of_their_own() -> None:
    d = Driver(fresh(), [4] + [3] * 10)
    d.do(ANA, "seek")
    d.do(CY, "menu", f"p{ANA}")  # Cy looks at Ana's step, to help her
    panel = DowntimePanelState.from_dict(d.state)
    assert (panel.menu, panel.focus) == (Menu.PLAYER, ANA)
    assert d.state["focus"] == ANA and DowntimePanelState.from_dict(d.state) == panel
    for bad in ("p42", "player", "p"):
        with pytest.raises(Malformed):
            d.do(CY, "menu", bad)
    d.do(CY, "seek_help", str(ANA))
    panel = DowntimePanelState.from_dict(d.state)
    assert (panel.menu, panel.focus) == (Menu.MAIN, None)


def test_a_group_with_nothing_open_to_someone_stays_shut_for_them() -> None:
    d = Driver(fresh(), [4] + [3] * 10)
    d.do(CY, "introspect")
    d.do(CY, "introspect_done")  # Cy's action is spent
    panel = DowntimePanelState.from_dict(d.state)
    downtime = current_downtime(d.table)
    for menu in (Menu.REST, Menu.WORK, Menu.TRAIN, Menu.CLOCK, Menu.END):
        assert _accepted(d, CY, "menu", menu.value) == (CY in menu_openers(panel, downtime, menu))


def test_a_called_off_scout_roll_puts_the_mood_back() -> None:
    d = Driver(fresh(), [4])
    d.do(BEN, "scout_pick")
    d.do(BEN, "scout_card", "2")
    d.do(BEN, "text", "Look")
    d.do(CY, "text", "body world")
    d.do(BEN, "choose_mood", "1")
    assert d.sheet(BEN).moods[0].level == 1
    d.do(CY, "cancel")
    assert d.sheet(BEN).moods[0].level == 0 and scout_roll(d.state) is None
    assert d.campaign.downtime.budget(BEN).actions_left == 1


def test_introspection_train_and_unknown_steps() -> None:
    d = Driver(fresh(), [4, 2, 3])
    t = d.table
    sheets = dict(t.seats)
    ana = d.sheet(ANA).raise_mood(0, 3)
    sheets[ANA] = Seat(ANA, "Ana", sheets[ANA].roles, {"character": ana.to_dict()})
    d.table = replace(t, seats=sheets)
    d.do(ANA, "introspect")
    d.do(ANA, "clear", "1")
    d.do(ANA, "text", "swap 1 3")
    d.do(ANA, "introspect_done")
    assert d.sheet(ANA).moods[2].name == "Curious" and d.sheet(ANA).moods[2].level == 2
    d.do(BEN, "train", "mind")
    assert all("mind" in {a.value for a in s.marked} for s in d.sheet(BEN).skills)
    with pytest.raises(Malformed):
        d.do(BEN, "fly")


def test_ruling23_a_swap_that_fills_a_track_asks_for_a_mark_and_a_new_name() -> None:
    d = Driver(fresh(), [4, 2])
    sheets = dict(d.table.seats)
    ana = d.sheet(ANA).raise_mood(0, 7)  # Curious d8 at 7: too many for Angry's d4
    sheets[ANA] = Seat(ANA, "Ana", sheets[ANA].roles, {"character": ana.to_dict()})
    d.table = replace(d.table, seats=sheets)
    d.do(ANA, "introspect")
    d.do(ANA, "text", "swap 1 5")
    assert d.sheet(ANA).moods[4].name == "Curious" and d.sheet(ANA).moods[4].level == 0
    with pytest.raises(NotAllowedNow):
        d.do(ANA, "introspect_done")  # the full track's choices come first
    with pytest.raises(NotAllowedNow):
        d.do(BEN, "endanger", "1")  # Ben's moods are fine
    d.do(ANA, "endanger", "2")
    assert d.sheet(ANA).sentiments[1].state.value == "at_risk"
    d.do(ANA, "text", "Obsessed")
    assert d.sheet(ANA).moods[4].name == "Obsessed"
    assert [e["t"] for e in d.state["log"]][-3:] == [
        "MoodTrackFilled",
        "SentimentEndangered",
        "MoodRenamed",
    ]
    d.do(ANA, "introspect_done")


def test_more_time_and_the_reward_of_the_place_left() -> None:
    d = Driver(fresh(), [4, 6])
    d.do(CY, "more_time", "0")
    downtime = d.campaign.downtime
    assert downtime.budget(ANA).actions_left == 2 and len(downtime.complications) == 2
    d.do(BEN, "reward")
    d.do(BEN, "text", "seeds")
    w = d.campaign.world
    assert w.card("a").reward_claimed and w.resource("seeds").level.name == "NEUTRAL"
    with pytest.raises(NotAllowedNow):
        d.do(CY, "reward")


DOWNTIME_ACTIONS = [
    "text", "recover", "upgrade", "seek", "seek_help", "seek_roll", "scout_pick", "scout_card",
    "scout_press_on", "scout_turn_back", "plan_pick", "plan_card", "vote", "plan_roll",
    "plan_die", "plan_settle", "introspect", "clear", "introspect_done", "train", "reconnect",
    "project", "reward", "more_time", "tick", "untick", "end", "drop", "roll", "cancel",
    "endanger", "menu",
]  # fmt: skip


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    presses=st.lists(
        st.tuples(
            st.sampled_from([ANA, BEN, CY, 42]),
            st.sampled_from(DOWNTIME_ACTIONS) | st.text(max_size=8),
            st.sampled_from(["", "0", "1", "2", "yes", "mind", "healer", "x y", "9"])
            | st.text(max_size=20),
        ),
        max_size=8,
    )
)
def test_any_presses_are_applied_or_refused_cleanly(presses: list[tuple[int, str, str]]) -> None:
    d = Driver(fresh(ana_harms=1), [3] * 40)
    for actor, action, argument in presses:
        before = json.dumps([d.state, d.table.state], sort_keys=True)
        try:
            d.do(actor, action, argument)
        except StonetableError:
            assert json.dumps([d.state, d.table.state], sort_keys=True) == before


def _accepted(d: Driver, actor: int, action: str, argument: str = "") -> bool:
    try:
        DOWNTIME_RULES.act(d.table, d.state, actor, action, argument, ScriptedRng([3] * 10))
    except StonetableError:
        return False
    return True


def _check_choices(d: Driver) -> None:
    """The rules' lists of who may clear a mood or end downtime match what is accepted."""
    panel = DowntimePanelState.from_dict(d.state)
    assert panel.to_dict() == d.state  # the typed panel stores back exactly
    if d.campaign.downtime is None:
        return
    downtime = current_downtime(d.table)
    for player in (ANA, BEN, CY, 42):
        lines = clearable_moods(downtime, player)
        for line in range(6):
            assert _accepted(d, player, "clear", str(line + 1)) == (line in lines)
    who_ends = enders(panel, downtime)
    for player in (ANA, BEN, CY, 42):
        assert _accepted(d, player, "end") == (player in who_ends)
    decider = scout_must_decide(panel)
    for player in (ANA, BEN, CY):
        assert _accepted(d, player, "scout_turn_back") == (player == decider)


STEPS = [
    "introspect", "clear", "introspect_done", "scout_pick", "scout_card", "text",
    "choose_aspect", "choose_risk", "choose_mood", "set_aspect_edge", "roll",
    "take_helper_die", "vote", "plan_pick", "plan_card", "seek", "end", "scout_press_on",
]  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    presses=st.lists(
        st.tuples(
            st.sampled_from([ANA, BEN, CY]),
            st.sampled_from(STEPS),
            st.sampled_from(["", "1", "2", "body", "world", "none", "Look", "2 3"]),
        ),
        max_size=14,
    )
)
def test_the_rules_say_who_may_clear_a_mood_end_downtime_or_decide_a_scout(
    presses: list[tuple[int, str, str]],
) -> None:
    t = fresh()
    seats = dict(t.seats)
    ana = character_of(seats[ANA]).raise_mood(0, 3)
    seats[ANA] = Seat(ANA, "Ana", seats[ANA].roles, {"character": ana.to_dict()})
    d = Driver(replace(t, seats=seats), [2, 4, 1] + [3] * 40)
    _check_choices(d)
    for actor, action, argument in presses:
        try:
            out = d.do(actor, action, argument)
        except StonetableError:
            continue
        if out.closed:
            return
        _check_choices(d)


def test_only_the_scout_sees_the_scouted_card() -> None:
    d = Driver(fresh(), [2, 1, 6])
    d.do(BEN, "scout_pick")
    d.do(BEN, "scout_card", "2")
    for actor, action, arg in [
        (BEN, "text", "Look"),
        (CY, "text", "body world"),
        (BEN, "choose_mood", "1"),
        (BEN, "set_aspect_edge", ""),
        (BEN, "roll", ""),
    ]:
        d.do(actor, action, arg)
    panel = DowntimePanelState.from_dict(d.state)
    world = d.campaign.world
    assert scouted_card(panel, world, BEN).id == "c"
    for other in (ANA, CY, 42):
        with pytest.raises(NotYourTurn):
            scouted_card(panel, world, other)


# -- the log as typed events -------------------------------------------------------------

OLD_LOG = [  # a panel's log as rows stored before the log was read into typed events
    {
        "t": "ComplicationRolled",
        "roll": {"card_id": "a", "ticks": 3, "face": 4, "options": ["relations_worsen"]},
    },
    {"t": "HarmRecovered", "player_id": 1, "harm": "Bruise", "scar": "Mark", "cost": 1},
    {"t": "SentimentEndangered", "player_id": 2, "sentiment": 0, "state": "lost"},
    {"t": "PlanDieRolled", "player_id": 3, "aspect": "mind", "face": 5, "total": 9, "result": 1},
    {"t": "ResourceMoved", "name": "water", "before": None, "after": 2},
    {"t": "ClockMoved", "card_id": "L1", "by": None, "before": 3, "after": 4},
    {"t": "DowntimeEnded"},
]


def test_an_old_stored_log_reads_into_typed_events_and_is_stored_the_same() -> None:
    from core.rules.nsu import downtime as dt
    from core.rules.nsu.sheet import SentimentState
    from core.rules.nsu.terms import Aspect
    from core.rules.nsu.world import ClockMoved, ResourceLevel, ResourceMoved

    stored = {"v": 1, "prompts": {}, "scout": None, "looks": {}, "log": OLD_LOG}
    panel = DowntimePanelState.from_dict(stored)
    assert panel.log == (
        dt.ComplicationRolled(dt.ComplicationRoll("a", 3, 4, (dt.Complication.RELATIONS_WORSEN,))),
        dt.HarmRecovered(1, "Bruise", "Mark", 1),
        dt.SentimentEndangered(2, 0, SentimentState.LOST),
        dt.PlanDieRolled(3, Aspect.MIND, 5, 9, 1),
        ResourceMoved("water", None, ResourceLevel.ABUNDANCE),
        ClockMoved("L1", None, 3, 4),
        dt.DowntimeEnded(),
    )
    assert panel.to_dict() == stored  # written back exactly as it was read


def test_a_stored_log_entry_this_version_cannot_read_is_left_out() -> None:
    stored = {
        "v": 1,
        "log": [
            {"t": "SomethingRetired", "player_id": 1},  # a kind no longer kept
            {"t": "HarmRecovered", "player_id": 1, "harm": "Bruise"},  # fields missing
            {"t": "TimeSpent", "units": 1, "actions_each": 1, "extra": 2},  # a field unknown
            "not an entry",
            OLD_LOG[-1],
        ],
    }
    assert [type(e).__name__ for e in DowntimePanelState.from_dict(stored).log] == ["DowntimeEnded"]


def test_a_played_downtime_stores_its_log_as_tagged_events_that_read_back() -> None:
    from core.rules.nsu.downtime_panel import LOGGED_BY_NAME

    d = Driver(fresh(ana_harms=4), [4, 3, 5])
    d.do(ANA, "seek")
    d.do(BEN, "seek_help", str(ANA))
    d.do(ANA, "text", "1")
    d.do(ANA, "seek_roll")
    stored = d.state["log"]
    assert stored[0]["t"] == "ComplicationRolled" and stored[-1]["t"] == "RecoverySought"
    assert all(entry["t"] in LOGGED_BY_NAME for entry in stored)
    panel = DowntimePanelState.from_dict(d.state)
    assert len(panel.log) == len(stored)
    assert json.loads(json.dumps(panel.to_dict()))["log"] == stored


def test_back_from_a_group_is_open_to_everyone_who_sees_it() -> None:
    d = Driver(fresh(), [4] + [3] * 10)
    d.do(CY, "introspect")
    d.do(CY, "introspect_done")  # Cy's action is spent: nothing under Work is open to him
    d.do(BEN, "menu", Menu.WORK.value)
    d.do(BEN, "menu", Menu.TRAIN.value)
    panel = DowntimePanelState.from_dict(d.state)
    assert CY not in menu_openers(panel, current_downtime(d.table), Menu.WORK)
    d.do(CY, "menu", Menu.WORK.value)  # the page's Back button leads up to Work
    assert DowntimePanelState.from_dict(d.state).menu is Menu.WORK
    with pytest.raises(NotAllowedNow):
        d.do(CY, "menu", Menu.TRAIN.value)  # going down again is not open to him
