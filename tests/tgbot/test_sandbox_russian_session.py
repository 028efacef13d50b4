"""A Russian table on a phone (360x740) in the sandbox, played through its buttons.

Alice hosts and Bo plays in Russian: each is switched with the page's "Their
language" picker, as a new player would. Chidi's Telegram speaks German, which has
no catalogue, so he reads English. Alice starts No Stone Unturned and the table
takes worldbuilding's first steps (the tone, agreeing to it, a ban and a pass) by
replying to the board and tapping its buttons; the board reads Russian, Chidi's
private character panel English and Bo's Russian. After /endgame the same group
plays a threat roll, a d20 check and a Cortex test to the dice, all in Russian,
and Bo opens each game's sheet in the Mini App. No English word is left outside
the players' names and what they wrote; no button's label is cut at phone width.
The telling screens are kept, light and dark, as ``artifacts/screenshots/ru-*.png``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from core.words.i18n import lang_for
from tests.support.browser import screenshot
from tests.tgbot.test_i18n_pseudo import leaks
from tests.tgbot.test_sandbox_nsu import ALICE, BO, CHIDI
from tests.tgbot.test_sandbox_phone_session import MEASURE, ONE_LINE
from tests.tgbot.test_sandbox_words import Phone, phone_sandbox
from tgbot.sandbox.words import page_words

pytestmark = [pytest.mark.browser, pytest.mark.e2e, pytest.mark.db]

RU = page_words(lang_for("ru"))  # the sandbox page's own words, as a Russian player sees them
CYRILLIC = re.compile("[А-Яа-яЁё]")
# What is not ours to translate: the players' names, the chat, the bot and what they wrote.
THEIRS = (
    "Alice Marsh",
    "Chidi Okafor",
    "<b>Bo</b> & Co",
    "The Table",
    "Stonetable",
    "Telegram",
    "No spiders",
    "Justice",
    "Strong",
    "Chidi",
    "Cortex",  # a game's name: "Драма Cortex"
)


# A bot message as the page shows it, without the quote of the player's message it answers.
SHOWN = """nodes => nodes.map(node => [...node.querySelectorAll('.text, .footer, .keyboard button')]
    .map(part => part.innerText).join('\\n'))"""


class Russian(Phone):
    """The sandbox on a phone, where some players read Russian."""

    async def shot(self, name: str) -> None:
        self.shots += 1
        for theme in ("light", "dark"):
            await self.theme(theme)
            await screenshot(self.page, f"ru-{self.shots:02d}-{name}-{theme}")
        await self.theme("light")

    async def speaks(self, pid: int, code: str) -> None:
        """Set a player's Telegram language with the page's picker; the page follows."""
        await self.play_as(pid)
        await self.page.select_option("#language", code)
        await self.expect(self.page.locator("html")).to_have_attribute("lang", code)

    async def reply(self, message: Any, text: str, edits: bool = True) -> None:
        """Reply to ``message`` with the Reply link in the player's language."""
        lang = await self.page.evaluate("document.documentElement.lang")
        name = RU["reply"] if lang == "ru" else "Reply"

        async def replying() -> None:
            await message.get_by_role("button", name=name, exact=True).click()
            await self.expect(self.page.locator("#reply-bar")).to_be_visible()
            await self.send(text)
            await self.expect(self.page.locator("#reply-bar")).to_be_hidden()

        await self._until_redrawn(message, replying(), edits)

    async def close_app(self) -> None:
        await self.page.get_by_role("button", name=RU["close_app"]).click()
        await self.expect(self.page.locator("#miniapp")).to_be_hidden()

    async def uncut(self, message: Any) -> list[str]:
        """The labels under ``message``, none cut at phone width."""
        from playwright.async_api import Error as PageError

        for attempt in range(5):  # the page may draw the message anew meanwhile (an edit)
            try:
                await message.scroll_into_view_if_needed()
                measured = await message.evaluate(MEASURE)
                break
            except PageError:
                if attempt == 4:
                    raise
                await self.page.wait_for_timeout(200)
        cut = [(text, scroll, client) for text, scroll, client in measured if scroll > client]
        assert cut == [], cut
        await self.fits()
        return [text for text, _, _ in measured]

    async def russian(self, message: Any) -> str:
        """A bot message's text and buttons: Russian, besides the players' own words."""
        [text] = await message.evaluate_all(SHOWN)
        assert CYRILLIC.search(text), text
        assert leaks(text, THEIRS) == [], text
        await self.uncut(message)
        return str(text)

    async def group_is_russian(self) -> None:
        """Every bot message in the group reads Russian."""
        bubbles = await self.page.locator('li[data-from="bot"]').evaluate_all(SHOWN)
        assert bubbles
        for text in bubbles:
            assert CYRILLIC.search(text), text
            assert leaks(text, THEIRS) == [], text

    async def new_game(self, system: str) -> Any:
        await self.play_as(ALICE)
        await self.group_chat()
        started = await self.say(f"/newgame {system}", "начинает игру")
        for pid in (BO, CHIDI):
            await self.play_as(pid)
            await self.group_chat()
            await self.say("/join", "в игре")
        return started

    async def end_game(self) -> None:
        await self.play_as(ALICE)
        await self.group_chat()
        question = await self.say("/endgame", re.compile(r"Завершить игру .*\?"))
        await self.press(question, "Завершить игру", edits=False)
        await self.expect(self.bot_message("Спасибо за игру")).to_be_visible()

    async def sheet_in_russian(self, name: str, then: Any = None) -> str:
        """Bo opens his sheet from the group: the Mini App reads Russian.

        ``then`` is a coroutine function of the app's frame, run before the shot.
        """
        await self.play_as(BO)
        await self.group_chat()
        sheet = await self.say("/sheet", RU_OPEN_SHEET)
        app = await self.open_app(RU_OPEN_SHEET, sheet)
        main = app.locator("main")
        await self.expect(main).to_contain_text(CYRILLIC)
        if then is not None:
            await then(app)
        text = str(await app.locator("body").inner_text())
        # The sheet heads a player's name in capitals.
        assert leaks(text, (*THEIRS, *(name.upper() for name in THEIRS))) == [], text
        await self.shot(name)
        await self.close_app()
        return text


