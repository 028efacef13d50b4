"""The reminder job's small parts: the link to a panel's message, and the group's pace."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from core.campaigns import Reminder
from core.rules.reminders import Due, Stage
from core.store.reminders import Claimed
from tgbot.reminding import GROUP_PER_MINUTE, Pace, group_text, message_link

SUPERGROUP = -1001234567890
DUE = Due(7, Stage.PRIVATE, datetime(2026, 11, 28, tzinfo=UTC))
BO = Reminder(
    Claimed(1, 1, DUE, "token"), 7, "<b>Bo</b> & Co", "d20check", SUPERGROUP, "The Table",
    0, False, "check", SUPERGROUP, 42, "en", "ru", supergroup=True,
)  # fmt: skip


def test_a_panel_in_a_supergroup_has_a_link_and_elsewhere_none() -> None:
    assert message_link(BO) == "https://t.me/c/1234567890/42"
    assert message_link(replace(BO, topic_id=5)) == "https://t.me/c/1234567890/5/42"
    assert message_link(replace(BO, supergroup=False, chat_tg_id=-4567, panel_chat=-4567)) is None
    assert message_link(replace(BO, panel_chat=7)) is None  # a step in private
    assert message_link(replace(BO, message_id=0)) is None  # no message yet


def test_the_group_line_mentions_the_player_escaped_in_the_games_language() -> None:
    assert group_text(BO) == (
        '⏳ <a href="tg://user?id=7">&lt;b&gt;Bo&lt;/b&gt; &amp; Co</a>, игра ждёт вас.'
    )


def test_a_group_gets_at_most_its_pace_of_lines_a_minute() -> None:
    now = [1000.0]
    pace = Pace(lambda: now[0])
    for _ in range(GROUP_PER_MINUTE):
        assert pace.room(SUPERGROUP)
        pace.took(SUPERGROUP)
    assert not pace.room(SUPERGROUP)
    assert pace.room(-1009)  # another group has its own
    now[0] += 61
    assert pace.room(SUPERGROUP)
