"""A campaign log's lines as the pages tag them: by their kind, in the reader's language."""

from __future__ import annotations

from datetime import UTC, datetime

from core.rules.log import LogKind
from core.views.projection import LogLineView
from core.words.i18n import lang_for
from webapp.log_lines import KINDS, kind_label

EN, RU = lang_for("en"), lang_for("ru")
RUSSIAN = {
    LogKind.ROLL: "бросок",
    LogKind.DETAIL: "деталь",
    LogKind.MAP: "карта",
    LogKind.CLOCK: "часы",
    LogKind.UNDO: "отмена",
    LogKind.SAID: "сказано",
}


def test_every_kind_of_line_is_tagged_in_each_language() -> None:
    assert set(KINDS) == set(LogKind)
    for kind in LogKind:
        assert kind_label(kind, EN) == kind.value
        assert kind_label(kind, RU) == RUSSIAN[kind]


def test_a_stored_tag_reads_as_its_kind_and_an_unknown_one_shows_as_stored() -> None:
    assert [LogKind.read(k.value) for k in LogKind] == list(LogKind)
    assert LogKind.read("teleport") is None
    assert LogKind.read("") is None
    assert kind_label("teleport", RU) == "teleport"


def test_a_line_of_a_kind_is_stored_as_its_tag() -> None:
    at = datetime(2026, 11, 23, 14, 5, tzinfo=UTC)
    line = LogLineView(LogKind.CLOCK, "The storm clock ticked", (), at)
    assert str(line.kind) == "clock" and line.kind == "clock"
