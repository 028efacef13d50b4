"""Telegram ids are stored as signed 64-bit integers; a correctly signed Mini App launch
whose user id does not fit is refused with a clear 400, never a server error."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import aiohttp
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.campaigns import Campaigns
from core.campaigns.play import ID_OUT_OF_RANGE, ChatRef, Play, PlayerRef
from core.rules.errors import Malformed
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.runtime.locks import InProcessKeyedLock
from core.store.models import Player
from tests.support.bot_api import serve_app
from tests.support.heavy import small_heavy
from webapp.app import create_app
from webapp.auth import make_init_data, validate_init_data
from webapp.deps import WebDeps
from webapp.sheets import sheet_pages

BOT_TOKEN = "123456:id-range"
NOW = 1_800_000_000
OUTSIDE = st.one_of(st.integers(min_value=2**63), st.integers(max_value=-(2**63) - 1))


def signed_for(user_id: int, auth_date: int = NOW) -> str:
    return make_init_data(BOT_TOKEN, {"id": user_id, "first_name": "Big"}, auth_date)


@given(OUTSIDE)
def test_a_signed_user_id_outside_64_bits_is_malformed(user_id: int) -> None:
    with pytest.raises(Malformed, match="out of range"):
        validate_init_data(signed_for(user_id), BOT_TOKEN, now=NOW, max_age=60)


@given(OUTSIDE)
def test_players_and_chats_outside_64_bits_cannot_be_named(tg_id: int) -> None:
    with pytest.raises(Malformed):
        PlayerRef(tg_id, "Big")
    with pytest.raises(Malformed):
        ChatRef(tg_id, "supergroup")


@pytest.fixture
async def origin(db: str) -> AsyncIterator[str]:
    locks = InProcessKeyedLock()
    campaigns = Campaigns(default_registry(), SeededRng(1), locks)
    play = Play(SeededRng(1), locks, time.time)
    app = create_app(
        WebDeps(play, campaigns, sheet_pages(), BOT_TOKEN, 86400, time.time, heavy=small_heavy())
    )
    async with serve_app(app) as served:
        yield served


async def me(origin: str, user_id: int) -> tuple[int, dict[str, object]]:
    init = signed_for(user_id, int(time.time()) - 5)
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{origin}/api/me", headers={"Authorization": f"tma {init}"}) as response,
    ):
        return response.status, await response.json()


@pytest.mark.db
async def test_api_me_refuses_an_id_past_64_bits_and_stores_the_largest_that_fits(
    origin: str,
) -> None:
    assert await me(origin, 2**63) == (400, {"error": ID_OUT_OF_RANGE})
    assert await me(origin, -(2**63) - 1) == (400, {"error": ID_OUT_OF_RANGE})
    status, body = await me(origin, 2**63 - 1)
    assert status == 200 and body["player"] == {"id": 2**63 - 1, "name": "Big"}
    assert await Player.exists(tg_id=2**63 - 1)
    assert not await Player.filter(tg_id__gt=2**63 - 1).exists()
