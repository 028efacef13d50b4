"""Upgrading a database: saved rolls written when ``cs``/``cf`` counted successes are
rewritten to the same count, and every saved roll the notation now reads otherwise is
told to its owner once, with its old and new reading."""

from __future__ import annotations

import pytest
from tortoise import Tortoise, connections
from tortoise.migrations.api import migrate

from core.campaigns.saved_rolls import listed, reread_once
from core.rules import dice
from core.store.db import close_database, tortoise_config
from core.store.models import RollRecord
from core.store.models import SavedRoll as SavedRow

pytestmark = pytest.mark.db

NOW = "2026-01-02 03:04:05+00:00"
ADA = 1001
# (saved name, text as saved before, text after the upgrade, told to the owner)
ROLLS = [
    ("six", "6d6cs6", "6d6=6", True),  # Roll20 / rpg-dice-roller: cs marks criticals now
    ("pool", "10d10>=8cf1", "10d10>=8f1", True),  # Roll20: f subtracts failures
    ("hi", "3d6cs>3cf<3", "3d6>3f<3", True),
    ("big", "3d6 >= 12", "3d6 >= 12", True),  # the total's target now, not a count of 0
    ("hit", "1d20+5 vs 15", "1d20+5 vs 15", True),  # a target now, not a note
    ("boom", "5d10!k2", "5d10!k2", True),  # d20: keeps among every exploded die
    ("ne", "2d6 !=6", "2d6 !=6", True),  # "not equal" after a space, no longer "!" on 6
    ("atk", "1d20+5 adv", "1d20+5 adv", False),
    ("ones", "4d6r1kh3", "4d6r1kh3", False),
]


async def test_old_saved_rolls_are_rewritten_and_told_once(database_url: str) -> None:
    config = tortoise_config(database_url)
    await migrate(config=config, target="models.0023_saved_rolls")
    await Tortoise.init(config=config)
    values = ", ".join(
        f"({i}, {ADA}, 0, '{name}', '{name}', '{old}', '{NOW}')"
        for i, (name, old, _, _) in enumerate(ROLLS, 1)
    )
    await connections.get("default").execute_script(
        "INSERT INTO saved_roll (id, owner_tg_id, topic_id, name, name_key, text, created_at)"
        f" VALUES {values};"
        "INSERT INTO player (id, tg_id, first_name, last_name, username, started_private,"
        f" created_at, updated_at, language) VALUES"
        f" (1, {ADA}, 'Ada', '', '', false, '{NOW}', '{NOW}', 'en');"
        "INSERT INTO chat (id, tg_id, kind, title, app_token, created_at)"
        f" VALUES (1, -100123, 'supergroup', 'The Table', 'chat-token', '{NOW}');"
        "INSERT INTO roll_record (id, chat_id, player_id, notation, label, total, faces,"
        " created_at, topic_id, revealed) VALUES"
        f" (1, 1, 1, '10d10>=8cf1', '', 2, '[]', '{NOW}', 0, false),"
        f" (2, 1, 1, '4d6kh3', '', 12, '[]', '{NOW}', 0, false);"
    )
    await close_database()

    await migrate(config=config)
    await Tortoise.init(config=config)
    try:
        rows = {r.name: r for r in await SavedRow.all()}
        for name, old, new, told in ROLLS:
            assert rows[name].text == new
            assert rows[name].was_text == (old if told else "")
        history = {r.id: r.notation for r in await RollRecord.all()}
        assert history == {1: "10d10>=8f1", 2: "4d6kh3"}  # the same count, written anew
        rolls = await listed(ADA)
        first = {r.name: r for r in await reread_once(rolls)}
        assert set(first) == {name for name, *_, told in ROLLS if told}
        assert first["six"].rewritten and first["six"].before == "6d6cs6"
        assert first["big"].changes == (dice.TOTAL_TARGET,)
        assert first["hit"].changes == (dice.WORD_TARGET,)
        assert first["boom"].changes == (dice.SINGLE_KEEP,)
        assert first["ne"].changes == (dice.SPACED_NOT_EQUAL,)
        assert not first["big"].rewritten
        assert await reread_once(await listed(ADA)) == ()  # once only
    finally:
        await close_database()
