"""No Stone Unturned's panels before play, in the pseudo-language and in Russian, at every step.

A game is walked from the first worldbuilding step to the deal, each player writes
(and rewrites) their locations, makes a character (skipping, going back, finishing),
the party travels, splits, switches focus, ticks a clock and heads home, and a
player adds lines and veils. After every step each panel is rendered, and so are
its buttons and the notes it sends (the picture to paint for a flipped card, the
Arbiters' briefing, a new line or veil), the X-card and the knock, /status, the
commands' menu and the refusals the commands answer with.

In ``xx`` nothing but player text, names, card ids and dice may show outside the
pseudo-language's brackets; in ``ru`` no Latin word is left but those. Every
keyboard drawn in Russian still fits a phone.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from html import escape

import pytest
from telegram import InlineKeyboardMarkup

from core.campaigns import CampaignView, MemberView, PanelView
from core.rules.errors import StonetableError
from core.rules.nsu import SYSTEM
from core.rules.nsu.adventure_panel import adventure_choices, scene
from core.rules.nsu.cards_panel import CardsVerb, cards_choices, cards_view
from core.rules.nsu.character_panel import creation_choices, creation_view
from core.rules.nsu.glance import nsu_status_lines
from core.rules.nsu.sheet import CharacterDraft, finish_creation
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.rules.said import worded
from core.rules.table import Table
from core.store.models import CampaignStatus
from core.words.i18n import Lang, lang_for
from tests.core.rules.nsu.table_support import (
    ALICE,
    BOB,
    CARA,
    NAMES,
    Harness,
    Panel,
    build_to_locations,
    build_world,
    card_fields,
    make_character,
    write_locations,
)
from tests.support.nsu_table import character, split, table, world
from tests.tgbot.test_i18n_pseudo import NSU, XX, leaks
from tests.tgbot.test_i18n_pseudo_nsu import PLAYER_TEXT
from tests.tgbot.test_render_phone import problems
from tgbot.features import nsu as nsu_feature
from tgbot.panels import Note
from tgbot.render.campaign import started_text, status_text
from tgbot.render.errors import user_message
from tgbot.render.nsu import KNOCK_TEXT, RENDERERS, X_CARD_TEXT, safety_row
from tgbot.updates import no_game_yet

RU = lang_for("ru")
RENDER = {r.kind: r for r in RENDERERS}
GROUP = -100
SUPPORT_TEXT = (  # the ready-made table's player text (tests/support/nsu_table.py)
    "The secret face of The <Drowned> Mill",
    "The <Drowned> Mill",
    "the river folk",
    "beasts",
    "old maps",
    *("water", "seeds", "songs", "tools", "medicine"),
    "Glass Orchard",
    "The Hollow Tower",
    "Patched coat",
    "they/them",
    "P1",
    "P2",
    "P3",
    "Ana",
    "Bo",
    "Cy",
    "Spiders",
    "Fire",
    "Rewritten",
    "Tall",
)
DATA = (*PLAYER_TEXT, *SUPPORT_TEXT, "Wren", "Moss", "Bell")


@dataclass
class Shown:
    """Everything a reader saw: text, button labels and notes, with where it was."""

    said: list[tuple[str, str]] = field(default_factory=list)
    keyboards: list[tuple[str, InlineKeyboardMarkup]] = field(default_factory=list)

    def add(self, where: str, text: str) -> None:
        self.said.append((where, text))

    def panel(self, where: str, view: PanelView, lang: Lang) -> None:
        renderer = RENDER[view.kind]
        html, markup = renderer.render(view, lang)
        self.add(where, html)
        if markup is not None:
            self.keyboards.append((where, markup))
            for row in markup.inline_keyboard:
                for button in row:
                    self.add(f"{where} button", button.text)
        for note in getattr(renderer, "follow_ups", lambda _: ())(view):
            if isinstance(note, Note):
                self.add(f"{where} note to {note.chat_id}", note.text)


def campaign(t: Table, code: str) -> CampaignView:
    """The game as its group reads it in ``code``; every seated player reads ``code`` too."""
    members = tuple(
        MemberView(pid, seat.name, frozenset(seat.roles), code) for pid, seat in t.seats.items()
    )
    return CampaignView(
        id=1,
        system=SYSTEM,
        status=CampaignStatus.ACTIVE,
        host_id=ALICE,
        chat_tg_id=GROUP,
        chat_title="The Table",
        app_token="t",
        members=members,
        state=t.state,
        version=1,
        language=code,
    )


def view_of(t: Table, panel: Panel, code: str, chat: int = GROUP) -> PanelView:
    return PanelView(
        id=9,
        kind=panel.kind,
        version=3,
        state=panel.state,
        closed=panel.closed,
        chat_tg_id=chat,
        message_id=5,
        events=panel.events,
        campaign=campaign(t, code),
        table=t,
    )


def walk(code: str) -> Shown:
    """Play every panel before play through, rendering each step in ``code``."""
    lang = lang_for(code)
    shown = Shown()

    def see(h: Harness, panel: Panel, where: str, chat: int = GROUP) -> None:
        shown.panel(where, view_of(h.table(), panel, code, chat), lang)

    def glance(t: Table, where: str) -> None:
        for line in nsu_status_lines(t):
            shown.add(f"status {where}", worded(line, lang.gettext))
        shown.add(f"/status {where}", status_text(campaign(t, code), lang, nsu_status_lines(t)))

    h = Harness()
    glance(h.table(), "before worldbuilding")
    shown.add("the game started", started_text(campaign(h.table(), code), lang))
    setup = h.open("nsu.setup", ALICE)
    see(h, setup, "the tone")
    steps = [
        (ALICE, "tool", "0"),
        (ALICE, "text", "Weird and hopeful"),
        (BOB, "agree", ""),
        (CARA, "agree", ""),
        (ALICE, "text", "No dragons"),
        (BOB, "pass", ""),
        (CARA, "text", "No time travel"),
        (ALICE, "text", "Buses for walls"),
        (BOB, "pass", ""),
        (CARA, "text", "^1 A bell rings at noon"),
        (ALICE, "pass", ""),
        (BOB, "full", ""),
        (ALICE, "skipq", ""),
        (BOB, "text", "A week between trips"),
        (CARA, "scope", ""),
        *[
            (p, "text", n)
            for p, n in zip((ALICE, BOB, CARA), ("Water", "Salt", "Music"), strict=True)
        ],
        (ALICE, "text", "Light"),
        (BOB, "text", "Trust"),
        (CARA, "abundance", "2"),
    ]
    for actor, action, argument in steps:
        try:
            h.act(setup, actor, action, argument)
        except StonetableError as refused:
            shown.add(f"refused {action}", user_message(refused, lang))
        see(h, setup, f"{action} {argument}")
        glance(h.table(), f"worldbuilding after {action}")
    # locations, in private: a field at a time, back, over, a rewrite
    for pid in (ALICE, BOB, CARA):
        for n in (1, 2):
            cards = h.open("nsu.cards", pid, "9")
            see(h, cards, f"{NAMES[pid]}'s card {n}", pid)
            if pid == ALICE and n == 1:
                with pytest.raises(StonetableError) as refused:
                    h.act(cards, pid, "text", "A very long title " * 10)
                shown.add("refused title", user_message(refused.value, lang))
            for i, value in enumerate(card_fields(pid, n)):
                h.act(cards, pid, "text", value)
                see(h, cards, f"{NAMES[pid]}'s card {n} field {i}", pid)
                if pid == ALICE and n == 1 and i == 1:
                    h.act(cards, pid, "back")
                    see(h, cards, "back a field", pid)
                    h.act(cards, pid, "text", value)
            if pid == BOB and n == 2:
                saved = cards_view(h.table(), cards.state).revisable[0]
                h.act(cards, pid, "edit", saved.id)
                see(h, cards, "rewriting", pid)
                h.act(cards, pid, "text", "Rewritten")
                see(h, cards, "rewritten title", pid)
                for _ in range(4):
                    h.act(cards, pid, "keep")
                see(h, cards, "rewrite kept", pid)
        left = cards_choices(cards_view(h.table(), cards.state))
        assert {c.verb for c in left} <= {CardsVerb.EDIT}  # both written: a rewrite at most
        see(h, setup, f"{NAMES[pid]} wrote")
    h.act(setup, BOB, "deal", "3")
    see(h, setup, "dealt")
    try:
        h.open("nsu.cards", ALICE)
    except StonetableError as refused:
        shown.add("cards after the deal", user_message(refused, lang))
    h.act(setup, CARA, "roll")
    see(h, setup, "the world is built")
    glance(h.table(), "built")
    # a character: every step, back, skip, the missing list, finish
    creating = h.open("nsu.character", CARA, "9")
    see(h, creating, "a character begun", CARA)
    h.act(creating, CARA, "skip")
    see(h, creating, "name skipped", CARA)
    for too_long in ("she/her " * 10, " "):  # refused pronouns: too long, then empty
        with pytest.raises(StonetableError) as refused:
            h.act(creating, CARA, "text", too_long)
        shown.add("refused pronouns", user_message(refused.value, lang))
    for action, argument in [
        ("text", "she/her"),
        ("text", "Tall"),
        ("goto", ""),
        ("text", "she/her"),
        ("text", "Tall, in a coat of maps"),
        ("text", "Curious, Wary, Angry"),
        ("aspects", "1"),
        ("text", "My compass\n-\nThe bell"),
        ("text", "Climbing, Talking, Fixing"),
        ("text", "Heard of glass trees"),
        ("text", "Heard of more glass"),
    ]:
        h.act(creating, CARA, action, argument or back(h, creating))
        see(h, creating, f"character {action} {argument[:10]}", CARA)
    h.act(creating, CARA, "goto", "0")  # back to the skipped name, to answer it
    see(h, creating, "back to the name", CARA)
    h.act(creating, CARA, "text", f"Wren {CARA}")
    see(h, creating, "named last", CARA)
    h.act(creating, CARA, "finish")
    see(h, creating, "finished", CARA)
    glance(h.table(), "one character")
    adventure = h.open("nsu.adventure", ALICE)
    see(h, adventure, "adventure before every character")
    try:
        h.act(adventure, CARA, "travel")
        h.act(adventure, CARA, "go", "0")
    except StonetableError as refused:
        shown.add("set out too soon", user_message(refused, lang))
    for pid in (ALICE, BOB):
        make_character(h, pid)
    # the adventure: every button, at random, with the notes it sends
    adventure = h.open("nsu.adventure", ALICE)
    rnd = random.Random(5)
    for step in range(40):
        see(h, adventure, f"adventure step {step}")
        glance(h.table(), f"adventure step {step}")
        choices = adventure_choices(scene(h.table(), adventure.state))
        if not choices:
            break
        choice = rnd.choice(choices)
        try:
            h.act(adventure, min(choice.by), choice.verb.value, choice.argument)
        except StonetableError as refused:
            shown.add(f"refused {choice.verb.value}", user_message(refused, lang))
    # lines and veils, and the safety signals
    for kind in ("line", "veil"):
        safety = h.open("nsu.safety", BOB, kind)
        see(h, safety, f"{kind}s", BOB)
        h.act(safety, BOB, "text", "Spiders" if kind == "line" else "Fire")
        see(h, safety, f"a {kind} added", BOB)
        h.act(safety, BOB, "kind", "veil" if kind == "line" else "line")
        see(h, safety, f"switched from {kind}s", BOB)
    glance(h.table(), "with lines and veils")
    shown.add("x-card", lang.gettext(X_CARD_TEXT))
    shown.add("knock", lang.gettext(KNOCK_TEXT))
    shown.add("safety row", " ".join(b.text for b in safety_row(1, lang)))
    # a ready table: downtime, a split party, an Overcome character
    hurt = character("Bo")
    for i in range(4):
        hurt = hurt.add_harm(f"Hurt {i}")
    cast = {1: character("Ana"), 2: hurt, 3: character("Cy")}
    for phase in ("adventure", "downtime"):
        ready = table(split(world((1, 2, 3)), {1, 2}, {3}), cast, phase=phase)
        out = SYSTEM.panel("nsu.adventure").open(ready, 1, "", SeededRng(1))
        state = json.loads(json.dumps(out.state))
        shown.panel(phase, view_of(ready, Panel("nsu.adventure", state), code), lang)
        glance(ready, phase)
    return shown


def back(h: Harness, creating: Panel) -> str:
    """The step the character panel's Back button goes to."""
    choices = creation_choices(creation_view(h.table(), creating.state))
    return next(c.argument for c in choices if c.verb.value == "goto")


