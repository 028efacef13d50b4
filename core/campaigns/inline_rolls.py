"""Inline rolls: ``@bot 2d6+3`` typed in any chat, rolled once the player picks it.

The inline query only *offers* rolls (:func:`offers`, pure): nothing is rolled while
the player types, so typing the query again cannot fish for better dice. The dice are
rolled when Telegram reports the chosen result (:func:`roll_once`), and kept by the
inline message they are shown in: a redelivered chosen result (or a second copy racing
the first) shows the very same dice.

Telegram tells no chat for an inline message, so an inline roll is kept per player
(the ``inline_roll`` table) and stays out of every chat's ``/rolls`` history.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.campaigns.play import PlayerRef
from core.rules import dice
from core.rules.errors import Malformed
from core.rules.rng import Rng
from core.store.repo import guarded, player_id
from core.store.sql import dump_json, execute, fetch, now
from core.store.unit import UnitOfWork

MAX_OFFERS = 10  # typed roll and saved rolls shown at once (Telegram allows 50)
EXAMPLES = ("1d20", "2d6", "4d6kh3", "1d20 adv")  # offered for an empty query

_STORED = "SELECT text FROM inline_roll WHERE inline_message_id = ?"
_ADD = (
    "INSERT INTO inline_roll (inline_message_id, player_id, notation, label, total, faces,"
    " text, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (inline_message_id) DO NOTHING"
)


@dataclass(frozen=True)
class Offer:
    """One roll offered as an inline result.

    ``id`` is the result id Telegram hands back when it is chosen (at most 64 bytes):
    a digest of what is rolled, so the chosen result is found again by building the
    offers anew from the query and matching it, never by trusting the id's content.
    """

    id: str
    text: str  # what is rolled, as the player (or their saved roll) wrote it
    name: str  # the saved roll's name; "" for the typed roll
    expression: dice.DiceExpression


@dataclass(frozen=True)
class Offers:
    """What an inline query offers: rolls, and why the typed text is no roll (if not)."""

    rolls: tuple[Offer, ...]
    refusal: Malformed | None  # the typed text could not be read as dice


def offer_id(name: str, text: str) -> str:
    """The result id of a roll: ``r`` and 40 hex digits of its name and text."""
    digest = hashlib.sha256(f"{name}\x00{text}".encode()).hexdigest()
    return "r" + digest[:40]


def _offer(name: str, text: str) -> Offer | None:
    try:
        expression = dice.parse(text)
    except Malformed:
        return None
    return Offer(offer_id(name, text), text, name, expression)


def offers(query: str, suggestions: Sequence[tuple[str, str]]) -> Offers:
    """The rolls an inline query offers: the typed text (when it reads as dice) first,
    then the saved rolls suggested for it (name, text), each at most once; an empty
    query offers a few examples. Suggestions that no longer read as dice are left out.
    """
    typed = query.strip()
    found: list[Offer] = []
    refusal: Malformed | None = None
    if typed:
        try:
            found.append(Offer(offer_id("", typed), typed, "", dice.parse(typed)))
        except Malformed as error:
            refusal = error
    for name, text in suggestions:
        offer = _offer(name, text.strip())
        if offer is not None and all(o.id != offer.id for o in found):
            found.append(offer)
            if name == typed:  # the query itself reads with a saved roll: no hint
                refusal = None
    if not typed:
        found += [o for t in EXAMPLES if (o := _offer("", t)) is not None]
    return Offers(tuple(found[:MAX_OFFERS]), refusal)


def chosen(query: str, suggestions: Sequence[tuple[str, str]], result_id: str) -> Offer | None:
    """The offer a chosen result names, built anew from its query; None when the
    query offers no such roll any more (a saved roll changed, a forged id)."""
    return next((o for o in offers(query, suggestions).rolls if o.id == result_id), None)


def _faces(result: dice.RollResult) -> list[list[list[int]]]:
    return [
        [[die.total, int(die.kept)] for die in part.rolled]
        for outcome in result.outcomes
        for part in outcome.parts
        if isinstance(part, dice.DiceRoll)
    ]


async def stored_roll(inline_message_id: str) -> str | None:
    """The message an inline roll was shown with, if it was rolled already."""
    async with guarded():
        rows = await fetch(_STORED, (inline_message_id,))
    return str(rows[0]["text"]) if rows else None


async def roll_once(
    rng: Rng,
    player: PlayerRef,
    inline_message_id: str,
    offer: Offer,
    render: Callable[[dice.RollResult], str],
    *,
    unit: UnitOfWork | None = None,
) -> str:
    """Roll an offer for its inline message, once: the message showing the dice.

    ``unit``: the change's unit of work; the roll is kept by its message's id, not by the
    update's claim (a redelivered chosen result finds what the first showed).

    The first roll kept for ``inline_message_id`` wins; every later call (a redelivered
    chosen result, a copy racing this one) returns what the first showed.

    Raises:
        TryAgain: the database is unreachable.
    """
    shown = await stored_roll(inline_message_id)
    if shown is not None:
        return shown
    result = dice.roll(offer.expression, rng)
    text = render(result)
    async with guarded(), (unit or UnitOfWork()).committing():  # kept once by its message's id
        row = await player_id(
            player.tg_id, player.first_name, player.last_name, player.username,
            player.language_code,
        )  # fmt: skip
        values = (
            inline_message_id,
            row,
            offer.expression.notation,
            offer.expression.label[:160],
            result.total,  # parse keeps every total within the column (dice.MAX_TOTAL)
            dump_json(_faces(result)),
            text,
            now(),
        )
        await execute(_ADD, values)
        rows = await fetch(_STORED, (inline_message_id,))
    return str(rows[0]["text"])
