"""No dead ends: each answer says what is true and what the player can do next.

Through the local Bot API server: a game command where no game runs (none started, or
the game ended), a game's command sent in private by someone in no game of it, /join
sent in a private chat, in English and in Russian.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.store.models import Campaign
from tests.support.nsu_bot import ALICE, BO, CHIDI
from tests.support.stack import GROUP, Stack, running_stack
from tests.tgbot.test_e2e_threat import say, tap
from tgbot.app import command_specs
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]


@pytest.fixture(params=["en", "ru"])
async def stack(request: pytest.FixtureRequest, db: str) -> Stack:  # type: ignore[misc]
    cast = [replace(p, language_code=request.param) for p in default_cast()]
    async with running_stack(db, players=cast) as running:
        running.language = request.param  # type: ignore[attr-defined]
        yield running


WORDS = {
    "en": {
        "no game": "No game is running in this chat. Start one with /newgame.",
        "join here": "Games are joined in their group: send /join in the group",
        "ended": "This game has ended. The host can bring it back with /resume",
        "end": "🏁 End the game",
        "no game yet": "You aren't in a {game} game yet. To start one, add me to a group and "
        "send /newgame there; to join one, send /join in its group.",
        "cortex": "Cortex drama",
        "nsu": "No Stone Unturned",
        "d20": "d20 checks",
        "threat": "Threat dice",
    },
    "ru": {
        "no game": "В этом чате сейчас нет игры. Начните её командой /newgame.",
        "join here": "К игре присоединяются в её группе: отправьте /join в группе",
        "ended": "Эта игра завершена. Организатор может вернуть её командой /resume",
        "end": "🏁 Завершить игру",
        "no game yet": "Вы пока не участвуете ни в одной игре «{game}». Чтобы начать игру, "
        "добавьте меня в группу и отправьте там /newgame; чтобы присоединиться, "
        "отправьте /join в группе игры.",
        "cortex": "Драма Cortex",
        "nsu": "No Stone Unturned",
        "d20": "Проверки d20",
        "threat": "Кубики Угрозы",
    },
}


async def test_a_game_command_where_no_game_runs_says_so(stack: Stack) -> None:
    words = WORDS[stack.language]  # type: ignore[attr-defined]
    for command in ("/act I climb the tower", "/check dc15", "/threat", "/downtime"):
        assert words["no game"] in (await say(stack, ALICE, command))["text"], command


# what a player types after each game's command (an empty one shows a help text)
ARGUMENTS = {
    "trait": "value Justice d8",
    "feature": "Fog",
    "check": "dc15",
    "act": "I climb",
    "threat": "3d2t",
}


async def test_a_games_command_in_private_says_there_is_no_such_game_yet(stack: Stack) -> None:
    """Every command of a game, sent in private by a player in no game of it, says there is
    none yet and how to start or join one, never to use it "where your game runs"."""
    words = WORDS[stack.language]  # type: ignore[attr-defined]
    await stack.api.start_bot(BO)
    await stack.api.wait_for_message(BO, lambda m: "Stonetable" in m.get("text", ""), 10)
    # /odds needs no game: without one it works out any dice's odds
    games = [spec for spec in command_specs() if spec.game is not None and spec.name != "odds"]
    assert {spec.game for spec in games} == {"cortex", "nsu", "d20", "threat"}
    for spec in games:
        said = words["no game yet"].format(game=words[str(spec.game)])
        await stack.api.send_text(BO, BO, f"/{spec.name} {ARGUMENTS.get(spec.name, '')}".strip())
        answer = await stack.api.wait_for_message(BO, timeout=10)
        assert said in answer["text"], (spec.name, answer["text"])


async def test_join_in_a_private_chat_says_where_to_join(stack: Stack) -> None:
    words = WORDS[stack.language]  # type: ignore[attr-defined]
    await stack.api.start_bot(BO)
    await stack.api.send_text(BO, BO, "/join")
    answer = await stack.api.wait_for_message(
        BO, lambda m: words["join here"][:20] in m.get("text", ""), 10
    )
    assert words["join here"] in answer["text"], answer["text"]
    assert "/newgame" not in answer["text"]  # no game is started in a private chat


async def test_after_a_game_ends_its_commands_say_no_game_runs(stack: Stack) -> None:
    """An ended game's panels lose their buttons (an old press is refused in core:
    tests/core/campaigns/test_campaigns.py); its commands say what is true and what to do."""
    words = WORDS[stack.language]  # type: ignore[attr-defined]
    await say(stack, ALICE, "/newgame nsu")
    for user in (BO, CHIDI):
        await say(stack, user, "/join")
    campaign = await Campaign.get(chat__tg_id=GROUP)
    await stack.api.send_text(ALICE, GROUP, "/endgame")
    question = await stack.api.wait_for_message(GROUP, lambda m: words["end"] in str(m), 10)
    answer, _ = await tap(stack, ALICE, question, words["end"])
    assert not answer["text"]
    assert (await Campaign.get(id=campaign.id)).live_chat_id is None
    assert words["no game"] in (await say(stack, BO, "/act I climb"))["text"]
