"""The Mini App's own static files (CSS, JS), kept in memory and sent gzipped.

Each file's URL carries a hash of its content (``/static/app.css?v=...``), so a
client may keep it for good; a file edited on disk is read again (its size and
modification time are checked on each request). Only files that were in the
folder at start-up are served, by plain name: no paths.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

from webapp.page_cache import accepts_gzip

FOREVER = "public, max-age=31536000, immutable"


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes
    content_type: str
    version: str
    stamp: tuple[int, int]  # size and modification time, to notice an edit


class Assets:
    """Static files by name, read once and re-read when they change on disk."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._names = frozenset(p.name for p in folder.iterdir() if p.is_file())
        self._files: dict[str, Asset] = {}

    def get(self, name: str) -> Asset | None:
        if name not in self._names:
            return None
        path = self.folder / name
        try:
            stat = path.stat()
        except FileNotFoundError:
            return None
        stamp = (stat.st_size, stat.st_mtime_ns)
        found = self._files.get(name)
        if found is None or found.stamp != stamp:
            body = path.read_bytes()
            content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
            found = Asset(
                body,
                gzip.compress(body, 9, mtime=0),
                content_type,
                hashlib.sha256(body).hexdigest()[:16],
                stamp,
            )
            self._files[name] = found
        return found

    def url(self, name: str) -> str:
        """The file's URL with its content version.

        Raises:
            KeyError: no such file.
        """
        asset = self.get(name)
        if asset is None:
            raise KeyError(name)
        return f"/static/{name}?v={asset.version}"

    async def serve(self, request: web.Request) -> web.StreamResponse:
        asset = self.get(request.match_info["name"])
        if asset is None:
            raise web.HTTPNotFound()
        etag = f'"{asset.version}"'
        headers = {
            "ETag": etag,
            "Vary": "Accept-Encoding",
            "Cache-Control": FOREVER if request.query.get("v") == asset.version else "no-cache",
        }
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers=headers)
        body = asset.body
        if accepts_gzip(request) and len(asset.gzipped) < len(asset.body):
            body = asset.gzipped
            headers["Content-Encoding"] = "gzip"
        return web.Response(body=body, content_type=asset.content_type, headers=headers)


ASSETS = web.AppKey("assets", Assets)
