"""Every panel fits a phone: at most eight buttons of its own and no label cut.

The width budget (tgbot/render/layout.py) was measured on the sandbox page in
Chromium at 360 px, with buttons on one line as Telegram draws them: a
one-button row shows about 34 characters of ordinary text whole, each of two
buttons about 15 ("🏁 End downtime…" at 16 is cut), of three 10, of four 6, of
five 4. The budget keeps a margin (30, 14, 9, 5, 3 characters), a variation
selector taking no room. The safety row (X-card, Knock) is on every NSU panel
and is not counted against the eight.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
from telegram import InlineKeyboardMarkup

from core.rules.errors import StonetableError
from core.rules.nsu.downtime_panel import DowntimePanelState, Menu
from core.words.i18n import lang_for
from tests.core.rules.nsu.test_downtime_panel import ANA, BEN, CY, STEPS, Driver, fresh
from tests.support.phone import cut_labels
from tests.tgbot import test_render_now_line as walks
from tgbot.render import cortex, d20, nsu, nsu_downtime, nsu_play, threat
from tgbot.render.layout import MAX_BUTTONS, ROW_BUDGET, grid
from tgbot.render.nsu_downtime import NsuDowntimeRenderer

EN = lang_for("en")

SAFETY = {"🛑 X-card", "✊ Knock"}


def _chars(label: str) -> int:
    """A label's characters as the budget counts them (a variation selector takes no room)."""
    return len(label.replace("\ufe0f", ""))


def problems(markup: InlineKeyboardMarkup | None) -> list[str]:
    """What on this keyboard would not fit a phone."""
    if markup is None:
        return []
    found = []
    rows = [[b.text for b in row] for row in markup.inline_keyboard]
    own = [label for row in rows for label in row if label not in SAFETY]
    if len(own) > MAX_BUTTONS:
        found.append(f"{len(own)} buttons: {own}")
    for row in rows:
        if len(row) not in ROW_BUDGET:
            found.append(f"{len(row)} in a row: {row}")
            continue
        budget = ROW_BUDGET[len(row)]
        found += [f"cut at 360 px: {label!r}" for label in row if _chars(label) > budget]
    return found + cut_labels(rows)  # measured with a real font too


@contextmanager
def recording(*classes: type) -> Iterator[list[str]]:
    """Every keyboard these renderers draw meanwhile, checked for a phone."""
    found: list[str] = []
    saved = {cls: cls.render for cls in classes}

    def wrap(original: Any) -> Any:
        def render(self: Any, view: Any, lang: Any) -> Any:
            html, markup = original(self, view, lang)
            found.extend(problems(markup))
            return html, markup

        return render

    for cls, original in saved.items():
        cls.render = wrap(original)  # type: ignore[attr-defined]
    try:
        yield found
    finally:
        for cls, original in saved.items():
            cls.render = original  # type: ignore[attr-defined]


def test_the_budget_catches_a_crowded_or_cut_keyboard() -> None:
    from telegram import InlineKeyboardButton as B

    assert problems(InlineKeyboardMarkup([[B("🏁 End downtime", callback_data="x")]])) == []
    assert problems(InlineKeyboardMarkup([[B("⬆️ Upgrade", callback_data="x")] * 2])) == []
    crowded = InlineKeyboardMarkup([[B("a", callback_data="x")] * 2] * 5)
    assert problems(crowded) and "10 buttons" in problems(crowded)[0]
    cut = InlineKeyboardMarkup([[B("🏁 End downtime…", callback_data="x")] * 2])
    # the character budget and the drawn width agree on the measured case
    assert problems(cut)[:2] == ["cut at 360 px: '🏁 End downtime…'"] * 2
    assert len(problems(cut)) == 4 and "(137 > 131 px)" in problems(cut)[2]
    keys = InlineKeyboardMarkup([[B(f"+{n}", callback_data="x") for n in range(4)]])
    assert problems(keys) == []  # short keys may go four to a row
    dice = InlineKeyboardMarkup([[B("👁 +d12", callback_data="x")] * 5])
    assert problems(dice)[:5] == ["cut at 360 px: '👁 +d12'"] * 5
    assert len(problems(dice)) == 10


