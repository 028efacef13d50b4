"""Reminder rules: /nudge's words, quiet hours, and when each reminder falls due."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.errors import Malformed
from core.rules.reminders import (
    MAX_WAIT,
    MIN_WAIT,
    Due,
    NudgeWord,
    PlayerNudges,
    QuietHours,
    SetWait,
    Stage,
    after_quiet_hours,
    after_sent,
    first_reminders,
    in_quiet_hours,
    next_due,
    parse_nudge,
    parse_offset,
    parse_quiet,
    still_due,
    wait_words,
)
from core.rules.typed import nudge_text
from core.words.typed_words import vocabulary

T0 = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
MOSCOW = timezone(timedelta(hours=3))


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("12h", SetWait(timedelta(hours=12))),
        ("1m", SetWait(timedelta(minutes=1))),
        ("7d", SetWait(timedelta(days=7))),
        ("90 m", SetWait(timedelta(minutes=90))),
        ("OFF", NudgeWord.OFF),
        ("mute", NudgeWord.MUTE),
        ("unmute", NudgeWord.UNMUTE),
    ],
)
def test_nudge_words(typed: str, read: object) -> None:
    assert parse_nudge(typed) == read


@pytest.mark.parametrize("typed", ["0", "0m", "10y", "soon", "8d", "169h", "12", "", "h", "-1h"])
def test_bad_nudge_words_are_refused_with_the_ways_to_say_it(typed: str) -> None:
    with pytest.raises(Malformed) as refused:
        parse_nudge(typed)
    assert "30m, 12h or 2d" in refused.value.message


@pytest.mark.parametrize(
    ("typed", "rules"),
    [
        ("12ч", "12h"),
        ("30 мин", "30m"),
        ("2д", "2d"),
        ("выкл", "off"),
        ("тихо", "mute"),
        ("со звуком", "unmute"),
        ("12 hours", "12h"),
        ("soon", "soon"),
        ("10y", "10y"),
    ],
)
def test_nudge_words_in_russian_read_as_the_rules_own(typed: str, rules: str) -> None:
    assert nudge_text(typed, vocabulary()) == rules


@given(st.integers(1, 7 * 24 * 60))
def test_a_wait_reads_back_as_it_is_set(minutes: int) -> None:
    wait = timedelta(minutes=minutes)
    assert parse_nudge(wait_words(wait)) == SetWait(wait)


def test_quiet_hours_across_midnight_in_another_zone() -> None:
    quiet = parse_quiet("22:00-07:00", MOSCOW)  # 19:00-04:00 UTC
    assert in_quiet_hours(datetime(2026, 1, 1, 19, 0, tzinfo=UTC), quiet)
    assert in_quiet_hours(datetime(2026, 1, 1, 23, 30, tzinfo=UTC), quiet)
    assert in_quiet_hours(datetime(2026, 1, 2, 3, 59, tzinfo=UTC), quiet)
    assert not in_quiet_hours(datetime(2026, 1, 2, 4, 0, tzinfo=UTC), quiet)
    assert not in_quiet_hours(datetime(2026, 1, 1, 18, 59, tzinfo=UTC), quiet)
    # due in the evening part: pushed to the next morning's end
    pushed = after_quiet_hours(datetime(2026, 1, 1, 20, 15, tzinfo=UTC), quiet)
    assert pushed == datetime(2026, 1, 2, 4, 0, tzinfo=UTC)
    # due in the morning part: pushed to the same morning's end
    pushed = after_quiet_hours(datetime(2026, 1, 2, 1, 0, tzinfo=UTC), quiet)
    assert pushed == datetime(2026, 1, 2, 4, 0, tzinfo=UTC)


def test_quiet_hours_by_a_zone_name_from_the_device() -> None:
    quiet = QuietHours(time(23), time(8), ZoneInfo("America/New_York"))  # 04:00-13:00 UTC
    at = datetime(2026, 7, 1, 5, 0, tzinfo=UTC)
    assert after_quiet_hours(at, quiet) == datetime(2026, 7, 1, 12, 0, tzinfo=UTC)  # EDT


def test_quiet_hours_within_one_day() -> None:
    quiet = parse_quiet("1-6", UTC)
    assert after_quiet_hours(datetime(2026, 1, 1, 2, tzinfo=UTC), quiet) == datetime(
        2026, 1, 1, 6, tzinfo=UTC
    )
    assert after_quiet_hours(datetime(2026, 1, 1, 7, tzinfo=UTC), quiet) == datetime(
        2026, 1, 1, 7, tzinfo=UTC
    )


@pytest.mark.parametrize("typed", ["22", "22:00-22:00", "25:00-07:00", "late-early", "7:61-8"])
def test_bad_quiet_hours_are_refused(typed: str) -> None:
    with pytest.raises(Malformed):
        parse_quiet(typed, MOSCOW)


def test_offsets_from_a_device() -> None:
    assert parse_offset("+03:00") == MOSCOW
    assert parse_offset("UTC-5") == timezone(timedelta(hours=-5))
    assert parse_offset("+0530") == timezone(timedelta(hours=5, minutes=30))
    for bad in ("Moscow", "+15:00", "3"):
        with pytest.raises(Malformed):
            parse_offset(bad)


def test_one_private_reminder_then_one_group_line_per_wait() -> None:
    wait = timedelta(hours=12)
    first = first_reminders(frozenset({2, 1}), T0, wait, {})
    assert first == (Due(1, Stage.PRIVATE, T0 + wait), Due(2, Stage.PRIVATE, T0 + wait))
    sent_at = T0 + wait + timedelta(minutes=1)
    group = after_sent(first[0], sent_at, wait)
    assert group == Due(1, Stage.GROUP, sent_at + wait)
    assert after_sent(group, sent_at + wait, wait) is None  # nothing more this wait


def test_muted_players_and_games_with_reminders_off_get_none() -> None:
    muted = PlayerNudges(muted=True)
    assert first_reminders(frozenset({1, 2}), T0, timedelta(hours=1), {2: muted}) == (
        Due(1, Stage.PRIVATE, T0 + timedelta(hours=1)),
    )
    private = Due(1, Stage.PRIVATE, T0)
    assert after_sent(private, T0, timedelta(hours=1), muted) is None  # no group line either
    assert first_reminders(frozenset({1}), T0, None, {}) == ()


def test_a_reminder_whose_wait_was_met_meanwhile_is_dropped() -> None:
    due = Due(1, Stage.PRIVATE, T0)
    assert still_due(due, frozenset({1}), T0)
    assert not still_due(due, frozenset({2}), T0)
    assert not still_due(due, frozenset({1}), T0 - timedelta(seconds=1))


zones = st.one_of(
    st.integers(-14 * 60, 14 * 60).map(lambda m: timezone(timedelta(minutes=m))),
    st.sampled_from(
        ["Europe/Moscow", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"]
    ).map(ZoneInfo),
)
clocks = st.builds(time, st.integers(0, 23), st.sampled_from([0, 15, 30, 45]))
moments = st.datetimes(
    min_value=datetime(2026, 1, 1), max_value=datetime(2028, 12, 31), timezones=st.just(UTC)
)
waits = st.integers(1, 7 * 24 * 60).map(lambda m: timedelta(minutes=m))


@given(
    moments,
    waits,
    st.one_of(
        st.none(),
        clocks.flatmap(
            lambda a: clocks.filter(lambda b: b != a).flatmap(
                lambda b: zones.map(lambda z: QuietHours(a, b, z))
            )
        ),
    ),
    st.sampled_from(Stage),
)
def test_a_due_time_is_never_in_quiet_hours_nor_before_the_wait(
    since: datetime, wait: timedelta, quiet: QuietHours | None, stage: Stage
) -> None:
    due = next_due(7, since, wait, stage, PlayerNudges(quiet=quiet))
    assert due is not None
    assert due.at >= since + wait
    assert not in_quiet_hours(due.at, quiet)
    assert due.at - (since + wait) <= timedelta(hours=25)  # at most one night's quiet
    if not in_quiet_hours(since + wait, quiet):
        assert due.at == since + wait


def test_min_and_max_waits() -> None:
    assert parse_nudge("1m") == SetWait(MIN_WAIT)
    assert parse_nudge("7d") == SetWait(MAX_WAIT)
