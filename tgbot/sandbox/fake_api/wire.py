"""What goes over the wire: the JSON the Bot API speaks, the errors it answers with,
the parameters and file parts of a request as PTB sends them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]


class ApiError(Exception):
    """A Bot API error reply: ``{"ok": false, "error_code": ..., "description": ...}``."""

    def __init__(self, code: int, description: str, parameters: Json | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def payload(self) -> Json:
        """Return the JSON body Telegram would send for this error."""
        body: Json = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(detail: str) -> ApiError:
    """Return a 400 error with Telegram's ``Bad Request:`` prefix."""
    return ApiError(400, f"Bad Request: {detail}")


class SandboxError(Exception):
    """A player action that no Telegram client would let a user do."""


@dataclass
class Upload:
    """A file part of a multipart request."""

    filename: str
    content_type: str
    data: bytes


class _Params:
    """Request parameters as PTB sends them: strings, non-strings JSON-encoded."""

    def __init__(self, raw: Mapping[str, Any], files: Mapping[str, Upload]) -> None:
        self.raw = raw
        self.files = files

    def has(self, key: str) -> bool:
        """Whether ``key`` was sent and is not null."""
        return self.raw.get(key) is not None

    def text(self, key: str, default: str | None = None) -> str | None:
        """A string parameter, as sent."""
        value = self.raw.get(key)
        if value is None:
            return default
        return value if isinstance(value, str) else json.dumps(value)

    def json(self, key: str, default: Any = None) -> Any:
        """A non-string parameter, decoded from JSON when it came as a string."""
        value = self.raw.get(key)
        if value is None:
            return default
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value

    def integer(self, key: str, default: int | None = None) -> int:
        """An integer parameter; 400 when missing or not a number."""
        value = self.json(key)
        if value is None:
            if default is not None:
                return default
            raise bad_request(f"{key} is empty")
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise bad_request(f"invalid {key} specified")
        try:
            return int(value)
        except ValueError:
            raise bad_request(f"invalid {key} specified") from None

    def boolean(self, key: str) -> bool:
        """A boolean parameter (false when missing)."""
        value = self.json(key)
        return value is True or value in ("true", "True", "1", 1)
