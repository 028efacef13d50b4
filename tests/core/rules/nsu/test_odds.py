"""Exact Action Roll odds, against brute force and icepool, and the command line."""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections import Counter
from fractions import Fraction

import icepool
import pytest

from core.__main__ import main
from core.rules.errors import Malformed
from core.rules.nsu import SYSTEM
from core.rules.nsu.action_roll import Edge, Risk, winner_for
from core.rules.nsu.odds import OddsQuery, action_roll_odds, compute, format_table, player_margin
from core.rules.nsu.sheet import Die

DICE = (Die.D4, Die.D6, Die.D8)
EDGES = (Edge.NONE, Edge.ADVANTAGE, Edge.DISADVANTAGE)


def brute_force(q: OddsQuery) -> tuple[Fraction, Fraction, Fraction, list[Fraction]]:
    """Every face of every die, with each chooser playing minimax for their side."""

    def faces(die: Die, edge: Edge) -> list[tuple[int, ...]]:
        count = 1 if edge is Edge.NONE else 2
        return list(itertools.product(range(1, die + 1), repeat=count))

    def best_margin(a: int, m: int) -> int:
        # The player adds or subtracts the skill from the Aspect die, whichever suits them.
        options = []
        for sign in (1, -1):
            total = a + sign * q.skill
            mine, theirs = (m, total) if q.risk is Risk.WORLD else (total, m)
            options.append(mine - theirs)
        return max(options)

    def pick(edge: Edge, values: list[int]) -> int:
        return min(values) if edge is Edge.DISADVANTAGE else max(values)

    counts: Counter[tuple[str, int]] = Counter()
    total = 0
    for aspect_faces in faces(q.aspect, q.aspect_edge):
        for mood_faces in faces(q.mood, q.mood_edge):
            margin = pick(
                q.aspect_edge,
                [pick(q.mood_edge, [best_margin(a, m) for m in mood_faces]) for a in aspect_faces],
            )
            winner = "p" if margin > 0 else "a" if margin < 0 else "t"
            counts[(winner, min(abs(margin), 5))] += 1
            total += 1
    by_winner = {
        w: Fraction(sum(c for (k, _), c in counts.items() if k == w), total) for w in "pat"
    }
    rows = [Fraction(sum(c for (_, r), c in counts.items() if r == row), total) for row in range(6)]
    return by_winner["p"], by_winner["a"], by_winner["t"], rows


ALL_QUERIES = [
    OddsQuery(a, m, r, ae, me, s)
    for a in DICE
    for m in DICE
    for r in Risk
    for ae in EDGES
    for me in EDGES
    for s in (0, 1, 3)
]


@pytest.mark.parametrize("query", ALL_QUERIES[::7], ids=str)
def test_odds_match_brute_force_enumeration(query: OddsQuery) -> None:
    odds = action_roll_odds(query)
    win, lose, tie, rows = brute_force(query)
    assert (odds.player_wins, odds.arbiters_win, odds.tie) == (win, lose, tie)
    assert list(odds.rows) == rows


@pytest.mark.slow
@pytest.mark.parametrize("query", ALL_QUERIES, ids=str)
def test_every_query_matches_brute_force(query: OddsQuery) -> None:
    odds = action_roll_odds(query)
    win, lose, tie, rows = brute_force(query)
    assert (odds.player_wins, odds.arbiters_win, odds.tie, list(odds.rows)) == (
        win,
        lose,
        tie,
        rows,
    )


def _icepool_die(die: Die, edge: Edge, keep_high: bool) -> icepool.Die[int]:
    base = icepool.d(int(die))
    if edge is Edge.NONE:
        return base
    return base.highest(2, 1) if keep_high else base.lowest(2, 1)


