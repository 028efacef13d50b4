"""Composition root: builds every dependency once and runs the bot and the Mini App.

One process, one event loop: an aiohttp server (Mini App, JSON API, webhook,
and the sandbox when there is no token) and the python-telegram-bot
Application, polling when no WEBHOOK_URL is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from aiohttp import web
from telegram.error import TelegramError

from core.campaigns import Campaigns
from core.campaigns.play import Play
from core.rules.registry import Registry, default_registry
from core.rules.rng import FairRng, Rng
from core.runtime.errors import TryAgain
from core.runtime.events import CampaignEvents, InProcessEvents, RedisEvents
from core.runtime.heavy import HeavyWork, InProcessTurns, ProcessPool, RedisTurns, Turns
from core.runtime.locks import InProcessKeyedLock, KeyedLock, RedisKeyedLock
from core.runtime.pace import GroupPace, InProcessPace, RedisPace
from core.runtime.settings import Settings, SettingsError
from core.store.db import close_database, open_database
from core.store.housekeeping import run_once, tidy
from core.store.unit import NO_HOOKS, Hooks, UnitOfWork
from tgbot.app import build_application, register_commands, renderers
from tgbot.context import BotDeps, StonetableApplication
from tgbot.inbox import Inbox, Poller
from tgbot.intro import introduce
from tgbot.outbox import Planner
from tgbot.reminding import REMIND_SECONDS, schedule_reminders
from tgbot.sender import mark_edits_sent, schedule_sweeper, send_pending
from webapp.app import create_app
from webapp.deps import TELEGRAM_SCRIPT, WebDeps, Webhook
from webapp.sheets import sheet_pages

if TYPE_CHECKING:
    from tgbot.sandbox.fake_api import FakeBotApi

log = logging.getLogger("stonetable")
SANDBOX_PREFIX = "/sandbox"
SANDBOX_FORUM = -100200  # the sandbox's forum group
SANDBOX_TOPICS = ("Campaign A", "Campaign B", "Rules talk")
WEBHOOK_PATH = "/telegram/webhook"


def build_locks(settings: Settings, wait_seconds: float | None = None) -> KeyedLock:
    """Redis locks when REDIS_URL is set, in-process locks otherwise."""
    wait = settings.lock_wait_seconds if wait_seconds is None else wait_seconds
    if settings.redis_url is None:
        return InProcessKeyedLock(settings.lock_lease_seconds, wait)
    from redis.asyncio import Redis

    redis = Redis.from_url(settings.redis_url, socket_timeout=5, socket_connect_timeout=5)
    return RedisKeyedLock(redis, settings.lock_lease_seconds, wait)


def build_pace(settings: Settings, clock: Callable[[], float]) -> GroupPace:
    """The groups' pace shared through Redis when REDIS_URL is set (every worker counts the
    same lines), in-process otherwise (one worker)."""
    if settings.redis_url is None:
        return InProcessPace(clock)
    from redis.asyncio import Redis

    redis = Redis.from_url(settings.redis_url, socket_timeout=5, socket_connect_timeout=5)
    return RedisPace(redis, clock)


def build_events(settings: Settings) -> CampaignEvents:
    """Change notices through Redis when REDIS_URL is set, in-process otherwise."""
    if settings.redis_url is None:
        return InProcessEvents()
    from redis.asyncio import Redis

    redis = Redis.from_url(settings.redis_url, socket_connect_timeout=5)
    return RedisEvents(redis)


# the modules of the jobs sent to the pool (core.runtime.heavy), imported as a process starts
HEAVY_JOBS = (
    "core.rules.dice",
    "core.rules.nsu.odds",
    "core.rules.roll_stats",
    "tgbot.render.dice",
    "tgbot.render.nsu_map",
    "webapp.odds_json",
)


def build_heavy(settings: Settings) -> HeavyWork:
    """The process pool for CPU-heavy work (one process per CPU unless HEAVY_WORKERS
    says), with each user's turn kept in Redis when REDIS_URL is set, in-process
    otherwise. No process starts until a job needs one."""
    size = settings.heavy_workers or os.cpu_count() or 1
    pool = ProcessPool(size, settings.heavy_seconds, preload=HEAVY_JOBS)
    turns: Turns
    if settings.redis_url is None:
        turns = InProcessTurns()
    else:
        from redis.asyncio import Redis

        redis = Redis.from_url(settings.redis_url, socket_timeout=5, socket_connect_timeout=5)
        # a turn outlives its job's limit and a wait for a free process, never a dead worker
        turns = RedisTurns(redis, expire_seconds=3 * settings.heavy_seconds)
    return HeavyWork(pool, turns)


class Runtime:
    """Everything the process runs, started and stopped in order."""

    def __init__(
        self,
        settings: Settings,
        *,
        rng: Rng | None = None,
        clock: Callable[[], float] = time.time,
        rate_limit: bool = True,
        registry: Registry | None = None,
        hooks: Hooks = NO_HOOKS,
        remind_every: float = REMIND_SECONDS,
    ) -> None:
        self.settings = settings
        self.remind_every = remind_every  # how often this worker sends the due reminders
        self.hooks = hooks  # where a fault test stops a change (a no-op by default)
        self.registry = registry or default_registry()
        self.rng = rng or FairRng()
        self.clock = clock
        self.rate_limit = rate_limit
        self.locks: KeyedLock | None = None
        self.heavy: HeavyWork | None = None
        self._job_locks: KeyedLock | None = None
        self.events: CampaignEvents | None = None
        self.pace: GroupPace | None = None  # the groups' pace of reminder lines
        self.application: StonetableApplication | None = None
        self.inbox: Inbox | None = None
        # Set once updates can be handled; the HTTP server starts before (the sandbox's
        # Bot API and the Mini App live on it), so until then it is not ready.
        self.ready = asyncio.Event()
        self.poller: Poller | None = None
        self.sandbox: FakeBotApi | None = None
        self._runner: web.AppRunner | None = None
        self.port = settings.port

    @property
    def origin(self) -> str:
        host = self.settings.host
        host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        return f"http://{host}:{self.port}"

    def _bot_username(self) -> str:
        """The bot's username once the bot has started ("" before)."""
        return (self.application.bot.username or "") if self.application is not None else ""

    def _bot_token(self) -> str:
        if self.settings.bot_token is not None:
            return self.settings.bot_token
        from tgbot.sandbox.keeper import saved_token

        fresh = f"{secrets.randbelow(9 * 10**9) + 10**9}:{secrets.token_urlsafe(27)}"
        return saved_token(self.settings.database_url) or fresh

    async def start(self) -> None:
        settings = self.settings
        await open_database(settings.database_url, apply_migrations=settings.migrate_on_start)
        self.locks = build_locks(settings)
        self.heavy = heavy = build_heavy(settings)
        play = Play(self.rng, self.locks, self.clock, heavy=heavy)
        self.events = build_events(settings)
        await self.events.start()
        campaigns = Campaigns(self.registry, self.rng, self.locks, self.events, clock=self.clock)
        token = self._bot_token()
        drawn = renderers(self.registry)
        # a change's messages are written with it, drawn by the bot's planner: each unit of
        # work is given it (and the hooks), the bot's and the Mini App's alike
        planner = Planner(drawn, campaigns)
        web_app = create_app(
            WebDeps(
                play,
                campaigns,
                sheet_pages(registry=self.registry),
                token,
                settings.initdata_max_age,
                self.clock,
                sent=self._send_outbox,
                planner=planner,
                hooks=self.hooks,
                ready=self.ready.is_set,
                heavy=heavy,
                bot_username=self._bot_username,
                telegram_script=(
                    f"{SANDBOX_PREFIX}/static/telegram-web-app.js"
                    if settings.sandbox
                    else TELEGRAM_SCRIPT
                ),
            ),
            webhook=self._webhook(),
        )
        if settings.sandbox:
            self.sandbox = self._mount_sandbox(web_app, token)
        self._runner = web.AppRunner(
            web_app, access_log=None, shutdown_timeout=settings.webhook_answer_seconds + 1
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, settings.host, settings.port)
        await site.start()
        self.port = self._bound_port(site)
        webapp_url = settings.webapp_url or (f"{self.origin}/app" if settings.sandbox else None)
        if self.sandbox is not None:
            self.sandbox.webapp_url = webapp_url or f"{self.origin}/app"
        api_url = (
            f"{self.origin}{SANDBOX_PREFIX}/api" if settings.sandbox else settings.telegram_api_url
        )
        self.application = build_application(
            token=token,
            api_url=api_url,
            deps=BotDeps(
                play,
                campaigns,
                drawn,
                settings,
                webapp_url,
                heavy,
                hooks=self.hooks,
                planner=planner,
            ),
            rate_limit=self.rate_limit and settings.rate_limit,
            connections=settings.telegram_connections,
        )
        await self.application.initialize()
        await register_commands(self.application)
        await introduce(self.application.bot, webapp_url)
        await self.application.start()
        self._schedule_housekeeping()
        schedule_sweeper(self.application)
        self.pace = build_pace(self.settings, self.clock)
        schedule_reminders(self.application, self.pace, self.remind_every)
        self.inbox = Inbox(self.application, answer_within=settings.webhook_answer_seconds)
        if not settings.webhook:
            self.poller = Poller(self.inbox)
            await self.poller.start()
        self.ready.set()
        log.info("Stonetable is up on %s (bot @%s)", self.origin, self.application.bot.username)

    def _schedule_housekeeping(self) -> None:
        """Every worker asks hourly; the lock and the last run make it happen once."""
        assert self.application is not None and self.application.job_queue is not None
        self._job_locks = locks = build_locks(self.settings, wait_seconds=0.05)

        async def housekeeping(_context: object) -> None:
            await run_once("tidy", timedelta(hours=6), locks, self.clock, tidy)

        self.application.job_queue.run_repeating(
            housekeeping, interval=3600, first=60, name="housekeeping"
        )

    async def _send_outbox(self, unit: UnitOfWork) -> None:
        """Send what a Mini App request's unit of work wrote to the outbox: what its change
        shows in the chats, as a press would (best effort: what fails here, the sweeper
        sends in a few seconds)."""
        if self.application is None:
            return
        try:
            await send_pending(self.application, unit)
        except (TelegramError, TryAgain) as error:
            log.warning("Could not send what a Mini App request wrote: %s", error)

    def _webhook(self) -> Webhook | None:
        if self.settings.webhook_url is None or self.settings.webhook_secret is None:
            return None
        path = urlsplit(self.settings.webhook_url).path or WEBHOOK_PATH
        return Webhook(path=path, secret=self.settings.webhook_secret, take=self._take)

    async def _take(self, body: bytes) -> bool:
        """Handle a webhook body; True once it is durable (False: too slow, or the bot
        did not finish starting within the bound).

        A body that comes while the process is still starting (the HTTP server is up
        before the bot) waits for the start, within the same bound, rather than being
        refused at once: Telegram would send it again only after a pause of its own.
        """
        bound = self.settings.webhook_answer_seconds
        if not self.ready.is_set():
            try:
                await asyncio.wait_for(self.ready.wait(), timeout=bound)
            except TimeoutError:
                log.warning("An update came while starting; not ready after %.1f s", bound)
                return False
        return self.inbox is not None and await self.inbox.take_body(body)

    def _mount_sandbox(self, web_app: web.Application, token: str) -> FakeBotApi:
        from tgbot.sandbox.fake_api import FakeBotApi
        from tgbot.sandbox.keeper import keep_sandbox
        from tgbot.sandbox.web import setup_sandbox

        api = FakeBotApi(
            token=token,
            webapp_url=f"{self.origin}/app",
            webapp_short_name=self.settings.miniapp_short_name or "",
        )
        # a forum group too, one game per topic (see docs/nsu-in-telegram.md)
        api.add_forum(SANDBOX_FORUM, "Forum Table", SANDBOX_TOPICS)
        setup_sandbox(web_app, api, prefix=SANDBOX_PREFIX)
        keep_sandbox(web_app, api, self.settings.database_url)
        return api

    @staticmethod
    def _bound_port(site: web.TCPSite) -> int:
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        return int(sockets[0].getsockname()[1]) if sockets else site._port

    async def stop(self) -> None:
        """Stop taking updates, let those in hand finish, then close everything."""
        if self.poller is not None:
            await self.poller.stop()
        if self._runner is not None:
            await self._runner.cleanup()
        if self.inbox is not None:
            await self.inbox.drain(self.settings.webhook_answer_seconds)
        application = self.application
        if application is not None:
            if application.running:
                await application.stop()
            await application.shutdown()
            with contextlib.suppress(Exception):  # else the sweepers see them sent again
                await mark_edits_sent()
        for locks in (self.locks, self._job_locks):
            if locks is not None:
                await locks.aclose()
        if self.events is not None:
            await self.events.aclose()
        if self.pace is not None:
            await self.pace.aclose()
        if self.heavy is not None:
            await self.heavy.aclose()
        await close_database()


