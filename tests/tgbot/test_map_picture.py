"""The /map picture: golden images at the sizes Telegram shows, its caption, no secrets.

Golden images: each sample map is drawn, scaled to 360 pixels wide (a phone's chat)
and 800 pixels wide (a desktop chat) the way clients scale photos, and compared
with the PNGs in ``tests/tgbot/golden/`` with a small tolerance for font
rasterising differences. A mismatch saves the picture drawn and a difference
image under ``artifacts/golden/``.

To regenerate the golden images after an intended change of the picture, look at
the new pictures, then run::

    STONETABLE_UPDATE_GOLDEN=1 .venv/bin/pytest tests/tgbot/test_map_picture.py

Fonts: DejaVu Sans from Debian's fonts-dejavu-core (CI installs it).
"""

from __future__ import annotations

import io
import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from core.rules.nsu.adventure_panel import public_map
from core.rules.nsu.world import CardView, DangerLevel, MapView, RewardLevel
from core.rules.table import Table
from core.words.i18n import lang_for
from tests.core.rules.nsu.table_support import Harness, build_world
from tests.support.services import unavailable
from tgbot.render.nsu_map import FONT_DIR, map_caption, map_png

GOLDEN = Path(__file__).parent / "golden"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "golden"
WIDTHS = (360, 800)
TITLE = "No Stone Unturned: the map"


def down(n: int, danger: int | None, reward: int | None) -> CardView:
    return CardView(
        f"L{n}",
        None if danger is None else DangerLevel(danger),
        None if reward is None else RewardLevel(reward),
        revealed=False,
        face_visible=False,
    )


def up(n: int, danger: int, reward: int, title: str, ticks: int) -> CardView:
    return CardView(
        f"L{n}",
        DangerLevel(danger),
        RewardLevel(reward),
        revealed=True,
        face_visible=True,
        title=title,
        clock_ticks=ticks,
    )


SAMPLES: dict[str, MapView] = {
    # Three wide: the party on a revealed card, home on the map, an empty cell.
    "three-wide": MapView(
        rows=(
            (down(1, 3, 2), up(2, 1, 4, "The Drowned Chapel of Saint Ives", 3), down(3, 4, 1)),
            (None, up(4, 2, 2, "Mill", 0), down(5, 2, 3)),
            (down(6, 1, 1), down(7, 4, 4), None),
        ),
        current="L2",
        reachable=("L1", "L3", "L4", "L5"),
        home=(1, 0),
    ),
    # Five wide, all face down, the party at home at the edge of the map.
    "home-at-the-edge": MapView(
        rows=(
            (down(1, 3, 2), down(2, 1, 4), down(3, 4, 1), down(4, 2, 2), down(5, 2, 3)),
            (down(6, 1, 1), down(7, 4, 4), down(8, 3, 3), None, down(9, 1, 2)),
        ),
        current=None,
        reachable=tuple(f"L{n}" for n in range(1, 10)),
        home=None,
    ),
    # The widest map: ten cards in a row.
    "ten-wide": MapView(
        rows=(
            tuple(
                up(n, n % 4 + 1, (n + 1) % 4 + 1, "Old Tower of the North Wind", n % 9)
                if n % 3 == 0
                else down(n, n % 4 + 1, (n + 2) % 4 + 1)
                for n in range(1, 11)
            ),
        ),
        current="L3",
        reachable=("L2", "L4"),
        home=None,
    ),
    # The party at home on the map; a full clock; Danger and Reward not rolled yet.
    "at-home-on-the-map": MapView(
        rows=(
            (up(1, 4, 3, "Glass Orchard", 8), None),
            (down(2, None, None), down(3, 2, 1)),
        ),
        current=None,
        reachable=("L1", "L3"),
        home=(0, 1),
    ),
}


def _require_fonts() -> None:
    if not (FONT_DIR / "DejaVuSans.ttf").exists():
        unavailable(f"DejaVu Sans is not installed in {FONT_DIR} (fonts-dejavu-core)")


def scaled(picture: bytes, width: int) -> Image.Image:
    image = Image.open(io.BytesIO(picture)).convert("RGB")
    height = round(image.height * width / image.width)
    return image.resize((width, height), Image.Resampling.LANCZOS)


BLOCK = 8  # pixels: about one letter at 360 pixels wide
MAX_BLOCK_DIFFERENCE = 24  # of 255, averaged over a block