def commands_and_answers(lang: Lang) -> Iterator[tuple[str, str]]:
    """The NSU commands' menu and what the commands answer outside panels."""
    for spec in nsu_feature.COMMANDS:
        yield f"/{spec.name} in the menu", lang.gettext(spec.description)
    for answer in (
        nsu_feature.SENT_PRIVATELY,
        "Done. Nobody is told it was you.",
        "Done. The group was told, without your name.",
        "No Stone Unturned: the map",
        "Open the map",
    ):
        yield answer, lang.gettext(answer)
    refusals = [
        nsu_feature.PRIVATE_FIRST,
        "That command is for No Stone Unturned games.",
        "You're not in this game. Join it with /join in its group.",
    ]
    for refusal in refusals:
        yield refusal, user_message(StonetableError(refusal), lang)
    yield "no game yet", user_message(no_game_yet(default_registry(), "nsu"), lang)
    too_few = h_refusal()
    yield "too few players", user_message(too_few, lang)


def h_refusal() -> StonetableError:
    """The refusal to begin worldbuilding with one player at the table."""
    lonely = Harness(players=(ALICE,))
    try:
        lonely.open("nsu.setup", ALICE)
    except StonetableError as refused:
        return refused
    raise AssertionError("a lonely table began worldbuilding")


