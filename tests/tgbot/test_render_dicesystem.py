"""How a library game's roll and odds read: the dice (dropped ones struck), the number,
the outcome in bold with its chance, the marks; every outcome's chance for /odds."""

from __future__ import annotations

import pytest

from core.rules.dicesystem import RolledPanel, game_system
from core.rules.rng import ScriptedRng
from core.rules.systems import LIBRARY, library_definition, odds, parse_args
from core.rules.table import Role, Seat, Table
from core.words.i18n import lang_for
from tgbot.render.dicesystem import odds_text, roll_text

ANA = 7


def rolled(key: str, text: str, faces: list[int]) -> RolledPanel:
    system = game_system(library_definition(key))
    seats = {ANA: Seat(ANA, "Ana", frozenset({Role.PLAYER}))}
    table = Table(1, key, system.campaign.new_state(), seats)
    model = system.panel("dice.roll").open(table, ANA, text, ScriptedRng(faces)).model
    assert isinstance(model, RolledPanel)
    return model


def test_advantage_reads_the_higher_die_and_a_natural_20_is_marked() -> None:
    roll = rolled("dnd5e", "+5 dc15 adv", [20, 4])
    text = roll_text(roll, "Ana <3", lang_for("en"), value=roll.shows_value)
    assert text == (
        "🎲 <b>Ana &lt;3</b> — d20 fantasy (5e), modifier +5, DC 15, advantage +1\n"
        "20 · 4 → 10 → <b>Success</b> (79.8%)\n✨ Natural 20"  # 10 over the DC; 1 − (9/20)²
    )


def test_a_roll_reads_in_russian_with_a_russian_chance() -> None:
    roll = rolled("pbta", "-1", [1, 2])
    text = roll_text(roll, "Иван", lang_for("ru"), value=roll.shows_value)
    assert text == (
        "🎲 <b>Иван</b> — Powered by the Apocalypse, характеристика −1\n"
        "1 + 2 − 1 = 2 → <b>Провал</b> (58,3\xa0%)"
    )


@pytest.mark.parametrize("key", LIBRARY)
@pytest.mark.parametrize("code", ["en", "ru"])
def test_odds_list_every_outcome_best_first_with_its_chance(key: str, code: str) -> None:
    definition = library_definition(key)
    result = odds(definition, parse_args(definition, definition.odds_example))
    lines = odds_text(definition, result, lang_for(code)).splitlines()
    labels = [o.label.in_language(code) for o in definition.outcomes]
    assert len(lines) == 1 + len(labels) + len(definition.marks)
    for line, label in zip(lines[1:], labels, strict=False):
        assert line.endswith(f"— <b>{label}</b>")
    assert "%" in lines[1]


def test_a_value_that_adds_the_dice_up_shows_the_sum_with_its_modifiers() -> None:
    roll = rolled("fate", "+2 vs3", [1, 2, 3, 3])  # −1, 0, +1, +1; skill +2; opposition 3
    assert roll.addends == (-1, 0, 1, 1, 2, -3)
    text = roll_text(roll, "Ana", lang_for("en"), value=roll.shows_value)
    assert (
        text.split("\n")[1] == "−1 + 0 + 1 + 1 + 2 − 3 = 0 → <b>Tie</b> (19.8%)"
    )  # 16 of the 81 ways
    plain = rolled("pbta", "0", [4, 4])  # a modifier of 0 adds nothing to the sum
    text = roll_text(plain, "Ana", lang_for("ru"), value=plain.shows_value)
    assert text.split("\n")[1] == "4 + 4 = 8 → <b>Частичный успех</b> (41,7\xa0%)"


def test_a_value_that_is_no_plain_sum_keeps_the_dice_then_the_number() -> None:
    roll = rolled("dnd5e", "+5 dc15", [12])  # the value reads the DC: no sum to show
    assert roll.addends is None
    kept = rolled("traveller", "", [3, 4])
    assert kept.addends is None  # its sum is a named value with a condition in it
