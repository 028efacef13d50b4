"""``python -m tgbot``: the worker runs on uvloop's event loop when it is installed."""

from __future__ import annotations

import subprocess
import sys

import uvloop

from tgbot.__main__ import _event_loop_runner


def test_the_worker_runs_on_uvloop() -> None:
    assert _event_loop_runner() is uvloop.run


def test_a_missing_uvloop_falls_back_to_asyncio() -> None:
    script = (
        "import sys; sys.modules['uvloop'] = None\n"
        "import asyncio\n"
        "from tgbot.__main__ import _event_loop_runner\n"
        "assert _event_loop_runner() is asyncio.run\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
