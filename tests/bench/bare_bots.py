"""Two bare bots answering /roll, to compare the worker's CPU per roll with.

``python -m tests.bench.bare_bots ptb|aiogram`` runs one, set up from the same
environment as a worker (``BOT_TOKEN``, ``TELEGRAM_API_URL``, ``HOST``, ``PORT``,
``WEBHOOK_URL``, ``WEBHOOK_SECRET``): in webhook mode it takes updates posted to
``/telegram/webhook``; with no ``WEBHOOK_URL`` it long-polls the Bot API as its
library's documentation shows; either way it answers ``/healthz`` and answers
``/roll 2d6+3`` with a sent message. Each is written the way its library's documentation
shows, and no more: no database, no locks, no languages; both run on uvloop, as
the worker does. The python-telegram-bot one sends with the library's own HTTP
client (httpx), the aiogram one with aiogram's (aiohttp).

``BARE_PACE`` (messages a second; none when unset): the aiogram bot sends no faster,
each answer waiting for its turn on one overall clock, as the worker's rate limiter
paces its messages (Telegram takes about 30 a second from a bot), so the two can be
compared sending at the same pace.
"""

from __future__ import annotations

import asyncio
import html
import os
import random
import re
import sys
from typing import Any

from aiohttp import web

DICE = re.compile(r"^\s*(\d{0,3})d(\d{1,4})\s*([+-]\s*\d{1,6})?\s*$", re.IGNORECASE)
PACE = float(os.environ.get("BARE_PACE") or 0)  # messages a second overall (0: unpaced)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def roll_text(args: str, name: str) -> str:
    """HTML for ``NdM+K`` rolled by ``name`` (a d20 when no notation is given)."""
    found = DICE.match(args or "d20")
    if found is None:
        return "Write dice like 2d6+3."
    count, sides = int(found[1] or 1), int(found[2])
    if not 1 <= count <= 100 or sides < 2:
        return "Up to 100 dice of at least 2 sides."
    modifier = int(found[3].replace(" ", "")) if found[3] else 0
    faces = [random.randint(1, sides) for _ in range(count)]
    lines = [
        f"🎲 <b>{html.escape(name)}</b> rolls <code>{html.escape(args or 'd20')}</code>",
        f"{count}d{sides}: [{', '.join(map(str, faces))}] = {sum(faces)}",
    ]
    if modifier:
        lines.append(f"{'+' if modifier > 0 else '−'} {abs(modifier)}")
    lines.append(f"<b>Total: {sum(faces) + modifier}</b>")
    return "\n".join(lines)


async def healthz(_request: web.Request) -> web.Response:
    return web.Response(text="ok")


async def ptb_app(token: str, api: str, secret: str) -> web.Application:
    """python-telegram-bot 22: an Application fed from a custom webhook server, as in
    the library's ``customwebhookbot`` example, or polling with its own Updater
    (``secret`` empty)."""
    from telegram import Update
    from telegram.ext import Application, CommandHandler, ContextTypes

    async def roll(update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        assert message is not None and message.from_user is not None
        text = message.text or ""
        args = text.split(maxsplit=1)[1] if " " in text else ""
        await message.reply_text(roll_text(args, message.from_user.full_name), parse_mode="HTML")

    builder = Application.builder().token(token).base_url(f"{api}/bot")
    polling = not secret
    if not polling:
        builder = builder.updater(None)
    application = builder.concurrent_updates(True).build()
    application.add_handler(CommandHandler(["roll", "r"], roll))

    async def webhook(request: web.Request) -> web.Response:
        if request.headers.get(SECRET_HEADER) != secret:
            return web.Response(status=403)
        await application.update_queue.put(Update.de_json(await request.json(), application.bot))
        return web.Response()

    async def running(_app: web.Application) -> Any:
        async with application:
            if polling:
                assert application.updater is not None
                await application.updater.start_polling()
            await application.start()
            yield
            if polling:
                assert application.updater is not None
                await application.updater.stop()
            await application.stop()

    app = web.Application()
    if not polling:
        app.router.add_post("/telegram/webhook", webhook)
    app.router.add_get("/healthz", healthz)
    app.cleanup_ctx.append(running)
    return app


async def aiogram_app(token: str, api: str, secret: str) -> web.Application:
    """aiogram 3: a Dispatcher behind aiogram's own aiohttp webhook handler, or polling
    with the Dispatcher's own ``start_polling`` (``secret`` empty)."""
    from aiogram import Bot, Dispatcher
    from aiogram.client.session.aiohttp import AiohttpSession
    from aiogram.client.telegram import TelegramAPIServer
    from aiogram.filters import Command, CommandObject
    from aiogram.types import Message
    from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application

    bot = Bot(token, session=AiohttpSession(api=TelegramAPIServer.from_base(api)))
    dispatcher = Dispatcher()
    next_turn = 0.0  # with BARE_PACE: when the next message may go

    @dispatcher.message(Command("roll", "r"))
    async def roll(message: Message, command: CommandObject) -> None:
        nonlocal next_turn
        assert message.from_user is not None
        if PACE:
            now = asyncio.get_running_loop().time()
            turn, next_turn = max(now, next_turn), max(now, next_turn) + 1 / PACE
            if turn > now:
                await asyncio.sleep(turn - now)
        await message.answer(
            roll_text(command.args or "", message.from_user.full_name), parse_mode="HTML"
        )

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    if not secret:

        async def polling(_app: web.Application) -> Any:
            task = asyncio.create_task(dispatcher.start_polling(bot, handle_signals=False))
            yield
            await dispatcher.stop_polling()
            await task

        app.cleanup_ctx.append(polling)
        return app
    SimpleRequestHandler(dispatcher, bot, secret_token=secret).register(
        app, path="/telegram/webhook"
    )
    setup_application(app, dispatcher, bot=bot)
    return app


BOTS = {"ptb": ptb_app, "aiogram": aiogram_app}


def main() -> None:
    kind = sys.argv[1]
    env = os.environ

    async def app() -> web.Application:
        secret = env["WEBHOOK_SECRET"] if env.get("WEBHOOK_URL") else ""  # "": polling
        return await BOTS[kind](env["BOT_TOKEN"], env["TELEGRAM_API_URL"], secret)

    try:  # the worker's event loop, for a like-for-like comparison
        import uvloop

        loop = uvloop.new_event_loop()
    except ImportError:
        loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    web.run_app(
        app(), host=env.get("HOST", "127.0.0.1"), port=int(env["PORT"]), print=None, loop=loop
    )


if __name__ == "__main__":
    main()
