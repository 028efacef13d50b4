"""The world: resources, cards, clocks, the map, groups and what each player sees."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.nsu import world as w
from core.rules.nsu.world import (
    CardFlipped,
    CollateralClock,
    Connection,
    DangerLevel,
    LocationCard,
    MapGrid,
    Resource,
    ResourceLevel,
    RewardLevel,
    World,
)
from core.rules.rng import ScriptedRng, SeededRng

ALICE, BOB, CARA = 1, 2, 3


def card(cid: str, author: int = ALICE, **kw: object) -> LocationCard:
    base = LocationCard(
        id=cid,
        author_id=author,
        title=f"Title {cid}",
        description=f"Secret text {cid}",
        collateral_target="the river",
        danger_type="beasts",
        treasure_type="old maps",
        danger=DangerLevel.D2,
        reward=RewardLevel.R3,
    )
    return replace(base, **kw)  # type: ignore[arg-type]


def grid_world(rows: tuple[tuple[str | None, ...], ...], **kw: object) -> World:
    ids = [c for row in rows for c in row if c is not None]
    authors = (ALICE, BOB, CARA)
    cards = tuple(card(cid, authors[i % 3]) for i, cid in enumerate(ids))
    resources = (
        Resource("water", ResourceLevel.ABUNDANCE),
        Resource("seeds", ResourceLevel.SCARCITY),
        Resource("songs", ResourceLevel.SCARCITY),
        Resource("tools", ResourceLevel.SCARCITY),
        Resource("medicine", ResourceLevel.SCARCITY),
    )
    base = World(players=(ALICE, BOB, CARA), resources=resources, cards=cards, grid=MapGrid(rows))
    return replace(base, **kw)  # type: ignore[arg-type]


# A 3x3 map with a blank in the middle:
#   a b c
#   d . e
#   f g h
RING = (("a", "b", "c"), ("d", None, "e"), ("f", "g", "h"))


# ------------------------------------------------------------ Danger and Reward


def test_danger_and_reward_first_d4_is_danger_second_is_reward() -> None:
    assert w.roll_danger_and_reward(ScriptedRng([2, 4])) == (DangerLevel.D2, RewardLevel.R4)


def test_danger_and_reward_are_written_like_the_back_of_a_card() -> None:
    assert card("a", danger=DangerLevel.D2, reward=RewardLevel.R4).back == "D2 R4"
    assert card("a", danger=None, reward=None).back == ""


def test_every_danger_and_reward_level_has_a_guide_in_our_words() -> None:
    assert all(level.guide for level in DangerLevel)
    assert all(level.guide for level in RewardLevel)


def test_reward_levels_move_resources_as_the_text_says() -> None:
    # R1: only a project helps, and at best to neutral; R2: projects only;
    # R3: one step on return, a project for the second; R4: straight to abundance.
    assert [r.steps_on_return for r in RewardLevel] == [0, 0, 1, 2]
    assert [r.steps_with_projects for r in RewardLevel] == [1, 2, 2, 2]


# ------------------------------------------------------------------- resources


def test_resource_moves_scarcity_to_neutral_to_abundance() -> None:
    world = grid_world(RING)
    world, events = w.improve_resource(world, "Seeds")
    assert world.resource("seeds").level is ResourceLevel.NEUTRAL
    assert events == (w.ResourceMoved("seeds", ResourceLevel.SCARCITY, ResourceLevel.NEUTRAL),)
    world, _ = w.improve_resource(world, "seeds")
    assert world.resource("seeds").level is ResourceLevel.ABUNDANCE


def test_resource_cannot_go_past_abundance_or_below_scarcity() -> None:
    world = grid_world(RING)
    with pytest.raises(NotAllowedNow):
        w.improve_resource(world, "water")
    with pytest.raises(NotAllowedNow):
        w.worsen_resource(world, "seeds")


def test_r4_reward_moves_a_scarcity_straight_to_abundance() -> None:
    world = grid_world(RING)
    world, _ = w.improve_resource(world, "tools", RewardLevel.R4.steps_on_return)
    assert world.resource("tools").level is ResourceLevel.ABUNDANCE


def test_r3_reward_can_add_a_new_abundance() -> None:
    world, _ = w.add_resource(grid_world(RING), "music")
    assert world.resource("music").level is ResourceLevel.ABUNDANCE
    with pytest.raises(NotAllowedNow):
        w.add_resource(world, "Music")


def test_unknown_resource_is_malformed() -> None:
    with pytest.raises(Malformed):
        w.improve_resource(grid_world(RING), "gold")


# ------------------------------------------------------------- Collateral Clock


def test_collateral_clock_has_eight_segments() -> None:
    assert CollateralClock(8).full
    with pytest.raises(Malformed):
        CollateralClock(9)
    with pytest.raises(Malformed):
        CollateralClock(-1)


def test_any_player_may_tick_or_untick_a_clock_at_any_time() -> None:
    world = grid_world(RING)
    for player in (ALICE, BOB, CARA):
        world, events = w.tick_collateral(world, "a", player)
        assert isinstance(events[0], w.ClockMoved)
    assert world.card("a").clock.ticks == 3
    world, _ = w.untick_collateral(world, "a", CARA)
    assert world.card("a").clock.ticks == 2


def test_clock_refuses_to_pass_eight_or_go_below_zero() -> None:
    world = grid_world(RING)
    with pytest.raises(NotAllowedNow):
        w.untick_collateral(world, "a", ALICE)
    world, _ = w.tick_collateral(world, "a", ALICE, 8)
    with pytest.raises(NotAllowedNow):
        w.tick_collateral(world, "a", ALICE)


def test_only_people_at_the_table_touch_clocks() -> None:
    with pytest.raises(NotAllowedNow):
        w.tick_collateral(grid_world(RING), "a", 99)


def test_rule_driven_clock_moves_are_clamped() -> None:
    world = grid_world(RING)
    world, _ = w.move_collateral(world, "a", 20)
    assert world.card("a").clock.ticks == 8
    world, _ = w.move_collateral(world, "a", -20)
    assert world.card("a").clock.ticks == 0
    assert w.move_collateral(world, "a", -1) == (world, ())


@given(st.lists(st.integers(min_value=-9, max_value=9), max_size=30))
def test_clock_stays_within_zero_and_eight_whatever_anyone_does(moves: list[int]) -> None:
    clock = CollateralClock()
    for m in moves:
        before = clock
        try:
            clock = clock.tick(m) if m >= 0 else clock.untick(-m)
        except (NotAllowedNow, Malformed):
            assert clock == before
        assert 0 <= clock.ticks <= 8


# --------------------------------------------------------------- scene details


def test_scene_details_are_kept_on_the_location() -> None:
    world = replace(
        grid_world(RING), cards=tuple(replace(c, revealed=True) for c in grid_world(RING).cards)
    )
    world, events = w.add_scene_detail(world, "a", "Uncooperative locals")
    assert world.card("a").scene_details == ("Uncooperative locals",)
    assert events == (w.SceneDetailAdded("a", "Uncooperative locals"),)


def test_scene_details_need_a_revealed_card_and_some_text() -> None:
    world = grid_world(RING)
    with pytest.raises(NotAllowedNow):
        w.add_scene_detail(world, "a", "Flooded")
    with pytest.raises(Malformed):
        w.add_scene_detail(world, "a", "   ")


# ------------------------------------------------------------------------ map


def test_cards_sharing_an_edge_are_neighbours() -> None:
    world = grid_world(RING)
    assert set(w.neighbours(world, "a")) == {"b", "d"}
    assert set(w.neighbours(world, "b")) == {"a", "c"}  # the blank centre connects nothing


def test_blank_cells_break_adjacency() -> None:
    world = grid_world((("a", None, "b"),))
    assert w.neighbours(world, "a") == ()


def test_drawn_paths_replace_grid_adjacency() -> None:
    world = grid_world(RING)
    world, _events = w.draw_path(world, "a", "h")
    assert world.grid is not None and world.grid.connection is Connection.PATHS
    assert w.neighbours(world, "a") == ("h",)
    assert w.neighbours(world, "b") == ()
    world, _ = w.draw_path(world, "a", "h", drawn=False)
    assert w.neighbours(world, "a") == ()
    with pytest.raises(Malformed):
        w.draw_path(world, "a", "a")


def test_dealing_shuffles_every_card_into_the_grid_face_down() -> None:
    ids = [f"c{i}" for i in range(6)]
    grid = w.deal_grid(ids, 3, {(0, 1)}, SeededRng(4))
    assert sorted(grid.card_ids()) == sorted(ids)
    assert grid.cell_content((0, 1)) is None
    assert grid.width == 3


def test_dealing_uses_the_injected_rng() -> None:
    ids = [f"c{i}" for i in range(6)]
    a = w.deal_grid(ids, 3, (), SeededRng(1))
    b = w.deal_grid(ids, 3, (), SeededRng(1))
    assert a == b


def test_dealing_refuses_a_shape_that_makes_no_sense() -> None:
    with pytest.raises(Malformed):
        w.deal_grid(["a"], 0, (), SeededRng(1))
    with pytest.raises(Malformed):
        w.deal_grid(["a"], 2, {(0, 5)}, SeededRng(1))


def test_map_rejects_uneven_rows_and_duplicate_cards() -> None:
    with pytest.raises(Malformed):
        MapGrid((("a", "b"), ("c",)))
    with pytest.raises(Malformed):
        MapGrid((("a", "a"),))


def test_from_home_without_a_place_on_the_map_every_card_is_reachable() -> None:
    world = grid_world(RING)
    assert set(w.reachable_cards(world)) == set("abcdefgh")


def test_from_home_on_the_map_only_cards_next_to_home_are_reachable() -> None:
    world = grid_world(RING)
    assert world.grid is not None
    world = replace(world, grid=replace(world.grid, home=(1, 1)))
    assert set(w.reachable_cards(world)) == {"b", "d", "e", "g"}


def test_from_a_card_the_next_cards_are_its_neighbours() -> None:
    world, _ = w.travel_to(grid_world(RING), "a")
    assert set(w.reachable_cards(world)) == {"b", "d"}


def test_revealed_locations_can_be_passed_through() -> None:
    world, _ = w.travel_to(grid_world(RING), "a")
    world, _ = w.travel_to(world, "b")
    # From b: a is known (revealed), so d beyond it is also in reach.
    assert set(w.reachable_cards(world)) == {"a", "c", "d"}


def test_travelling_flips_a_face_down_card_for_its_author_to_describe() -> None:
    world, events = w.travel_to(grid_world(RING), "b")
    assert world.current == "b"
    assert world.card("b").revealed
    assert CardFlipped("b", BOB) in events


def test_travelling_back_to_an_old_card_does_not_flip_it_again() -> None:
    world, _ = w.travel_to(grid_world(RING), "a")
    world, _ = w.travel_to(world, "b")
    world, events = w.travel_to(world, "a")
    assert events == (w.Travelled("a"),)


def test_travelling_far_away_or_in_place_is_refused() -> None:
    world, _ = w.travel_to(grid_world(RING), "a")
    with pytest.raises(NotAllowedNow):
        w.travel_to(world, "h")
    with pytest.raises(NotAllowedNow):
        w.travel_to(world, "a")


def test_returning_home() -> None:
    world, _ = w.travel_to(grid_world(RING), "a")
    world, events = w.return_home(world)
    assert world.current is None and events == (w.Travelled(None),)
    with pytest.raises(NotAllowedNow):
        w.return_home(world)


def test_map_actions_before_dealing_are_refused() -> None:
    world = replace(grid_world(RING), grid=None)
    with pytest.raises(NotAllowedNow):
        w.reachable_cards(world)


# -------------------------------------------------------------- groups/Arbiters


def test_players_off_screen_are_the_arbiters() -> None:
    world, _ = w.travel_to(grid_world(RING), "a")  # written by ALICE
    world, _events = w.split_party(world, {ALICE}, {BOB, CARA})
    assert w.on_screen(world) == {BOB, CARA}
    assert w.arbiters(world) == {ALICE}


def test_the_authors_group_arbitrates_first() -> None:
    world, _ = w.travel_to(grid_world(RING), "b")  # written by BOB
    world, events = w.split_party(world, {BOB, CARA}, {ALICE})
    assert events == (
        w.PartySplit((frozenset({BOB, CARA}), frozenset({ALICE})), frozenset({ALICE})),
    )
    assert w.arbiters(world) == {BOB, CARA}


def test_switching_focus_swaps_who_is_on_screen() -> None:
    world, _ = w.travel_to(grid_world(RING), "a")
    world, _ = w.split_party(world, {ALICE}, {BOB, CARA})
    world, events = w.switch_focus(world)
    assert w.on_screen(world) == {ALICE}
    assert events == (w.FocusSwitched(frozenset({ALICE}), frozenset({BOB, CARA})),)


def test_when_nobody_is_off_screen_everyone_else_arbitrates() -> None:
    world = grid_world(RING)
    assert w.arbiters(world, roller=BOB) == {ALICE, CARA}
    assert w.arbiters(world) == {ALICE, BOB, CARA}


def test_a_split_party_meets_up_to_travel_and_says_so() -> None:
    world, _ = w.travel_to(grid_world(RING), "a")
    split, _ = w.split_party(world, {ALICE}, {BOB, CARA})
    moved, events = w.travel_to(split, "b")
    assert events[0] == w.PartyRegrouped(world.players)  # never silent
    assert moved.groups == () and w.on_screen(moved) == {ALICE, BOB, CARA}
    home, events = w.return_home(split)
    assert events == (w.PartyRegrouped(world.players), w.Travelled(None))
    assert home.groups == ()
    _, events = w.travel_to(world, "b")  # together already: nothing to say
    assert not any(isinstance(e, w.PartyRegrouped) for e in events)


def test_split_must_cover_every_player_once() -> None:
    world = grid_world(RING)
    with pytest.raises(Malformed):
        w.split_party(world, {ALICE}, {BOB})
    with pytest.raises(Malformed):
        w.split_party(world, {ALICE, BOB}, {BOB, CARA})
    with pytest.raises(Malformed):
        w.split_party(world, set(), {ALICE, BOB, CARA})


def test_switching_or_regrouping_needs_a_split_party() -> None:
    world = grid_world(RING)
    with pytest.raises(NotAllowedNow):
        w.switch_focus(world)
    with pytest.raises(NotAllowedNow):
        w.regroup(world)
    world, _ = w.split_party(world, {ALICE}, {BOB, CARA})
    world, _events = w.regroup(world)
    assert world.groups == () and w.arbiters(world, roller=ALICE) == {BOB, CARA}


# --------------------------------------------------------------------- secrecy


def test_face_down_card_shows_only_its_back_to_others() -> None:
    view = w.visible_card(card("a", author=ALICE), BOB)
    assert (view.danger, view.reward) == (DangerLevel.D2, RewardLevel.R3)
    assert not view.face_visible
    assert view.title is None and view.description is None and view.author_id is None
    assert view.collateral_target is None and view.treasure_type is None
    assert view.clock_ticks is None and view.scene_details is None


def test_author_sees_their_own_face_down_card() -> None:
    view = w.visible_card(card("a", author=ALICE), ALICE)
    assert view.face_visible and view.title == "Title a" and not view.revealed


def test_only_the_author_gives_a_card_its_picture() -> None:
    face_down, flipped = card("a", author=ALICE), card("b", author=ALICE, revealed=True)
    assert w.may_picture(face_down, ALICE) and w.may_picture(flipped, ALICE)
    assert not w.may_picture(flipped, BOB) and not w.may_picture(face_down, None)


def test_successful_scout_sees_the_face_privately() -> None:
    world, events = w.record_scout(grid_world(RING), "b", CARA)
    assert events == (w.CardScouted("b", CARA),)
    assert w.visible_card(world.card("b"), CARA).face_visible
    assert not w.visible_card(world.card("b"), ALICE).face_visible


def test_flipped_card_is_visible_to_everyone_even_bystanders() -> None:
    view = w.visible_card(card("a", revealed=True), None)
    assert view.face_visible and view.description == "Secret text a"


def test_scouting_a_face_up_card_is_pointless() -> None:
    world, _ = w.travel_to(grid_world(RING), "a")
    with pytest.raises(NotAllowedNow):
        w.record_scout(world, "a", BOB)


def test_visible_map_never_leaks_secret_text() -> None:
    world, _ = w.travel_to(grid_world(RING), "a")
    view = w.visible_map(world, CARA)
    dumped = repr(view)
    for c in world.cards:
        secret = c.description in dumped
        assert secret == w.can_see_face(c, CARA)
    assert view.current == "a" and set(view.reachable) == {"b", "d"}


@given(st.integers(min_value=1, max_value=6), st.booleans(), st.frozensets(st.integers(1, 6)))
def test_face_is_shown_only_to_author_scouts_or_after_the_flip(
    viewer: int, revealed: bool, scouts: frozenset[int]
) -> None:
    c = card("x", author=1, revealed=revealed, scouted_by=scouts)
    view = w.visible_card(c, viewer)
    assert view.face_visible == (revealed or viewer == 1 or viewer in scouts)
    assert view.danger is DangerLevel.D2  # the back is always visible
    if not view.face_visible:
        assert view.title is None and view.description is None


# ----------------------------------------------------------------- serialising


def test_world_round_trips_through_json() -> None:
    world, _ = w.travel_to(grid_world(RING), "a")
    world, _ = w.tick_collateral(world, "a", BOB, 3)
    world, _ = w.add_scene_detail(world, "a", "Smoke")
    world, _ = w.record_scout(world, "h", CARA)
    world, _ = w.split_party(world, {ALICE}, {BOB, CARA})
    world, _ = w.draw_path(world, "a", "b")
    world = replace(
        world,
        tone="weird and hopeful",
        safety_tools=frozenset({w.SafetyTool.X_CARD}),
        bans=(w.Ban(ALICE, "dragons"),),
        settlement=(w.Statement(BOB, "A wall of glass", None), w.Statement(CARA, "It hums", 0)),
        scope=(w.ScopeAnswer(w.ScopeQuestion.TRAVEL_TIME, "a day per card", ALICE),),
    )
    data = json.loads(json.dumps(w.world_to_dict(world)))
    assert w.world_from_dict(data) == world


def test_reading_garbage_is_malformed() -> None:
    with pytest.raises(Malformed):
        w.world_from_dict({"players": "nope"})
