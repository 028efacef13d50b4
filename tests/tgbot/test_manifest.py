"""One manifest: everything about a game is found from the registry by its key."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from core.rules.dicesystem import ROLL_PANEL as LIBRARY_ROLL
from core.rules.registry import SYSTEM_MODULES, Registry, default_registry
from tests.support.stack import GROUP, running_stack
from tgbot.app import COMMON_FEATURES, command_specs, feature_modules, renderers
from tgbot.sandbox.fake_api import default_cast
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
    own = system.feature_modules[0]  # type: ignore[attr-defined]
    feature = importlib.import_module(own)
    assert own in feature_modules()
    assert feature.handlers() or feature.RENDERERS  # a library game: its roll's renderer


def test_features_are_the_common_ones_then_each_games_once() -> None:
    names = feature_modules()
    assert names[: len(COMMON_FEATURES)] == COMMON_FEATURES
    assert len(names) == len(set(names))
    assert "tgbot.features.nsu_play" in names  # a game may bring more modules of its own


# A fifth game: its own package (tests/support/counter_system.py: its rules, and the
# bot feature, renderer and sheet page its manifest names) and one line of the registry.
FIFTH = "tests.support.counter_system"


def fifth_game_registry() -> Registry:
    return default_registry((*SYSTEM_MODULES, FIFTH))  # the one line


def test_a_fifth_game_is_found_from_its_manifest_alone() -> None:
    registry = fifth_game_registry()
    assert registry.find("counter").feature_modules == (FIFTH,)
    assert FIFTH in feature_modules(registry)
    assert FIFTH not in feature_modules()  # not registered: not there
    assert renderers(registry)["count"].kind == "count"
    assert sheet_pages(registry=registry)["counter"].key == "counter"
    assert [s.name for s in command_specs(registry) if s.game == "counter"] == ["count"]
    for system in default_registry():  # the four games name their edges the same way
        generated = system.roll_panel == LIBRARY_ROLL  # the library's: one module for all
        own = "dicesystem" if generated else system.key
        assert system.feature_modules[0] == f"tgbot.features.{own}"
        assert sheet_pages()[system.key].key == system.key


@pytest.mark.e2e
@pytest.mark.db
async def test_a_fifth_game_is_played_with_nothing_else_added(db: str) -> None:
    async with running_stack(db, registry=fifth_game_registry(), players=default_cast()) as stack:
        host = stack.players[0]

        async def say(text: str) -> dict[str, Any]:
            await stack.api.send_text(host, GROUP, text)
            return await stack.api.wait_for_message(GROUP, timeout=10)

        assert "started a game of Counter" in (await say("/newgame counter"))["text"]
        panel = await say("/count 2")
        assert panel["text"] == "Count: 0/2"
        data = panel["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
        press = await stack.api.press_button(host, GROUP, panel["message_id"], data)
        assert not (await press.answered(10))["text"]
        edited = await stack.api.wait_for_message(
            GROUP, lambda m: m["message_id"] == panel["message_id"], timeout=10
        )
        assert edited["text"] == "Count: 1/2"
        help_text = (await say("/help"))["text"]
        assert "/count" in help_text or "Counter" in help_text
