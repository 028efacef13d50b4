"""No Stone Unturned's play at a Russian table beside an English player, end to end.

Through the local Bot API server: a Russian host's group makes an Action Roll and
goes into downtime, every panel in Russian; the English player scouts a card, and
the card's face reaches his private chat in English (at once, and again when he
asks). The campaign log keeps each line with its message id, so the Mini App shows
it in each reader's language.
"""

from __future__ import annotations

import re

import pytest

from core.rules.log import Words
from core.store.models import Campaign, LogEntry, Member
from core.words.i18n import lang_for
from tests.support.nsu_bot import Faces
from tests.support.nsu_table import campaign_state, character, sheet, split, world
from tests.support.stack import GROUP, Stack, campaigns, labels, running_stack
from tests.tgbot.test_e2e_nsu_play import data_of, reply, say, tap
from tgbot.sandbox.fake_api import Player

pytestmark = [pytest.mark.e2e, pytest.mark.db, pytest.mark.backend_neutral]

OLGA, BO, IVAN = 1001, 1002, 1003  # Olga hosts and Ivan arbitrates, in Russian; Bo reads English
LATIN = re.compile(r"[A-Za-z]{2,}")
PLAYER_TEXT = (
    *("Ольга", "Bo", "Smith", "Иван", "Ana", "Cy", "Curious", "Wary", "Angry"),
    "The <Drowned> Mill",
)


@pytest.fixture
def faces() -> Faces:
    return Faces([])


@pytest.fixture
async def stack(db: str, faces: Faces) -> Stack:  # type: ignore[misc]
    players = [
        Player(OLGA, "Ольга", language_code="ru", started=True),
        Player(BO, "Bo", "Smith", language_code="en-GB", started=True),
        Player(IVAN, "Иван", language_code="ru-RU", started=True),
    ]
    async with running_stack(db, rng=faces, players=players) as running:
        yield running


def english_left(text: str, *data: str) -> list[str]:
    """Latin words of a Russian message that are not names, dice, card ids or commands."""
    for value in (*PLAYER_TEXT, *data):
        text = text.replace(value, " ")
    text = re.sub(r"/\w+|\b\d*[dDR]\d+\w*", " ", text)
    return LATIN.findall(text)


async def start_table(stack: Stack) -> int:
    await say(stack, OLGA, "/newgame nsu")
    for user in (BO, IVAN):
        await say(stack, user, "/join")
    view = await campaigns(stack).require_current(GROUP)
    assert view.language == "ru"
    w = split(world((OLGA, BO, IVAN)), {OLGA}, {BO, IVAN})
    await Campaign.filter(id=view.id).update(state=campaign_state(w))
    for player, name in ((OLGA, "Ana"), (BO, "Bo"), (IVAN, "Cy")):
        member = await Member.get(campaign_id=view.id, player__tg_id=player)
        await Member.filter(id=member.id).update(sheet=sheet(character(name)))
    return view.id


