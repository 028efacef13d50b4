"""No Stone Unturned's Mini App pages, rendered in the pseudo-language at every step.

A game is walked from the first worldbuilding step to a built world with finished
characters; after each step every page (Sheet with character creation, World, Map,
My cards, a card, Log) is rendered for a builder and for a player who is not
building, in ``xx``. Outside the pseudo-language's brackets only player-written
text, names, card ids, dice and numbers may show: any other word escaped the
catalogue. The words read aloud or on hover (``aria-label``, ``title``, ``alt``,
``placeholder``, the main button's label) are checked the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from html import escape, unescape
from typing import Any

import jinja2
import pytest

from core.campaigns import CampaignView, MemberView
from core.rules.errors import Malformed, StonetableError
from core.rules.log import LogKind
from core.rules.nsu.campaign import campaign_of
from core.rules.table import Role, Table
from core.store.models import CampaignStatus
from core.views.projection import LogLineView
from core.words.i18n import extract_errors, lang_for
from tests.core.rules.nsu.table_support import (
    ALICE,
    BOB,
    CARA,
    CARD_TEXTS,
    NAMES,
    Harness,
    build_world,
    card_fields,
    make_character,
)
from tests.tgbot.test_i18n_pseudo import NSU, ROOT, XX, leaks, visible
from tests.tgbot.test_i18n_pseudo import render as in_pseudo
from tgbot.render.errors import user_message
from webapp.i18n import install
from webapp.log_lines import log_context
from webapp.nsu_map import card_context, cards_context, map_context
from webapp.nsu_world import world_context
from webapp.sheets.nsu import PAGE

RU = lang_for("ru")

OUTSIDER = 104
TONE, BANS, SAID = "Weird and hopeful", ("No dragons", "No time travel"), "Buses for walls"
RESOURCES = ("Water", "Salt", "Music", "Light", "Trust")
PLAYER_TEXT = (
    TONE,
    *BANS,
    SAID,
    "A week between trips",
    "The walls are made of old buses",
    "A bell rings at noon",
    *RESOURCES,
    *NAMES.values(),
    *(f"{NAMES[p]} 1" for p in NAMES),
    *(f"{NAMES[p]} 2" for p in NAMES),
    *(value for texts in CARD_TEXTS.values() for value in texts[0]),
    *(f"{texts[0][0]} {n}" for texts in CARD_TEXTS.values() for n in (1, 2)),
    *(f"Wren {p}" for p in NAMES),
    "she/her",
    "Tall, in a coat of maps",
    "Curious",
    "Wary",
    "Angry",
    "My compass",
    "The bell",
    "Climbing",
    "Talking",
    "Fixing",
    "Heard of glass trees",
    "Heard of more glass",
    "The Table",
    "Someone",
    "get across",
)
ATTRIBUTES = re.compile(r'(?:aria-label|title|alt|placeholder|data-main-button)="([^"]*)"')


def in_russian(name: str, **context: Any) -> str:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(ROOT / "webapp" / "templates"),
        autoescape=jinja2.select_autoescape(default=True),
    )
    install(env)
    return env.get_template(name).render(**context, lang=RU)


def view_of(table: Table) -> CampaignView:
    members = [
        MemberView(pid, seat.name, frozenset(seat.roles)) for pid, seat in table.seats.items()
    ]
    members.append(MemberView(OUTSIDER, "Someone", frozenset({Role.PLAYER})))
    return CampaignView(
        id=1,
        system=NSU,
        status=CampaignStatus.ACTIVE,
        host_id=ALICE,
        chat_tg_id=-100,
        chat_title="The Table",
        app_token="t",
        members=tuple(members),
        state={},
        version=1,
    )


def pages(table: Table, viewer: int, *, ru: bool = False) -> Iterator[tuple[str, str]]:
    view = view_of(table)
    base: dict[str, Any] = {"view": view, "token": "t"}
    lang = RU if ru else XX
    render = in_russian if ru else in_pseudo
    yield "world", render("nsu/world.html", **base, w=world_context(table, viewer))
    mapped = map_context(view, table, viewer, frozenset())
    mapped["details"] = [
        {"panel": 1, "version": 1, "roller": "Wren 101", "desired": desired, "grants": grants}
        for desired, grants in (
            ("get across", ["a scene detail", "a hard detail (negative)"]),
            ("", ["a hard detail", "a scene detail (negative)"]),
        )
    ]
    yield "map", render("nsu/map.html", **base, map=mapped)
    yield (
        "cards",
        render("nsu/cards.html", **base, mine=cards_context(view, table, viewer, frozenset())),
    )
    world = campaign_of(table).current_world()
    for card in () if world is None else world.cards[:2]:
        context = card_context(view, table, viewer, card.id, frozenset())
        yield f"card {card.id}", render("nsu/card.html", **base, **context)
    if viewer in table.seats:
        sheet = PAGE.context(view, table, viewer)
        yield "sheet", render("campaign.html", **base, page=PAGE, sheet=sheet)
    at = datetime(2026, 11, 23, 14, 5, tzinfo=UTC)
    entries = (
        LogLineView(LogKind.ROLL, "Wren 101 rolled", (ALICE,), at),
        LogLineView(LogKind.DETAIL, "Wren 101: +get across", (ALICE,), at),
        LogLineView(LogKind.MAP, "Wren 101 went home", (), at),
    )
    for undo in (None, {"step": 3, "label": "get across"}):
        log = log_context(view, entries, None, {ALICE: "Wren 101"}, lang)
        log["undo"] = undo
        yield "log", render("log.html", **base, log=log)
    empty = log_context(view, (), ALICE, {}, lang)
    yield "empty log", render("log.html", **base, log={**empty, "undo": None})


def escaped(html: str) -> list[str]:
    log_words = ("rolled", "went home")  # the log lines' own text comes from the rules
    data = (*PLAYER_TEXT, *log_words, XX.day(datetime(2026, 11, 23), "medium"), "Nov")
    html = re.sub(r"\bdraft-\d+\b", " ", html)  # a card's id while its author writes it
    said = leaks(visible(html), data)
    for value in ATTRIBUTES.findall(html):
        said += leaks(unescape(value), data)
    return said


def check(h: Harness, where: str) -> None:
    table = h.table()
    for viewer in (ALICE, OUTSIDER):
        for page, html in pages(table, viewer):
            assert escaped(html) == [], (where, page, viewer, escaped(html))


def test_every_nsu_mini_app_page_at_every_step_comes_from_the_catalogue() -> None:
    h = Harness()
    check(h, "before worldbuilding")
    panel = h.open("nsu.setup", ALICE)
    steps = [
        (ALICE, "text", TONE),
        (BOB, "agree", ""),
        (CARA, "agree", ""),
        (ALICE, "text", BANS[0]),
        (BOB, "pass", ""),
        (CARA, "text", BANS[1]),
        (ALICE, "text", SAID),
        (BOB, "pass", ""),
        (CARA, "pass", ""),
        (ALICE, "text", "A week between trips"),
        (BOB, "scope", ""),
        *[(p, "text", n) for p, n in zip((ALICE, BOB, CARA, ALICE, BOB), RESOURCES, strict=True)],
        (CARA, "abundance", "2"),
    ]
    check(h, "tone")
    for actor, action, argument in steps:
        h.act(panel, actor, action, argument)
        check(h, f"{action} {argument}")
    for pid in (ALICE, BOB, CARA):
        for n in (1, 2):
            cards = h.open("nsu.cards", pid)
            for value in card_fields(pid, n):
                h.act(cards, pid, "text", value)
        check(h, f"{NAMES[pid]}'s locations")
    h.act(panel, BOB, "deal", "3")
    check(h, "dealt")
    h.act(panel, CARA, "roll")
    check(h, "rolled")
    creating = h.open("nsu.character", CARA)
    check(h, "a character begun")
    h.act(creating, CARA, "text", f"Wren {CARA}")
    check(h, "a character named")
    for pid in (ALICE, BOB):
        make_character(h, pid)
    check(h, "characters made")


def test_every_nsu_mini_app_page_in_russian_leaves_no_english() -> None:
    """The same pages in Russian: no Latin word but player text, names and dice."""
    h = Harness()
    build_world(h)
    make_character(h, ALICE)
    h.act(h.open("nsu.character", BOB), BOB, "text", f"Wren {BOB}")
    table = h.table()
    data = (*PLAYER_TEXT, "rolled", "went home", NSU.name, "PNG", "JPEG")  # file formats
    for name, html in pages(table, ALICE, ru=True):
        text = visible(html)
        for value in sorted(data, key=len, reverse=True):
            text = text.replace(escape(value), " ").replace(value, " ")
        text = re.sub(r"<code>.*?</code>", " ", text)  # what to type stays as typed
        text = re.sub(r"<[^<>]*>|&\w+;|\b\d*[dDR]\d+\w*", " ", text)
        assert re.findall(r"[A-Za-z]{2,}", text) == [], name


NSU_ERROR_FILES = (
    "setup.py", "setup_panel.py", "edits_setup.py", "world.py", "glance.py", "campaign.py",
    "cards_panel.py", "character_panel.py", "sheet.py", "action_roll.py", "adventure_panel.py",
    "details.py", "downtime.py", "downtime_panel.py", "edits_play.py", "play_table.py",
    "roll_actions.py", "roll_panel.py", "roll_state.py", "safety_panel.py", "terms.py",
)  # fmt: skip


def nsu_sentences() -> list[str]:
    found = []
    for name in NSU_ERROR_FILES:
        with (ROOT / "core" / "rules" / "nsu" / name).open("rb") as source:
            found += [text for _, _, text, _ in extract_errors(source, (), (), {})]
    return found


@pytest.mark.parametrize("sentence", nsu_sentences())
def test_every_sentence_nsu_rules_refuse_with_comes_from_the_catalogue(
    sentence: str,
) -> None:
    said = user_message(Malformed(sentence), XX)
    assert leaks(said) == [], said
    assert RU.gettext(sentence) != sentence, "not in the Russian catalogue"


def test_a_worldbuilding_refusal_reaches_a_russian_player_in_russian() -> None:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    with pytest.raises(StonetableError) as refused:
        h.act(panel, BOB, "agree")  # nothing written down to agree with yet
    said = user_message(refused.value, RU)
    assert said == "⏳ Никто ещё не записал тон, с которым можно согласиться.", said
    assert user_message(refused.value, lang_for("en")).endswith(
        "Nobody has written down a tone to agree with yet."
    )
