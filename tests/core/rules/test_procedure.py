"""Which procedure a panel runs: at most one live panel per procedure per chat."""

from __future__ import annotations

from core.rules.registry import default_registry

ROLLS = {"threat.roll", "d20.check", "dice.roll"}  # each is its roller's own


def test_a_roll_is_its_rollers_and_every_other_panel_the_chats() -> None:
    kinds: set[str] = set()
    for system in default_registry():
        kinds |= set(system.panels)
        assert set(system.rolled_by) <= set(system.panels)
        for kind in system.panels:
            if kind not in ROLLS:
                assert system.procedure(kind, {"anything": 1}) == kind
            else:
                assert system.rolled_by[kind] is not None
    assert {k for s in default_registry() for k in s.rolled_by} == ROLLS
    assert kinds >= {"nsu.roll", "nsu.setup", "nsu.adventure", "d20.rest", *ROLLS}
