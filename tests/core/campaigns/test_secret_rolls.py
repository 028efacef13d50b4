"""Which words make a roll secret, and who sees a secret roll."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.campaigns.secret_rolls import SECRET_WORDS, audience, secret_request


def test_secret_before_or_after_the_dice_in_either_language() -> None:
    assert secret_request("1d20+5 secret") == ("1d20+5", True)
    assert secret_request("SECRET 1d20+5 sneaking") == ("1d20+5 sneaking", True)
    assert secret_request("тайно 2d6") == ("2d6", True)
    assert secret_request("1d20 the secret door") == ("1d20 the secret door", False)
    assert secret_request("") == ("", False)


@given(st.text(max_size=60))
def test_text_without_a_secret_word_at_either_end_is_left_as_typed(text: str) -> None:
    words = text.split()
    if words and (words[0].lower() in SECRET_WORDS or words[-1].lower() in SECRET_WORDS):
        assert secret_request(text)[1]
    else:
        assert secret_request(text) == (text, False)


def test_the_gm_sees_a_secret_roll_except_in_a_game_without_one() -> None:
    assert audience(5, "threat", [1]) == (5, 1)
    assert audience(5, "cortex", [1, 2]) == (5, 1, 2)
    assert audience(1, "d20", [1]) == (1,)  # the GM rolling: once
    assert audience(5, "nsu", [1]) == (5,)
    assert audience(5, None, []) == (5,)  # no game here
