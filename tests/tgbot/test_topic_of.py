"""Which topic an update belongs to, read from Telegram's own JSON."""

from __future__ import annotations

from typing import Any

from telegram import Bot, Update

from tgbot.updates import actor, replied, topic_of

BOT = Bot("1:x")
USER = {"id": 7, "is_bot": False, "first_name": "Ana"}
FORUM = {"id": -100555, "type": "supergroup", "title": "Guild", "is_forum": True}
OPENING = {
    "message_id": 11,
    "date": 0,
    "chat": FORUM,
    "from": USER,
    "message_thread_id": 11,
    "is_topic_message": True,
    "forum_topic_created": {"name": "Campaign A", "icon_color": 7322096},
}


def update(**payload: Any) -> Update:
    update = Update.de_json({"update_id": 1, **payload}, BOT)
    assert update is not None
    return update


def message(**fields: Any) -> dict[str, Any]:
    return {"message_id": 20, "date": 0, "chat": FORUM, "from": USER, "text": "/roll", **fields}


def test_a_message_in_a_topic_belongs_to_it_and_general_is_zero() -> None:
    in_topic = message(message_thread_id=11, is_topic_message=True, reply_to_message=OPENING)
    assert topic_of(update(message=in_topic)) == 11
    chat, _ = actor(update(message=in_topic))
    assert (chat.tg_id, chat.topic) == (-100555, 11)
    assert topic_of(update(message=message())) == 0
    # a reply thread outside forum topics is no topic
    assert topic_of(update(message=message(message_thread_id=5))) == 0


def test_a_press_belongs_to_the_topic_of_the_pressed_message() -> None:
    panel = message(message_thread_id=11, is_topic_message=True)
    query = {"id": "q", "from": USER, "chat_instance": "c", "data": "x", "message": panel}
    assert topic_of(update(callback_query=query)) == 11


def test_the_topic_opening_is_no_reply_but_a_real_reply_is() -> None:
    in_topic = update(
        message=message(message_thread_id=11, is_topic_message=True, reply_to_message=OPENING)
    )
    assert replied(in_topic.effective_message) is None
    target = {**OPENING, "message_id": 15, "text": "hi"}
    del target["forum_topic_created"]
    answer = update(
        message=message(message_thread_id=11, is_topic_message=True, reply_to_message=target)
    )
    found = replied(answer.effective_message)
    assert found is not None and found.message_id == 15
