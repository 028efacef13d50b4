"""A worker as ``python -m tgbot run`` starts it, given a fault test's pause points.

``python -m tests.support.pausing_worker``: the same composition root (:func:`tgbot.main.serve`)
with :class:`FilePauses` as its hooks. The worker stops at the point named by
``STONETABLE_PAUSE_AT`` (or, read at each point, in the file ``STONETABLE_PAUSE_CONTROL``
names), writes ``STONETABLE_PAUSE_FILE`` and waits there, to be killed.

``STONETABLE_CLOCK_FILE``: the seconds the test moved the clock on, read at each look at
the clock (:class:`FileClock`; every worker of a test reads the same file);
``STONETABLE_REMIND_EVERY``: how often the worker sends the due reminders (seconds).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import time

from core.runtime.settings import SettingsError, load_settings
from core.store.unit import Hooks


class FilePauses(Hooks):
    """Stops a change at the point a test chose (see the module); a no-op otherwise."""

    def __init__(self, at: str = "", marker: str = "", control: str = "") -> None:
        self.at = at
        self.marker = marker
        self.control = control

    def chosen(self) -> str:
        """The point to stop at: the one given, or the one the control file names now."""
        if not self.control:
            return self.at
        try:  # the point the test chose for the next update
            with open(self.control, encoding="utf-8") as control:
                return control.read().strip()
        except FileNotFoundError:
            return ""

    async def pause(self, name: str) -> None:
        if not (self.at or self.control) or name != self.chosen():
            return
        if self.marker:
            with open(self.marker, "w", encoding="utf-8") as marker:
                marker.write(name)
        await asyncio.sleep(3600)


class FileClock:
    """The time, moved on by the seconds a file holds (none: the time itself)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __call__(self) -> float:
        try:
            with open(self.path, encoding="utf-8") as kept:
                offset = float(kept.read() or 0)
        except (FileNotFoundError, ValueError):  # not yet moved, or being written
            offset = 0.0
        return time.time() + offset


async def _run() -> None:
    from tgbot.main import serve
    from tgbot.reminding import REMIND_SECONDS

    settings = load_settings(os.environ)
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    hooks = FilePauses(
        os.environ.get("STONETABLE_PAUSE_AT", ""),
        os.environ.get("STONETABLE_PAUSE_FILE", ""),
        os.environ.get("STONETABLE_PAUSE_CONTROL", ""),
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    clock = os.environ.get("STONETABLE_CLOCK_FILE", "")
    await serve(
        settings,
        stop,
        hooks=hooks,
        clock=FileClock(clock) if clock else time.time,
        remind_every=float(os.environ.get("STONETABLE_REMIND_EVERY") or REMIND_SECONDS),
    )


if __name__ == "__main__":
    try:
        asyncio.run(_run())
    except SettingsError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        sys.exit(2)
