"""initData: valid, forged, stale, malformed."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlencode

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webapp.auth import InitDataInvalid, make_init_data, validate_init_data

TOKEN = "123456:TEST-token_abc"
USER = {"id": 42, "first_name": "Ana", "last_name": "<b>Sky</b>", "username": "ana"}
NOW = 1_800_000_000


def signed(**kwargs: object) -> str:
    return make_init_data(TOKEN, USER, NOW - 10, start_param="tok", chat_type="group",
                          chat_instance="99", **kwargs)  # type: ignore[arg-type]


def test_valid_init_data_names_the_user_and_the_start_parameter() -> None:
    data = validate_init_data(signed(), TOKEN, now=NOW, max_age=3600)
    assert (data.user.id, data.user.display_name) == (42, "Ana <b>Sky</b>")
    assert (data.start_param, data.chat_type) == ("tok", "group")


@pytest.mark.parametrize("reason", ["missing", "bad signature", "expired", "from the future"])
def test_bad_init_data_is_refused(reason: str) -> None:
    init = {
        "missing": "",
        "bad signature": make_init_data("999:other", USER, NOW),
        "expired": make_init_data(TOKEN, USER, NOW - 7200),
        "from the future": make_init_data(TOKEN, USER, NOW + 3600),
    }[reason]
    with pytest.raises(InitDataInvalid) as caught:
        validate_init_data(init, TOKEN, now=NOW, max_age=3600)
    assert caught.value.reason == reason


def test_a_changed_field_breaks_the_signature() -> None:
    fields = dict(parse_qsl(signed()))
    fields["user"] = json.dumps({**USER, "id": 43})
    with pytest.raises(InitDataInvalid, match="bad signature"):
        validate_init_data(urlencode(fields), TOKEN, now=NOW, max_age=3600)


@given(st.text(max_size=300))
def test_arbitrary_text_is_refused_without_crashing(text: str) -> None:
    with pytest.raises(InitDataInvalid):
        validate_init_data(text, TOKEN, now=NOW, max_age=3600)


def test_initdata_checked_once_is_still_aged_and_tied_to_its_bot_on_every_request() -> None:
    init = signed()
    for _ in range(2):  # the second check finds the signature already verified
        assert validate_init_data(init, TOKEN, now=NOW, max_age=3600).user.id == 42
    with pytest.raises(InitDataInvalid, match="expired"):
        validate_init_data(init, TOKEN, now=NOW + 3600, max_age=3600)
    with pytest.raises(InitDataInvalid, match="from the future"):
        validate_init_data(init, TOKEN, now=NOW - 3600, max_age=3600)
    with pytest.raises(InitDataInvalid, match="bad signature"):
        validate_init_data(init, "999:other", now=NOW, max_age=3600)
    forged = make_init_data("999:other", USER, NOW)
    for _ in range(2):  # a refusal is never remembered as a success
        with pytest.raises(InitDataInvalid, match="bad signature"):
            validate_init_data(forged, TOKEN, now=NOW, max_age=3600)
