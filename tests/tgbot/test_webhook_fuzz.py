"""Malformed updates of every shape never wedge the webhook.

Whatever body arrives with the right secret, the answer is 200: the update is
handled, or kept as a dead letter when it can never be used, and the bot still
answers the next good update. Never 5xx, which would make Telegram send the same
body again and again and hold back the updates behind it.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.store.dead_letters import fits_bigint
from core.store.models import DeadLetter
from tests.support.stack import GROUP, Stack, running_stack

pytestmark = [pytest.mark.e2e, pytest.mark.db]

SECRET = "fuzz-secret"
GOOD_IDS = itertools.count(9 * 10**15)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
KNOWN_PATHS = [
    ("update_id",),
    ("message",),
    ("message", "message_id"),
    ("message", "date"),
    ("message", "chat"),
    ("message", "chat", "id"),
    ("message", "chat", "type"),
    ("message", "from"),
    ("message", "from", "id"),
    ("message", "from", "is_bot"),
    ("message", "text"),
    ("message", "entities"),
    ("message", "entities", 0, "offset"),
    ("message", "entities", 0, "type"),
    ("message", "reply_to_message"),
    ("callback_query",),
    ("edited_message",),
    ("my_chat_member",),
]


def nested(depth: int, update_id: int | None) -> bytes:
    inner = "[" * depth + "]" * depth
    if update_id is None:
        return inner.encode()
    return f'{{"update_id": {update_id}, "message": {inner}}}'.encode()


def bodies(template: dict[str, Any]) -> st.SearchStrategy[bytes]:
    """Bodies of every shape: random JSON, a real update with a field of the wrong type,
    very deep nesting, bytes that are not UTF-8, odd update ids."""

    def with_wrong_field(path: tuple[Any, ...], value: object) -> bytes:
        update = copy.deepcopy(template)
        node: Any = update
        for key in path[:-1]:
            node = node[key] if isinstance(node, dict) or key == 0 else node
            if not isinstance(node, dict | list):
                break
        if isinstance(node, dict):
            node[path[-1]] = value
        elif isinstance(node, list) and node:
            node[0] = value
        return json.dumps(update).encode()

    return st.one_of(
        json_values.map(lambda v: json.dumps(v).encode()),
        st.builds(with_wrong_field, st.sampled_from(KNOWN_PATHS), json_values),
        st.builds(
            nested,
            st.integers(min_value=500, max_value=200_000),
            st.none() | st.integers(min_value=1, max_value=10**6),
        ),
        st.binary(max_size=200),
        st.binary(min_size=1, max_size=50).map(lambda b: b'{"update_id": 7, "x": "' + b + b'"}'),
        st.sampled_from([2**63, 2**64, -(2**63) - 1, "7", 7.5, True, None]).map(
            lambda i: json.dumps({**template, "update_id": i}).encode()
        ),
    )


def never_usable(body: bytes) -> bool:
    """Unusable whatever the handlers do: not JSON, not an object, no 64-bit update_id."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return True
    return not isinstance(data, dict) or not fits_bigint(data.get("update_id"))


@pytest.fixture
async def stack(db: str) -> AsyncIterator[Stack]:
    async with running_stack(db, webhook_secret=SECRET) as stack:
        yield stack


async def template_of(stack: Stack) -> dict[str, Any]:
    await stack.api.send_text(stack.players[0], GROUP, "/roll 1d6 probe")
    (update,) = stack.api.pending_updates()
    return update


async def post(stack: Stack, body: bytes) -> int:
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{stack.origin}/telegram/webhook",
            data=body,
            headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
        ) as response,
    ):
        return response.status


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_any_body_is_answered_200_kept_when_unusable_and_the_bot_carries_on(
    stack: Stack, data: st.DataObject
) -> None:
    pending = stack.api.pending_updates()
    template = pending[0] if pending else await template_of(stack)
    body = data.draw(bodies(template))
    before = await DeadLetter.all().count()
    assert await post(stack, body) == 200
    if never_usable(body):
        assert await DeadLetter.all().count() == before + 1
        letter = await DeadLetter.all().order_by("-id").first()
        assert letter is not None and letter.reason and letter.body is not None
    good_id = next(GOOD_IDS)
    good = copy.deepcopy(template)
    good["update_id"] = good_id
    good["message"]["text"] = f"/roll 1d6 probe {good_id}"
    assert await post(stack, json.dumps(good).encode()) == 200
    reply = await stack.api.wait_for_message(
        GROUP, lambda m: f"probe {good_id}" in m.get("text", ""), timeout=10
    )
    assert "Total" in reply["text"]


async def test_the_wrong_secret_is_still_refused(stack: Stack) -> None:
    async with aiohttp.ClientSession() as http:
        for headers in ({"X-Telegram-Bot-Api-Secret-Token": "guess"}, {}):
            async with http.post(
                f"{stack.origin}/telegram/webhook", data=b"not json", headers=headers
            ) as response:
                assert response.status == 403
    assert await DeadLetter.all().count() == 0


async def test_an_oversized_body_is_a_dead_letter_not_an_error(stack: Stack) -> None:
    body = b'{"update_id": 5, "pad": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    assert await post(stack, body) == 200
    (letter,) = await DeadLetter.all()
    assert letter.reason == "a body over 2 MiB" and letter.update_id == 5
    assert letter.body.startswith('{"update_id": 5, "pad": "xxx')  # its start, cut at 64 KiB
    assert len(letter.body) == 64 * 1024
