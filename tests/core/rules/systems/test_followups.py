"""Follow-ups on a rolled result (a push, a reroll for a spent point): what they roll,
which are offered, their exact odds given what was rolled against brute force written
here from each game's rules, and the declarations a definition refuses."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.errors import Malformed
from core.rules.systems import definition as fmt
from core.rules.systems import (
    follow_up,
    followup_odds,
    library_definition,
    offered,
    read_system,
    roll,
)
from core.rules.systems.play import GroupRoll, SystemRoll, read_roll
from tests.core.rules.systems import brute


class Faces:
    """An Rng that shows the faces it is given, in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, low: int, high: int) -> int:
        face = self.faces.pop(0)
        assert low <= face <= high
        return face


def rolled(system: str, inputs: dict[str, int], *faces: int) -> SystemRoll:
    return roll(library_definition(system), inputs, Faces(*faces))


def chances(system: str, result: SystemRoll, key: str) -> dict[str, Fraction]:
    table = followup_odds(library_definition(system), result, key)
    return {row.outcome.key: row.chance for row in table.outcomes if row.chance}


# --- a push: the dice that stay, and the rest rolled again ---------------------------


def test_a_year_zero_push_keeps_the_sixes_and_rerolls_the_rest() -> None:
    yze = library_definition("yze")
    first = rolled("yze", {"pool": 4}, 6, 3, 1, 2)
    assert first.outcome.key == "success" and offered(yze, first, {}) == ("push",)
    new, stands = follow_up(yze, first, "push", Faces(6, 1, 5))
    assert new is stands
    assert [faces for faces, _ in new.groups[0].dice] == [(6,), (6,), (1,), (5,)]
    assert new.outcome.key == "two"
    assert [m.key for m in new.marks] == ["ones"]  # a 1 after pushing: the cost
    assert not first.marks  # the same 1 before a push is no mark
    assert offered(yze, new, {"push": 1}) == ()  # pushed once


def test_a_push_with_every_die_a_six_is_not_offered() -> None:
    yze = library_definition("yze")
    assert offered(yze, rolled("yze", {"pool": 2}, 6, 6), {}) == ()


def _yze_push_brute(kept: tuple[int, ...]) -> dict[str, Fraction]:
    """Year Zero, from its rules: the sixes stay, every other die is rolled again."""
    sixes = kept.count(6)
    again = len(kept) - sixes
    counts: Counter[str] = Counter()
    for faces in product(range(1, 7), repeat=again):
        n = sixes + faces.count(6)
        counts[("failure", "success", "two", "three")[min(n, 3)]] += 1
    return {k: Fraction(v, 6**again) for k, v in counts.items()}


@pytest.mark.parametrize(
    "faces", [(1,), (6, 2), (3, 3, 3), (6, 1, 4, 2), (6, 6, 2, 5, 1), (2, 3, 4, 5, 1, 2)]
)
def test_year_zero_push_odds_match_brute_force(faces: tuple[int, ...]) -> None:
    first = rolled("yze", {"pool": len(faces)}, *faces)
    assert chances("yze", first, "push") == _yze_push_brute(faces)


def test_year_zero_push_odds_name_the_cost_of_a_one() -> None:
    first = rolled("yze", {"pool": 5}, 6, 2, 2, 3, 4)
    table = followup_odds(library_definition("yze"), first, "push")
    assert table.marks[0].chance == 1 - Fraction(5, 6) ** 4


def _shadowrun_second_chance_brute(faces: tuple[int, ...], threshold: int) -> dict[str, Fraction]:
    """Shadowrun's Second Chance, from its rules: hits stay, the other dice roll again;
    then hits against the threshold and the glitch as in any test."""
    pool = len(faces)
    hits = sum(f >= 5 for f in faces)
    again = pool - hits
    counts: Counter[str] = Counter()
    for new in product(range(1, 7), repeat=again):
        all_hits = hits + sum(f >= 5 for f in new)
        ones = new.count(1)
        if 2 * ones > pool and all_hits == 0:
            key = "critical_glitch"
        else:
            net = all_hits - threshold
            key = (
                "failure"
                if net < 0
                else "success"
                if net == 0
                else "extra1"
                if net <= 2
                else "extra3"
            )
        counts[key] += 1
    return {k: Fraction(v, 6**again) for k, v in counts.items()}


@pytest.mark.parametrize(
    ("faces", "threshold"),
    [((1, 1, 2), 1), ((5, 1, 1, 3), 2), ((6, 5, 2, 2, 1, 1), 3), ((4, 3, 2, 1, 1, 1, 1), 1)],
)
def test_shadowrun_second_chance_odds_match_brute_force(
    faces: tuple[int, ...], threshold: int
) -> None:
    first = rolled("shadowrun", {"pool": len(faces), "threshold": threshold}, *faces)
    assert chances("shadowrun", first, "second_chance") == _shadowrun_second_chance_brute(
        faces, threshold
    )


