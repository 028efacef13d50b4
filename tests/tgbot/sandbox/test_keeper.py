"""The sandbox's saved chats: what a restart keeps, how the file is written and read."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import aiohttp
import pytest
from PIL import Image

from tests.support.bot_api import PREFIX, serve_app
from tgbot.sandbox.fake_api import FakeBotApi, Upload
from tgbot.sandbox.keeper import SandboxKeeper, saved_token, state_path
from tgbot.sandbox.web import create_sandbox_app

GROUP = -100123
ALICE, BO, CHIDI = 1001, 1002, 1003
TOKEN = "4242:kept-token"


def png(colour: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 3), colour).save(out, format="PNG")
    return out.getvalue()


async def play(api: FakeBotApi) -> None:
    """Messages, an edit, a pin, a photo, buttons, an alert, a blocked player, commands."""
    await api.send_text(ALICE, GROUP, "/roll 2d6")
    sent = await api.call(
        "sendMessage",
        {
            "chat_id": str(GROUP),
            "text": "<b>8</b>",
            "parse_mode": "HTML",
            "reply_markup": json.dumps(
                {"inline_keyboard": [[{"text": "Again", "callback_data": "a"}]]}
            ),
        },
    )
    await api.call(
        "editMessageText",
        {
            "chat_id": str(GROUP),
            "message_id": str(sent["message_id"]),
            "text": "9",
            "reply_markup": json.dumps(
                {"inline_keyboard": [[{"text": "Again", "callback_data": "a"}]]}
            ),
        },
    )
    await api.call("pinChatMessage", {"chat_id": str(GROUP), "message_id": str(sent["message_id"])})
    await api.call(
        "sendPhoto",
        {"chat_id": str(GROUP), "photo": "attach://photo", "caption": "the map"},
        {"photo": Upload("map.png", "image/png", png("red"))},
    )
    press = await api.press_button(BO, GROUP, sent["message_id"], "a")
    await api.call("answerCallbackQuery", {"callback_query_id": press.query_id, "text": "Nope"})
    await api.call("getUpdates", {"offset": "2"})  # the bot confirmed the first update only
    await api.block_bot(CHIDI)
    await api.call(
        "setMyCommands", {"commands": json.dumps([{"command": "roll", "description": "Roll"}])}
    )


async def test_a_restarted_sandbox_has_everything_a_restart_keeps(tmp_path: Path) -> None:
    api = FakeBotApi(TOKEN)
    keeper = SandboxKeeper(api, tmp_path / "sandbox.json", delay=0.01)
    assert not keeper.restore()
    keeper.start()
    await play(api)
    await keeper.stop()
    before = api.persistence.saved_state()
    photo_id = before["files"][0]["file_id"]

    assert saved_token(f"sqlite://{tmp_path / 'stonetable.sqlite3'}") == TOKEN
    again = FakeBotApi(TOKEN)
    assert SandboxKeeper(again, tmp_path / "sandbox.json").restore()
    after = again.persistence.saved_state()
    assert after["next_update_id"] >= before["next_update_id"]
    assert {k: v for k, v in after.items() if k != "next_update_id"} == {
        k: v for k, v in before.items() if k != "next_update_id"
    }
    assert again.messages(GROUP) == api.messages(GROUP)
    assert again.snapshot(ALICE)["chats"][0]["pinned"] == 2
    assert again.file_by_id(photo_id) == (png("red"), "image/png")
    assert [u["update_id"] for u in again.pending_updates()] == [
        u["update_id"] for u in api.pending_updates()
    ]
    assert again.alerts_for(BO)[-1]["text"] == "Nope"
    assert again.player(CHIDI).blocked and not again.player(CHIDI).started
    assert again.commands() == api.commands()


async def test_update_ids_and_message_ids_continue_after_a_restart(tmp_path: Path) -> None:
    clock = [1000.0]
    api = FakeBotApi(TOKEN, clock=lambda: clock[0])
    keeper = SandboxKeeper(api, tmp_path / "sandbox.json", delay=0.01)
    keeper.restore()
    keeper.start()
    await api.send_text(ALICE, GROUP, "one")
    last = api.pending_updates()[-1]["update_id"]
    assert last >= 1_000_000  # past the clock in milliseconds
    await keeper.stop()

    clock[0] = 10.0  # even a clock that went back does not reuse ids
    again = FakeBotApi(TOKEN, clock=lambda: clock[0])
    SandboxKeeper(again, tmp_path / "sandbox.json").restore()
    await again.call("getUpdates", {"offset": str(last + 1)})
    sent = await again.send_text(ALICE, GROUP, "two")
    assert again.pending_updates()[-1]["update_id"] == last + 1
    assert sent["message_id"] == 2


async def test_changes_reach_the_file_shortly_without_a_clean_stop(tmp_path: Path) -> None:
    """A killed process loses at most the last moments: writes follow changes."""
    api = FakeBotApi(TOKEN)
    path = tmp_path / "data" / "sandbox.json"
    keeper = SandboxKeeper(api, path, delay=0.01)
    keeper.restore()
    keeper.start()
    await api.send_text(ALICE, GROUP, "before the crash")
    for _ in range(100):
        if path.exists() and "before the crash" in path.read_text():
            break
        await asyncio.sleep(0.02)
    text = path.read_text()
    assert "before the crash" in text
    assert [p.name for p in path.parent.iterdir()] == ["sandbox.json"]  # no temporary left
    await keeper.stop()


async def test_a_broken_file_is_moved_aside_and_the_sandbox_starts_afresh(
    tmp_path: Path,
) -> None:
    path = tmp_path / "sandbox.json"
    for broken in ("{not json", json.dumps({"version": 1, "players": {}})):
        path.write_text(broken)
        api = FakeBotApi(TOKEN)
        assert not SandboxKeeper(api, path).restore()
        assert api.messages(GROUP) == [] and api.pending_updates() == []
        assert not path.exists()
        assert (tmp_path / "sandbox.json.broken").read_text() == broken
    path.write_text(json.dumps({"token": "not a token"}))
    assert saved_token(f"sqlite://{tmp_path / 'db.sqlite3'}") is None


def test_only_a_sqlite_file_gets_a_saved_sandbox() -> None:
    assert state_path("sqlite://data/stonetable.sqlite3") == Path("data/sandbox.json")
    assert state_path("sqlite:///var/lib/st/db.sqlite3") == Path("/var/lib/st/sandbox.json")
    assert state_path("sqlite://:memory:") is None
    assert state_path("postgres://u:p@localhost/st") is None


async def test_a_sandbox_without_a_keeper_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    api = FakeBotApi(TOKEN)
    await play(api)
    assert list(tmp_path.iterdir()) == []


async def test_a_page_ahead_of_the_feed_is_told_to_reload() -> None:
    """After a crash lost the last changes, a page's event number is ahead: it reloads."""
    api = FakeBotApi(TOKEN)
    await api.send_text(ALICE, GROUP, "hello")
    async with (
        serve_app(create_sandbox_app(api, prefix=PREFIX)) as origin,
        aiohttp.ClientSession() as http,
        http.get(f"{origin}{PREFIX}/events", headers={"Last-Event-ID": "50"}) as response,
    ):
        lines: list[str] = []
        async with asyncio.timeout(5):
            while not any(line.startswith("data:") for line in lines):
                lines.append((await response.content.readline()).decode().strip())
        event = json.loads(next(line for line in lines if line.startswith("data:"))[5:])
        assert event == {"seq": api.mark(), "kind": "reset", "chat_id": None}
