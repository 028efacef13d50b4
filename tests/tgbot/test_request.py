"""Bot API calls over aiohttp: forms, uploads, errors, timeouts, the pool and shutdown."""

from __future__ import annotations

import asyncio
import struct
import time
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from aiohttp import web
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from tests.support.bot_api import free_port, running_fake_api, serve_app
from tgbot.request import AiohttpRequest

GROUP = -100123
TOKEN = "123456:request-test"


def png(width: int, height: int) -> bytes:
    """A valid grey PNG of the given size."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


@asynccontextmanager
async def bot_on(base_url: str, base_file_url: str, request: AiohttpRequest) -> AsyncIterator[Bot]:
    bot = Bot(
        TOKEN,
        base_url=base_url,
        base_file_url=base_file_url,
        request=request,
        get_updates_request=AiohttpRequest(connection_pool_size=1),
    )
    async with bot:
        yield bot


def slow_api(delay: float, calls: list[float]) -> web.Application:
    """Answers every call after ``delay`` seconds (getMe with a bot)."""

    async def call(request: web.Request) -> web.Response:
        calls.append(time.monotonic())
        await asyncio.sleep(delay)
        me = {"id": 1, "is_bot": True, "first_name": "Slow", "username": "slow_bot"}
        return web.json_response({"ok": True, "result": me})

    app = web.Application()
    app.router.add_post("/bot{token}/{method}", call)
    return app


async def test_calls_with_form_fields_and_file_uploads_arrive_intact(tmp_path: Path) -> None:
    async with (
        running_fake_api(token=TOKEN) as (api, base_url, file_url),
        bot_on(base_url, file_url, AiohttpRequest()) as bot,
    ):
        assert bot.username == "stonetable_bot"
        sent = await bot.send_message(
            GROUP, "Dés &amp; <b>dragons</b> ✓", parse_mode=ParseMode.HTML
        )
        assert sent.text == "Dés & dragons ✓"
        assert api.last_message(GROUP)["text"] == "Dés & dragons ✓"  # type: ignore[index]
        buttons = InlineKeyboardMarkup(
            [[InlineKeyboardButton('🎲 Roll "now"', callback_data="p1:4:2:roll:")]]
        )
        with_buttons = await bot.send_message(GROUP, "Ready?", reply_markup=buttons)
        assert with_buttons.reply_markup == buttons
        shown = api.last_message(GROUP)
        assert shown is not None and shown["reply_markup"] == buttons.to_dict()

        picture = png(3, 2)
        photo = await bot.send_photo(GROUP, picture, caption="The map — north")
        assert photo.caption == "The map — north"
        file_id = photo.photo[-1].file_id
        stored = api.file_by_id(file_id)
        assert stored is not None and stored[0] == picture  # raw bytes: no name, no known type
        downloaded = await (await bot.get_file(file_id)).download_as_bytearray()
        assert bytes(downloaded) == picture

        path = tmp_path / "map.png"
        path.write_bytes(png(5, 4))
        with path.open("rb") as handle:
            from_disk = await bot.send_photo(GROUP, handle)
        assert api.file_by_id(from_disk.photo[-1].file_id) == (path.read_bytes(), "image/png")


async def test_bot_api_errors_keep_their_meaning() -> None:
    async with (
        running_fake_api(token=TOKEN, group_rate_limit=1) as (api, base_url, file_url),
        bot_on(base_url, file_url, AiohttpRequest()) as bot,
    ):
        with pytest.raises(BadRequest, match=r"(?i)chat not found"):
            await bot.send_message(-999, "nobody here")
        with pytest.raises(BadRequest, match=r"(?i)not found"):
            await bot.edit_message_text("new", chat_id=GROUP, message_id=424242)
        await bot.send_message(GROUP, "first")
        with pytest.raises(RetryAfter, match=r"Retry in \d+"):
            await bot.send_message(GROUP, "second")
        api.player(1001).blocked = True
        with pytest.raises(Forbidden):
            await bot.send_message(1001, "hello")
        assert [m["text"] for m in api.messages(GROUP)] == ["first"]


async def test_a_slow_answer_times_out() -> None:
    calls: list[float] = []
    async with serve_app(slow_api(1.0, calls)) as origin:
        request = AiohttpRequest(read_timeout=0.2)
        await request.initialize()
        try:
            started = time.monotonic()
            with pytest.raises(TimedOut):
                await request.post(f"{origin}/bot{TOKEN}/getMe")
            assert time.monotonic() - started < 0.9
            # a call's own timeout wins over the default
            answer = await request.post(f"{origin}/bot{TOKEN}/getMe", read_timeout=3)
            assert answer["username"] == "slow_bot"  # type: ignore[call-overload]
        finally:
            await request.shutdown()
    assert len(calls) == 2


async def test_an_unreachable_server_is_a_network_error() -> None:
    request = AiohttpRequest(connect_timeout=2)
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as caught:
            await request.post(f"http://127.0.0.1:{free_port()}/bot{TOKEN}/getMe")
        assert not isinstance(caught.value, TimedOut)
        assert "aiohttp.Client" in caught.value.message
    finally:
        await request.shutdown()


async def test_a_full_pool_times_out_without_sending() -> None:
    calls: list[float] = []
    async with serve_app(slow_api(0.5, calls)) as origin:
        request = AiohttpRequest(connection_pool_size=1, pool_timeout=0.1)
        await request.initialize()
        try:
            url = f"{origin}/bot{TOKEN}/getMe"
            results = await asyncio.gather(
                request.post(url), request.post(url), return_exceptions=True
            )
            refused = [r for r in results if isinstance(r, TimedOut)]
            assert len(refused) == 1 and "Pool timeout" in refused[0].message
            assert len(calls) == 1  # the refused one was never sent
            # with a longer pool wait both get through, one after the other
            both = await asyncio.gather(request.post(url), request.post(url, pool_timeout=2))
            assert len(both) == 2 and len(calls) == 3
        finally:
            await request.shutdown()


async def test_shutdown_closes_the_session_and_initialize_opens_a_new_one() -> None:
    calls: list[float] = []
    async with serve_app(slow_api(0, calls)) as origin:
        url = f"{origin}/bot{TOKEN}/getMe"
        request = AiohttpRequest()
        with pytest.raises(NetworkError, match="not initialized"):
            await request.post(url)
        await request.initialize()
        await request.post(url)
        await request.shutdown()
        await request.shutdown()  # twice is harmless
        with pytest.raises(NetworkError, match="not initialized"):
            await request.post(url)
        await request.initialize()
        await request.post(url)
        await request.shutdown()
    assert len(calls) == 2


def test_the_pool_needs_a_connection() -> None:
    with pytest.raises(ValueError, match="connection_pool_size"):
        AiohttpRequest(connection_pool_size=0)
