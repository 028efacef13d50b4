"""No word escaped the catalogue: everything converted, rendered in the pseudo-language.

The pseudo-language ``xx`` brackets every catalogue message (``⟦…⟧``). Rendered
in it, a message may show outside brackets only what is not ours to translate:
player-written text (names, notes, chat titles), game data (a system's name and
summary), dice notation, numbers, commands, markup and emoji. Any other word is a
literal that skipped the catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from html import escape
from pathlib import Path
from typing import Any

import jinja2
import pytest

from core.campaigns import CampaignView, EndedGame, MemberView
from core.campaigns.play import Home, PlayerRef, RollLine
from core.campaigns.undo import TookBack
from core.rules.dice import parse, roll
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.rules.said import worded
from core.rules.table import Role
from core.rules.waiting import waiting_line
from core.store.models import CampaignStatus
from core.words.i18n import extract_errors, lang_for
from tgbot.app import command_specs
from tgbot.features import sheet
from tgbot.menu import group_menu, private_menu
from tgbot.render import campaign as words
from tgbot.render.dice import render_roll
from tgbot.render.errors import UNEXPECTED, user_message
from tgbot.render.help import general, help_text
from tgbot.render.undo import took_back_text
from tgbot.sandbox.words import WORDS, page_words
from webapp.i18n import SCRIPT_WORDS, install, script_words

XX = lang_for("xx")
ROOT = Path(__file__).resolve().parents[2]
NAMES = ("<b>Bo</b> & Co", "Zoë 🐉 Drake", "Alice Marsh")
CHAT = "The Table"
NSU = default_registry().find("nsu")
GAME_DATA = (
    NSU.name,
    NSU.summary,
    NSU.first_step,
    *(s.name for s in default_registry()),
    *(f"<code>{s.key}</code>" for s in default_registry()),  # a key, as /newgame takes it
)


def leaks(text: str, data: Iterable[str] = ()) -> list[str]:
    """The English words of ``text`` outside the pseudo-language's brackets and the data."""
    for value in sorted({*data, *NAMES, CHAT, *GAME_DATA}, key=len, reverse=True):
        if value:
            text = text.replace(escape(value), " ").replace(value, " ")
    while re.search(r"⟦[^⟦⟧]*⟧", text):  # innermost first: a message may hold another
        text = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
    text = re.sub(r"<[^<>]*>|&\w+;|/\w+|<code>.*?</code>|\b\d*d\d+\w*", " ", text)
    return re.findall(r"[A-Za-z]{2,}", text)


def view(status: CampaignStatus = CampaignStatus.ACTIVE) -> CampaignView:
    return CampaignView(
        id=1,
        system=NSU,
        status=status,
        host_id=1,
        chat_tg_id=-100,
        chat_title=CHAT,
        app_token="t",
        members=(
            MemberView(1, NAMES[0], frozenset({Role.HOST, Role.PLAYER})),
            MemberView(2, NAMES[1], frozenset({Role.GAME_MASTER})),
            MemberView(3, NAMES[2], frozenset({Role.PLAYER})),
        ),
        state={},
        version=1,
    )


def sheet_label(chat_type: str) -> str:
    markup = sheet.sheet_button(
        chat_type=chat_type,
        webapp_url="https://example.org/app",
        bot_username="stonetable_bot",
        short_name=None,
        token="t",
        lang=XX,
    )
    assert markup is not None
    return str(markup.inline_keyboard[0][0].text)


