"""The Mini App's CSS and JS: gzipped when the client takes it, versioned, nothing else."""

from __future__ import annotations

import gzip
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from webapp.assets import FOREVER, Assets

CSS = b"body { color: red; }\n" * 200


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[TestClient, Assets, Path]]:
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "app.css").write_bytes(CSS)
    (tmp_path / "secret.txt").write_text("not for you")
    assets = Assets(folder)
    app = web.Application()
    app.router.add_get("/static/{name}", assets.serve)
    async with TestClient(TestServer(app), auto_decompress=False) as client:
        yield client, assets, folder


async def test_a_file_is_sent_gzipped_only_to_clients_that_take_it(
    served: tuple[TestClient, Assets, Path],
) -> None:
    client, assets, _ = served
    url = assets.url("app.css")
    packed = await client.get(url, headers={"Accept-Encoding": "gzip, br"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert packed.content_type == "text/css"
    body = await packed.read()
    assert gzip.decompress(body) == CSS and len(body) < len(CSS) / 10
    plain = await client.get(url, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and await plain.read() == CSS


async def test_a_versioned_url_is_kept_for_good_and_an_edit_changes_the_version(
    served: tuple[TestClient, Assets, Path],
) -> None:
    client, assets, folder = served
    url = assets.url("app.css")
    response = await client.get(url)
    assert response.headers["Cache-Control"] == FOREVER
    etag = response.headers["ETag"]
    assert (await client.get(url, headers={"If-None-Match": etag})).status == 304
    assert (await client.get("/static/app.css")).headers["Cache-Control"] == "no-cache"
    path = folder / "app.css"
    path.write_bytes(b"body { color: blue; }")
    os.utime(path, ns=(1, 1))  # a different stamp even within the same clock tick
    assert assets.url("app.css") != url
    fresh = await client.get(assets.url("app.css"), headers={"Accept-Encoding": "identity"})
    assert await fresh.read() == b"body { color: blue; }"
    stale = await client.get(url, headers={"If-None-Match": etag})
    assert stale.status == 200 and stale.headers["Cache-Control"] == "no-cache"


@pytest.mark.parametrize(
    "path", ["/static/secret.txt", "/static/..%2Fsecret.txt", "/static/missing.js", "/static/"]
)
async def test_only_the_files_of_the_folder_are_served(
    served: tuple[TestClient, Assets, Path], path: str
) -> None:
    client, _, _ = served
    response = await client.get(path)
    assert response.status == 404
    assert b"not for you" not in await response.read()
