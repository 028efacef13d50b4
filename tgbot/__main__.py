"""``python -m tgbot [run|migrate|set-webhook]``: run the bot, migrate, register the webhook."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys

from core.settings import Settings, SettingsError, load_settings


async def _run(settings: Settings) -> None:
    from tgbot.main import serve

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await serve(settings, stop)


async def _migrate(settings: Settings) -> None:
    from core.store.db import migrate_database

    await migrate_database(settings.database_url)
    print("Database is up to date.")


async def _set_webhook(settings: Settings) -> None:
    from telegram import Bot, Update

    if settings.bot_token is None or settings.webhook_url is None:
        raise SettingsError("set-webhook needs BOT_TOKEN, WEBHOOK_URL and WEBHOOK_SECRET")
    bot = Bot(settings.bot_token, base_url=f"{settings.telegram_api_url}/bot")
    async with bot:
        await bot.set_webhook(
            settings.webhook_url, secret_token=settings.webhook_secret,
            allowed_updates=Update.ALL_TYPES, drop_pending_updates=False,
        )
    print(f"Webhook set to {settings.webhook_url}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tgbot", description="Stonetable bot")
    parser.add_argument("command", nargs="?", default="run",
                        choices=["run", "migrate", "set-webhook"])
    args = parser.parse_args(argv)
    try:
        settings = load_settings(os.environ)
    except SettingsError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    command = {"run": _run, "migrate": _migrate, "set-webhook": _set_webhook}[args.command]
    try:
        asyncio.run(command(settings))
    except SettingsError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
