"""Ending a game in the chat: the question's text and its End/Cancel buttons."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.campaigns import CampaignView, EndedGame, MemberView
from core.rules.errors import Malformed
from core.rules.registry import default_registry
from core.rules.table import Role
from core.store.models import CampaignStatus
from core.words.i18n import lang_for
from tgbot.buttons.campaign import EndAnswer, EndButton
from tgbot.callback import decode_as
from tgbot.render.campaign import end_question, ended_text, system_choice
from tgbot.sandbox.fake_api import parse_html

HOST = 7
EN = lang_for("en")
NASTY = "<b>Bo</b> & <i>Co"


def view(version: int = 3, campaign_id: int = 12, system: str = "nsu") -> CampaignView:
    return CampaignView(
        id=campaign_id,
        system=default_registry().find(system),
        status=CampaignStatus.ACTIVE,
        host_id=HOST,
        chat_tg_id=-100,
        chat_title="The Table",
        app_token="t",
        members=(MemberView(HOST, NASTY, frozenset({Role.HOST, Role.PLAYER})),),
        state={},
        version=version,
    )


def test_the_question_says_what_is_kept_who_answers_and_offers_end_and_cancel() -> None:
    text, markup = end_question(view(), EN)
    plain, _ = parse_html(text)
    assert "End the No Stone Unturned game?" in plain
    for kept in ("sheets", "map", "log", "30 days", "/resume"):
        assert kept in plain
    assert f"Only {NASTY} (the host) can answer." in plain  # escaped, shown as written
    buttons = [b for row in markup.inline_keyboard for b in row]
    assert [b.text for b in buttons] == ["🏁 End the game", "✖️ Cancel"]
    answers = [decode_as(str(b.callback_data), EndButton) for b in buttons]
    assert answers == [EndButton(EndAnswer.END, 12, 3), EndButton(EndAnswer.KEEP, 12, 3)]


def test_the_ended_message_and_the_new_game_prompt_name_the_last_day() -> None:
    ended_at = datetime(2026, 11, 23, 13, 0, tzinfo=UTC)
    ended = EndedGame(view(), ended_at, ended_at + timedelta(days=30), resumable=True)
    plain, _ = parse_html(ended_text(ended, EN))
    assert "has ended" in plain and "/resume until 23 December 2026" in plain
    prompt, _ = parse_html(system_choice(default_registry(), EN, ended)[0])
    assert "can still come back with /resume until 23 December 2026" in prompt
    gone = EndedGame(view(), ended_at, ended_at + timedelta(days=30), resumable=False)
    assert "/resume" not in system_choice(default_registry(), EN, gone)[0]


@pytest.mark.parametrize("code", ["en", "ru"])
@pytest.mark.parametrize("system", ["threat", "cortex", "d20"])
def test_a_game_without_a_map_promises_no_map_or_world_at_its_end(code: str, system: str) -> None:
    lang = lang_for(code)
    ended_at = datetime(2026, 11, 26, 13, 0, tzinfo=UTC)
    ended = EndedGame(view(system=system), ended_at, ended_at + timedelta(days=30), True)
    question, _ = parse_html(end_question(view(system=system), lang)[0])
    notice, _ = parse_html(ended_text(ended, lang))
    for text in (question, notice):
        for promised in ("map", "world", "карт", "мир"):
            assert promised not in text.lower(), (promised, text)
    assert ".." not in notice and "г.." not in notice


def test_russian_names_the_game_in_quotes_and_ends_no_sentence_on_a_date() -> None:
    ru = lang_for("ru")
    ended_at = datetime(2026, 11, 26, 13, 0, tzinfo=UTC)
    ended = EndedGame(view(system="cortex"), ended_at, ended_at + timedelta(days=30), True)
    notice, _ = parse_html(ended_text(ended, ru))
    assert "Игра «Драма Cortex» завершена" in notice
    assert "До 26 декабря 2026\u202fг. организатор" in notice
    question, _ = parse_html(end_question(view(), ru)[0])
    assert "Завершить игру «No Stone Unturned»?" in question and "карта" in question


def test_other_buttons_are_not_answers() -> None:
    for data in ("g1:newgame:nsu", "p1:3:1:inc", "g1:endgame:maybe.1.2", "g1:endgame:end.1"):
        with pytest.raises(Malformed, match="out of date"):
            decode_as(data, EndButton)


def test_an_answer_from_before_the_compact_form_still_reads() -> None:
    assert decode_as("g1:endgame:end.12.3", EndButton) == EndButton(EndAnswer.END, 12, 3)
