"""How many examples the thorough properties try.

A thorough property runs the same check as a quicker sibling beside it, over many more
and longer runs. ``make test`` tries a bounded number (still several times the
sibling's); ``make thorough`` (STONETABLE_THOROUGH=1) tries the full number. Hypothesis
keeps every failing example it finds and tries it first on the next run, and each run
draws new ones, so the runs of ``make test`` go on searching where the last ones left off.
"""

from __future__ import annotations

import os

THOROUGH = os.environ.get("STONETABLE_THOROUGH", "") == "1"


def thorough_examples(full: int, bounded: int) -> int:
    """``full`` with STONETABLE_THOROUGH=1, else ``bounded``."""
    return full if THOROUGH else bounded
