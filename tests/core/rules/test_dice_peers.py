"""Dice forms read as the rollers players come from mean them: each test names the peer
and its documented meaning. Odds are checked against enumerations written here."""

from __future__ import annotations

import itertools
from collections import defaultdict
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.dice import (
    MAX_INPUT,
    MAX_ROLL_STEPS,
    DiceRoll,
    Malformed,
    counts_rewritten,
    parse,
    parse_steps,
    reading_changes,
    roll,
)
from core.rules.dice_odds import STEP_BUDGET, TOO_LARGE, _Budget, _node, estimate, odds
from core.rules.rng import ScriptedRng, SeededRng
from tests.core.rules.test_dice import _agree

# --- criticals: cs and cf mark faces, f subtracts failures ---------------------------


def _faces(text: str, rng: ScriptedRng) -> tuple[int, list[tuple[int, int]]]:
    result = roll(parse(text), rng)
    (term,) = result.outcomes[0].parts
    assert isinstance(term, DiceRoll)
    return result.total, [(f.value, f.crit) for d in term.rolled for f in d.faces]


def test_roll20_cs_marks_a_critical_success_and_the_total_stays_the_sum() -> None:
    # Roll20: cs>19 marks 19 or more (rpg-dice-roller would read "more than 19"; for cs
    # and cf, Roll20's syntax, we follow Roll20)
    total, faces = _faces("1d20cs>19", ScriptedRng([19]))
    assert total == 19 and faces == [(19, 1)]
    total, faces = _faces("1d20cs>19", ScriptedRng([7]))
    assert total == 7 and faces == [(7, 0)]
    assert not parse("1d20cs>19").counts_successes
    assert odds(parse("1d20cs>19")).mean == pytest.approx(10.5)


def test_roll20_cs_and_cf_mark_both_ends_of_a_summed_pool() -> None:
    # Roll20: cs>3 is 3 or more, cf<3 is 3 or less (a 3 is both: marked a success)
    total, faces = _faces("3d6cs>3cf<3", ScriptedRng([6, 1, 2]))
    assert total == 9 and faces == [(6, 1), (1, -1), (2, -1)]


def test_roll20_f_after_a_success_count_subtracts_each_failure() -> None:
    assert roll(parse("10d10>=8f1"), ScriptedRng([8, 1, 10, 3, 1, 9, 2, 2, 2, 2])).total == 1
    with pytest.raises(Malformed):
        parse("10d10f1")  # failures are counted with successes only


def test_old_cs_and_cf_counts_are_rewritten_to_the_same_count() -> None:
    assert counts_rewritten("6d6cs6") == "6d6=6"
    assert counts_rewritten("3d6cs>3cf<3 hits") == "3d6>3f<3 hits"
    assert counts_rewritten("10d10>=8cf1") == "10d10>=8f1"
    assert counts_rewritten("1d20+5 adv") == "1d20+5 adv"
    assert reading_changes("6d6cs6") == ("crit",) and reading_changes("6d6=6") == ()


def test_not_equal_after_a_space_is_told_as_a_changed_reading() -> None:
    # "2d6 !=6" exploded on 6 before; now it counts the dice not showing 6
    assert parse("2d6 !=6").notation == "2d6<>6"
    assert reading_changes("2d6 !=6") == ("spaced",)
    assert reading_changes("2d6 != 6 hits") == ("spaced",)
    assert reading_changes("2d6!=6") == ()  # written against the dice: it explodes, as before
    assert reading_changes("2d6 <>6") == ()


# --- keep and drop over exploding dice ------------------------------------------------


def _keep_highest_over_max_explosions(dice: int, sides: int, keep: int) -> dict[int, float]:
    """kh over every face of ``dice`` dice exploding on their top face, enumerated: the
    number of top faces (explosions spread over the dice) and the final faces below it."""
    found: dict[int, float] = defaultdict(float)
    p = 1 / sides
    for tops in range(keep + 1):
        # `tops` top faces among all chains (exactly, unless keep of them is plenty)
        if tops < keep:
            chance = comb(tops + dice - 1, dice - 1) * p**tops * (1 - p) ** dice
        else:
            chance = 1 - sum(
                comb(t + dice - 1, dice - 1) * p**t * (1 - p) ** dice for t in range(keep)
            )
        if tops >= keep:
            found[keep * sides] += chance
            continue
        rest = list(itertools.product(range(1, sides), repeat=dice))
        for finals in rest:
            best = sorted(finals, reverse=True)[: keep - tops]
            found[tops * sides + sum(best)] += chance / len(rest)
    return found


