"""Words for dice: what a chance is a chance of (``≥ 15``, «15 и больше»)."""

from __future__ import annotations

from core.words.i18n import Lang


def target_words(op: str, value: int, lang: Lang) -> str:
    """A roll's target as the reader says it after «Chance of»: ``≥ 15``, «15 и больше»."""
    if op == ">=":
        return lang.pgettext("a roll's target", "≥ {number}", number=value)
    if op == "<=":
        return lang.pgettext("a roll's target", "≤ {number}", number=value)
    if op == ">":
        return lang.pgettext("a roll's target", "> {number}", number=value)
    if op == "<":
        return lang.pgettext("a roll's target", "< {number}", number=value)
    if op == "!=":
        return lang.pgettext("a roll's target", "≠ {number}", number=value)
    return lang.pgettext("a roll's target", "= {number}", number=value)
