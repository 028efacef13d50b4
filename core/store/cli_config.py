"""Configuration for the ``tortoise`` migration command (makemigrations, migrate, ...).

Only the command-line tool imports this module; the application builds its
configuration from :class:`core.runtime.settings.Settings`.
"""

from __future__ import annotations

import os

from core.store.db import tortoise_config

TORTOISE_ORM = tortoise_config(
    os.environ.get("DATABASE_URL", "").strip() or "sqlite://data/stonetable.sqlite3"
)