def bot_messages() -> list[str]:
    at = datetime(2026, 11, 23, tzinfo=UTC)
    ended = EndedGame(view(), at, at + timedelta(days=30), resumable=True)
    big = roll(parse("300d6+2d20kh1-3 sneak attack"), SeededRng(1))
    back = TookBack(view(), None, NAMES[0], "an answer", ())  # type: ignore[arg-type]
    choice, choice_buttons = words.system_choice(default_registry(), XX, ended)
    question, end_buttons = words.end_question(view(), XX)
    return [
        render_roll(big, NAMES[1], XX),
        general(XX),
        help_text(default_registry(), [], "nsu", XX),
        choice,
        *(b.text for row in choice_buttons.inline_keyboard for b in row),
        question,
        *(b.text for row in end_buttons.inline_keyboard for b in row),
        words.ended_text(ended, XX),
        words.kept_text(view(), XX),
        words.resumed_text(view(), True, XX),
        words.resumed_text(view(), False, XX),
        *(words.status_text(view(s), XX, ("2 clocks ticking",)) for s in CampaignStatus),
        words.started_text(view(), XX),
        words.joined_text(NAMES[0], XX),
        words.welcome_text(view(), XX, joining=True),
        words.welcome_text(view(), XX, joining=False),
        words.language_text(XX),
        took_back_text(back, XX),
        took_back_text(back, XX, html=False),
        user_message(RuntimeError("boom"), XX),
        *(sheet_label(kind) for kind in ("private", "supergroup")),
        XX.gettext(sheet.OPENS),
        XX.gettext(sheet.NOT_CONFIGURED),
        user_message(NotYourTurn("Only the host can end the game."), XX),
    ]


@pytest.mark.parametrize("text", bot_messages())
def test_every_converted_bot_message_comes_from_the_catalogue(text: str) -> None:
    assert leaks(text, ("2 clocks ticking", "an answer", "sneak attack")) == [], text


CAMPAIGNS = (ROOT / "core" / "campaigns").glob("*.py")


def core_sentences() -> list[str]:
    files = [
        "core/runtime/errors.py", *sorted(f"core/campaigns/{p.name}" for p in CAMPAIGNS),
        "core/campaigns/undo.py", "core/store/undo_steps.py", "core/campaigns/play.py",
        "core/runtime/locks.py",
        "core/views/viewer_pages.py", "core/store/repo.py", "core/rules/lifecycle.py",
        "core/rules/undo.py", "core/campaigns/languages.py", "core/rules/dice.py",
        "core/rules/registry.py",
    ]  # fmt: skip
    files = [f for f in files if (ROOT / f).exists()]  # core/campaigns is a package now
    files += sorted(str(p.relative_to(ROOT)) for p in (ROOT / "core/campaigns").glob("*.py"))
    found = []
    for name in files:
        with (ROOT / name).open("rb") as source:
            found += [t for _, _, t, _ in extract_errors(source, (), (), {}) if isinstance(t, str)]
    return found


@pytest.mark.parametrize("sentence", core_sentences())
def test_every_error_sentence_of_core_reaches_the_user_through_the_catalogue(
    sentence: str,
) -> None:
    for kind in (Malformed, NotAllowedNow, NotYourTurn):
        said = user_message(
            kind(
                sentence,
                label="x",
                code="x",
                known="x",
                name="x",
                examples="2d6",
                limit=9,
                kb=9,
                count=2,
                dice="2d6",
                text="x",
                key="x",
                symbol="↩",
                example="4d6kh3",
                seconds=10,
            ),
            XX,
        )
        assert leaks(said) == [], said
    assert lang_for("ru").gettext(sentence) != sentence, "not in the Russian catalogue"


def test_the_unexpected_error_is_translated() -> None:
    assert leaks(user_message(ValueError(), XX)) == []
    assert lang_for("ru").gettext(UNEXPECTED) != UNEXPECTED


def test_the_common_command_menus_are_described_from_the_catalogue() -> None:
    specs = command_specs()
    menus = (group_menu(specs, None, XX), group_menu(specs, "nsu", XX), private_menu(specs, (), XX))
    for command in (c for menu in menus for c in menu):
        assert leaks(command.description) == [], command


def render(name: str, **context: Any) -> str:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(ROOT / "webapp" / "templates"),
        autoescape=jinja2.select_autoescape(default=True),
    )
    install(env)
    return env.get_template(name).render(**context, lang=XX)


def visible(html: str) -> str:
    """Text a reader sees: no attributes' code, no scripts' data."""
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return re.sub(r"<title>.*?</title>", " ", html, flags=re.S)


