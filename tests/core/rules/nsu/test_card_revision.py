"""An author edits their own location cards until the map is dealt (panel and Mini App)."""

from __future__ import annotations

import pytest

from core.rules.errors import NotAllowedNow, NotYourTurn
from core.rules.nsu.campaign import campaign_of
from core.rules.nsu.cards_panel import cards_view
from core.rules.nsu.setup import LocationRevised, SetupStep, may_revise
from tests.core.rules.nsu.table_support import (
    ALICE,
    BOB,
    CARA,
    Harness,
    build_to_locations,
    card_fields,
    write_locations,
)

FIELDS = ("title", "description", "collateral_target", "danger_type", "treasure_type")


def _mine(h: Harness, pid: int) -> list[str]:
    setup = campaign_of(h.table()).setup
    assert setup is not None
    return [c.title for c in setup.world.cards if c.author_id == pid]


def test_in_the_private_panel_an_author_rewrites_a_saved_card_field_by_field() -> None:
    h = Harness()
    build_to_locations(h)
    write_locations(h)  # everyone wrote both: the table is at the deal
    setup = campaign_of(h.table()).setup
    assert setup is not None and setup.step is SetupStep.MAP
    panel = h.open("nsu.cards", ALICE)  # reopens to edit, though both are written
    view = cards_view(h.table(), panel.state)
    assert view.field is None and [c.title for c in view.revisable] == _mine(h, ALICE)
    first = view.revisable[0]
    h.act(panel, ALICE, "edit", first.id)
    assert cards_view(h.table(), panel.state).editing == first
    h.act(panel, ALICE, "text", "Glass Orchard, rebuilt")  # a new title
    for _ in range(4):  # the rest kept as they were
        h.act(panel, ALICE, "keep")
    assert any(isinstance(e, LocationRevised) for e in panel.events)
    assert not panel.closed  # still editable until the deal
    assert _mine(h, ALICE) == ["Glass Orchard, rebuilt", card_fields(ALICE, 2)[0]]
    after = campaign_of(h.table()).setup
    assert after is not None
    card = next(c for c in after.world.cards if c.id == first.id)
    assert card.description == card_fields(ALICE, 1)[1]
    assert cards_view(h.table(), panel.state).editing is None


def test_only_the_author_rewrites_and_only_before_the_deal() -> None:
    h = Harness()
    board = build_to_locations(h)
    write_locations(h)
    setup = campaign_of(h.table()).setup
    assert setup is not None
    alices = next(c for c in setup.world.cards if c.author_id == ALICE)
    assert may_revise(setup, ALICE, alices.id) and not may_revise(setup, BOB, alices.id)
    payload = dict(zip(FIELDS, card_fields(ALICE, 9), strict=True))
    with pytest.raises(NotYourTurn):
        h.edit(BOB, "setup.revise", {"card_id": alices.id, **payload})
    h.edit(ALICE, "setup.revise", {"card_id": alices.id, **payload})  # the Mini App's form
    assert card_fields(ALICE, 9)[0] in _mine(h, ALICE)
    h.act(board, CARA, "deal", "3")
    dealt = campaign_of(h.table()).setup
    assert dealt is not None and not may_revise(dealt, ALICE)
    with pytest.raises(NotAllowedNow, match="map is dealt"):
        h.edit(ALICE, "setup.revise", {"card_id": dealt.world.cards[0].id, **payload})


def test_a_rewrite_started_before_the_deal_is_refused_after_it() -> None:
    h = Harness()
    board = build_to_locations(h)
    write_locations(h)
    panel = h.open("nsu.cards", ALICE)
    h.act(panel, ALICE, "edit", cards_view(h.table(), panel.state).revisable[0].id)
    h.act(board, BOB, "deal", "3")
    assert cards_view(h.table(), panel.state).revisable == ()
    for _ in range(4):
        h.act(panel, ALICE, "keep")
    with pytest.raises(NotAllowedNow):
        h.act(panel, ALICE, "keep")


def test_keep_needs_a_saved_card() -> None:
    h = Harness()
    build_to_locations(h)
    panel = h.open("nsu.cards", ALICE)
    with pytest.raises(NotAllowedNow):
        h.act(panel, ALICE, "keep")
