"""Every dice example players bring from other bots, through the local Bot API server:
in a group and in private, in English and in Russian; and /odds for any roll."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import Player

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, IVAN = 2001, 2002  # Alice reads English, Ivan Russian

# (what is sent, the notation the reply shows, lowest and highest total)
EXAMPLES: list[tuple[str, str, int, int]] = [
    ("(1d8+3)*2", "(1d8 + 3) * 2", 8, 22),
    ("2d6+1d4-1", "2d6 + 1d4 - 1", 2, 15),
    ("(2d6+1)/2", "(2d6 + 1) / 2", 1, 6),
    ("(1d20+5, 1d20+3)kh1", "(1d20 + 5, 1d20 + 3)kh1", 6, 25),
    ("4d6kl2", "4d6kl2", 2, 12),
    ("5d6dh1", "5d6dh1", 4, 24),
    ("4d6p1", "4d6dl1", 3, 18),
    ("2d6!", "2d6!", 2, 252),
    ("2d6!!", "2d6!!", 2, 252),
    ("2d6!p", "2d6!p", 2, 212),
    ("1d20e20", "1d20!", 1, 420),
    ("1d20 r1", "1d20r1", 1, 20),
    ("2d6r<3", "2d6r<3", 2, 12),
    ("2d6ro1", "2d6ro1", 2, 12),
    ("2d6ra6", "2d6ra6", 2, 24),
    ("4d6mi2", "4d6mi2", 8, 24),
    ("4d6ma5", "4d6ma5", 4, 20),
    ("4dF", "4dF", -4, 4),
    ("d%", "1d100", 1, 100),
    ("2d6[fire]+1d8[cold] burning hands", "2d6[fire] + 1d8[cold]", 3, 20),
    ("1d20+5 adv", "2d20kh1 + 5", 6, 25),
    ("1d20+5 dis", "2d20kl1 + 5", 6, 25),
    ("4d6 kh3", "4d6kh3", 3, 18),
    ("2к6+1", "2d6 + 1", 3, 13),
    ("3д6", "3d6", 3, 18),
    ("1d20+5 преим", "2d20kh1 + 5", 6, 25),
    ("1d20 помеха", "2d20kl1", 1, 20),
]
SUCCESSES = [("3d6 >= 5", "3d6>=5"), ("10d10>=8f1", "10d10>=8f1"), ("6d6=6", "6d6=6")]
REFUSED = [("6d6 o 3", "o"), ("2d6 | 3d6", "|"), ("2d6 kh", "kh"), ("1001d6", "1000")]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    players = [
        Player(ALICE, "Alice", "Marsh", "alice", language_code="en", started=True),
        Player(IVAN, "Иван", language_code="ru", started=True),
    ]
    async with running_stack(db, players=players) as running:
        yield running


async def say(stack: Stack, user: int, text: str, chat: int) -> dict[str, Any]:
    await stack.api.send_text(user, chat, text)
    return await stack.api.wait_for_message(
        chat, lambda m: m["from"]["id"] == stack.api.bot_id, timeout=10
    )


WHERE = [(ALICE, GROUP, "Total: "), (IVAN, IVAN, "Итого: "), (IVAN, GROUP, "Итого: "),
         (ALICE, ALICE, "Total: ")]  # fmt: skip


@pytest.mark.parametrize(("user", "chat", "total_word"), WHERE)
async def test_every_example_rolls_as_written(
    stack: Stack, user: int, chat: int, total_word: str
) -> None:
    for sent, notation, low, high in EXAMPLES:
        reply = await say(stack, user, f"/roll {sent}", chat)
        text = reply["text"]
        assert notation in text, (sent, text)
        found = re.search(re.escape(total_word) + r"(-?\d+)", text)
        assert found is not None, (sent, text)
        assert low <= int(found.group(1)) <= high, (sent, text)
    fire = await say(stack, user, "/roll 2d6[fire]+1d8[cold] burning hands", chat)
    assert "burning hands" in fire["text"] and "[fire]" in fire["text"]
    kept = await say(stack, user, "/roll 4d6 kh3", chat)
    assert sum(e["type"] == "strikethrough" for e in kept["entities"]) == 1  # the dropped die
    edge = await say(stack, user, "/roll 1d20+5 adv", chat)
    assert sum(e["type"] == "strikethrough" for e in edge["entities"]) == 1  # the lower d20


@pytest.mark.parametrize(
    ("user", "chat", "word", "totals"),
    [(ALICE, GROUP, "Successes: ", "Totals: "), (IVAN, IVAN, "Успехов: ", "Итоги: ")],
)
async def test_successes_repeats_and_refusals(
    stack: Stack, user: int, chat: int, word: str, totals: str
) -> None:
    for sent, notation in SUCCESSES:
        text = (await say(stack, user, f"/roll {sent}", chat))["text"]
        assert notation in text and word in text, text
    for sent in ("6x4d6kh3", "4d6kh3 x6"):
        text = (await say(stack, user, f"/roll {sent}", chat))["text"]
        assert "6x4d6kh3" in text and totals in text
        values = [int(v) for v in text.split(totals)[1].split(", ")]
        assert len(values) == 6 and all(3 <= v <= 18 for v in values)
    for sent, part in REFUSED:
        text = (await say(stack, user, f"/roll {sent}", chat))["text"]
        assert text.startswith("🤔") and part in text, text


async def test_odds_of_any_roll_in_both_languages(stack: Stack) -> None:
    english = (await say(stack, ALICE, "/odds 1d20+5 adv >= 15", GROUP))["text"]
    assert "2d20kh1 + 5" in english and "Chance of ≥ 15: 79.8%" in english
    assert "Lowest 6 · highest 25 · average 18.82" in english
    assert "█" in english
    russian = (await say(stack, IVAN, "/odds 1d20+5 преим >= 15", IVAN))["text"]
    assert "Шанс выбросить 15 и больше: 79,8\u00a0%" in russian and "в среднем 18,82" in russian
    explodes = (await say(stack, IVAN, "/odds 2d6!", GROUP))["text"]
    assert "не больше 20 раз" in explodes
    big = (await say(stack, ALICE, "/odds 1000d1000kh1", ALICE))["text"]
    assert "too large for exact odds" in big
    action_roll = (await say(stack, ALICE, "/odds d6 d8 world adv", GROUP))["text"]
    assert "You win" in action_roll  # the Action Roll's odds stay as they were
    nsu_words = (await say(stack, ALICE, "/odds d6 world", GROUP))["text"]
    assert "Aspect die" in nsu_words


async def test_a_no_stone_unturned_table_keeps_its_own_odds(stack: Stack) -> None:
    started = await say(stack, ALICE, "/newgame nsu", GROUP)
    assert "No Stone Unturned" in started["text"]
    assert "Try: /odds" in (await say(stack, ALICE, "/odds d7", GROUP))["text"]
    assert "You win" in (await say(stack, ALICE, "/odds d6 d8 character", GROUP))["text"]
    assert "Odds of 2d6 + 1" in (await say(stack, ALICE, "/odds 2d6+1", GROUP))["text"]


async def test_a_russian_table_types_its_dice_with_cyrillic_letters_everywhere(
    stack: Stack,
) -> None:
    started = await say(stack, IVAN, "/newgame nsu", GROUP)
    assert "No Stone Unturned" in started["text"]
    planned = (await say(stack, IVAN, "/odds к6 к8 персонаж", GROUP))["text"]
    same = (await say(stack, IVAN, "/odds d6 d8 персонаж", GROUP))["text"]
    assert planned == same and "Ваша победа: 31,3\xa0%" in planned, planned
    refused = (await say(stack, IVAN, "/odds к7", GROUP))["text"]
    assert refused == "🤔 «к7» не подходит. Например: /odds к6 к8 мир преим +1"
    any_roll = (await say(stack, IVAN, "/odds 2к6+1", GROUP))["text"]
    assert any_roll.startswith("🎲 Шансы для 2d6 + 1")
    # a refusal's examples are written as a Russian player types dice
    wrong = (await say(stack, IVAN, "/roll 2к6+1 преим", IVAN))["text"]
    assert "1к20+5 преим" in wrong and "к20 преим" in wrong and "adv" not in wrong, wrong


# (sent, what the English reply says, what the Russian one says): forms other rollers'
# players bring, as those rollers mean them
PEER_FORMS = [
    # a comparison no d6 face can meet: the total against a target
    ("/roll 3d6 >= 12", ["Target: total ≥ 12", "Total: "], ["Цель: сумма ≥ 12", "Итого: "]),
    # advantage with its target
    ("/roll d20 adv >= 15", ["2d20kh1 >= 15", "Target: total ≥ 15"], ["Цель: сумма ≥ 15"]),
    ("/roll 1d20+5 dc15", ["Target: total ≥ 15"], ["Цель: сумма ≥ 15"]),
    # arithmetic alone answers, and says that division rounds down
    (
        "/roll 15/2",
        ["Total: 7", "Division rounds down."],
        ["Итого: 7", "Деление округляется вниз."],
    ),
    ("/roll 1+1", ["Total: 2"], ["Итого: 2"]),
    # Roll20 / rpg-dice-roller: cs marks critical faces, the dice still add up
    ("/roll 3d6cs>1", ["★", "a critical success", "Total: "], ["★", "критический успех"]),
    # rpg-dice-roller: r rerolls until the face doesn't match
    ("/roll 1d20rr<20", ["Total: 20"], ["Итого: 20"]),
    # refusals name what is missing
    ("/roll 4d6kh", ["“kh” needs a number, as in 4d6kh3."], ["«kh» нужно число, например 4d6kh3."]),
    ("/roll 4d10dh1dl2", ["Two drops on one dice term (“dl2”)"], ["Два отбрасывания"]),
    ("/roll 2d6 >=", ["A target needs a number"], ["Цели нужно число"]),
    # d20: keep over every exploded die; the odds say at most 20
    ("/odds 5d10!k2", ["highest 20", "average 16.12"], ["16,12"]),
    ("/odds 2к6 >= 7", ["Chance of ≥ 7: 58.3%"], ["Шанс выбросить 7 и больше: 58,3\xa0%"]),
]


@pytest.mark.parametrize(("user", "chat", "english"), [(ALICE, GROUP, True), (IVAN, IVAN, False)])
async def test_forms_from_other_rollers_read_as_they_mean_them(
    stack: Stack, user: int, chat: int, english: bool
) -> None:
    for sent, in_english, in_russian in PEER_FORMS:
        text = (await say(stack, user, sent, chat))["text"]
        for expected in in_english if english else in_russian:
            assert expected in text, (sent, text)
