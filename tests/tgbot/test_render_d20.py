"""The d20 check message, rendered without Telegram: buttons for the right people only."""

from __future__ import annotations

from typing import Any, get_args

from core.campaigns import CampaignView, PanelView
from core.rules.d20check import SYSTEM, CharacterSheet
from core.rules.d20check.check import Natural
from core.rules.d20check.events import PlotPointTurned
from core.rules.d20check.log import LogEntry
from core.rules.d20check.plot_points import PlotPointKind
from core.rules.rng import ScriptedRng
from core.rules.table import Outcome, Role, Seat, Table
from core.store.models import CampaignStatus
from core.words.i18n import lang_for
from tgbot.callback import MAX_BYTES, decode
from tgbot.render.d20 import CheckLogLine, CheckRenderer, pool_text

EN = lang_for("en")

ANA, GIL = 1, 2
LONG_ID = 10**12  # panel ids and versions grow; callback data must still fit


BO = 3


def table(lucky: int = 1, unlucky: int = 1, wounds: int = 0, bo: bool = False) -> Table:
    seats = {
        ANA: Seat(
            ANA,
            "Ana <i>the</i> Brave & Co",
            frozenset({Role.PLAYER}),
            CharacterSheet("Ana", wounds=wounds).to_dict(),
        ),
        GIL: Seat(GIL, "Gil", frozenset({Role.HOST, Role.GAME_MASTER}), {}),
    }
    if bo:
        seats[BO] = Seat(BO, "Bo", frozenset({Role.PLAYER}), CharacterSheet("Bo").to_dict())
    return Table(1, "d20", {"v": 1, "plot_points": {"lucky": lucky, "unlucky": unlucky}}, seats)


def view(t: Table, outcome: Outcome) -> PanelView:
    campaign = CampaignView(1, SYSTEM, CampaignStatus.ACTIVE, GIL, -1, "T", "tok", (), t.state, 1)
    return PanelView(
        LONG_ID,
        "d20.check",
        LONG_ID,
        outcome.state,
        outcome.closed,
        -1,
        5,
        outcome.events,
        campaign,
        t,
    )


def buttons(markup: Any) -> list[tuple[str, str]]:
    if markup is None:
        return []
    return [(b.text, b.callback_data) for row in markup.inline_keyboard for b in row]


def test_set_up_buttons_fit_telegrams_limit_and_name_the_roller() -> None:
    t = table()
    opened = SYSTEM.panel("d20.check").open(t, ANA, "strong +20 adv20 dis20 dc99", ScriptedRng([]))
    text, markup = CheckRenderer().render(view(t, opened), EN)
    assert "Ana &lt;i&gt;the&lt;/i&gt; Brave &amp; Co" in text
    labels = [label for label, _ in buttons(markup)]
    assert labels == [
        "💪 Strong ability",
        "⚖️ Prof 20 · Adv 20 · Dis 20",
        "🎯 DC 99",
        "🎲 Roll (Ana <i>the</i>)",  # plain text in buttons, the name in whole words
    ]
    rules = SYSTEM.panel("d20.check")
    mods = rules.act(t, opened.state, ANA, "open", "mods", ScriptedRng([]))
    text, markup = CheckRenderer().render(view(t, mods), EN)
    assert [label for label, _ in buttons(markup)] == ["Prof −", "Adv −", "Dis −", "⬅️ Back"]
    assert "set the bonuses or go back" in text
    dc = rules.act(t, opened.state, ANA, "open", "target", ScriptedRng([]))
    _, markup = CheckRenderer().render(view(t, dc), EN)
    assert [label for label, _ in buttons(markup)] == ["DC −5", "DC −", "⬅️ Back"]
    for _, data in buttons(markup):
        assert len(data.encode()) <= MAX_BYTES
        decode(data)


def test_after_a_failure_only_the_rollers_choices_are_shown() -> None:
    t = table(lucky=1, unlucky=1, wounds=9)
    rules = SYSTEM.panel("d20.check")
    opened = rules.open(t, ANA, "dc15", ScriptedRng([]))
    rolled = rules.act(t, opened.state, ANA, "roll", "", ScriptedRng([4]))
    text, markup = CheckRenderer().render(view(t, rolled), EN)
    assert "❌ Failure</b> — margin −11" in text
    assert "wounds 9/16 — <b>Severely Injured</b> (+1 strain on every check)" in text
    assert [label for label, _ in buttons(markup)] == [
        "🍀 Lucky retry (Ana <i>the</i>)",
        "✋ Keep it (Ana <i>the</i>)",
    ]


def test_the_pool_text_lists_points_and_characters() -> None:
    text = pool_text(table(lucky=2, unlucky=1, wounds=13))
    assert "2 lucky · 1 unlucky" in text and "<b>Dying</b>" in text


def test_ruling25_a_success_offers_one_reroll_button_to_any_player() -> None:
    t = table(lucky=1, unlucky=2, bo=True)
    rules = SYSTEM.panel("d20.check")
    opened = rules.open(t, ANA, "dc10", ScriptedRng([]))
    rolled = rules.act(t, opened.state, ANA, "roll", "", ScriptedRng([15]))
    text, markup = CheckRenderer().render(view(t, rolled), EN)
    assert "Any player may spend an unlucky point to reroll this success" in text
    assert [label for label, _ in buttons(markup)] == [
        "🌀 Unlucky reroll (any player)",
        "✋ Keep it (Ana <i>the</i>)",
    ]
    # Bo, who is not rolling, spends the point; the next success offers it again.
    again = rules.act(t, rolled.state, BO, "reroll", "", ScriptedRng([16]))
    t2 = table(lucky=2, unlucky=1, bo=True)
    _, markup = CheckRenderer().render(view(t2, again), EN)
    assert "🌀 Unlucky reroll (any player)" in [text for text, _ in buttons(markup)]


def test_the_pool_text_says_there_is_no_limit_per_check() -> None:
    text = pool_text(table())
    assert "any player may spend one to reroll a success" in text
    assert "No limit per check" in text


def test_every_kind_the_check_log_keeps_has_its_own_line() -> None:
    """A kind of entry added to the check's log without a method to draw it fails here."""
    drawn = vars(CheckLogLine)["text"].dispatcher.registry
    assert [k.__name__ for k in get_args(LogEntry) if k not in drawn] == []


def test_a_turned_point_reads_the_way_the_rules_turned_it() -> None:
    """The line says which way the point went as the rules decided it."""
    line = CheckLogLine(Table(1, "d20", {"v": 1}, {}), "Thorn", lang_for("en")).text
    lucky = line(PlotPointTurned(Natural.TWENTY, PlotPointKind.LUCKY))
    unlucky = line(PlotPointTurned(Natural.ONE, PlotPointKind.UNLUCKY))
    assert lucky == "🌟 Natural 20! An unlucky point turns lucky."
    assert unlucky == "💥 Natural 1! A lucky point turns unlucky."
