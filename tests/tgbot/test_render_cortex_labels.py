"""A Cortex button naming a person or a trait fits a phone's row, however long the name, and
never cuts the name: it shows the whole name, or as many of its first words as fit."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.rules.choice import Choice
from core.rules.cortex.log import ENTRY_TYPES
from core.rules.cortex.state import Ending
from core.words.i18n import Lang, lang_for
from tests.tgbot.test_label_widths import name_shown_whole
from tgbot.render.cortex import ENDINGS, ConflictLogLine, Press, choice_label
from tgbot.render.layout import ONE_ROW, label_width

LANGS = [lang_for("en"), lang_for("ru")]
NAMES = st.lists(
    st.text(st.characters(blacklist_categories=("Cs", "Zs", "Cc")), min_size=1, max_size=14),
    min_size=1,
    max_size=4,
).map(" ".join)


def label(verb: Press, name: str, lang: Lang) -> str:
    choice = Choice(verb, argument="s1", by=frozenset({1}), who=name, name="Rope", die=8, count=1)
    return choice_label(choice, lang)


@given(
    who=st.text(min_size=1, max_size=60).filter(str.strip),
    verb=st.sampled_from(list(Press)),
    lang=st.sampled_from(LANGS),
)
def test_a_long_name_never_pushes_a_label_past_the_row(who: str, verb: Press, lang: Lang) -> None:
    assert label_width(label(verb, who, lang)) <= max(ONE_ROW, label_width(label(verb, "A", lang)))


@given(who=NAMES, verb=st.sampled_from(list(Press)), lang=st.sampled_from(LANGS))
def test_a_button_shows_a_name_in_whole_words(who: str, verb: Press, lang: Lang) -> None:
    shown = label(verb, who, lang)
    assert name_shown_whole(shown, label(verb, "\x00", lang), who), (who, shown)


def test_the_keep_button_names_its_player_within_the_row() -> None:
    keep = Choice(Press.SETTLE, by=frozenset({1}), who="<b>Bo</b> & Co")
    assert choice_label(keep, lang_for("en")) == "✅ Keep this Result · <b>Bo</b>"
    assert choice_label(keep, lang_for("ru")) == "✅ Оставить · <b>Bo</b> & Co"
    chidi = Choice(Press.SETTLE, by=frozenset({1}), who="Chidi Okafor")
    assert choice_label(chidi, lang_for("en")) == "✅ Keep this Result · Chidi"
    trouble = Choice(Press.COMPLICATION, by=frozenset({1}), who="Chidi Okafor Junior", die=8)
    assert choice_label(trouble, lang_for("en")) == "👁 Chidi's d8 1 → Trouble"
    long = Choice(Press.SETTLE, by=frozenset({1}), who="Wolfeschlegelsteinhausenberger")
    assert choice_label(long, lang_for("en")) == "✅ Keep this Result · W."


def test_the_opposition_roll_counts_its_dice() -> None:
    def roll(count: int, lang: Lang) -> str:
        return choice_label(Choice(Press.OPPOSITION_ROLL, by=frozenset({1}), count=count), lang)

    en, ru = LANGS
    assert [roll(n, en) for n in (1, 2)] == ["👁 Roll 1 opposition die", "👁 Roll 2 opposition dice"]
    assert [roll(n, ru) for n in (1, 3, 5)] == [
        "👁 Бросить 1 кубик",
        "👁 Бросить 3 кубика",
        "👁 Бросить 5 кубиков",
    ]


TRAIT_VERBS = [Press.ADD, Press.REMOVE, Press.RESOURCE, Press.INFLICT, Press.CANCEL_TROUBLE]


def trait_label(verb: Press, trait: str, lang: Lang, argument: str = "d1") -> str:
    choice = Choice(verb, argument=argument, by=frozenset({1}), who="Bo", name=trait, die=8)
    return choice_label(choice, lang)


@given(
    trait=NAMES,
    verb=st.sampled_from(TRAIT_VERBS),
    argument=st.sampled_from(["d1", "s1", "r1", "r1u"]),
    lang=st.sampled_from(LANGS),
)
def test_a_button_shows_a_trait_in_whole_words(
    trait: str, verb: Press, argument: str, lang: Lang
) -> None:
    shown = trait_label(verb, trait, lang, argument)
    bare = trait_label(verb, "\x00", lang, argument)
    assert name_shown_whole(shown, bare, trait), (trait, shown)


def test_a_long_trait_reads_as_its_first_whole_words() -> None:
    en = lang_for("en")
    sword = "Sword of the Drowned Kingdom"
    assert trait_label(Press.REMOVE, sword, en) == "➖ Sword of the Drowned"
    assert trait_label(Press.ADD, sword, en) == "✨ Sword of the Drowned d8"
    assert trait_label(Press.REMOVE, "Unbreakablesteelwilledness", en) == "➖ U."
    assert trait_label(Press.REMOVE, "Quick Hands", en) == "➖ Quick Hands"


def test_a_trait_cut_mid_word_is_told_from_a_whole_one() -> None:
    sword = "Sword of the Drowned Kingdom"
    bare = "➖ \x00"
    assert name_shown_whole("➖ Sword of the Drowned", bare, sword)
    assert not name_shown_whole("➖ Sword of the Drowned K…", bare, sword)
    assert not name_shown_whole("➖ Sword of the Drow…", bare, sword)


def test_every_kind_of_conflict_log_line_is_worded() -> None:
    """A kind of line added to the conflict's log without a method to word it fails here."""
    dispatcher = ConflictLogLine.__dict__["text"].dispatcher
    fallback = dispatcher.dispatch(object)
    assert [t for t in ENTRY_TYPES if dispatcher.dispatch(t) is fallback] == []


def test_every_ending_of_a_conflict_is_told() -> None:
    assert set(ENDINGS) == set(Ending)
