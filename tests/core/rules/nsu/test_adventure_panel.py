"""The adventure panel: travel, flips, split, focus, clocks, and who learns what."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu import SYSTEM
from core.rules.nsu.adventure_panel import PaintThePicture, SceneBriefing, scene
from core.rules.nsu.campaign import campaign_of
from core.rules.nsu.world import CardFlipped
from tests.core.rules.nsu.table_support import (
    ALICE,
    BOB,
    CARA,
    Harness,
    build_world,
    card_fields,
    make_character,
)


def ready() -> Harness:
    h = Harness()
    build_world(h)
    for pid in (ALICE, BOB, CARA):
        make_character(h, pid)
    return h


def test_no_adventure_before_the_world_or_the_characters() -> None:
    h = Harness()
    h.open("nsu.setup", ALICE)
    with pytest.raises(NotAllowedNow):
        h.open("nsu.adventure", ALICE)
    h2 = Harness()
    build_world(h2)
    make_character(h2, ALICE)
    panel = h2.open("nsu.adventure", ALICE)
    with pytest.raises(NotAllowedNow, match="Bob"):
        h2.act(panel, ALICE, "go", "0")
    assert scene(h2.table(), panel.state).without_character == (BOB, CARA)


def test_travel_flips_and_prompts_the_author_and_the_arbiters() -> None:
    h = ready()
    panel = h.open("nsu.adventure", BOB)
    before = scene(h.table(), panel.state)
    assert before.here is None and before.reachable
    assert all(not c.face_visible for c in before.reachable)
    h.act(panel, BOB, "go", "0")
    flipped = next(e for e in panel.events if isinstance(e, CardFlipped))
    paint = next(e for e in panel.events if isinstance(e, PaintThePicture))
    briefing = next(e for e in panel.events if isinstance(e, SceneBriefing))
    assert paint.author_id == flipped.author_id
    assert briefing.arbiters == {ALICE, BOB, CARA}  # together: everyone arbitrates
    now = scene(h.table(), panel.state)
    assert now.here is not None and now.here.face_visible and now.here.id == flipped.card_id


def test_split_and_switch_focus() -> None:
    h = ready()
    panel = h.open("nsu.adventure", ALICE)
    h.act(panel, ALICE, "go", "0")
    with pytest.raises(NotAllowedNow):
        h.act(panel, ALICE, "switch")
    h.act(panel, ALICE, "pick")
    h.act(panel, ALICE, "pick", "0")
    h.act(panel, ALICE, "pick", "1")
    assert scene(h.table(), panel.state).picking == frozenset({ALICE, BOB})
    h.act(panel, CARA, "split")
    split = scene(h.table(), panel.state)
    assert set(split.groups) == {frozenset({ALICE, BOB}), frozenset({CARA})}
    assert split.on_screen | split.arbiters == {ALICE, BOB, CARA}
    assert not split.on_screen & split.arbiters
    briefing = next(e for e in panel.events if isinstance(e, SceneBriefing))
    assert briefing.arbiters == split.arbiters
    h.act(panel, BOB, "switch")
    switched = scene(h.table(), panel.state)
    assert switched.on_screen == split.arbiters
    h.act(panel, BOB, "regroup")
    assert scene(h.table(), panel.state).groups == ()


def test_clock_ticks_at_the_current_location() -> None:
    h = ready()
    panel = h.open("nsu.adventure", ALICE)
    with pytest.raises(NotAllowedNow):
        h.act(panel, ALICE, "tick")
    h.act(panel, ALICE, "go", "0")
    h.act(panel, BOB, "tick")
    h.act(panel, CARA, "tick")
    h.act(panel, ALICE, "untick")
    here = scene(h.table(), panel.state).here
    assert here is not None and here.clock_ticks == 1


def test_strangers_and_bad_buttons() -> None:
    h = ready()
    panel = h.open("nsu.adventure", ALICE)
    with pytest.raises(NotYourTurn):
        h.act(panel, 999, "go", "0")
    with pytest.raises(Malformed):
        h.act(panel, ALICE, "go", "99")
    with pytest.raises(Malformed):
        h.act(panel, ALICE, "fly")


def test_public_scene_holds_no_face_down_text() -> None:
    h = ready()
    panel = h.open("nsu.adventure", ALICE)
    h.act(panel, ALICE, "go", "0")
    here = campaign_of(h.table()).require_world().current
    text = repr(scene(h.table(), panel.state))
    world = campaign_of(h.table()).require_world()
    for card in world.cards:
        if card.id != here:
            assert card.title not in text
    assert card_fields(ALICE, 1)[0] in repr(world.cards)


def test_a_leaver_leaves_the_party_and_a_late_joiner_joins_it() -> None:
    h = ready()
    panel = h.open("nsu.adventure", ALICE)
    h.act(panel, ALICE, "go", "0")
    h.act(panel, ALICE, "pick", "0")
    h.act(panel, ALICE, "split")
    # Alice leaves: her group is empty, so the party is together again.
    table = h.table()
    seats = {p: s for p, s in table.seats.items() if p != ALICE}
    gone = SYSTEM.campaign.left(replace(table, seats=seats), ALICE)
    world = campaign_of(replace(table, state=gone)).require_world()
    assert world.players == (BOB, CARA) and world.groups == ()
    # Dan joins late, makes a character and is part of the party.
    h.state = gone
    del h.sheets[ALICE]
    dan = 104
    h.sheets[dan] = {}
    h.state, h.sheets[dan] = SYSTEM.campaign.seated(h.table(), dan)
    assert dan not in campaign_of(h.table()).require_world().players
    h.act(panel, BOB, "pick", "0")
    h.act(panel, BOB, "split")
    creation = h.open("nsu.character", dan)
    for action, argument in [
        ("text", "Dan"),
        ("text", "he"),
        ("text", "Short"),
        ("text", "A, B, C"),
        ("aspects", "1"),
        ("text", "x, y, z"),
        ("text", "Run, Hide, Sing"),
        ("finish", ""),
    ]:
        h.act(creation, dan, action, argument)
    world = campaign_of(h.table()).require_world()
    assert dan in world.players and dan in set().union(*world.groups)
    assert dan not in scene(h.table(), panel.state).on_screen


@pytest.mark.parametrize("seed", range(5))
def test_every_adventure_choice_is_taken_by_whom_it_names_and_by_no_one_else(seed: int) -> None:
    import random

    from core.rules.errors import StonetableError
    from core.rules.nsu.adventure_panel import adventure_choices
    from core.rules.rng import SeededRng

    rnd = random.Random(seed)
    h = ready()
    panel = h.open("nsu.adventure", ALICE)
    rules = SYSTEM.panel("nsu.adventure")
    for _ in range(25):
        choices = adventure_choices(scene(h.table(), panel.state))
        assert choices
        for choice in choices:
            for actor in (ALICE, BOB, CARA, 99):
                try:
                    rules.act(
                        h.table(),
                        panel.state,
                        actor,
                        choice.verb.value,
                        choice.argument,
                        SeededRng(1),
                    )
                    accepted = True
                except StonetableError:
                    accepted = False
                assert accepted == (actor in choice.by), (choice, actor)
        choice = rnd.choice(choices)
        h.act(panel, rnd.choice(sorted(choice.by)), choice.verb.value, choice.argument)


def test_nobody_sets_out_while_a_character_is_missing() -> None:
    from core.rules.nsu.adventure_panel import AdventureVerb, adventure_choices

    h = Harness()
    build_world(h)
    make_character(h, ALICE)
    panel = h.open("nsu.adventure", ALICE)
    verbs = {c.verb for c in adventure_choices(scene(h.table(), panel.state))}
    assert AdventureVerb.GO not in verbs and AdventureVerb.PICK in verbs
