"""The inline answer builder: what ``@bot <text>`` offers, with saved rolls suggested."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from telegram import InlineQueryResultArticle

from core.campaigns.inline_rolls import MAX_OFFERS, chosen, offer_id, offers
from core.words.i18n import lang_for
from tgbot.render.inline import DICE_HELP, inline_results

EN, RU = lang_for("en"), lang_for("ru")


def _text(result: InlineQueryResultArticle) -> str:
    content = result.input_message_content
    return str(getattr(content, "message_text", ""))


def test_a_typed_roll_is_offered_as_typed_and_not_rolled() -> None:
    [result], button = inline_results("2d6+3", [], "Ada", EN)
    assert button is None
    assert result.title == "🎲 2d6+3"
    assert result.description == "Roll 2d6 + 3"
    assert _text(result) == "🎲 <b>Ada</b> rolls <code>2d6+3</code>…"
    assert result.id == offer_id("", "2d6+3")
    [[button]] = result.reply_markup.inline_keyboard  # type: ignore[union-attr]
    assert button.switch_inline_query_current_chat == "2d6+3"
    russian = inline_results("2к6+3 огонь", [], "Иван", RU)[0][0]
    assert _text(russian) == "🎲 <b>Иван</b> бросает <code>2к6+3 огонь</code>…"
    assert russian.description == "Бросок 2d6 + 3 — огонь"


def test_saved_rolls_follow_the_typed_roll() -> None:
    suggestions = [("atk", "1d20+5 adv"), ("dmg", "2d6+3"), ("broken", "2d6 |")]
    results, _ = inline_results("2d6+3", suggestions, "Ada", EN)
    assert [r.title for r in results] == ["🎲 2d6+3", "🎲 atk: 1d20+5 adv", "🎲 dmg: 2d6+3"]
    assert _text(results[1]) == "🎲 <b>Ada</b> rolls <i>atk</i>: <code>1d20+5 adv</code>…"
    [[button]] = results[1].reply_markup.inline_keyboard  # type: ignore[union-attr]
    assert button.switch_inline_query_current_chat == "atk"
    assert len({r.id for r in results}) == 3


def test_a_name_being_typed_shows_its_saved_roll_and_the_button_above() -> None:
    results, button = inline_results("at", [("atk", "1d20+5")], "Ada", EN)
    assert [r.id for r in results] == [offer_id("atk", "1d20+5")]  # nothing else to post
    assert button is not None and button.start_parameter == DICE_HELP
    assert button.text == "🤔 That's no roll yet: how to write dice"


def test_malformed_text_offers_nothing_but_the_button_in_the_users_language() -> None:
    english, button = inline_results("1001d6", [], "Ada", EN)
    assert english == [] and button is not None
    russian, button = inline_results("2d6 |", [], "Иван", RU)
    assert russian == [] and button is not None
    assert button.text == "🤔 Не бросок: как записать кубики"


def test_an_empty_query_offers_examples() -> None:
    results, _ = inline_results("  ", [], "Ada", EN)
    assert [r.title for r in results] == ["🎲 1d20", "🎲 2d6", "🎲 4d6kh3", "🎲 1d20 adv"]


def test_html_in_the_query_is_escaped() -> None:
    [result], _ = inline_results("1d6 <b>&</b>", [], "<Ada>", EN)
    assert _text(result) == "🎲 <b>&lt;Ada&gt;</b> rolls <code>1d6 &lt;b&gt;&amp;&lt;/b&gt;</code>…"


def test_the_chosen_result_is_found_again_only_from_its_query() -> None:
    suggestions = [("atk", "1d20+5")]
    typed = chosen("2d6+3", suggestions, offer_id("", "2d6+3"))
    assert typed is not None and typed.text == "2d6+3"
    saved = chosen("2d6+3", suggestions, offer_id("atk", "1d20+5"))
    assert saved is not None and saved.expression.notation == "1d20 + 5"
    assert chosen("2d6+3", [], offer_id("atk", "1d20+5")) is None  # the saved roll is gone
    assert chosen("2d6+4", [], offer_id("", "2d6+3")) is None  # an id that doesn't match
    assert chosen("2d6 |", [], "hint") is None


@settings(max_examples=150, deadline=None)
@given(
    st.text(max_size=256),
    st.lists(st.tuples(st.text(max_size=20), st.text(max_size=40)), max_size=60),
)
def test_any_query_gets_results_telegram_accepts(
    query: str, suggestions: list[tuple[str, str]]
) -> None:
    results, button = inline_results(query, suggestions, "Ada", RU)
    assert len(results) + (button is not None) >= 1 and len(results) <= MAX_OFFERS <= 50
    if button is not None:  # Telegram's deep link parameter: 1-64 of A-Z a-z 0-9 _ -
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", button.start_parameter or "")
    ids = [r.id for r in results]
    assert len(set(ids)) == len(ids)
    assert all(1 <= len(i.encode()) <= 64 for i in ids)
    assert all(r.title and len(_text(r)) <= 4096 for r in results)
    assert len(offers(query, suggestions).rolls) <= MAX_OFFERS


def test_every_word_of_the_results_comes_from_the_catalogue() -> None:
    from tests.tgbot.test_i18n_pseudo import leaks

    pseudo = lang_for("xx")
    data = ("fire", "atk", "adv", "oops")
    for query in ("2d6+3 fire", "oops", ""):
        results, button = inline_results(query, [("atk", "1d20+5 adv")], "Alice Marsh", pseudo)
        if button is not None:
            assert leaks(button.text, data) == [], button.text
        for result in results:
            texts = [result.title, result.description or "", _text(result)]
            markup = result.reply_markup
            if markup is not None:
                texts += [b.text for row in markup.inline_keyboard for b in row]
            for text in texts:
                assert leaks(text, data) == [], text