async def test_a_russian_table_rolls_and_rests_while_the_english_scout_reads_english(
    stack: Stack, faces: Faces
) -> None:
    campaign_id = await start_table(stack)

    # An Action Roll in Russian: Ana on screen, Bo and Ivan arbitrate.
    faces.push(2, 7)
    panel = await say(stack, OLGA, "/act Я перехожу мост")
    assert "🎲 <b>Бросок действия</b>" not in panel["text"]  # HTML is parsed, not shown
    assert panel["text"].startswith("🎲 Бросок действия: Ana (Ольга)")
    assert "⚖️ Арбитры: Bo (Bo Smith), Cy (Иван)" in panel["text"]
    assert english_left(panel["text"]) == [], panel["text"]
    panel = await tap(stack, IVAN, panel, "⚖️ Тело")
    panel = await tap(stack, BO, panel, "🌍 Мир")
    panel = await tap(stack, OLGA, panel, "Ana: Curious d8")
    panel = await tap(stack, OLGA, panel, "Деталей нет")
    panel = await tap(stack, OLGA, panel, "🎲 Ana: бросок")
    text = panel["text"]
    assert "Аспект 2 против Настроя 7: разница 5, побеждает Ana." in text, text
    assert "📋 Строка 5+: Победители добавляют две жёсткие детали." in text
    assert "1. Ana добавляет жёсткую деталь — ждём" in text
    assert "Пропуск детали 1 (Ana)" in labels(panel)
    panel = await reply(stack, OLGA, panel, "+Верная верёвка")
    assert "✅ Ana: жёсткая деталь +«Верная верёвка»" in panel["text"]
    # A harm typed in Russian is a harm, not an ordinary detail; an unknown kind is refused.
    answer = await reply(stack, OLGA, panel, "травма: Содранные ладони")
    assert "«травма:» — не вид детали" in answer["text"], answer["text"]
    panel = await reply(stack, OLGA, panel, "вред: Содранные ладони")
    assert "✅ Ana: вред −«Содранные ладони»" in panel["text"], panel["text"]
    member = await Member.get(campaign_id=campaign_id, player__tg_id=OLGA)
    assert "Содранные ладони" in str(member.sheet["character"]["harms"]), member.sheet
    assert "ждём" not in panel["text"]  # a finished roll waits for nothing
    for said in (panel["text"], *labels(panel)):
        assert english_left(said, "Я перехожу мост", "Верная верёвка") == [], said

    # Downtime in Russian; Bo scouts a card and wins.
    faces.push(4, 1, 6)
    panel = await say(stack, OLGA, "/downtime дом")  # the place typed in Russian
    assert panel["text"].startswith("🌙 Передышка дома")
    assert "осталось 1 действие" in panel["text"] and "Осложнения" in panel["text"]
    assert english_left(panel["text"], "The <Drowned> Mill") == [], panel["text"]
    panel = await tap(stack, BO, panel, "🛠 Работа и разведка")
    assert "◀️ Назад" in labels(panel)
    panel = await tap(stack, BO, panel, "🔭 Разведать")
    panel = await tap(stack, BO, panel, "🔭 c О2 Н3")  # the map's letters in Russian
    panel = await reply(stack, BO, panel, "I climb the ridge")
    panel = await tap(stack, IVAN, panel, "⚖️ Тело")
    panel = await tap(stack, OLGA, panel, "🌍 Мир")
    panel = await tap(stack, BO, panel, "Bo: Curious d8")
    panel = await tap(stack, BO, panel, "Деталей нет")
    panel = await tap(stack, BO, panel, "🎲 Bo: бросок")
    assert "🔭 Bo может взглянуть на эту локацию в личных сообщениях: c (О2 Н3)." in panel["text"]

    # Bo's private look is in his own language, English, at once and when he asks.
    sent = await stack.api.wait_for_message(BO, timeout=10)
    assert sent["text"].startswith("🔭 What you saw at c: The Hollow Tower (D2 R3)"), sent["text"]
    assert "The card stays face down for everyone else" in sent["text"]
    look = await stack.api.press_button(
        BO, GROUP, panel["message_id"], data_of(panel, "🔭 Bo: взглянуть")
    )
    assert (await look.answered(10))["text"] == "Sent to your private chat."
    again = await stack.api.wait_for_message(BO, timeout=10)
    assert again["text"] == sent["text"]

    # The log keeps message ids: Russian for a Russian reader, the English text as before.
    rows = await LogEntry.filter(campaign_id=campaign_id).order_by("id")
    said = [Words.from_json(r.words) for r in rows if r.kind == "roll"]
    assert rows[0].text.startswith("Ana rolled: Aspect 2 = 2 against Mood 7: Ana wins by 5.")
    assert said and said[0] is not None
    assert said[0].said(lang_for("ru").gettext) == (
        "Ana бросает: Аспект 2 = 2 против Настроя 7: побеждает Ana, разница 5."
    )
