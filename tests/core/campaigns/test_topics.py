"""Games per forum topic: one live game per (chat, topic), members and ends apart."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from core.campaigns import Campaigns
from core.campaigns.languages import LiveGame, chat_language, live_game
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.campaigns.topics import first_refusal, pause_with_topic, remember_topic, topic_name
from core.rules.errors import NotAllowedNow
from core.rules.rng import SeededRng
from core.runtime.locks import InProcessKeyedLock
from core.store.models import CampaignStatus
from tests.support.counter_system import counter_registry

pytestmark = pytest.mark.db

FORUM = ChatRef(-100555, "supergroup", "Friday Games")
A, B = replace(FORUM, topic=11), replace(FORUM, topic=12)
HOST, BEN, CY = PlayerRef(1, "Hana"), PlayerRef(2, "Ben"), PlayerRef(3, "Cy")


@pytest.fixture
def campaigns() -> Campaigns:
    return Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock(5, 2))


async def test_two_topics_start_games_at_once_but_one_topic_holds_one(
    db: str, campaigns: Campaigns
) -> None:
    game_a, game_b, general = await asyncio.gather(
        campaigns.new_game(A, HOST, "counter"),
        campaigns.new_game(B, BEN, "counter"),
        campaigns.new_game(FORUM, CY, "counter"),
    )
    assert len({game_a.id, game_b.id, general.id}) == 3
    assert (game_a.topic_id, game_b.topic_id, general.topic_id) == (11, 12, 0)
    assert (game_a.thread, general.thread) == (11, None)
    results = await asyncio.gather(
        campaigns.new_game(A, BEN, "counter"),
        campaigns.new_game(A, CY, "counter"),
        return_exceptions=True,
    )
    assert all(isinstance(r, NotAllowedNow) for r in results)

    # members, lookups and ends are per topic
    play = Play(SeededRng(1), campaigns.locks, lambda: 0.0)
    await play.mark_started(CY)
    await campaigns.join(A, CY)
    assert {m.player_id for m in (await campaigns.require_current(*_at(A))).members} == {1, 3}
    assert {m.player_id for m in (await campaigns.require_current(*_at(B))).members} == {2}
    await campaigns.set_status(B, BEN, CampaignStatus.ARCHIVED)
    assert await campaigns.current(*_at(B)) is None
    assert (await campaigns.require_current(*_at(A))).id == game_a.id
    assert (await campaigns.last_ended(*_at(B))) is not None
    assert (await campaigns.last_ended(*_at(A))) is None


def _at(chat: ChatRef) -> tuple[int, int]:
    return chat.tg_id, chat.topic


async def test_a_closed_topic_pauses_only_a_running_game_and_reopening_resumes_it(
    db: str, campaigns: Campaigns
) -> None:
    game = await campaigns.new_game(A, HOST, "counter")
    assert await pause_with_topic(FORUM.tg_id, 11, paused=True) == game.id
    assert (await campaigns.require_current(*_at(A))).status is CampaignStatus.PAUSED
    assert await pause_with_topic(FORUM.tg_id, 11, paused=False) == game.id
    assert (await campaigns.require_current(*_at(A))).status is CampaignStatus.ACTIVE

    # a game its host paused stays paused when its topic closes and reopens
    await campaigns.set_status(A, HOST, CampaignStatus.PAUSED)
    assert await pause_with_topic(FORUM.tg_id, 11, paused=True) is None
    assert await pause_with_topic(FORUM.tg_id, 11, paused=False) is None
    assert (await campaigns.require_current(*_at(A))).status is CampaignStatus.PAUSED
    assert await pause_with_topic(FORUM.tg_id, 99, paused=True) is None  # no game there


async def test_topic_names_and_the_one_refusal_notice(db: str, campaigns: Campaigns) -> None:
    await remember_topic(FORUM.tg_id, 11, name="Campaign A")
    await remember_topic(FORUM.tg_id, 11, name="Campaign A, the moors")
    assert await topic_name(FORUM.tg_id, 11) == "Campaign A, the moors"
    assert await topic_name(FORUM.tg_id, 0) == "" and await topic_name(FORUM.tg_id, 5) == ""
    game = await campaigns.new_game(A, HOST, "counter")
    assert game.chat_title == "Friday Games › Campaign A, the moors"

    assert await first_refusal(FORUM.tg_id, 11)
    assert not await first_refusal(FORUM.tg_id, 11)  # said once
    await remember_topic(FORUM.tg_id, 11, closed=True)
    await remember_topic(FORUM.tg_id, 11, closed=False)  # reopened: it may be said again
    assert await first_refusal(FORUM.tg_id, 11)
    assert await topic_name(FORUM.tg_id, 11) == "Campaign A, the moors"


async def test_a_topic_s_live_game_is_read_in_one_statement_as_the_full_campaign_says(
    db: str, campaigns: Campaigns
) -> None:
    assert await live_game(FORUM.tg_id, A.topic) is None
    await campaigns.new_game(A, replace(HOST, language_code="ru-RU"), "counter")  # the host's
    game = await live_game(FORUM.tg_id, A.topic)
    assert game == LiveGame("counter", "ru")
    assert await chat_language(FORUM.tg_id, A.topic) == "ru"
    assert await live_game(FORUM.tg_id, B.topic) is None  # another topic of the forum
    assert await live_game(FORUM.tg_id) is None  # its General
    await campaigns.set_status(A, HOST, CampaignStatus.ARCHIVED)
    assert await live_game(FORUM.tg_id, A.topic) is None
