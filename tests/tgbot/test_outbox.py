"""What a post in character sends (the planner, tgbot/outbox.py): under its speaker's
portrait exactly when the post fits a caption as Telegram counts it, else the text alone,
and never a cut text; an inline post picked with the portrait is refused past a caption."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from core.campaigns.portraits import PortraitRef
from core.campaigns.posts import Posted, Speaker
from core.rules.errors import Malformed
from core.rules.in_character import read_post
from core.rules.rng import SeededRng
from tgbot.outbox import Planner
from tgbot.render.in_character import TOO_LONG_CAPTION, TOO_LONG_POST, render_post

PORTRAIT = PortraitRef(7, 1001, "d1", None)
# words with no dice, each character as it counts in UTF-16 (an emoji twice)
LETTERS = st.sampled_from(["a", "я", " ", "&", "<", ">", '"', "🐉", "é", "\n"])
WORDS = (
    st.one_of(st.integers(1, 60), st.integers(980, 1030), st.integers(4060, 4110))
    .flatmap(lambda n: st.text(LETTERS, min_size=n, max_size=n))
    .filter(lambda t: t.strip() != "")
)  # short posts, and posts about as long as a caption or a message may be


def utf16(text: str) -> int:
    return sum(2 if ord(c) > 0xFFFF else 1 for c in text)


def posted(text: str, portrait: PortraitRef | None, **more: Any) -> Posted:
    post = read_post(text, {}, SeededRng(1))
    return Posted(7, -100, 0, Speaker.CHARACTER, "Mirra", post, "en", portrait=portrait, **more)


def plan(post: Posted) -> list[Any]:
    planner = Planner({}, None)  # type: ignore[arg-type]  # a post needs neither
    return asyncio.run(planner(post, ""))


@given(WORDS, st.booleans())
@example("a" * 1014, True)  # "💬 Mirra: " and these: 1024, a caption's most
@example("🐉" * 507, True)  # the same, each dragon counted twice
@example("a" * 1015, True)  # one past
@example("a" * 4086, True)  # a message's most
@example("a" * 4087, False)  # one past
def test_a_post_goes_under_its_portrait_only_when_it_fits_a_caption(
    text: str, pictured: bool
) -> None:
    post = posted(text, PORTRAIT if pictured else None)
    seen = utf16(f"💬 Mirra: {text.strip()}")  # what Telegram shows, counted as it counts
    if seen > 4096:
        with pytest.raises(Malformed) as refused:
            plan(post)
        assert refused.value.message_id == TOO_LONG_POST
        return
    [effect] = plan(post)
    assert effect.payload["text"] == render_post(post)  # whole, never cut
    if pictured and seen <= 1024:
        assert effect.kind == "portrait"
        assert effect.payload["portrait"] == {"campaign_id": 7, "player": 1001}
    else:
        assert effect.kind == "send" and "portrait" not in effect.payload


@given(WORDS)
@example("a" * 1014)
@example("🐉" * 507 + "a")
def test_an_inline_post_under_the_portrait_is_refused_past_a_caption(text: str) -> None:
    post = posted(text, None, inline_message_id="AAA", pictured=True)
    seen = utf16(f"💬 Mirra: {text.strip()}")
    if seen <= 1024:
        (edit,) = plan(post)  # the inline message's caption, through the outbox
        assert edit.kind == "edit" and edit.payload["caption"] is True
        assert edit.payload["inline_message_id"] == "AAA"
        return
    with pytest.raises(Malformed) as refused:
        plan(post)
    assert refused.value.message_id == TOO_LONG_CAPTION and refused.value.values == {"limit": 1024}
