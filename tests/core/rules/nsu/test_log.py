"""The NSU campaign log: rolls, details, clocks and moves, and never a face-down card's face."""

from __future__ import annotations

from dataclasses import replace

from core.rules.nsu.details import Detail, Polarity
from core.rules.nsu.log import nsu_log_lines
from core.rules.nsu.roll_state import (
    AddedDetail,
    DetailAdded,
    DetailTarget,
    RollSettled,
    TargetKind,
)
from core.rules.nsu.roll_state import (
    Outcome as RollOutcome,
)
from core.rules.nsu.terms import ResultRow, Winner
from core.rules.nsu.world import CardFlipped, ClockMoved, SceneDetailAdded, Travelled
from core.rules.table import Outcome, Table
from core.words.i18n import lang_for
from tests.core.rules.nsu.support import new_roll
from tests.support.nsu_table import character, table, world

ANA, BO, CY = 1, 2, 3


def _table() -> Table:
    return table(world((ANA, BO, CY)), {ANA: character("Ana"), BO: character("Bram")})


def _settled(winner: Winner, roller: int | None = None) -> RollSettled:
    return RollSettled(
        RollOutcome(
            aspect_face=5,
            skill_shift=1,
            mood_face=3,
            difference=3,
            winner=winner,
            row=ResultRow.WIN_WITH_SCENE,
            grants=(),
            suggested_collateral_ticks=0,
            helper_used=BO,
        ),
        roller,
    )


def test_a_settled_roll_names_the_roller_the_dice_and_the_winner() -> None:
    roll = new_roll()  # roller 1 is Ana at this table
    outcome = Outcome(state={"v": 1, "roll": roll.to_dict()}, events=(_settled(Winner.PLAYER),))
    (line,) = nsu_log_lines(_table(), outcome)
    assert line.kind == "roll" and line.player_ids == (ANA, BO)
    assert line.text == (
        "Ana rolled: Aspect 5+1 = 6 against Mood 3, with Bram's mood die: Ana wins by 3."
    )
    arbiters = Outcome(state={}, events=(_settled(Winner.ARBITERS),))
    assert "the Arbiters win" in nsu_log_lines(_table(), arbiters)[0].text


def test_a_roll_names_its_roller_wherever_the_panel_keeps_the_roll() -> None:
    """A downtime Scout's roll sits under ``scout`` in its panel, and a finished one may be
    gone from it: the settled roll names its roller all the same."""
    roll = new_roll()  # roller 1 is Ana
    scouting = {"v": 1, "scout": {"player": ANA, "card": "c", "roll": roll.to_dict()}}
    for state, settled in (
        (scouting, _settled(Winner.PLAYER)),
        ({"v": 1, "scout": None}, _settled(Winner.PLAYER, ANA)),
        ({}, _settled(Winner.PLAYER, ANA)),
    ):
        (line,) = nsu_log_lines(_table(), Outcome(state=state, events=(settled,)))
        assert line.text.startswith("Ana rolled:") and "Ana wins by 3" in line.text, state


def test_details_on_characters_and_things_are_logged_with_who_gave_them() -> None:
    harm = AddedDetail(
        0, CY, Detail("Broken wrist"), DetailTarget(TargetKind.CHARACTER, ANA), harm=True
    )
    boon = AddedDetail(
        1,
        ANA,
        Detail("Rope", polarity=Polarity.POSITIVE),
        DetailTarget(TargetKind.THING, name="the bridge"),
    )
    events = (DetailAdded(harm, collateral_tick=True, overcome=True), DetailAdded(boon, False))
    first, second = nsu_log_lines(_table(), Outcome(state={}, events=events))
    assert first.text == "Someone gave Ana the harm −Broken wrist. Ana is Overcome."
    assert first.kind == "detail" and first.player_ids == (CY, ANA)
    assert second.text == "Ana gave the bridge the detail +Rope."


def test_nothing_from_a_face_down_card_reaches_the_log() -> None:
    events = (
        ClockMoved("b", ANA, 0, 1),  # b is face down: its clock is secret
        SceneDetailAdded("b", "Fog"),
        CardFlipped("c", CY),  # c is still face down in this world
        ClockMoved("a", ANA, 2, 3),
        Travelled("b"),
        Travelled(None),
    )
    lines = nsu_log_lines(_table(), Outcome(state={}, events=events))
    text = " ".join(line.text for line in lines)
    assert "Glass Orchard" not in text and "Hollow Tower" not in text and "Fog" not in text
    assert [line.text for line in lines] == [
        "The <Drowned> Mill: Collateral Clock 2 → 3.",
        "The party went to b.",
        "The party went home.",
    ]


def test_an_arbiters_detail_is_credited_to_the_player_not_their_off_screen_character() -> None:
    roll = new_roll()  # Ana rolls alone; Bo (whose character is Bram) arbitrates
    harm = AddedDetail(
        0, BO, Detail("Rope burns"), DetailTarget(TargetKind.CHARACTER, ANA), harm=True
    )
    state = {"v": 1, "roll": roll.to_dict()}
    outcome = Outcome(state=state, events=(DetailAdded(harm, collateral_tick=False),))
    (line,) = nsu_log_lines(_table(), outcome)
    assert line.text == "P2 gave Ana the harm −Rope burns."  # told as any detail is
    assert "Bram" not in line.text
    by_ana = replace(harm, by=ANA)
    (own_line,) = nsu_log_lines(
        _table(), Outcome(state=state, events=(DetailAdded(by_ana, False),))
    )
    assert own_line.text == "Ana took the harm −Rope burns."  # given to herself: said once
    own = AddedDetail(1, ANA, Detail("Steady"), DetailTarget(TargetKind.SCENE))
    (line,) = nsu_log_lines(_table(), Outcome(state=state, events=(DetailAdded(own, False),)))
    assert line.text == "Ana gave the scene the detail −Steady."


def test_a_detail_a_character_gave_themselves_names_them_once() -> None:
    roll = new_roll()  # Ana rolls and writes her own harm down
    harm = AddedDetail(
        0, ANA, Detail("Scraped palms"), DetailTarget(TargetKind.CHARACTER, ANA), harm=True
    )
    state = {"v": 1, "roll": roll.to_dict()}
    outcome = Outcome(state=state, events=(DetailAdded(harm, collateral_tick=False),))
    (line,) = nsu_log_lines(_table(), outcome)
    assert line.text == "Ana took the harm −Scraped palms."
    assert line.words is not None
    russian = lang_for("ru").translations
    assert line.words.said(russian.gettext) == "Ana получает вред −«Scraped palms»."
