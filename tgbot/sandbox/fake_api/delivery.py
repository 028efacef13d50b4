"""Updates to the bot: the bounded queue, ``getUpdates`` long polling with its
confirming offsets, and the webhook with its retries.
"""

from __future__ import annotations

import asyncio
import re
import time

import aiohttp

from tgbot.sandbox.fake_api.hub import _Part
from tgbot.sandbox.fake_api.limits import DEFAULT_ALLOWED_UPDATES, _is_webhook_url
from tgbot.sandbox.fake_api.records import _Webhook
from tgbot.sandbox.fake_api.wire import ApiError, Json, _Params, bad_request


class _Delivery(_Part):
    """Updates to the bot: the queue, getUpdates and the webhook."""

    def _allowed(self, update: Json) -> bool:
        return any(key in self.api._allowed_updates for key in update if key != "update_id")

    def _push_update(self, /, **payload: Json) -> Json | None:
        update: Json = {"update_id": self.api._next_update_id, **payload}
        if not self._allowed(update):
            return None
        self.api._next_update_id += 1
        self.api._updates.append(update)
        self.api.feed.wake()
        self.api.feed.changed()
        return update

    def _confirm(self, offset: int) -> None:
        before = len(self.api._updates)
        self._drop_confirmed(offset)
        if len(self.api._updates) != before:
            self.api.feed.changed()

    def _drop_confirmed(self, offset: int) -> None:
        if offset < 0:
            keep = -offset
            while len(self.api._updates) > keep:
                self.api._updates.popleft()
            return
        while self.api._updates and self.api._updates[0]["update_id"] < offset:
            self.api._updates.popleft()

    def _set_allowed(self, params: _Params) -> None:
        allowed = params.json("allowed_updates")
        if isinstance(allowed, list):
            self.api._allowed_updates = frozenset(allowed) if allowed else DEFAULT_ALLOWED_UPDATES

    async def _api_getUpdates(self, params: _Params) -> list[Json]:
        async with self.api._lock:
            if self.api._webhook is not None:
                raise ApiError(
                    409,
                    "Conflict: can't use getUpdates method while webhook is active; "
                    "use deleteWebhook to delete the webhook first",
                )
            self._confirm(params.integer("offset", 0))
            self._set_allowed(params)
            self._end_polls(
                "Conflict: terminated by other getUpdates request; "
                "make sure that only one bot instance is running"
            )
            generation = self.api._poll_generation
        limit = min(max(params.integer("limit", 100), 1), 100)
        deadline = time.monotonic() + min(max(params.integer("timeout", 0), 0), 50)
        while True:
            if generation != self.api._poll_generation:
                raise ApiError(409, self.api._poll_ended_by)
            if self.api._updates or self.api._closed or time.monotonic() >= deadline:
                return list(self.api._updates)[:limit]
            await self.api.feed.wait_change(deadline - time.monotonic())

    def _end_polls(self, reason: str) -> None:
        """End every waiting getUpdates call with a 409 ``reason``."""
        self.api._poll_generation += 1
        self.api._poll_ended_by = reason
        self.api.feed.wake()

    async def _api_deleteWebhook(self, params: _Params) -> bool:
        self.api._webhook = None
        if params.boolean("drop_pending_updates"):
            self.api._updates.clear()
        self.api.feed.wake()
        return True

    async def _api_setWebhook(self, params: _Params) -> bool:
        url = params.text("url") or ""
        if not url:
            return await self._api_deleteWebhook(params)
        if not _is_webhook_url(url):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        secret = params.text("secret_token") or ""
        if not re.fullmatch(r"[A-Za-z0-9_-]{0,256}", secret):
            raise bad_request("secret token contains unallowed characters")
        if params.boolean("drop_pending_updates"):
            self.api._updates.clear()
        self._set_allowed(params)
        self.api._webhook = _Webhook(url, secret, params.integer("max_connections", 40))
        self._end_polls("Conflict: terminated by setWebhook request")
        if self.api._webhook_task is None or self.api._webhook_task.done():
            self.api._webhook_task = asyncio.create_task(self._deliver_webhook())
        self.api.feed.wake()
        return True

    async def _api_getWebhookInfo(self, params: _Params) -> Json:
        hook = self.api._webhook
        info: Json = {
            "url": hook.url if hook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self.api._updates),
        }
        if hook:
            info["max_connections"] = hook.max_connections
            info["allowed_updates"] = sorted(self.api._allowed_updates)
            if hook.last_error_date:
                info["last_error_date"] = hook.last_error_date
                info["last_error_message"] = hook.last_error_message
        return info

    async def _deliver_webhook(self) -> None:
        """POST pending updates to the webhook one by one, retrying failures."""
        failures = 0
        while not self.api._closed and self.api._webhook is not None:
            hook, update = self.api._webhook, self.api._updates[0] if self.api._updates else None
            if update is None:
                await self.api.feed.wait_change(5.0)
                continue
            error = await self._post_update(hook, update)
            async with self.api._lock:
                if error is None:
                    failures = 0
                    if self.api._updates and self.api._updates[0] is update:
                        self.api._updates.popleft()
                        self.api.feed.changed()
                    continue
                hook.last_error_date, hook.last_error_message = int(self.api.clock()), error
            delays = self.api.webhook_retry_delays or (1.0,)
            await self._wait_closed(delays[min(failures, len(delays) - 1)])
            failures += 1

    async def _wait_closed(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self.api._closed and time.monotonic() < deadline:
            await self.api.feed.wait_change(deadline - time.monotonic())

    async def _post_update(self, hook: _Webhook, update: Json) -> str | None:
        """Send one update; return None on a 2xx answer, else the error text."""
        if self.api._session is None:
            self.api._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        headers = (
            {"X-Telegram-Bot-Api-Secret-Token": hook.secret_token} if hook.secret_token else {}
        )
        try:
            async with self.api._session.post(hook.url, json=update, headers=headers) as response:
                if 200 <= response.status < 300:
                    return None
                return f"Wrong response from the webhook: {response.status} {response.reason}"
        except (aiohttp.ClientError, TimeoutError, OSError) as error:
            return f"Connection failed: {type(error).__name__}"
