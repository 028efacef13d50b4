"""The NSU character sheet and character creation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.nsu.details import Detail, DetailKind, Polarity
from core.rules.nsu.sheet import (
    MOOD_LINE_DICE,
    Aspect,
    Aspects,
    Character,
    CharacterDraft,
    CreationStep,
    Die,
    Mood,
    Sentiment,
    SentimentState,
    Skill,
    assign_aspects,
    choose_name,
    consider_rumours,
    describe,
    finish_creation,
    invent_sentiments,
    missing_steps,
    pick_moods,
    write_skills,
)


def full_draft() -> CharacterDraft:
    d = CharacterDraft()
    d = choose_name(d, "Ash")
    d = describe(d, "they/them", "Patched coat, brass goggles")
    d = pick_moods(d, "Curious", "Wary", "Angry")
    d = assign_aspects(d, body=Die.D4, mind=Die.D8, heart=Die.D6)
    d = invent_sentiments(d, "My sister", "The old compass", "Nothing is wasted")
    return write_skills(d, "Climbing", "Haggling", "Tinkering")


def make_character() -> Character:
    return finish_creation(full_draft())


# -- sheet layout --------------------------------------------------------------


def test_mood_lines_are_two_each_of_d8_d6_d4() -> None:
    assert MOOD_LINE_DICE == (Die.D8, Die.D8, Die.D6, Die.D6, Die.D4, Die.D4)
    assert tuple(m.die for m in make_character().moods) == MOOD_LINE_DICE


@pytest.mark.parametrize(
    ("die", "boxes", "threshold"), [(Die.D8, 9, 4), (Die.D6, 7, 3), (Die.D4, 5, 2)]
)
def test_mood_track_has_die_plus_one_boxes_and_threshold_at_half(
    die: Die, boxes: int, threshold: int
) -> None:
    assert die.boxes == boxes
    assert die.overload_threshold == threshold


def test_past_threshold_means_level_above_threshold() -> None:
    assert not Mood(Die.D6, "Wary", 3).past_threshold
    assert Mood(Die.D6, "Wary", 4).past_threshold


def test_mood_level_cannot_leave_its_track() -> None:
    with pytest.raises(Malformed):
        Mood(Die.D4, "Angry", 6)
    with pytest.raises(Malformed):
        Mood(Die.D4, "Angry", -1)


def test_aspects_take_d8_d6_d4_one_each() -> None:
    assert Aspects(Die.D4, Die.D8, Die.D6).die(Aspect.MIND) is Die.D8
    with pytest.raises(Malformed):
        Aspects(Die.D8, Die.D8, Die.D4)


def test_die_parse_accepts_sheet_dice_only() -> None:
    assert Die.parse("D6") is Die.D6
    assert Die.parse("8") is Die.D8
    with pytest.raises(Malformed):
        Die.parse("d10")


def test_only_one_mood_can_be_overloaded() -> None:
    c = make_character().set_overloaded(0, True).set_overloaded(2, True)
    assert c.overloaded_mood == 2
    assert not c.moods[0].overloaded


# -- creation --------------------------------------------------------------


def test_creation_fills_one_line_of_each_die_and_leaves_three_open() -> None:
    c = make_character()
    assert [m.name for m in c.moods] == ["Curious", None, "Wary", None, "Angry", None]
    assert sum(m.is_open for m in c.moods) == 3


def test_creation_writes_three_skills_at_modifier_one() -> None:
    c = make_character()
    assert [(s.name, s.modifier) for s in c.skills] == [
        ("Climbing", 1),
        ("Haggling", 1),
        ("Tinkering", 1),
    ]


def test_creation_starts_connected_unharmed_without_recovery_points() -> None:
    c = make_character()
    assert all(s.state is SentimentState.CONNECTED for s in c.sentiments)
    assert c.harms == () and c.scars == () and c.recovery_points == 0
    assert not c.overcome


def test_name_may_be_chosen_last() -> None:
    d = full_draft()
    d = CharacterDraft(**{**d.__dict__, "name": None})
    assert missing_steps(d) == (CreationStep.NAME,)
    with pytest.raises(NotAllowedNow, match="name"):
        finish_creation(d)
    assert finish_creation(choose_name(d, "Bryn")).name == "Bryn"


def test_every_required_step_is_reported_missing_in_order() -> None:
    assert missing_steps(CharacterDraft()) == (
        CreationStep.NAME,
        CreationStep.PRONOUNS_AND_LOOK,
        CreationStep.MOODS,
        CreationStep.ASPECTS,
        CreationStep.SENTIMENTS,
        CreationStep.SKILLS,
    )


def test_rumours_are_optional_and_kept() -> None:
    assert make_character().rumours == ()
    c = finish_creation(consider_rumours(full_draft(), "A tower that hums", "  "))
    assert c.rumours == ("A tower that hums",)


def test_a_sentiment_line_may_stay_blank_and_be_written_later() -> None:
    d = invent_sentiments(full_draft(), "My sister", None, "")
    c = finish_creation(d)
    assert c.sentiments[1].name is None and c.usable_sentiments == (0,)
    c = c.write_sentiment(1, "Bryn, my rival")
    assert c.usable_sentiments == (0, 1)
    with pytest.raises(NotAllowedNow):
        c.write_sentiment(1, "Again")


def test_creation_rejects_duplicates_and_empty_names() -> None:
    with pytest.raises(Malformed):
        pick_moods(CharacterDraft(), "Angry", "angry", "Calm")
    with pytest.raises(Malformed):
        write_skills(CharacterDraft(), "Climb", "Climb", "Swim")
    with pytest.raises(Malformed):
        choose_name(CharacterDraft(), "   ")
    with pytest.raises(Malformed):
        describe(CharacterDraft(), "she", "")
    with pytest.raises(Malformed):
        invent_sentiments(CharacterDraft(), "Home", "home", None)


# -- moods -----------------------------------------------------------------


def test_new_mood_on_open_line_takes_that_lines_die() -> None:
    c = make_character().write_mood(5, "Giddy")
    assert c.moods[5] == Mood(Die.D4, "Giddy")
    with pytest.raises(NotAllowedNow):
        c.write_mood(5, "Other")
    with pytest.raises(Malformed):
        c.write_mood(1, "giddy")  # same mood twice


def test_raise_mood_stops_at_last_box_and_lower_stops_at_zero() -> None:
    c = make_character().raise_mood(4, 9)
    assert c.moods[4].level == 5 and c.moods[4].track_full
    assert c.lower_mood(4, 9).moods[4].level == 0
    with pytest.raises(NotAllowedNow):
        c.raise_mood(1)


def test_swap_moods_moves_names_and_levels() -> None:
    c = make_character().raise_mood(0, 3).swap_moods(0, 4)
    assert (c.moods[0].name, c.moods[0].level) == ("Angry", 0)
    assert (c.moods[4].name, c.moods[4].level) == ("Curious", 3)


def test_replace_mood_only_at_level_zero() -> None:
    c = make_character()
    assert c.replace_mood(2, "Calm").moods[2].name == "Calm"
    with pytest.raises(NotAllowedNow):
        c.raise_mood(2).replace_mood(2, "Calm")


def test_rename_keeps_level() -> None:
    c = make_character().raise_mood(4, 2).rename_mood(4, "Enraged")
    assert c.moods[4] == Mood(Die.D4, "Enraged", 2)


# -- skills ----------------------------------------------------------------


def test_new_skills_start_at_zero_and_fill_at_most_six_lines() -> None:
    c = make_character().add_skill("Swimming")
    assert c.skills[3] == Skill("Swimming", 0)
    c = c.add_skill("Singing").add_skill("Juggling")
    with pytest.raises(NotAllowedNow):
        c.add_skill("Origami")


def test_skill_box_marks_aspect_used() -> None:
    c = make_character().mark_skill(0, Aspect.BODY).mark_skill(0, Aspect.BODY)
    assert c.skills[0].marked == {Aspect.BODY}


def test_upgrade_needs_all_three_boxes_then_raises_by_one_and_clears() -> None:
    c = make_character()
    with pytest.raises(NotAllowedNow):
        c.upgrade_skill(0)
    for aspect in Aspect:
        c = c.mark_skill(0, aspect)
    assert c.skills[0].ready_to_upgrade
    c = c.upgrade_skill(0)
    assert c.skills[0] == Skill("Climbing", 2)


# -- sentiments --------------------------------------------------------------


def test_sentiment_steps_connected_at_risk_lost() -> None:
    c = make_character().endanger_sentiment(0)
    assert c.sentiments[0].state is SentimentState.AT_RISK
    c = c.endanger_sentiment(0)
    assert c.sentiments[0].state is SentimentState.LOST
    assert 0 not in c.usable_sentiments
    with pytest.raises(NotAllowedNow):
        c.endanger_sentiment(0)


def test_sentiment_restore_and_forge() -> None:
    c = make_character().endanger_sentiment(0).endanger_sentiment(0)
    assert c.restore_sentiment(0).sentiments[0].state is SentimentState.AT_RISK
    forged = c.forge_sentiment(0, "A new friend")
    assert forged.sentiments[0].name == "A new friend"
    assert forged.sentiments[0].state is SentimentState.CONNECTED
    with pytest.raises(NotAllowedNow):
        make_character().forge_sentiment(1, "Not lost yet")
    with pytest.raises(NotAllowedNow):
        make_character().restore_sentiment(1)


# -- details and harm -----------------------------------------------------------


def test_sheet_holds_any_number_of_positive_and_negative_hard_details() -> None:
    c = make_character()
    for i in range(12):
        c = c.add_detail(Detail(f"Detail {i}", polarity=Polarity(["positive", "negative"][i % 2])))
    assert len(c.details) == 12
    assert len(c.remove_detail(0).details) == 11
    with pytest.raises(Malformed):
        c.add_detail(Detail("Door blasted", DetailKind.SCENE))


def test_fourth_harm_gives_overcome_and_no_fifth_fits() -> None:
    c = make_character()
    for harm in ("Sprained ankle", "Embarrassed", "Cast out"):
        c = c.add_harm(harm)
        assert not c.overcome and c.can_act
    c = c.add_harm("Concussed")
    assert c.overcome and not c.can_act
    with pytest.raises(NotAllowedNow):
        c.add_harm("Bruised")


def test_recovering_a_harm_costs_points_equal_to_harms_and_leaves_a_scar() -> None:
    c = make_character().add_harm("Broken wrist").add_harm("Embarrassed")
    with pytest.raises(NotAllowedNow):
        c.recover_harm(0, "Stiff wrist")
    c = c.add_recovery_points(3).recover_harm(0, "Stiff wrist")
    assert c.harms == ("Embarrassed",) and c.scars == ("Stiff wrist",)
    assert c.recovery_points == 1


def test_recovering_ends_overcome_and_scars_do_not_count() -> None:
    c = make_character()
    for i in range(4):
        c = c.add_harm(f"Harm {i}")
    c = c.add_recovery_points(4).recover_harm(3, "Scar")
    assert not c.overcome and c.can_act and len(c.scars) == 1


def test_recovery_points_are_capped_at_four() -> None:
    assert make_character().add_recovery_points(3).add_recovery_points(3).recovery_points == 4
    with pytest.raises(Malformed):
        Character(**{**make_character().__dict__, "recovery_points": 5})


# -- storage ---------------------------------------------------------------


def test_character_round_trips_through_plain_data() -> None:
    c = (
        make_character()
        .raise_mood(0, 5)
        .set_overloaded(0, True)
        .mark_skill(1, Aspect.HEART)
        .endanger_sentiment(2)
        .add_harm("Bruised")
        .add_detail(Detail("Well rested", polarity=Polarity.POSITIVE))
    )
    assert Character.from_dict(c.to_dict()) == c


def test_from_dict_rejects_broken_data() -> None:
    data = make_character().to_dict()
    data["harms"] = ["a", "b", "c", "d", "e"]
    with pytest.raises(Malformed):
        Character.from_dict(data)
    with pytest.raises(Malformed):
        Character.from_dict({"name": "x"})


@given(st.lists(st.integers(min_value=0, max_value=5), max_size=20), st.integers(0, 9))
def test_mood_level_always_stays_on_its_track(lines: list[int], amount: int) -> None:
    c = make_character()
    for line in lines:
        if c.moods[line].is_open:
            c = c.write_mood(line, f"Mood {line}")
        c = c.raise_mood(line, amount)
        assert all(0 <= m.level <= m.die.boxes for m in c.moods)


@given(
    st.sampled_from(MOOD_LINE_DICE),
    st.lists(st.tuples(st.booleans(), st.integers(0, 9)), max_size=12),
)
def test_a_mood_line_moves_along_its_own_track(die: Die, moves: list[tuple[bool, int]]) -> None:
    """Raised and lowered on its own, a mood stays on its track, as the sheet moves it."""
    index = MOOD_LINE_DICE.index(die) + 1  # the open line of that die
    line = Mood(die, "Calm")
    c = make_character().write_mood(index, "Calm")
    for up, amount in moves:
        before = line.level
        line = line.raised(amount) if up else line.lowered(amount)
        c = c.raise_mood(index, amount) if up else c.lower_mood(index, amount)
        assert c.moods[index] == line
        assert 0 <= line.level <= die.boxes
        assert (line.level >= before) if up else (line.level <= before)
    assert Mood(die).lowered(3) == Mood(die)
    with pytest.raises(NotAllowedNow):
        Mood(die).raised(1)


def test_a_sentiment_line_is_endangered_and_restored_box_by_box() -> None:
    line = Sentiment("My sister")
    at_risk = line.endangered()
    lost = at_risk.endangered()
    assert (at_risk.state, lost.state) == (SentimentState.AT_RISK, SentimentState.LOST)
    assert lost.restored() == at_risk and at_risk.restored() == line
    with pytest.raises(NotAllowedNow):
        lost.endangered()
    with pytest.raises(NotAllowedNow):
        line.restored()
    with pytest.raises(NotAllowedNow):
        line.forged("The old compass")
    assert lost.forged("The old compass") == Sentiment("The old compass")
    assert Sentiment().forged("Home") == Sentiment("Home")


def test_a_skill_line_upgrades_only_with_its_three_boxes_marked() -> None:
    skill = Skill("Climb", 1, frozenset({Aspect.BODY, Aspect.MIND}))
    with pytest.raises(NotAllowedNow):
        skill.upgraded()
    assert Skill("Climb", 1, frozenset(Aspect)).upgraded() == Skill("Climb", 2)
