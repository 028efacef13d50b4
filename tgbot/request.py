"""Bot API requests over aiohttp's client, which the process already runs for its server.

python-telegram-bot calls :meth:`AiohttpRequest.do_request` for every Bot API
call and maps the returned status and body to its errors itself (400, 403, 409,
429 with retry_after, ...). This class only moves bytes and turns transport
failures into ``TimedOut`` and ``NetworkError``, as PTB's own HTTPX request does.
Calls with files go as multipart forms; the others as a JSON object of the same
fields (the Bot API takes both alike; python-telegram-bot itself sent JSON up to
version 13), because encoding a form costs ten times as much.
"""

from __future__ import annotations

import asyncio
import json
import logging

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

log = logging.getLogger(__name__)

POOL_TIMEOUT_MESSAGE = (
    "Pool timeout: all connections to the Bot API are busy. The request was not sent."
)

_JSON = {"Content-Type": "application/json"}


def _pick(value: ODVInput[float], default: float | None) -> float | None:
    """The timeout a call asked for, or this request's default when it asked for none."""
    return default if isinstance(value, DefaultValue) else value


class AiohttpRequest(BaseRequest):
    """A :class:`~telegram.request.BaseRequest` on one :class:`aiohttp.ClientSession`.

    Args:
        connection_pool_size: the most requests in flight at once (and open connections).
        read_timeout: seconds to wait for data from the server.
        write_timeout: seconds to send a request. aiohttp has no separate write
            timeout, so it bounds the whole exchange together with the others
            (connect + write + read).
        connect_timeout: seconds to open a connection.
        pool_timeout: seconds to wait for a free slot when all are busy.
        media_write_timeout: the write timeout of requests that upload files.
    """

    __slots__ = (
        "_connect_timeout",
        "_media_write_timeout",
        "_pool_size",
        "_pool_timeout",
        "_read_timeout",
        "_session",
        "_slots",
        "_write_timeout",
    )

    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        if connection_pool_size < 1:
            raise ValueError("connection_pool_size must be at least 1")
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._session: aiohttp.ClientSession | None = None
        self._slots = asyncio.Semaphore(connection_pool_size)

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    @property
    def connection_pool_size(self) -> int:
        return self._pool_size

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._slots = asyncio.Semaphore(self._pool_size)  # bound to this event loop
            connector = aiohttp.TCPConnector(limit=self._pool_size)
            self._session = aiohttp.ClientSession(
                connector=connector, headers={"User-Agent": self.USER_AGENT}
            )

    async def shutdown(self) -> None:
        if self._session is None or self._session.closed:
            log.debug("This AiohttpRequest is already shut down.")
            return
        await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data is not None else None
        fields = request_data.json_parameters if request_data is not None else None
        body: aiohttp.FormData | bytes | None = None
        headers = None
        if files:
            form = aiohttp.FormData()
            for name, value in (fields or {}).items():
                form.add_field(name, value)
            for name, (filename, content, mime) in files.items():
                form.add_field(name, content, filename=filename, content_type=mime)
            body = form
        elif fields:
            # The same fields as a JSON object (which the Bot API accepts like a form):
            # encoding a form quotes byte by byte in Python, ten times the cost.
            body = json.dumps(fields).encode()
            headers = _JSON
        read = _pick(read_timeout, self._read_timeout)
        connect = _pick(connect_timeout, self._connect_timeout)
        write = _pick(write_timeout, self._media_write_timeout if files else self._write_timeout)
        parts = (connect, write, read)
        timeout = aiohttp.ClientTimeout(
            total=None if None in parts else sum(p for p in parts if p is not None),
            sock_connect=connect,
            sock_read=read,
        )
        await self._take_slot(_pick(pool_timeout, self._pool_timeout))
        try:
            async with session.request(
                method, url, data=body, headers=headers, timeout=timeout
            ) as response:
                return response.status, await response.read()
        except TimeoutError as error:
            raise TimedOut from error
        except aiohttp.ClientError as error:
            raise NetworkError(f"aiohttp.{error.__class__.__name__}: {error}") from error
        finally:
            self._slots.release()

    async def _take_slot(self, pool_timeout: float | None) -> None:
        """A free connection slot, waiting at most ``pool_timeout`` seconds."""
        if not self._slots.locked():
            await self._slots.acquire()  # free: returns at once
            return
        try:
            await asyncio.wait_for(self._slots.acquire(), pool_timeout)
        except TimeoutError:
            raise TimedOut(POOL_TIMEOUT_MESSAGE) from None