@pytest.mark.parametrize(("text", "dice", "sides", "keep"), [("5d10!k2", 5, 10, 2),
                         ("4d6e6kh3", 4, 6, 3), ("3d4!kh2", 3, 4, 2)])  # fmt: skip
def test_d20_keep_highest_over_exploded_dice_keeps_single_rolls(
    text: str, dice: int, sides: int, keep: int
) -> None:
    exact = dict(odds(parse(text)).distribution)
    enumerated = _keep_highest_over_max_explosions(dice, sides, keep)
    assert set(exact) == set(enumerated)
    for value, chance in enumerated.items():
        assert exact[value] == pytest.approx(chance, abs=1e-12)
    assert max(exact) == keep * sides


def test_d20_five_exploding_d10_keep_two_is_at_most_twenty() -> None:
    found = odds(parse("5d10!k2"))
    assert found.maximum == 20 and found.mean == pytest.approx(16.12, abs=0.01)
    for seed in range(200):
        result = roll(parse("5d10!k2"), SeededRng(seed))
        assert result.total <= 20
        (term,) = result.outcomes[0].parts
        assert isinstance(term, DiceRoll) and sum(d.kept for d in term.rolled) == 2


def test_d20_an_added_die_is_kept_on_its_own() -> None:
    # 6 explodes into 6 then 2; 5; 1: the two highest single rolls are 6 and 6
    assert roll(parse("3d6!kh2"), ScriptedRng([6, 6, 2, 5, 1])).total == 12


def test_compounding_stays_one_die_for_keep() -> None:
    # rpg-dice-roller: !! adds the rolls into one die, which keep picks whole
    assert roll(parse("2d6!!kh1"), ScriptedRng([6, 2, 5])).total == 8
    assert odds(parse("2d6!!kh1")).maximum > 12


@pytest.mark.parametrize("text", ["2d3!kh1", "2d3!dl1", "2d3!pkl1", "2d3ra3dh1", "2d3!kh1>=2"])
def test_keep_over_explosions_matches_brute_force(text: str) -> None:
    _agree(parse(text))


# --- a comparison no face can meet is the total's target ------------------------------


@pytest.mark.parametrize(
    ("text", "target"),
    [("3d6 >= 12", ">=12"), ("2к6 >= 7", ">=7"), ("4d6kh3 = 18", "=18"), ("2d6 > 12", ">12"),
     ("2d6 != 7", "<>7"), ("2d6 <> 7", "<>7"), ("1d20+5 dc15", ">=15"),
     ("1d20+5 vs 15", ">=15"), ("1d20 сл 12", ">=12"), ("d20 adv >= 15", ">=15"),
     ("1d20 dis >= 10", ">=10")],
)  # fmt: skip
def test_a_comparison_no_face_can_meet_is_a_target_for_the_total(text: str, target: str) -> None:
    expression = parse(text)
    assert str(expression.target) == target and not expression.counts_successes


def test_roll20_a_comparison_some_faces_meet_still_counts_successes() -> None:
    assert parse("3d6>=5").counts_successes and parse("3d6 >= 5").target is None


def test_the_target_of_two_d6_against_seven_is_exact() -> None:
    assert odds(parse("2d6 >= 7")).target_chance == pytest.approx(21 / 36)
    result = roll(parse("3d6 >= 12"), ScriptedRng([6, 5, 1]))
    assert result.total == 12 and result.outcomes[0].reached is True


def test_advantage_with_a_target_rolls() -> None:
    result = roll(parse("d20 adv >= 15"), ScriptedRng([3, 16]))
    assert result.total == 16 and result.outcomes[0].reached is True
    assert odds(parse("d20 adv >= 15")).target_chance == pytest.approx(1 - (14 / 20) ** 2)


# --- arithmetic alone, spelled-out modifiers, and what stays refused ------------------


@pytest.mark.parametrize(
    ("text", "total"),
    [("15/2", 7), ("1+1", 2), ("-7/2", -4), ("7//2", 3), ("7%3", 1), ("-7%3", 2), ("2*3+1", 7)],
)
def test_d20_arithmetic_without_dice_answers(text: str, total: int) -> None:
    # d20: // is floor division and % the remainder (Python's); / rounds down here too
    expression = parse(text)
    assert roll(expression, ScriptedRng([])).total == total
    assert odds(expression).distribution == ((total, 1.0),)


def test_division_is_said_to_round_down() -> None:
    assert parse("15/2").divides and not parse("1d6*2").divides


