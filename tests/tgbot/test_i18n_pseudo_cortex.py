"""Cortex drama in the pseudo-language and in Russian: no word escaped the catalogue.

(And in Russian, whose words are longer, every step's buttons still fit a phone.)

Conflicts are played at random from the buttons each step shows (Tests, Contests,
Stress Relief; building the pool through its list, rolling, keeping a Result,
giving in, Stress, Plot Points, interference, Trouble), and every step's panel is
rendered in ``xx`` and in ``ru``: its text and its buttons' labels. Every button
and log line the renderer knows is also rendered on its own, so a step the walk
did not reach is still checked. The Mini App sheet is rendered for a Lead's
player and for the Watchtower, and every sentence the Cortex rules refuse with
comes through the catalogue.
"""

from __future__ import annotations

import ast
import random
import re
import string
from collections.abc import Iterator
from dataclasses import replace
from html import escape

import pytest

from core.campaigns import CampaignView, MemberView, PanelView
from core.rules.cortex import SYSTEM
from core.rules.cortex.campaign import TRAIT_HELP, load
from core.rules.cortex.log import Entry, entry
from core.rules.cortex.panel import CONFLICT_PANEL, Choice, Press
from core.rules.cortex.state import Phase
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn, StonetableError
from core.rules.rng import SeededRng
from core.rules.table import Outcome
from core.store.models import CampaignStatus
from core.words.i18n import Lang, extract_errors, lang_for
from tests.core.rules.cortex import test_campaign_panel as rules
from tests.core.rules.cortex.test_campaign_panel import (
    CLARK,
    LOIS,
    PANEL,
    WATCHTOWER,
    Game,
    _chidi,
)
from tests.core.rules.cortex.test_campaign_panel import game as _cortex_game
from tests.tgbot.test_i18n_pseudo import ROOT, XX, leaks, visible
from tests.tgbot.test_i18n_pseudo import render as in_pseudo
from tests.tgbot.test_i18n_pseudo_nsu import ATTRIBUTES, in_russian
from tests.tgbot.test_render_phone import problems
from tgbot.features.cortex import COMMANDS
from tgbot.render import cortex
from tgbot.render.errors import user_message
from tgbot.sandbox.fake_api import parse_html
from webapp.sheets.cortex import PAGE

RU = lang_for("ru")
game = _cortex_game
CHIDI = 3
PLAYER_TEXT = (
    "Wendy", "Clark", "Lois", "Chidi", "Lex", "Justice", "Love", "Truth", "Farm Boy",
    "Kryptonite", "Reporter", "Hacker", "Power", "Billionaire", "Paranoid", "The Table",
    "Cortex drama", "Cortex", "Open <window>", "Barn door", "Window", "Hidden cameras",
    "Fortress", "Hungry",
)  # fmt: skip
"""Names and traits players wrote, a Stress type a Watchtower wrote; the game's own name.
(A new table's own Stress types, Afraid to Insecure, are the catalogue's: not here.)"""
TYPED = (
    "/trait value Justice d8",
    "Angry +d6 -d8",
    "Truth, Clark",
    "Lex vs Clark",
    "Lois Afraid",
    "Lex: Power, Billionaire",
)
"""Examples of what to type, which stay as typed."""
CORTEX_FILES = sorted((ROOT / "core" / "rules" / "cortex").glob("*.py"))
STARTS = ["test", "contest Lex", "contest Chidi", "contest Lex vs Lois", "relief Lois Angry"]


def english(text: str, data: tuple[str, ...] = ()) -> list[str]:
    """The Latin words of a Russian text that are not player text, dice or commands."""
    for value in sorted({*PLAYER_TEXT, *TYPED, *data}, key=len, reverse=True):
        text = text.replace(escape(value), " ").replace(value, " ")
    text = re.sub(r"<[^<>]*>|&\w+;|/\w+|\b\d*d\d+\w*", " ", text)
    return re.findall(r"[A-Za-z]{2,}", text)


def said(text: str, lang: Lang, data: tuple[str, ...] = ()) -> list[str]:
    """What escaped: in ``xx`` words outside the brackets, in ``ru`` Latin words."""
    if lang is XX:
        return leaks(text, (*PLAYER_TEXT, *data))
    return english(text, data)


