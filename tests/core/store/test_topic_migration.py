"""Upgrading a database: games that ran before forum topics run on, in General."""

from __future__ import annotations

import pytest
from tortoise import Tortoise, connections
from tortoise.exceptions import IntegrityError
from tortoise.migrations.api import migrate

from core.store.db import close_database, tortoise_config
from core.store.models import Campaign, CampaignStatus

pytestmark = pytest.mark.db

NOW = "2026-01-02 03:04:05+00:00"


async def test_existing_games_move_to_general_and_one_game_per_topic_holds(
    database_url: str,
) -> None:
    config = tortoise_config(database_url)
    await migrate(config=config, target="models.0013_panel_procedure")
    await Tortoise.init(config=config)
    connection = connections.get("default")
    await connection.execute_script(
        "INSERT INTO player (id, tg_id, first_name, last_name, username, started_private,"
        f" created_at, updated_at) VALUES (1, 1001, 'Alice', '', '', false, '{NOW}', '{NOW}');"
        "INSERT INTO chat (id, tg_id, kind, title, app_token, created_at)"
        f" VALUES (1, -100123, 'supergroup', 'The Table', 'chat-token', '{NOW}');"
        "INSERT INTO campaign (id, chat_id, live_chat_id, system, status, host_id, app_token,"
        " state, version, created_at, updated_at, language) VALUES"
        f" (501, 1, -100123, 'threat', 'active', 1, 'tok-live', '{{}}', 3, '{NOW}', '{NOW}', 'en'),"
        f" (502, 1, NULL, 'nsu', 'archived', 1, 'tok-old', '{{}}', 9, '{NOW}', '{NOW}', 'en');"
    )
    await close_database()

    await migrate(config=config)
    await Tortoise.init(config=config)
    try:
        live = await Campaign.get(id=501)
        assert (live.live_chat_id, live.topic_id, live.version) == (-100123, 0, 3)
        assert (await Campaign.get(id=502)).topic_id == 0
        # one live game per topic: a second one in General is refused by the database...
        with pytest.raises(IntegrityError):
            await Campaign.create(
                chat_id=1, live_chat_id=-100123, system="d20", host_id=1, app_token="tok-2"
            )
        # ...while another topic of the same group takes one, and so do ended games
        await Campaign.create(
            chat_id=1,
            live_chat_id=-100123,
            topic_id=7,
            system="d20",
            host_id=1,
            app_token="tok-3",
        )
        await Campaign.create(
            chat_id=1,
            live_chat_id=None,
            system="d20",
            host_id=1,
            app_token="tok-4",
            status=CampaignStatus.ARCHIVED,
        )
        assert await Campaign.filter(live_chat_id=-100123).count() == 2
    finally:
        await close_database()