@pytest.mark.parametrize("risk", list(Risk))
@pytest.mark.parametrize(
    ("aspect_edge", "mood_edge"),
    [
        (Edge.ADVANTAGE, Edge.DISADVANTAGE),
        (Edge.DISADVANTAGE, Edge.ADVANTAGE),
        (Edge.NONE, Edge.NONE),
    ],
)
def test_odds_match_icepool(risk: Risk, aspect_edge: Edge, mood_edge: Edge) -> None:
    q = OddsQuery(Die.D8, Die.D6, risk, aspect_edge, mood_edge, skill=1)
    # The player wants the Mood die high when the World is at risk, the Aspect die high otherwise.
    world = risk is Risk.WORLD
    aspect = _icepool_die(q.aspect, aspect_edge, (aspect_edge is Edge.ADVANTAGE) != world)
    mood = _icepool_die(q.mood, mood_edge, (mood_edge is Edge.ADVANTAGE) == world)
    margin = (mood - aspect + 1) if world else (aspect + 1 - mood)
    probabilities = dict(zip(margin.outcomes(), margin.probabilities(), strict=True))
    odds = action_roll_odds(q)
    assert odds.player_wins == sum(p for m, p in probabilities.items() if m > 0)
    assert odds.tie == probabilities.get(0, 0)
    assert odds.rows[5] == sum(p for m, p in probabilities.items() if abs(m) >= 5)


def test_plain_world_roll_known_value() -> None:
    odds = action_roll_odds(OddsQuery(Die.D6, Die.D8, Risk.WORLD))
    assert odds.player_wins == Fraction(27, 48)
    assert odds.tie == Fraction(6, 48)


def test_probabilities_sum_to_one() -> None:
    for q in ALL_QUERIES:
        odds = action_roll_odds(q)
        assert odds.player_wins + odds.arbiters_win + odds.tie == 1
        assert sum(odds.rows) == 1
        assert odds.rows[0] == odds.tie


def test_margin_uses_the_winner_matrix() -> None:
    for risk, a, m in itertools.product(Risk, range(1, 9), range(1, 9)):
        margin = player_margin(risk, a, m, 0)
        expected = winner_for(risk, a, m)
        assert (margin > 0) == (expected.value == "player")
        assert (margin == 0) == (expected.value == "tie")


def test_every_query_is_fast() -> None:
    worst = 0.0
    for q in ALL_QUERIES:
        runs = []
        for _ in range(3):  # best of three, so a busy machine does not fail the test
            action_roll_odds.cache_clear()
            start = time.perf_counter()
            action_roll_odds(q)
            runs.append(time.perf_counter() - start)
        worst = max(worst, min(runs))
    assert worst < 0.05


def _args(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = {
        "aspect": "d6",
        "mood": "d8",
        "risk": "world",
        "aspect_adv": False,
        "aspect_disadv": False,
        "mood_adv": False,
        "mood_disadv": False,
        "skill": "0",
    }
    return argparse.Namespace(**{**base, **kw})


def test_cli_prints_json_with_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "nsu", "--aspect", "d6", "--mood", "d8", "--risk", "world", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"player_wins", "arbiters_win", "tie", "rows"}
    assert list(data["rows"]) == ["0", "1", "2", "3", "4", "5+"]
    assert data["player_wins"] + data["arbiters_win"] + data["tie"] == pytest.approx(1)
    assert sum(data["rows"].values()) == pytest.approx(1)


def test_cli_flags_reach_the_query(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["odds", "nsu", "--aspect", "d8", "--mood", "d4", "--risk", "character"]
    main([*argv, "--aspect-adv", "--mood-disadv", "--skill", "2", "--json"])
    data = json.loads(capsys.readouterr().out)
    q = OddsQuery(Die.D8, Die.D4, Risk.CHARACTER, Edge.ADVANTAGE, Edge.DISADVANTAGE, 2)
    assert data == action_roll_odds(q).as_json()


def test_cli_table_is_readable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "nsu", "--aspect", "d6", "--mood", "d8", "--risk", "world"]) == 0
    out = capsys.readouterr().out
    assert "Player wins" in out and "5+" in out
    assert format_table(compute(_args())) in out


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"aspect": "d10"}, "d4, d6 or d8"),
        ({"mood": None}, "Missing --mood"),
        ({"risk": "everyone"}, "world or character"),
        ({"skill": "lots"}, "whole number"),
        ({"skill": "-1"}, "0 to"),
        ({"aspect_adv": True, "aspect_disadv": True}, "cancel"),
        ({"mood_adv": True, "mood_disadv": True}, "cancel"),
    ],
)
def test_bad_options_are_malformed_with_a_clear_message(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(Malformed, match=message):
        compute(_args(**changes))


def test_cli_reports_bad_options_without_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "nsu", "--aspect", "d12", "--mood", "d8", "--risk", "world"]) == 2
    assert "d4, d6 or d8" in capsys.readouterr().err


def test_system_describes_itself() -> None:
    assert SYSTEM.key == "nsu" and SYSTEM.odds is not None
