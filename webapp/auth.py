"""Telegram Mini App ``initData``: checking and (for the sandbox and tests) signing.

The check follows Telegram's scheme: ``secret = HMAC_SHA256(key="WebAppData",
msg=bot_token)``; the expected hash is ``hex(HMAC_SHA256(secret, data_check_string))``
where the data-check string is every field except ``hash``, sorted by key, as
``key=value`` joined by newlines. Hashes are compared in constant time and
``auth_date`` must be fresh.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import parse_qsl, urlencode

from core.campaigns.play import check_id
from core.rules.text import cleaned

MAX_INIT_DATA_LENGTH = 8192


class InitDataInvalid(Exception):
    """initData is missing, malformed, forged or too old."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class WebAppUser:
    id: int
    first_name: str
    last_name: str = ""
    username: str = ""
    language_code: str = ""

    @property
    def display_name(self) -> str:
        return " ".join(part for part in (self.first_name, self.last_name) if part) or "player"


@dataclass(frozen=True)
class WebAppInitData:
    user: WebAppUser
    auth_date: int
    start_param: str = ""
    chat_type: str = ""
    chat_instance: str = ""


def _secret(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def _data_check_string(fields: Mapping[str, str]) -> str:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def sign_init_data(bot_token: str, fields: Mapping[str, str]) -> str:
    """Return a query string with a valid ``hash`` for ``fields`` (sandbox and tests)."""
    payload = {k: v for k, v in fields.items() if k != "hash"}
    digest = hmac.new(
        _secret(bot_token), _data_check_string(payload).encode(), hashlib.sha256
    ).hexdigest()
    return urlencode({**payload, "hash": digest})


def make_init_data(
    bot_token: str,
    user: Mapping[str, object],
    auth_date: int,
    *,
    start_param: str = "",
    chat_type: str = "",
    chat_instance: str = "",
    query_id: str = "",
) -> str:
    """Build signed initData the way Telegram does for a user opening the app."""
    fields = {
        "user": json.dumps(dict(user), separators=(",", ":"), ensure_ascii=False),
        "auth_date": str(auth_date),
    }
    if query_id:
        fields["query_id"] = query_id
    if start_param:
        fields["start_param"] = start_param
    if chat_type:
        fields["chat_type"] = chat_type
    if chat_instance:
        fields["chat_instance"] = chat_instance
    return sign_init_data(bot_token, fields)


def validate_init_data(
    init_data: str | None, bot_token: str, *, now: float, max_age: float
) -> WebAppInitData:
    """Check ``init_data`` and return who sent it.

    Raises:
        InitDataInvalid: missing, malformed, wrongly signed, from the future or older
            than ``max_age`` seconds.
    """
    if not init_data:
        raise InitDataInvalid("missing")
    if len(init_data) > MAX_INIT_DATA_LENGTH:
        raise InitDataInvalid("too long")
    init = _signed(init_data, bot_token)
    if init.auth_date > now + 60:
        raise InitDataInvalid("from the future")
    if now - init.auth_date > max_age:
        raise InitDataInvalid("expired")
    return init


def _check_signature(fields: dict[str, str], bot_token: str) -> None:
    """The ``hash`` field is the HMAC of the other fields under the bot's key."""
    received = fields.get("hash", "")
    expected = hmac.new(
        _secret(bot_token), _data_check_string(fields).encode(), hashlib.sha256
    ).hexdigest()
    if not hmac.compare_digest(received.encode(), expected.encode()):
        raise InitDataInvalid("bad signature")


@lru_cache(maxsize=2048)
def _signed(init_data: str, bot_token: str) -> WebAppInitData:
    """The fields of correctly signed ``init_data`` (only these are remembered: a client
    sends the same initData with every request; its age is checked on each).

    Raises:
        InitDataInvalid: malformed or wrongly signed.
        Malformed: correctly signed, but the user id does not fit a 64-bit integer.
    """
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise InitDataInvalid("malformed") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise InitDataInvalid("duplicate field")
    _check_signature(fields, bot_token)
    try:
        auth_date = int(fields["auth_date"])
        raw_user = json.loads(fields["user"])
        user = WebAppUser(
            id=int(raw_user["id"]),
            # names as Telegram tells them, cleaned of what no store keeps (no one retypes them)
            first_name=cleaned(str(raw_user.get("first_name", ""))),
            last_name=cleaned(str(raw_user.get("last_name", ""))),
            username=cleaned(str(raw_user.get("username", ""))),
            language_code=str(raw_user.get("language_code", "")),
        )
    except (KeyError, ValueError, TypeError):
        raise InitDataInvalid("malformed") from None
    check_id(user.id)  # signed, but larger than any Telegram id: a clear 400, not a crash
    return WebAppInitData(
        user=user,
        auth_date=auth_date,
        start_param=fields.get("start_param", ""),
        chat_type=fields.get("chat_type", ""),
        chat_instance=fields.get("chat_instance", ""),
    )
