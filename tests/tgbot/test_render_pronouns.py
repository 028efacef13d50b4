"""Russian sentences about a character agree with the pronouns on its sheet: she, he, or
a neutral wording for anything else."""

from __future__ import annotations

import pytest

from core.rules.nsu.character_panel import CreationView
from core.rules.nsu.sheet import CharacterDraft, CreationStep
from core.rules.nsu.world import LocationCard
from core.words.i18n import lang_for
from tgbot.render.nsu import CharacterRenderer, _ready

RU, EN = lang_for("ru"), lang_for("en")
CARD = LocationCard("c1", 1, "Мост через трясину", "", "", "", "")


def view(pronouns: str, step: CreationStep, *, waiting: bool) -> CreationView:
    draft = CharacterDraft(name="Мирра", pronouns=None if waiting else pronouns)
    return CreationView(
        owner=1,
        step=step,
        draft=draft,
        missing=(),
        cards=(CARD,),
        rumour_for=CARD,
        waiting_pronouns=waiting,
        pronouns=pronouns,
    )


@pytest.mark.parametrize(
    ("pronouns", "ready", "look", "rumour"),
    [
        ("она/её", "<b>Мирра</b> готова.", "как она выглядит? Во что одета?", "она не знает"),
        ("she/her", "<b>Мирра</b> готова.", "как она выглядит? Во что одета?", "она не знает"),
        ("он", "<b>Мирра</b> готов.", "как он выглядит? Во что одет?", "он не знает"),
        ("они", "Персонаж <b>Мирра</b> готов.", "как персонаж выглядит?", "персонаж не знает"),
        (
            "they/them",
            "Персонаж <b>Мирра</b> готов.",
            "как персонаж выглядит?",
            "персонаж не знает",
        ),
    ],
)
def test_the_character_s_pronouns_choose_the_russian_forms(
    pronouns: str, ready: str, look: str, rumour: str
) -> None:
    assert _ready("Мирра", pronouns, RU).startswith(ready)
    asked = CharacterRenderer._prompt(
        CreationStep.PRONOUNS_AND_LOOK,
        view(pronouns, CreationStep.PRONOUNS_AND_LOOK, waiting=True),
        RU,
    )
    assert look in asked
    heard = CharacterRenderer._prompt(
        CreationStep.RUMOURS, view(pronouns, CreationStep.RUMOURS, waiting=False), RU
    )
    assert rumour in heard and "«<b>Мост через трясину</b>»" in heard
    assert "(а)" not in ready + asked + heard


@pytest.mark.parametrize(
    ("pronouns", "word"), [("she/her", "She"), ("он", "He"), ("xe/xem", "They")]
)
def test_english_agrees_too(pronouns: str, word: str) -> None:
    heard = CharacterRenderer._prompt(
        CreationStep.RUMOURS, view(pronouns, CreationStep.RUMOURS, waiting=False), EN
    )
    assert f"{word} don't know" in heard or f"{word} doesn't know" in heard
    assert _ready("Mirra", pronouns, EN).startswith("<b>Mirra</b> is ready.")
