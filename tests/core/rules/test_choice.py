"""The shared legal-choice type: who acts now, per user, by verb."""

from __future__ import annotations

from enum import Enum

from core.rules.choice import Choice, Common, actors, for_user, verbs


class Verb(Enum):
    ROLL = "roll"
    KEEP = "keep"


def test_actors_are_everyone_who_may_take_a_choice() -> None:
    choices = [
        Choice(Verb.ROLL, by=frozenset({1})),
        Choice(Verb.KEEP, "0", by=frozenset({2, 3})),
        Choice(Verb.KEEP, "1", by=frozenset({2})),
    ]
    assert actors(choices) == {1, 2, 3}
    assert for_user(choices, 2) == tuple(choices[1:])
    assert for_user(choices, 4) == ()
    assert verbs(choices) == (Verb.ROLL, Verb.KEEP)
    assert choices[0].open_to(1) and not choices[0].open_to(2)


def test_undo_is_one_more_choice_beside_a_panels_own() -> None:
    undo: Choice[Common] = Choice(Common.UNDO, "7", by=frozenset({5}), who="Birch")
    assert actors([undo]) == {5}
    assert undo.verb.value == "undo" and undo.who == "Birch"