# a table's own game that reads everything a push may change: listed faces, the total,
# the highest and lowest (among some faces too), counts, and a second group that stays
OWN = """
key = "mixed"
version = 1
source = "a test table"
value = "total(pool) + high(pool) - low(pool, \\">1\\") + count(pool, \\">=4\\") + total(side)"
name = { en = "Mixed", ru = "Смесь" }
about = { en = "A pool read many ways.", ru = "Пул, прочитанный по-разному." }

[[inputs]]
key = "n"
name = { en = "dice", ru = "кости" }
default = 3
min = 1
max = 4

[dice.pool]
count = "n"
die = "d4"
faces = [0, 1, 3, 5]

[dice.side]
count = "1"
die = "d3"

[[followups]]
key = "again"
group = "pool"
stay = [5]
label = { en = "Again", ru = "Ещё" }

[[outcomes]]
key = "top"
min = 14
label = { en = "High", ru = "Высоко" }

[[outcomes]]
key = "mid"
min = 8
max = 13
label = { en = "Middle", ru = "Середина" }

[[outcomes]]
key = "bottom"
max = 7
label = { en = "Low", ru = "Низко" }

[[marks]]
key = "zero"
when = "again and count(pool, \\"=0\\") > 1"
label = { en = "Two zeros after", ru = "Два нуля после" }
"""


@settings(max_examples=40, deadline=None)
@given(
    pool=st.lists(st.sampled_from((0, 1, 3, 5)), min_size=1, max_size=4),
    side=st.integers(1, 3),
)
def test_a_push_of_any_reading_matches_every_way_the_dice_fall(pool: list[int], side: int) -> None:
    definition = read_system(OWN)
    first = read_roll(
        definition,
        {"n": len(pool)},
        [
            GroupRoll("pool", f"{len(pool)}d4", tuple(((f,), True) for f in pool)),
            GroupRoll("side", "1d3", (((side,), True),)),
        ],
    )
    again = [i for i, f in enumerate(pool) if f != 5]
    if not again:
        assert offered(definition, first, {}) == ()
        return
    # brute force: every face of every rerolled die, read by the roll's own reading
    outcomes: Counter[str] = Counter()
    marks = 0
    for faces in product((0, 1, 3, 5), repeat=len(again)):
        shown = list(pool)
        for i, f in zip(again, faces, strict=True):
            shown[i] = f
        new = read_roll(
            definition,
            {"n": len(pool)},
            [
                GroupRoll("pool", "", tuple(((f,), True) for f in shown)),
                GroupRoll("side", "", (((side,), True),)),
            ],
            made="again",
        )
        outcomes[new.outcome.key] += 1
        marks += bool(new.marks)
    table = followup_odds(definition, first, "again")
    ways = 4 ** len(again)
    assert {r.outcome.key: r.chance for r in table.outcomes if r.chance} == {
        k: Fraction(v, ways) for k, v in outcomes.items()
    }
    assert table.marks[0].chance == Fraction(marks, ways)


# --- a reroll of the whole roll -------------------------------------------------------

SAVAGE_ORDER = ("critical_failure", "failure", "success", "raise", "raises2", "raises3")


@pytest.mark.parametrize(
    ("inputs", "faces"),
    [
        ({"trait": 8, "mod": 0, "wild": 1}, (2, 3)),  # failure
        ({"trait": 8, "mod": 1, "wild": 1}, (5, 2)),  # success (6)
        ({"trait": 6, "mod": 0, "wild": 1}, (6, 4, 3)),  # an ace: 10, a raise
        ({"trait": 10, "mod": -2, "wild": 0}, (4, 3)),  # an Extra's failure
    ],
)
def test_a_benny_keeps_the_better_roll_and_its_odds_match_brute_force(
    inputs: dict[str, int], faces: tuple[int, ...]
) -> None:
    first = rolled("savage", inputs, *faces)
    fresh = brute.savage(inputs["trait"], inputs["mod"], inputs["wild"])
    # the better of the two stands: an outcome above the first as the new roll reads
    # it, the first's own as often as the new one reads it or worse
    rank = SAVAGE_ORDER.index(first.outcome.key)
    expected = {
        key: (
            sum(fresh.get(k, Fraction(0)) for k in SAVAGE_ORDER[: rank + 1])
            if i == rank
            else fresh.get(key, Fraction(0))
        )
        for i, key in enumerate(SAVAGE_ORDER)
        if i >= rank
    }
    assert chances("savage", first, "benny") == {k: v for k, v in expected.items() if v}


def test_a_benny_that_rolls_worse_leaves_the_first_roll_standing() -> None:
    savage = library_definition("savage")
    first = rolled("savage", {"trait": 8, "mod": 0, "wild": 1}, 5, 2)
    new, stands = follow_up(savage, first, "benny", Faces(2, 3))
    assert new.outcome.key == "failure" and stands is first
    better, stands = follow_up(savage, first, "benny", Faces(8, 4, 6, 2))
    assert stands is better and better.value > first.value


