"""A TCP proxy in front of PostgreSQL that can swallow the answer to a COMMIT.

It reads the client's side of the wire protocol message by message (the untyped
SSL request and startup message first, then typed messages). Once armed, the next
simple-query ``COMMIT`` it sees is passed to PostgreSQL, which commits; PostgreSQL's
answer is dropped and, a moment later, the connection closed, as when a network fails
at that moment: the client cannot tell whether its transaction committed. With
``forward_commit`` False the COMMIT itself is lost: PostgreSQL sees the connection go
and rolls the transaction back. Every other message passes through unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct

SSL_REQUEST = 80877103
GSS_REQUEST = 80877104


class CommitSwallower:
    """``async with CommitSwallower(pg_port) as proxy``: clients connect to ``proxy.port``."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.armed = 0  # how many COMMIT answers to swallow still
        self.forward_commit = True  # False: the COMMIT itself is lost (the server rolls back)
        self.count = 0  # COMMIT answers swallowed so far
        self.swallowed = asyncio.Event()  # set at each one
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    def url(self, database: str) -> str:
        return f"postgres://stonetable@127.0.0.1:{self.port}/{database}"

    async def __aenter__(self) -> CommitSwallower:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self._server.wait_closed()

    def arm(self, times: int = 1, *, forward_commit: bool = True) -> None:
        """Swallow the answers to the next ``times`` COMMITs (or, not forwarded, the COMMITs)."""
        self.swallowed.clear()
        self.armed, self.forward_commit = times, forward_commit

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        cut = asyncio.Event()
        back = asyncio.create_task(self._back(up_reader, writer, cut))
        self._tasks.add(back)
        back.add_done_callback(self._tasks.discard)
        try:
            started = False
            while not started:  # untyped messages: SSL/GSS requests, then the startup
                head = await reader.readexactly(4)
                (length,) = struct.unpack("!I", head)
                body = await reader.readexactly(length - 4)
                up_writer.write(head + body)
                await up_writer.drain()
                code = struct.unpack("!I", body[:4])[0] if len(body) >= 4 else 0
                started = code not in (SSL_REQUEST, GSS_REQUEST)
            while True:
                kind = await reader.readexactly(1)
                head = await reader.readexactly(4)
                (length,) = struct.unpack("!I", head)
                body = await reader.readexactly(length - 4)
                commit = kind == b"Q" and body.lstrip().upper().startswith(b"COMMIT")
                if commit and self.armed:
                    self.armed -= 1
                    cut.set()  # from now on PostgreSQL's answers are dropped
                    if self.forward_commit:
                        up_writer.write(kind + head + body)
                        await up_writer.drain()
                        await asyncio.sleep(0.5)  # PostgreSQL commits and answers, unheard
                    self.count += 1
                    self.swallowed.set()
                    break
                up_writer.write(kind + head + body)
                await up_writer.drain()
        except (asyncio.IncompleteReadError, OSError):
            pass
        finally:
            for w in (writer, up_writer):
                w.close()
            back.cancel()

    @staticmethod
    async def _back(
        up_reader: asyncio.StreamReader, writer: asyncio.StreamWriter, cut: asyncio.Event
    ) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await up_reader.read(65536):
                if cut.is_set():
                    continue
                writer.write(data)
                await writer.drain()
            # PostgreSQL closed its side (after a Terminate): so does the proxy, at once,
            # or the client would wait for the close its Terminate asked for.
            writer.close()
