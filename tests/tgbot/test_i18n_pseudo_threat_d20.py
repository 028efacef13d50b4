"""Threat dice and d20 checks, rendered in the pseudo-language and in Russian at every step.

Every panel is walked by pressing every button it shows, as whoever may press it,
with dice that land high and low: a threat roll from the GM's keypad and the
approaches through bonuses, help, outside help, the roll, burning Momentum or
keeping the result, and calling it off; a d20 check through the ability, bonus and
difficulty groups with their Back buttons, the roll, a lucky retry, an unlucky
reroll, the Game Master's forced reroll, natural 1s and 20s and wounds; then a long
rest. Each state's text and button labels are rendered in ``xx`` (nothing may show
outside the brackets but player text, names and dice) and in Russian (no English
word but player text, dice and what is typed). The two Mini App sheets and every
sentence the two games' rules refuse with are checked the same way.
"""

from __future__ import annotations

import json
import re
import string
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import replace
from html import escape
from pathlib import Path
from typing import Any

import jinja2
import pytest

from core.campaigns import CampaignView, MemberView, PanelView
from core.rules.d20check import SYSTEM as D20
from core.rules.d20check import CharacterSheet
from core.rules.d20check.check import AbilityStrength
from core.rules.d20check.events import HarmChanged
from core.rules.d20check.sheet import Ability, Proficiency
from core.rules.errors import Malformed, NotAllowedNow, StonetableError
from core.rules.registry import default_registry
from core.rules.rng import ScriptedRng, SeededRng
from core.rules.table import Json, Outcome, PanelRules, Role, Seat, Table
from core.rules.threat.sheet import Approach, Sheet
from core.store.models import CampaignStatus
from core.words.i18n import Lang, extract_errors, lang_for
from tests.tgbot.test_i18n_pseudo import ROOT, XX, leaks, visible
from tests.tgbot.test_render_phone import problems
from tgbot.callback import PanelButton, decode
from tgbot.features import d20 as d20_feature
from tgbot.features import threat as threat_feature
from tgbot.menu import group_menu
from tgbot.render.d20 import CheckRenderer, RestRenderer, log_line, pool_text
from tgbot.render.errors import user_message
from tgbot.render.threat import ThreatRollRenderer
from webapp.i18n import install
from webapp.sheets.d20 import PAGE as D20_PAGE
from webapp.sheets.threat import PAGE as THREAT_PAGE

RU = lang_for("ru")
EN = lang_for("en")
THREAT = default_registry().find("threat")

GM, ANA, BO, CY = 1, 2, 3, 4
NAMES = {GM: "Gail <GM>", ANA: "Ana & Co", BO: "Bo", CY: "Cy Wren"}
APPROACHES = ("Prowess", "Guile")
CHARACTERS = {ANA: "Thorn", BO: "Birch"}
D20_WORDS = ("Might", "Wits", "Athletics", "stealth")
PLAYER_TEXT = (*NAMES.values(), *APPROACHES, *CHARACTERS.values(), *D20_WORDS, "The Table")
MAX_STATES = 400


# -- the tables ----------------------------------------------------------------------------


def threat_table(harm: int = 1, momentum: int = 5) -> Table:
    sheet = Sheet((Approach(APPROACHES[0], 2), Approach(APPROACHES[1], 6)), momentum, harm)
    seats = {
        GM: Seat(GM, NAMES[GM], frozenset({Role.HOST, Role.GAME_MASTER}), Sheet().to_dict()),
        ANA: Seat(ANA, NAMES[ANA], frozenset({Role.PLAYER}), sheet.to_dict()),
        BO: Seat(BO, NAMES[BO], frozenset({Role.PLAYER}), Sheet().to_dict()),
        CY: Seat(CY, NAMES[CY], frozenset({Role.PLAYER}), Sheet(notes="secret").to_dict()),
    }
    return Table(1, "threat", {"v": 1}, seats)


