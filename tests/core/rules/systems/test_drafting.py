"""Writing a game system step by step: each answer read into its part of a definition,
checked at once by the definition's own validator, and the text the answers make."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.errors import Malformed
from core.rules.systems import definition as fmt
from core.rules.systems import drafting, odds, read_system
from core.rules.systems.drafting import Step, answer, finished, text_of


def written(*answers: tuple[Step, str]) -> dict[str, object]:
    given: dict[str, object] = {}
    for step, text in answers:
        given = answer(given, step, text)
    return given


def test_four_answers_make_a_definition_that_adds_the_dice_and_the_inputs() -> None:
    answers = written(
        (Step.NAME, "Moonfall / Лунопад"),
        (Step.DICE, "2d6"),
        (Step.INPUTS, "modifier / модификатор -3..4\nedge / преимущество 0..1"),
        (Step.BANDS, "10 Strong hit / Сильный успех\n7 Weak hit / Частичный успех\nMiss / Провал"),
    )
    definition = finished(answers)
    assert definition is not None and definition == read_system(text_of(answers))
    assert definition.key == "moonfall" and definition.name.ru == "Лунопад"
    assert [(i.key, i.low, i.high, i.default) for i in definition.inputs] == [
        ("modifier", -3, 4, 0),
        ("edge", 0, 1, 0),
    ]
    assert [(b.key, b.low, b.high) for b in definition.outcomes] == [
        ("strong_hit", 10, None),
        ("weak_hit", 7, 9),
        ("miss", None, 6),
    ]
    table = odds(definition, {"modifier": 2})  # 2d6 + 2: as Powered by the Apocalypse
    assert [round(float(row.chance), 3) for row in table.outcomes] == [0.417, 0.417, 0.167]


def test_a_draft_is_not_finished_until_every_step_is_answered() -> None:
    assert finished(written((Step.NAME, "Coin"), (Step.DICE, "1к2"))) is None
    assert Step.NAME.next() is Step.DICE and Step.BANDS.next() is None
    assert written((Step.INPUTS, "-"))["inputs"] == []


@pytest.mark.parametrize(
    ("step", "text", "message", "field"),
    [
        (Step.NAME, "Лунопад", drafting.NAME_NEEDS_LATIN, None),
        (Step.DICE, "two dice", drafting.DICE_FORM, None),
        (Step.DICE, "2d6!!!", fmt.BAD_DIE, "dice.roll.die"),
        (Step.DICE, "2d6!>=1", fmt.UNBOUNDED, "dice.roll.die"),
        (Step.INPUTS, "modifier", drafting.INPUT_FORM, None),
        (Step.INPUTS, "modifier / модификатор 5..1", fmt.RANGE_ORDER, "inputs[0]"),
        (Step.INPUTS, "max / максимум 0..3", fmt.RESERVED, "inputs[0].key"),
        (Step.BANDS, "Up / Вверх", drafting.BANDS_FEW, None),
        (Step.BANDS, "Up / Вверх\nDown / Вниз", drafting.BAND_FORM, None),
        (Step.BANDS, "5 Up / Вверх\n9 Mid / Середина\nDown / Вниз", fmt.BAND_ORDER, "outcomes[1]"),
        (Step.BANDS, "9 <b>Up</b> / Вверх\nDown / Вниз", fmt.LABEL_HTML, "outcomes[0].label.en"),
    ],
)
def test_a_bad_answer_is_refused_and_names_what_is_wrong(
    step: Step, text: str, message: str, field: str | None
) -> None:
    with pytest.raises(Malformed) as caught:
        answer({}, step, text)
    assert caught.value.message_id == message
    assert caught.value.values.get("field") == field


def test_a_step_is_answered_once() -> None:
    with pytest.raises(Malformed) as caught:
        answer(written((Step.DICE, "2d6")), Step.DICE, "3d6")
    assert caught.value.message_id == drafting.ANSWERED


@settings(max_examples=40, deadline=None)
@given(
    lows=st.lists(st.integers(-20, 40), min_size=1, max_size=6, unique=True),
    count=st.integers(1, 4),
)
def test_any_bands_best_first_read_every_sum_into_the_band_it_falls_in(
    lows: list[int], count: int
) -> None:
    lows = sorted(lows, reverse=True)
    lines = [f"{low} Band {i} / Полоса {i}" for i, low in enumerate(lows)] + ["Rest / Прочее"]
    definition = finished(
        written(
            (Step.NAME, "Bands"),
            (Step.DICE, f"{count}d6"),
            (Step.INPUTS, "-"),
            (Step.BANDS, "\n".join(lines)),
        )
    )
    assert definition is not None
    for total in range(count, 6 * count + 1):
        band = definition.outcome_of(total)
        expected = next((i for i, low in enumerate(lows) if total >= low), len(lows))
        assert band == definition.outcomes[expected]
