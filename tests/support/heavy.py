"""A small real pool for CPU-heavy work, for tests that build the web side themselves."""

from __future__ import annotations

from core.runtime.heavy import HeavyWork, InProcessTurns, ProcessPool


def small_heavy(seconds: float = 10.0) -> HeavyWork:
    """One worker process (started on first use, stopped with ``aclose``), turns in-process."""
    return HeavyWork(ProcessPool(1, seconds), InProcessTurns())