@pytest.fixture(scope="module")
def in_pseudo() -> Shown:
    return walk("xx")


@pytest.fixture(scope="module")
def in_russian() -> Shown:
    return walk("ru")


def test_the_walk_reaches_every_panel_and_note(in_pseudo: Shown) -> None:
    """The walk is worth checking: every kind of panel and note shows up in it."""
    where = " | ".join(w for w, _ in in_pseudo.said)
    for seen in (
        "the tone",
        "full",
        "skipq",
        "abundance",
        "Alice's card 1 field 0",
        "rewriting",
        "dealt",
        "the world is built",
        "name skipped",
        "finished",
        "adventure before every character",
        "note to 101",  # a flipped card's author, or an Arbiter
        f"note to {GROUP}",  # a new line or veil, to the group
        "downtime",
        "status before worldbuilding",
        "set out too soon",
        "cards after the deal",
        "refused pronouns",
        "refused title",
    ):
        assert seen in where, seen
    texts = " ".join(t for _, t in in_pseudo.said)
    assert "👉" in texts and "🛑" in texts


def test_every_nsu_panel_before_play_in_pseudo_comes_from_the_catalogue(
    in_pseudo: Shown,
) -> None:
    for where, text in in_pseudo.said:
        assert leaks(text, DATA) == [], (where, text)
    for where, text in commands_and_answers(XX):
        assert leaks(text, DATA) == [], (where, text)


