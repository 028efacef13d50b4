"""Ruling 23: a mood track filled outside an Action Roll (a Reconnect, or a level an
introspection swap moves onto a shorter track) has the last-box effects of ruling 1:
the level goes back to 0, its player marks a sentiment and renames the mood."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.nsu import downtime as d
from core.rules.nsu.downtime import DowntimeKind, DowntimeState
from core.rules.nsu.sheet import Character, Die, SentimentState
from core.rules.rng import ScriptedRng

from .test_downtime import ALICE, BOB, do, make_sheet, sheets, start, with_sentiment

FILLED_CHOICES = {DowntimeKind.ENDANGER_SENTIMENT, DowntimeKind.RENAME_MOOD}


def apply(state: DowntimeState, actor: int, action: d.DowntimeAction) -> tuple[object, ...]:
    return d.apply(state, actor, action, ScriptedRng([]))[1]


def own(state: DowntimeState) -> frozenset[DowntimeKind]:
    """What Alice may do for her character (the table's shared moves left out)."""
    return d.allowed_actions(state)[ALICE] - d.TABLE_KINDS


def reconnected_full() -> DowntimeState:
    """Alice reconnects a lost sentiment by raising Angry (d4, level 3) by three."""
    chars = with_sentiment(SentimentState.LOST)
    chars[ALICE] = chars[ALICE].raise_mood(4, 3)
    return do(start(chars=chars), ALICE, d.Reconnect(0, 4))


def introspecting(sheet: Character) -> DowntimeState:
    chars = sheets()
    chars[ALICE] = sheet
    return do(start(chars=chars), ALICE, d.Introspect(), 1)


def test_ruling23_while_a_track_is_full_only_its_choices_are_open() -> None:
    state = reconnected_full()
    assert (
        d.allowed_actions(state)[ALICE]
        & {
            DowntimeKind.INTROSPECT,
            DowntimeKind.RECOVER_HARM,
            DowntimeKind.END_DOWNTIME,
        }
        == set()
    )
    assert d.allowed_actions(state)[ALICE] >= FILLED_CHOICES
    with pytest.raises(NotAllowedNow, match="filled its track"):
        do(state, ALICE, d.UpgradeSkills(()))
    with pytest.raises(NotAllowedNow, match="full mood track"):
        do(state, BOB, d.EndDowntime())
    with pytest.raises(NotAllowedNow, match="No mood of yours"):
        do(state, BOB, d.RenameMood("Furious"))


def test_ruling23_the_player_marks_a_sentiment_and_renames_the_mood() -> None:
    state = reconnected_full()
    events = apply(state, ALICE, d.EndangerSentiment(1))
    assert events == (d.SentimentEndangered(ALICE, 1, SentimentState.AT_RISK),)
    state = do(state, ALICE, d.EndangerSentiment(1))
    assert state.sheet(ALICE).sentiment(1).state is SentimentState.AT_RISK
    with pytest.raises(NotAllowedNow, match="No sentiment"):
        do(state, ALICE, d.EndangerSentiment(2))  # one mark only
    assert apply(state, ALICE, d.RenameMood("Furious")) == (
        d.MoodRenamed(ALICE, 4, "Angry", "Furious"),
    )
    state = do(state, ALICE, d.RenameMood("Furious"))
    assert state.budget(ALICE).filled is None
    assert state.sheet(ALICE).mood(4).name == "Furious"
    assert state.sheet(ALICE).mood(4).level == 0
    do(state, ALICE, d.EndDowntime())  # nothing is open any more


def test_ruling23_a_lost_or_missing_sentiment_cannot_be_marked_nor_a_blank_name_given() -> None:
    chars = with_sentiment(SentimentState.LOST)
    sheet = chars[ALICE].endanger_sentiment(2).endanger_sentiment(2)  # Fairness lost too
    chars[ALICE] = sheet.raise_mood(4, 3)
    state = do(start(chars=chars), ALICE, d.Reconnect(0, 4))
    with pytest.raises(NotAllowedNow):
        do(state, ALICE, d.EndangerSentiment(2))
    with pytest.raises(Malformed):
        do(state, ALICE, d.EndangerSentiment(7))
    with pytest.raises(Malformed):
        do(state, ALICE, d.RenameMood("   "))
    assert state.budget(ALICE).filled == d.FilledTrack(4, endanger=True)


def test_ruling23_with_no_sentiment_left_to_mark_only_the_rename_waits() -> None:
    sheet = make_sheet("Ash").raise_mood(0, 6)
    for i in (0, 1, 2):
        sheet = sheet.endanger_sentiment(i).endanger_sentiment(i)
    new, events = d.apply(introspecting(sheet), ALICE, d.SwapMoods(0, 4), ScriptedRng([]))
    assert events[-1] == d.MoodTrackFilled(ALICE, 4, "Careful", sentiment_to_mark=False)
    assert new.budget(ALICE).filled == d.FilledTrack(4, endanger=False)
    assert own(new) == {DowntimeKind.RENAME_MOOD}
    new = do(new, ALICE, d.RenameMood("Paranoid"))
    assert new.budget(ALICE).filled is None


def test_ruling23_a_swap_that_overfills_the_shorter_track_fills_it() -> None:
    # Careful (d8) at 7 swaps with Angry (d4) at 1: 7 does not fit a 5-box track.
    state = introspecting(make_sheet("Ash").raise_mood(0, 7).raise_mood(4, 1))
    new, events = d.apply(state, ALICE, d.SwapMoods(0, 4), ScriptedRng([]))
    assert events == (
        d.MoodsSwapped(ALICE, 0, 4),
        d.MoodTrackFilled(ALICE, 4, "Careful", sentiment_to_mark=True),
    )
    sheet = new.sheet(ALICE)
    assert (sheet.mood(0).name, sheet.mood(0).die, sheet.mood(0).level) == ("Angry", Die.D8, 1)
    assert (sheet.mood(4).name, sheet.mood(4).die, sheet.mood(4).level) == ("Careful", Die.D4, 0)
    assert own(new) == FILLED_CHOICES
    new = do(do(new, ALICE, d.EndangerSentiment(0)), ALICE, d.RenameMood("Paranoid"))
    # Back to the introspection, which is still open (the swap is used).
    assert d.allowed_actions(new)[ALICE] >= {
        DowntimeKind.REDUCE_MOOD,
        DowntimeKind.FINISH_INTROSPECTION,
    }
    assert DowntimeKind.SWAP_MOODS not in d.allowed_actions(new)[ALICE]


def test_ruling23_a_swap_landing_exactly_on_the_last_box_fills_it() -> None:
    # Curious (d6) at 5 onto Angry's d4: five boxes, the last one marked.
    state = introspecting(make_sheet("Ash").raise_mood(2, 5))
    new = do(state, ALICE, d.SwapMoods(2, 4))
    assert new.budget(ALICE).filled == d.FilledTrack(4, endanger=True)
    assert new.sheet(ALICE).mood(4).level == 0


def test_ruling23_a_level_that_fits_moves_unchanged() -> None:
    state = introspecting(make_sheet("Ash").raise_mood(0, 4).raise_mood(4, 2))
    new, events = d.apply(state, ALICE, d.SwapMoods(0, 4), ScriptedRng([]))
    assert events == (d.MoodsSwapped(ALICE, 0, 4),)
    assert (new.sheet(ALICE).mood(0).level, new.sheet(ALICE).mood(4).level) == (2, 4)
    assert new.budget(ALICE).filled is None


def test_ruling23_an_open_choice_survives_storage() -> None:
    state = reconnected_full()
    assert DowntimeState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


# A sheet with random levels on every written line, and a random pair to swap.
LEVELS = st.tuples(*(st.integers(0, 8) for _ in range(6)))


def sheet_with(levels: tuple[int, ...], lost: int) -> Character:
    sheet = make_sheet("Ash").write_mood(1, "Hopeful").write_mood(3, "Tired")
    sheet = sheet.write_mood(5, "Calm")
    for line, level in enumerate(levels):
        sheet = sheet.raise_mood(line, min(level, sheet.mood(line).die.boxes - 1))
    for i in range(lost):
        sheet = sheet.endanger_sentiment(i).endanger_sentiment(i)
    return sheet


@settings(max_examples=200, deadline=None)
@given(LEVELS, st.integers(0, 5), st.integers(0, 5), st.integers(0, 3))
def test_ruling23_any_swap_moves_names_and_levels_or_fills_the_track(
    levels: tuple[int, ...], first: int, second: int, lost: int
) -> None:
    before = sheet_with(levels, lost)
    state = introspecting(before)
    if first == second:
        with pytest.raises(Malformed):
            do(state, ALICE, d.SwapMoods(first, second))
        return
    new, events = d.apply(state, ALICE, d.SwapMoods(first, second), ScriptedRng([]))
    after = new.sheet(ALICE)
    a, b = before.mood(first), before.mood(second)
    for line, moved, track in ((first, b, a.die), (second, a, b.die)):
        mood = after.mood(line)
        assert (mood.name, mood.die, mood.overloaded) == (moved.name, track, moved.overloaded)
        full = moved.level >= track.boxes
        assert mood.level == (0 if full else moved.level)
        assert (new.budget(ALICE).filled is not None and new.budget(ALICE).filled.mood == line) == (
            full
        )
    # At most one line can overflow: only the shorter track can be too short.
    fills = [e for e in events if isinstance(e, d.MoodTrackFilled)]
    assert len(fills) <= 1
    if fills:
        assert fills[0].sentiment_to_mark == bool(before.usable_sentiments)
        assert own(new) == {
            k
            for k, left in (
                (DowntimeKind.ENDANGER_SENTIMENT, bool(before.usable_sentiments)),
                (DowntimeKind.RENAME_MOOD, True),
            )
            if left
        }
    # Nothing else on the sheet moved, sentiments included, until the player chooses.
    others = [i for i in range(6) if i not in (first, second)]
    assert [after.mood(i) for i in others] == [before.mood(i) for i in others]
    assert after.sentiments == before.sentiments
    assert not any(m.track_full for m in after.moods)
