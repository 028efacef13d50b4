"""Updates: in order within a chat, concurrently across chats."""

from __future__ import annotations

import asyncio

from telegram import Chat, Message, Update

from tgbot.processor import PerChatUpdateProcessor, chat_key


def update(update_id: int, chat_id: int) -> Update:
    chat = Chat(chat_id, "group")
    message = Message(update_id, date=None, chat=chat)  # type: ignore[arg-type]
    return Update(update_id, message=message)


async def test_one_chat_is_handled_in_order_and_chats_run_side_by_side() -> None:
    processor = PerChatUpdateProcessor(16)
    log: list[tuple[int, str]] = []
    release = asyncio.Event()

    async def handle(u: Update, wait: bool) -> None:
        log.append((u.update_id, "start"))
        if wait:
            await release.wait()
        log.append((u.update_id, "end"))

    first, second, other = update(1, -1), update(2, -1), update(3, -2)
    tasks = [
        asyncio.create_task(processor.process_update(first, handle(first, True))),
        asyncio.create_task(processor.process_update(second, handle(second, False))),
        asyncio.create_task(processor.process_update(other, handle(other, False))),
    ]
    await asyncio.sleep(0.05)
    assert (3, "end") in log  # the other chat did not wait
    assert (2, "start") not in log  # the same chat waits for update 1
    release.set()
    await asyncio.gather(*tasks)
    assert log.index((1, "end")) < log.index((2, "start"))
    assert processor.active_chats == 0


def test_the_ordering_key_is_the_chat() -> None:
    assert chat_key(update(1, -5)) == -5