def test_a_grid_puts_like_buttons_as_many_to_a_row_as_fit() -> None:
    from telegram import InlineKeyboardButton as B

    dice = [B(f"👁 +d{n}", callback_data="x") for n in (4, 6, 8, 10, 12)]
    assert [len(row) for row in grid(dice, 5)] == [3, 2]
    keys = [B(f"+{n}", callback_data="x") for n in range(5)]
    assert [len(row) for row in grid(keys, 4)] == [4, 1]
    long = [B("🏠 A long resource name", callback_data="x")] * 2
    assert [len(row) for row in grid(long, 3)] == [1, 1]
    assert all(problems(InlineKeyboardMarkup(grid(b, 5))) == [] for b in (dice, keys, long))


MENU_ARGS = ["", *(m.value for m in Menu), "yes"]


@pytest.mark.parametrize("seed", range(8))
def test_every_downtime_step_and_group_fits_a_phone(seed: int) -> None:
    rnd = random.Random(seed)
    d = Driver(fresh(ana_harms=1), [2, 4, 1] + [3] * 80)
    renderer = NsuDowntimeRenderer()
    seen = 0
    for _ in range(60):
        if d.campaign.downtime is None:
            break
        panel = DowntimePanelState.from_dict(d.state)
        pages = [(m, None) for m in Menu if m is not Menu.PLAYER]
        pages += [(Menu.PLAYER, p) for p in (ANA, BEN, CY)]
        for menu, focus in pages:  # every group as it would show now
            state = replace(panel, menu=menu, focus=focus).to_dict()
            _, markup = renderer.render(walks.nsu_view(state, d.table), EN)
            assert problems(markup) == [], (menu, problems(markup))
            seen += 1
        actor = rnd.choice([ANA, BEN, CY])
        action = rnd.choice([*STEPS, "menu", "menu", "end", "recover", "seek", "seek_help"])
        argument = rnd.choice(["", "1", "2", "body", "none", "Look", "yes", "work", str(ANA)])
        try:
            d.do(actor, action, argument)
        except StonetableError:
            continue
    assert seen > 30


@pytest.mark.parametrize("seed", range(4))
def test_every_downtime_step_of_the_who_acts_walk_fits_a_phone(seed: int) -> None:
    with recording(nsu_downtime.NsuDowntimeRenderer) as found:
        walks.test_every_downtime_step_names_who_acts_now(seed)
    assert found == []


def test_every_step_of_an_nsu_roll_fits_a_phone() -> None:
    with recording(nsu_play.NsuRollRenderer) as found:
        for seed in range(6):
            walks.test_every_step_of_an_nsu_roll_names_who_acts_now(seed)
    assert found == []


def test_every_step_of_a_threat_roll_fits_a_phone() -> None:
    with recording(threat.ThreatRollRenderer) as found:
        walks.test_every_step_of_a_threat_roll_names_who_acts_now()
    assert found == []


def test_every_step_of_a_d20_check_fits_a_phone() -> None:
    with recording(d20.CheckRenderer) as found:
        for seed in range(4):
            walks.test_every_step_of_a_d20_check_names_who_acts_now(seed)
    assert found == []


@pytest.mark.parametrize("seed", range(4))
def test_every_step_of_a_cortex_conflict_fits_a_phone(game: Any, seed: int) -> None:
    with recording(cortex.ConflictRenderer) as found:
        walks.test_every_step_of_a_cortex_conflict_names_who_acts_now(game, seed)
    assert found == []


def test_every_worldbuilding_adventure_and_private_step_fits_a_phone() -> None:
    private = (nsu.CardsRenderer, nsu.CharacterRenderer, nsu.SafetyRenderer)
    with recording(nsu.SetupRenderer, nsu.AdventureRenderer, *private) as found:
        walks.test_every_worldbuilding_step_names_who_acts_now()
        for seed in range(4):
            walks.test_every_adventure_step_names_who_acts_now(seed)
            walks.test_every_private_panel_step_names_its_owner(seed)
    assert found == []


game = walks.game
