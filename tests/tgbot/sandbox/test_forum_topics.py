"""Forum supergroups in the local Bot API server, as PTB's Bot sees them."""

from __future__ import annotations

import pytest
from telegram import Bot
from telegram.error import BadRequest

from tests.support.bot_api import running_fake_api
from tgbot.sandbox.fake_api import SandboxError

pytestmark = pytest.mark.e2e

FORUM = -100900
ALICE = 1001


async def test_topics_are_created_named_closed_and_refuse_posts_as_telegram_does() -> None:
    async with running_fake_api(bot_manages_topics=True) as (api, base_url, file_url):
        threads = api.add_forum(FORUM, "Guild", ["Campaign A"])
        async with Bot(api.token, base_url=base_url, base_file_url=file_url) as bot:
            chat = await bot.get_chat(FORUM)
            assert chat.is_forum
            b = await bot.create_forum_topic(FORUM, "Campaign B")
            assert b.name == "Campaign B" and b.message_thread_id > threads["Campaign A"]

            sent = await bot.send_message(FORUM, "hello B", message_thread_id=b.message_thread_id)
            assert sent.is_topic_message and sent.message_thread_id == b.message_thread_id
            general = await bot.send_message(FORUM, "hello all")
            assert not general.is_topic_message and general.message_thread_id is None
            # a reply goes to the replied message's topic
            reply = await sent.reply_text("again")
            assert reply.message_thread_id == b.message_thread_id

            with pytest.raises(BadRequest, match="thread not found"):
                await bot.send_message(FORUM, "lost", message_thread_id=999)

            assert await bot.edit_forum_topic(FORUM, b.message_thread_id, name="Campaign B2")
            assert await bot.close_forum_topic(FORUM, b.message_thread_id)
            with pytest.raises(BadRequest, match=r"(?i)topic_not_modified"):
                await bot.close_forum_topic(FORUM, b.message_thread_id)
            api.bot_manages_topics = False  # an admin without the right to manage topics
            with pytest.raises(BadRequest, match=r"(?i)topic_closed"):
                await bot.send_message(FORUM, "closed", message_thread_id=b.message_thread_id)
            with pytest.raises(BadRequest, match=r"(?i)not enough rights"):
                await bot.reopen_forum_topic(FORUM, b.message_thread_id)
            api.bot_manages_topics = True
            assert await bot.reopen_forum_topic(FORUM, b.message_thread_id)
            assert await bot.delete_forum_topic(FORUM, b.message_thread_id)
            with pytest.raises(BadRequest, match="thread not found"):
                await bot.send_message(FORUM, "gone", message_thread_id=b.message_thread_id)

        # The bot heard every topic's service message, each in its topic.
        services = [
            {k for k in u["message"] if k.startswith("forum_topic")}
            for u in api.pending_updates()
            if "message" in u and any(k.startswith("forum_topic") for k in u["message"])
        ]
        assert services == [
            {"forum_topic_created"},
            {"forum_topic_created"},
            {"forum_topic_edited"},
            {"forum_topic_closed"},
            {"forum_topic_reopened"},
        ]
        assert [t["name"] for t in api.topics(FORUM)] == ["Campaign A"]


async def test_a_player_writes_in_a_topic_but_not_in_a_closed_one() -> None:
    async with running_fake_api() as (api, _, _):
        a = api.add_forum(FORUM, "Guild", ["Campaign A"])["Campaign A"]
        message = await api.send_text(1002, FORUM, "/roll d20", thread_id=a)
        assert message["is_topic_message"] and message["message_thread_id"] == a
        assert message["reply_to_message"]["forum_topic_created"]["name"] == "Campaign A"
        await api.player_topic(ALICE, FORUM, "close", a)
        with pytest.raises(SandboxError, match="closed"):
            await api.send_text(1002, FORUM, "hi", thread_id=a)
        await api.send_text(ALICE, FORUM, "the owner still may", thread_id=a)


async def test_a_restarted_sandbox_keeps_its_forum_topics() -> None:
    async with running_fake_api() as (api, _, _):
        a = api.add_forum(FORUM, "Guild", ["Campaign A"])["Campaign A"]
        b = await api.player_topic(ALICE, FORUM, "create", name="Campaign B")
        await api.player_topic(ALICE, FORUM, "close", b)
        await api.send_text(1002, FORUM, "in A", thread_id=a)
        saved = api.persistence.saved_state()
    async with running_fake_api() as (again, _, _):
        again.add_forum(FORUM, "Guild", ["Campaign A"])  # as the sandbox does at start
        again.persistence.restore_state(saved, lambda _file: None)
        assert [(t["name"], t["is_closed"]) for t in again.topics(FORUM)] == [
            ("Campaign A", False),
            ("Campaign B", True),
        ]
        assert [m.get("text") for m in again.messages(FORUM)][-1] == "in A"
        sent = await again.send_text(1002, FORUM, "still A", thread_id=a)
        assert sent["message_thread_id"] == a and sent["message_id"] > b