def d20_table(wounds: int = 0, lucky: int = 2, unlucky: int = 1, strain: int = 2) -> Table:
    def sheet(player: int, wounds: int) -> Json:
        return CharacterSheet(
            CHARACTERS[player],
            abilities=(
                Ability("Might", AbilityStrength.STRONG),
                Ability("Wits", AbilityStrength.WEAK),
            ),
            proficiencies=(Proficiency("Athletics", 2),),
            strain=strain,
            wounds=wounds,
        ).to_dict()

    seats = {
        GM: Seat(GM, NAMES[GM], frozenset({Role.HOST, Role.GAME_MASTER}), {}),
        ANA: Seat(ANA, NAMES[ANA], frozenset({Role.PLAYER}), sheet(ANA, wounds)),
        BO: Seat(BO, NAMES[BO], frozenset({Role.PLAYER}), sheet(BO, 0)),
    }
    state = {"v": 1, "plot_points": {"lucky": lucky, "unlucky": unlucky}}
    return Table(1, "d20", state, seats)


def campaign_of(table: Table) -> CampaignView:
    return CampaignView(
        id=1,
        system=default_registry().find(table.system),
        status=CampaignStatus.ACTIVE,
        host_id=GM,
        chat_tg_id=-100,
        chat_title="The Table",
        app_token="tok",
        members=tuple(MemberView(s.player_id, s.name, s.roles) for s in table.seats.values()),
        state=table.state,
        version=1,
    )


def panel_view(table: Table, kind: str, outcome: Outcome, version: int) -> PanelView:
    return PanelView(
        id=7,
        kind=kind,
        version=version,
        state=outcome.state,
        closed=outcome.closed,
        chat_tg_id=-100,
        message_id=1,
        events=outcome.events,
        campaign=campaign_of(table),
        table=table,
    )


def after(table: Table, outcome: Outcome) -> Table:
    seats = {
        pid: replace(seat, sheet=outcome.sheets.get(pid, seat.sheet))
        for pid, seat in table.seats.items()
    }
    state = table.state if outcome.campaign_state is None else outcome.campaign_state
    return replace(table, state=state, seats=seats)


# -- the walk ------------------------------------------------------------------------------

Renderer = Callable[[PanelView, Lang], tuple[str, Any]]
ROLLS = ("roll", "retry", "reroll", "force_reroll", "gm_reroll")


def labels(markup: Any) -> list[tuple[str, PanelButton]]:
    found = []
    for row in markup.inline_keyboard if markup is not None else ():
        for b in row:
            data = decode(str(b.callback_data))
            assert isinstance(data, PanelButton)
            found.append((str(b.text), data))
    return found


