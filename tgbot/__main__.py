"""``python -m tgbot [run|migrate|set-webhook|dead-letters|…]``: run the bot and its chores."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from core.runtime.settings import Settings, SettingsError, load_settings


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
            settings.webhook_url,
            secret_token=settings.webhook_secret,
            allowed_updates=Update.ALL_TYPES,
            drop_pending_updates=False,
            # Updates are handled before they are answered, so Telegram's parallel
            # deliveries bound how many are in hand at once: allow its maximum.
            max_connections=100,
        )
    print(f"Webhook set to {settings.webhook_url}")


async def _dead_letters(settings: Settings, args: argparse.Namespace) -> None:
    """``list`` (the default): print the latest dead letters, newest first; ``replay``:
    handle them again (``--id``; every one not replayed yet without)."""
    from core.store.db import close_database, open_database

    if args.file == "replay":
        from tgbot.main import replay_dead_letters

        await replay_dead_letters(settings, args.id or [])
        return
    if args.file not in (None, "list"):
        raise SettingsError("dead-letters takes list or replay")
    from core.store.dead_letters import latest_dead_letters

    await open_database(settings.database_url, apply_migrations=settings.migrate_on_start)
    try:
        letters = await latest_dead_letters(args.limit)
    finally:
        await close_database()
    if not letters:
        print("No dead letters.")
    for letter in letters:
        when = letter.received_at.strftime("%Y-%m-%d %H:%M:%S")
        replayed = "  (replayed)" if letter.replayed_at is not None else ""
        print(
            f"#{letter.id}  {when} UTC  update {letter.update_id or '-'}  {letter.reason}{replayed}"
        )
        body = letter.body if args.full else letter.body[:300]
        print(f"    {body}{'' if args.full or len(letter.body) <= 300 else ' …'}")


async def _export(args: argparse.Namespace) -> None:
    """Write the game running in a chat as JSON, to a file or the standard output."""
    import json
    import time

    from core.store.models import Campaign
    from core.views.archive import export_campaign

    campaign = await Campaign.get_or_none(live_chat_id=args.chat, topic_id=args.topic)
    if campaign is None:
        raise SettingsError(f"no game is running in chat {args.chat}")
    data = await export_campaign(campaign.id, time.time())
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if args.file:
        Path(args.file).write_text(text, encoding="utf-8")
    else:
        print(text)


async def _archive(settings: Settings, args: argparse.Namespace) -> None:
    """Export a chat's game to JSON, or import one into a chat."""
    import json

    from core.campaigns import Campaigns
    from core.campaigns.play import ChatRef, PlayerRef
    from core.rules.errors import StonetableError
    from core.rules.registry import default_registry
    from core.rules.rng import FairRng
    from core.runtime.locks import InProcessKeyedLock
    from core.store.db import close_database, open_database
    from core.views.archive import import_campaign

    await open_database(settings.database_url, apply_migrations=settings.migrate_on_start)
    campaigns = Campaigns(default_registry(), FairRng(), InProcessKeyedLock())
    try:
        if args.command == "export":
            await _export(args)
        else:
            data = json.loads(Path(args.file).read_text(encoding="utf-8"))
            view = await import_campaign(
                campaigns,
                data,
                ChatRef(args.chat, "supergroup", args.title or "", topic=args.topic),
                PlayerRef(args.host, args.host_name or "Host"),
            )
            print(f"Imported a {view.system.name} game into chat {args.chat}.")
    except StonetableError as error:
        raise SettingsError(error.message) from None
    finally:
        await close_database()


def _event_loop_runner() -> Callable[[Coroutine[Any, Any, None]], None]:
    """uvloop's event loop where it is installed (Linux, macOS), asyncio's otherwise.

    A worker spends much of each update in the event loop (HTTP in and out, the
    database driver's wake-ups): uvloop does that work in C.
    """
    try:
        import uvloop
    except ImportError:
        return asyncio.run
    return uvloop.run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tgbot", description="Stonetable bot")
    parser.add_argument(
        "command",
        nargs="?",
        default="run",
        choices=["run", "migrate", "set-webhook", "export", "import", "dead-letters"],
    )
    parser.add_argument(
        "file",
        nargs="?",
        help="export: write here (default: print); import: read; dead-letters: list or replay",
    )
    parser.add_argument("--chat", type=int, help="export/import: the group chat id")
    parser.add_argument(
        "--topic", type=int, default=0, help="export/import: the forum topic (0: General)"
    )
    parser.add_argument("--host", type=int, help="import: the Telegram id of the new host")
    parser.add_argument("--host-name", help="import: the host's first name")
    parser.add_argument("--title", help="import: the group's title")
    parser.add_argument("--limit", type=int, default=20, help="dead-letters: how many (newest)")
    parser.add_argument("--full", action="store_true", help="dead-letters: whole bodies")
    parser.add_argument(
        "--id",
        type=int,
        action="append",
        help="dead-letters replay: this one (repeat for more; default: all not replayed)",
    )
    args = parser.parse_args(argv)
    if args.command in ("export", "import") and args.chat is None:
        parser.error("--chat is required")
    if args.command == "import" and (args.file is None or args.host is None):
        parser.error("import needs a FILE and --host")
    try:
        settings = load_settings(os.environ)
    except SettingsError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    # the outbox's sweeper runs every 2 s: its "running job" lines would drown the log
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    simple = {"run": _run, "migrate": _migrate, "set-webhook": _set_webhook}
    try:
        if args.command == "run":
            _event_loop_runner()(_run(settings))
        elif args.command in simple:
            asyncio.run(simple[args.command](settings))
        elif args.command == "dead-letters":
            asyncio.run(_dead_letters(settings, args))
        else:
            asyncio.run(_archive(settings, args))
    except SettingsError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
