"""Live updates: a text/event-stream of "changed" notices for one campaign.

The stream is opened with ``fetch`` and the same ``Authorization: tma <initData>``
header as every other call (no initData in URLs, no tickets to mint). A notice
carries no data; the page fetches its fragment again, authorised as usual.
Membership is checked when the stream opens and again before each notice, and
the stream ends when the initData it was opened with grows too old.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from aiohttp import web

from core.rules.errors import NotAllowedNow, StonetableError
from core.runtime.events import Subscription
from core.views.viewer_pages import snapshot_for_viewer
from webapp.auth import InitDataInvalid
from webapp.deps import DEPS
from webapp.errors import message_of
from webapp.i18n import request_lang
from webapp.views import authenticate

PING_SECONDS = 15.0


@dataclass
class Streams:
    """The open streams of this server, ended together at shutdown."""

    open: set[Subscription] = field(default_factory=set)
    closing: asyncio.Event = field(default_factory=asyncio.Event)


STREAMS = web.AppKey("live_streams", Streams)


async def api_events(request: web.Request) -> web.StreamResponse:
    deps = request.app[DEPS]
    token = request.match_info["token"]
    try:
        init = authenticate(request)
        viewer = init.user.id
        snapshot = await snapshot_for_viewer(deps.campaigns.registry, token, viewer)
    except InitDataInvalid:
        return web.json_response({"error": "unauthorized"}, status=401)
    except NotAllowedNow as error:  # in the viewer's language, like every other answer
        return web.json_response({"error": message_of(error, request_lang(request))}, status=403)
    except StonetableError as error:
        return web.json_response({"error": message_of(error, request_lang(request))}, status=503)
    expires = init.auth_date + deps.initdata_max_age
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",
        }
    )
    await response.prepare(request)
    try:
        async with deps.campaigns.events.subscribe(snapshot.campaign_id) as subscription:
            request.app[STREAMS].open.add(subscription)
            try:
                await _stream(request, response, subscription, (token, viewer), expires)
            finally:
                request.app[STREAMS].open.discard(subscription)
    except ConnectionResetError:
        pass  # the page went away
    return response


async def _stream(
    request: web.Request,
    response: web.StreamResponse,
    subscription: Subscription,
    who: tuple[str, int],
    expires: float,
) -> None:
    """Send a notice per change until the page leaves, membership ends or initData expires."""
    deps = request.app[DEPS]
    closing = request.app[STREAMS].closing
    token, viewer = who
    await response.write(b"retry: 2000\nevent: ready\ndata: {}\n\n")
    while not closing.is_set() and deps.clock() < expires:
        if not await subscription.wait(min(PING_SECONDS, max(expires - deps.clock(), 0.1))):
            await response.write(b": ping\n\n")
            continue
        if closing.is_set():
            break
        try:
            await snapshot_for_viewer(deps.campaigns.registry, token, viewer)
        except NotAllowedNow:
            break
        except StonetableError:
            continue
        await response.write(b"event: changed\ndata: {}\n\n")


async def _close_streams(app: web.Application) -> None:
    app[STREAMS].closing.set()
    for subscription in list(app[STREAMS].open):
        subscription.notify()


def setup_live(app: web.Application) -> None:
    """Add the events route and end open streams when the server shuts down."""
    app[STREAMS] = Streams()
    app.on_shutdown.append(_close_streams)
    app.router.add_get("/api/c/{token}/events", api_events)
