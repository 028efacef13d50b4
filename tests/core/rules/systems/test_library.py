"""The library's systems: each one's exact chances against brute force written from the
game's rules alone, its largest inputs within the odds budget, its file valid."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path

import pytest

from core.rules.errors import Malformed
from core.rules.systems import LIBRARY, library, library_definition, odds, parse_args
from core.rules.systems.definition import input_corners
from core.rules.systems.exact import STEP_BUDGET
from core.rules.systems.library import library_text
from core.rules.systems.play import estimate, read_system
from tests.core.rules.systems import brute

LIBRARY_DIR = Path(__file__).resolve().parents[4] / "core" / "rules" / "systems" / "library"

# (system, inputs, the brute force with those inputs)
CASES: list[tuple[str, dict[str, int], Callable[[], brute.Odds]]] = [
    *[("pbta", {"stat": s}, lambda s=s: brute.pbta(s)) for s in (-3, 0, 2, 4)],
    *[("blades", {"pool": n}, lambda n=n: brute.blades(n)) for n in (0, 1, 2, 3, 5)],
    *[("ironsworn", {"add": a}, lambda a=a: brute.ironsworn(a)) for a in (0, 2, 5, 10)],
    *[
        ("coc", {"skill": s, "bonus": b}, lambda s=s, b=b: brute.coc(s, b))
        for s in (1, 10, 45, 50, 99)
        for b in (-2, -1, 0, 1, 2)
    ],
    *[
        (
            "daggerheart",
            {"mod": m, "difficulty": d, "edge": e},
            lambda m=m, d=d, e=e: brute.daggerheart(m, d, e),
        )
        for m, d in ((0, 12), (3, 15), (-2, 8))
        for e in (-1, 0, 1)
    ],
    *[("yze", {"pool": n}, lambda n=n: brute.yze(n)) for n in (1, 2, 3, 6)],
    *[
        ("savage", {"trait": t, "mod": m, "wild": w}, lambda t=t, m=m, w=w: brute.savage(t, m, w))
        for t, m, w in ((4, 0, 1), (8, 1, 1), (12, -2, 1), (6, 0, 0), (10, 3, 0))
    ],
    *[
        ("fate", {"skill": s, "opposition": o}, lambda s=s, o=o: brute.fate(s, o))
        for s, o in ((0, 0), (2, 1), (-2, 3))
    ],
    *[
        ("cofd", {"pool": n, "again": a}, lambda n=n, a=a: brute.cofd(n, a))
        for n, a in ((0, 10), (-3, 8), (1, 10), (3, 10), (5, 9), (6, 8), (12, 10))
    ],
    *[
        ("shadowrun", {"pool": n, "threshold": t}, lambda n=n, t=t: brute.shadowrun_small(n, t))
        for n, t in ((1, 1), (2, 1), (3, 2), (5, 1), (6, 3))
    ],
    *[
        ("shadowrun", {"pool": n, "threshold": t}, lambda n=n, t=t: brute.shadowrun(n, t))
        for n, t in ((12, 4), (30, 12), (30, 1))
    ],
    *[
        ("cpred", {"base": b, "dv": d}, lambda b=b, d=d: brute.cpred(b, d))
        for b, d in ((10, 15), (0, 1), (30, 40), (5, 13))
    ],
    *[
        ("mothership", {"target": t, "edge": e}, lambda t=t, e=e: brute.mothership(t, e))
        for t in (1, 45, 95, 99)
        for e in (-1, 0, 1)
    ],
    *[
        ("dnd5e", {"mod": m, "dc": d, "edge": e}, lambda m=m, d=d, e=e: brute.dnd5e(m, d, e))
        for m, d in ((5, 15), (-5, 1), (20, 40))
        for e in (-1, 0, 1)
    ],
    *[
        ("pf2e", {"mod": m, "dc": d}, lambda m=m, d=d: brute.pf2e(m, d))
        for m, d in ((7, 18), (0, 30), (40, 1), (-10, 60))
    ],
    *[
        ("dragonbane", {"skill": s, "edge": e}, lambda s=s, e=e: brute.dragonbane(s, e))
        for s in (1, 12, 18)
        for e in (-1, 0, 1)
    ],
    *[("cypher", {"level": n}, lambda n=n: brute.cypher(n)) for n in (0, 1, 4, 7, 10)],
    *[
        ("traveller", {"dm": m, "tn": t, "edge": e}, lambda m=m, t=t, e=e: brute.traveller(m, t, e))
        for m, t in ((1, 10), (0, 8), (-6, 16), (8, 2))
        for e in (-1, 0, 1)
    ],
    *[("wfrp", {"target": t}, lambda t=t: brute.wfrp(t)) for t in (1, 5, 45, 60, 96, 100)],
    *[
        (
            "l5r",
            {"roll": r, "keep": k, "tn": t, "raises": x, "untrained": u},
            lambda r=r, k=k, t=t, x=x, u=u: brute.l5r(r, k, t, x, u),
        )
        for r, k, t, x, u in (
            (1, 1, 5, 0, 0),
            (2, 1, 10, 0, 0),
            (2, 2, 20, 0, 1),
            (3, 5, 30, 2, 0),
            (5, 3, 20, 0, 0),
            (10, 10, 40, 0, 0),
            (10, 9, 60, 1, 0),
            (10, 5, 45, 0, 1),
            (13, 3, 25, 0, 0),
            (30, 10, 100, 2, 0),
        )
    ],
    *[
        (
            "tor",
            {"rank": r, "tn": t, "favour": f, "weary": w},
            lambda r=r, t=t, f=f, w=w: brute.tor(r, t, f, w),
        )
        for r, t, f, w in (
            (0, 10, 0, 0),
            (2, 14, 0, 0),
            (3, 14, 1, 0),
            (3, 16, -1, 1),
            (4, 20, 0, 1),
        )
    ],
    *[("gurps", {"skill": s}, lambda s=s: brute.gurps(s)) for s in (3, 10, 14, 15, 16, 20)],
]


def _possible(chances: Mapping[str, Fraction]) -> dict[str, Fraction]:
    return {k: v for k, v in chances.items() if v}


@pytest.mark.parametrize(
    ("key", "inputs", "oracle"), CASES, ids=lambda v: str(v) if not callable(v) else ""
)
def test_each_systems_chances_are_those_of_brute_force(
    key: str, inputs: dict[str, int], oracle: Callable[[], brute.Odds]
) -> None:
    result = odds(library_definition(key), inputs)
    assert _possible({row.outcome.key: row.chance for row in result.outcomes}) == _possible(
        oracle()
    )
    assert sum(row.chance for row in result.outcomes) == 1


def test_every_library_system_has_a_brute_force() -> None:
    assert {key for key, _, _ in CASES} == set(LIBRARY)
    assert len(LIBRARY) >= 20


def test_the_check_figures() -> None:
    pbta = odds(library_definition("pbta"), parse_args(library_definition("pbta"), "+2"))
    assert [r.chance for r in pbta.outcomes] == [Fraction(5, 12), Fraction(5, 12), Fraction(1, 6)]
    blades = odds(library_definition("blades"), parse_args(library_definition("blades"), "2"))
    assert [r.chance for r in blades.outcomes] == [
        Fraction(1, 36), Fraction(10, 36), Fraction(16, 36), Fraction(9, 36)
    ]  # fmt: skip


def test_the_marks_chances_are_those_of_brute_force() -> None:
    iron = odds(library_definition("ironsworn"), {"add": 3})
    assert [m.chance for m in iron.marks] == [brute.ironsworn_match(3)]
    d20 = odds(library_definition("dnd5e"), {"mod": 0, "dc": 10, "edge": 1})
    assert [m.chance for m in d20.marks] == [Fraction(39, 400), Fraction(1, 400)]
    glitch = odds(library_definition("shadowrun"), {"pool": 3, "threshold": 1})
    # a glitch with a hit: two ones and a hit among three dice
    assert [m.chance for m in glitch.marks] == [Fraction(3 * 2, 216)]


@pytest.mark.parametrize("key", LIBRARY)
def test_each_systems_largest_inputs_fit_the_odds_budget(key: str) -> None:
    """Computed, not timed: the bound of the work, at every corner of the inputs."""
    definition = library_definition(key)
    largest = max(estimate(definition, corner) for corner in input_corners(definition))
    assert largest <= STEP_BUDGET


def test_roll_and_keep_fits_the_budget_at_every_pool() -> None:
    """Not only at the corners: the most work is at 10 rolled, 9 kept."""
    l5r = library_definition("l5r")
    work = {
        (r, k): estimate(l5r, {"roll": r, "keep": k}) for r in range(1, 31) for k in range(1, 11)
    }
    assert max(work.values()) <= STEP_BUDGET
    assert max(work, key=work.__getitem__) == (10, 9)


@pytest.mark.parametrize(("roll", "keep", "tn"), [(5, 3, 20), (10, 10, 40), (4, 2, 41)])
def test_roll_and_keep_up_to_tn_40_are_the_odds_of_explosions_20_deep(
    roll: int, keep: int, tn: int
) -> None:
    """A die stops at its fourth 10 (40) only where 40 already meets the TN."""
    inputs = {"roll": roll, "keep": keep, "tn": tn}
    chances = {
        row.outcome.key: row.chance for row in odds(library_definition("l5r"), inputs).outcomes
    }
    assert _possible(chances) == _possible(brute.l5r(roll, keep, tn, 0, 0, depth=20))


@pytest.mark.parametrize("key", LIBRARY)
def test_every_library_file_is_a_valid_definition_named_by_its_key(key: str) -> None:
    definition = read_system((LIBRARY_DIR / f"{key}.toml").read_text(encoding="utf-8"))
    assert definition.key == key
    assert definition.source
    assert parse_args(definition, definition.example) is not None


def test_the_library_lists_every_file_once() -> None:
    assert sorted(p.stem for p in LIBRARY_DIR.glob("*.toml")) == sorted(LIBRARY)
    assert len(set(LIBRARY)) == len(LIBRARY)
    assert [d.key for d in library()] == list(LIBRARY)


def test_a_bad_library_file_fails_to_load() -> None:
    text = library_text("pbta").replace("max = 6\n", "max = 7\n")  # the miss band overlaps
    with pytest.raises(Malformed) as caught:
        read_system(text)
    assert caught.value.values == {"field": "outcomes", "first": "weak", "second": "miss"}


def test_an_unknown_system_is_refused() -> None:
    with pytest.raises(Malformed):
        library_definition("monopoly")
