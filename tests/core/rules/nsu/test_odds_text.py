"""/odds words read as a planned Action Roll."""

from __future__ import annotations

import pytest

from core.rules.errors import Malformed
from core.rules.nsu.odds import OddsQuery, action_roll_odds
from core.rules.nsu.odds_text import read_odds_query
from core.rules.nsu.terms import Die, Edge, Risk


def test_dice_risk_edges_and_skill() -> None:
    q = read_odds_query("d6 d8 world adv")
    assert q == OddsQuery(Die.D6, Die.D8, Risk.WORLD, Edge.ADVANTAGE)
    q = read_odds_query("Character D4 d6 madv +2")
    assert q == OddsQuery(Die.D4, Die.D6, Risk.CHARACTER, Edge.NONE, Edge.ADVANTAGE, 2)
    assert read_odds_query("d8 d8 world adv dis").aspect_edge is Edge.NONE  # ruling 2


@pytest.mark.parametrize("text", ["", "d6 world", "d6 d8", "d6 d8 d4 world", "d6 d8 world lucky"])
def test_bad_words_are_malformed(text: str) -> None:
    with pytest.raises(Malformed):
        read_odds_query(text)


def test_odds_sum_to_one() -> None:
    odds = action_roll_odds(read_odds_query("d6 d8 world adv"))
    assert odds.player_wins + odds.arbiters_win + odds.tie == 1


def test_the_dice_may_be_typed_with_cyrillic_letters() -> None:
    from core.rules.nsu.odds_text import read_odds_query

    assert read_odds_query("к6 д8 world") == read_odds_query("d6 d8 world")
