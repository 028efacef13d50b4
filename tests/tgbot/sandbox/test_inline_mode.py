"""The local Bot API server's inline mode, as Telegram's: queries, answers, the chosen
result posted "via @bot", and edits by ``inline_message_id``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tgbot.sandbox.fake_api import ApiError, FakeBotApi, Json, SandboxError
from tgbot.sandbox.fake_api.wire import Upload

GROUP = -100123
ALICE, BO = 1001, 1002


def article(result_id: str = "a", text: str = "🎲 <b>Ada</b> rolls…", **more: Any) -> Json:
    return {
        "type": "article",
        "id": result_id,
        "title": "2d6",
        "input_message_content": {"message_text": text, "parse_mode": "HTML"},
        "reply_markup": {
            "inline_keyboard": [[{"text": "again", "switch_inline_query_current_chat": "2d6"}]]
        },
        **more,
    }


async def answer(api: FakeBotApi, query_id: str, results: list[Json], **more: Any) -> Any:
    return await api.call(
        "answerInlineQuery",
        {"inline_query_id": query_id, "results": json.dumps(results), **more},
    )


async def refused(api: FakeBotApi, results: Any, **more: Any) -> str:
    ask = await api.inline_query(ALICE, "2d6", GROUP)
    with pytest.raises(ApiError) as caught:
        await api.call(
            "answerInlineQuery",
            {"inline_query_id": ask.query_id, "results": json.dumps(results), **more},
        )
    return caught.value.description


async def test_get_me_tells_whether_inline_mode_is_on() -> None:
    assert (await FakeBotApi().call("getMe", {}))["supports_inline_queries"] is True
    off = FakeBotApi(inline_mode=False)
    assert (await off.call("getMe", {}))["supports_inline_queries"] is False
    with pytest.raises(SandboxError, match="setinline"):
        await off.inline_query(ALICE, "2d6")


async def test_a_query_reaches_the_bot_with_its_chat_type() -> None:
    api = FakeBotApi()
    in_group = await api.inline_query(ALICE, "2d6+3", GROUP)
    in_private = await api.inline_query(ALICE, "d20", ALICE)
    elsewhere = await api.inline_query(BO, "x" * 300)
    queries = [u["inline_query"] for u in api.pending_updates()]
    assert [q["chat_type"] for q in queries] == ["supergroup", "sender", "private"]
    assert queries[0]["query"] == "2d6+3" and queries[0]["from"]["id"] == ALICE
    assert len(queries[2]["query"]) == 256  # what a client sends at most
    assert {in_group.query_id, in_private.query_id, elsewhere.query_id} == {
        q["id"] for q in queries
    }
    assert await answer(api, in_group.query_id, [article()], cache_time=0) is True
    answered = await in_group.answered()
    assert answered["results"][0]["id"] == "a" and answered["is_personal"] is False


@pytest.mark.parametrize(
    ("results", "more", "error"),
    [
        ("nope", {}, "can't parse inline query results JSON object"),
        ([article(str(i)) for i in range(51)], {}, "RESULTS_TOO_MUCH"),
        ([article("x" * 65)], {}, "RESULT_ID_INVALID"),
        ([article("")], {}, "RESULT_ID_INVALID"),
        ([article("a"), article("a")], {}, "RESULT_ID_DUPLICATE"),
        ([{**article(), "type": "poll"}], {}, "RESULT_TYPE_INVALID"),
        ([{**article(), "title": " "}], {}, "RESULT_TITLE_EMPTY"),
        ([article(text=" ")], {}, "MESSAGE_EMPTY"),
        ([article(text="<b>open")], {}, "can't parse entities"),
        ([article(text="x" * 4097)], {}, "message is too long"),
        ([article(reply_markup={"inline_keyboard": [[{"text": "x"}]]})], {}, "Text buttons"),
        ([article()], {"next_offset": "n" * 65}, "NEXT_OFFSET_INVALID"),
        ([article()], {"button": json.dumps({"text": "Help", "start_parameter": "a b"})},
         "START_PARAM_INVALID"),
        ([article()], {"button": json.dumps({"text": "", "start_parameter": "help"})},
         "BUTTON_TEXT_INVALID"),
    ],
)  # fmt: skip
async def test_answers_are_checked_as_telegram_checks_them(
    results: Any, more: dict[str, Any], error: str
) -> None:
    assert error in await refused(FakeBotApi(), results, **more)


async def test_a_query_is_answered_once_and_only_while_fresh() -> None:
    api = FakeBotApi()
    ask = await api.inline_query(ALICE, "2d6")
    button = json.dumps({"text": "How to roll", "start_parameter": "dice"})
    assert await answer(api, ask.query_id, [article()], button=button)
    assert (await ask.answered())["button"]["start_parameter"] == "dice"
    for query_id in (ask.query_id, "12345"):
        with pytest.raises(ApiError, match="query is too old"):
            await answer(api, query_id, [article()])


async def test_telegram_caches_answers_per_player_when_personal() -> None:
    api = FakeBotApi()
    first = await api.inline_query(ALICE, "2d6")
    await answer(api, first.query_id, [article()], cache_time=30, is_personal=True)
    again = await api.inline_query(ALICE, "2d6")
    assert again.update is None and (await again.answered())["results"][0]["id"] == "a"
    other = await api.inline_query(BO, "2d6")
    assert other.update is not None  # another player's query reaches the bot
    await answer(api, other.query_id, [article("b")], cache_time=30)
    shared = await api.inline_query(ALICE, "2d6", GROUP)
    assert shared.update is None  # her own cached answer still comes first
    third = await FakeBotApi().inline_query(BO, "2d6")
    assert third.update is not None
    uncached = FakeBotApi()
    ask = await uncached.inline_query(ALICE, "d4")
    await answer(uncached, ask.query_id, [article()], cache_time=0)
    assert (await uncached.inline_query(ALICE, "d4")).update is not None


async def test_the_chosen_result_is_posted_via_the_bot_and_edited_by_its_inline_id() -> None:
    api = FakeBotApi()
    ask = await api.inline_query(ALICE, "2d6", GROUP)
    await answer(api, ask.query_id, [article(), article("plain", reply_markup=None)])
    posted = await api.choose_inline_result(ALICE, ask.query_id, "a", GROUP)
    assert posted["from"]["id"] == ALICE and posted["via_bot"]["id"] == api.bot_id
    assert posted["text"] == "🎲 Ada rolls…" and posted["entities"][0]["type"] == "bold"
    chosen = api.pending_updates()[-1]["chosen_inline_result"]
    assert chosen["result_id"] == "a" and chosen["query"] == "2d6"
    inline_id = chosen["inline_message_id"]
    edit = {"inline_message_id": inline_id, "text": "🎲 Ada rolls: <b>7</b>", "parse_mode": "HTML"}
    assert await api.call("editMessageText", edit) is True
    shown = api.messages(GROUP)[-1]
    assert shown["text"] == "🎲 Ada rolls: 7" and "reply_markup" not in shown
    with pytest.raises(ApiError, match="message is not modified"):
        await api.call("editMessageText", edit)
    markup = {"inline_keyboard": [[{"text": "again", "switch_inline_query_current_chat": "d6"}]]}
    done = {"inline_message_id": inline_id, "reply_markup": json.dumps(markup)}
    assert await api.call("editMessageReplyMarkup", done) is True
    assert api.messages(GROUP)[-1]["reply_markup"] == markup
    for forged in ("nope", inline_id[:-2] + "AA"):
        with pytest.raises(ApiError, match="MESSAGE_ID_INVALID"):
            await api.call("editMessageText", {**edit, "inline_message_id": forged})
    with pytest.raises(ApiError, match="message can't be edited"):  # it is Alice's message
        await api.call("editMessageText", {"chat_id": GROUP, "message_id": posted["message_id"],
                                           "text": "x"})  # fmt: skip
    await api.choose_inline_result(ALICE, ask.query_id, "plain", GROUP)
    assert "inline_message_id" not in api.pending_updates()[-1]["chosen_inline_result"]
    with pytest.raises(SandboxError):
        await api.choose_inline_result(BO, ask.query_id, "a", GROUP)  # not Bo's query


async def test_without_inline_feedback_the_bot_hears_nothing_of_the_choice() -> None:
    api = FakeBotApi(inline_feedback=False, bot_is_admin=False)
    ask = await api.inline_query(ALICE, "2d6", GROUP)
    await answer(api, ask.query_id, [article()])
    before = len(api.pending_updates())
    await api.choose_inline_result(ALICE, ask.query_id, "a", GROUP)
    assert len(api.pending_updates()) == before
    assert api.messages(GROUP)[-1]["via_bot"]["username"] == api.username


async def test_a_button_under_an_inline_message_names_the_message_not_its_chat() -> None:
    api = FakeBotApi()
    ask = await api.inline_query(ALICE, "2d6", GROUP)
    keyboard = {"inline_keyboard": [[{"text": "Reveal", "callback_data": "reveal"}]]}
    await answer(api, ask.query_id, [article(reply_markup=keyboard)])
    posted = await api.choose_inline_result(ALICE, ask.query_id, "a", GROUP)
    chosen = api.pending_updates()[-1]["chosen_inline_result"]
    press = await api.press_button(BO, GROUP, posted["message_id"], "reveal")
    callback = press.update["callback_query"]
    assert "message" not in callback
    assert callback["inline_message_id"] == chosen["inline_message_id"]
    assert await api.call("answerCallbackQuery", {"callback_query_id": press.query_id})


async def test_a_chosen_result_goes_to_the_forum_topic_it_was_typed_in() -> None:
    api = FakeBotApi()
    topics = api.add_forum(-100777, "Forum", ["Campaign A"])
    ask = await api.inline_query(BO, "2d6", -100777)
    await answer(api, ask.query_id, [article()])
    posted = await api.choose_inline_result(
        BO, ask.query_id, "a", -100777, thread_id=topics["Campaign A"]
    )
    assert posted["message_thread_id"] == topics["Campaign A"] and posted["is_topic_message"]
    inline_id = api.pending_updates()[-1]["chosen_inline_result"]["inline_message_id"]
    edit = {"inline_message_id": inline_id, "text": "7"}
    assert await api.call("editMessageText", edit) is True
    edited = api.messages(-100777)[-1]
    assert edited["text"] == "7" and edited["message_thread_id"] == topics["Campaign A"]


def photo(file_id: str, caption: str = "💬 <b>Mirra</b> speaks…", **more: Any) -> Json:
    """An InlineQueryResultCachedPhoto (a picture the bot sent before)."""
    return {
        "type": "photo",
        "id": "p",
        "photo_file_id": file_id,
        "caption": caption,
        "parse_mode": "HTML",
        "reply_markup": {
            "inline_keyboard": [[{"text": "more", "switch_inline_query_current_chat": ""}]]
        },
        **more,
    }


async def sent_photo(api: FakeBotApi) -> str:
    """The id Telegram gives a picture the bot sends (a tiny PNG header is enough)."""
    png = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + (3).to_bytes(4, "big") * 2 + b"\0" * 8
    sent = await api.call(
        "sendPhoto", {"chat_id": GROUP}, {"photo": Upload("p.png", "image/png", png)}
    )
    return str(sent["photo"][-1]["file_id"])


async def test_a_cached_photo_result_posts_the_picture_and_its_caption_is_edited() -> None:
    api = FakeBotApi()
    file_id = await sent_photo(api)
    for results, error in [
        ([photo("AgACnope")], "wrong file identifier"),
        ([photo(file_id, caption="x" * 1025)], "too long"),
        ([photo(file_id, caption="<b>open")], "can't parse entities"),
        ([{**photo(file_id), "photo_file_id": None}], "PHOTO_INVALID"),
        ([{**photo(file_id), "photo_file_id": None, "photo_url": "https://x.test/a.jpg"}],
         "thumbnail_url"),
    ]:  # fmt: skip
        assert error in await refused(api, results)
    ask = await api.inline_query(ALICE, "Hello", GROUP)
    await answer(api, ask.query_id, [photo(file_id)])
    answered = await ask.answered()
    assert answered["results"][0]["message"]["caption"] == "💬 Mirra speaks…"
    posted = await api.choose_inline_result(ALICE, ask.query_id, "p", GROUP)
    assert posted["photo"][-1]["file_id"] == file_id and "text" not in posted
    assert posted["caption"] == "💬 Mirra speaks…" and posted["via_bot"]["id"] == api.bot_id
    inline_id = api.pending_updates()[-1]["chosen_inline_result"]["inline_message_id"]
    edit = {
        "inline_message_id": inline_id,
        "caption": "💬 <b>Mirra</b>: Hello",
        "parse_mode": "HTML",
    }
    assert await api.call("editMessageCaption", edit) is True
    assert api.messages(GROUP)[-1]["caption"] == "💬 Mirra: Hello"
    with pytest.raises(ApiError, match="there is no text in the message"):
        await api.call("editMessageText", {"inline_message_id": inline_id, "text": "x"})
