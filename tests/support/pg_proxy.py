"""A TCP proxy in front of PostgreSQL that can swallow the answer to one COMMIT.

Armed, the next ``COMMIT`` a client sends goes through to the server, which
commits; the server's answer never comes back, and a moment later the proxy cuts
both sides of that connection, as a network failure at the worst moment would.
With ``forward_commit`` False the COMMIT itself is lost: the server sees the
connection go and rolls the transaction back.
Every other byte passes through unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from tests.support.services import free_port


class CommitSwallowingProxy:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.armed = 0  # how many COMMIT answers to swallow still
        self.swallowed = 0
        self.forward_commit = True  # False: the COMMIT itself is lost (the server rolls back)
        self._server: asyncio.Server | None = None

    def url(self, database: str) -> str:
        return f"postgres://stonetable@127.0.0.1:{self.port}/{database}"

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        cut = asyncio.Event()

        async def upstream() -> None:
            while not cut.is_set():
                data = await client_r.read(65536)
                if not data:
                    break
                swallow = self.armed and data[:1] == b"Q" and b"COMMIT" in data.upper()
                if swallow:
                    self.armed -= 1
                    self.swallowed += 1
                    cut.set()  # the answer on its way back is dropped
                if swallow and not self.forward_commit:
                    break
                server_w.write(data)
                await server_w.drain()
                if swallow:
                    await asyncio.sleep(0.3)  # the server commits meanwhile
                    break

        async def downstream() -> None:
            while True:
                data = await server_r.read(65536)
                if not data or cut.is_set():
                    break
                client_w.write(data)
                await client_w.drain()

        tasks = [asyncio.create_task(upstream()), asyncio.create_task(downstream())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            if cut.is_set():
                await tasks[0]
        finally:
            for task in tasks:
                task.cancel()
            for writer in (client_w, server_w):
                writer.close()
                with contextlib.suppress(Exception):
                    await writer.wait_closed()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[CommitSwallowingProxy]:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        try:
            yield self
        finally:
            self._server.close()
            await self._server.wait_closed()
