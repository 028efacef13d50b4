"""Characters' portraits in the Mini App: who may add, replace, remove and see one, the
refusals of a bad picture, and the sheet showing it (d20: the Game Master changes the
players' sheets; threat: only each player their own)."""

from __future__ import annotations

import struct
import time
import zlib
from typing import Any

import aiohttp
import pytest

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, PlayerRef
from core.store.models import Campaign, CampaignStatus, Portrait
from tests.support.stack import GROUP, Stack, running_stack
from webapp.auth import make_init_data

pytestmark = [pytest.mark.db, pytest.mark.e2e]

ALICE, BO, CHIDI, ZOE = 1001, 1002, 1003, 1004  # Alice hosts: the Game Master
TABLE = ChatRef(GROUP, "supergroup", "The Table")


def png(width: int = 2, height: int = 3, shade: int = 0) -> bytes:
    """A small real PNG (grey pixels of ``shade``)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + bytes([shade]) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 32


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db) as running:
        yield running


def ref(stack: Stack, user: int) -> PlayerRef:
    p = stack.api.players[user]
    return PlayerRef(p.id, p.first_name, p.last_name, p.username)


async def game(stack: Stack, system: str) -> str:
    """A game of ``system`` hosted by Alice (its Game Master), Bo and Chidi joined."""
    assert stack.runtime.application is not None
    deps = stack.runtime.application.deps
    use: Campaigns = deps.campaigns
    view = await use.new_game(TABLE, ref(stack, ALICE), system)
    for user in (BO, CHIDI):
        await deps.play.mark_started(ref(stack, user))
        await use.join(TABLE, ref(stack, user))
    return view.app_token


def headers(stack: Stack, who: int | str, language: str = "") -> dict[str, str]:
    if who == "missing":
        return {}
    token = "1:forged" if who == "forged" else stack.api.token
    user = stack.api.players[who if isinstance(who, int) else BO].user_dict()
    age = 3 * 86400 if who == "expired" else 5  # a launch days old, or a fresh one
    own = {"Authorization": "tma " + make_init_data(token, user, int(time.time()) - age)}
    if language:
        own["X-Stonetable-Language"] = language
    return own


async def call(
    stack: Stack, method: str, path: str, who: int | str, language: str = "", **kwargs: Any
) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as http,
        http.request(
            method, stack.origin + path, headers=headers(stack, who, language), **kwargs
        ) as response,
    ):
        if response.content_type == "application/json":
            return response.status, await response.json()
        return response.status, await response.read()


async def stored() -> dict[int, bytes]:
    return {p.player_tg_id: bytes(p.data) for p in await Portrait.all()}


async def test_a_player_adds_replaces_and_removes_their_portrait(stack: Stack) -> None:
    token = await game(stack, "d20")
    path = f"/api/c/{token}/portraits/{BO}"
    status, body = await call(stack, "POST", path, BO, data=png())
    assert status == 200 and body["ok"]
    # every member sees it; nobody else
    for who, expected in ((BO, 200), (CHIDI, 200), (ALICE, 200), (ZOE, 403)):
        status, picture = await call(stack, "GET", path, who)
        assert status == expected
        assert (picture == png()) == (expected == 200)
    for who in ("forged", "missing", "expired"):
        status, _ = await call(stack, "GET", path, who)
        assert status == 401
    # the sheet shows it, with the controls to its player only
    status, page = await call(stack, "GET", f"/app/c/{token}", BO)
    html = page.decode()
    assert status == 200 and "Portraits" in html
    assert f'data-src="/api/c/{token}/portraits/{BO}?v=' in html
    assert f'data-portrait="/api/c/{token}/portraits/{BO}"' in html
    assert f'data-portrait="/api/c/{token}/portraits/{CHIDI}"' not in html
    assert "Replace the portrait" in html and "Remove the portrait" in html
    # replaced: the page changes with it (its cache follows the portrait)
    status, _ = await call(stack, "POST", path, BO, data=JPEG)
    assert status == 200 and await stored() == {BO: JPEG}
    status, again = await call(stack, "GET", f"/app/c/{token}", BO)
    assert again != page
    status, picture = await call(stack, "GET", path, CHIDI)
    assert picture == JPEG
    # removed
    status, body = await call(stack, "DELETE", path, BO)
    assert status == 200 and body["removed"] is True
    assert await stored() == {}
    status, body = await call(stack, "GET", path, CHIDI)
    assert status == 404 and body["error"] == "There is no such portrait."
    status, page = await call(stack, "GET", f"/app/c/{token}", BO)
    assert "Add a portrait" in page.decode() and "data-src" not in page.decode()


async def test_only_the_player_or_a_game_master_who_edits_sheets_changes_it(
    stack: Stack,
) -> None:
    d20 = await game(stack, "d20")
    status, body = await call(stack, "POST", f"/api/c/{d20}/portraits/{BO}", CHIDI, data=png())
    assert status == 403
    assert body["error"] == "Only the character's player can change their portrait."
    status, _ = await call(stack, "DELETE", f"/api/c/{d20}/portraits/{BO}", CHIDI)
    assert status == 403
    status, _ = await call(stack, "POST", f"/api/c/{d20}/portraits/{BO}", ZOE, data=png())
    assert status == 403
    for who in ("forged", "missing", "expired"):
        status, _ = await call(stack, "POST", f"/api/c/{d20}/portraits/{BO}", who, data=png())
        assert status == 401
    assert await stored() == {}
    # d20's Game Master edits every sheet: the portraits too
    status, _ = await call(stack, "POST", f"/api/c/{d20}/portraits/{BO}", ALICE, data=png())
    assert status == 200 and await stored() == {BO: png()}
    status, page = await call(stack, "GET", f"/app/c/{d20}", ALICE)
    assert f'data-portrait="/api/c/{d20}/portraits/{CHIDI}"' in page.decode()
    # nobody is seated as that player
    status, body = await call(stack, "POST", f"/api/c/{d20}/portraits/{ZOE}", ALICE, data=png())
    assert status == 403 and body["error"] == "That player is not in this game."
    # an ended game keeps its portraits as they are
    await Campaign.all().update(status=CampaignStatus.ARCHIVED)
    status, body = await call(stack, "DELETE", f"/api/c/{d20}/portraits/{BO}", BO)
    assert status == 403
    assert body["error"] == "This game has ended: its portraits stay as they are."
    assert await stored() == {BO: png()}


async def test_a_threat_game_master_does_not_change_a_players_portrait(stack: Stack) -> None:
    token = await game(stack, "threat")
    status, body = await call(stack, "POST", f"/api/c/{token}/portraits/{BO}", ALICE, data=png())
    assert status == 403 and "Only the character's player" in body["error"]
    status, _ = await call(stack, "POST", f"/api/c/{token}/portraits/{ALICE}", ALICE, data=png())
    assert status == 200 and await stored() == {ALICE: png()}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"GIF89a" + b"\x00" * 20, "Pictures must be PNG or JPEG."),
        (b"<svg onload=alert(1)>", "Pictures must be PNG or JPEG."),
        (b"", "That picture is empty."),
        (png() + b"\x00" * 600_000, "Pictures can be at most 512 KB."),
    ],
)
async def test_a_bad_picture_is_refused_kindly_and_changes_nothing(
    stack: Stack, body: bytes, message: str
) -> None:
    token = await game(stack, "d20")
    path = f"/api/c/{token}/portraits/{BO}"
    assert (await call(stack, "POST", path, BO, data=JPEG))[0] == 200
    status, answer = await call(stack, "POST", path, BO, data=body)
    assert status == 400 and answer["error"] == message
    assert await stored() == {BO: JPEG}


async def test_refusals_in_russian(stack: Stack) -> None:
    token = await game(stack, "d20")
    path = f"/api/c/{token}/portraits/{BO}"
    status, answer = await call(stack, "POST", path, BO, "ru", data=b"GIF89a")
    assert status == 400 and answer["error"] == "Картинки — только PNG или JPEG."
    status, answer = await call(stack, "POST", path, CHIDI, "ru", data=png())
    assert status == 403 and answer["error"].startswith("Портрет персонажа")
    status, page = await call(stack, "GET", f"/app/c/{token}", BO, "ru")
    assert "Портреты" in page.decode() and "Добавить портрет" in page.decode()


async def test_the_same_upload_sent_twice_applies_once(stack: Stack) -> None:
    token = await game(stack, "d20")
    path = f"/api/c/{token}/portraits/{BO}"
    keyed = {"headers": {**headers(stack, BO), "Idempotency-Key": "portrait-key-1"}}
    async with aiohttp.ClientSession() as http:
        for _ in range(2):
            async with http.post(stack.origin + path, data=png(), **keyed) as response:
                assert response.status == 200
        async with http.post(stack.origin + path, data=JPEG, **keyed) as response:
            assert response.status == 422  # the same key with another picture
    assert await stored() == {BO: png()}
