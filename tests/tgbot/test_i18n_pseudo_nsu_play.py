"""No Stone Unturned's play, rendered in the pseudo-language and in Russian at every step.

Action Rolls (Arbiters, kept dice, details, harm, the Collateral Clock) and downtime
(every group with Back, the scout's look, the confirmation to end) are walked
through the pure rules; after each step the panel's text, its buttons and its
follow-up notes are rendered in ``xx`` (no word outside the brackets but player
text) and in ``ru`` (no English word but player text, dice and what is typed).
The log lines the steps leave are checked the same way, in the bot's words and on
the Mini App's log page, and each line's English is the text it always had.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from html import escape
from types import SimpleNamespace
from typing import Any

import pytest
from telegram import InlineKeyboardMarkup

from core.campaigns import CampaignView, MemberView
from core.rules.errors import Malformed, StonetableError
from core.rules.log import LogKind, LogLine
from core.rules.nsu import downtime as dt
from core.rules.nsu.downtime_panel import DowntimePanelState, Menu
from core.rules.nsu.log import nsu_log_lines
from core.rules.nsu.odds import action_roll_odds
from core.rules.nsu.odds_text import read_odds_query
from core.rules.nsu.play_table import campaign_of
from core.rules.nsu.roll_choices import AfterRoll, detail_choices, roll_choices
from core.rules.nsu.roll_panel import ROLL_RULES, RollPanel
from core.rules.nsu.sheet import SentimentState
from core.rules.nsu.terms import Aspect
from core.rules.nsu.world import ClockMoved, ResourceLevel, ResourceMoved
from core.rules.rng import SeededRng
from core.rules.table import Outcome, Role, Seat, Table
from core.store.models import CampaignStatus
from core.views.projection import LogLineView
from core.words.i18n import Lang, extract_errors, lang_for
from tests.core.rules.nsu import test_downtime_panel as downtime_walks
from tests.core.rules.nsu.test_downtime_panel import ANA, BEN, CY, Driver, fresh
from tests.support.nsu_table import character, sheet, split, world
from tests.support.nsu_table import table as nsu_table
from tests.support.panel_views import read_as
from tests.tgbot.test_i18n_pseudo import NSU, ROOT, XX, leaks, visible
from tests.tgbot.test_i18n_pseudo import render as in_pseudo
from tests.tgbot.test_i18n_pseudo_nsu import in_russian
from tests.tgbot.test_render_nsu_play import settle
from tests.tgbot.test_render_phone import problems
from tgbot.features import nsu_play as feature
from tgbot.panels import Note
from tgbot.render.errors import user_message
from tgbot.render.nsu_downtime import DowntimeLine, NsuDowntimeRenderer, scout_look_text
from tgbot.render.nsu_play import NsuRollRenderer, odds_text
from webapp.log_lines import log_context

EN, RU = lang_for("en"), lang_for("ru")
CHARACTERS = {1: "Ana", 2: "Bo", 3: "Cy", 4: "Dee", 5: "Eli"}
SEATS = {1: "Alice", 2: "Bob", 3: "Carol", 4: "Dave", 5: "Erin"}
PLAYER_TEXT = (
    *CHARACTERS.values(),
    *SEATS.values(),
    "Ben",
    *(f"P{p}" for p in range(1, 6)),
    "Curious", "Wary", "Angry", "Furious", "Obsessed", "they/them", "Patched coat",
    "My sister", "The old compass", "Nothing is wasted", "Climbing", "Haggling", "Tinkering",
    "The <Drowned> Mill", "Glass Orchard", "The Hollow Tower", "the river folk", "beasts",
    "old maps", "The secret face of The Hollow Tower", "The secret face of Glass Orchard",
    "water", "seeds", "songs", "tools", "medicine",
    "I climb the mill wheel", "I climb the ridge to look", "Look", "Rope", "Winded",
    "Sprained ankle", "Bridge down", "Knows the way", "Twisted knee", "Rockfall",
    "Stiff wrist", "We <rebuild> the mill race", "Mend the wheel", "Learn carpentry",
    "New friend", "Spotted",
    *(f"Hurt {i}" for i in range(4)),
)  # fmt: skip
# A long text shortened to fit ("Nothing is wast…"): still player text.
PLAYER_TEXT += tuple(v[:n].rstrip() + "…" for v in PLAYER_TEXT for n in range(3, len(v)))
# A button names a long name by its first whole words ("Nothing is"): still player text
# (two words at least: a lone "The" or "My" would hide an English word left untranslated).
PLAYER_TEXT += tuple(
    " ".join(v.split()[:n]) for v in PLAYER_TEXT if "…" not in v for n in range(2, len(v.split()))
)
TEXTS = ("+Winded @ Ana", "harm: Sprained ankle", "scene: Bridge down", "-Winded @ Dee")
ARGUMENTS = {
    "state_outcome": "I climb the mill wheel",
    "choose_aspect": "body",
    "choose_risk": "world",
    "choose_mood": "1",
    "set_aspect_edge": "+Rope",
    "choose_skill": "1",
    "create_skill": "Climbing",
    "risk_sentiment": "1",
    "choose_skill_sign": "+",
    "rename_mood": "Furious",
}


def english_words(text: str, data: tuple[str, ...] = PLAYER_TEXT) -> list[str]:
    """Latin words of a Russian text that are not player text, dice or typed commands."""
    for value in sorted(data, key=len, reverse=True):
        text = text.replace(escape(value), " ").replace(value, " ")
    text = re.sub(r"<code>.*?</code>", " ", text, flags=re.S)  # what to type stays as typed
    text = re.sub(r"<[^<>]*>|&\w+;|/\w+|\b\d*[dDR]\d+\w*", " ", text)
    return re.findall(r"[A-Za-z]{2,}", text)


def no_leak(text: str, lang: Lang) -> list[str]:
    """Words that escaped the catalogue (the game's own name is game data)."""
    data = (*PLAYER_TEXT, NSU.name)
    return leaks(text, data) if lang is XX else english_words(text, data)


def campaign(t: Table, languages: dict[int, str]) -> CampaignView:
    members = tuple(
        MemberView(p, seat.name, frozenset({Role.PLAYER}), languages.get(p, "en"))
        for p, seat in t.seats.items()
    )
    return CampaignView(
        id=1,
        system=NSU,
        status=CampaignStatus.ACTIVE,
        host_id=1,
        chat_tg_id=-100,
        chat_title="The Table",
        app_token="t",
        members=members,
        state={},
        version=1,
        language="ru",
    )


def view(state: Any, t: Table, *, closed: bool = False, events: tuple[object, ...] = ()) -> Any:
    # Ana reads Russian in private, Ben and everyone else English.
    return SimpleNamespace(
        id=7,
        kind="",
        version=1,
        state=state,
        typed=read_as(state),
        table=t,
        closed=closed,
        events=events,
        chat_tg_id=-100,
        message_id=1,
        campaign=campaign(t, {ANA: "ru"}),
    )


def shown(renderer: Any, v: Any, lang: Lang) -> list[str]:
    """The panel's text and each button's label, in ``lang`` (the safety tools' row too)."""
    text, markup = renderer.render(v, lang)
    rows = markup.inline_keyboard if markup else ()
    labels = [b.text for row in rows for b in row]
    return [text, *labels]


class Seen:
    """Everything rendered on a walk: checked in xx and ru, kept in English for coverage."""

    def __init__(self) -> None:
        self.english: list[str] = []
        self.log: list[LogLine] = []
        self.notes = 0

    def panel(self, renderer: Any, v: Any, where: str) -> None:
        self.english += shown(renderer, v, EN)
        for lang in (XX, RU):
            for said in shown(renderer, v, lang):
                assert no_leak(said, lang) == [], (where, lang.code, said)
        _, markup = renderer.render(v, RU)  # Russian labels are longer: they still fit a phone
        if markup is not None:
            own = InlineKeyboardMarkup(markup.inline_keyboard[:-1])
            assert problems(own) == [], (where, problems(own))

    def follow_ups(self, renderer: Any, v: Any) -> None:
        for note in renderer.follow_ups(v):
            assert isinstance(note, Note)
            self.notes += 1
            said = note.text
            member = v.campaign.member(note.chat_id)
            if member.language == "ru":
                assert english_words(said) == [], said
            else:  # an English player's private note reads English, as it always did
                assert "What you saw" in said and "⟦" not in said, said
            for lang in (XX, RU):
                again = scout_look_text(v, note.chat_id, lang)
                assert no_leak(again, lang) == [], again

    def lines(self, t: Table, out: Outcome) -> None:
        for line in nsu_log_lines(t, out):
            assert line.words is not None, line
            assert line.words.said() == line.text  # the English as it was always written
            self.log.append(line)
            assert leaks(line.words.said(XX.gettext), PLAYER_TEXT) == [], line
            assert english_words(escape(line.words.said(RU.gettext))) == [], line


# -- the Action Roll ----------------------------------------------------------------


def roll_walk(seed: int, seen: Seen) -> None:
    w = split(world((1, 2, 3, 4, 5)), {1, 2, 3}, {4, 5})
    t = nsu_table(w, {p: character(n) for p, n in CHARACTERS.items()}, names=SEATS)
    rnd = random.Random(seed)
    out = ROLL_RULES.open(t, 1, "", SeededRng(seed))
    t, state = settle(t, out), out.state
    for step in range(80):
        seen.panel(NsuRollRenderer(), view(state, t), f"roll {seed} step {step}")
        if out.closed:
            break
        panel = RollPanel.from_dict(state)
        choices = [*roll_choices(panel.roll), *detail_choices(panel, campaign_of(t).world)]
        if not choices:
            break
        side = ("cancel", "tick", "untick")  # open at any time: taken now and then
        others = [c for c in choices if c.verb.value not in side] or choices
        pool = others if rnd.random() < 0.97 else choices
        kind = rnd.choice(list(dict.fromkeys(c.verb for c in pool)))  # each kind of step alike
        choice = rnd.choice([c for c in pool if c.verb is kind])
        actor = rnd.choice(sorted(choice.by))
        verb = choice.verb.value
        argument = choice.argument or ARGUMENTS.get(verb, "")
        if verb in ("help", "endanger_sentiment"):
            argument = f"{actor}.1"
        if verb in ("state_outcome", "rename_mood"):
            verb = "text"
        if choice.verb is AfterRoll.ADD_DETAIL:
            argument = rnd.choice(TEXTS)
        try:
            out = ROLL_RULES.act(t, state, actor, verb, argument, SeededRng(rnd.randrange(999)))
        except StonetableError as refused:
            for lang in (XX, RU):
                assert no_leak(user_message(refused, lang), lang) == []
            continue
        t, state = settle(t, out), out.state
        seen.lines(t, out)
    seen.panel(NsuRollRenderer(), view(state, t, closed=True), f"roll {seed} closed")


def test_every_step_of_an_action_roll_in_pseudo_and_russian() -> None:
    seen = Seen()
    for seed in range(14):
        roll_walk(seed, seen)
    english = "\n".join(seen.english)
    # the walks reached every kind of step
    for step in (
        "Arbiters:",
        "Keep ",
        "🤝",
        "Mood effects:",
        "Details to add:",
        "(harm)",
        "(scene)",
        "🕰 Tick clock",
        "Skip detail",
        "(hard) on",
        "✅",
        "Collateral Clock at",
        "Risking:",
        "Called off",
        "👉",
    ):
        assert step in english, step
    kinds = {line.kind for line in seen.log}
    assert {"roll", "detail", "clock"} <= kinds, kinds


# -- downtime -----------------------------------------------------------------------

PAGES = [(m, None) for m in Menu if m is not Menu.PLAYER] + [
    (Menu.PLAYER, p) for p in (ANA, BEN, CY)
]


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> Iterator[Seen]:
    """Every downtime step a walk takes, rendered on every page of groups after it."""
    seen = Seen()
    do = Driver.do

    def watching(self: Driver, actor: int, action: str, argument: str = "") -> Outcome:
        out = do(self, actor, action, argument)
        seen.lines(self.table, out)
        renderer = NsuDowntimeRenderer()
        if out.closed:
            seen.panel(renderer, view(self.state, self.table, closed=True), f"{action} closed")
            return out
        seen.follow_ups(renderer, view(self.state, self.table, events=out.events))
        panel = DowntimePanelState.from_dict(self.state)
        for menu, focus in PAGES:
            state = replace(panel, menu=menu, focus=focus).to_dict()
            seen.panel(renderer, view(state, self.table), f"{action} {argument} {menu}")
        return out

    monkeypatch.setattr(Driver, "do", watching)
    yield seen


WALKS: list[Callable[[], None]] = [
    downtime_walks.test_seek_recovery_with_a_helper_then_recover_harm,
    downtime_walks.test_scout_wins_and_may_look_only_themselves,
    downtime_walks.test_a_lost_scout_chooses_to_turn_back,
    downtime_walks.test_a_lost_scout_presses_on_and_takes_the_arbiters_harm,
    downtime_walks.test_address_collateral_with_votes,
    downtime_walks.test_end_downtime_asks_to_confirm_then_goes_back_to_adventure_and_closes,
    downtime_walks.test_groups_open_for_whoever_may_use_them_and_any_step_closes_them,
    downtime_walks.test_one_players_own_steps_open_as_a_page_of_their_own,
    downtime_walks.test_a_called_off_scout_roll_puts_the_mood_back,
    downtime_walks.test_introspection_train_and_unknown_steps,
    downtime_walks.test_ruling23_a_swap_that_fills_a_track_asks_for_a_mark_and_a_new_name,
    downtime_walks.test_more_time_and_the_reward_of_the_place_left,
]


def the_rest_of_downtime() -> None:
    """The steps the rules' own walks leave out: upgrades, reconnecting, projects,
    a plan's extra die and settling, the clock by hand, and a camp."""
    t = fresh(ticks=3)
    ana = Seat(ANA, "Ana", t.seats[ANA].roles, sheet(character("Ana").endanger_sentiment(1)))
    for settled in (False, True):
        d = Driver(replace(t, seats={**t.seats, ANA: ana}), [4, 1, 2, 3, 5, 6, 1] + [4] * 20)
        d.do(ANA, "reconnect")
        d.do(ANA, "text", "2 1")
        d.do(BEN, "project")
        d.do(BEN, "text", "1 mind 6 Learn carpentry")
        d.do(CY, "plan_pick")
        d.do(CY, "plan_card", "0")
        d.do(CY, "text", "Mend the wheel")
        d.do(ANA, "vote", "yes")
        d.do(BEN, "vote", "no")
        d.do(CY, "plan_roll")
        if settled:
            d.do(CY, "plan_settle")
            continue
        d.do(CY, "more_time", "0")
        d.do(CY, "plan_die", "heart")
        d.do(BEN, "tick", "0")
        d.do(BEN, "untick", "0")
        d.do(BEN, "project")
        d.do(BEN, "text", "1 mind #1")
        d.do(BEN, "end")
        d.do(CY, "end", "yes")
    camp = Driver(fresh(), [5, 3], place="camp")
    camp.do(ANA, "seek")
    camp.do(ANA, "drop")


def test_every_downtime_step_and_group_in_pseudo_and_russian(watched: Seen) -> None:
    for walk in [*WALKS, the_rest_of_downtime]:
        walk()
    english = "\n".join(watched.english)
    for step in (
        "◀️ Back",
        "✅ Yes, end downtime",
        "End downtime for everyone?",
        "may look at",
        "🔭 Bo",
        "Complications",
        "Table for",
        "plans to address",
        "Votes:",
        "Dice ",
        "Projects:",
        "reconnects",
        "trains",
        "seeks recovery",
        "into the scar",
        "turns inward",
        "More time passes",
        "The reward comes home",
        "The plan is settled",
        "Downtime</b> is over",
        "at a safe camp",
        "filled its track",
    ):
        assert step in english or step.replace("Bo", "Ben") in english, step
    assert watched.notes >= 2  # the scout's private look, in the scout's own language


def test_every_downtime_happening_reads_in_pseudo_and_russian() -> None:
    """Each kind of line the panel's Latest list shows, with numbers that need plurals."""
    t = fresh()
    entries: list[object] = [dt.RecoveryPointsTaken(ANA, gained=n, total=3) for n in (1, 2, 5)]
    entries += [
        dt.HarmRecovered(ANA, harm="Hurt 0", scar="Stiff wrist", cost=2),
        dt.SkillUpgraded(BEN, skill="Climbing", modifier=2),
        dt.RecoverySought(
            ANA, body_faces=(3, 4), skill_bonus=1, helper_face=2, helper_bonus=1, total=11,
            gained=3,
        ),
        dt.ScoutLooked(BEN, "L2"),
        dt.ScoutTurnedBack(BEN, "L2"),
        dt.PlanProposed(CY, "L1", "Mend the wheel"),
        dt.PlanVoted(ANA, support=True),
        dt.PlanVoted(BEN, support=False),
        dt.PlanDieRolled(CY, Aspect.MIND, face=5, total=9, result=1),
        dt.PlanSettled("L1", result=3, before=5, after=2),
        *(dt.IntrospectionRolled(CY, heart_face=n) for n in (1, 3, 5)),
        dt.MoodReduced(CY, mood=0, amount=2, remaining=1),
        dt.MoodsSwapped(CY, first=0, second=1),
        dt.MoodReplaced(CY, mood=0, name="Furious"),
        dt.IntrospectionFinished(CY, unused=0),
        dt.MoodTrackFilled(CY, mood=0, name="Curious", sentiment_to_mark=True),
        dt.SentimentEndangered(CY, sentiment=0, state=SentimentState.LOST),
        dt.SentimentEndangered(CY, sentiment=0, state=SentimentState.AT_RISK),
        dt.MoodRenamed(CY, mood=0, old="Curious", new="Obsessed"),
        dt.SkillsTrained(BEN, Aspect.BODY, face=4, skills=()),
        dt.SentimentReconnected(
            ANA, sentiment=0, state=SentimentState.CONNECTED, forged=False, mood=0,
            mood_raised_by=2, mood_track_full=False,
        ),
        dt.ProjectProgressed(
            "P9", mood_face=6, aspect_face=2, skill_shift=1, marked=5, filled=5, segments=6
        ),
        dt.ProjectCompleted("P9"),
        *(dt.TimeSpent(units=1, actions_each=n) for n in (1, 2, 5)),
        dt.RewardBroughtHome("L1", resource="seeds", steps=1, needs_project=True),
        dt.RewardBroughtHome("L1", resource="seeds", steps=1, needs_project=False),
        *(ResourceMoved("water", None, level) for level in ResourceLevel),
        ClockMoved("L1", None, before=3, after=4),
        dt.DowntimeEnded(),
    ]  # fmt: skip
    en, xx, ru = (DowntimeLine(t, None, lang).text for lang in (EN, XX, RU))
    for entry in entries:
        assert en(entry), entry
        assert leaks(xx(entry), PLAYER_TEXT) == [], entry
        assert english_words(ru(entry)) == [], entry
    assert ru(entries[1]) == "Ana отдыхает: +2 очка восстановления (3/4)."
    assert ru(entries[2]) == "Ana отдыхает: +5 очков восстановления (3/4)."
    assert en(entries[0]) == "Ana rests: +1 recovery point (3/4)."


# -- the Mini App's log page, /odds, /act and /downtime ------------------------------


def log_pages(lines: list[LogLine], lang: Lang) -> Iterator[str]:
    at = datetime(2026, 11, 23, 14, 5, tzinfo=UTC)
    entries = tuple(LogLineView(x.kind, x.text, x.player_ids, at, x.words) for x in lines)
    entries += (LogLineView(LogKind.ROLL, "Ana rolled, long ago", (1,), at),)  # kept before words
    t = fresh()
    v = campaign(t, {})
    base: dict[str, Any] = {"view": v, "token": "t"}
    log = log_context(v, entries, None, {ANA: "Ana"}, lang)
    log["undo"] = None
    render = in_pseudo if lang is XX else in_russian
    yield render("log.html", **base, log=log)


def test_the_log_of_a_played_roll_and_downtime_reads_in_each_readers_language(
    watched: Seen,
) -> None:
    for seed in range(4):
        roll_walk(seed, watched)
    downtime_walks.test_a_lost_scout_presses_on_and_takes_the_arbiters_harm()
    assert len(watched.log) > 5
    for lang in (XX, RU):
        for html in log_pages(watched.log, lang):
            text = visible(html)
            text = text.replace("Ana rolled, long ago", " ")  # an old line: as it was written
            if lang is XX:
                assert leaks(text, (*PLAYER_TEXT, "Nov")) == []  # "23 Nov 14:05", as always
            else:
                assert english_words(text, (*PLAYER_TEXT, NSU.name, "The Table")) == []
    english = [x.text for x in watched.log]
    assert any(" rolled: Aspect " in x for x in english), english
    assert any(" gave " in x for x in english), english


def test_odds_and_the_play_commands_help_come_from_the_catalogue() -> None:
    for typed in ("d6 d8 world adv madv +1", "d4 d6 character dis mdis", "d8 d8 world"):
        query = read_odds_query(typed)
        for lang in (XX, RU):
            assert no_leak(odds_text(query, action_roll_odds(query), lang), lang) == []
    even = read_odds_query("d4 d4 world")
    assert "%" in odds_text(even, action_roll_odds(even), RU)
    assert re.search(r"\d,\d\u00a0%", odds_text(even, action_roll_odds(even), RU))
    assert re.search(r"\d\.\d%", odds_text(even, action_roll_odds(even), EN))
    for lang in (XX, RU):
        for message in (feature.ACT_HELP, feature.DOWNTIME_HELP):
            assert no_leak(lang.gettext(message), lang) == []
        for spec in feature.COMMANDS:  # an example of what to type stays as typed
            said = lang.gettext(spec.description).replace("d6 d8 world adv", "")
            assert no_leak(said, lang) == [], spec.name


PLAY_RULES = ("roll_text.py", "odds_text.py", "log.py")


def play_sentences() -> list[str]:
    found = []
    for name in PLAY_RULES:
        with (ROOT / "core" / "rules" / "nsu" / name).open("rb") as source:
            found += [text for _, _, text, _ in extract_errors(source, (), (), {})]
    return found


@pytest.mark.parametrize("sentence", play_sentences())
def test_every_sentence_of_the_roll_and_log_rules_comes_from_the_catalogue(
    sentence: str,
) -> None:
    said = user_message(Malformed(sentence), XX)
    assert leaks(said) == [], said
    assert RU.gettext(sentence) != sentence, "not in the Russian catalogue"


def test_a_refused_step_reaches_a_russian_player_with_its_values() -> None:
    with pytest.raises(StonetableError) as refused:
        read_odds_query("d6 d8 world +99")
    assert user_message(refused.value, RU) == "🤔 Модификатор навыка — от 0 до 20."
    with pytest.raises(StonetableError) as refused:
        read_odds_query("d6 d8 sideways")
    assert user_message(refused.value, RU).startswith("🤔 «sideways» не подходит.")
    assert user_message(refused.value, EN) == (
        "🤔 “sideways” doesn't fit. Try: /odds d6 d8 world adv +1"
    )
