"""Saved rolls end to end: /save, /roll NAME, /saved with its buttons, rename and delete,
in a group, a forum topic and a private chat, in English and Russian."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from core.campaigns import saved_rolls
from core.store.models import RollRecord, SavedRoll
from tests.support.stack import (
    GROUP,
    OLGA,
    TIMEOUT,
    Stack,
    cast_with_olga,
    from_bot,
    running_stack,
)
from tgbot.buttons.saved import SavedRollButton

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, BO = 1001, 1002
FORUM = -100999


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=cast_with_olga()) as running:
        yield running


async def say(
    stack: Stack, user: int, chat: int, text: str, thread: int | None = None
) -> dict[str, Any]:
    """``user`` sends ``text`` in ``chat`` (a forum's topic ``thread``); the bot's next new
    message there (lists on screen it redraws meanwhile are edits, not answers)."""
    mark = stack.api.mark()
    await stack.api.send_text(user, chat, text, thread_id=thread)
    return await stack.api.wait_for_message(
        chat, lambda m: from_bot(stack)(m) and "edit_date" not in m, timeout=TIMEOUT, since=mark
    )


def buttons(message: dict[str, Any]) -> dict[str, str]:
    rows = message["reply_markup"]["inline_keyboard"]
    return {b["text"]: b["callback_data"] for row in rows for b in row}


async def press(stack: Stack, user: int, chat: int, message: dict[str, Any], data: str) -> Any:
    mark = stack.api.mark()
    seen = {
        **message,
        "reply_markup": {"inline_keyboard": [[{"text": "x", "callback_data": data}]]},
    }
    pressed = await stack.api.press_button(user, chat, message["message_id"], data, as_seen=seen)
    answer = await pressed.answered(TIMEOUT)
    return answer, mark


async def test_save_use_nest_and_list_in_a_group(stack: Stack) -> None:
    saved = await say(stack, ALICE, GROUP, "/save atk 1d20+5 adv")
    assert "Saved atk: 1d20+5 adv" in saved["text"] and "/roll atk" in saved["text"]
    rolled = await say(stack, ALICE, GROUP, "/roll atk")
    assert "rolls (2d20kh1 + 5) — atk" in rolled["text"] and "Total:" in rolled["text"]
    rolled = await say(stack, ALICE, GROUP, "/roll ATK+2 dis")
    assert "(2d20kl1 + 5) + 2 — atk" in rolled["text"]
    twice = await say(stack, ALICE, GROUP, "/roll 2 atk")
    assert "Totals:" in twice["text"]
    await say(stack, ALICE, GROUP, "/save dmg 1d8+3")
    await say(stack, ALICE, GROUP, "/save crit dmg*2")
    rolled = await say(stack, ALICE, GROUP, "/roll crit")
    assert "((1d8 + 3) * 2) — crit" in rolled["text"]
    # Bo has none of Alice's saved rolls: "atk" is no roll for him
    refused = await say(stack, BO, GROUP, "/roll atk")
    assert "couldn't read" in refused["text"]
    # every roll is in the chat's history, named (each of the two repeats its own)
    notes = [r.label for r in await RollRecord.filter(player__tg_id=ALICE).order_by("id")]
    assert notes == ["atk", "atk", "atk", "atk", "crit"]
    shown = await say(stack, ALICE, GROUP, "/rolls")
    assert "crit" in shown["text"]
    listed = await say(stack, ALICE, GROUP, "/saved")
    assert "Your saved rolls" in listed["text"]
    assert "atk — 1d20+5 adv" in listed["text"] and "crit — dmg*2" in listed["text"]
    keys = buttons(listed)
    assert set(keys) == {"🎲 atk", "🎲 crit", "🎲 dmg"}
    _, mark = await press(stack, ALICE, GROUP, listed, keys["🎲 dmg"])
    rolled = await stack.api.wait_for_message(GROUP, from_bot(stack), timeout=TIMEOUT, since=mark)
    assert "Alice Marsh" in rolled["text"] and "(1d8 + 3) — dmg" in rolled["text"]
    assert rolled["reply_to_message"]["message_id"] == listed["message_id"]
    # Bo pressing Alice's button: it is not his to roll here, and he is told whose it is
    answer, _ = await press(stack, BO, GROUP, listed, keys["🎲 dmg"])
    assert answer["text"] == "⏳ These are Alice Marsh's saved rolls: /saved shows yours."
    assert answer["show_alert"] is True
    # a forged button: a saved roll that does not exist rolls nothing
    answer, _ = await press(
        stack, ALICE, GROUP, listed, SavedRollButton(99999, ALICE, "0").encode()
    )
    assert "changed since this list was drawn" in answer["text"]


async def test_loops_clashes_and_bad_input_change_nothing(stack: Stack) -> None:
    await say(stack, ALICE, GROUP, "/save a 1d4")
    await say(stack, ALICE, GROUP, "/save b a+1")
    loop = await say(stack, ALICE, GROUP, "/save a b+1")
    assert "loop: a → b → a" in loop["text"]
    for bad, words in [
        ("/save d20 1d6", "reads as dice notation"),
        ("/save к6 1d6", "reads as dice notation"),
        ("/save adv 1d6", "reads as dice notation"),
        ("/save 12 1d6", "reads as dice notation"),
        ("/save <b>x</b> 1d6", "one word of letters"),
        ("/save " + "n" * 200 + " 1d6", "at most 32 characters"),
        ("/save big " + "+".join(["1d6"] * 400), "too long"),
        ("/save bad <script>alert(1)</script>", "couldn't read"),
    ]:
        said = await say(stack, ALICE, GROUP, bad)
        assert words in said["text"], (bad, said["text"])
    assert [(s.name, s.text) for s in await SavedRoll.all().order_by("name_key")] == [
        ("a", "1d4"),
        ("b", "a+1"),
    ]
    usage = await say(stack, ALICE, GROUP, "/save")
    assert "/save atk 1d20+5 adv" in usage["text"]


async def test_renaming_a_roll_others_use_updates_them_and_says_so(stack: Stack) -> None:
    await say(stack, ALICE, GROUP, "/save dmg 1d8+3")
    await say(stack, ALICE, GROUP, "/save crit dmg*2 [dmg twice]")
    await say(stack, ALICE, GROUP, "/save both dmg+crit")
    renamed = await say(stack, ALICE, GROUP, "/saved rename dmg damage")
    assert renamed["text"] == "✏️ dmg is now called damage.\nAlso updated: both, crit."
    rolled = await say(stack, ALICE, GROUP, "/roll crit")
    assert "((1d8 + 3) * 2[dmg twice])" in rolled["text"], rolled["text"]
    listed = await say(stack, ALICE, GROUP, "/saved")
    assert "crit — damage*2 [dmg twice]" in listed["text"]
    assert "both — damage+crit" in listed["text"]
    # in Russian, and a rename nothing else uses says nothing more
    await say(stack, OLGA, OLGA, "/save урон 2d6")
    await say(stack, OLGA, OLGA, "/save крит урон*2")
    renamed = await say(stack, OLGA, OLGA, "/saved переименовать урон рана")
    assert renamed["text"].endswith("\nТакже обновлено: крит."), renamed["text"]
    renamed = await say(stack, OLGA, OLGA, "/saved переименовать крит удар")
    assert "\n" not in renamed["text"]
    rolled = await say(stack, OLGA, OLGA, "/roll удар")
    assert "((2d6) * 2) — удар" in rolled["text"], rolled["text"]


async def test_rename_and_delete_in_private_in_russian(stack: Stack) -> None:
    saved = await say(stack, OLGA, OLGA, "/save Атака 1d20+5")
    assert "Бросок «Атака» сохранён" in saved["text"]
    rolled = await say(stack, OLGA, OLGA, "/roll атака")
    assert "— Атака" in rolled["text"] and "Итого" in rolled["text"]
    renamed = await say(stack, OLGA, OLGA, "/saved переименовать атака удар")
    assert "теперь называется «удар»" in renamed["text"]
    refused = await say(stack, OLGA, OLGA, "/saved удалить атака")
    assert "Сохранённого броска «атака» нет" in refused["text"]
    listed = await say(stack, OLGA, OLGA, "/saved")
    assert "удар — 1d20+5" in listed["text"] and "переименует" in listed["text"]
    _, mark = await press(stack, OLGA, OLGA, listed, buttons(listed)["🎲 удар"])
    rolled = await stack.api.wait_for_message(OLGA, from_bot(stack), timeout=TIMEOUT, since=mark)
    assert "— удар" in rolled["text"]
    gone = await say(stack, OLGA, OLGA, "/saved удалить УДАР")
    assert "удалён" in gone["text"]
    empty = await say(stack, OLGA, OLGA, "/saved")
    assert "Сохранённых бросков пока нет" in empty["text"]
    # the old list's button rolls nothing: the list is drawn as it is now
    answer, mark = await press(stack, OLGA, OLGA, listed, buttons(listed)["🎲 удар"])
    assert "изменились" in answer["text"], answer
    old = await stack.api.wait_for_message(
        OLGA, lambda m: m["message_id"] == listed["message_id"], timeout=TIMEOUT, since=mark
    )
    assert "Сохранённых бросков пока нет" in old["text"] and not old.get("reply_markup")
    # the English words work too
    await say(stack, OLGA, OLGA, "/save fire 8d6")
    await say(stack, OLGA, OLGA, "/saved rename fire flame")
    gone = await say(stack, OLGA, OLGA, "/saved delete flame")
    assert "удалён" in gone["text"]


async def test_the_host_saves_for_the_table_in_a_forum_topic(stack: Stack) -> None:
    threads = stack.api.add_forum(FORUM, "Friday Games", ["Campaign A", "Campaign B"])
    a, b = threads["Campaign A"], threads["Campaign B"]
    await say(stack, ALICE, FORUM, "/newgame d20", a)
    await say(stack, BO, FORUM, "/join", a)
    refused = await say(stack, BO, FORUM, "/save table init 1d20+2", a)
    assert "Only the host" in refused["text"]
    saved = await say(stack, ALICE, FORUM, "/save table init 1d20+2", a)
    assert saved["message_thread_id"] == a and "for the whole table" in saved["text"]
    rolled = await say(stack, BO, FORUM, "/roll init", a)
    assert rolled["message_thread_id"] == a and "(1d20 + 2) — init" in rolled["text"]
    listed = await say(stack, BO, FORUM, "/saved", a)
    assert "The table's saved rolls" in listed["text"] and "init — 1d20+2" in listed["text"]
    _, mark = await press(stack, BO, FORUM, listed, buttons(listed)["🎲 init"])
    rolled = await stack.api.wait_for_message(FORUM, from_bot(stack), timeout=TIMEOUT, since=mark)
    assert rolled["message_thread_id"] == a and "init" in rolled["text"]
    assert "<b>Bo</b> &amp; Co" in rolled["text"] or "<b>Bo</b> & Co" in rolled["text"]
    # another topic is another table
    other = await say(stack, BO, FORUM, "/roll init", b)
    assert "couldn't read" in other["text"]
    # only the host renames or deletes the table's roll
    refused = await say(stack, BO, FORUM, "/saved delete init", a)
    assert "no saved roll" in refused["text"]
    gone = await say(stack, ALICE, FORUM, "/saved delete init", a)
    assert "Deleted the saved roll init" in gone["text"]
    total = re.findall(r"Total: (\d+)", rolled["text"])
    assert total


async def test_a_saved_roll_rolled_in_secret(stack: Stack) -> None:
    await say(stack, ALICE, ALICE, "/start")
    await say(stack, ALICE, GROUP, "/save sneak 1d20+7 stealth")
    mark = stack.api.mark()
    shown = await say(stack, ALICE, GROUP, "/sroll sneak")
    assert "rolled in secret" in shown["text"] and "sneak" not in shown["text"]
    private = await stack.api.wait_for_message(
        ALICE, lambda m: "Secret roll" in m.get("text", ""), timeout=TIMEOUT, since=mark
    )
    assert "(1d20 + 7) — sneak: stealth" in private["text"]
    kept = await RollRecord.get(label="sneak: stealth")
    assert kept.seen_by == [ALICE]


async def test_someone_elses_list_names_its_owner(stack: Stack) -> None:
    await say(stack, BO, GROUP, "/save hit 1d20+1")
    listed = await say(stack, BO, GROUP, "/saved")
    answer, _ = await press(stack, ALICE, GROUP, listed, buttons(listed)["🎲 hit"])
    # an alert is plain text: the name reads as Bo wrote it
    assert answer["text"] == "⏳ These are <b>Bo</b> & Co's saved rolls: /saved shows yours."
    answer, _ = await press(stack, OLGA, GROUP, listed, buttons(listed)["🎲 hit"])
    assert answer["text"] == "⏳ Это сохранённые броски игрока <b>Bo</b> & Co: ваши покажет /saved."
    assert await RollRecord.filter(label="hit").count() == 0


async def test_an_old_list_is_redrawn_before_it_rolls_anything(stack: Stack) -> None:
    await say(stack, ALICE, GROUP, "/save dmg 1d8+3")
    await say(stack, ALICE, GROUP, "/save crit dmg*2")
    listed = await say(stack, ALICE, GROUP, "/saved")
    # renamed where the list is not redrawn at once (the Mini App's Saved rolls page)
    [dmg] = [r for r in await saved_rolls.listed(ALICE) if r.name == "dmg"]
    await saved_rolls.rename(dmg.id, ALICE, "damage")
    mark = stack.api.mark()
    answer, _ = await press(stack, ALICE, GROUP, listed, buttons(listed)["🎲 dmg"])
    assert answer["text"] == (
        "🔄 These saved rolls changed since this list was drawn: it shows them as they are "
        "now. Tap again to roll."
    )
    redrawn = await stack.api.wait_for_message(GROUP, from_bot(stack), timeout=TIMEOUT, since=mark)
    assert redrawn["message_id"] == listed["message_id"]
    assert "damage — 1d8+3" in redrawn["text"] and "crit — damage*2" in redrawn["text"]
    assert set(buttons(redrawn)) == {"🎲 crit", "🎲 damage"}
    assert await RollRecord.filter(player__tg_id=ALICE).count() == 0  # nothing rolled
    # the redrawn list rolls what it shows
    _, mark = await press(stack, ALICE, GROUP, redrawn, buttons(redrawn)["🎲 damage"])
    rolled = await stack.api.wait_for_message(GROUP, from_bot(stack), timeout=TIMEOUT, since=mark)
    assert "(1d8 + 3) — damage" in rolled["text"]
    # a changed roll (same name, new dice) is a change too; a press from a client that has
    # not shown the redrawn list yet rolls nothing either
    await say(stack, ALICE, GROUP, "/save damage 2d6")
    answer, _ = await press(stack, ALICE, GROUP, redrawn, buttons(redrawn)["🎲 damage"])
    assert answer["text"].startswith("🔄")
    assert await RollRecord.filter(player__tg_id=ALICE).count() == 1


async def test_a_saved_roll_name_that_is_not_there_is_named(stack: Stack) -> None:
    refused = await say(stack, ALICE, GROUP, "/save crit dmg*2")
    assert refused["text"] == "🤔 dmg is not one of your saved rolls: /saved lists them."
    assert await SavedRoll.all().count() == 0
    refused = await say(stack, ALICE, GROUP, "/roll d20+str")
    assert refused["text"] == "🤔 str is not one of your saved rolls: /saved lists them."
    await say(stack, ALICE, GROUP, "/save dmg 1d8")
    await say(stack, ALICE, GROUP, "/save crit dmg*2")
    await say(stack, ALICE, GROUP, "/saved delete dmg")
    refused = await say(stack, ALICE, GROUP, "/roll crit")  # it used the deleted one
    assert refused["text"] == "🤔 dmg is not one of your saved rolls: /saved lists them."
    refused = await say(stack, OLGA, OLGA, "/save крит урон*2")
    assert refused["text"] == "🤔 Броска «урон» нет среди ваших сохранённых: их список — /saved."
    plain = await say(stack, ALICE, GROUP, "/roll hello there")  # words, not a roll's name
    assert "couldn't read" in plain["text"]


async def test_lists_on_screen_are_redrawn_when_their_rolls_change_and_retired_by_a_newer(
    stack: Stack,
) -> None:
    await say(stack, ALICE, ALICE, "/start")
    await say(stack, ALICE, GROUP, "/save dmg 1d8+3")
    await say(stack, ALICE, GROUP, "/save crit dmg*2")
    in_group = await say(stack, ALICE, GROUP, "/saved")
    in_private = await say(stack, ALICE, ALICE, "/saved")

    def now(chat: int, message: dict[str, Any]) -> dict[str, Any]:
        [found] = [m for m in stack.api.messages(chat) if m["message_id"] == message["message_id"]]
        return found

    async def settled(chat: int, message: dict[str, Any], check: Any) -> dict[str, Any]:
        """The message once ``check`` holds for it (the lists are redrawn after the answer)."""
        for _ in range(100):
            if check(found := now(chat, message)):
                return found
            await asyncio.sleep(0.05)
        raise AssertionError(now(chat, message))

    # a rename (in the group) redraws both lists: no "🎲 dmg" left anywhere
    await say(stack, ALICE, GROUP, "/saved rename dmg damage")
    for chat, message in ((GROUP, in_group), (ALICE, in_private)):
        shown = await settled(chat, message, lambda m: "damage —" in m["text"])
        assert "damage — 1d8+3" in shown["text"] and "crit — damage*2" in shown["text"]
        assert set(buttons(shown)) == {"🎲 crit", "🎲 damage"}
    # a deletion (in private) too; a new roll shows up in them
    await say(stack, ALICE, ALICE, "/saved delete crit")
    await say(stack, ALICE, ALICE, "/save heal 2d4+2")
    for chat, message in ((GROUP, in_group), (ALICE, in_private)):
        shown = await settled(chat, message, lambda m: "heal —" in m["text"])
        assert set(buttons(shown)) == {"🎲 damage", "🎲 heal"}
    # Bo's list in the group shows none of Alice's rolls: it is left as it was
    bos = await say(stack, BO, GROUP, "/saved")
    await say(stack, ALICE, GROUP, "/save dmg 1d6")
    await settled(ALICE, in_private, lambda m: "dmg —" in m["text"])
    assert now(GROUP, bos)["text"] == bos["text"]
    # a newer list in the same chat retires the older one: its buttons go, one line says why
    newer = await say(stack, ALICE, GROUP, "/saved")
    retired = await settled(GROUP, in_group, lambda m: not m.get("reply_markup"))
    assert retired["text"].endswith("⏭ A newer list is below.")
    assert set(buttons(newer)) == {"🎲 damage", "🎲 dmg", "🎲 heal"}
    assert set(buttons(now(ALICE, in_private))) == {"🎲 damage", "🎲 dmg", "🎲 heal"}
    # in Russian
    await say(stack, OLGA, OLGA, "/save урон 2d6")
    first = await say(stack, OLGA, OLGA, "/saved")
    await say(stack, OLGA, OLGA, "/saved")
    retired = await settled(OLGA, first, lambda m: not m.get("reply_markup"))
    assert retired["text"].endswith("⏭ Список поновее — ниже.")


async def test_a_saved_roll_the_notation_reads_otherwise_is_told_once(stack: Stack) -> None:
    # as the upgrade leaves them: rewritten (cs counted successes) or read otherwise now
    await SavedRoll.create(
        owner_tg_id=ALICE, name="six", name_key="six", text="6d6=6", was_text="6d6cs6"
    )
    await SavedRoll.create(
        owner_tg_id=ALICE, name="big", name_key="big", text="3d6 >= 12", was_text="3d6 >= 12"
    )
    await SavedRoll.create(
        owner_tg_id=ALICE, name="ne", name_key="ne", text="2d6 !=6", was_text="2d6 !=6"
    )
    listing = (await say(stack, ALICE, ALICE, "/saved"))["text"]
    assert "Dice notation changed: some saved rolls read differently" in listing
    assert (
        "six — before: 6d6cs6: cs and cf counted successes and failures. Now: 6d6=6: the same"
        " count, written with =, > or f (cs and cf mark critical faces now)."
    ) in listing
    assert "big — before: 3d6 >= 12: the comparison counted the dice that meet it" in listing
    assert "Now: 3d6 >= 12: the comparison is the total's target." in listing
    assert (
        "ne — before: 2d6 !=6: “!=” after a space made the dice explode on that face."
        " Now: 2d6 !=6: “!=” after a space means “not equal”."
    ) in listing
    again = (await say(stack, ALICE, ALICE, "/saved"))["text"]
    assert "Dice notation changed" not in again and "six" in again  # once only
    # in Russian, after rolling it
    await SavedRoll.create(
        owner_tg_id=OLGA, name="boom", name_key="boom", text="5d10!k2", was_text="5d10!k2"
    )
    mark = stack.api.mark()
    await stack.api.send_text(OLGA, OLGA, "/roll boom")
    told = await stack.api.wait_for_message(
        OLGA,
        lambda m: from_bot(stack)(m) and "Запись костей изменилась" in m.get("text", ""),
        timeout=TIMEOUT,
        since=mark,
    )
    assert "выбирают среди всех брошенных костей, добавленных тоже" in told["text"]
    assert (await SavedRoll.get(owner_tg_id=OLGA, name_key="boom")).was_text == ""
