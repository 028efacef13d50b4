"""/rolls end to end: the chat's last ten rolls in one message, in a group, a forum
topic and a private chat, in English and Russian; secret rolls stay out of it."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from core.campaigns.play import ChatRef, PlayerRef
from core.store.models import Campaign, OutboxRow, RollRecord
from tests.support.stack import GROUP, OLGA, Stack, cast_with_olga, running_stack, say

pytestmark = [pytest.mark.e2e, pytest.mark.db]

FORUM = -100777
ALICE, BO = 1001, 1002


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=cast_with_olga()) as running:
        yield running


def lines(message: dict[str, Any]) -> list[str]:
    return str(message["text"]).split("\n")


async def test_rolls_in_a_group_shows_the_last_ten_with_who_what_result_and_note(
    stack: Stack,
) -> None:
    empty = await say(stack, ALICE, GROUP, "/rolls")
    assert "No rolls here yet" in empty["text"]
    totals = []
    for n in range(12):
        who = ALICE if n % 2 else BO
        reply = await say(stack, who, GROUP, f"/roll 1d6+{n} <b>try</b> {n}")
        totals.append(int(re.findall(r"Total: (\d+)", reply["text"])[0]))
    shown = await say(stack, ALICE, GROUP, "/rolls")
    head, *rows = lines(shown)
    assert "The last 10 rolls here" in head
    assert len(rows) == 10
    for row, n in zip(rows, range(2, 12), strict=True):  # the oldest two are left out
        name = "Alice Marsh" if n % 2 else "<b>Bo</b> & Co"
        assert f"{name}: 1d6 + {n} → {totals[n]}" in row, row
        assert row.endswith(f"— <b>try</b> {n}")  # the note, escaped: shown as typed
    # the entities come from the HTML the bot wrote: names and totals bold, notes italic
    bold = [e for e in shown["entities"] if e["type"] == "bold"]
    assert len(bold) == 1 + 10 * 2
    assert shown["reply_to_message"]["from"]["id"] == ALICE


async def test_rolls_speaks_the_readers_language_with_babel_dates(stack: Stack) -> None:
    await say(stack, OLGA, GROUP, "/roll 2d6 на удачу")
    shown = await say(stack, OLGA, GROUP, "/rolls")
    head, row = lines(shown)
    assert "Последний бросок здесь" in head and "UTC" in head
    month = ("янв", "февр", "мар", "апр", "мая", "июн", "июл", "авг", "сент", "окт", "нояб", "дек")
    assert any(m in row for m in month), row  # Babel's Russian month
    assert "Ольга Петрова: 2d6 →" in row and row.endswith("— на удачу")


async def test_rolls_in_a_forum_topic_shows_only_that_topics_rolls_and_its_game(
    stack: Stack,
) -> None:
    threads = stack.api.add_forum(FORUM, "Friday Games", ["Campaign A", "Campaign B"])
    a, b = threads["Campaign A"], threads["Campaign B"]
    started = await say(stack, ALICE, FORUM, "/newgame d20", a)
    assert started["message_thread_id"] == a
    await say(stack, ALICE, FORUM, "/roll 1d4 in A", a)
    await say(stack, BO, FORUM, "/roll 1d8 in B", b)
    await say(stack, BO, FORUM, "/roll 1d10 in General")
    shown = await say(stack, BO, FORUM, "/rolls", a)
    assert shown["message_thread_id"] == a
    assert len(lines(shown)) == 2 and "1d4" in shown["text"] and "in A" in shown["text"]
    shown = await say(stack, ALICE, FORUM, "/rolls", b)
    assert len(lines(shown)) == 2 and "1d8" in shown["text"]
    shown = await say(stack, ALICE, FORUM, "/rolls")
    assert len(lines(shown)) == 2 and "1d10" in shown["text"]
    # each roll keeps its topic, and the game that was live there
    game = await Campaign.get(live_chat_id=FORUM, topic_id=a)
    kept = {r.notation: (r.topic_id, r.campaign_id) for r in await RollRecord.all()}
    assert kept == {"1d4": (a, game.id), "1d8": (b, None), "1d10": (0, None)}


async def test_rolls_in_private_shows_the_players_own_secret_roll_but_the_group_never_does(
    stack: Stack,
) -> None:
    await say(stack, ALICE, ALICE, "/roll 3d6 alone")
    shown = await say(stack, ALICE, ALICE, "/rolls")
    assert len(lines(shown)) == 2 and "3d6" in shown["text"] and "alone" in shown["text"]
    # a secret roll made in the group: Alice saw it, the group did not
    deps = stack.runtime.application
    assert deps is not None
    play = deps.deps.play
    await say(stack, BO, GROUP, "/roll 1d6 public")
    await play.roll(
        ChatRef(GROUP, "supergroup"),
        PlayerRef(ALICE, "Alice", "Marsh"),
        "1d20 zqhidden",
        seen_by=(ALICE,),
    )
    shown = await say(stack, BO, GROUP, "/rolls")
    assert "zqhidden" not in shown["text"] and "public" in shown["text"]
    assert len(lines(shown)) == 2
    await RollRecord.filter(label="zqhidden").update(revealed=True)
    shown = await say(stack, BO, GROUP, "/rolls")
    assert "zqhidden" in shown["text"] and "(rolled in secret, revealed)" in shown["text"]


async def test_each_repeat_of_a_roll_is_its_own_roll_in_rolls_and_in_the_averages(
    stack: Stack,
) -> None:
    import json

    from tests.support.stack import campaigns, mini_app_get

    await say(stack, ALICE, GROUP, "/newgame threat")
    await say(stack, BO, GROUP, "/join")
    await say(stack, BO, GROUP, "/save atk 1d20+5")
    shown = []
    for asked in ("/roll 4d6kh3 x3 stats", "/roll 2x1d6", "/roll 2 atk"):
        reply = await say(stack, BO, GROUP, asked)
        found = re.findall(r"Totals: ([\d, ]+)", reply["text"])
        assert found, reply["text"]
        shown.append([int(t) for t in found[0].split(", ")])
    assert [len(t) for t in shown] == [3, 2, 2]
    _, *rows = lines(await say(stack, ALICE, GROUP, "/rolls"))
    assert len(rows) == 7, rows
    wanted = [("4d6kh3", t) for t in shown[0]] + [("1d6", t) for t in shown[1]]
    wanted += [("(1d20 + 5)", t) for t in shown[2]]  # a saved roll, noted by its name
    for row, (notation, total) in zip(rows, wanted, strict=True):
        assert f"<b>Bo</b> & Co: {notation} → {total}" in row, row
    assert rows[0].endswith("— stats") and rows[2].endswith("— stats")
    # the Mini App's averages count seven rolls, each repeat's own total
    token = (await campaigns(stack).require_current(GROUP)).app_token
    status, body = await mini_app_get(stack, BO, f"/api/c/{token}/rolls")
    assert status == 200, body
    history = json.loads(body)
    bo = next(p for p in history["players"] if p["id"] == BO)
    totals = [t for repeat in shown for t in repeat]
    assert bo["rolls"] == 7
    assert float(bo["average"]) == round(sum(totals) / 7, 2)
    assert float(bo["expected"]) == round((3 * 15869 / 1296 + 2 * 3.5 + 2 * 15.5) / 7, 2)
    assert [r["total"] for r in history["rolls"]] == totals[::-1]


async def test_the_expected_averages_are_worked_out_in_a_worker_and_skipped_while_busy(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json
    from collections import OrderedDict

    from core.rules import roll_stats
    from tests.support.stack import campaigns, mini_app_get

    def not_here(notation: str) -> float | None:
        raise AssertionError(f"the odds of {notation} were worked out on the event loop")

    # nothing known in this process, and working out odds here fails: only a worker can
    monkeypatch.setattr(roll_stats, "_known", OrderedDict())
    monkeypatch.setattr(roll_stats, "_mean", not_here)
    await say(stack, ALICE, GROUP, "/newgame threat")
    await say(stack, BO, GROUP, "/join")
    totals = []
    for asked in ("/roll 7d100kh3", "/roll 1d575!kl1", "/roll 4d6kh3"):
        reply = await say(stack, BO, GROUP, asked)
        totals += [int(t) for t in re.findall(r"Total: (\d+)", reply["text"])]
    assert len(totals) == 3
    token = (await campaigns(stack).require_current(GROUP)).app_token
    heavy = stack.runtime.heavy
    assert heavy is not None

    async def bo_seen_by(viewer: int) -> dict[str, Any]:
        status, body = await mini_app_get(stack, viewer, f"/api/c/{token}/rolls")
        assert status == 200, body
        history = json.loads(body)
        assert [r["total"] for r in history["rolls"]] == totals[::-1]  # the rolls, whatever else
        return next(p for p in history["players"] if p["id"] == BO)

    # while Bo's last heavy job runs, his page shows the rolls without the expectations
    async with heavy.turns.hold(BO):
        busy = await bo_seen_by(BO)
    assert busy["expected"] is None and busy["average"] is None and busy["rolls"] == 0
    assert not roll_stats.known_means(["7d100kh3", "1d575!kl1", "4d6kh3"])
    # then one job works them out, in a worker process, and this process keeps them
    jobs = []
    run_if_free = heavy.run_if_free

    async def counted(user: int, function: Any, *args: Any) -> Any:
        jobs.append((user, function.__name__, args))
        return await run_if_free(user, function, *args)

    monkeypatch.setattr(heavy, "run_if_free", counted)
    bo = await bo_seen_by(BO)
    assert jobs == [(BO, "expected_means", (("1d575!kl1", "4d6kh3", "7d100kh3"),))]
    known = roll_stats.known_means(["7d100kh3", "1d575!kl1", "4d6kh3"])
    monkeypatch.undo()  # the same figures, worked out here, brute force for 4d6kh3
    assert known == {n: roll_stats.expected_mean(n) for n in known}
    assert known["4d6kh3"] == pytest.approx(15869 / 1296)
    assert bo["rolls"] == 3
    assert float(bo["average"]) == round(sum(totals) / 3, 2)
    assert float(bo["expected"]) == round(sum(known.values()) / 3, 2)  # type: ignore[arg-type]
    # known now: another viewer's page needs no job at all
    monkeypatch.setattr(roll_stats, "_mean", not_here)
    monkeypatch.setattr(heavy, "run_if_free", counted)
    assert (await bo_seen_by(ALICE))["expected"] == bo["expected"]
    assert len(jobs) == 1


async def test_a_roll_in_a_game_reads_the_games_language_once(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/roll in a group with a game: the handler reads the game (and its language) once,
    and the message written with the roll is worded in it without asking again."""
    import core.campaigns.languages as languages
    from tgbot.features import roll

    await say(stack, OLGA, GROUP, "/newgame threat")  # the game speaks its host's Russian
    for _ in range(100):  # its menus are sent too (they read the game's language)
        if not await OutboxRow.filter(sent=False).exists():
            break
        await asyncio.sleep(0.05)
    asked: list[tuple[object, ...]] = []
    read = languages.live_game

    async def counted(*where: object) -> object:
        asked.append(where)
        return await read(*where)  # type: ignore[arg-type]

    monkeypatch.setattr(languages, "live_game", counted)  # what the chat's language reads
    monkeypatch.setattr(roll, "live_game", counted)
    reply = await say(stack, ALICE, GROUP, "/roll 2d6")
    assert "Итого" in reply["text"], reply["text"]  # Alice's app speaks English
    assert asked == [(GROUP, 0)]
