"""Keeps the sandbox's chats across restarts of ``make run``, next to the database.

Only the sandbox that ``make run`` starts keeps anything; a ``FakeBotApi`` that a
test builds stays in memory unless the test attaches a keeper itself.

Files, in the folder of the SQLite database (``data/`` by default):
    ``sandbox.json``       the chats, players, pending updates, next update id, the
                           bot's token (so the bot keeps its id), commands, menu buttons
    ``sandbox-files/``     one file per photo, named by its unique id, written once

Invariants:
    * ``sandbox.json`` is replaced atomically (temporary file, fsync, rename): a crash
      leaves the previous state or the new one, never half of one.
    * A change is written shortly after it happens (several changes, one write) and
      once more when the server stops.
    * Update ids continue past every id the bot may have handled: past the saved
      next id and past the clock in milliseconds, so a deleted state file does not
      make the bot ignore new updates as ones it handled before.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import tempfile
from pathlib import Path

from aiohttp import web

from tgbot.sandbox.fake_api import FakeBotApi, Json

log = logging.getLogger(__name__)

STATE_FILE = "sandbox.json"
FILES_DIR = "sandbox-files"
WRITE_DELAY_SECONDS = 0.3
_TOKEN = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{1,100}$")
_FILE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,100}$")


def state_path(database_url: str) -> Path | None:
    """Where the sandbox keeps its chats: beside the SQLite database file.

    None for an in-memory SQLite database or PostgreSQL: the chats then live as
    long as the process (update ids still continue past the handled ones).
    """
    if not database_url.startswith("sqlite://"):
        return None
    location = database_url.removeprefix("sqlite://").split("?", 1)[0]
    if not location or location.startswith(":memory:"):
        return None
    return Path(location).parent / STATE_FILE


def saved_token(database_url: str) -> str | None:
    """The bot token of the kept sandbox, so the bot's id survives a restart."""
    path = state_path(database_url)
    saved = None if path is None else _read_state(path)
    token = None if saved is None else saved.get("token")
    return token if isinstance(token, str) and _TOKEN.match(token) else None


def _read_state(path: Path) -> Json | None:
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        log.warning("Could not read the sandbox's saved chats (%s); starting afresh", error)
        return None
    return saved if isinstance(saved, dict) else None


def _replace(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


class SandboxKeeper:
    """Restores a ``FakeBotApi`` from its files and writes it back after changes.

    Args:
        api: the sandbox to keep.
        path: the state file (``sandbox.json``); photos go to ``sandbox-files/`` beside it.
        delay: seconds to gather changes before one write.
    """

    def __init__(self, api: FakeBotApi, path: Path, *, delay: float = WRITE_DELAY_SECONDS):
        self.api = api
        self.path = path
        self.files = path.parent / FILES_DIR
        self.delay = delay
        self._written: set[str] = set()
        self._dirty = asyncio.Event()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None

    def restore(self) -> bool:
        """Load the saved chats into the API; return whether there were any.

        A file that cannot be read is moved aside (``sandbox.json.broken``) and the
        sandbox starts with empty chats. Either way update ids continue past the clock.
        """
        self.api.continue_update_ids(int(self.api.clock() * 1000))
        try:
            saved = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return False
        except (OSError, ValueError) as error:
            return self._set_aside(error)
        try:
            self.api.persistence.restore_state(saved, self._file_data)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            return self._set_aside(error)
        self._written = {p.name for p in self.files.glob("*")} if self.files.is_dir() else set()
        return True

    def _set_aside(self, error: Exception) -> bool:
        log.warning("The sandbox's saved chats cannot be read (%r); starting afresh", error)
        with contextlib.suppress(OSError):
            os.replace(self.path, self.path.with_name(self.path.name + ".broken"))
        return False

    def _file_data(self, meta: Json) -> bytes | None:
        name = str(meta.get("file_unique_id", ""))
        if not _FILE_NAME.match(name):
            return None
        try:
            return (self.files / name).read_bytes()
        except OSError:
            return None

    def start(self) -> None:
        """Write after every change from now on (call inside the running loop)."""
        self.api.on_change = self._dirty.set
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            await self._dirty.wait()
            if not self._stopping:
                await asyncio.sleep(self.delay)
            self._dirty.clear()
            await self.write()
            if self._stopping:
                return

    async def write(self) -> None:
        """Write the state now (photos first, then the state that names them)."""
        state = self.api.persistence.saved_state()
        text = json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode()
        photos: list[tuple[str, bytes]] = []
        for meta in state["files"]:
            found = self.api.storage.saved_file(meta["file_id"])
            if found is not None and found[0] not in self._written and _FILE_NAME.match(found[0]):
                photos.append(found)
        try:
            await asyncio.to_thread(self._write_files, text, photos)
        except OSError as error:
            log.warning("Could not save the sandbox's chats: %s", error)
            return
        self._written.update(name for name, _ in photos)

    def _write_files(self, text: bytes, photos: list[tuple[str, bytes]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if photos:
            self.files.mkdir(exist_ok=True)
        for name, data in photos:
            _replace(self.files / name, data)
        _replace(self.path, text)

    async def stop(self) -> None:
        """Write what is left and stop following changes."""
        self.api.on_change = None
        self._stopping = True
        self._dirty.set()
        if self._task is not None:
            await self._task
            self._task = None


def keep_sandbox(app: web.Application, api: FakeBotApi, database_url: str) -> None:
    """Keep ``api``'s chats beside the SQLite database while ``app`` runs (if it has a file)."""
    path = state_path(database_url)
    if path is None:
        api.continue_update_ids(int(api.clock() * 1000))
        return
    keeper = SandboxKeeper(api, path)
    keeper.restore()

    async def start(_app: web.Application) -> None:
        keeper.start()

    async def stop(_app: web.Application) -> None:
        await keeper.stop()

    app.on_startup.append(start)
    app.on_cleanup.append(stop)


__all__ = ["SandboxKeeper", "keep_sandbox", "saved_token", "state_path"]
