"""The marker for the words the rules hand out to be shown in the reader's language.

The rules name things in English (a step's title, a refusal, a log line) and mark
each such word with :func:`N_` so that ``make messages`` collects it into the
catalogue; whoever shows it translates it (:mod:`core.words.i18n`). The marker lives
here, below everything else, so the rules need nothing from the rest of core.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it (translated where shown)."""
    return message
