"""A Mini App change carries an idempotency key: a retry with the same key gets the
first answer and changes nothing; bad bodies and tokens get 4xx, membership first.

Through the real routes of the web app over the test database (both backends).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.campaigns.play import ChatRef, PlayerRef
from core.store.db import close_database, open_database
from core.store.housekeeping import KEEP_REQUEST_KEYS, tidy
from core.store.models import Member, RequestKey
from tests.support.mini_app import Web, served_game

pytestmark = [pytest.mark.db]

BOT_TOKEN = "123456:request-keys"
GROUP = ChatRef(-100654, "supergroup", "The Table")
GM = PlayerRef(601, "Gwen")
BO = PlayerRef(602, "Bo")
STRANGER = PlayerRef(603, "Sam")
GAIN = {"action": "momentum.gain", "payload": {}}


@pytest.fixture
async def web(db: str) -> AsyncIterator[Web]:
    game = served_game(
        "threat", bot_token=BOT_TOKEN, group=GROUP, gm=GM, member=BO, strangers=[STRANGER]
    )
    async with game as served:
        yield served


async def momentum() -> int:
    return int((await Member.get(player__tg_id=BO.tg_id, active=True)).sheet["momentum"])


async def test_a_retry_with_the_same_key_gets_the_first_answer_and_changes_nothing(
    web: Web,
) -> None:
    assert await momentum() == 2
    first = await web.post("edit", GAIN, key="action-0001")
    assert first[0] == 200 and first[1]["ok"] is True
    assert await momentum() == 3
    again = await web.post("edit", GAIN, key="action-0001")
    assert again[0] == 200 and again[1] == first[1]  # the first answer, as it was
    assert again[2]["Idempotent-Replayed"] == "true"
    assert await momentum() == 3  # applied once
    other = await web.post("edit", GAIN, key="action-0002")  # a new press: a new key
    assert other[0] == 200 and "Idempotent-Replayed" not in other[2]
    assert await momentum() == 4
    assert await RequestKey.filter(user_tg_id=BO.tg_id).count() == 2


async def test_two_tries_of_one_action_at_once_apply_it_once(web: Web) -> None:
    answers = await asyncio.gather(*(web.post("edit", GAIN, key="twice-0001") for _ in range(4)))
    assert [a[0] for a in answers] == [200] * 4
    assert all(a[1]["ok"] is True for a in answers)
    assert sum(a[2].get("Idempotent-Replayed") == "true" for a in answers) == 3
    assert await momentum() == 3


async def test_a_saved_change_whose_answer_was_never_kept_replays_as_done(web: Web) -> None:
    """The worker died between the commit and keeping the answer: the retry hears "done"."""
    body = json.dumps(GAIN).encode()
    fingerprint = hashlib.sha256(b"POST /api/c/%s/edit\n%s" % (web.token.encode(), body))
    await RequestKey.create(
        user_tg_id=BO.tg_id,
        idem_key="saved-0001",
        fingerprint=fingerprint.hexdigest(),
        created_at=datetime.now(UTC),
    )
    status, answer, headers = await web.post("edit", raw=body, key="saved-0001")
    assert (status, answer) == (200, {"ok": True, "done": "Done. Your change was saved."})
    assert headers["Idempotent-Replayed"] == "true"
    assert await momentum() == 2  # nothing ran again


async def test_the_same_key_with_another_body_is_refused_clearly(web: Web) -> None:
    await web.post("edit", GAIN, key="action-0003")
    status, body, _ = await web.post(
        "edit", {"action": "momentum.lose", "payload": {}}, key="action-0003"
    )
    assert status == 422 and "already sent" in body["error"]
    assert await momentum() == 3


async def test_keys_are_per_user(web: Web) -> None:
    await web.post("edit", GAIN, key="shared-key-1")
    status, _, headers = await web.post("edit", GAIN, key="shared-key-1", who=GM)
    assert status == 200 and "Idempotent-Replayed" not in headers  # the GM's own action


async def test_a_page_without_keys_works_as_before(web: Web) -> None:
    assert (await web.post("edit", GAIN))[0] == 200
    assert (await web.post("edit", GAIN))[0] == 200
    assert await momentum() == 4  # no key, no replay: two presses, two gains
    assert await RequestKey.all().count() == 0


@pytest.mark.parametrize("key", ["short", "x" * 101, "has space!", "ключ-ключ-ключ"])
async def test_a_malformed_key_is_a_bad_request(web: Web, key: str) -> None:
    headers = web.auth()
    headers["Idempotency-Key"] = key.encode().decode("latin-1")
    async with web.http.post(
        f"{web.origin}/api/c/{web.token}/edit", json=GAIN, headers=headers
    ) as response:
        assert response.status == 400
    assert await momentum() == 2


async def test_a_refused_change_keeps_no_key(web: Web) -> None:
    status, _, _ = await web.post("edit", {"action": "harm.heal", "payload": {}}, key="heal-0001")
    assert status == 403  # Bo is not the GM
    assert await RequestKey.all().count() == 0  # a retry is judged afresh


async def test_undo_is_keyed_too(web: Web) -> None:
    await web.post("edit", GAIN, key="gain-00001")
    steps = await _undo_step()
    first = await web.post("undo", {"version": steps}, key="undo-00001")
    assert first[0] == 200, first
    assert await momentum() == 2
    again = await web.post("undo", {"version": steps}, key="undo-00001")
    assert again[0] == 200 and again[1] == first[1] and again[2]["Idempotent-Replayed"] == "true"
    assert await momentum() == 2


async def _undo_step() -> int:
    from core.store.models import UndoStep

    row = await UndoStep.filter(actor_tg_id=BO.tg_id).order_by("-id").first()
    assert row is not None
    return int(row.id)


def _deep(depth: int) -> bytes:
    return b'{"action": "notes", "payload": ' + b"[" * depth + b"]" * depth + b"}"


@pytest.mark.parametrize("route", ["edit", "undo"])
async def test_a_deeply_nested_body_is_a_bad_request(web: Web, route: str) -> None:
    status, body, _ = await web.post(route, raw=_deep(100_000))
    assert status == 400 and body["error"]
    status, _, _ = await web.post(route, raw=_deep(100_000), key="deep-00001")
    assert status == 400
    assert await momentum() == 2


@pytest.mark.parametrize("route", ["edit", "undo", "rolls/1/detail", "cards/x/picture"])
async def test_a_non_member_is_refused_before_the_body_is_read(web: Web, route: str) -> None:
    status, body, _ = await web.post(route, raw=b"{not json at all", who=STRANGER)
    assert status == 403 and "not in this game" in body["error"]
    status, _, _ = await web.post(route, raw=_deep(100_000), who=STRANGER, key="strange-01")
    assert status == 403


# (a path, its status: a NUL no store keeps is bad input; any other non-token, not found)
NOT_TOKENS = [("/api/c/%00", 400), ("/api/c/%00/edit", 400), ("/app/c/a%00b", 400),
              ("/api/c/a'b", 404)]  # fmt: skip


@pytest.mark.parametrize(("path", "status"), NOT_TOKENS)
async def test_a_token_that_cannot_be_one_is_answered_without_the_database(
    web: Web, db: str, path: str, status: int
) -> None:
    await close_database()
    try:
        if path.endswith("/edit"):
            call = web.http.post(f"{web.origin}{path}", json=GAIN, headers=web.auth())
        else:
            call = web.http.get(f"{web.origin}{path}", headers=web.auth())
        async with call as response:
            assert response.status == status
    finally:
        await open_database(db)


@pytest.mark.parametrize("start", ["%00", "a%00b", "x" * 64, "'--"])
async def test_a_start_parameter_that_cannot_be_a_game_opens_the_home_page(
    web: Web, start: str
) -> None:
    async with web.http.get(f"{web.origin}/app/home?startapp={start}", headers=web.auth()) as r:
        assert r.status == 200


async def test_old_keys_go_with_housekeeping(web: Web) -> None:
    await web.post("edit", GAIN, key="old-key-01")
    now = datetime.now(UTC)
    await tidy(now + KEEP_REQUEST_KEYS - timedelta(minutes=1))
    assert await RequestKey.all().count() == 1  # within the day: kept
    await tidy(now + KEEP_REQUEST_KEYS + timedelta(minutes=1))
    assert await RequestKey.all().count() == 0


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
ACTIONS = st.sampled_from(
    [
        *("momentum.gain", "momentum.set", "momentum.lose", "approach.set", "approach.remove"),
        *("notes", "harm.take", "harm.heal", "harm.instead", "nope", ""),
    ]
)
BODIES = st.one_of(
    st.binary(max_size=40),
    JSON.map(lambda v: json.dumps(v).encode()),
    st.builds(
        lambda a, p: json.dumps({"action": a, "payload": p}).encode(),
        ACTIONS | st.text(max_size=50),
        JSON,
    ),
    st.builds(
        lambda a, p: json.dumps({"action": a, "payload": p}).encode(),
        ACTIONS,
        st.dictionaries(st.sampled_from(["player", "value", "approach", "text", "name"]), JSON),
    ),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=BODIES, keyed=st.booleans())
async def test_no_body_makes_the_edit_route_fail_on_the_server(
    web: Web, body: bytes, keyed: bool
) -> None:
    key = f"fuzz-{time.monotonic_ns()}" if keyed else None
    headers = web.auth()
    if key is not None:
        headers["Idempotency-Key"] = key
    async with web.http.post(
        f"{web.origin}/api/c/{web.token}/edit", data=body, headers=headers
    ) as response:
        assert response.status < 500, (body, await response.text())


def _edit_names() -> list[str]:
    from core.rules.cortex.campaign import SHEET_EDITS as CORTEX_SHEET
    from core.rules.cortex.campaign import WATCHTOWER_EDITS
    from core.rules.d20check.table import EDITS as D20
    from core.rules.nsu.edits_play import EDITS as NSU_PLAY
    from core.rules.nsu.edits_setup import EDITS as NSU_SETUP

    return sorted({*CORTEX_SHEET, *WATCHTOWER_EDITS, *D20, *NSU_PLAY, *NSU_SETUP})


PAYLOAD_KEYS = st.sampled_from(
    [
        "body",
        "builds_on",
        "card_id",
        "character",
        "die",
        "filled",
        "heart",
        "id",
        "index",
        "kind",
        "locked",
        "look",
        "mind",
        "name",
        "notes",
        "owner_id",
        "player",
        "pronouns",
        "question",
        "resource",
        "rumours",
        "segments",
        "sentiments",
        "skills",
        "strength",
        "tools",
        "box",
        "collateral_target",
        "danger_type",
        "description",
        "effect",
        "text",
        "title",
        "treasure_type",
        "type",
        "types",
        "value",
        "bonus",
        "strain",
        "wounds",
    ]
)
EDIT_BODIES = st.builds(
    lambda a, p: json.dumps({"action": a, "payload": p}).encode(),
    st.sampled_from(_edit_names()),
    st.dictionaries(PAYLOAD_KEYS, JSON | st.sampled_from([BO.tg_id, GM.tg_id, 0, -1])),
)


@pytest.fixture(params=["nsu", "d20", "cortex"])
async def any_game(request: pytest.FixtureRequest, db: str) -> AsyncIterator[Web]:
    async with served_game(
        request.param, bot_token=BOT_TOKEN, group=GROUP, gm=GM, member=BO
    ) as served:
        yield served


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=EDIT_BODIES, gm=st.booleans())
async def test_no_edit_of_any_game_fails_on_the_server(
    any_game: Web, body: bytes, gm: bool
) -> None:
    headers = any_game.auth(GM if gm else BO)
    headers["Idempotency-Key"] = f"fuzz-{time.monotonic_ns()}"
    async with any_game.http.post(
        f"{any_game.origin}/api/c/{any_game.token}/edit", data=body, headers=headers
    ) as response:
        assert response.status < 500, (body, await response.text())
