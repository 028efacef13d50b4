"""Threat dice at the table: seating, sheet edits and the threat.roll panel adapter."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn, StonetableError
from core.rules.registry import default_registry
from core.rules.rng import ScriptedRng, SeededRng
from core.rules.table import Json, Outcome, Role, Seat, Table
from core.rules.threat.dice import Result
from core.rules.threat.panel import ActionKind, Finished, Stage
from core.rules.threat.sheet import Approach, Sheet
from core.rules.threat.table import (
    ROLL_PANEL,
    ThreatCampaign,
    ThreatRollPanel,
    looks_like_threat_notation,
    may_edit,
    page_choices,
    roll_view,
)

GM, ANA, BO, CY = 1, 2, 3, 4
RULES = ThreatRollPanel()
CAMPAIGN = ThreatCampaign()


def sheet(**kwargs: Any) -> Json:
    base: dict[str, Any] = {"approaches": (Approach("Prowess", 3), Approach("Guile", 1))}
    return Sheet(**{**base, **kwargs}).to_dict()


def table(**sheets: Json) -> Table:
    seats = {
        GM: Seat(GM, "Gail", frozenset({Role.HOST, Role.GAME_MASTER}), Sheet().to_dict()),
        ANA: Seat(ANA, "Ana", frozenset({Role.PLAYER}), sheets.get("ana", sheet())),
        BO: Seat(BO, "Bo", frozenset({Role.PLAYER}), sheets.get("bo", sheet())),
        CY: Seat(CY, "Cy", frozenset({Role.PLAYER}), sheets.get("cy", sheet())),
    }
    return Table(1, "threat", {"v": 1}, seats)


def with_sheets(t: Table, outcome: Outcome) -> Table:
    seats = dict(t.seats)
    for pid, data in outcome.sheets.items():
        seats[pid] = Seat(pid, seats[pid].name, seats[pid].roles, data)
    return Table(t.campaign_id, t.system, t.state, seats)


def press(
    t: Table, state: Json, actor: int, action: str, argument: str = "", rng: Any = None
) -> tuple[Table, Outcome]:
    outcome = RULES.act(t, state, actor, action, argument, rng or SeededRng(1))
    return with_sheets(t, outcome), outcome


def test_threat_is_registered_with_a_gm_and_its_roll_panel() -> None:
    system = default_registry().find("threat")
    assert system.campaign.has_game_master
    assert system.roll_panel == ROLL_PANEL
    assert isinstance(system.panel(ROLL_PANEL), ThreatRollPanel)


def test_seated_member_gets_a_fresh_sheet_and_a_returning_one_keeps_theirs() -> None:
    t = table()
    empty = Table(1, "threat", {}, {**t.seats, ANA: Seat(ANA, "Ana", frozenset(), {})})
    _, fresh = CAMPAIGN.seated(empty, ANA)
    assert Sheet.from_dict(fresh) == Sheet()
    _, kept = CAMPAIGN.seated(t, ANA)
    assert Sheet.from_dict(kept).approach("Prowess").value == 3


def test_open_from_notation_fixes_dice_and_threat_from_the_sheet_momentum() -> None:
    t = table(ana=sheet(momentum=5, harm=1))
    outcome = RULES.open(t, ANA, "3d2t", SeededRng(1))
    view = roll_view(t, outcome.state)
    assert (view.panel.gm, view.panel.roller) == (GM, ANA)
    assert (view.panel.approach, view.panel.threat_level, view.panel.harm) == (3, 2, 1)
    assert view.fixed and view.approaches == ()
    assert view.momentum == 5
    assert view.odds is not None and not outcome.closed


@pytest.mark.parametrize("text", ["2d6+3", "d20", "banana", "4d6kh3", "2d6"])
def test_text_that_is_not_threat_notation_is_malformed_so_roll_falls_back(text: str) -> None:
    assert not looks_like_threat_notation(text)
    with pytest.raises(Malformed):
        RULES.open(table(), ANA, text, SeededRng(1))


@pytest.mark.parametrize("typed", ["Guile", "guile", "  GUILE "])
def test_an_approach_named_on_the_sheet_opens_the_roll_with_it_picked(typed: str) -> None:
    t = table()
    view = roll_view(t, RULES.open(t, ANA, typed, SeededRng(1)).state)
    assert (view.panel.roller, view.panel.approach_name, view.panel.approach) == (ANA, "Guile", 1)
    assert not view.fixed and len(view.approaches) == 2  # another may still be picked
    asked = roll_view(t, RULES.open(t, GM, f"for={ANA} Prowess", SeededRng(1)).state)
    assert (asked.panel.roller, asked.panel.approach_name) == (ANA, "Prowess")
    with pytest.raises(Malformed):  # the GM has no approaches of their own
        RULES.open(t, GM, "Guile", SeededRng(1))


@pytest.mark.parametrize(
    ("text", "hint"),
    [("0d9t", "at least one action die"), ("99d2t", "At most 9"), ("3d5t", "Threat runs")],
)
def test_threat_notation_out_of_range_is_refused_with_the_reason(text: str, hint: str) -> None:
    assert looks_like_threat_notation(text)
    with pytest.raises(NotAllowedNow, match=hint) as caught:
        RULES.open(table(), ANA, text, SeededRng(1))
    assert not isinstance(caught.value, Malformed)


def test_only_the_gm_opens_a_roll_for_another_player() -> None:
    t = table()
    state = RULES.open(t, GM, f"for={ANA}", SeededRng(1)).state
    assert roll_view(t, state).panel.roller == ANA
    with pytest.raises(NotYourTurn):
        RULES.open(t, BO, f"for={ANA} 3d", SeededRng(1))
    with pytest.raises(NotAllowedNow, match="isn't in this game"):
        RULES.open(t, GM, "for=999", SeededRng(1))


def test_a_full_roll_with_buttons_helper_and_burn_writes_momentum_back() -> None:
    t = table(ana=sheet(momentum=6))
    state = RULES.open(t, GM, f"for={ANA}", SeededRng(1)).state
    t, out = press(t, state, GM, "open_threat")
    t, out = press(t, out.state, GM, "set_threat", "2")
    t, out = press(t, out.state, ANA, "open_approach")
    t, out = press(t, out.state, ANA, "choose_approach", "0")
    t, out = press(t, out.state, ANA, "set_bonus", "expertise.on")
    t, out = press(t, out.state, BO, "join")
    view = roll_view(t, out.state)
    assert view.panel.pool.action_dice == 5 and view.panel.helper == BO
    # Ana 3d + expertise 1d, Bo 1d; threat 2d8: highest 3 (Botched), one cut -> Dire.
    t, out = press(t, out.state, ANA, "roll", rng=ScriptedRng([1, 2, 3, 1, 2, 7, 1]))
    view = roll_view(t, out.state)
    assert view.panel.stage is Stage.ROLLED and not out.closed
    assert view.panel.outcome is not None and view.panel.outcome.result is Result.DIRE
    # Burning puts 6 in place of the 3: Good, cut once -> Messy.
    assert view.burn_preview is not None and view.burn_preview.result is Result.MESSY
    assert {c.verb for c in view.choices} == {ActionKind.BURN, ActionKind.KEEP}
    t, out = press(t, out.state, ANA, "burn")
    assert out.closed
    assert Sheet.from_dict(t.seats[ANA].sheet).momentum == 2
    finished = [e for e in out.events if isinstance(e, Finished)]
    assert finished[0].result is Result.MESSY and finished[0].sharing_risk == (BO,)


def test_a_favourable_position_gains_momentum_on_the_sheet_before_the_roll() -> None:
    t = table(ana=sheet(momentum=1))
    state = RULES.open(t, ANA, "2d-2t", SeededRng(1)).state
    t, out = press(t, state, ANA, "roll", rng=ScriptedRng([4, 2]))
    assert out.closed  # Momentum 3: nothing to burn
    assert Sheet.from_dict(t.seats[ANA].sheet).momentum == 3


def test_the_roll_reads_momentum_and_harm_from_the_sheet_as_it_is_now() -> None:
    t = table()
    state = RULES.open(t, ANA, "3d1t", SeededRng(1)).state
    t = table(ana=sheet(momentum=4, harm=2))
    view = roll_view(t, state)
    assert (view.momentum, view.panel.harm, view.panel.pool.threat_dice) == (4, 2, 3)
    t, out = press(t, state, ANA, "roll", rng=ScriptedRng([1, 1, 1, 1, 1, 1]))
    assert roll_view(t, out.state).panel.stage is Stage.ROLLED


def test_burn_is_refused_when_the_sheet_momentum_fell_below_four_after_the_roll() -> None:
    t = table(ana=sheet(momentum=4))
    state = RULES.open(t, ANA, "1d", SeededRng(1)).state
    t, out = press(t, state, ANA, "roll", rng=ScriptedRng([2]))
    lowered = table(ana=sheet(momentum=3))
    with pytest.raises(NotAllowedNow, match="need 4"):
        press(lowered, out.state, ANA, "burn")
    _, kept = press(lowered, out.state, ANA, "keep")
    assert kept.closed and not kept.sheets


@pytest.mark.parametrize(
    ("actor", "action", "argument", "error"),
    [
        (ANA, "set_threat", "3", NotYourTurn),
        (ANA, "open_threat", "", NotYourTurn),
        (GM, "open_approach", "", NotYourTurn),
        (GM, "set_threat", "3", NotAllowedNow),  # the keypad is closed
        (ANA, "back", "", NotAllowedNow),  # nothing is open
        (BO, "roll", "", NotYourTurn),
        (BO, "choose_approach", "0", NotYourTurn),
        (ANA, "join", "", NotYourTurn),
        (GM, "join", "", NotYourTurn),
        (ANA, "roll", "", NotAllowedNow),  # no approach yet
        (ANA, "burn", "", NotAllowedNow),
        (ANA, "choose_approach", "7", NotAllowedNow),
        (ANA, "warp", "", Malformed),
        (ANA, "choose_approach", "0", NotAllowedNow),  # the list is closed
        (ANA, "set_bonus", "luck.on", Malformed),
        (GM, "outside_assist", "maybe", Malformed),
    ],
)
def test_refused_presses_raise_and_change_nothing(
    actor: int, action: str, argument: str, error: type[StonetableError]
) -> None:
    t = table()
    state = RULES.open(t, GM, f"for={ANA}", SeededRng(1)).state
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(error):
        RULES.act(t, state, actor, action, argument, SeededRng(1))
    assert json.dumps(state, sort_keys=True) == before


def test_notation_fixes_the_dice_so_no_approach_can_be_picked() -> None:
    t = table()
    state = RULES.open(t, ANA, "2d1t", SeededRng(1)).state
    verbs = {c.verb for c in roll_view(t, state).choices}
    assert not verbs & {ActionKind.CHOOSE_APPROACH, ActionKind.OPEN_APPROACH}
    with pytest.raises(NotAllowedNow, match="set: 2d"):
        RULES.act(t, state, ANA, "open_approach", "", SeededRng(1))


def test_choices_follow_the_stage_and_mark_the_current_options() -> None:
    t = table()
    state = RULES.open(t, GM, f"for={ANA}", SeededRng(1)).state
    _, out = press(t, state, GM, "open_threat")
    keypad = roll_view(t, out.state).choices
    assert [c.verb for c in keypad] == [ActionKind.SET_THREAT] * 7 + [ActionKind.BACK]
    assert [c.argument for c in keypad if c.selected] == ["0"]
    assert keypad[-1].by == {GM, ANA}
    with pytest.raises(Malformed):
        press(t, out.state, GM, "set_threat", "x")
    _, out = press(t, out.state, GM, "set_threat", "1")
    view = roll_view(t, out.state)
    kinds = [c.verb for c in view.choices]
    assert ActionKind.SET_THREAT not in kinds and ActionKind.CHOOSE_APPROACH not in kinds
    assert [c.argument for c in view.choices if c.verb is ActionKind.OPEN_THREAT] == ["1"]
    assert ActionKind.OPEN_APPROACH in kinds
    assert ActionKind.JOIN in kinds and ActionKind.ROLL not in kinds
    assert ActionKind.LEAVE not in kinds  # nobody is helping yet
    _, out = press(t, out.state, BO, "join")
    kinds = [c.verb for c in roll_view(t, out.state).choices]
    assert ActionKind.LEAVE in kinds and ActionKind.JOIN not in kinds
    assert ActionKind.OUTSIDE_ASSIST not in kinds


def test_the_approach_list_opens_picks_and_goes_back() -> None:
    t = table()
    state = RULES.open(t, GM, f"for={ANA}", SeededRng(1)).state
    _, opened = press(t, state, ANA, "open_approach")
    choices = roll_view(t, opened.state).choices
    assert [c.verb for c in choices] == [ActionKind.CHOOSE_APPROACH] * 2 + [ActionKind.BACK]
    assert all(c.by == {ANA} for c in choices[:2])
    _, back = press(t, opened.state, GM, "back")
    assert back.state == state and not back.events
    _, picked = press(t, opened.state, ANA, "choose_approach", "1")
    assert roll_view(t, picked.state).panel.approach_name is not None
    with pytest.raises(NotAllowedNow, match="list of approaches was closed: tap Approach"):
        press(t, picked.state, ANA, "choose_approach", "0")  # a stale press on the list
    with pytest.raises(NotAllowedNow, match="is open: pick from it or tap Back"):
        press(t, opened.state, ANA, "roll")


def test_a_roller_with_no_approaches_is_told_how_to_roll_rather_than_shown_no_dice() -> None:
    t = table(ana=Sheet().to_dict())
    with pytest.raises(NotAllowedNow, match=r"no approaches yet.*/sheet.*/threat 3d2t") as mine:
        RULES.open(t, ANA, "", SeededRng(1))
    with pytest.raises(NotAllowedNow, match="That player's sheet has no approaches") as theirs:
        RULES.open(t, GM, f"for={ANA}", SeededRng(1))
    assert mine.value.message_id != theirs.value.message_id
    typed = roll_view(t, RULES.open(t, ANA, "3d2t", SeededRng(1)).state)
    assert ActionKind.ROLL in {c.verb for c in typed.choices}  # the dice typed roll at once


def test_a_roller_whose_approaches_went_meanwhile_gets_no_list_to_open() -> None:
    t = table(ana=Sheet().to_dict())
    state = RULES.open(table(), ANA, "", SeededRng(1)).state  # the sheet emptied since
    assert ActionKind.OPEN_APPROACH not in {c.verb for c in roll_view(t, state).choices}
    with pytest.raises(NotAllowedNow, match="no approaches on your sheet"):
        press(t, state, ANA, "open_approach")


def test_no_panel_step_shows_more_than_eight_buttons() -> None:
    t = table()
    state = RULES.open(t, GM, f"for={ANA}", SeededRng(1)).state
    _, out = press(t, state, ANA, "open_approach")
    _, out = press(t, out.state, ANA, "choose_approach", "0")
    for step in (out.state, press(t, out.state, GM, "open_threat")[1].state):
        assert len(roll_view(t, step).choices) <= 8


def test_nobody_to_help_means_no_help_button() -> None:
    t = table()
    alone = Table(1, "threat", {}, {GM: t.seats[GM], ANA: t.seats[ANA]})
    state = RULES.open(alone, ANA, "", SeededRng(1)).state
    assert ActionKind.JOIN not in {c.verb for c in roll_view(alone, state).choices}


def test_cancel_closes_the_roll() -> None:
    t = table()
    state = RULES.open(t, ANA, "3d", SeededRng(1)).state
    _, out = press(t, state, GM, "cancel")
    assert out.closed and roll_view(t, out.state).panel.stage is Stage.CANCELLED


def test_impossible_settles_without_dice_and_closes() -> None:
    t = table()
    state = RULES.open(t, ANA, "3d4t", SeededRng(1)).state
    assert roll_view(t, state).odds is None
    _, out = press(t, state, ANA, "roll", rng=ScriptedRng([]))
    assert out.closed and roll_view(t, out.state).panel.no_roll is not None


@pytest.mark.parametrize(
    "state",
    [{}, {"v": 2}, {"v": 1, "panel": {}, "fixed": False}, {"v": 1, "panel": None, "fixed": "no"}],
)
def test_unreadable_roll_state_is_malformed(state: Json) -> None:
    with pytest.raises(Malformed):
        RULES.act(table(), state, ANA, "roll", "", SeededRng(1))


# --- sheet edits ---------------------------------------------------------------


def edit(t: Table, actor: int, action: str, **payload: Any) -> Sheet:
    outcome = CAMPAIGN.edit(t, actor, action, payload, SeededRng(0))
    ((_, data),) = outcome.sheets.items()
    return Sheet.from_dict(data)


def test_player_edits_own_approaches_and_notes() -> None:
    t = table()
    assert edit(t, ANA, "approach.set", name="Finesse", value=2).approach("Finesse").value == 2
    assert edit(t, ANA, "approach.set", name="prowess", value="4").approach("Prowess").value == 4
    gone = edit(t, ANA, "approach.remove", name="Guile")
    assert [a.name for a in gone.approaches] == ["Prowess"]
    assert edit(t, ANA, "notes", notes="<b>owes Bo</b>").notes == "<b>owes Bo</b>"


def test_player_moves_own_momentum_and_takes_harm_as_the_rules_say() -> None:
    t = table(ana=sheet(momentum=0))
    assert edit(t, ANA, "momentum.gain").momentum == 1
    below = edit(t, ANA, "momentum.lose")
    assert (below.momentum, below.harm) == (2, 1)  # ruling 16
    assert edit(t, ANA, "harm.take").harm == 1
    with pytest.raises(NotAllowedNow):
        edit(t, ANA, "harm.instead")  # not at 0
    paid = edit(table(ana=sheet(momentum=3)), ANA, "harm.instead")
    assert (paid.momentum, paid.harm) == (2, 0)


@pytest.mark.parametrize(
    ("actor", "action", "payload"),
    [
        (BO, "notes", {"player": ANA, "notes": "x"}),
        (BO, "momentum.gain", {"player": ANA}),
        (ANA, "harm.heal", {}),
        (ANA, "momentum.set", {"value": 6}),
        (GM, "notes", {"player": ANA, "notes": "x"}),
        (GM, "approach.set", {"player": ANA, "name": "X", "value": 1}),
    ],
)
def test_edits_outside_ones_rights_are_refused(actor: int, action: str, payload: Json) -> None:
    with pytest.raises(NotYourTurn):
        CAMPAIGN.edit(table(), actor, action, payload, SeededRng(0))


def test_the_gm_moves_momentum_and_heals_any_sheet() -> None:
    t = table(ana=sheet(momentum=2, harm=2))
    assert edit(t, GM, "momentum.set", player=ANA, value=6).momentum == 6
    assert edit(t, GM, "harm.heal", player=str(ANA)).harm == 1
    assert edit(t, GM, "momentum.lose", player=ANA).momentum == 1
    assert may_edit(t, GM, ANA) == {
        "momentum.gain",
        "momentum.lose",
        "momentum.set",
        "harm.take",
        "harm.instead",
        "harm.heal",
    }
    assert may_edit(t, BO, ANA) == frozenset()
    assert "notes" in may_edit(t, ANA, ANA) and "harm.heal" not in may_edit(t, ANA, ANA)


def test_the_sheet_page_reads_who_may_edit_and_see_what_from_the_rules() -> None:
    t = table()
    gm, ana = page_choices(t, GM), page_choices(t, ANA)
    assert gm.runs_table and not ana.runs_table
    assert set(gm.sheets) == set(ana.sheets) == {ANA, BO, CY}  # the GM has no sheet
    for player in (ANA, BO, CY):
        assert gm.sheet(player).edits == may_edit(t, GM, player)
        assert ana.sheet(player).edits == may_edit(t, ANA, player)
        assert ana.sheet(player).whole is (player == ANA)  # notes stay their owner's
        assert not gm.sheet(player).whole


@pytest.mark.parametrize(
    ("action", "payload", "error"),
    [
        ("rename", {}, Malformed),
        ("approach.set", {"name": "X", "value": 7}, Malformed),
        ("approach.set", {"name": "", "value": 1}, Malformed),
        ("approach.set", {"name": "X", "value": True}, Malformed),
        ("approach.remove", {"name": "Nope"}, Malformed),
        ("notes", {"notes": 5}, Malformed),
        ("notes", {"notes": "x" * 4001}, Malformed),
        ("momentum.gain", {"player": "someone"}, Malformed),
        ("momentum.gain", {"player": 999}, NotAllowedNow),
    ],
)
def test_bad_edits_are_refused(action: str, payload: Json, error: type[StonetableError]) -> None:
    with pytest.raises(error):
        CAMPAIGN.edit(table(), ANA, action, payload, SeededRng(0))


def test_momentum_gain_at_six_and_heal_at_zero_say_so() -> None:
    with pytest.raises(NotAllowedNow, match="already at 6"):
        CAMPAIGN.edit(table(ana=sheet(momentum=6)), ANA, "momentum.gain", {}, SeededRng(0))
    with pytest.raises(NotAllowedNow, match="no harm"):
        CAMPAIGN.edit(table(), GM, "harm.heal", {"player": ANA}, SeededRng(0))


_PAYLOAD = st.dictionaries(
    st.sampled_from(["name", "value", "notes", "player"]),
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 10_000),
        st.text(max_size=30),
        st.lists(st.integers(), max_size=2),
    ),
    max_size=4,
)


@settings(max_examples=200, deadline=None)
@given(
    actor=st.sampled_from([GM, ANA, BO]),
    action=st.sampled_from(
        [
            "approach.set",
            "approach.remove",
            "notes",
            "momentum.gain",
            "momentum.lose",
            "momentum.set",
            "harm.take",
            "harm.instead",
            "harm.heal",
            "x",
        ]
    ),
    payload=_PAYLOAD,
)
def test_any_edit_either_gives_a_valid_sheet_or_a_friendly_refusal(
    actor: int, action: str, payload: Json
) -> None:
    try:
        outcome = CAMPAIGN.edit(table(), actor, action, payload, SeededRng(0))
    except StonetableError:
        return
    for data in outcome.sheets.values():
        Sheet.from_dict(json.loads(json.dumps(data)))


_ACTIONS = [k.value for k in ActionKind] + ["nonsense"]
_ARGUMENTS = [
    "",
    "0",
    "1",
    "2",
    "-2",
    "4",
    "9",
    "x",
    "expertise.on",
    "expertise.off",
    "ability.on",
    "on",
    "off",
]


@settings(max_examples=150, deadline=None)
@given(
    start_momentum=st.integers(0, 6),
    opener=st.sampled_from([ANA, GM]),
    notation=st.sampled_from(["", "1d", "3d2t", "2d-2t", "6d3t", "3d4t"]),
    presses=st.lists(
        st.tuples(
            st.sampled_from([GM, ANA, BO, CY]),
            st.sampled_from(_ACTIONS),
            st.sampled_from(_ARGUMENTS),
            st.integers(0, 10_000),
        ),
        max_size=14,
    ),
)
def test_any_presses_keep_the_roll_readable_and_the_sheet_valid(
    start_momentum: int,
    opener: int,
    notation: str,
    presses: list[tuple[int, str, str, int]],
) -> None:
    t = table(ana=sheet(momentum=start_momentum))
    argument = f"for={ANA} {notation}" if opener == GM else notation
    state = RULES.open(t, opener, argument, SeededRng(1)).state
    closed = False
    for actor, action, arg, face in presses:
        view = roll_view(t, state)
        for choice in view.choices:  # every button shown is pressable by whom it names
            assert choice.by
            assert all(
                _accepts(t, state, who, choice.verb.value, choice.argument) for who in choice.by
            )
            assert not any(
                _accepts(t, state, who, choice.verb.value, choice.argument)
                for who in {GM, ANA, BO, CY} - choice.by
            )
        try:
            t, out = press(t, state, actor, action, arg, rng=SeededRng(face))
        except StonetableError:
            continue
        assert not closed, "a closed roll accepted a press"
        state = json.loads(json.dumps(out.state))
        closed = out.closed
        Sheet.from_dict(t.seats[ANA].sheet)
        if closed:
            assert roll_view(t, state).choices == ()


def _accepts(t: Table, state: Json, actor: int, action: str, argument: str) -> bool:
    try:
        RULES.act(t, state, actor, action, argument, ScriptedRng([3] * 20))
    except StonetableError:
        return False
    return True


def test_an_unreadable_sheet_still_shows_the_roll_but_refuses_presses() -> None:
    t = table()
    state = RULES.open(t, ANA, "2d1t", SeededRng(1)).state
    broken = table(ana={"approaches": "nope"})
    assert roll_view(broken, state).panel.approach == 2
    with pytest.raises(Malformed, match="can't be read"):
        RULES.act(broken, state, ANA, "roll", "", SeededRng(1))
