"""The /roll benchmark's bare bots really answer /roll, so the benchmark measures work."""

from __future__ import annotations

import re
from pathlib import Path

import aiohttp
import pytest

from tests.bench.bare_bots import roll_text
from tests.bench.polled_rolls import BOTS, CHATS, PolledApi, measure_one
from tests.bench.rolls import BARE, chat_of, roll_round
from tests.bench.workers import TOKEN, Load, RecordingApi
from tests.support.bot_api import serve_app
from tests.support.workers import start_worker
from tgbot.ratelimit import OVERALL

pytestmark = [pytest.mark.e2e]

TOTAL = re.compile(r"<b>Total: (\d+)</b>")


def test_a_roll_reads_its_dice_and_modifier() -> None:
    for _ in range(50):
        text = roll_text("2d6+3", "Ann & Bo")
        assert text.startswith("🎲 <b>Ann &amp; Bo</b> rolls <code>2d6+3</code>")
        found = TOTAL.search(text)
        assert found is not None and 5 <= int(found[1]) <= 15
    assert TOTAL.search(roll_text("two dice", "Ann")) is None


@pytest.mark.parametrize("kind", sorted(BARE))
async def test_a_bare_bot_answers_every_roll_through_the_bot_api(kind: str, tmp_path: Path) -> None:
    api = RecordingApi()
    async with serve_app(api.app()) as origin:
        bot = await start_worker(
            kind,
            api_base=origin,
            token=TOKEN,
            database_url="",
            redis_url=None,
            tmp=tmp_path,
            migrate=False,
            command=("-m", "tests.bench.bare_bots", kind),
        )
        try:
            load = Load(api, [bot], [])
            async with aiohttp.ClientSession() as session:
                answered, missed, _ = await roll_round(load, 3, 7, session)
        finally:
            bot.stop()
    assert (answered, missed) == (7, 0)
    for n in range(3):
        text = api.texts[chat_of(n)]
        assert "rolls <code>2d6+3</code>" in text
        found = TOTAL.search(text)
        assert found is not None and 5 <= int(found[1]) <= 15


@pytest.mark.parametrize("kind", sorted(BOTS))
async def test_each_bot_answers_every_polled_roll(kind: str, tmp_path: Path) -> None:
    """The outside measurement's bots, polling: every /roll 3d6 gets its dice back."""
    api = PolledApi()
    measured = await measure_one(kind, tmp_path, 1_000, api=api, counts=(5, 20))
    assert measured.cpu_ms > 0
    assert api.sent == 25  # one message a roll, nothing more
    if kind == "aiogram-paced":  # no faster than the worker's overall pace
        assert measured.seconds >= 19 / OVERALL[0]
    chats = {-7000 - n % CHATS for n in range(25)}
    assert set(api.texts) == chats
    for text in api.texts.values():
        assert "3d6" in text
        found = re.search(r"(\d+)</b>\s*$", text)
        assert found is not None and 3 <= int(found[1]) <= 18, text
