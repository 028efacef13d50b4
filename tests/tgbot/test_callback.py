"""Callback data: round trips, 64 bytes, and garbage refused."""

from __future__ import annotations

import dataclasses
import re
import typing
from dataclasses import dataclass
from enum import Enum

import pytest
from hypothesis import given
from hypothesis import strategies as st
from telegram.ext import CallbackQueryHandler

import tgbot.buttons  # noqa: F401  (registers every general button)
from core.rules.errors import Malformed
from tgbot.app import features
from tgbot.buttons.campaign import EndAnswer, EndButton, NewGameButton
from tgbot.buttons.nsu import NSU_BUTTONS, CardsButton, LookButton, XCardButton
from tgbot.buttons.undo import UndoButton
from tgbot.callback import (
    INT_MAX,
    INT_MIN,
    MAX_BYTES,
    GeneralButton,
    PanelButton,
    decode,
    decode_as,
    general_buttons,
    pattern,
)

KINDS = general_buttons()
TEXT = st.from_regex(r"[A-Za-z0-9_.+-]{0,24}", fullmatch=True)


def values_of(kind: object) -> st.SearchStrategy[object]:
    if kind is bool:
        return st.booleans()
    if kind is int:
        return st.integers(INT_MIN, INT_MAX)
    if kind is str:
        return TEXT
    assert isinstance(kind, type) and issubclass(kind, Enum)
    return st.sampled_from(list(kind))


def buttons_of(kind: type[GeneralButton]) -> st.SearchStrategy[GeneralButton]:
    hints = typing.get_type_hints(kind)
    fields = {f.name: values_of(hints[f.name]) for f in dataclasses.fields(kind)}
    return st.builds(kind, **fields)


ANY_BUTTON = st.sampled_from(KINDS).flatmap(buttons_of)


def test_every_button_of_the_bot_is_registered() -> None:
    assert {UndoButton, NewGameButton, EndButton, LookButton, *NSU_BUTTONS} <= set(KINDS)
    assert len({k.VERB for k in KINDS}) == len(KINDS)


def callback_patterns() -> list[re.Pattern[str]]:
    """The patterns of every callback handler the bot wires."""
    found = []
    for feature in features():
        groups = feature.handlers()
        for group in groups.values() if isinstance(groups, dict) else [groups]:
            for handler in group:
                if isinstance(handler, CallbackQueryHandler):
                    assert isinstance(handler.pattern, re.Pattern)
                    found.append(handler.pattern)
    return found


PATTERNS = callback_patterns()


@given(ANY_BUTTON)
def test_every_general_button_is_taken_by_exactly_one_handler(button: GeneralButton) -> None:
    for data in (button.encode(), f"g1:{button.VERB}:1"):
        assert len([p for p in PATTERNS if p.match(data)]) == 1, data


@given(ANY_BUTTON)
def test_every_general_button_round_trips_within_64_bytes(button: GeneralButton) -> None:
    data = button.encode()  # every field is an id, a version, an enum or a short key: it fits
    assert len(data.encode()) <= MAX_BYTES
    assert decode(data) == button
    assert decode_as(data, type(button)) == button
    assert re.match(pattern(type(button)), data)
    others = [k for k in KINDS if k is not type(button)]
    assert not re.match(pattern(*others), data)


@given(ANY_BUTTON)
def test_buttons_on_old_messages_still_read(button: GeneralButton) -> None:
    """The older form: ints in decimal, fields joined by dots (no negative ids were made)."""
    texts = []
    for f in dataclasses.fields(button):
        value = getattr(button, f.name)
        value = value.value if isinstance(value, Enum) else value
        if isinstance(value, bool) or (isinstance(value, int) and value < 0):
            return
        if isinstance(value, str) and "." in value:
            return
        texts.append(str(value))
    old = f"g1:{button.VERB}" + (":" + ".".join(texts) if texts else "")
    if len(old.encode()) <= MAX_BYTES:
        assert decode(old) == button
        assert re.match(pattern(type(button)), old)


