"""How the product names people and counts things, in one place.

The naming rule (the same in every game, in group and private chats and in the
Mini App):

* In play, a person is named by their character: "Birch". Someone with no
  character in the game (an Arbiter, the Watchtower, a GM, or a player before
  they make one) is named by their own name: "Alice".
* The player's own name is added once where it matters: on a person's first
  mention in a panel, and where that person must act now: "Birch (Alice)".
  Everywhere else the character's name stands alone.

Counts agree with their number: "1 recovery point", "2 recovery points".
"""

from __future__ import annotations


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` with its noun agreeing with it: "1 recovery point", "2 recovery points".

    Args:
        n: how many.
        one: the noun for exactly one ("recovery point").
        many: the noun for any other number; by default ``one`` + "s".
    """
    return f"{n} {one if n == 1 else (many if many is not None else one + 's')}"


def in_play(character: str | None, player: str, *, introduce: bool = False) -> str:
    """A person's name by the naming rule above (plain text; escape it where needed).

    Args:
        character: their character's name in this game, if they have one.
        player: their own name (as Telegram shows it).
        introduce: add the player's name (first mention, or they must act now).
    """
    if not character:
        return player
    if introduce and player and player != character:
        return f"{character} ({player})"
    return character
