"""Every rule of the Cortex drama text, one named test each, driven through ``apply``."""

from __future__ import annotations

import pytest

from core.rules.cortex import actions as a
from core.rules.cortex.contest import acting_users, apply
from core.rules.cortex.dice import Die
from core.rules.cortex.pool import Pick, PickKind
from core.rules.cortex.state import Ending, Phase, Table
from core.rules.cortex.traits import StressEntry
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.rng import ScriptedRng
from tests.core.rules.cortex.conftest import (
    CHLOE_USER,
    CLARK_USER,
    LOIS_USER,
    WATCHTOWER,
    Driver,
    asset,
    rel,
    value,
)

ANGRY = Pick(PickKind.OPPONENT_STRESS, "Angry")


def refused(play: Driver, user: int, action: a.Action, error: type[Exception]) -> None:
    before = play.table
    with pytest.raises(error):
        apply(before, user, action, ScriptedRng([]))
    assert play.table == before


def start_test(play: Driver, *opposition: int) -> None:
    play(CLARK_USER, a.StartTest("Clark"))
    dice = tuple(Die.D8 for _ in opposition)
    play(WATCHTOWER, a.SetOpposition(dice), *opposition)


def build(play: Driver, user: int, *picks: Pick) -> None:
    for pick in picks:
        play(user, a.AddToPool(pick))


# --- pool building ---------------------------------------------------------