def test_the_old_forms_the_bot_made_read_as_typed_buttons() -> None:
    assert decode("g1:undo:812.4") == UndoButton(812, 4)
    assert decode("g1:endgame:keep.3.17") == EndButton(EndAnswer.KEEP, 3, 17)
    assert decode("g1:newgame:nsu") == NewGameButton("nsu")
    assert decode("g1:nsu_x:5") == XCardButton(5)
    assert decode("g1:nsu_cards:5.77") == CardsButton(5, 77)
    assert decode("g1:scout_look:77") == LookButton(77)


def test_ints_are_packed_compactly() -> None:
    assert UndoButton(2**40, 35).encode() == "g2:undo:e13wu1og:z"  # int("e13wu1og", 36) == 2**40
    assert EndButton(EndAnswer.END, 1, 0).encode() == "g2:endgame:end:1:0"


def test_panel_buttons_round_trip() -> None:
    button = PanelButton(2**62, 99999, "aspect", "body")
    assert decode(button.encode()) == button


def test_encoding_refuses_what_would_not_fit() -> None:
    with pytest.raises(ValueError):
        PanelButton(1, 1, "x" * 24, "y" * 40).encode()
    with pytest.raises(ValueError):
        PanelButton(1, 1, "Bad Action").encode()
    with pytest.raises(ValueError):
        NewGameButton("x" * 60).encode()
    with pytest.raises(ValueError):
        NewGameButton("has:colon").encode()
    with pytest.raises(ValueError):
        UndoButton(2**63, 1).encode()  # beyond what the database keeps
    with pytest.raises(ValueError):
        UndoButton(True, 1).encode()


def test_a_verb_is_taken_once() -> None:
    with pytest.raises(ValueError, match="taken"):

        @dataclass(frozen=True)
        class Another(GeneralButton, verb="undo"):
            panel_id: int

    with pytest.raises(ValueError, match="bad verb"):

        @dataclass(frozen=True)
        class Bad(GeneralButton, verb="Has:Colon"):
            pass


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "p1",
        "p1:x:1:a",
        "p1:1:1",
        "p1:0:1:a",
        "p2:1:1:a",
        "g1",
        "g1:NEW",
        "p1:1:-1:a",
        "p1:1:1:a:b:c",
        "x" * 80,
        "g2",
        "g2:nosuchverb:1",
        "g2:undo",  # a field missing
        "g2:undo:1:2:3",  # one too many
        "g2:undo:1:Z",  # not base 36 as packed
        "g2:undo:01:2",  # not as packed (leading zero)
        "g2:undo:-0:2",
        "g2:undo:1y2p0ij32e8e8:1",  # past the database's ints
        "g2:endgame:maybe:1:2",
        "g2:newgame:nsu:extra",
        "g1:undo:1:2",
        "g1:undo:1.2.3",
        "g1:undo:1.-2",
        "g1:undo:99999999999999999999.1",
        "g1:endgame:maybe.1.2",
        "g1:endgame:end.1",
        "g1:undo:١.2",  # a digit, but not ASCII
        "g2:" + "undo:" * 13,
    ],
)
def test_garbage_forged_and_old_formats_are_out_of_date(data: str | None) -> None:
    with pytest.raises(Malformed, match="out of date"):
        decode(data)


def test_a_button_of_another_kind_is_out_of_date() -> None:
    with pytest.raises(Malformed, match="out of date"):
        decode_as(UndoButton(1, 2).encode(), EndButton)
    with pytest.raises(Malformed, match="out of date"):
        decode_as("p1:1:1:roll", UndoButton)


VERBS = "|".join(k.VERB for k in KINDS)


@given(
    st.one_of(
        st.text(max_size=MAX_BYTES + 10),
        st.from_regex(rf"g[12]:({VERBS})(:[0-9a-z.+_-]{{0,16}}){{0,4}}", fullmatch=True),
        st.from_regex(r"p1:[0-9-]{1,4}:[0-9-]{1,4}:[a-z_]{1,8}(:[a-z]{0,4})?", fullmatch=True),
    )
)
def test_any_text_decodes_or_is_refused(data: str) -> None:
    try:
        button = decode(data)
    except Malformed as error:
        assert "out of date" in error.message
        return
    assert decode(button.encode()) == button
    if data.startswith("g2:"):
        assert button.encode() == data  # one packing per button: nothing else reads