def campaign(g: Game) -> CampaignView:
    members = tuple(MemberView(s.player_id, s.name, s.roles) for s in g.table.seats.values())
    return CampaignView(
        id=1,
        system=SYSTEM,
        status=CampaignStatus.ACTIVE,
        host_id=WATCHTOWER,
        chat_tg_id=-100,
        chat_title="The Table",
        app_token="t",
        members=members,
        state=g.state,
        version=1,
    )


def panel_view(g: Game) -> PanelView:
    return PanelView(
        id=7,
        kind=CONFLICT_PANEL,
        version=3,
        state=g.panel,
        closed=g.closed,
        chat_tg_id=-100,
        message_id=1,
        events=(),
        campaign=campaign(g),
        table=g.table,
    )


def rendered(g: Game, lang: Lang) -> list[str]:
    """The panel's text and its buttons' labels, as Telegram would show them."""
    html, markup = cortex.ConflictRenderer().render(panel_view(g), lang)
    parse_html(html)  # well-formed, like Telegram wants
    if lang is RU:  # Russian words are longer: the buttons must still fit a phone
        assert problems(markup) == [], problems(markup)
    labels = [b.text for row in (markup.inline_keyboard if markup else ()) for b in row]
    return [html, *labels]


def walk(g: Game, seed: int) -> Iterator[tuple[str, Game]]:
    """Random conflicts through the buttons each step shows; yields every step."""
    _chidi(g)
    rnd = random.Random(seed)
    for _ in range(150):
        if g.closed or not g.panel or not g.view().current:
            try:
                g.open(rnd.choice([WATCHTOWER, CLARK, LOIS, CHIDI]), rnd.choice(STARTS))
            except NotAllowedNow:
                g.edit(WATCHTOWER, "scene.end")  # a Stressed Out Lead sits the scene out
                continue
            except StonetableError:
                continue
            yield "opened", g
            continue
        view = g.view()
        going_on = [c for c in view.choices if c.verb.value != "end"]  # the scene ends now and then
        choice = rnd.choice(going_on if going_on and rnd.random() < 0.9 else view.choices)
        user = rnd.choice(sorted(choice.by))
        rng = SeededRng(rnd.randrange(10**6))
        try:
            out = PANEL.act(g.table, g.panel, user, choice.verb.value, choice.argument, rng)
        except StonetableError:
            continue
        g.settle(out)
        g.panel, g.closed = out.state, out.closed
        yield choice.verb.value, g


def phases(g: Game) -> Phase | None:
    c = load(g.table).table.conflict
    return None if c is None else c.phase


@pytest.mark.parametrize("lang", [XX, RU], ids=["xx", "ru"])
@pytest.mark.parametrize("seed", range(6))
def test_every_step_of_a_cortex_conflict_is_worded_from_the_catalogue(
    lang: Lang, seed: int
) -> None:
    seen_phases: set[Phase | None] = set()
    steps = 0
    for step, g in walk(_fresh(), seed):
        seen_phases.add(phases(g))
        for text in rendered(g, lang):
            assert said(text, lang) == [], (step, text, said(text, lang))
        steps += 1
    assert steps > 30
    assert {Phase.BUILDING, Phase.PICKING} <= seen_phases


def _fresh(g: Game | None = None) -> Game:
    """A game as the rules' tests set it up: Clark and Lois with their traits."""
    g = Game() if g is None else g
    for line in (
        "value Justice d10",
        "value Love d8",
        "relationship Lois d8",
        "asset Farm Boy d8",
        "limit Kryptonite d10",
    ):
        g.edit(CLARK, "text", text=line)
    for line in ("value Truth d10", "relationship Clark d8", "asset Reporter d8 ability"):
        g.edit(LOIS, "text", text=line)
    return g


def test_the_walks_reach_most_steps_of_a_conflict() -> None:
    """The walks above are not idle: they go through the steps of a conflict."""
    phases_seen: set[Phase | None] = set()
    pressed: set[str] = set()
    for seed in range(6):
        for step, g in walk(_fresh(), seed):
            phases_seen.add(phases(g))
            pressed.add(step)
    assert {Phase.OPPOSITION, Phase.BUILDING, Phase.PICKING, Phase.YIELDING} <= phases_seen
    assert Phase.INFLICTING in phases_seen
    for verb in ("pool.open", "add", "roll", "settle", "givein", "stress.take", "interfere"):
        assert verb in pressed, verb


