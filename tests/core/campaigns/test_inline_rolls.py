"""Inline rolls are rolled once per inline message, however often the choice comes."""

from __future__ import annotations

import asyncio

import pytest

from core.campaigns.inline_rolls import chosen, offer_id, roll_once, stored_roll
from core.campaigns.play import PlayerRef
from core.rules.dice import RollResult
from core.rules.rng import SeededRng
from core.store.models import InlineRoll

pytestmark = [pytest.mark.db]

ADA = PlayerRef(7, "Ada", language_code="en")


def shown(result: RollResult) -> str:
    return f"{result.expression.notation} = {result.total}"


async def test_copies_racing_for_one_message_show_the_first_dice(db: str) -> None:
    offer = chosen("50d1000", [], offer_id("", "50d1000"))
    assert offer is not None
    copies = [roll_once(SeededRng(seed), ADA, "msg-1", offer, shown) for seed in range(6)]
    texts = await asyncio.gather(*copies)
    assert len(set(texts)) == 1
    assert await stored_roll("msg-1") == texts[0]
    [kept] = await InlineRoll.all()
    assert kept.inline_message_id == "msg-1" and f"= {kept.total}" in texts[0]
    later = await roll_once(SeededRng(99), ADA, "msg-1", offer, shown)
    assert later == texts[0]
    other = await roll_once(SeededRng(0), ADA, "msg-2", offer, shown)
    assert other.startswith("50d1000 = ") and await InlineRoll.all().count() == 2
    assert await stored_roll("msg-3") is None


async def test_a_total_past_the_columns_range_is_never_offered(db: str) -> None:
    text = "1d6*1000000*1000000*1000000*1000000"
    assert chosen(text, [], offer_id("", text)) is None
    largest = "1d6*1000000*1000000*100"
    offer = chosen(largest, [], offer_id("", largest))
    assert offer is not None
    shown_text = await roll_once(SeededRng(1), ADA, "big", offer, shown)
    kept = await InlineRoll.get(inline_message_id="big")
    assert shown_text.endswith(f"= {kept.total}") and kept.total >= 10**14
