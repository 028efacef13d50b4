"""Random walks through worldbuilding: refusals change nothing, the group never sees a face."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.rules.errors import StonetableError
from core.rules.nsu.setup_panel import board
from tests.core.rules.nsu.table_support import ALICE, BOB, CARA, Harness, Panel
from tests.tgbot.test_render_nsu import render

PLAYERS = (ALICE, BOB, CARA)
SECRET = "Secret"
ACTIONS = st.one_of(
    st.tuples(st.just("text"), st.sampled_from(["Fog & <rain>", "^1 more", "x" * 300, " "])),
    st.tuples(
        st.sampled_from(["agree", "pass", "full", "skipq", "scope", "roll", "fly"]), st.just("")
    ),
    st.tuples(st.sampled_from(["tool", "first", "abundance", "deal"]), st.sampled_from("0123x")),
)
STEP = st.tuples(st.sampled_from(PLAYERS), ACTIONS, st.booleans())


def to_locations(h: Harness, panel: Panel) -> None:
    """Play the steps before the locations quickly."""
    h.act(panel, ALICE, "text", "Tone")
    h.act(panel, BOB, "agree")
    h.act(panel, CARA, "agree")
    for pid in PLAYERS:
        h.act(panel, pid, "pass")
    h.act(panel, ALICE, "pass")
    h.act(panel, BOB, "pass")
    h.act(panel, ALICE, "scope")
    for pid, name in zip((ALICE, BOB, CARA, ALICE, BOB), "VWXYZ", strict=True):
        h.act(panel, pid, "text", name)
    h.act(panel, CARA, "abundance", "0")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEP, max_size=60), st.booleans())
def test_random_worldbuilding(
    steps: list[tuple[int, tuple[str, str], bool]], at_locations: bool
) -> None:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    if at_locations:
        to_locations(h, panel)
    cards: dict[int, Panel] = {}
    for actor, (action, argument), write_card in steps:
        before = (json.dumps(h.state, sort_keys=True), json.dumps(panel.state, sort_keys=True))
        try:
            if write_card:
                if actor not in cards:
                    cards[actor] = h.open("nsu.cards", actor)
                h.act(cards[actor], actor, "text", f"{SECRET} {actor}")
            else:
                h.act(panel, actor, action, argument)
        except StonetableError:
            after = (json.dumps(h.state, sort_keys=True), json.dumps(panel.state, sort_keys=True))
            assert after == before
            continue
        if board(h.table(), panel.state) is None:
            break
        assert SECRET not in render(h, panel)
