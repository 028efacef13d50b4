"""One manifest: everything about a game is found from the registry by its key."""

from __future__ import annotations

import importlib

import pytest

from core.rules.registry import default_registry
from tgbot.app import COMMON_FEATURES, feature_modules, renderers
from webapp.sheets import sheet_pages

SYSTEMS = list(default_registry())


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.key)
def test_every_panel_kind_of_every_game_has_a_renderer(system: object) -> None:
    found = renderers()
    for kind in system.panels:  # type: ignore[attr-defined]
        assert kind in found, kind
        assert found[kind].kind == kind


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.key)
def test_every_game_has_a_sheet_page_and_a_bot_feature(system: object) -> None:
    key = system.key  # type: ignore[attr-defined]
    assert sheet_pages()[key].key == key
    feature = importlib.import_module(f"tgbot.features.{key}")
    assert f"tgbot.features.{key}" in feature_modules()
    assert feature.handlers()


def test_features_are_the_common_ones_then_each_games_once() -> None:
    names = feature_modules()
    assert names[: len(COMMON_FEATURES)] == COMMON_FEATURES
    assert len(names) == len(set(names))
    assert "tgbot.features.nsu_play" in names  # a game may bring more modules of its own
