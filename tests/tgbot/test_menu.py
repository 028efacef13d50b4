"""The command menu of every game: its own commands first, and no /newgame while it runs."""

from __future__ import annotations

import pytest

from core.words.i18n import lang_for
from tgbot.app import command_specs
from tgbot.menu import group_menu, private_menu

GAMES = ("nsu", "threat", "cortex", "d20")


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game", GAMES)
def test_a_running_games_commands_come_first_and_newgame_goes(game: str, lang: str) -> None:
    specs = command_specs()
    own = [s.name for s in specs if s.group and s.game == game]
    assert own, game
    menu = [c.command for c in group_menu(specs, game, lang_for(lang))]
    assert menu[: len(own)] == own  # above the twelve general ones
    assert "newgame" not in menu
    assert {"help", "status", "endgame", "undo"} <= set(menu[len(own) :])
    idle = [c.command for c in group_menu(specs, None, lang_for(lang))]
    assert "newgame" in idle and not set(own) & set(idle)


@pytest.mark.parametrize("game", GAMES)
def test_a_players_private_menu_lists_their_games_first(game: str) -> None:
    specs = command_specs()
    own = [s.name for s in specs if s.private and s.game == game]
    menu = [c.command for c in private_menu(specs, (game,))]
    assert menu[: len(own)] == own
    assert set(menu[len(own) :]) == {c.command for c in private_menu(specs)}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_group_without_a_game_lists_only_what_can_be_done_there(lang: str) -> None:
    specs = command_specs()
    idle = [c.command for c in group_menu(specs, None, lang_for(lang))]
    assert idle == ["help", "roll", "rolls", "sroll", "save", "saved", "system", "sheet", "newgame"]
    ended = [c.command for c in group_menu(specs, None, lang_for(lang), ended=True)]
    assert ended == [*idle, "resume"]  # a game that ended here may come back
    for game in GAMES:  # every one of them is in a running game's menu too, but /newgame
        playing = {c.command for c in group_menu(specs, game, lang_for(lang))}
        assert set(ended) - {"newgame"} <= playing
        assert {"join", "leave", "status", "pause", "endgame", "undo", "story"} <= playing
