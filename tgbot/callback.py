"""Callback data: typed, versioned and within Telegram's 64 bytes.

Formats (the leading tag carries the format version):
- ``p1:<panel>:<version>:<action>[:<argument>]`` — a button on a panel;
- ``g1:<verb>[:<argument>]`` — a button outside panels (e.g. choosing a system).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.rules.errors import Malformed

MAX_BYTES = 64
_WORD = re.compile(r"^[a-z0-9_.-]{1,24}$")
_ARG = re.compile(r"^[A-Za-z0-9_.+-]{0,40}$")
OUTDATED = "That button is out of date. Use the latest message."


@dataclass(frozen=True)
class PanelButton:
    panel_id: int
    version: int
    action: str
    argument: str = ""

    def encode(self) -> str:
        if not _WORD.match(self.action) or not _ARG.match(self.argument):
            raise ValueError(f"bad button {self!r}")
        data = f"p1:{self.panel_id}:{self.version}:{self.action}"
        data += f":{self.argument}" if self.argument else ""
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data too long: {data!r}")
        return data


@dataclass(frozen=True)
class GeneralButton:
    verb: str
    argument: str = ""

    def encode(self) -> str:
        if not _WORD.match(self.verb) or not _ARG.match(self.argument):
            raise ValueError(f"bad button {self!r}")
        data = f"g1:{self.verb}" + (f":{self.argument}" if self.argument else "")
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data too long: {data!r}")
        return data


def decode(data: str | None) -> PanelButton | GeneralButton:
    """Parse callback data from Telegram.

    Raises:
        Malformed: not data this bot made (old format, garbage, forged).
    """
    if not data or len(data.encode()) > MAX_BYTES:
        raise Malformed(OUTDATED)
    parts = data.split(":")
    try:
        if parts[0] == "p1" and len(parts) in (4, 5):
            panel_id, version = int(parts[1]), int(parts[2])
            argument = parts[4] if len(parts) == 5 else ""
            if panel_id < 1 or version < 0 or not _WORD.match(parts[3]) or not _ARG.match(argument):
                raise ValueError
            return PanelButton(panel_id, version, parts[3], argument)
        if parts[0] == "g1" and len(parts) in (2, 3):
            argument = parts[2] if len(parts) == 3 else ""
            if not _WORD.match(parts[1]) or not _ARG.match(argument):
                raise ValueError
            return GeneralButton(parts[1], argument)
    except ValueError:
        pass
    raise Malformed(OUTDATED)
