"""The reminder job's small parts: what a reminder says, and the link to a panel's message."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from core.campaigns import Reminder
from core.rules.reminders import Due, Stage
from core.store.reminders import Claimed
from tgbot.reminding import (
    group_text,
    message_link,
    open_button,
    private_text,
)

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


def test_a_game_in_a_forum_topic_is_named_with_its_topic_in_either_language() -> None:
    in_topic = replace(BO, topic_id=5, topic_name="Quest <1>", kind="d20.check")
    assert private_text(in_topic, "d20 checks").splitlines()[0] == (
        "⏳ <b>d20 checks</b> in the topic <b>Quest &lt;1&gt;</b> of <b>The Table</b>"
        " is waiting on you: your check."
    )
    assert private_text(replace(in_topic, language="ru"), "d20 checks").splitlines()[0] == (
        "⏳ Игра <b>Проверки d20</b> в теме <b>Quest &lt;1&gt;</b> чата <b>The Table</b>"
        " ждёт вас: ваша проверка."
    )
    assert private_text(replace(BO, kind="d20.check"), "d20 checks").splitlines()[0] == (
        "⏳ <b>d20 checks</b> in <b>The Table</b> is waiting on you: your check."
    )


def test_the_button_opens_the_panel_in_its_topic_or_else_the_topic() -> None:
    def url(reminder: Reminder) -> str | None:
        markup = open_button(reminder)
        return None if markup is None else markup.inline_keyboard[0][0].url

    in_topic = replace(BO, topic_id=5, topic_name="Quest")
    assert url(in_topic) == "https://t.me/c/1234567890/5/42"
    turn = replace(in_topic, kind="", panel_chat=0, message_id=0)  # only their turn
    assert url(turn) == "https://t.me/c/1234567890/5"
    label = open_button(replace(turn, language="ru"))
    assert label is not None and label.inline_keyboard[0][0].text == "👉 Открыть тему игры"
    assert url(replace(turn, topic_id=0, topic_name="")) is None  # General: nothing to open
    assert url(replace(in_topic, message_id=0)) is None  # a panel with no message yet


def test_the_group_line_mentions_the_player_escaped_in_the_games_language() -> None:
    assert group_text(BO) == (
        '⏳ <a href="tg://user?id=7">&lt;b&gt;Bo&lt;/b&gt; &amp; Co</a>, игра ждёт вас.'
    )