async def serve(
    settings: Settings,
    stop: asyncio.Event,
    *,
    hooks: Hooks = NO_HOOKS,
    clock: Callable[[], float] = time.time,
    remind_every: float = REMIND_SECONDS,
) -> None:
    """Run until ``stop`` is set (``hooks``: a fault test's pause points; ``clock`` and
    ``remind_every``: a fault test's moved clock and quicker reminder rounds)."""
    runtime = Runtime(settings, hooks=hooks, clock=clock, remind_every=remind_every)
    try:
        await runtime.start()
        if runtime.sandbox is not None:
            print(
                f"\n  Sandbox ready: open {runtime.origin}{SANDBOX_PREFIX} in your browser\n",
                flush=True,
            )
        await stop.wait()
    finally:
        await runtime.stop()


async def replay_dead_letters(settings: Settings, ids: list[int]) -> int:
    """Handle dead letters again (``ids``; every one not replayed yet when empty), in
    order; prints each outcome and returns how many went through.

    Safe to run twice: an update that was handled before changes nothing (its claim
    in ``processed_update``), and what its change left unsent is sent.
    """
    from core.store.dead_letters import dead_letters_to_replay, mark_replayed
    from core.store.models import DeadLetter

    if settings.bot_token is None:
        raise SettingsError("dead-letters replay needs BOT_TOKEN (and TELEGRAM_API_URL)")
    await open_database(settings.database_url, apply_migrations=settings.migrate_on_start)
    locks = build_locks(settings)
    heavy = build_heavy(settings)
    events = build_events(settings)
    await events.start()
    campaigns = Campaigns(default_registry(), FairRng(), locks, events, clock=time.time)
    drawn = renderers()
    application = build_application(
        token=settings.bot_token,
        api_url=settings.telegram_api_url,
        deps=BotDeps(
            Play(FairRng(), locks, time.time, heavy=heavy),
            campaigns,
            drawn,
            settings,
            settings.webapp_url,
            heavy,
            planner=Planner(drawn, campaigns),
        ),
        rate_limit=settings.rate_limit,
        connections=settings.telegram_connections,
    )
    done = 0
    try:
        await application.initialize()
        inbox = Inbox(application, answer_within=settings.webhook_answer_seconds)
        letters: list[DeadLetter] = await dead_letters_to_replay(ids)
        if not letters:
            print("No dead letters to replay.")
        for letter in letters:
            why = await inbox.replay(letter.body.encode("utf-8", "replace"))
            if why is None:
                await mark_replayed(letter)
                done += 1
                print(f"#{letter.id}  update {letter.update_id or '-'}  replayed")
            else:
                print(f"#{letter.id}  update {letter.update_id or '-'}  not replayed: {why}")
    finally:
        await application.shutdown()
        await locks.aclose()
        await heavy.aclose()
        await events.aclose()
        await close_database()
    return done
