"""Upgrading a database: log lines kept before they had words read as they were written."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from tortoise import Tortoise, connections
from tortoise.migrations.api import migrate

from core.rules.log import words
from core.store.db import close_database, tortoise_config
from core.store.models import LogEntry
from core.views.projection import log_of
from core.words.i18n import lang_for

pytestmark = pytest.mark.db

NOW = "2026-01-02 03:04:05+00:00"
OLD = "Ana rolled: Aspect 2 = 2 against Mood 7: Ana wins by 5."


async def test_old_log_lines_stay_as_written_and_new_ones_speak_each_language(
    database_url: str,
) -> None:
    config = tortoise_config(database_url)
    await migrate(config=config, target="models.0015_player_language")
    await Tortoise.init(config=config)
    await connections.get("default").execute_script(
        "INSERT INTO player (id, tg_id, first_name, last_name, username, started_private,"
        f" created_at, updated_at, language) VALUES"
        f" (1, 1001, 'Alice', '', '', false, '{NOW}', '{NOW}', 'en');"
        "INSERT INTO chat (id, tg_id, kind, title, app_token, created_at)"
        f" VALUES (1, -100123, 'supergroup', 'The Table', 'chat-token', '{NOW}');"
        "INSERT INTO campaign (id, chat_id, live_chat_id, system, status, host_id, app_token,"
        " state, version, created_at, updated_at, language, topic_id) VALUES"
        f" (501, 1, -100123, 'nsu', 'active', 1, 'tok-live', '{{}}', 3, '{NOW}', '{NOW}', 'ru', 0);"
        "INSERT INTO log_entry (campaign_id, kind, text, player_ids, created_at) VALUES"
        f" (501, 'roll', '{OLD}', '[1001]', '{NOW}');"
    )
    await close_database()

    await migrate(config=config)
    await Tortoise.init(config=config)
    try:
        said = words("{place} was revealed.", place="The Mill")
        await LogEntry.create(
            campaign_id=501, kind="map", text=said.said(), player_ids=[], words=said.to_json()
        )
        projection: Any = SimpleNamespace(view=SimpleNamespace(id=501))
        old, new = await log_of(projection)
        ru = lang_for("ru")
        assert old.words is None and old.text_in(ru) == OLD and old.players == (1001,)
        assert new.text == "The Mill was revealed."
        assert new.text_in(ru) == "Локация «The Mill» открыта."
        assert new.text_in(lang_for("en")) == "The Mill was revealed."
    finally:
        await close_database()
