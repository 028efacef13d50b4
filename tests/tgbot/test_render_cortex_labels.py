"""A Cortex button naming a person fits a phone's row, however long the name."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.rules.choice import Choice
from core.words.i18n import lang_for
from tgbot.render.cortex import Press, choice_label
from tgbot.render.layout import ONE_ROW, label_width

LANGS = [lang_for("en"), lang_for("ru")]


@given(
    who=st.text(min_size=1, max_size=60).filter(str.strip),
    verb=st.sampled_from(list(Press)),
    lang=st.sampled_from(LANGS),
)
def test_a_long_name_never_pushes_a_label_past_the_row(who: str, verb: Press, lang: object) -> None:
    def label(name: str) -> str:
        choice = Choice(verb, argument="s1", by=frozenset({1}), who=name, name="Rope", die=8)
        return choice_label(choice, lang)  # type: ignore[arg-type]

    short = label("A")
    assert label_width(label(who)) <= max(ONE_ROW, label_width(short))


def test_the_keep_button_names_its_player_within_the_row() -> None:
    choice = Choice(Press.SETTLE, by=frozenset({1}), who="<b>Bo</b> & Co")
    assert choice_label(choice, lang_for("en")) == "✅ Keep this Result · <b>Bo</b…"
    assert choice_label(choice, lang_for("ru")) == "✅ Оставить · <b>Bo</b> & Co"
