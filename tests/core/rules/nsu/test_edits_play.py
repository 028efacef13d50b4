"""Mini App edits for play."""

from __future__ import annotations

import pytest

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.nsu.campaign import NsuCampaignRules, campaign_of
from core.rules.nsu.details import Detail
from core.rules.rng import SeededRng
from core.rules.table import Outcome, Table
from tests.support.nsu_table import character, sheet, table, world

ANA, BEN = 1, 2
RULES = NsuCampaignRules()


def fresh() -> Table:
    ana = character("Ana").add_detail(Detail("Soaked"))
    return table(world((ANA, BEN)), {ANA: ana, BEN: character("Ben")})


def world_of(out: Outcome) -> object:
    assert out.campaign_state is not None
    return campaign_of(Table(1, "nsu", out.campaign_state, {})).world


def test_scene_details_on_revealed_cards_only() -> None:
    t = fresh()
    out = RULES.edit(
        t, BEN, "play.scene_detail", {"card_id": "a", "text": "Flooded <floor>"}, SeededRng(0)
    )
    w = world_of(out)
    assert w.card("a").scene_details == ("Flooded <floor>",)  # type: ignore[attr-defined]
    t2 = Table(1, "nsu", out.campaign_state or {}, t.seats)
    out = RULES.edit(t2, ANA, "play.drop_scene_detail", {"card_id": "a", "index": 0}, SeededRng(0))
    assert world_of(out).card("a").scene_details == ()  # type: ignore[attr-defined]
    with pytest.raises(NotAllowedNow):
        RULES.edit(t, BEN, "play.scene_detail", {"card_id": "b", "text": "x"}, SeededRng(0))
    with pytest.raises(Malformed):
        RULES.edit(t, BEN, "play.drop_scene_detail", {"card_id": "a", "index": "0"}, SeededRng(0))


def test_only_your_own_details() -> None:
    out = RULES.edit(fresh(), ANA, "play.drop_detail", {"index": 0}, SeededRng(0))
    assert out.sheets[ANA]["character"]["details"] == []
    with pytest.raises(Malformed):
        RULES.edit(fresh(), BEN, "play.drop_detail", {"index": 0}, SeededRng(0))
    assert sheet(character("Ben"))  # Ben's sheet is untouched by Ana's edit