RU_OPEN_SHEET = re.compile("Открыть лист")


async def test_a_russian_table_plays_in_the_sandbox_on_a_phone(db: str) -> None:
    async with phone_sandbox(db, style=ONE_LINE) as (page, group_id):
        t = Russian(page, group_id)
        for pid in (ALICE, BO):
            await t.speaks(pid, "ru")
        await t.play_as(CHIDI)
        await t.expect(page.locator("html")).to_have_attribute("lang", "en")
        await worldbuilding(t)
        await t.end_game()
        await dice(t)


async def worldbuilding(t: Russian) -> None:
    started = await t.new_game("nsu")
    await t.sees(started, "организатор отправляет /begin")
    await t.play_as(ALICE)
    await t.say("/begin", "шаг 1 из 9")
    board = await t.panel("шаг 1 из 9")
    await t.sees(board, "разговор о тоне")

    # -- the tone: Alice proposes it; Bo and Chidi agree by tapping.
    await t.reply(board, "Странно, но с надеждой")
    await t.sees(board, "🎭 Предложено: Странно, но с надеждой")
    await t.russian(board)
    await t.shot("nsu-tone-proposed")
    for pid in (BO, CHIDI):
        await t.play_as(pid)
        await t.press(board, "Согласны")
    await t.sees(board, "Каждый может запретить в мире что-то одно")

    # -- the bans: Alice writes one, Bo passes, Chidi (who reads English) writes his.
    await t.play_as(ALICE)
    await t.reply(board, "Без драконов")
    await t.play_as(BO)
    await t.press(board, "Пропустить")
    await t.play_as(CHIDI)
    await t.reply(board, "No spiders")
    await t.sees(board, "🚫 Под запретом: Без драконов")
    await t.play_as(ALICE)
    await t.russian(board)
    await t.shot("nsu-settlement-after-bans")
    await t.group_is_russian()

    # -- in private: Chidi's character panel reads English, Bo's Russian.
    await t.play_as(CHIDI)
    await t.group_chat()
    await t.press(board, "🧍 Мой персонаж", edits=False)
    await t.private_chat(CHIDI)
    english = await t.panel("Step 1 of 7")
    await t.sees(english, "Step 1 of 7: Name")
    text = str(await english.inner_text())
    assert not CYRILLIC.search(text), text
    await t.play_as(BO)
    await t.group_chat()
    await t.press(board, "🧍 Мой персонаж", edits=False)
    await t.private_chat(BO)
    mine = await t.panel("Шаг 1 из 7")
    await t.sees(mine, "Шаг 1 из 7: Имя")
    await t.russian(mine)
    await t.shot("nsu-private-character")

    # -- the Mini App: Bo's sheet during worldbuilding, in Russian.
    await t.sheet_in_russian("nsu-sheet")


