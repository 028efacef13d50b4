"""Quiet hours on the Mini App's preferences page, over HTTP: kept with the device's
time zone, shown back, refused when the hours or the zone can't be read (nothing kept),
in English and Russian."""

from __future__ import annotations

import secrets
from typing import Any

import aiohttp
import pytest

from core.store import reminders
from tests.support.stack import (
    OLGA,
    Stack,
    cast_with_olga,
    mini_app_get,
    mini_app_headers,
    running_stack,
)

pytestmark = [pytest.mark.e2e, pytest.mark.db]

BO = 1002


@pytest.fixture
async def stack(db: str) -> Any:
    async with running_stack(db, players=cast_with_olga()) as running:
        yield running


async def post_quiet(stack: Stack, user: int, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    headers = {**mini_app_headers(stack, user), "Idempotency-Key": secrets.token_hex(8)}
    async with (
        aiohttp.ClientSession() as http,
        http.post(stack.origin + "/api/quiet", json=body, headers=headers) as response,
    ):
        return response.status, await response.json()


async def test_quiet_hours_are_kept_with_the_device_zone_and_shown_back(stack: Stack) -> None:
    status, page = await mini_app_get(stack, BO, "/app/prefs")
    assert status == 200 and "Quiet hours" in page
    assert "No quiet hours: reminders come at any time." in page
    status, answer = await post_quiet(
        stack, BO, {"from": "22:30", "to": "07:00", "zone": "Asia/Tokyo"}
    )
    assert status == 200, answer
    assert answer["done"] == "Quiet hours saved: no reminders from 22:30 to 07:00 (Asia/Tokyo)."
    assert await reminders.quiet_hours_as_set(BO) == ("22:30", "07:00", "Asia/Tokyo")
    _, page = await mini_app_get(stack, BO, "/app/prefs")
    assert "No reminders from 22:30 to 07:00 (Asia/Tokyo)." in page
    assert 'value="22:30"' in page and 'value="07:00"' in page
    status, answer = await post_quiet(stack, BO, {"from": "23:00", "to": "06:00", "zone": "+03:00"})
    assert status == 200 and await reminders.quiet_hours_as_set(BO) == ("23:00", "06:00", "+03:00")
    for bad in (
        {"from": "25:00", "to": "07:00", "zone": "Asia/Tokyo"},
        {"from": "soon", "to": "07:00", "zone": "Asia/Tokyo"},
        {"from": "22:00", "to": "07:00", "zone": "Mars/Olympus_Mons"},
        {"from": "22:00", "to": "07:00", "zone": "+25:00"},
        {"from": 22, "to": "07:00", "zone": "UTC"},
    ):
        status, answer = await post_quiet(stack, BO, bad)
        assert status == 400 and answer["error"], (bad, answer)
    assert await reminders.quiet_hours_as_set(BO) == ("23:00", "06:00", "+03:00")  # unchanged
    status, answer = await post_quiet(stack, BO, {"off": True})
    assert status == 200 and answer["quiet"] is None
    assert await reminders.quiet_hours_as_set(BO) is None


async def test_quiet_hours_in_russian(stack: Stack) -> None:
    _, page = await mini_app_get(stack, OLGA, "/app/prefs")
    assert "Тихие часы" in page and "Тихих часов нет" in page
    status, answer = await post_quiet(
        stack, OLGA, {"from": "22:00", "to": "07:00", "zone": "Mars/Olympus_Mons"}
    )
    assert status == 400 and "часовой пояс" in answer["error"].lower(), answer
    status, answer = await post_quiet(
        stack, OLGA, {"from": "22:00", "to": "07:00", "zone": "Europe/Moscow"}
    )
    assert status == 200
    assert (
        answer["done"] == "Тихие часы сохранены: без напоминаний с 22:00 до 07:00 (Europe/Moscow)."
    )
