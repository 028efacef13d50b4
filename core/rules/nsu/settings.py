"""Campaign settings for the NSU rulings that are a table's preference.

Every field defaults to the project's ruling (numbers from the rules README).
Settings are a frozen value stored with a campaign and passed into the rules;
nothing here is read from the environment.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from core.rules.nsu.codec import from_plain, to_plain


@dataclass(frozen=True)
class NsuSettings:
    """Table preferences. Defaults follow the project's rulings.

    Attributes:
        sentiment_moves_on_tie: ruling 6. A risked sentiment moves towards Lost
            on a tie as well as on a loss.
        sentiment_moves_on_row_one: ruling 6. A risked sentiment moves when the
            result is row 1 (an ally adds a negative detail), even on a win.
        suggest_collateral_ticks: ruling 8. A World-at-risk roll proposes one
            Collateral Clock tick per detail it grants.
    """

    sentiment_moves_on_tie: bool = True
    sentiment_moves_on_row_one: bool = True
    suggest_collateral_ticks: bool = True

    def to_dict(self) -> dict[str, object]:
        plain: dict[str, object] = to_plain(self)
        return plain

    @classmethod
    def from_dict(cls, data: object) -> NsuSettings:
        return from_plain(cls, data)


@dataclass(frozen=True)
class SettingHelp:
    """One line of help for a setting: key, default, ruling number, what it does."""

    key: str
    default: bool
    ruling: int
    summary: str


_SUMMARIES: dict[str, tuple[int, str]] = {
    "sentiment_moves_on_tie": (6, "A risked sentiment also slips on a tie."),
    "sentiment_moves_on_row_one": (
        6,
        "A risked sentiment slips when a result of 1 lets an ally add a negative detail.",
    ),
    "suggest_collateral_ticks": (
        8,
        "World-at-risk rolls suggest one Collateral Clock tick per detail they grant.",
    ),
}


def settings_help() -> tuple[SettingHelp, ...]:
    """Help lines for every setting, with its default."""
    defaults = NsuSettings()
    return tuple(
        SettingHelp(f.name, getattr(defaults, f.name), *_SUMMARIES[f.name])
        for f in fields(NsuSettings)
    )