def walk(
    rules: PanelRules, kind: str, render: Renderer, table: Table, opened: Outcome, rolls: int
) -> Iterator[PanelView]:
    """Every panel reachable by pressing shown buttons, nearest first (``rolls`` dice seeds)."""
    seen: set[str] = set()
    todo = deque([(table, opened)])
    version = 0
    while todo and len(seen) < MAX_STATES:
        t, outcome = todo.popleft()
        key = json.dumps([outcome.state, t.state, outcome.closed], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        version += 1
        view = panel_view(t, kind, outcome, version)
        yield view
        if outcome.closed:
            continue
        _, markup = render(view, EN)
        for _, data in labels(markup):
            seeds = range(rolls) if data.action in ROLLS else (0,)
            for actor in t.seats:
                for seed in seeds:
                    try:
                        out = rules.act(
                            t, outcome.state, actor, data.action, data.argument, SeededRng(seed)
                        )
                    except StonetableError:
                        break
                    todo.append((after(t, out), out))


def threat_views() -> Iterator[PanelView]:
    rules = THREAT.panels["threat.roll"]
    render = ThreatRollRenderer().render
    for t in (threat_table(), threat_table(harm=0, momentum=1)):
        opened = rules.open(t, GM, f"for={ANA}", SeededRng(1))
        yield from walk(rules, "threat.roll", render, t, opened, 6)
    t = threat_table()
    for notation in ("3d2t", "9d", "3d4t"):  # dice set by the roll; no roll needed; impossible
        opened = rules.open(t, ANA, notation, SeededRng(1))
        yield from walk(rules, "threat.roll", render, t, opened, 2)
    bare = replace(t, seats={**t.seats, ANA: replace(t.seats[ANA], sheet=Sheet().to_dict())})
    opened = rules.open(t, ANA, "", SeededRng(1))  # then the approaches went from the sheet
    yield from walk(rules, "threat.roll", render, bare, opened, 1)


def d20_views() -> Iterator[PanelView]:
    rules = D20.panels["d20.check"]
    render = CheckRenderer().render
    for t in (d20_table(), d20_table(wounds=15, lucky=1, unlucky=2)):
        for argument in ("", "might athletics dc12 adv", "weak dis2 vs14"):
            opened = rules.open(t, ANA, argument, ScriptedRng([]))
            yield from walk(rules, "d20.check", render, t, opened, 8)
        opened = rules.open(t, GM, "strong dc25", ScriptedRng([]))  # the GM's own check
        yield from walk(rules, "d20.check", render, t, opened, 8)
    for d20s in ([20], [1], [1, 1]):  # naturals turn points, or the GM picks a twist
        t = d20_table(lucky=0, unlucky=3) if d20s == [1, 1] else d20_table()
        opened = rules.open(t, ANA, "dc10", ScriptedRng([]))
        rolled = rules.act(t, opened.state, ANA, "roll", "", ScriptedRng(d20s))
        yield from walk(rules, "d20.check", render, t, rolled, 3)


def rest_views() -> Iterator[PanelView]:
    rules = D20.panels["d20.rest"]
    for t in (d20_table(wounds=9), d20_table(strain=0), d20_table(wounds=16)):
        for seed in range(4):
            outcome = rules.open(t, GM, "", SeededRng(seed))
            yield panel_view(after(t, outcome), "d20.rest", outcome, 1)
    seats = d20_table().seats
    empty = replace(d20_table(), seats={GM: seats[GM], BO: replace(seats[BO], sheet={})})
    outcome = rules.open(empty, GM, "", SeededRng(1))
    yield panel_view(empty, "d20.rest", outcome, 1)


RENDERERS: dict[str, Renderer] = {
    "threat.roll": ThreatRollRenderer().render,
    "d20.check": CheckRenderer().render,
    "d20.rest": RestRenderer().render,
}


def said(view: PanelView, lang: Lang) -> list[str]:
    text, markup = RENDERERS[view.kind](view, lang)
    return [text, *(label for label, _ in labels(markup))]


def english(text: str, data: tuple[str, ...] = PLAYER_TEXT) -> list[str]:
    """The English words left in a Russian text: no player text, dice or typed commands."""
    for value in sorted(data, key=len, reverse=True):
        text = text.replace(escape(value), " ").replace(value, " ")
    text = re.sub(r"<code>.*?</code>", " ", text, flags=re.S)
    text = re.sub(r"<[^<>]*>|&#?\w+;|/\w+|--[\w-]+|\b\d*d\d+\w*", " ", text)
    return re.findall(r"[A-Za-z]{2,}", text)


@pytest.fixture(scope="module")
def views() -> list[PanelView]:
    found = [*threat_views(), *d20_views(), *rest_views()]
    return found


def test_the_walks_reach_every_kind_of_step(views: list[PanelView]) -> None:
    """The walks are not vacuous: they reach the steps the module promises."""
    english_text = "\n".join(t for v in views for t in said(v, EN))
    for step in (
        "⚠️ Threat", "🎯 Approach…", "Expertise +1d", "🤝 Help (+1d)", "🌍 Outside help",
        "🔥 Burn Momentum →", "Keep ", "This roll was called off", "No roll needed",
        "Impossible as things stand", "outside help:", "helps: +1d", "Momentum burned",
        "has no approaches", "(set by the roll)", "cut to",
        "💪 Strong ability", "Prof +", "Adv +", "Dis +", "DC +5", "Vs +", "⬅️ Back",
        "🍀 Lucky retry", "🌀 Unlucky reroll", "🎭 Force a reroll", "✅ Let it stand",
        "rolls an NPC check", "Natural 20!", "Natural 1!", "the GM picks another twist",
        "spent a lucky point", "spent an unlucky point", "wounds",
        "Long rest", "rested, nothing to heal", "Recovery checks", "Nobody at the table",
        "✅ Success", "❌ Failure", "they cancel out", "Contest against",
    ):  # fmt: skip
        assert step in english_text, step


def test_every_threat_and_d20_panel_step_comes_from_the_catalogue(views: list[PanelView]) -> None:
    for view in views:
        for text in said(view, XX):
            assert leaks(text, PLAYER_TEXT) == [], (view.kind, view.state, text)


def test_every_threat_and_d20_panel_step_reads_russian(views: list[PanelView]) -> None:
    for view in views:
        for text in said(view, RU):
            assert english(text) == [], (view.kind, view.state, text)


def test_the_pool_the_help_and_the_command_menu_come_from_the_catalogue() -> None:
    tables = (d20_table(wounds=13), Table(1, "d20", {"v": 1}, {GM: d20_table().seats[GM]}))
    messages = [pool_text(t, XX) for t in tables]
    harms = [HarmChanged(3, 15, 0, 16, wounds_lost_past_limit=n) for n in (1, 3)]
    messages += [str(log_line(tables[0], h, "Thorn", XX)) for h in harms]
    assert "(3 more wounds past the last box.)" in str(log_line(tables[0], harms[1], "Thorn"))
    messages += [XX.gettext(threat_feature.HELP), XX.gettext(d20_feature.HELP)]
    specs = [*threat_feature.COMMANDS, *d20_feature.COMMANDS]
    messages += [c.description for c in group_menu(specs, None, XX)]
    for text in messages:
        assert leaks(text, PLAYER_TEXT) == [], text
    russian = [pool_text(t, RU) for t in tables]
    russian += [str(log_line(tables[0], h, "Thorn", RU)) for h in harms]
    assert "(ещё 3 раны сверх последней клетки.)" in russian[-1]
    russian += [RU.gettext(threat_feature.HELP), RU.gettext(d20_feature.HELP)]
    russian += [c.description for c in group_menu(specs, None, RU)]
    for text in russian:
        assert english(text) == [], text


# -- the rules' refusals -------------------------------------------------------------------

RULE_FILES = sorted(
    str(p.relative_to(ROOT))
    for folder in ("threat", "d20check")
    for p in (ROOT / "core" / "rules" / folder).glob("*.py")
)
SAMPLE = {"text": "3dx", "name": "Prowess", "character": "Thorn", "reason": "x", "key": "notes"}


def rule_sentences() -> list[str]:
    found = []
    for name in RULE_FILES:
        with (ROOT / name).open("rb") as source:
            found += [text for _, _, text, _ in extract_errors(source, (), (), {})]
    return sorted(set(found))


def values_for(sentence: str) -> dict[str, str | int]:
    fields = {f for _, f, _, _ in string.Formatter().parse(sentence) if f}
    return {f: SAMPLE.get(f, 3) for f in fields}


def test_the_two_games_rules_are_in_the_catalogue_file_list() -> None:
    config = (ROOT / "babel.cfg").read_text()
    assert "[errors: core/rules/threat/*.py]" in config
    assert "[errors: core/rules/d20check/*.py]" in config
    assert len(rule_sentences()) > 100


@pytest.mark.parametrize("sentence", rule_sentences())
def test_every_sentence_the_two_games_refuse_with_comes_from_the_catalogue(
    sentence: str,
) -> None:
    values = values_for(sentence)
    said_xx = user_message(Malformed(sentence, **values), XX)
    assert leaks(said_xx, ("Prowess", "Thorn", "notes")) == [], said_xx
    said_ru = user_message(NotAllowedNow(sentence, **values), RU)
    assert RU.gettext(sentence) != sentence, "not in the Russian catalogue"
    typed = ("strong +2 adv dc15", "vs14")  # an example of what to type stays as typed
    assert english(said_ru, ("Prowess", "Thorn", "notes", "3dx", *typed)) == [], said_ru


def test_a_threat_refusal_with_values_reaches_a_russian_player_in_russian() -> None:
    t = threat_table(momentum=1)
    rules = THREAT.panels["threat.roll"]
    with pytest.raises(StonetableError) as refused:
        rules.open(t, ANA, "12d", SeededRng(1))
    assert user_message(refused.value, RU) == (
        "⏳ Не больше 9 кубиков действия (6 и 3 бонусных); "
        "когда кубиков больше шести, бросать и так не нужно."
    )
    assert user_message(refused.value, EN).endswith(
        "At most 9 action dice (6 plus 3 bonus dice); more than 6 need no roll anyway."
    )


def test_a_d20_refusal_names_the_closed_list_in_russian() -> None:
    t = d20_table()
    rules = D20.panels["d20.check"]
    opened = rules.open(t, ANA, "", ScriptedRng([]))
    with pytest.raises(StonetableError) as refused:
        rules.act(t, opened.state, ANA, "prof", "1", ScriptedRng([]))
    assert user_message(refused.value, RU) == (
        "⏳ Список бонусов закрыт: нажмите ⚖️, чтобы открыть снова."
    )
    assert user_message(refused.value, EN) == (
        "⏳ The bonus list was closed: tap Bonuses to open it again."
    )


# -- the Mini App sheets -------------------------------------------------------------------


def page(table: Table, viewer: int, lang: Lang) -> str:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(ROOT) / "webapp" / "templates"),
        autoescape=jinja2.select_autoescape(default=True),
    )
    install(env)
    view = campaign_of(table)
    page = THREAT_PAGE if table.system == "threat" else D20_PAGE
    sheet = page.context(view, table, viewer)
    return env.get_template("campaign.html").render(
        view=view, token="tok", page=page, sheet=sheet, lang=lang
    )


