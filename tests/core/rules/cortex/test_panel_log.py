"""A conflict panel's log as stored: every kind of line reads back, typed by its kind."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.cortex import log
from core.rules.cortex.dice import Die
from core.rules.cortex.log import ENTRY_TYPES, EntryKind, entry, record
from core.rules.cortex.panel import PANEL_VERSION, ConflictState
from core.rules.cortex.state import Ending
from core.rules.errors import Malformed

OLD_LOG = [  # lines as stored before their kind was an enum
    {"what": "ended", "who": "Clark", "other": "Lex", "number": 2, "text": "success",
     "die": 0, "flag": False},
    {"what": "stress", "who": "Lex", "other": "Clark", "number": 0, "text": "Angry", "die": 8,
     "flag": True},
    {"what": "scene_ended", "who": "", "other": "", "number": 0, "text": "", "die": 0,
     "flag": True},
]  # fmt: skip

BLANK = {"who": "", "other": "", "number": 0, "text": "", "die": 0, "flag": False}

# One line of each kind, as the panel has always stored it, and what it reads as.
STORED: list[tuple[dict[str, object], log.Entry]] = [
    ({"what": "opposition", "number": 7, "text": "d8:5 d6:2"},
     log.OppositionRolled(result=7, dice="d8:5 d6:2")),
    ({"what": "rolled", "who": "Clark", "number": 9}, log.PoolRolled(roller="Clark", result=9)),
    ({"what": "included", "who": "Clark", "number": 11},
     log.DieIncluded(roller="Clark", result=11)),
    ({"what": "action", "who": "Lex", "number": 8, "flag": True},
     log.ActionSet(actor="Lex", action=8, took_over=True)),
    ({"what": "won", "who": "Clark", "other": "Lex", "number": 3},
     log.ActorHeld(actor="Clark", reactor="Lex", margin=3)),
    ({"what": "ended", "who": "Clark", "other": "Lex", "number": 2, "text": "gave_in"},
     log.ConflictEnded(winner="Clark", loser="Lex", margin=2, ending=Ending.GAVE_IN)),
    ({"what": "paid", "who": "Lex", "other": "", "number": 1, "text": "interfere"},
     log.PlotPointsPaid(payer="Lex", payee="", points=1, reason="interfere")),
    ({"what": "detail", "who": "Lois", "text": "Open window", "die": 6, "flag": True},
     log.DetailCreated(owner="Lois", name="Open window", die=Die.D6, from_trouble=True)),
    ({"what": "challenged", "who": "Clark", "text": "Truth", "die": 10},
     log.ValueChallenged(character="Clark", value="Truth", growth=Die.D10)),
    ({"what": "stress", "who": "Lex", "other": "Clark", "text": "Angry", "die": 0},
     log.StressTaken(inflicter="Lex", target="Clark", stress_type="Angry", die=None,
                     stepped_up=False)),
    ({"what": "stress_missed", "who": "Lex"}, log.StressMissed(inflicter="Lex")),
    ({"what": "stressed_out", "who": "Clark"}, log.StressedOut(character="Clark")),
    ({"what": "relieved", "who": "Lois", "text": "Afraid", "die": 4},
     log.StressRelieved(friend="Lois", stress_type="Afraid", growth=Die.D4)),
    ({"what": "complication", "who": "", "die": 12},
     log.ComplicationActivated(owner="", die=Die.D12)),
    ({"what": "trouble_cancelled", "who": "Lois", "die": 8},
     log.TroubleCancelled(by="Lois", removed=Die.D8)),
    ({"what": "interfered", "who": "Lois", "number": 5},
     log.Interfered(interferer="Lois", result=5, stopped=False)),
    ({"what": "resumed", "text": "Clark, Lex"}, log.ContestResumed(order="Clark, Lex")),
    ({"what": "scene_ended", "flag": False}, log.SceneEnded(episode=False)),
]  # fmt: skip


def test_an_old_stored_log_reads_into_kinds_and_is_stored_the_same() -> None:
    stored = {"v": PANEL_VERSION, "no": 1, "opp": [], "log": OLD_LOG, "pick": False}
    state = ConflictState.from_dict(stored)
    assert [e.what for e in state.log] == [
        EntryKind.ENDED,
        EntryKind.STRESS,
        EntryKind.SCENE_ENDED,
    ]
    assert state.log[0] == log.ConflictEnded("Clark", "Lex", 2, Ending.SUCCESS)
    assert state.log[1] == log.StressTaken("Lex", "Clark", "Angry", Die.D8, True)
    assert state.log[2] == log.SceneEnded(episode=True)
    assert state.to_dict() == stored


def test_every_kind_has_its_own_type_and_a_stored_line_of_it_here() -> None:
    assert sorted(t.what for t in ENTRY_TYPES) == sorted(EntryKind)
    assert sorted(e.what for _, e in STORED) == sorted(EntryKind)


@pytest.mark.parametrize(("stored", "read"), STORED, ids=[e.what for _, e in STORED])
def test_each_kind_reads_back_typed_and_is_stored_as_it_always_was(
    stored: dict[str, object], read: log.Entry
) -> None:
    full = BLANK | stored
    assert entry(full) == read
    assert record(read) == full


@pytest.mark.parametrize(("stored", "read"), STORED, ids=[e.what for _, e in STORED])
def test_a_line_stored_without_its_blank_fields_reads_the_same(
    stored: dict[str, object], read: log.Entry
) -> None:
    assert entry(stored) == read


@pytest.mark.parametrize(
    "damaged",
    [
        {"what": "teleported", "who": "Clark"},
        {"what": "detail", "who": "Lois", "text": "Rope", "die": 7},
        {"what": "ended", "who": "Clark", "text": "exploded"},
        {"what": "rolled", "who": "Clark", "number": "9"},
        {"who": "Clark"},
        "rolled",
    ],
)
def test_a_damaged_line_is_refused_as_malformed(damaged: object) -> None:
    with pytest.raises(Malformed):
        entry(damaged)


names = st.text(max_size=12)
dice = st.sampled_from(list(Die))
any_entry = st.one_of(
    st.builds(log.OppositionRolled, result=st.integers(0, 99), dice=names),
    st.builds(log.PoolRolled, roller=names, result=st.integers(0, 99)),
    st.builds(log.ActionSet, actor=names, action=st.integers(0, 99), took_over=st.booleans()),
    st.builds(
        log.ConflictEnded,
        winner=names,
        loser=names,
        margin=st.integers(0, 99),
        ending=st.sampled_from(list(Ending)),
    ),
    st.builds(
        log.StressTaken,
        inflicter=names,
        target=names,
        stress_type=names,
        die=st.none() | dice,
        stepped_up=st.booleans(),
    ),
    st.builds(log.TroubleCancelled, by=names, removed=dice),
    st.builds(log.SceneEnded, episode=st.booleans()),
)


@given(any_entry)
def test_any_line_stored_reads_back_equal(e: log.Entry) -> None:
    stored = record(e)
    assert set(stored) == {"what", *BLANK}
    assert entry(stored) == e
