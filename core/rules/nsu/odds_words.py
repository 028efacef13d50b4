"""Read a planned Action Roll from a few words, for ``/odds`` in the chat.

Grammar (any order, case-insensitive): two dice ``dA dM`` (the Aspect die,
then the Mood die), ``world`` or ``character`` (what is at risk, world by
default), ``aspect-adv`` / ``aspect-dis`` / ``mood-adv`` / ``mood-dis`` (also
``aa``, ``ad``, ``ma``, ``md``), and a skill modifier ``+N``.
"""

from __future__ import annotations

from core.rules.errors import Malformed
from core.rules.nsu.odds import OddsQuery
from core.rules.nsu.terms import Die, Edge, Risk

EXAMPLE = "/odds d6 d8 world mood-adv +1"
_EDGES = {
    "aspect-adv": ("aspect", Edge.ADVANTAGE),
    "aa": ("aspect", Edge.ADVANTAGE),
    "aspect-dis": ("aspect", Edge.DISADVANTAGE),
    "ad": ("aspect", Edge.DISADVANTAGE),
    "mood-adv": ("mood", Edge.ADVANTAGE),
    "ma": ("mood", Edge.ADVANTAGE),
    "mood-dis": ("mood", Edge.DISADVANTAGE),
    "md": ("mood", Edge.DISADVANTAGE),
}


def parse_odds(text: str) -> OddsQuery:
    """The Action Roll set-up described by ``text``.

    Raises:
        Malformed: a word that is not part of the grammar, or not two dice.
    """
    dice: list[Die] = []
    risk = Risk.WORLD
    edges = {"aspect": Edge.NONE, "mood": Edge.NONE}
    skill = 0
    for word in text.lower().split():
        if word in ("world", "character", "char"):
            risk = Risk.CHARACTER if word.startswith("char") else Risk.WORLD
        elif word in _EDGES:
            which, edge = _EDGES[word]
            if edges[which] not in (Edge.NONE, edge):
                raise Malformed(
                    f"{which.title()} advantage and disadvantage cancel: leave both out."
                )
            edges[which] = edge
        elif word.startswith("+") and word[1:].isdigit():
            skill = int(word[1:])
        elif word.lstrip("d") in ("4", "6", "8") and word.startswith("d"):
            dice.append(Die.parse(word))
        else:
            raise Malformed(f"I can't read “{word}”. Try: {EXAMPLE}")
    if len(dice) != 2:
        raise Malformed(f"Give the Aspect die and the Mood die. Try: {EXAMPLE}")
    return OddsQuery(dice[0], dice[1], risk, edges["aspect"], edges["mood"], skill)
