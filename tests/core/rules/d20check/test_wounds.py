"""Strain, wounds, bands, the strain checks add, and the character sheet."""

from __future__ import annotations

import pytest

from core.rules.d20check.check import AbilityStrength, CheckSetup
from core.rules.d20check.events import HarmChanged
from core.rules.d20check.sheet import Ability, CharacterSheet, Proficiency
from core.rules.d20check.wounds import WoundBand, add_harm, band_for, strain_from_check
from core.rules.errors import Malformed


@pytest.mark.parametrize(
    ("wounds", "band"),
    [
        (0, WoundBand.UNHURT),
        (1, WoundBand.EXHAUSTED),
        (4, WoundBand.EXHAUSTED),
        (5, WoundBand.INJURED),
        (8, WoundBand.INJURED),
        (9, WoundBand.SEVERELY_INJURED),
        (12, WoundBand.SEVERELY_INJURED),
        (13, WoundBand.DYING),
        (15, WoundBand.DYING),
        (16, WoundBand.NEAR_DEATH),
    ],
)
def test_wound_bands_by_count(wounds: int, band: WoundBand) -> None:
    assert band_for(wounds) is band


def test_band_labels_read_like_the_rulebook() -> None:
    assert WoundBand.SEVERELY_INJURED.label == "Severely Injured"
    assert WoundBand.NEAR_DEATH.label == "Near-Death Experience"


def test_exhausted_checks_add_no_strain() -> None:
    assert strain_from_check(WoundBand.EXHAUSTED, succeeded=False) == 0
    assert strain_from_check(WoundBand.UNHURT, succeeded=False) == 0


def test_injured_gains_strain_only_on_a_failed_check() -> None:
    assert strain_from_check(WoundBand.INJURED, succeeded=False) == 1
    assert strain_from_check(WoundBand.INJURED, succeeded=True) == 0


def test_severely_injured_gains_strain_on_every_check() -> None:
    assert strain_from_check(WoundBand.SEVERELY_INJURED, succeeded=True) == 1
    assert strain_from_check(WoundBand.SEVERELY_INJURED, succeeded=False) == 1


def test_dying_gains_strain_on_every_check_and_one_more_on_a_failure() -> None:
    assert strain_from_check(WoundBand.DYING, succeeded=True) == 1
    assert strain_from_check(WoundBand.DYING, succeeded=False) == 2


def test_near_death_has_no_check_strain_in_the_text() -> None:
    assert strain_from_check(WoundBand.NEAR_DEATH, succeeded=False) == 0


def test_four_strain_make_one_wound() -> None:
    assert add_harm(3, 2, more_strain=1) == add_harm(0, 3)
    harm = add_harm(2, 0, more_strain=7)
    assert (harm.strain, harm.wounds) == (1, 2)


def test_the_sixteenth_wound_is_a_near_death_experience_and_the_last_box() -> None:
    harm = add_harm(0, 15, more_wounds=3)
    assert (harm.wounds, harm.lost) == (16, 2)
    assert band_for(harm.wounds) is WoundBand.NEAR_DEATH


def test_sheet_take_harm_converts_strain_and_reports() -> None:
    sheet = CharacterSheet("Ana", strain=3, wounds=4)
    sheet2, event = sheet.take_harm(strain=2)
    assert (sheet2.strain, sheet2.wounds) == (1, 5)
    assert sheet2.band is WoundBand.INJURED
    assert event == HarmChanged(3, 4, 1, 5)


def test_sheet_refuses_strain_or_wounds_out_of_range() -> None:
    with pytest.raises(Malformed):
        CharacterSheet("Ana", strain=4)
    with pytest.raises(Malformed):
        CharacterSheet("Ana", wounds=17)
    with pytest.raises(Malformed):
        CharacterSheet("Ana").take_harm(strain=-1)


def test_long_rest_strain_clear_and_heal_on_the_sheet() -> None:
    sheet = CharacterSheet("Ana", strain=2, wounds=3)
    assert sheet.clear_strain()[0].strain == 0
    assert sheet.heal_wounds(5)[0].wounds == 0


def test_sheet_builds_a_setup_from_ability_and_proficiency() -> None:
    sheet = (
        CharacterSheet("Ana")
        .with_ability("Might", AbilityStrength.STRONG)
        .with_proficiency("Athletics", 3)
    )
    assert sheet.setup_for("might", "Athletics", advantages=1) == CheckSetup(
        AbilityStrength.STRONG, 3, 1, 0
    )


def test_sheet_missing_proficiency_adds_nothing() -> None:
    assert CharacterSheet("Ana").proficiency_bonus("Stealth") == 0


def test_sheet_unknown_ability_is_malformed() -> None:
    with pytest.raises(Malformed, match="Wit"):
        CharacterSheet("Ana").ability_strength("Wit")


def test_sheet_names_are_unique_ignoring_case() -> None:
    with pytest.raises(Malformed):
        CharacterSheet(
            "Ana",
            abilities=(
                Ability("Might", AbilityStrength.WEAK),
                Ability("MIGHT", AbilityStrength.STRONG),
            ),
        )
    sheet = CharacterSheet("Ana").with_ability("Might", AbilityStrength.WEAK)
    assert sheet.with_ability("might", AbilityStrength.STRONG).abilities == (
        Ability("might", AbilityStrength.STRONG),
    )


def test_sheet_round_trips_and_rejects_junk() -> None:
    sheet = CharacterSheet(
        "Ana",
        abilities=(Ability("Might", AbilityStrength.STRONG),),
        proficiencies=(Proficiency("Fortitude", 2),),
        strain=1,
        wounds=7,
    )
    assert CharacterSheet.from_dict(sheet.to_dict()) == sheet
    assert sheet.without_ability("might").without_proficiency("fortitude").abilities == ()
    with pytest.raises(Malformed):
        CharacterSheet.from_dict({"name": "Ana"})