class Checked(Game):
    """A game that renders its panel in ``lang`` after every step and checks the words."""

    def __init__(self, lang: Lang) -> None:
        self.lang = lang
        self.phases: set[Phase | None] = set()
        super().__init__()

    def check(self) -> None:
        if self.panel:
            self.phases.add(phases(self))
            for text in rendered(self, self.lang):
                assert said(text, self.lang) == [], (text, said(text, self.lang))

    def open(self, player: int, argument: str, *faces: int) -> Outcome:
        out = super().open(player, argument, *faces)
        self.check()
        return out

    def press_only(self, player: int, action: str, argument: str = "", *faces: int) -> Outcome:
        out = super().press_only(player, action, argument, *faces)
        self.check()
        return out


SCRIPTED = (
    rules.test_a_test_from_opposition_to_success,
    rules.test_a_contest_of_several_exchanges_with_a_swap_and_stress,
    rules.test_a_beaten_reactor_gives_in,
    rules.test_stress_is_inflicted_by_type_and_shows_as_an_opponent_box,
    rules.test_useful_details_and_aid_arrive_as_text,
    rules.test_a_reply_is_a_detail_from_the_roller_and_aid_from_others,
    rules.test_an_outsider_interferes_and_the_contestants_vote_to_go_on,
    rules.test_stress_relief_through_the_panel_moves_the_stress_into_growth,
    rules.test_a_features_useful_detail_may_come_out_of_trouble,
    rules.test_the_list_of_dice_opens_in_place_of_the_main_buttons_and_goes_back,
    rules.test_the_same_complication_twice_is_one_button,
)
"""The rules' own step-by-step conflicts: Stress inflicted and relieved, interference
stopping a Contest and the vote to go on, Useful Details from Trouble, the 1s."""


@pytest.mark.parametrize("lang", [XX, RU], ids=["xx", "ru"])
def test_every_step_of_the_scripted_conflicts_is_worded_from_the_catalogue(lang: Lang) -> None:
    seen: set[Phase | None] = set()
    for played in SCRIPTED:
        g = _fresh(Checked(lang))
        played(g)
        seen |= g.phases
    assert {Phase.INFLICTING, Phase.STOPPED, Phase.OPPOSITION, Phase.YIELDING} <= seen


REPLIES = (Press.DETAIL, Press.AID, Press.TEXT)
"""Sent by replying to the panel, never shown as a button."""


def every_choice() -> list[Choice]:
    """One button of each kind the renderer words, with names and costs."""
    shown = []
    for verb in Press:
        for argument, count, cost in (("c1", 3, 1), ("y", 1, 0), ("1u", 2, 2), ("n", 5, 0)):
            shown.append(
                Choice(
                    verb,
                    argument,
                    by=frozenset({CLARK}),
                    who="Clark",
                    name="Farm Boy",
                    die=8,
                    count=count,
                    cost=cost,
                )
            )
    return shown


def _text_of(kind: str) -> str:
    """A log line's text: a default Stress type for Stress lines, player text otherwise."""
    return "Angry" if kind in ("stress", "relieved") else "Window"


def every_entry() -> list[Entry]:
    """One log line of each kind (each ending, each reason Plot Points are paid), read from
    the records the panel stores."""
    kinds = (
        "opposition", "rolled", "included", "action", "won", "paid", "detail", "challenged",
        "stress", "stress_missed", "stressed_out", "relieved", "complication",
        "trouble_cancelled", "interfered", "resumed", "scene_ended",
    )  # fmt: skip
    entries = [
        entry(dict(what=k, who=who, other="Lois", number=3, text=_text_of(k), die=8, flag=flag))
        for k in kinds
        for flag in (False, True)
        for who in ("Clark", "")
    ]
    entries += [
        entry(dict(what="ended", who="Clark", other="", text=e.value)) for e in cortex.ENDINGS
    ]
    entries += [
        entry(dict(what="paid", who="Clark", other="", number=1, text=r)) for r in cortex.REASONS
    ]
    return entries


@pytest.mark.parametrize("lang", [XX, RU], ids=["xx", "ru"])
def test_every_button_and_log_line_of_the_panel_is_worded_from_the_catalogue(lang: Lang) -> None:
    for choice in every_choice():
        if choice.verb in REPLIES:
            continue
        label = cortex.choice_label(choice, lang)
        assert said(label, lang) == [], label
        phrase = cortex._phrase(choice, lang)
        assert said(phrase, lang) == [], phrase
    for line in every_entry():
        text = cortex._entry_text(line, lang)
        assert text is not None and said(text, lang) == [], (line, text)