def test_rpg_dice_roller_min_and_max_clamp_faces() -> None:
    assert parse("4d6min3") == parse("4d6mi3") and parse("4d6max3") == parse("4d6ma3")
    assert roll(parse("4d6min3"), ScriptedRng([1, 2, 5, 6])).total == 17


def test_rpg_dice_roller_bare_r_rerolls_the_lowest_face() -> None:
    assert parse("2d6r") == parse("2d6r1")
    assert parse("2d6ro").node == parse("2d6ro1").node


def test_rpg_dice_roller_not_equal_compare_points() -> None:
    assert parse("2d6r!=3") == parse("2d6r<>3")
    assert roll(parse("1d6r<>3"), ScriptedRng([5, 1])).total == 3  # only a 3 stays
    # right after dice, != is ! exploding on =6, as rpg-dice-roller reads it
    assert parse("2d6!=6").node == parse("2d6!").node


@pytest.mark.parametrize(
    ("text", "message"),
    [("4d6kh", "“{text}” needs a number, as in {example}."),
     ("4d6 min + 1", "“{text}” needs a number, as in {example}."),
     ("2d6ra", "“{text}” needs a number, as in {example}."),
     ("4d10dh1dl2", "Two drops on one dice term (“{text}”): use one, as in 4d6dl1."),
     ("4d6kh3k2", "Two keeps on one dice term (“{text}”): use one, as in 4d6kh3."),
     ("4d6kh3dl1", "A keep and a drop on one dice term (“{text}”): use one, as in 4d6kh3."),
     ("2d6 >=", "A target needs a number, as in 2d6 >= 7."),
     ("1d20 dc", "A target needs a number, as in 2d6 >= 7.")],
)  # fmt: skip
def test_what_stays_unsupported_is_refused_naming_what_is_missing(text: str, message: str) -> None:
    with pytest.raises(Malformed) as caught:
        parse(text)
    assert caught.value.message_id == message


def test_a_note_after_vs_stays_a_note() -> None:
    assert parse("1d20 vs goblin").label == "vs goblin"


# --- reroll until it doesn't match is exact -------------------------------------------


def test_rpg_dice_roller_r_rerolls_until_the_face_no_longer_matches() -> None:
    assert {roll(parse("1d20rr<20"), SeededRng(s)).total for s in range(100)} == {20}
    assert odds(parse("1d20rr<20")).distribution == ((20, 1.0),)


def test_roll20_r1_on_4d6_keep_three_is_at_least_six() -> None:
    found = odds(parse("4d6r1kh3"))
    assert found.minimum == 6
    brute: dict[int, float] = defaultdict(float)
    for faces in itertools.product(range(2, 7), repeat=4):
        brute[sum(sorted(faces)[1:])] += 1 / 5**4
    for value, chance in brute.items():
        assert dict(found.distribution)[value] == pytest.approx(chance)


def test_ro_rerolls_once_and_the_new_face_stands() -> None:
    # Roll20: ro rerolls once; the odds of a 1 are 1/6 * 1/6
    assert dict(odds(parse("1d6ro1")).distribution)[1] == pytest.approx(1 / 36)
    assert 1 not in dict(odds(parse("1d6r1")).distribution)


@pytest.mark.parametrize("text", ["1d4r1", "2d4r<3", "1d3rr>1", "1dFr", "2d4ro<3"])
def test_rerolls_match_brute_force(text: str) -> None:
    _agree(parse(text))


# --- bounded work, in engine steps ---------------------------------------------------


class CountingRng:
    """A seeded Rng that counts its draws: the roller's steps."""

    def __init__(self, seed: int) -> None:
        self.inner = SeededRng(seed)
        self.draws = 0

    def randint(self, low: int, high: int) -> int:
        self.draws += 1
        return self.inner.randint(low, high)


heavy_dice = st.builds(
    lambda count, sides, mod: f"{count}d{sides}{mod}",
    st.sampled_from([1, 2, 10, 100, 500, 1000]),
    st.sampled_from(["2", "6", "20", "100", "1000", "F"]),
    st.sampled_from(["", "!", "!p", "!!", "r<1000", "rr<6", "ro1", "r", "!<1000", "ra2",
                     "!kh1", "!kl2", "r<1000!<1000", "e>1", ">=2f1", "cs>5"]),
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(heavy_dice, min_size=1, max_size=3), st.integers(0, 2**32))
def test_any_allowed_roll_draws_within_its_step_bound(parts: list[str], seed: int) -> None:
    # r rerolls until no match in one more draw (no retry loop), so the bound holds
    try:
        expression = parse("+".join(parts))
    except Malformed:
        return
    rng = CountingRng(seed)
    roll(expression, rng)
    assert rng.draws <= MAX_ROLL_STEPS


