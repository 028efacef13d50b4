"""A real PTB Application against the fake Bot API over HTTP."""

from __future__ import annotations

import asyncio
import html
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeChatAdministrators,
    BotCommandScopeChatMember,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    MenuButtonWebApp,
    Update,
    WebAppInfo,
)
from telegram.error import BadRequest, Conflict, Forbidden, RetryAfter
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from tests.support.bot_api import (
    polling_bot,
    press_and_wait,
    running_fake_api,
    send_and_wait,
    serve_app,
)
from tgbot.sandbox.fake_api import FakeBotApi, Player
from webapp.auth import validate_init_data

pytestmark = pytest.mark.e2e

ALICE, BO, CHIDI = 1001, 1002, 1003
GROUP = -100123


async def roll(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Reply with a result and a re-roll button."""
    assert update.effective_message is not None
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Again", callback_data="roll:again")]])
    await update.effective_message.reply_html("Rolled <b>5</b>", reply_markup=keyboard)


async def again(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Answer the press with an alert and edit the message."""
    query = update.callback_query
    assert query is not None
    await query.answer("Rolling again", show_alert=True)
    await query.edit_message_text("Rolled <b>6</b>", parse_mode="HTML")


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Greet and echo the deep-link payload, escaped."""
    assert update.effective_message is not None and update.effective_user is not None
    payload = " ".join(context.args or [])
    name = html.escape(update.effective_user.first_name)
    await update.effective_message.reply_html(f"Welcome, {name}! payload={payload}")


HANDLERS = [
    CommandHandler("roll", roll),
    CommandHandler("start", start),
    CallbackQueryHandler(again, pattern="^roll:"),
]


@pytest.fixture
async def sandbox() -> AsyncIterator[tuple[FakeBotApi, Application[Any, Any, Any, Any, Any, Any]]]:
    players = [
        Player(ALICE, "Alice", username="alice", started=True),
        Player(BO, "<b>Bo</b> & Co", started=False),
        Player(CHIDI, "Chidi", started=True),
    ]
    async with (
        running_fake_api(players=players, webapp_short_name="play") as (api, base, files),
        polling_bot(api, base, files, HANDLERS) as application,
    ):
        yield api, application


async def test_command_gets_a_reply(sandbox: tuple[FakeBotApi, Application]) -> None:
    api, _ = sandbox
    reply = await send_and_wait(api, ALICE, GROUP, "/roll")
    assert reply["text"] == "Rolled 5"
    assert reply["entities"] == [{"type": "bold", "offset": 7, "length": 1}]
    assert reply["reply_to_message"]["text"] == "/roll"


async def test_addressed_command_gets_a_reply(sandbox: tuple[FakeBotApi, Application]) -> None:
    api, _ = sandbox
    reply = await send_and_wait(api, ALICE, GROUP, "/roll@stonetable_bot")
    assert reply["text"] == "Rolled 5"


async def test_button_press_answers_and_edits(sandbox: tuple[FakeBotApi, Application]) -> None:
    api, _ = sandbox
    reply = await send_and_wait(api, ALICE, GROUP, "/roll")
    answer, edited = await press_and_wait(api, CHIDI, GROUP, reply["message_id"], "roll:again")
    assert answer["text"] == "Rolling again" and answer["show_alert"]
    assert api.alerts_for(CHIDI)[-1]["text"] == "Rolling again"
    assert edited["message_id"] == reply["message_id"]
    assert edited["text"] == "Rolled 6" and "edit_date" in edited
    assert "reply_markup" not in edited, "editing without reply_markup drops the keyboard"


async def test_not_modified_edit_is_rejected(sandbox: tuple[FakeBotApi, Application]) -> None:
    _, application = sandbox
    sent = await application.bot.send_message(GROUP, "Same")
    with pytest.raises(BadRequest, match="Message is not modified"):
        await application.bot.edit_message_text("Same", GROUP, sent.message_id)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await application.bot.edit_message_text("Other", GROUP, 9999)


async def test_unescaped_player_text_fails_to_parse(
    sandbox: tuple[FakeBotApi, Application],
) -> None:
    _, application = sandbox
    with pytest.raises(BadRequest, match='Can\'t parse entities: unsupported start tag "bo"'):
        await application.bot.send_message(GROUP, "Hi <Bo> &amp; Co", parse_mode="HTML")
    with pytest.raises(BadRequest, match="parse entities"):
        await application.bot.send_message(GROUP, "2 < 3", parse_mode="HTML")
    with pytest.raises(BadRequest, match="parse entities"):
        await application.bot.send_message(GROUP, "Tom & Jerry", parse_mode="HTML")
    sent = await application.bot.send_message(
        GROUP, html.escape("Hi <b>Bo</b> & Co"), parse_mode="HTML"
    )
    assert sent.text == "Hi <b>Bo</b> & Co"


async def test_private_message_needs_start(sandbox: tuple[FakeBotApi, Application]) -> None:
    api, application = sandbox
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await application.bot.send_message(BO, "psst")
    reply = await send_and_wait(api, BO, BO, "/start")
    assert reply["text"] == "Welcome, <b>Bo</b> & Co! payload="
    assert api.player(BO).started
    sent = await application.bot.send_message(BO, "psst")
    assert sent.chat.type == "private"


async def test_start_deep_link_payload(sandbox: tuple[FakeBotApi, Application]) -> None:
    api, _ = sandbox
    await api.start_bot(BO, "join-abc_123")
    reply = await api.wait_for_message(BO)
    assert reply["text"].endswith("payload=join-abc_123")
    assert api.player(BO).started


async def test_web_app_button_rejected_in_group(sandbox: tuple[FakeBotApi, Application]) -> None:
    _, application = sandbox
    button = InlineKeyboardButton("Open", web_app=WebAppInfo("https://example.org/app"))
    with pytest.raises(BadRequest, match="Button_type_invalid"):
        await application.bot.send_message(
            GROUP, "Sheet", reply_markup=InlineKeyboardMarkup([[button]])
        )
    sent = await application.bot.send_message(
        ALICE, "Sheet", reply_markup=InlineKeyboardMarkup([[button]])
    )
    assert sent.reply_markup is not None


async def test_web_app_url_must_be_https(sandbox: tuple[FakeBotApi, Application]) -> None:
    _, application = sandbox
    plain = InlineKeyboardButton("Open", web_app=WebAppInfo("http://example.org/app"))
    with pytest.raises(BadRequest, match=r"(?i)only https links are allowed"):
        await application.bot.send_message(ALICE, "x", reply_markup=InlineKeyboardMarkup([[plain]]))
    local = InlineKeyboardButton("Open", web_app=WebAppInfo("http://127.0.0.1:8080/app"))
    await application.bot.send_message(ALICE, "x", reply_markup=InlineKeyboardMarkup([[local]]))


async def test_callback_data_too_long(sandbox: tuple[FakeBotApi, Application]) -> None:
    _, application = sandbox
    button = InlineKeyboardButton("Long", callback_data="x" * 65)
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await application.bot.send_message(
            GROUP, "x", reply_markup=InlineKeyboardMarkup([[button]])
        )


async def test_unknown_chat_and_text_limits(sandbox: tuple[FakeBotApi, Application]) -> None:
    _, application = sandbox
    with pytest.raises(BadRequest, match="Chat not found"):
        await application.bot.send_message(-42, "hello")
    with pytest.raises(BadRequest, match="Message is too long"):
        await application.bot.send_message(GROUP, "x" * 4097)
    with pytest.raises(BadRequest, match="Message text is empty"):
        await application.bot.send_message(GROUP, "  <b> </b> ", parse_mode="HTML")


async def test_answering_twice_fails(sandbox: tuple[FakeBotApi, Application]) -> None:
    api, application = sandbox
    reply = await send_and_wait(api, ALICE, GROUP, "/roll")
    press = await api.press_button(ALICE, GROUP, reply["message_id"], "roll:again")
    await press.answered()
    with pytest.raises(BadRequest, match="Query is too old"):
        await application.bot.answer_callback_query(press.query_id, "late")
    with pytest.raises(BadRequest, match="Query is too old"):
        await application.bot.answer_callback_query("12345", "unknown")


async def test_commands_and_menu_button(sandbox: tuple[FakeBotApi, Application]) -> None:
    api, application = sandbox
    bot = application.bot
    await bot.set_my_commands([BotCommand("roll", "Roll dice")])
    await bot.set_my_commands([BotCommand("join", "Join")], scope=BotCommandScopeAllGroupChats())
    assert [c.command for c in await bot.get_my_commands()] == ["roll"]
    assert api.commands("all_group_chats") == [{"command": "join", "description": "Join"}]
    assert api.visible_commands(ALICE, GROUP)[0]["command"] == "join"
    assert api.visible_commands(ALICE, ALICE)[0]["command"] == "roll"
    await bot.delete_my_commands(scope=BotCommandScopeAllGroupChats())
    assert api.commands("all_group_chats") == []
    menu = MenuButtonWebApp("Play", WebAppInfo("https://example.org/app"))
    await bot.set_chat_menu_button(ALICE, menu)
    assert (await bot.get_chat_menu_button(ALICE)).type == "web_app"
    assert (await bot.get_chat_menu_button()).type == "commands"


async def test_a_chat_scoped_menu_overrides_the_wider_one_until_deleted(
    sandbox: tuple[FakeBotApi, Application],
) -> None:
    api, application = sandbox
    bot = application.bot
    common = [BotCommand("roll", "Roll dice"), BotCommand("help", "Help")]
    await bot.set_my_commands(common, scope=BotCommandScopeAllGroupChats())
    await bot.set_my_commands(
        [BotCommand("start", "Hello")], scope=BotCommandScopeAllPrivateChats()
    )
    game = [*common, BotCommand("act", "Act")]
    await bot.set_my_commands(game, scope=BotCommandScopeChat(GROUP))
    read = await bot.get_my_commands(scope=BotCommandScopeChat(GROUP))
    assert [c.command for c in read] == ["roll", "help", "act"]
    assert [c["command"] for c in api.visible_commands(BO, GROUP)] == ["roll", "help", "act"]
    assert [c["command"] for c in api.visible_commands(BO, BO)] == ["start"]  # not merged in
    await bot.set_my_commands(
        [BotCommand("mine", "Only Bo")], scope=BotCommandScopeChatMember(GROUP, BO)
    )
    assert [c["command"] for c in api.visible_commands(BO, GROUP)] == ["mine"]
    assert [c["command"] for c in api.visible_commands(CHIDI, GROUP)] == ["roll", "help", "act"]
    await bot.set_my_commands(
        [BotCommand("fr", "Jeu")], scope=BotCommandScopeChat(GROUP), language_code="fr"
    )
    assert [c.command for c in await bot.get_my_commands(scope=BotCommandScopeChat(GROUP))] == [
        "roll",
        "help",
        "act",
    ]  # each language has its own list
    await bot.delete_my_commands(scope=BotCommandScopeChat(GROUP))
    assert await bot.get_my_commands(scope=BotCommandScopeChat(GROUP)) == ()
    assert [c["command"] for c in api.visible_commands(CHIDI, GROUP)] == ["roll", "help"]
    await bot.delete_my_commands(scope=BotCommandScopeChat(GROUP))  # nothing left: still fine


async def test_a_menu_set_for_a_language_is_what_its_speakers_see(
    sandbox: tuple[FakeBotApi, Application],
) -> None:
    api, application = sandbox
    bot = application.bot
    scope = BotCommandScopeAllPrivateChats()
    await bot.set_my_commands([BotCommand("roll", "Roll dice")], scope=scope)
    await bot.set_my_commands(
        [BotCommand("roll", "Бросить кубики")], scope=scope, language_code="ru"
    )
    read = await bot.get_my_commands(scope=scope, language_code="ru")
    assert [c.description for c in read] == ["Бросить кубики"]
    api.users.set_language(ALICE, "ru-RU")  # a regional code reads its language's list
    assert api.visible_commands(ALICE, ALICE)[0]["description"] == "Бросить кубики"
    api.users.set_language(ALICE, "de")  # no list in German: the default one
    assert api.visible_commands(ALICE, ALICE)[0]["description"] == "Roll dice"
    await bot.delete_my_commands(scope=scope, language_code="ru")
    api.users.set_language(ALICE, "ru")
    assert api.visible_commands(ALICE, ALICE)[0]["description"] == "Roll dice"


@pytest.mark.filterwarnings("ignore:Please use 'Bot.setMyCommands'")
async def test_menu_scopes_are_checked_as_telegram_checks_them(
    sandbox: tuple[FakeBotApi, Application],
) -> None:
    _, application = sandbox
    bot = application.bot
    one = [BotCommand("roll", "Roll dice")]
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.set_my_commands(one, scope=BotCommandScopeChat(-999))
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.get_my_commands(scope=BotCommandScopeChat("@nowhere"))
    with pytest.raises(BadRequest, match=r"(?i)scope_invalid"):
        await bot.set_my_commands(one, scope=BotCommandScopeChatAdministrators(ALICE))
    with pytest.raises(BadRequest, match=r"(?i)user not found"):
        await bot.set_my_commands(one, scope=BotCommandScopeChatMember(GROUP, 424242))
    with pytest.raises(BadRequest, match=r"(?i)language_code_invalid"):
        await bot.set_my_commands(one, language_code="english")
    with pytest.raises(BadRequest, match=r"(?i)scope_invalid"):
        await bot.do_api_request("setMyCommands", {"commands": [], "scope": {"type": "galaxy"}})
    with pytest.raises(BadRequest, match=r"(?i)bot_command_invalid"):
        await bot.set_my_commands([BotCommand("Roll!", "Roll dice")])
    assert await bot.get_my_commands(scope=BotCommandScopeAllGroupChats()) == ()


async def test_chat_info_members_and_pin(sandbox: tuple[FakeBotApi, Application]) -> None:
    _, application = sandbox
    bot = application.bot
    chat = await bot.get_chat(GROUP)
    assert chat.title == "The Table" and chat.type == "supergroup"
    member = await bot.get_chat_member(GROUP, ALICE)
    assert member.status == "creator"
    assert (await bot.get_chat_member(GROUP, CHIDI)).status == "member"
    admins = await bot.get_chat_administrators(GROUP)
    assert {a.user.id for a in admins} == {ALICE, bot.id}
    sent = await bot.send_message(GROUP, "Pinned")
    assert await bot.pin_chat_message(GROUP, sent.message_id)
    assert (await bot.get_chat(GROUP)).pinned_message.message_id == sent.message_id
    assert await bot.send_chat_action(GROUP, "typing")
    assert await bot.delete_message(GROUP, sent.message_id)
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await bot.delete_message(GROUP, sent.message_id)


async def test_deleting_a_players_message_needs_the_delete_messages_right(
    sandbox: tuple[FakeBotApi, Application],
) -> None:
    api, application = sandbox
    bot = application.bot
    for admin, right, allowed in (
        (True, True, True),
        (True, False, False),
        (False, True, False),
    ):
        api.bot_is_admin, api.bot_deletes_messages = admin, right
        me = await bot.get_chat_member(GROUP, bot.id)
        assert me.status == ("administrator" if admin else "member")
        if admin:
            assert me.can_delete_messages is right
        said = await api.send_text(ALICE, GROUP, "/xcard")
        if allowed:
            assert await bot.delete_message(GROUP, said["message_id"])
        else:
            with pytest.raises(BadRequest, match=r"(?i)message can't be deleted"):
                await bot.delete_message(GROUP, said["message_id"])
        own = await bot.send_message(GROUP, "mine")  # its own message: always
        assert await bot.delete_message(GROUP, own.message_id)


async def test_send_photo_upload_and_file_id(sandbox: tuple[FakeBotApi, Application]) -> None:
    _, application = sandbox
    png = _tiny_png()
    sent = await application.bot.send_photo(GROUP, png, caption="<i>Map</i>", parse_mode="HTML")
    largest = sent.photo[-1]
    assert (largest.width, largest.height) == (2, 3)
    assert sent.caption == "Map"
    again = await application.bot.send_photo(GROUP, largest.file_id)
    assert again.photo[-1].file_id == largest.file_id
    file = await application.bot.get_file(largest.file_id)
    assert bytes(await file.download_as_bytearray()) == png
    with pytest.raises(BadRequest, match="Image_process_failed"):
        await application.bot.send_photo(GROUP, b"not an image")


def _tiny_png() -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 2, 3, 8, 2, 0, 0, 0)
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(3))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


async def test_mini_app_link_opens_with_signed_init_data(
    sandbox: tuple[FakeBotApi, Application],
) -> None:
    api, _ = sandbox
    url = api.open_web_app(
        ALICE, "https://t.me/stonetable_bot/play?startapp=tok_42", from_chat_id=GROUP, theme="dark"
    )
    assert url.startswith(api.webapp_url + "?tgWebAppStartParam=tok_42#tgWebAppData=")
    init_data = _hash_param(url, "tgWebAppData")
    data = validate_init_data(init_data, api.token, now=time.time(), max_age=60)
    assert data.user.id == ALICE and data.user.first_name == "Alice"
    assert data.start_param == "tok_42"
    assert data.chat_type == "supergroup" and data.chat_instance == api.users.chat_instance(GROUP)
    assert '"bg_color":"#212121"' in _hash_param(url, "tgWebAppThemeParams")
    main = api.open_web_app(ALICE, "https://t.me/stonetable_bot?startapp=x", from_chat_id=GROUP)
    assert (
        validate_init_data(
            _hash_param(main, "tgWebAppData"), api.token, now=time.time(), max_age=60
        ).start_param
        == "x"
    )


def _hash_param(url: str, key: str) -> str:
    from urllib.parse import parse_qs, urlsplit

    return parse_qs(urlsplit(url).fragment)[key][0]


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_flood_control_returns_retry_after() -> None:
    async with running_fake_api(group_rate_limit=2) as (api, base, files):
        application = (
            Application.builder().token(api.token).base_url(base).base_file_url(files).build()
        )
        async with application:
            await application.bot.send_message(GROUP, "1")
            await application.bot.send_message(GROUP, "2")
            with pytest.raises(RetryAfter) as caught:
                await application.bot.send_message(GROUP, "3")
            assert "Flood control exceeded" in str(caught.value)


async def test_webhook_delivery_with_secret() -> None:
    received: list[tuple[str | None, dict[str, Any]]] = []
    attempts = 0

    async def hook(request: web.Request) -> web.Response:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            return web.Response(status=500)
        received.append(
            (request.headers.get("X-Telegram-Bot-Api-Secret-Token"), await request.json())
        )
        return web.Response()

    receiver = web.Application()
    receiver.router.add_post("/hook", hook)
    async with (
        serve_app(receiver) as origin,
        running_fake_api() as (api, base, files),
    ):
        application = (
            Application.builder()
            .token(api.token)
            .base_url(base)
            .base_file_url(files)
            .updater(None)
            .build()
        )
        async with application:
            bot = application.bot
            await bot.set_webhook(f"{origin}/hook", secret_token="s3cret")
            await api.send_text(1001, GROUP, "/roll")
            for _ in range(100):
                if received:
                    break
                await asyncio.sleep(0.05)
            secret, update = received[0]
            assert secret == "s3cret"
            assert update["message"]["text"] == "/roll"
            assert attempts == 2, "the first (failed) delivery is retried"
            info = await bot.get_webhook_info()
            assert info.url == f"{origin}/hook" and info.pending_update_count == 0
            assert info.last_error_message.startswith("Wrong response from the webhook: 500")
            with pytest.raises(Conflict, match="webhook is active"):
                await bot.get_updates()
            await bot.delete_webhook()
            assert await bot.get_updates() == ()
