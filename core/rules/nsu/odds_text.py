"""A planned Action Roll written in a few words, for ``/odds``.

Grammar (any order, case-insensitive): two dice, the Aspect die first and the
Mood die second (``d6 d8``); ``world`` or ``character``; optional edges
``adv``/``dis`` (Aspect) and ``madv``/``mdis`` (Mood; also ``mood-adv``,
``aspect-dis`` and so on); an optional skill ``+N``. Advantage and
disadvantage of one kind cancel (ruling 2).
"""

from __future__ import annotations

from core.rules.catalogue import N_
from core.rules.errors import Malformed
from core.rules.nsu.odds import MAX_SKILL, OddsQuery
from core.rules.nsu.terms import Die, Edge, Risk, combine_edges
from core.rules.said import Said

EXAMPLE = Said(N_("/odds d6 d8 world adv +1"))
DOES_NOT_FIT = N_("“{word}” doesn't fit. Try: {example}")
GIVE_THE_DICE = N_("Give the Aspect die, the Mood die and what's at risk. Try: {example}")
_EDGES = {
    "adv": ("aspect", True),
    "aspect-adv": ("aspect", True),
    "aadv": ("aspect", True),
    "dis": ("aspect", False),
    "disadv": ("aspect", False),
    "aspect-dis": ("aspect", False),
    "adis": ("aspect", False),
    "madv": ("mood", True),
    "mood-adv": ("mood", True),
    "mdis": ("mood", False),
    "mood-dis": ("mood", False),
}
_RISKS = {"world": Risk.WORLD, "character": Risk.CHARACTER, "char": Risk.CHARACTER}


def read_odds_query(text: str) -> OddsQuery:
    """Read a planned roll.

    Raises:
        Malformed: a word that does not fit, with an example.
    """
    dice: list[Die] = []
    risk: Risk | None = None
    marks: dict[str, set[bool]] = {"aspect": set(), "mood": set()}
    skill = 0
    for word in text.lower().replace(",", " ").split():
        if word in _RISKS:
            risk = _RISKS[word]
        elif word in _EDGES:
            kind, advantage = _EDGES[word]
            marks[kind].add(advantage)
        elif word.startswith("+") and word[1:].isdigit():
            skill = int(word[1:])
            if skill > MAX_SKILL:
                raise Malformed("A skill modifier runs from 0 to {most}.", most=MAX_SKILL)
        else:
            try:
                dice.append(Die.parse(word))
            except Malformed:
                raise Malformed(DOES_NOT_FIT, word=word[:20], example=EXAMPLE) from None
    if len(dice) != 2 or risk is None:
        raise Malformed(GIVE_THE_DICE, example=EXAMPLE)

    def edge(kind: str) -> Edge:
        return combine_edges(True in marks[kind], False in marks[kind])

    return OddsQuery(dice[0], dice[1], risk, edge("aspect"), edge("mood"), skill)
