"""Stand-ins for a panel view in renderer tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def read_as(state: Any) -> Callable[[type], Any]:
    """A ``PanelView.typed`` for a stand-in view: the state read as the asked type,
    as the panel's rules read it (every typed panel state has ``from_dict``)."""

    def typed(kind: type) -> Any:
        return kind.from_dict(state)  # type: ignore[attr-defined]

    return typed