def english_left(text: str) -> list[str]:
    """The Latin words of a Russian text but player text, game data, commands, dice."""
    for value in sorted({*DATA, *NAMES.values(), NSU.name, "The Table"}, key=len, reverse=True):
        text = text.replace(escape(value), " ").replace(value, " ")
    text = re.sub(r"<code>.*?</code>", " ", text)  # what to type stays as typed
    text = re.sub(r"<[^<>]*>|&\w+;|/\w+|\b\d*[dDR]\d+\w*|\bD\?|\bR\?", " ", text)
    text = re.sub(r"\bNSU\b", " ", text)  # the game's short name in the menu
    return re.findall(r"[A-Za-z]{2,}", text)


def test_every_nsu_panel_before_play_in_russian_leaves_no_english(in_russian: Shown) -> None:
    for where, text in in_russian.said:
        assert english_left(text) == [], (where, text)
    for where, text in commands_and_answers(RU):
        assert english_left(text) == [], (where, text)


def test_every_keyboard_in_russian_fits_a_phone(in_russian: Shown) -> None:
    safety = {b.text for b in safety_row(1, RU)}
    for where, markup in in_russian.keyboards:
        own = [row for row in markup.inline_keyboard if {b.text for b in row} != safety]
        assert problems(InlineKeyboardMarkup(own)) == [], where