def test_one_free_trait_from_each_box(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"), rel("Lois"), asset("Farm Boy"))
    play(CLARK_USER, a.RollPool(), 6, 4, 3)
    assert play.sheet("Clark").plot_points == 2
    roll = play.table.conflict.roll  # type: ignore[union-attr]
    assert [r.die for r in roll.dice] == [Die.D10, Die.D8, Die.D8]


def test_another_different_trait_from_a_box_costs_a_plot_point(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"), value("Love"), asset("Farm Boy"))
    build(play, CLARK_USER, asset("Super Strength"))
    play(CLARK_USER, a.RollPool(), 2, 2, 2, 2)
    assert play.sheet("Clark").plot_points == 0
    paid = [e for e in play.events if isinstance(e, a.PlotPointsPaid)]
    assert paid == [a.PlotPointsPaid("Clark", "", 2, "extra traits")]


def test_the_same_trait_twice_is_refused(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"))
    refused(play, CLARK_USER, a.AddToPool(value("justice")), NotAllowedNow)


def test_unknown_trait_is_refused(play: Driver) -> None:
    start_test(play, 5, 4)
    refused(play, CLARK_USER, a.AddToPool(asset("Flight")), NotAllowedNow)


def test_challenged_value_rolls_three_dice_and_adds_growth(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice", challenge=True))
    play(CLARK_USER, a.RollPool(), 9, 8, 7)
    clark = play.sheet("Clark")
    assert clark.growth == (Die.D10,)
    assert clark.value("Justice").challenged
    assert any(isinstance(e, a.ValueChallenged) for e in play.events)


def test_a_value_is_challenged_once_per_episode(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice", challenge=True))
    play(CLARK_USER, a.RollPool(), 9, 8, 7)
    play(CLARK_USER, a.Settle())
    start_test(play, 5, 4)
    refused(play, CLARK_USER, a.AddToPool(value("Justice", challenge=True)), NotAllowedNow)
    play(WATCHTOWER, a.EndEpisode())
    start_test(play, 5, 4)
    play(CLARK_USER, a.AddToPool(value("Justice", challenge=True)))


def test_only_values_can_be_challenged() -> None:
    with pytest.raises(Malformed):
        Pick(PickKind.ASSET, "Farm Boy", challenge=True)


def test_opponent_stress_adds_its_die(play: Driver) -> None:
    play(CLARK_USER, a.StartContest("Clark", "Lex"))
    build(play, CLARK_USER, value("Justice"), ANGRY)
    play(CLARK_USER, a.RollPool(), 3, 6)
    roll = play.table.conflict.roll  # type: ignore[union-attr]
    assert [r.die for r in roll.dice] == [Die.D10, Die.D6]


def test_opponent_stress_must_exist(play: Driver) -> None:
    play(CLARK_USER, a.StartContest("Clark", "Lex"))
    refused(play, CLARK_USER, a.AddToPool(Pick(PickKind.OPPONENT_STRESS, "Afraid")), NotAllowedNow)


def test_opponent_limit_adds_three_dice(play: Driver) -> None:
    play(CLARK_USER, a.StartContest("Clark", "Lex"))
    build(play, CLARK_USER, Pick(PickKind.OPPONENT_LIMIT, "Paranoid"))
    play(CLARK_USER, a.RollPool(), 3, 6, 2)
    roll = play.table.conflict.roll  # type: ignore[union-attr]
    assert [r.die for r in roll.dice] == [Die.D8] * 3


def test_no_opponent_box_in_a_test(play: Driver) -> None:
    start_test(play, 5, 4)
    refused(play, CLARK_USER, a.AddToPool(ANGRY), NotAllowedNow)


def test_contest_extras_go_to_the_opponent(play: Driver) -> None:
    play(CLARK_USER, a.StartContest("Clark", "Lois"))
    build(play, CLARK_USER, value("Justice"), value("Love"))
    play(CLARK_USER, a.RollPool(), 5, 5)
    assert play.sheet("Clark").plot_points == 1
    assert play.sheet("Lois").plot_points == 2


def test_not_enough_plot_points_refuses_the_roll(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"), value("Love"), value("Truth"))
    build(play, CLARK_USER, asset("Farm Boy"), asset("Super Strength"))
    refused(play, CLARK_USER, a.RollPool(), NotAllowedNow)
    play(CLARK_USER, a.RemoveFromPool(value("Truth")))
    play(CLARK_USER, a.RollPool(), 2, 2, 2, 2)


def test_useful_detail_costs_a_plot_point_kept_from_the_opponent(play: Driver) -> None:
    play(CLARK_USER, a.StartContest("Clark", "Lois"))
    play(CLARK_USER, a.CreateDetail("Open window"))
    assert play.sheet("Clark").plot_points == 1
    assert play.sheet("Lois").plot_points == 1
    play(CLARK_USER, a.RollPool(), 4)
    roll = play.table.conflict.roll  # type: ignore[union-attr]
    assert roll.dice[0].die is Die.D6


def test_useful_detail_is_reused_free_for_the_scene(play: Driver) -> None:
    start_test(play, 2, 2)
    play(CLARK_USER, a.CreateDetail("Open window"))
    play(CLARK_USER, a.RollPool(), 4)
    play(CLARK_USER, a.Settle())
    start_test(play, 2, 2)
    play(CLARK_USER, a.AddToPool(Pick(PickKind.DETAIL, "Open window")))
    play(CLARK_USER, a.RollPool(), 4)
    assert play.sheet("Clark").plot_points == 1
    play(WATCHTOWER, a.EndScene())
    start_test(play, 2, 2)
    refused(play, CLARK_USER, a.AddToPool(Pick(PickKind.DETAIL, "Open window")), NotAllowedNow)


def test_lead_cannot_take_a_detail_from_trouble(play: Driver) -> None:
    play.table = Table.from_dict({**play.table.to_dict(), "trouble": [8]})
    start_test(play, 2, 2)
    refused(play, CLARK_USER, a.CreateDetail("x", from_trouble=Die.D8), NotAllowedNow)


def test_watchtower_detail_from_trouble_pays_the_opposing_player(play: Driver) -> None:
    play.table = Table.from_dict({**play.table.to_dict(), "trouble": [8, 4]})
    play(WATCHTOWER, a.StartContest("Lex", "Clark"))
    play(WATCHTOWER, a.CreateDetail("Hired goons", from_trouble=Die.D8))
    assert play.table.trouble == (Die.D4,)
    assert play.sheet("Clark").plot_points == 3
    play(WATCHTOWER, a.CreateDetail("Security", from_trouble=None))
    assert play.sheet("Clark").plot_points == 4
    dice = [d.die for d in play.table.details]
    assert dice == [Die.D8, Die.D6]


# --- aid -------------------------------------------------------------------


def test_aid_is_rolled_apart_and_adds_its_best_die(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"), asset("Farm Boy"))
    play(LOIS_USER, a.OfferAid("Lois", (value("Truth"), asset("Reporter"))))
    play(CLARK_USER, a.RollPool(), 6, 4, 9, 7)
    roll = play.table.conflict.roll  # type: ignore[union-attr]
    assert roll.result == 6 + 4 + 9
    assert len(roll.dice) == 2  # Aid is not in the pool


def test_aid_that_rolls_1_adds_nothing(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"))
    play(LOIS_USER, a.OfferAid("Lois", (asset("Reporter"),)))
    play(CLARK_USER, a.RollPool(), 6, 1)
    assert play.table.conflict.roll.result == 6  # type: ignore[union-attr]
    assert play.table.complications == ()  # Aid 1s are not Complications


def test_feature_aid_comes_from_the_watchtower(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"))
    refused(play, CLARK_USER, a.OfferAid("Lex", (asset("Billionaire"),)), NotYourTurn)
    play(WATCHTOWER, a.OfferAid("Lex", (asset("Billionaire"),)))


def test_aid_takes_one_trait_per_box(play: Driver) -> None:
    start_test(play, 5, 4)
    refused(play, LOIS_USER, a.OfferAid("Lois", (value("Truth"), value("Glory"))), Malformed)


def test_contestants_cannot_aid(play: Driver) -> None:
    play(CLARK_USER, a.StartContest("Clark", "Lois"))
    refused(play, LOIS_USER, a.OfferAid("Lois", (asset("Reporter"),)), NotAllowedNow)


def test_resource_aids_with_its_best_of_two(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"))
    play(CLARK_USER, a.UseResource("Fortress"))
    play(CLARK_USER, a.RollPool(), 6, 3, 7)
    assert play.table.conflict.roll.result == 13  # type: ignore[union-attr]
    assert not play.sheet("Clark").resource("Fortress").used_up


def test_using_a_resource_up_counts_both_dice(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"))
    play(CLARK_USER, a.UseResource("Fortress", use_up=True))
    play(CLARK_USER, a.RollPool(), 6, 3, 7)
    assert play.table.conflict.roll.result == 16  # type: ignore[union-attr]
    assert play.sheet("Clark").resource("Fortress").used_up
    play(CLARK_USER, a.Settle())
    start_test(play, 5, 4)
    refused(play, CLARK_USER, a.UseResource("Fortress"), NotAllowedNow)


# --- the roll ---------------------------------------------------------------


def test_result_is_the_two_highest_dice_that_are_not_1(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"), rel("Lois"), asset("Super Strength"))
    play(CLARK_USER, a.RollPool(), 1, 7, 5)
    assert play.table.conflict.roll.result == 12  # type: ignore[union-attr]


def test_all_ones_make_a_result_of_zero(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"), asset("Farm Boy"))
    play(CLARK_USER, a.RollPool(), 1, 1)
    assert play.table.conflict.roll.result == 0  # type: ignore[union-attr]


def test_include_more_dice_for_a_plot_point_each(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"), rel("Lois"), asset("Super Strength"))
    play(CLARK_USER, a.RollPool(), 4, 7, 5)
    play(CLARK_USER, a.IncludeDie())
    assert play.table.conflict.roll.result == 16  # type: ignore[union-attr]
    assert play.sheet("Clark").plot_points == 1


def test_a_1_can_never_be_included(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"), rel("Lois"), asset("Super Strength"))
    play(CLARK_USER, a.RollPool(), 1, 7, 5)
    refused(play, CLARK_USER, a.IncludeDie(), NotAllowedNow)


def test_contest_included_dice_pay_the_opponent(play: Driver) -> None:
    play(CLARK_USER, a.StartContest("Clark", "Lois"))
    build(play, CLARK_USER, value("Justice"), rel("Lois"), asset("Super Strength"))
    play(CLARK_USER, a.RollPool(), 4, 7, 5)
    play(CLARK_USER, a.IncludeDie())
    assert play.sheet("Lois").plot_points == 2


# --- Complications and Trouble (ruling 17) ---------------------------------


def test_lead_1s_are_complications_the_watchtower_buys_into_trouble(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"), asset("Farm Boy"))
    play(CLARK_USER, a.RollPool(), 6, 1)
    assert [c.die for c in play.table.complications] == [Die.D8]
    refused(play, CLARK_USER, a.ActivateComplication(0), NotYourTurn)
    play(WATCHTOWER, a.ActivateComplication(0))
    assert play.table.trouble == (Die.D8,)
    assert play.sheet("Clark").plot_points == 3
    assert play.table.complications == ()


def test_complications_stay_open_after_the_roll_ends(play: Driver) -> None:
    start_test(play, 8, 8)
    build(play, CLARK_USER, value("Justice"), asset("Farm Boy"))
    play(CLARK_USER, a.RollPool(), 6, 1)
    play(CLARK_USER, a.Settle())
    play(WATCHTOWER, a.ActivateComplication(0))
    assert play.table.trouble == (Die.D8,)


def test_watchtower_1s_let_a_player_remove_trouble_of_that_size_or_smaller(
    play: Driver,
) -> None:
    play.table = Table.from_dict({**play.table.to_dict(), "trouble": [10, 8, 6]})
    play(CLARK_USER, a.StartTest("Clark"))
    play(WATCHTOWER, a.SetOpposition((Die.D8, Die.D8)), 1, 5)
    assert [o.die for o in play.table.watchtower_ones] == [Die.D8]
    refused(play, LOIS_USER, a.CancelTrouble(0, 0), NotAllowedNow)  # d10 > d8
    refused(play, WATCHTOWER, a.CancelTrouble(0, 1), NotYourTurn)
    play(LOIS_USER, a.CancelTrouble(0, 1))
    assert play.table.trouble == (Die.D10, Die.D6)
    assert play.sheet("Lois").plot_points == 1  # free


def test_feature_1s_are_watchtower_1s(play: Driver) -> None:
    play(WATCHTOWER, a.StartContest("Lex", "Clark"))
    build(play, WATCHTOWER, value("Power"), asset("Billionaire"))
    play(WATCHTOWER, a.RollPool(), 1, 4)
    assert play.table.complications == ()
    assert [o.die for o in play.table.watchtower_ones] == [Die.D12]


# --- Tests ------------------------------------------------------------------


def test_a_test_needs_a_result_above_the_opposition(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"), asset("Farm Boy"))
    play(CLARK_USER, a.RollPool(), 5, 4)
    play(CLARK_USER, a.Settle())
    assert play.table.conflict.ending is Ending.FAILURE  # type: ignore[union-attr]
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"), asset("Farm Boy"))
    play(CLARK_USER, a.RollPool(), 6, 4)
    play(CLARK_USER, a.Settle())
    assert play.table.conflict.ending is Ending.SUCCESS  # type: ignore[union-attr]


def test_only_the_watchtower_sets_opposition_and_only_first(play: Driver) -> None:
    play(CLARK_USER, a.StartTest("Clark"))
    refused(play, CLARK_USER, a.SetOpposition((Die.D8,)), NotYourTurn)
    refused(play, CLARK_USER, a.AddToPool(value("Justice")), NotAllowedNow)
    assert acting_users(play.table) == {WATCHTOWER}


def test_one_roll_at_a_time(play: Driver) -> None:
    play(CLARK_USER, a.StartTest("Clark"))
    refused(play, LOIS_USER, a.StartTest("Lois"), NotAllowedNow)


def test_only_the_player_or_watchtower_calls_a_test(play: Driver) -> None:
    refused(play, LOIS_USER, a.StartTest("Clark"), NotYourTurn)
    play(WATCHTOWER, a.StartTest("Clark"))


# --- Contests ---------------------------------------------------------------


def contest_to_yielding(play: Driver, clark: tuple[int, int], lex: tuple[int, int]) -> None:
    play(CLARK_USER, a.StartContest("Clark", "Lex"))
    build(play, CLARK_USER, value("Justice"), rel("Chloe"))
    play(CLARK_USER, a.RollPool(), *clark)
    play(CLARK_USER, a.Settle())
    build(play, WATCHTOWER, value("Power"), asset("Billionaire"))
    play(WATCHTOWER, a.RollPool(), *lex)
    play(WATCHTOWER, a.Settle())


def test_contest_actor_sets_the_action_then_the_reactor_answers(play: Driver) -> None:
    play(CLARK_USER, a.StartContest("Clark", "Lex"))
    assert acting_users(play.table) == {CLARK_USER}
    build(play, CLARK_USER, value("Justice"), rel("Chloe"))
    play(CLARK_USER, a.RollPool(), 7, 5)
    refused(play, WATCHTOWER, a.Settle(), NotYourTurn)
    play(CLARK_USER, a.Settle())
    assert play.events == (a.ActionSet("Clark", 12, False),)
    assert acting_users(play.table) == {WATCHTOWER}


def test_reactor_who_beats_the_action_becomes_the_actor_and_pools_are_reused(
    play: Driver,
) -> None:
    contest_to_yielding(play, (7, 5), (9, 8))
    c = play.table.conflict
    assert c is not None and c.actor == "Lex" and c.reactor == "Clark" and c.to_beat == 17
    assert c.phase is Phase.BUILDING and c.roller == "Clark"
    assert c.draft.picks == (value("Justice"), rel("Chloe"))
    play(CLARK_USER, a.RollPool(), 3, 2)  # same pool, no new cost
    assert play.sheet("Clark").plot_points == 2


def test_a_tie_goes_to_the_actor(play: Driver) -> None:
    contest_to_yielding(play, (7, 5), (6, 6))
    c = play.table.conflict
    assert c is not None and c.phase is Phase.YIELDING and c.margin == 0
    assert play.events == (a.ActorWon("Clark", "Lex", 0),)


def test_reactor_may_give_in_instead_of_rolling(play: Driver) -> None:
    play(CLARK_USER, a.StartContest("Clark", "Lex"))
    refused(play, WATCHTOWER, a.GiveIn(), NotAllowedNow)  # no Action yet
    build(play, CLARK_USER, value("Justice"))
    play(CLARK_USER, a.RollPool(), 7)
    play(CLARK_USER, a.Settle())
    refused(play, CLARK_USER, a.GiveIn(), NotYourTurn)
    play(WATCHTOWER, a.GiveIn())
    c = play.table.conflict
    assert c is not None and c.ending is Ending.GAVE_IN and c.winner == "Clark"


def test_beaten_reactor_gives_in_to_avoid_stress(play: Driver) -> None:
    contest_to_yielding(play, (7, 5), (3, 2))
    play(WATCHTOWER, a.GiveIn())
    assert play.sheet("Lex").stress == (StressEntry("Angry", Die.D6),)
    assert play.table.conflict.ending is Ending.GAVE_IN  # type: ignore[union-attr]


def test_actor_inflicts_stress_when_the_reactor_takes_it(play: Driver) -> None:
    contest_to_yielding(play, (7, 5), (3, 2))
    play(WATCHTOWER, a.TakeStress())
    refused(play, WATCHTOWER, a.InflictStress("Afraid"), NotYourTurn)
    play(CLARK_USER, a.InflictStress("Afraid"), 4, 6)
    assert play.sheet("Lex").stress_of("Afraid") is Die.D6
    assert play.table.conflict.ending is Ending.STRESS  # type: ignore[union-attr]


def test_win_by_five_or_more_may_stress_out(play: Driver) -> None:
    contest_to_yielding(play, (7, 5), (4, 3))
    play(WATCHTOWER, a.TakeStress())
    play(CLARK_USER, a.DeclareStressedOut())
    assert play.sheet("Lex").stressed_out
    refused(play, WATCHTOWER, a.StartTest("Lex"), NotAllowedNow)
    play(WATCHTOWER, a.EndScene())
    assert not play.sheet("Lex").stressed_out


def test_win_by_four_may_not_stress_out(play: Driver) -> None:
    contest_to_yielding(play, (7, 5), (4, 4))
    play(WATCHTOWER, a.TakeStress())
    refused(play, CLARK_USER, a.DeclareStressedOut(), NotAllowedNow)


def test_give_in_only_when_reacting(play: Driver) -> None:
    start_test(play, 5, 4)
    refused(play, CLARK_USER, a.GiveIn(), NotAllowedNow)


# --- inflicting Stress -----------------------------------------------------


def test_stress_pool_is_the_winning_roll_without_1s_or_aid(play: Driver) -> None:
    play(CLARK_USER, a.StartContest("Clark", "Lex"))
    build(play, CLARK_USER, value("Justice"), rel("Chloe"), asset("Farm Boy"))
    play(LOIS_USER, a.OfferAid("Lois", (asset("Reporter"),)))
    play(CLARK_USER, a.RollPool(), 7, 1, 5, 8)
    play(CLARK_USER, a.Settle())
    assert play.table.conflict.stress_pool == (Die.D10, Die.D8)  # type: ignore[union-attr]
    build(play, WATCHTOWER, value("Power"))
    play(WATCHTOWER, a.RollPool(), 2)
    play(WATCHTOWER, a.Settle())
    play(WATCHTOWER, a.TakeStress())
    play(CLARK_USER, a.InflictStress("Insecure"), 3, 3)  # exactly two dice are rolled
    assert play.sheet("Lex").stress_of("Insecure") is Die.D10  # tie: the larger die


def test_stress_size_comes_from_the_die_that_rolled_highest(play: Driver) -> None:
    contest_to_yielding(play, (7, 5), (3, 2))  # Clark's pool: d10, d6
    play(WATCHTOWER, a.TakeStress())
    play(CLARK_USER, a.InflictStress("Afraid"), 2, 5)
    assert play.sheet("Lex").stress_of("Afraid") is Die.D6


def test_stress_of_that_size_or_higher_steps_up(play: Driver) -> None:
    contest_to_yielding(play, (7, 5), (3, 2))
    play(WATCHTOWER, a.TakeStress())
    play(CLARK_USER, a.InflictStress("Angry"), 2, 5)  # d6 on Angry d6
    assert play.sheet("Lex").stress_of("Angry") is Die.D8
    change = next(e for e in play.events if isinstance(e, a.StressInflicted)).change
    assert change.stepped_up and change.before is Die.D6


def test_a_stress_roll_of_only_1s_inflicts_nothing(play: Driver) -> None:
    contest_to_yielding(play, (7, 5), (3, 2))
    play(WATCHTOWER, a.TakeStress())
    play(CLARK_USER, a.InflictStress("Afraid"), 1, 1)
    assert play.sheet("Lex").stress_of("Afraid") is None
    assert play.table.conflict.ending is Ending.STRESS  # type: ignore[union-attr]


def test_assets_increase_or_decrease_the_stress_pool(play: Driver) -> None:
    contest_to_yielding(play, (7, 5), (3, 2))
    play(WATCHTOWER, a.TakeStress())
    refused(play, CLARK_USER, a.InflictStress("Afraid", remove=(Die.D12,)), NotAllowedNow)
    play(CLARK_USER, a.InflictStress("Afraid", add=(Die.D12,), remove=(Die.D10,)), 2, 9)
    assert play.sheet("Lex").stress_of("Afraid") is Die.D12


def test_stress_type_must_be_a_campaign_type(play: Driver) -> None:
    contest_to_yielding(play, (7, 5), (3, 2))
    play(WATCHTOWER, a.TakeStress())
    refused(play, CLARK_USER, a.InflictStress("Hungry"), Malformed)


# --- Stress Relief ----------------------------------------------------------


def stressed(play: Driver) -> None:
    clark = play.sheet("Clark").with_stress("Afraid", Die.D8).with_stress("Angry", Die.D6)
    play.table = play.table.with_sheet(clark)


def test_relief_that_beats_all_the_stress_clears_one_type_into_growth(play: Driver) -> None:
    stressed(play)
    play(LOIS_USER, a.StartRelief("Lois", "Clark", "afraid"))
    refused(play, LOIS_USER, a.RollStressOpposition(), NotYourTurn)
    play(CLARK_USER, a.RollStressOpposition(), 5, 3)  # Afraid d8, Angry d6
    build(play, LOIS_USER, value("Truth"), asset("Reporter"))
    play(LOIS_USER, a.RollPool(), 6, 3)
    play(LOIS_USER, a.Settle())
    clark = play.sheet("Clark")
    assert clark.stress_of("Afraid") is None and clark.stress_of("Angry") is Die.D6
    assert clark.growth == (Die.D8,)
    assert play.table.conflict.ending is Ending.RELIEVED  # type: ignore[union-attr]


def test_relief_that_does_not_beat_the_stress_changes_nothing(play: Driver) -> None:
    stressed(play)
    play(LOIS_USER, a.StartRelief("Lois", "Clark", "Afraid"))
    play(CLARK_USER, a.RollStressOpposition(), 5, 4)
    build(play, LOIS_USER, value("Truth"), asset("Reporter"))
    play(LOIS_USER, a.RollPool(), 6, 3)
    play(LOIS_USER, a.Settle())
    assert play.sheet("Clark").stress_of("Afraid") is Die.D8
    assert play.table.conflict.ending is Ending.NOT_RELIEVED  # type: ignore[union-attr]


def test_only_another_character_relieves_stress(play: Driver) -> None:
    stressed(play)
    refused(play, CLARK_USER, a.StartRelief("Clark", "Clark", "Afraid"), NotAllowedNow)
    refused(play, LOIS_USER, a.StartRelief("Lois", "Clark", "Insecure"), NotAllowedNow)


def test_episode_end_steps_all_stress_back_without_growth(play: Driver) -> None:
    clark = play.sheet("Clark").with_stress("Afraid", Die.D8).with_stress("Angry", Die.D4)
    play.table = play.table.with_sheet(clark)
    refused(play, CLARK_USER, a.EndEpisode(), NotYourTurn)
    play(WATCHTOWER, a.EndEpisode())
    clark = play.sheet("Clark")
    assert clark.stress == (StressEntry("Afraid", Die.D6),)
    assert clark.growth == ()


# --- Interfering ------------------------------------------------------------


def interfere(play: Driver, *faces: int) -> None:
    play(CLARK_USER, a.StartContest("Clark", "Lex"))
    build(play, CLARK_USER, value("Justice"), rel("Chloe"))
    play(CLARK_USER, a.RollPool(), 7, 5)
    play(CLARK_USER, a.Settle())
    play(CHLOE_USER, a.Interfere("Chloe"))
    build(play, CHLOE_USER, value("Truth"), asset("Hacker"))
    play(CHLOE_USER, a.RollPool(), *faces)
    play(CHLOE_USER, a.Settle())


def test_interfering_costs_a_plot_point_to_the_watchtower(play: Driver) -> None:
    interfere(play, 5, 4)
    assert play.sheet("Chloe").plot_points == 0


def test_an_interference_that_fails_leaves_the_contest_running(play: Driver) -> None:
    interfere(play, 5, 4)
    assert play.events == (a.InterferenceRolled("Chloe", 9, False),)
    c = play.table.conflict
    assert c is not None and c.phase is Phase.BUILDING and c.roller == "Lex" and c.to_beat == 12


def test_contestants_cannot_interfere(play: Driver) -> None:
    play(CLARK_USER, a.StartContest("Clark", "Lex"))
    build(play, CLARK_USER, value("Justice"))
    play(CLARK_USER, a.RollPool(), 7)
    play(CLARK_USER, a.Settle())
    refused(play, WATCHTOWER, a.Interfere("Lex"), NotAllowedNow)


def test_a_successful_interference_stops_the_contest_and_either_side_ends_it(
    play: Driver,
) -> None:
    interfere(play, 8, 6)
    assert play.table.conflict.phase is Phase.STOPPED  # type: ignore[union-attr]
    refused(play, CHLOE_USER, a.Vote("Chloe", True), NotAllowedNow)
    play(CLARK_USER, a.Vote("Clark", True))
    play(WATCHTOWER, a.Vote("Lex", False))
    assert play.table.conflict.ending is Ending.STOPPED  # type: ignore[union-attr]
    assert play.sheet("Clark").plot_points == 2  # nobody paid


def test_going_on_after_interference_pays_the_interferer_and_all_three_roll(
    play: Driver,
) -> None:
    interfere(play, 8, 6)
    play(CLARK_USER, a.Vote("Clark", True))
    play(WATCHTOWER, a.Vote("Lex", True))
    assert play.sheet("Clark").plot_points == 1
    assert play.sheet("Chloe").plot_points == 2  # one from Clark, one from the Watchtower
    assert acting_users(play.table) == {CLARK_USER}
    play(CLARK_USER, a.RollPool(), 6, 5)  # Clark reuses Justice + Chloe
    play(CLARK_USER, a.Settle())
    build(play, WATCHTOWER, value("Power"))
    play(WATCHTOWER, a.RollPool(), 9)
    play(WATCHTOWER, a.Settle())
    play(CHLOE_USER, a.RollPool(), 3, 2)
    play(CHLOE_USER, a.Settle())
    pending = play.table.conflict.pending  # type: ignore[union-attr]
    assert [(p.inflicter, p.target) for p in pending] == [
        ("Clark", "Lex"),
        ("Clark", "Chloe"),
        ("Lex", "Chloe"),
    ]
    play(CLARK_USER, a.InflictStress("Angry"), 2, 5)
    play(CLARK_USER, a.InflictStress("Insecure"), 4, 4)
    play(WATCHTOWER, a.InflictStress("Afraid"), 3)
    chloe = play.sheet("Chloe")
    assert chloe.stress_of("Insecure") is Die.D10 and chloe.stress_of("Afraid") is Die.D12
    assert play.sheet("Lex").stress_of("Angry") is Die.D8
    assert play.table.conflict.phase is Phase.DONE  # type: ignore[union-attr]


def test_the_interferer_takes_no_stress_from_a_lower_roll(play: Driver) -> None:
    interfere(play, 8, 6)
    play(CLARK_USER, a.Vote("Clark", True))
    play(WATCHTOWER, a.Vote("Lex", True))
    play(CLARK_USER, a.RollPool(), 6, 5)
    play(CLARK_USER, a.Settle())
    build(play, WATCHTOWER, value("Power"))
    play(WATCHTOWER, a.RollPool(), 4)
    play(WATCHTOWER, a.Settle())
    play(CHLOE_USER, a.RollPool(), 8, 2)
    play(CHLOE_USER, a.Settle())
    pending = play.table.conflict.pending  # type: ignore[union-attr]
    assert [(p.inflicter, p.target) for p in pending] == [("Clark", "Lex"), ("Clark", "Chloe")]


# --- odds and ends ----------------------------------------------------------


def test_aid_comes_before_the_roll(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"))
    play(CLARK_USER, a.RollPool(), 6)
    refused(play, LOIS_USER, a.OfferAid("Lois", (asset("Reporter"),)), NotAllowedNow)


def test_feature_extras_cost_the_watchtower_nothing_but_pay_the_lead(play: Driver) -> None:
    play(WATCHTOWER, a.StartContest("Lex", "Clark"))
    build(
        play,
        WATCHTOWER,
        value("Power"),
        asset("Billionaire"),
        Pick(PickKind.OPPONENT_LIMIT, "Kryptonite"),
    )
    play(WATCHTOWER, a.RollPool(), 2, 2, 2, 2, 2)
    assert play.sheet("Clark").plot_points == 2  # one per box, nothing extra yet
    play(WATCHTOWER, a.IncludeDie())
    assert play.sheet("Clark").plot_points == 3
    assert play.sheet("Lex").plot_points == 0


def test_a_useful_detail_name_is_bought_once_per_scene(play: Driver) -> None:
    start_test(play, 5, 4)
    play(CLARK_USER, a.CreateDetail("Open window"))
    refused(play, CLARK_USER, a.CreateDetail("open window"), NotAllowedNow)


def test_removing_a_trait_from_the_pool(play: Driver) -> None:
    start_test(play, 5, 4)
    build(play, CLARK_USER, value("Justice"))
    play(CLARK_USER, a.RemoveFromPool(value("Justice")))
    refused(play, CLARK_USER, a.RemoveFromPool(value("Justice")), NotAllowedNow)
    refused(play, CLARK_USER, a.RollPool(), NotAllowedNow)  # an empty pool


def test_state_of_a_contest_round_trips_at_every_step(play: Driver) -> None:
    # Driver checks Table.from_dict(step.table.to_dict()) == step.table on every call.
    contest_to_yielding(play, (7, 5), (3, 2))
    assert Table.from_dict(play.table.to_dict()) == play.table


def test_allowed_actions_follow_the_turn(play: Driver) -> None:
    from core.rules.cortex.allowed import allowed_actions

    assert a.StartTest in allowed_actions(play.table, CLARK_USER)
    assert allowed_actions(play.table, 555) == frozenset()
    play(CLARK_USER, a.StartContest("Clark", "Lex"))
    assert a.RollPool in allowed_actions(play.table, CLARK_USER)
    assert a.OfferAid in allowed_actions(play.table, LOIS_USER)
    assert a.RollPool not in allowed_actions(play.table, WATCHTOWER)
    build(play, CLARK_USER, value("Justice"))
    play(CLARK_USER, a.RollPool(), 7)
    play(CLARK_USER, a.Settle())
    assert {a.GiveIn, a.RollPool} <= allowed_actions(play.table, WATCHTOWER)
    assert a.Interfere in allowed_actions(play.table, CHLOE_USER)
    assert a.GiveIn not in allowed_actions(play.table, CLARK_USER)