def test_every_reason_the_rules_pay_plot_points_for_is_worded() -> None:
    reasons = set()
    for path in CORTEX_FILES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in (
                "pay",
                "pay_for_roll",
            ):
                last = node.args[-1] if node.args else None
                if isinstance(last, ast.Constant):
                    reasons.add(last.value)
    assert reasons and reasons <= set(cortex.REASONS), reasons - set(cortex.REASONS)


@pytest.mark.parametrize("lang", [XX, RU], ids=["xx", "ru"])
def test_trouble_and_the_table_are_worded_from_the_catalogue(game: Game, lang: Lang) -> None:
    none = cortex.table_text(replace(load(game.table).table, sheets=(), seats=()), lang)
    _chidi(game)
    game.open(CLARK, "contest Lex")
    text = cortex.table_text(load(game.table).table, lang)
    assert said(text, lang) == [], text
    assert said(none, lang) == [], none
    assert said(lang.gettext(TRAIT_HELP), lang, ("value", "relationship", "asset", "resource",
                "limit", "remove", "name", "distinction", "location")) == []  # fmt: skip


@pytest.mark.parametrize("lang", [XX, RU], ids=["xx", "ru"])
def test_the_cortex_command_menu_is_described_from_the_catalogue(lang: Lang) -> None:
    for spec in COMMANDS:
        described = lang.gettext(spec.description)
        assert said(described, lang) == [], described


def sheet_pages(g: Game, lang: Lang) -> Iterator[tuple[str, str]]:
    view = campaign(g)
    render = in_pseudo if lang is XX else in_russian
    for viewer in (CLARK, WATCHTOWER, LOIS):
        sheet = PAGE.context(view, g.table, viewer)
        yield str(viewer), render("campaign.html", view=view, token="t", page=PAGE, sheet=sheet)
    broken = {"members": [], "problem": "A die is d4, d6, d8, d10 or d12.", "values": {}}
    yield "problem", render("campaign.html", view=view, token="t", page=PAGE, sheet=broken)


def page_words(html: str, lang: Lang) -> list[str]:
    html = re.sub(r"<style.*?</style>", " ", html, flags=re.S)
    found = said(visible(html), lang)
    for value in ATTRIBUTES.findall(html):
        found += said(value, lang)
    return found


@pytest.mark.parametrize("lang", [XX, RU], ids=["xx", "ru"])
def test_the_cortex_mini_app_sheet_is_worded_from_the_catalogue(game: Game, lang: Lang) -> None:
    _chidi(game)
    game.edit(CLARK, "text", text="resource Fortress d8 location")
    game.open(CLARK, "contest Lex")  # a roll under way: the sheet is locked
    for who, html in sheet_pages(game, lang):
        assert page_words(html, lang) == [], (who, page_words(html, lang))
        if who == str(CLARK):  # the whole sheet, locked for the roll, was shown
            assert "Fortress" in html and "data-growth" in html and "Farm Boy" in html


def cortex_sentences() -> list[str]:
    found = []
    for path in CORTEX_FILES:
        with path.open("rb") as source:
            found += [text for _, _, text, _ in extract_errors(source, (), (), {})]
    return sorted(set(found))


@pytest.mark.parametrize("sentence", cortex_sentences())
def test_every_sentence_the_cortex_rules_refuse_with_comes_from_the_catalogue(
    sentence: str,
) -> None:
    names = {f for _, f, _, _ in string.Formatter().parse(sentence) if f}
    values: dict[str, str | int] = dict.fromkeys(names, "Clark")
    for kind in (Malformed, NotAllowedNow, NotYourTurn):
        assert leaks(user_message(kind(sentence, **values), XX), PLAYER_TEXT) == [], sentence
    assert RU.gettext(sentence) != sentence, "not in the Russian catalogue"


def test_a_cortex_refusal_reaches_a_russian_player_in_russian(game: Game) -> None:
    with pytest.raises(StonetableError) as refused:
        game.open(CLARK, "contest Nobody")
    russian = user_message(refused.value, RU)
    assert english(russian, ("Nobody",)) == [], russian
    assert "Nobody" in russian and "Clark" in russian
    assert user_message(refused.value, lang_for("en")).endswith(
        "There is no “Nobody” here. At this table: Clark, Lois."
    )
