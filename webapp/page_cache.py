"""Rendered Mini App pages kept compressed, keyed by what they were rendered from.

A key is (page, viewer, fingerprint of the rows read for this request): the
rows are read from the database on every request, after the viewer's initData
and membership are checked, so any change, made by any worker, changes the key
at once; a viewer's key never matches another viewer's page. Nothing here
needs telling about changes: stale entries are simply never asked for again
and fall out, least recently used first, past a memory budget.
"""

from __future__ import annotations

import gzip
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web

MAX_BYTES = 16 * 1024 * 1024
LEVEL = 6


@dataclass(frozen=True)
class Rendered:
    gzipped: bytes
    content_type: str


Key = tuple[str, int, str]


class PageCache:
    """A least-recently-used map of rendered pages under a byte budget."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._pages: OrderedDict[Key, Rendered] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._pages)

    def get_or_render(self, key: Key, render: Callable[[], tuple[str, str]]) -> Rendered:
        """The page under ``key``; ``render`` (text, content type) makes it when missing."""
        found = self._pages.get(key)
        if found is not None:
            self._pages.move_to_end(key)
            self.hits += 1
            return found
        self.misses += 1
        text, content_type = render()
        page = Rendered(gzip.compress(text.encode(), LEVEL, mtime=0), content_type)
        self._pages[key] = page
        self.size += len(page.gzipped)
        while self.size > self.max_bytes and self._pages:
            _, dropped = self._pages.popitem(last=False)
            self.size -= len(dropped.gzipped)
        return page


def accepts_gzip(request: web.Request) -> bool:
    """Whether the client takes gzip (and did not refuse it with q=0)."""
    for part in request.headers.get("Accept-Encoding", "").lower().split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip() in ("gzip", "*"):
            q = params.replace(" ", "")
            return q not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def respond(request: web.Request, page: Rendered) -> web.Response:
    """The page, compressed when the client takes it."""
    if accepts_gzip(request):
        return web.Response(
            body=page.gzipped,
            content_type=page.content_type,
            charset="utf-8",
            headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"},
        )
    return web.Response(
        body=gzip.decompress(page.gzipped),
        content_type=page.content_type,
        charset="utf-8",
        headers={"Vary": "Accept-Encoding"},
    )


PAGES = web.AppKey("page_cache", PageCache)