keep_dice = st.builds(
    lambda count, sides, mod, n: f"{count}d{sides}{mod}{n}",
    st.sampled_from([1, 2, 3, 5, 8, 18, 20, 100, 1000]),
    st.sampled_from(["2", "6", "10", "20", "100", "675", "1000", "F"]),
    st.sampled_from(["kh", "kl", "dh", "dl", "!kh", "!kl", "!dl", "!pkh", "!!kh", ">=5kh",
                     "!>=5kh", "ra5kh", "e>1kh", "mi2kh", "r1!kh"]),
    st.integers(1, 10),
)  # fmt: skip
any_dice = st.one_of(heavy_dice, keep_dice)


@st.composite
def shaped(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(any_dice, st.integers(1, 99).map(str)), min_size=1,
                          max_size=3))  # fmt: skip
    text = parts[0]
    for part in parts[1:]:
        text += draw(st.sampled_from(["+", "-", "*", ", "])) + part
    if ", " in text or draw(st.booleans()):
        text = f"({text})" + draw(st.sampled_from(["", "kh1", "kl2", "dl1"]))
    return text


def _steps_taken(text: str) -> tuple[int, int] | None:
    """The estimate and the steps the odds take without a limit, for a roll allowed
    (or, unlimited, at most a few times the budget): None if the text isn't a roll."""
    try:
        expression = parse(text)
    except Malformed:
        return None
    guess = estimate(expression, cap=10**18)
    spent = _Budget(10**18)
    _node(expression.node, spent)
    return guess, spent.used


@settings(max_examples=150, deadline=None)
@given(shaped())
def test_any_allowed_roll_parses_rolls_and_gets_its_odds_within_its_step_budget(
    text: str,
) -> None:
    try:
        expression = parse(text)
    except Malformed:
        return
    assert parse_steps(text) <= 8 * len(text) + 16
    rng = CountingRng(1)
    roll(expression, rng)
    assert rng.draws <= MAX_ROLL_STEPS
    guess = estimate(expression)
    if guess > STEP_BUDGET:  # refused up front, from the estimate alone
        with pytest.raises(Malformed) as refused:
            odds(expression)
        assert refused.value.message_id == TOO_LARGE
        return
    answer = odds(expression)
    assert answer.steps <= guess <= STEP_BUDGET  # the estimate is never below the work


@pytest.mark.parametrize(
    "text, allowed",
    [("7d100kh3", True), ("8d100kh3", False), ("18d20kh9", True), ("20d20kh10", False),
     ("115d6", True), ("118d6", False), ("5d6!", True), ("7d6!", False),
     ("1d1000!kl1", True), ("3d6!dl1", False), ("5d10!k2", True), ("200d10>=8f1", True)],
)  # fmt: skip
def test_the_estimate_bounds_the_work_on_both_sides_of_the_budget(text: str, allowed: bool) -> None:
    found = _steps_taken(text)
    assert found is not None
    guess, used = found
    assert used <= guess
    assert (guess <= STEP_BUDGET) is allowed
    if not allowed:
        with pytest.raises(Malformed):
            odds(parse(text))


def test_a_refusal_is_decided_before_any_work() -> None:
    # the estimate alone decides: far past the budget it stops counting at once
    assert estimate(parse("1000d1000!kh500")) > STEP_BUDGET
    assert estimate(parse("1000d1000")) > STEP_BUDGET
    assert estimate(parse("1d1000!")) > STEP_BUDGET


texts = st.one_of(
    st.text(alphabet="0123456789dDкд%F+-*/()[],!<>=khlprsoaeimcfx adv", max_size=MAX_INPUT),
    st.lists(st.sampled_from(["1d6", " ", "  ", "+", "(", ")", "kh1", "!", " !", "[", "]",
                              "a", "adv", ",", "r1", ">=3", "x2", "dc", "1000"]),
             max_size=300).map("".join),
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(texts)
def test_parsing_is_linear_in_the_text(text: str) -> None:
    assert parse_steps(text) <= 8 * len(text) + 16


def test_parsing_long_texts_stays_linear() -> None:
    for text in [" " * 990 + "1d6", "1d6" + " " * 990, "1d6[" + "a" * 990, "(" * 10 + "1d6"
                 + ")" * 10 + " +1" * 320, "1d6 " + "a" * 990, "+".join(["d1000!"] * 142),
                 "1d20" + " adv" * 240, "1d6" + "  +  1" * 160]:  # fmt: skip
        text = text[:MAX_INPUT]
        assert parse_steps(text) <= 8 * len(text) + 16
