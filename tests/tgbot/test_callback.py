"""Callback data: round trips, 64 bytes, and garbage refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.errors import Malformed
from tgbot.callback import MAX_BYTES, GeneralButton, PanelButton, decode


def test_panel_and_general_buttons_round_trip() -> None:
    button = PanelButton(2**62, 99999, "aspect", "body")
    assert decode(button.encode()) == button
    assert decode(GeneralButton("newgame", "nsu").encode()) == GeneralButton("newgame", "nsu")


def test_encoding_refuses_what_would_not_fit() -> None:
    with pytest.raises(ValueError):
        PanelButton(1, 1, "x" * 24, "y" * 40).encode()
    with pytest.raises(ValueError):
        PanelButton(1, 1, "Bad Action").encode()


@pytest.mark.parametrize("data", [None, "", "p1", "p1:x:1:a", "p1:1:1", "p1:0:1:a", "p2:1:1:a",
                                  "g1", "g1:NEW", "p1:1:-1:a", "p1:1:1:a:b:c", "x" * 80])
def test_garbage_and_old_formats_are_refused(data: str | None) -> None:
    with pytest.raises(Malformed):
        decode(data)


@given(st.text(max_size=MAX_BYTES + 10))
def test_any_text_decodes_or_is_refused(data: str) -> None:
    try:
        button = decode(data)
    except Malformed:
        return
    assert decode(button.encode()) == button