def test_the_mini_app_home_shell_and_problem_pages_come_from_the_catalogue() -> None:
    at = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
    rolls = (RollLine("2d6+3", "sneak attack", 11, CHAT, at),)
    home = Home(PlayerRef(1, NAMES[0]), CHAT, rolls)
    games = [view()]
    line = waiting_line({1}, {1: NAMES[0]}, at, at + timedelta(hours=2))
    assert line is not None
    waits = {games[0].id: worded(line, XX.gettext)}  # as the home page words it
    pages = [
        render("home.html", home=home, games=games, waits=waits),
        render("home.html", home=Home(PlayerRef(1, NAMES[1]), "", ()), games=[], waits={}),
        render("shell.html", telegram_script="", css_url="", js_url="", script_words="{}"),
        render("problem.html", message="⟦x⟧"),
        render("unauthorized.html"),
    ]
    for page in pages:
        said_day = XX.day(at, "medium")  # Babel's date, in the pseudo-language's English form
        assert leaks(visible(page), ("sneak attack", "Stonetable", said_day)) == [], page
    assert "Hello, " not in pages[0] and NAMES[0] not in pages[0]  # the name is escaped
    assert escape(NAMES[0]) in pages[0]


def test_the_mini_app_scripts_words_come_from_the_catalogue() -> None:
    for key, message in SCRIPT_WORDS.items():
        assert XX.gettext(message).startswith("⟦"), key
    assert '"ru"' in script_words() and "</" not in script_words()


def test_the_sandbox_page_words_come_from_the_catalogue() -> None:
    assert set(page_words(XX)) == set(WORDS)
    for key, text in page_words(XX).items():
        assert leaks(text) == [], key
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(ROOT / "tgbot" / "sandbox" / "templates"),
        autoescape=jinja2.select_autoescape(["html"]),
    )
    page = env.get_template("sandbox.html").render(
        prefix="/sandbox",
        bot={"id": 1, "first_name": "Stonetable", "username": "stonetable_bot"},
        words=page_words(XX),
        words_json="{}",
        languages=[("en", "English"), ("ru", "Русский")],
    )
    assert leaks(visible(page), ("Stonetable", "stonetable_bot", "English")) == []


EDGE_FILES = (
    "tgbot/features/panels.py", "webapp/campaign_log.py", "core/views/archive.py",
    "core/campaigns/pictures.py"
)  # fmt: skip
"""Where presses, replies to panels, the log page, game archives and pictures refuse."""


def edge_sentences() -> list[str]:
    found = []
    for name in EDGE_FILES:
        with (ROOT / name).open("rb") as source:
            found += [text for _, _, text, _ in extract_errors(source, (), (), {})]
    return found


@pytest.mark.parametrize("sentence", edge_sentences())
def test_every_refusal_of_a_press_a_reply_the_log_or_an_archive_comes_from_the_catalogue(
    sentence: str,
) -> None:
    said = user_message(Malformed(sentence, most=1000, what="x", kb=512), XX)
    assert leaks(said) == [], said
    assert lang_for("ru").gettext(sentence) != sentence, "not in the Russian catalogue"


def test_the_edge_files_refuse_with_sentences_at_all() -> None:
    assert len(edge_sentences()) >= 5  # the extractor finds them: the test above is not empty


def test_the_group_is_asked_to_open_a_private_chat_in_its_language() -> None:
    source = (ROOT / "tgbot" / "private.py").read_text()
    messages = re.findall(r'gettext\(\s*((?:"[^"]*"\s*)+)', source)
    assert len(messages) == 3  # the button, and the notice with and without a name
    for found in messages:
        message = "".join(re.findall(r'"([^"]*)"', found))
        said = XX.gettext(message, name=escape(NAMES[0])) if "{name}" in message else None
        said = said or XX.gettext(message)
        assert leaks(said) == [], said
        assert lang_for("ru").gettext(message) != message, message


def test_the_mini_app_players_page_comes_from_the_catalogue() -> None:
    members = [{"name": NAMES[0], "you": True}, {"name": NAMES[1], "you": False}]
    page = render("sheets/members.html", sheet={"members": members})
    assert leaks(visible(page)) == [] and escape(NAMES[0]) in page
