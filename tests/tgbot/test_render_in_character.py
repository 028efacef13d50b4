"""How a post in character looks: rolls in place with the notation and total in bold,
the dice compactly, and no HTML from the player's words left unescaped."""

from __future__ import annotations

import html
import re

from hypothesis import given
from hypothesis import strategies as st

from core.campaigns.posts import Posted, Speaker
from core.rules.errors import Malformed
from core.rules.in_character import read_post
from core.rules.rng import ScriptedRng, SeededRng
from tgbot.render.in_character import fitting, render_post, shown_length

OURS = re.compile(r"</?(?:b|i|s)>")
DICE = ["1d20+5", "4d6kh3", "2d20kl1 >= 10", "3x 1d6", "atk", "14d6"]


def posted(
    text: str, speaker: Speaker = Speaker.CHARACTER, name: str = "Mirra", seed: int = 1
) -> Posted:
    post = read_post(text, {"atk": "1d20+7"}, SeededRng(seed))
    return Posted(1, -100, 0, speaker, name, post, "en")


def test_a_post_shows_each_roll_where_it_was_written() -> None:
    post = read_post("I swing [1d20+5] & [4d6kh3]", {}, ScriptedRng([12, 6, 1, 5, 4]))
    shown = render_post(Posted(1, -100, 0, Speaker.CHARACTER, "<Mirra>", post, "en"))
    assert shown == (
        "💬 <b>&lt;Mirra&gt;</b>: I swing [<b>1d20+5</b> (12) = <b>17</b>] &amp; "
        "[<b>4d6kh3</b> (6, <s>1</s>, 5, 4) = <b>15</b>]"
    )


def test_the_narrator_and_others_are_shown_apart() -> None:
    assert render_post(posted("Night falls.", Speaker.NARRATOR, "")) == "📜 <i>Night falls.</i>"
    assert render_post(posted("Halt!", Speaker.OTHER, "Gobbo")) == "🎭 <b>Gobbo</b>: Halt!"


def test_many_dice_are_counted_past_a_dozen() -> None:
    shown = render_post(posted("[14d6]"))
    assert shown.count(", ") == 12 and ", +2)" in shown


@given(
    st.lists(st.one_of(st.text(max_size=30), st.sampled_from(DICE).map(lambda d: f"[{d}]"))),
    st.text(max_size=20),
    st.integers(0, 2**32),
)
def test_no_html_from_the_words_survives_unescaped(parts: list[str], name: str, seed: int) -> None:
    text = "".join(parts) or "x"
    try:
        shown = render_post(posted(text, name=name, seed=seed))
    except Malformed:
        return
    bare = OURS.sub("", shown)
    assert "<" not in bare and ">" not in bare  # every tag is ours; the words' are text
    visible = html.unescape(bare)
    # the words outside brackets read as they were typed
    for piece in re.split(r"\[[^\[\]\n]*\]", text.strip()):
        assert piece in visible


def test_a_post_longer_than_a_message_is_refused_with_the_limit() -> None:
    fits = "💬 " + "a" * 4093  # the emoji counts twice, as Telegram counts it
    assert shown_length(fits) == 4096 and fitting(fits) == fits
    try:
        fitting(fits + "&amp;")
    except Malformed as refused:
        assert refused.values == {"limit": 4096}
    else:
        raise AssertionError("a post over the limit was taken")
