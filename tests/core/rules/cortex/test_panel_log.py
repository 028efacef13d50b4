"""A conflict panel's log as stored: every kind of line reads back, typed by its kind."""

from __future__ import annotations

from core.rules.cortex.panel import PANEL_VERSION, ConflictState, Entry, EntryKind

OLD_LOG = [  # lines as stored before their kind was an enum
    {"what": "ended", "who": "Clark", "other": "Lex", "number": 2, "text": "success",
     "die": 0, "flag": False},
    {"what": "stress", "who": "Lex", "other": "Clark", "number": 0, "text": "Angry", "die": 8,
     "flag": True},
    {"what": "scene_ended", "who": "", "other": "", "number": 0, "text": "", "die": 0,
     "flag": True},
]  # fmt: skip


def test_an_old_stored_log_reads_into_kinds_and_is_stored_the_same() -> None:
    stored = {"v": PANEL_VERSION, "no": 1, "opp": [], "log": OLD_LOG, "pick": False}
    state = ConflictState.from_dict(stored)
    assert [e.what for e in state.log] == [
        EntryKind.ENDED,
        EntryKind.STRESS,
        EntryKind.SCENE_ENDED,
    ]
    assert state.log[1] == Entry(EntryKind.STRESS, "Lex", "Clark", 0, "Angry", 8, True)
    assert state.to_dict() == stored
