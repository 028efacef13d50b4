"""Keywords typed in a table's languages read as the rules' own, through each grammar."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.cortex.campaign import parse_trait_text
from core.rules.d20check.check import AbilityStrength
from core.rules.d20check.table import parse_check
from core.rules.errors import Malformed
from core.rules.nsu.details import DetailKind
from core.rules.nsu.odds_text import read_odds_query
from core.rules.nsu.roll_panel import read_detail
from core.rules.nsu.roll_state import TargetKind
from core.rules.nsu.terms import Edge, Risk
from core.rules.typed import (
    ENGLISH,
    KEYWORDS,
    Vocabulary,
    check_text,
    command_word,
    contest_text,
    cortex_reply_text,
    detail_text,
    downtime_reply_text,
    downtime_text,
    odds_query_text,
    stakes_text,
    trait_text,
)
from tests.core.rules.nsu.test_roll_panel import ANA, BEN, CY, Driver, fresh

# the Russian forms as the catalogue gives them (tests/core/words/test_typed_words.py
# checks they match)
RU = Vocabulary.of(
    {
        "harm": ["вред"],
        "scene": ["сцена", "сцену", "the scene"],
        "soft": ["мягкая"],
        "hard": ["жёсткая"],
        "here": ["здесь", "тут"],
        "value": ["ценность", "ценности"],
        "relationship": ["отношение", "отношения"],
        "asset": ["актив", "активы"],
        "resource": ["ресурс", "ресурсы"],
        "limit": ["ограничение", "ограничения"],
        "distinction": ["отличие"],
        "ability": ["способность"],
        "heritage": ["наследие"],
        "extra": ["статист"],
        "location": ["локация"],
        "remove": ["убрать", "удалить", "drop"],
        "name": ["имя"],
        "weak": ["слабая"],
        "average": ["средняя", "avg"],
        "strong": ["сильная"],
        "adv": ["преим", "преимущество", "aadv", "aspect-adv"],
        "dis": ["помеха", "пом", "disadv", "adis", "aspect-dis"],
        "dc": ["сл"],
        "vs": ["против"],
        "prof": ["влад", "владение"],
        "home": ["дом", "домой"],
        "camp": ["лагерь"],
        "world": ["мир", "миру"],
        "character": ["персонаж", "персонажу", "char"],
        "madv": ["преим-настроя", "mood-adv"],
        "mdis": ["помеха-настроя", "mood-dis"],
        "detail": ["деталь"],
        "aid": ["помощь"],
        "body": ["тело"],
        "mind": ["разум"],
        "heart": ["сердце"],
        "swap": ["поменять", "обменять"],
        "replace": ["заменить"],
        "help": ["справка", "помощь"],
        "off": ["закрыть", "выкл", "выключить", "отозвать", "stop", "withdraw"],
        "mute": ["тихо", "без звука"],
        "unmute": ["со звуком", "громко"],
        "m": ["м", "мин", "минут", "минуты", "минуту", "min", "mins", "minutes"],
        "h": ["ч", "час", "часа", "часов", "hr", "hrs", "hours"],
        "d": ["д", "дн", "день", "дня", "дней", "day", "days"],
    }
)


@pytest.mark.parametrize(
    ("typed", "kind", "harm"),
    [
        ("вред: Содранные ладони", DetailKind.HARD, True),
        ("ВРЕД: Содранные ладони", DetailKind.HARD, True),
        ("harm: Содранные ладони", DetailKind.HARD, True),
        ("жёсткая: Содранные ладони", DetailKind.HARD, False),
        ("жесткая: Содранные ладони", DetailKind.HARD, False),
        ("hard: Содранные ладони", DetailKind.HARD, False),
        ("мягкая: Содранные ладони", DetailKind.SOFT, False),
        ("soft: Содранные ладони", DetailKind.SOFT, False),
        ("сцена: Содранные ладони", DetailKind.SCENE, False),
        ("scene: Содранные ладони", DetailKind.SCENE, False),
    ],
)
def test_a_detail_kind_reads_in_either_language(typed: str, kind: DetailKind, harm: bool) -> None:
    roll = Driver(fresh(), ANA, "x").panel.roll
    entry = read_detail(detail_text(typed, RU), roll, CY, {}, None)
    assert (entry.detail.kind, entry.harm, entry.detail.name) == (kind, harm, "Содранные ладони")


@pytest.mark.parametrize("place", ["сцена", "Сцену", "здесь", "тут", "scene", "the scene", "here"])
def test_a_detail_at_the_scene_reads_in_either_language(place: str) -> None:
    roll = Driver(fresh(), ANA, "x").panel.roll
    entry = read_detail(detail_text(f"Мост рухнул @ {place}", RU), roll, CY, {}, None)
    assert entry.target.kind is TargetKind.SCENE and entry.detail.name == "Мост рухнул"


def test_a_harm_on_a_named_character_keeps_the_name_as_typed() -> None:
    roll = Driver(fresh(), ANA, "x").panel.roll
    entry = read_detail(detail_text("вред: Порез @ Ben P", RU), roll, CY, {BEN: "Ben P"}, None)
    assert entry.harm and entry.target.player == BEN


@pytest.mark.parametrize("typed", ["травма: Порез", "harmm: Порез", "вредd: Порез"])
def test_an_unknown_kind_word_is_refused_not_kept_as_a_detail(typed: str) -> None:
    roll = Driver(fresh(), ANA, "x").panel.roll
    with pytest.raises(Malformed, match="no kind of detail"):
        read_detail(detail_text(typed, RU), roll, CY, {}, None)


def test_a_colon_inside_a_longer_detail_stays_part_of_it() -> None:
    roll = Driver(fresh(), ANA, "x").panel.roll
    entry = read_detail(detail_text("Сломан мост: не пройти", RU), roll, CY, {}, None)
    assert entry.detail.name == "Сломан мост: не пройти" and not entry.harm


@pytest.mark.parametrize(
    ("typed", "edit"),
    [
        (
            "ценность Справедливость d8",
            ("trait.set", {"box": "value", "name": "Справедливость", "die": "d8"}),
        ),
        (
            "Ценности Справедливость д8",
            ("trait.set", {"box": "value", "name": "Справедливость", "die": "d8"}),
        ),
        ("value Justice d8", ("trait.set", {"box": "value", "name": "Justice", "die": "d8"})),
        ("отношение Лоис d6", ("trait.set", {"box": "relationship", "name": "Лоис", "die": "d6"})),
        (
            "relationship Lois d6",
            ("trait.set", {"box": "relationship", "name": "Lois", "die": "d6"}),
        ),
        (
            "актив Деревенский парень d8 отличие",
            (
                "trait.set",
                {"box": "asset", "name": "Деревенский парень", "die": "d8", "kind": "distinction"},
            ),
        ),
        (
            "актив Полёт d10 способность",
            ("trait.set", {"box": "asset", "name": "Полёт", "die": "d10", "kind": "ability"}),
        ),
        (
            "актив Криптонец d6 наследие",
            ("trait.set", {"box": "asset", "name": "Криптонец", "die": "d6", "kind": "heritage"}),
        ),
        (
            "asset Farm Boy d8 distinction",
            ("trait.set", {"box": "asset", "name": "Farm Boy", "die": "d8", "kind": "distinction"}),
        ),
        (
            "ресурс Крепость d8 локация",
            ("trait.set", {"box": "resource", "name": "Крепость", "die": "d8", "kind": "location"}),
        ),
        (
            "ресурс Джимми d6 статист",
            ("trait.set", {"box": "resource", "name": "Джимми", "die": "d6", "kind": "extra"}),
        ),
        (
            "resource Jimmy d6 extra",
            ("trait.set", {"box": "resource", "name": "Jimmy", "die": "d6", "kind": "extra"}),
        ),
        (
            "ограничение Криптонит d10",
            ("trait.set", {"box": "limit", "name": "Криптонит", "die": "d10"}),
        ),
        (
            "limit Kryptonite d10",
            ("trait.set", {"box": "limit", "name": "Kryptonite", "die": "d10"}),
        ),
        (
            "убрать ценность Справедливость",
            ("trait.remove", {"box": "value", "name": "Справедливость"}),
        ),
        ("remove value Justice", ("trait.remove", {"box": "value", "name": "Justice"})),
        ("имя Кларк", ("rename", {"name": "Кларк"})),
        ("name Clark", ("rename", {"name": "Clark"})),
        # the kind may come first, right after the box
        (
            "актив способность Кузнечный молот d6",
            (
                "trait.set",
                {"box": "asset", "name": "Кузнечный молот", "die": "d6", "kind": "ability"},
            ),
        ),
        (
            "asset Heritage Last Son d8",
            ("trait.set", {"box": "asset", "name": "Last Son", "die": "d8", "kind": "heritage"}),
        ),
        (
            "ресурс локация Крепость д8",
            ("trait.set", {"box": "resource", "name": "Крепость", "die": "d8", "kind": "location"}),
        ),
        # another box's kind word is part of the name; so is a kind word alone before the die
        (
            "актив локация Сыщик d6",
            ("trait.set", {"box": "asset", "name": "локация Сыщик", "die": "d6"}),
        ),
        (
            "asset Location Scout d6",
            ("trait.set", {"box": "asset", "name": "Location Scout", "die": "d6"}),
        ),
        (
            "актив способность d6",
            ("trait.set", {"box": "asset", "name": "способность", "die": "d6"}),
        ),
        (
            "ценность способность Справедливость d8",
            ("trait.set", {"box": "value", "name": "способность Справедливость", "die": "d8"}),
        ),
    ],
)
def test_trait_keywords_read_in_either_language(
    typed: str, edit: tuple[str, dict[str, str]]
) -> None:
    assert parse_trait_text(trait_text(typed, RU)) == edit


def test_a_trait_named_like_a_keyword_keeps_its_name() -> None:
    assert parse_trait_text(trait_text("актив Имя d6", RU)) == (
        "trait.set",
        {"box": "asset", "name": "Имя", "die": "d6"},
    )


def test_an_unknown_trait_box_is_refused() -> None:
    with pytest.raises(Malformed):
        parse_trait_text(trait_text("черта Справедливость d8", RU))


@pytest.mark.parametrize(
    ("typed", "ability", "numbers", "target"),
    [
        ("сильная +2 преим сл15", AbilityStrength.STRONG, (2, 1, 0), ("dc", 15)),
        ("strong +2 adv dc15", AbilityStrength.STRONG, (2, 1, 0), ("dc", 15)),
        ("слабая помеха2 против14", AbilityStrength.WEAK, (0, 0, 2), ("vs", 14)),
        ("weak dis2 vs14", AbilityStrength.WEAK, (0, 0, 2), ("vs", 14)),
        ("средняя влад3 преим2 сл 12", AbilityStrength.AVERAGE, (3, 2, 0), ("dc", 12)),
        ("average prof3 adv2 dc 12", AbilityStrength.AVERAGE, (3, 2, 0), ("dc", 12)),
        ("Сильная пом сл15", AbilityStrength.STRONG, (0, 0, 1), ("dc", 15)),
    ],
)
def test_check_keywords_read_in_either_language(
    typed: str, ability: AbilityStrength, numbers: tuple[int, int, int], target: tuple[str, int]
) -> None:
    request = parse_check(check_text(typed, RU), None)
    setup = request.setup
    assert setup.ability is ability
    assert (setup.proficiency, setup.advantages, setup.disadvantages) == numbers
    value = getattr(request.target, "value", None) if target[0] == "dc" else request.target.result  # type: ignore[union-attr]
    assert value == target[1]


def test_an_unknown_check_word_is_refused() -> None:
    with pytest.raises(Malformed):
        parse_check(check_text("могучая сл15", RU), None)


@pytest.mark.parametrize(
    ("typed", "place"), [("дом", "home"), ("Лагерь", "camp"), ("home", "home"), ("camp", "camp")]
)
def test_downtime_places_read_in_either_language(typed: str, place: str) -> None:
    assert downtime_text(typed, RU) == place


def test_an_unknown_place_is_left_for_the_rules_to_refuse() -> None:
    assert downtime_text("таверна", RU) == "таверна"


@pytest.mark.parametrize(
    ("typed", "risk", "aspect", "mood"),
    [
        ("d6 d8 мир преим +1", Risk.WORLD, Edge.ADVANTAGE, Edge.NONE),
        ("d6 d8 world adv +1", Risk.WORLD, Edge.ADVANTAGE, Edge.NONE),
        ("d6 d8 персонаж помеха преим-настроя", Risk.CHARACTER, Edge.DISADVANTAGE, Edge.ADVANTAGE),
        ("d6 d8 character dis madv", Risk.CHARACTER, Edge.DISADVANTAGE, Edge.ADVANTAGE),
        ("d6 d8 Миру помеха-настроя", Risk.WORLD, Edge.NONE, Edge.DISADVANTAGE),
    ],
)
def test_odds_keywords_read_in_either_language(
    typed: str, risk: Risk, aspect: Edge, mood: Edge
) -> None:
    query = read_odds_query(odds_query_text(typed, RU))
    assert (query.risk, query.aspect_edge, query.mood_edge) == (risk, aspect, mood)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("деталь Скользкий пол", "detail Скользкий пол"),
        ("Помощь Лоис", "aid Лоис"),
        ("detail Slick floor", "detail Slick floor"),
        ("деталь", "деталь"),
        ("Скользкий пол", "Скользкий пол"),
    ],
)
def test_a_cortex_reply_word_reads_in_either_language(typed: str, meant: str) -> None:
    assert cortex_reply_text(typed, RU) == meant


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("1 разум #1", "1 mind #1"),
        ("2 Сердце 6 Выучить плотницкое дело", "2 heart 6 Выучить плотницкое дело"),
        ("1 mind #2", "1 mind #2"),
        ("поменять 1 3", "swap 1 3"),
        ("заменить 2 Спокойствие", "replace 2 Спокойствие"),
        ("swap 1 3", "swap 1 3"),
        ("заменить крышу в амбаре", "заменить крышу в амбаре"),
        ("1 разум и ещё", "1 разум и ещё"),
    ],
)
def test_downtime_replies_read_in_either_language(typed: str, meant: str) -> None:
    assert downtime_reply_text(typed, RU) == meant


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("разум, мир", "mind world"),
        ("Тело персонаж", "body character"),
        ("heart world", "heart world"),
        ("разум и мир", "разум и мир"),
    ],
)
def test_the_stakes_read_in_either_language(typed: str, meant: str) -> None:
    assert stakes_text(typed, RU) == meant


def test_a_contest_names_its_sides_with_either_word() -> None:
    assert contest_text("Лекс против Кларк", RU) == "Лекс vs Кларк"
    assert contest_text("Lex vs Clark", RU) == "Lex vs Clark"


def test_english_alone_reads_the_rules_own_words_and_no_russian() -> None:
    assert detail_text("harm: Cut", ENGLISH) == "harm: Cut"
    assert detail_text("вред: Cut", ENGLISH) == "вред: Cut"
    assert all(ENGLISH.meaning(k, KEYWORDS) == k for k in KEYWORDS)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_text_without_keywords_is_left_as_typed(text: str) -> None:
    """A rewrite only ever swaps whole keywords: text with none comes back as typed."""
    words = text.replace(",", " ").split()
    if any(RU.meaning(w, KEYWORDS) for w in (*words, *text.replace("@", ":").split(":"))):
        return
    assert detail_text(text, RU) == text
    assert check_text(text, RU) == " ".join(text.replace(",", " ").split())
    assert downtime_text(text, RU) == text.strip()


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("help", "help"),
        ("Справка", "help"),
        ("помощь", "help"),
        ("off", "off"),
        ("закрыть", "off"),
        ("ВЫКЛ", "off"),
        ("отозвать", "off"),
        ("stop", "off"),
    ],
)
def test_a_command_word_reads_in_either_language(typed: str, meant: str) -> None:
    assert command_word(f" {typed} ", RU) == meant
    assert command_word(f"{typed} please", RU) is None  # only a whole argument


@pytest.mark.parametrize("typed", ["", "помоги", "2d6", "закрыть дверь"])
def test_anything_else_is_no_command_word(typed: str) -> None:
    assert command_word(typed, RU) is None