def test_russian_reads_russian_where_it_matters() -> None:
    """A few lines as a Russian table reads them (the glossary's words)."""
    h = Harness()
    build_to_locations(h)
    write_locations(h)
    setup = h.open("nsu.setup", ALICE)
    html, _ = RENDER["nsu.setup"].render(view_of(h.table(), setup, "ru"), RU)
    assert "🌍 <b>Создание мира</b> — шаг 8 из 9: <i>раскладка карты</i>" in html, html
    assert "📦 Ресурсы: Water (нехватка)" in html, html
    h2 = Harness()
    build_world(h2)
    glance = status_text(campaign(h2.table(), "ru"), RU, nsu_status_lines(h2.table()))
    assert "🧍 Персонажи: Alice: создаёт персонажа; Bob: создаёт персонажа" in glance, glance
    assert "📦 Water (нехватка), Salt (нехватка), Music (изобилие)" in glance, glance
    english = status_text(campaign(h2.table(), "en"), lang_for("en"), nsu_status_lines(h2.table()))
    assert "🧍 Characters: Alice: making one; Bob: making one" in english, english


def test_a_private_note_follows_its_reader_and_a_group_note_the_game() -> None:
    """The author of a flipped card reads its note in their language, the group in the game's."""
    h = Harness()
    build_world(h)
    for pid in (ALICE, BOB, CARA):
        make_character(h, pid)
    adventure = h.open("nsu.adventure", ALICE)
    h.act(adventure, ALICE, "travel")
    h.act(adventure, ALICE, "go", "0")
    t = h.table()
    game = campaign(t, "ru")
    members = tuple(
        MemberView(m.player_id, m.name, m.roles, "en" if m.player_id == BOB else "ru")
        for m in game.members
    )
    view = replace(view_of(t, adventure, "ru"), campaign=replace(game, members=members))
    notes = {n.chat_id: n.text for n in RENDER["nsu.adventure"].follow_ups(view)}  # type: ignore[attr-defined]
    assert notes[BOB].startswith(("🖌 <b>Your location was flipped.", "⚖️ <b>You arbitrate")), notes
    for pid in (ALICE, CARA):
        assert notes[pid].startswith(("🖌 <b>Вашу локацию открыли.", "⚖️ <b>Вы Арбитр")), notes
        assert "Опасность:" in notes[pid] and "Часы последствий:" in notes[pid]


def test_a_refusal_naming_rules_words_names_them_in_the_readers_language() -> None:
    """The steps a sheet still needs are words of the catalogue too, inside the refusal."""
    with pytest.raises(StonetableError) as refused:
        finish_creation(CharacterDraft())
    english = user_message(refused.value, lang_for("en"))
    assert english == (
        "⏳ The sheet still needs: name, pronouns and look, moods, aspects, sentiments, skills."
    )
    assert user_message(refused.value, RU) == (
        "⏳ В листе ещё не хватает: имя, род и облик, Настрои, Аспекты, чувства, навыки."
    )
    assert leaks(user_message(refused.value, XX)) == []
