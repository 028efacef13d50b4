"""The map's letters in the reader's language, with a legend, wherever a map with letters
is shown: the Map, a card, My cards, and the shared story's map.

The rules write a card's back ``D2 R3`` (Danger, Reward); an English reader sees those
letters, a Russian one ``О2 Н3`` (Опасность, Награда), each page with a legend saying
what they stand for.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from tests.support.stack import Stack, running_stack
from tests.webapp.test_nsu_app import ALICE, BO, fetch, start_table
from tests.webapp.test_story import call, get
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.db, pytest.mark.e2e, pytest.mark.backend_neutral]

LETTERS = {
    "en": {"back": ("D2", "R3"), "other": ("О2", "Н3"), "legend": "D: Danger · R: Reward."},
    "ru": {"back": ("О2", "Н3"), "other": ("D2", "R3"), "legend": "О — Опасность, Н — Награда."},
}


@pytest.fixture(params=["en", "ru"])
async def stack(request: pytest.FixtureRequest, db: str) -> Stack:  # type: ignore[misc]
    code = request.param
    cast = [replace(p, language_code=code) if p.id in (ALICE, BO) else p for p in default_cast()]
    async with running_stack(db, players=cast) as running:
        running.language = code  # type: ignore[attr-defined]
        yield running


def shown(html: str) -> str:
    """The page's text, without its tags, styles or scripts."""
    html = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


async def test_every_map_with_letters_uses_the_reader_s_letters_and_a_legend(
    stack: Stack,
) -> None:
    code = stack.language  # type: ignore[attr-defined]
    letters = LETTERS[code]
    danger, reward = letters["back"]
    token, _ = await start_table(stack)
    status, body = await call(stack, ALICE, token, "POST", {"action": "publish"})
    assert status == 200, body
    pages = {}
    for name, path in (("map", "/map"), ("card", "/map/a"), ("cards", "/cards")):
        status, raw = await fetch(stack, "GET", f"/app/c/{token}{path}", ALICE, token)
        assert status == 200, (name, raw)
        pages[name] = shown(raw.decode())
    status, story, _ = await get(body["url"], lang=code)
    assert status == 200
    pages["story"] = shown(story)

    for name, text in pages.items():
        assert danger in text and reward in text, (name, text)
        for foreign in letters["other"]:
            assert foreign not in text, (name, foreign)
    # Alice's own card, its back in her letters, the legend under her cards
    assert f"{danger} {reward}" in pages["cards"]
    for name in ("cards", "story"):
        assert letters["legend"] in pages[name], name
    assert letters["legend"].split(".")[0].split(",")[0] in pages["map"]
