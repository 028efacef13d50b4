"""Use cases against a real database (SQLite, or PostgreSQL in the second run)."""

from __future__ import annotations

import asyncio
import time

import pytest

from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.errors import Malformed
from core.rules.rng import SeededRng
from core.runtime.locks import InProcessKeyedLock
from core.store.models import Chat, Player, RollRecord
from core.store.unit import UnitOfWork

pytestmark = pytest.mark.db

GROUP = ChatRef(-100123, "supergroup", "The <Table>")
ANA = PlayerRef(42, "Ana", "Sky", "ana")


def make_play() -> Play:
    return Play(SeededRng(1), InProcessKeyedLock(), time.time)


async def test_a_roll_is_kept_with_its_chat_and_player(db: str) -> None:
    result = await make_play().roll(GROUP, ANA, "4d6kh3 sneak")
    record = await RollRecord.get().prefetch_related("chat", "player")
    assert (record.notation, record.label, record.total) == ("4d6kh3", "sneak", result.total)
    assert record.chat.title == "The <Table>" and record.player.first_name == "Ana"
    assert len(record.faces[0]) == 4


async def test_a_later_roll_refreshes_a_renamed_chat_and_player(db: str) -> None:
    play = make_play()
    await play.roll(GROUP, ANA, "d6")
    await play.roll(GROUP, ANA, "d8")  # unchanged rows: nothing rewritten
    await play.roll(
        ChatRef(GROUP.tg_id, "supergroup", "New name"),
        PlayerRef(ANA.tg_id, "Anna", "", "anna", "ru-RU"),
        "2d6+1",
    )
    chat, player = await Chat.get(), await Player.get()
    assert chat.title == "New name"
    assert (player.first_name, player.last_name, player.username, player.language) == (
        "Anna",
        "",
        "anna",
        "ru",
    )
    records = await RollRecord.filter(chat=chat, player=player).order_by("id")
    assert len(records) == 3 and 3 <= records[2].total <= 13
    assert all(r.created_at.utcoffset() is not None for r in records)
    assert records[0].created_at <= records[-1].created_at


async def test_malformed_notation_stores_nothing(db: str) -> None:
    with pytest.raises(Malformed):
        await make_play().roll(GROUP, ANA, "banana")
    assert await RollRecord.all().count() == 0
    assert await Player.all().count() == 0


async def test_simultaneous_first_rolls_create_one_player_and_one_chat(db: str) -> None:
    play = make_play()
    await asyncio.gather(*(play.roll(GROUP, ANA, "d6") for _ in range(8)))
    assert await Player.all().count() == 1
    assert await Chat.all().count() == 1
    assert await RollRecord.all().count() == 8


async def test_the_chat_token_is_stable_and_unguessable(db: str) -> None:
    play = make_play()
    first = await play.chat_app_token(GROUP)
    assert first == await play.chat_app_token(GROUP)
    assert len(first) >= 20
    other = await play.chat_app_token(ChatRef(-100999, "group", "Other"))
    assert other != first


async def test_home_shows_own_rolls_and_the_chat_only_to_its_players(db: str) -> None:
    play = make_play()
    await play.roll(GROUP, ANA, "2d6")
    token = await play.chat_app_token(GROUP)
    home = await play.home(ANA, token)
    assert home.chat_title == "The <Table>"
    assert [r.notation for r in home.recent_rolls] == ["2d6"]
    stranger = await play.home(PlayerRef(7, "Eve"), token)
    assert stranger.chat_title == "" and stranger.recent_rolls == ()


async def test_health_reports_a_working_database(db: str) -> None:
    assert await make_play().health()


async def test_a_redelivered_update_changes_nothing(db: str) -> None:
    from core.runtime.errors import AlreadyHandled

    play = make_play()
    await play.roll(GROUP, ANA, "d6", unit=UnitOfWork(555))
    with pytest.raises(AlreadyHandled):
        await play.roll(GROUP, ANA, "d6", unit=UnitOfWork(555))
    with pytest.raises(Malformed):
        await play.roll(GROUP, ANA, "nonsense", unit=UnitOfWork(556))  # refused before any claim
    await play.roll(GROUP, ANA, "d8", unit=UnitOfWork(556))  # 556 was never claimed, so it counts
    await play.roll(GROUP, ANA, "d8")  # the Mini App and operators claim no update
    assert await RollRecord.all().count() == 3