ATTRIBUTES = re.compile(r'(?:aria-label|title|alt|placeholder)="([^"]*)"')


def sheet_pages(lang: Lang) -> Iterator[tuple[str, str]]:
    locked = d20_table(wounds=9)
    locked = Table(1, "d20", {**locked.state, "sheets_locked": True}, locked.seats)
    empty = Table(1, "d20", {"v": 1}, {GM: d20_table().seats[GM]})
    for name, t in (
        ("threat", threat_table()),
        ("threat burnt out", threat_table(harm=0, momentum=0)),
        ("d20", d20_table(wounds=5)),
        ("d20 locked", locked),
        ("d20 empty", empty),
    ):
        for viewer in t.seats:
            yield f"{name} as {viewer}", page(t, viewer, lang)


def test_the_two_mini_app_sheets_come_from_the_catalogue() -> None:
    data = (*PLAYER_TEXT, "secret", THREAT.name, D20.name)
    for name, html in sheet_pages(XX):
        found = leaks(re.sub(r"<style>.*?</style>", " ", visible(html), flags=re.S), data)
        for value in ATTRIBUTES.findall(html):
            found += leaks(value, data)
        assert found == [], (name, found)


def test_the_two_mini_app_sheets_read_russian() -> None:
    data = (*PLAYER_TEXT, "secret", THREAT.name, D20.name)
    for name, html in sheet_pages(RU):
        text = re.sub(r"<style>.*?</style>", " ", visible(html), flags=re.S)
        found = english(text, data)
        for value in ATTRIBUTES.findall(html):
            found += english(value, data)
        assert found == [], (name, found)


def test_every_russian_keyboard_of_the_two_games_fits_a_phone(views: list[PanelView]) -> None:
    for view in views:
        _, markup = RENDERERS[view.kind](view, RU)
        assert problems(markup) == [], (view.kind, view.state)
