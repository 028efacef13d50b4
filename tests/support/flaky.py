"""A proxy before the local Bot API server whose chosen calls are lost on the way.

``running_stack(..., through=flaky)``: every call goes through; a call armed with
:meth:`Flaky.lose` (a method, and words its body holds) is answered ``502 Bad Gateway``
instead, as a network fault between the bot and Telegram is (python-telegram-bot raises
``NetworkError``), and never reaches the server, so nothing it asked for happens.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import aiohttp
from aiohttp import web

from tests.support.bot_api import serve_app


@dataclass
class _Loss:
    method: str
    holding: bytes
    times: int


class Flaky:
    """The proxy; ``lost``: the methods of the calls it lost, in order; ``calls``: every
    method that reached the server, in order."""

    def __init__(self) -> None:
        self.losses: list[_Loss] = []
        self.lost: list[str] = []
        self.calls: list[str] = []

    def lose(self, method: str, holding: str = "", times: int = 1) -> None:
        """Lose the next ``times`` calls of ``method`` whose body holds ``holding``."""
        self.losses.append(_Loss(method.lower(), holding.encode(), times))

    def _losing(self, method: str, body: bytes) -> bool:
        for loss in self.losses:
            if loss.times > 0 and loss.method == method and loss.holding in body:
                loss.times -= 1
                return True
        return False

    @asynccontextmanager
    async def __call__(self, target: str) -> AsyncIterator[str]:
        async def forward(request: web.Request) -> web.Response:
            method = request.match_info["method"].lower()
            body = await request.read()
            if self._losing(method, body):
                self.lost.append(method)
                return web.json_response(
                    {"ok": False, "error_code": 502, "description": "Bad Gateway"}, status=502
                )
            self.calls.append(method)
            headers = {"Content-Type": request.headers.get("Content-Type", "")}
            async with (
                aiohttp.ClientSession() as http,
                http.post(
                    f"{target}/{request.match_info['path']}/{request.match_info['method']}",
                    data=body,
                    headers=headers,
                ) as response,
            ):
                return web.Response(
                    body=await response.read(),
                    status=response.status,
                    content_type="application/json",
                )

        app = web.Application()
        app.router.add_post("/{path}/{method}", forward)
        async with serve_app(app) as origin:
            yield origin