async def dice(t: Russian) -> None:
    # -- threat: Bo climbs; Alice, the GM, sets the threat on its keypad; Bo rolls.
    await t.new_game("threat")

    async def approach(app: Any) -> None:  # Bo writes an approach on his sheet
        form = app.locator("form.add")
        await form.locator('input[name="name"]').fill("Ловкость")
        await form.get_by_role("button").click()
        await t.expect(app.locator(".approaches")).to_contain_text("Ловкость")

    await t.sheet_in_russian("threat-sheet", approach)
    await t.send("Лезу на башню")
    climb = t.page.locator("li.message").filter(has_text="Лезу на башню").last
    await t.play_as(ALICE)
    await t.reply(climb, "/threat", edits=False)
    panel = await t.panel("действует — кубики Угрозы")
    await t.press(panel, "⚠️ Угроза +0")
    await t.sees(panel, "задать Угрозу или вернуться")
    labels = await t.uncut(panel)
    assert "⬅️ Назад" in labels, labels
    await t.russian(panel)
    await t.shot("threat-keypad")
    await t.press(panel, "+2")
    await t.play_as(BO)
    await t.press(panel, "🎯 Подход")
    await t.press(panel, "Ловкость 2")
    await t.press(panel, "🎲 Бросить")
    await t.sees(panel, "Кубики Угрозы:")
    await t.russian(panel)
    await t.shot("threat-rolled")
    await t.group_is_russian()
    await t.end_game()

    # -- d20: Bo asks for a check, opens the ability group, goes back and rolls.
    await t.new_game("d20")
    await t.play_as(BO)
    await t.say("/check dc12", "Сложность 12")
    check = await t.panel("Сложность 12")
    await t.press(check, "💪")
    labels = await t.uncut(check)
    assert "⬅️ Назад" in labels, labels
    await t.russian(check)
    await t.shot("d20-ability-group")
    await t.press(check, "⬅️ Назад")
    await t.press(check, "🎲 Бросить")
    await t.sees(check, re.compile("Успех|Провал"))
    await t.russian(check)
    await t.sheet_in_russian("d20-sheet")
    await t.group_is_russian()
    await t.end_game()

    # -- Cortex: Bo notes his traits; Alice, the Watchtower, opposes; Bo builds his pool.
    await t.new_game("cortex")
    await t.play_as(BO)
    for line in ("value Justice d10", "asset Strong d8", "relationship Chidi d6"):
        await t.say(f"/trait {line}", re.compile("✅ .* записан"))  # says what was recorded
    await t.say("/test", "Испытание")
    test = await t.panel("Испытание")
    await t.play_as(ALICE)
    await t.press(test, "👁 +d8")
    await t.press(test, "👁 Бросить 1")
    await t.sees(test, "Перебить:")
    await t.play_as(BO)
    await t.press(test, "➕ В запас")
    labels = await t.uncut(test)
    assert "⬅️ Назад" in labels, labels
    await t.russian(test)
    await t.shot("cortex-add-to-the-pool")
    await t.press(test, "➕ Strong")
    await t.press(test, "⬅️ Назад")
    await t.press(test, "🎲 Бросок")
    await t.sees(test, "Результат")
    await t.russian(test)
    await t.shot("cortex-rolled")
    await t.sheet_in_russian("cortex-sheet")
    await t.group_is_russian()