def test_a_benny_is_offered_three_times_and_never_on_a_critical_failure() -> None:
    savage = library_definition("savage")
    first = rolled("savage", {"trait": 8, "mod": 0, "wild": 1}, 2, 3)
    assert offered(savage, first, {"benny": 2}) == ("benny",)
    assert offered(savage, first, {"benny": 3}) == ()
    fumble = rolled("savage", {"trait": 8, "mod": 0, "wild": 1}, 1, 1)
    assert fumble.outcome.key == "critical_failure"
    assert offered(savage, fumble, {}) == ()


def test_a_pushed_call_of_cthulhu_roll_has_the_roll_s_own_odds() -> None:
    coc = library_definition("coc")
    first = rolled("coc", {"skill": 45, "bonus": 0}, 3, 9)  # 82: a failure
    assert first.outcome.key == "failure" and offered(coc, first, {}) == ("push",)
    assert chances("coc", first, "push") == {k: v for k, v in brute.coc(45, 0).items() if v}
    success = rolled("coc", {"skill": 45, "bonus": 0}, 9, 3)  # 28
    assert offered(coc, success, {}) == ()


# --- declarations a definition refuses ------------------------------------------------


def _with(**followup: object) -> str:
    data = tomllib.loads(OWN)
    data["followups"] = [{"key": "again", "label": {"en": "Again", "ru": "Ещё"}, **followup}]
    return json.dumps(data)


def _refused(text: str) -> Malformed:
    with pytest.raises(Malformed) as caught:
        read_system(text)
    return caught.value


@pytest.mark.parametrize(
    ("followup", "message", "field"),
    [
        ({"group": "nowhere", "stay": [5]}, fmt.FOLLOWUP_GROUP, "followups[0].group"),
        ({"group": "pool", "stay": [5], "times": 0}, fmt.FOLLOWUP_TIMES, "followups[0].times"),
        ({"group": "pool", "stay": [5], "times": 99}, fmt.FOLLOWUP_TIMES, "followups[0].times"),
        ({"stay": [5]}, fmt.FOLLOWUP_STAY, "followups[0].stay"),
        ({"group": "pool", "better": True}, fmt.FOLLOWUP_BETTER, "followups[0].better"),
        ({"on": ["nothing"]}, fmt.FOLLOWUP_OUTCOME, "followups[0].on"),
        ({"group": "pool", "stay": [0, 1, 3, 5]}, fmt.FOLLOWUP_NEVER, "followups[0].stay"),
        ({"group": "pool", "again": 2}, fmt.UNKNOWN_FIELD, "followups[0].again"),
        ({"better": "yes"}, fmt.WRONG_TYPE, "followups[0].better"),
    ],
)
def test_a_bad_follow_up_is_refused_by_its_field(
    followup: dict[str, object], message: str, field: str
) -> None:
    refused = _refused(_with(**followup))
    assert refused.message_id == message
    assert refused.values["field"] == field


def test_a_push_of_exploding_dice_is_refused() -> None:
    data = tomllib.loads(OWN)
    data["dice"]["pool"] = {"count": "n", "die": "d6!"}
    data["followups"] = [
        {"key": "again", "group": "pool", "stay": [6], "label": {"en": "A", "ru": "Б"}}
    ]
    refused = _refused(json.dumps(data))
    assert refused.message_id == fmt.FOLLOWUP_DIE and refused.values["name"] == "pool"


def test_a_follow_up_s_key_must_not_take_an_input_s_name() -> None:
    refused = _refused(_with(group="pool", stay=[5]).replace('"again"', '"n"', 1))
    assert refused.message_id == fmt.DUPLICATE


@pytest.mark.parametrize(
    ("system", "inputs", "faces", "key", "brute_force"),
    [
        ("wfrp", {"target": 45}, (8, 8), "fortune", lambda: brute.wfrp(45)),
        ("pf2e", {"mod": 5, "dc": 20}, (3,), "hero_point", lambda: brute.pf2e(5, 20)),
    ],
)
def test_a_point_spent_rerolls_the_whole_roll_with_its_own_odds(
    system: str,
    inputs: dict[str, int],
    faces: tuple[int, ...],
    key: str,
    brute_force: Callable[[], brute.Odds],
) -> None:
    definition = library_definition(system)
    first = rolled(system, inputs, *faces)
    assert key in offered(definition, first, {})
    assert chances(system, first, key) == {k: v for k, v in brute_force().items() if v}


def test_a_fortune_point_is_spent_on_a_failed_test_only() -> None:
    wfrp = library_definition("wfrp")
    passed = rolled("wfrp", {"target": 45}, 3, 2)
    assert passed.outcome.key.endswith("success") and offered(wfrp, passed, {}) == ()
