"""A check panel's log: typed entries, stored as the records earlier versions wrote."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.rules.d20check.check import Natural
from core.rules.d20check.events import (
    GameMasterPicksEffect,
    HarmChanged,
    PlotPointSpent,
    PlotPointTurned,
    RollReason,
    WoundsRecovered,
)
from core.rules.d20check.log import CheckEnded, LogEntry, RollMade, read_log, record
from core.rules.d20check.plot_points import PlotPointKind

OLD_RECORDS = [  # a log as stored before it was read into typed entries
    {"e": "rolled", "reason": "first"},
    {"e": "spent", "by": 7, "kind": "lucky"},
    {"e": "rolled", "reason": "retry"},
    {"e": "turned", "natural": 20, "now": "lucky"},
    {"e": "gm_picks", "natural": 1},
    {
        "e": "harm",
        "strain_before": 3,
        "wounds_before": 15,
        "strain_after": 0,
        "wounds_after": 16,
        "lost": 1,
    },
    {"e": "resolved"},
    {"e": "recovered", "count": 2},
]


def test_an_old_stored_log_reads_into_typed_entries_and_is_written_back_the_same() -> None:
    entries = read_log(OLD_RECORDS)
    assert entries == (
        RollMade(RollReason.FIRST),
        PlotPointSpent(7, PlotPointKind.LUCKY),
        RollMade(RollReason.RETRY),
        PlotPointTurned(Natural.TWENTY, PlotPointKind.LUCKY),
        GameMasterPicksEffect(Natural.ONE),
        HarmChanged(3, 15, 0, 16, 1),
        CheckEnded(),
        WoundsRecovered(2),
    )
    assert [record(e) for e in entries] == OLD_RECORDS


def test_a_record_this_version_cannot_read_is_left_out() -> None:
    stored = [
        {"e": "retired"},
        {"e": "spent", "by": True, "kind": "lucky"},  # a flag is no player
        {"e": "turned", "natural": 7, "now": "lucky"},  # no such natural
        {"e": "harm", "strain_before": 1},
        "rolled",
        {"e": "resolved"},
    ]
    assert read_log(stored) == (CheckEnded(),)


entries = st.one_of(
    st.builds(RollMade, st.sampled_from(RollReason)),
    st.builds(PlotPointSpent, st.integers(1, 2**40), st.sampled_from(PlotPointKind)),
    st.builds(PlotPointTurned, st.sampled_from(Natural), st.sampled_from(PlotPointKind)),
    st.builds(GameMasterPicksEffect, st.sampled_from(Natural)),
    st.builds(HarmChanged, *[st.integers(0, 99)] * 5),
    st.just(CheckEnded()),
    st.builds(WoundsRecovered, st.integers(0, 20)),
)


@given(st.lists(entries, max_size=12))
def test_every_entry_reads_back_from_its_record(log: list[LogEntry]) -> None:
    assert read_log([record(e) for e in log]) == tuple(log)