def differs(drawn: Image.Image, golden: Image.Image) -> str | None:
    """Why two pictures differ beyond rasterising noise, or None.

    Noise (anti-aliasing, a font hinted a little differently) spreads thinly; a
    changed letter, colour or outline concentrates in a block. So the test is the
    mean difference over every 8x8 block, and the worst block must stay small.
    """
    if drawn.size != golden.size:
        return f"size {drawn.size} != {golden.size}"
    diff = ImageChops.difference(drawn, golden).convert("L").reduce(BLOCK)
    blocks = diff.tobytes()
    worst = max(blocks)
    if worst > MAX_BLOCK_DIFFERENCE:
        index = blocks.index(worst)
        x, y = index % diff.width * BLOCK, index // diff.width * BLOCK
        return f"the block at ({x}, {y}) differs by {worst} (at most {MAX_BLOCK_DIFFERENCE})"
    return None


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_map_picture_matches_its_golden_image(name: str, width: int) -> None:
    _require_fonts()
    drawn = scaled(map_png(SAMPLES[name], TITLE), width)
    path = GOLDEN / f"map-{name}-{width}.png"
    if os.environ.get("STONETABLE_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        drawn.save(path, optimize=True)
    golden = Image.open(path).convert("RGB")
    problem = differs(drawn, golden)
    if problem is not None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        drawn.save(ARTIFACTS / path.name)
        ImageChops.difference(drawn, golden).save(ARTIFACTS / f"diff-{path.name}")
        pytest.fail(f"{path.name}: {problem}; see {ARTIFACTS}")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_map_picture_in_russian_matches_its_golden_image(width: int) -> None:
    """The picture is drawn for a language: the legend, Home, HERE and the status line."""
    _require_fonts()
    ru = lang_for("ru")
    drawn = scaled(map_png(SAMPLES["three-wide"], None, ru), width)
    path = GOLDEN / f"map-three-wide-ru-{width}.png"
    if os.environ.get("STONETABLE_UPDATE_GOLDEN") == "1":
        drawn.save(path, optimize=True)
    problem = differs(drawn, Image.open(path).convert("RGB"))
    if problem is not None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        drawn.save(ARTIFACTS / path.name)
        pytest.fail(f"{path.name}: {problem}; see {ARTIFACTS}")
    english = Image.open(GOLDEN / f"map-three-wide-{width}.png").convert("RGB")
    assert differs(scaled(map_png(SAMPLES["three-wide"], TITLE, ru), width), english) is not None
    caption = map_caption(SAMPLES["three-wide"], ru)
    assert "Часы последствий (круг)" in caption and "Л2, The Drowned Chapel" in caption


def test_the_comparison_notices_a_changed_picture() -> None:
    """The tolerance lets font noise through, not a card with other numbers."""
    _require_fonts()
    view = SAMPLES["three-wide"]
    changed = replace(view, rows=((down(1, 1, 2), *view.rows[0][1:]), *view.rows[1:]))
    for width in WIDTHS:
        golden = scaled(map_png(view, TITLE), width)
        assert differs(scaled(map_png(view, TITLE), width), golden) is None
        resampled = Image.open(io.BytesIO(map_png(view, TITLE))).convert("RGB")
        noisy = resampled.resize(golden.size, Image.Resampling.BICUBIC)
        assert differs(noisy, golden) is None  # other scaling, same picture
        assert differs(scaled(map_png(changed, TITLE), width), golden) is not None
        moved = replace(view, current="L4")
        assert differs(scaled(map_png(moved, TITLE), width), golden) is not None


def test_the_picture_is_phone_sized_whatever_the_width_of_the_map() -> None:
    for view in SAMPLES.values():
        image = Image.open(io.BytesIO(map_png(view, TITLE)))
        assert image.format == "PNG" and image.width == 1080
        assert image.height <= 4 * image.width  # Telegram shows it without cropping


def test_the_caption_says_what_the_picture_shows() -> None:
    three = map_caption(SAMPLES["three-wide"])
    assert "outlined in blue" in three and "red" not in three.split("Danger (D, red)")[1]
    assert "The party is at L2, The Drowned Chapel of Saint Ives" in three
    assert "hatched" in three and "Collateral Clock (the pie)" in three
    assert "Green outlines mark where it can go next." in three
    edge = map_caption(SAMPLES["home-at-the-edge"])
    assert "The party is at home" in edge
    assert "Revealed" not in edge and "pie" not in edge
    home = map_caption(replace(SAMPLES["at-home-on-the-map"], reachable=()))
    assert "Green" not in home and "The party is at home" in home
    for view in SAMPLES.values():
        assert len(map_caption(view)) <= 1024


# ------------------------------------------------------------------ nothing secret


def _with_secret_faces(state: Any, words: list[str]) -> Any:
    """The campaign state with every face-down card's secret face rewritten."""
    state = json.loads(json.dumps(state))
    for card in state["world"]["cards"]:
        if not card["revealed"]:
            for i, key in enumerate(("title", "description", "danger_type", "treasure_type")):
                card[key] = words[i % len(words)]
            card["clock"] = len(words) % 9
            card["scouted_by"] = [card["author_id"]]
    return state


@pytest.fixture(scope="module")
def dealt() -> Table:
    harness = Harness()
    build_world(harness)
    return harness.table()


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=4))
def test_the_group_picture_shows_nothing_of_a_face_down_card_but_its_back(
    dealt: Table, words: list[str]
) -> None:
    secret = replace(dealt, state=_with_secret_faces(dealt.state, words))
    assert map_png(public_map(secret), TITLE) == map_png(public_map(dealt), TITLE)
    assert map_caption(public_map(secret)) == map_caption(public_map(dealt))
