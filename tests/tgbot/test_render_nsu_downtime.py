"""The downtime panel's group hints name only what the group's buttons offer."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from core.rules.errors import StonetableError
from core.words.i18n import Lang, lang_for
from tests.core.rules.nsu.test_downtime_panel import ANA, BEN, CY, Driver, fresh
from tests.support.nsu_table import character, table, world
from tests.tgbot.test_render_now_line import nsu_view
from tgbot.render.nsu_downtime import NsuDowntimeRenderer
from tgbot.sandbox.fake_api import parse_html

EN = lang_for("en")
RU = lang_for("ru")
FREE = {"Recover Harm is free": "🩹 Recover Harm (free)", "Upgrade skills is free": "⬆️ Upgrade"}


def screen(d: Driver, lang: Lang = EN) -> tuple[str, list[str]]:
    html, markup = NsuDowntimeRenderer().render(nsu_view(d.state, d.table), lang)
    assert markup is not None
    return parse_html(html)[0], [b.text for row in markup.inline_keyboard for b in row]


def hint_fits_buttons(text: str, labels: list[str]) -> None:
    """A group's hint names its free action only beside that action's button, and the
    others only when other actions are offered."""
    own = [b for b in labels if not b.startswith(("◀️", "🛑", "✊"))]
    for said, label in FREE.items():
        if f"{said}." in text or f"{said};" in text:
            assert any(b.startswith(label) for b in own), (said, labels)
    free = [b for b in own if any(b.startswith(label) for label in FREE.values())]
    if "the others cost your action" in text or "each of these costs your action" in text:
        assert len(own) > len(free), (text, labels)


def test_a_work_group_without_an_upgrade_does_not_offer_one() -> None:
    d = Driver(fresh(), [2, 4, 1] + [3] * 60)  # nobody has a skill to upgrade
    d.do(ANA, "menu", "work")
    text, labels = screen(d)
    assert not any(b.startswith("⬆️") for b in labels)
    assert "Upgrade skills is free" not in text
    assert "🛠 Work & scout: each of these costs your action." in text
    text, _ = screen(d, RU)
    assert "«Улучшить навыки» бесплатно" not in text
    assert "🛠 Работа и разведка: каждое из этих занятий стоит вашего действия." in text


def test_a_rest_group_names_recover_harm_only_where_it_is_offered() -> None:
    d = Driver(fresh(ana_harms=1), [4] + [3] * 60)
    d.do(ANA, "menu", "rest")
    text, labels = screen(d)
    assert any(b.startswith("🩹 Recover Harm") for b in labels)
    assert "🛌 Rest & heal: Recover Harm is free; the others cost your action." in text
    d.do(ANA, "recover")
    d.do(ANA, "menu", "rest")
    text, labels = screen(d)
    hint_fits_buttons(text, labels)


@pytest.mark.parametrize("seed", range(6))
def test_every_group_hint_of_a_random_downtime_fits_its_buttons(seed: int) -> None:
    rnd = random.Random(seed)
    d = Driver(fresh(ana_harms=rnd.choice([0, 1, 4])), [2, 4, 1] + [3] * 80)
    steps = ["menu", "recover", "upgrade", "seek", "introspect", "scout_pick", "text", "end"]
    d.do(rnd.choice([ANA, BEN, CY]), "menu", rnd.choice(["rest", "work"]))
    seen = 0
    for _ in range(40):
        if d.campaign.downtime is None:
            break
        text, labels = screen(d)
        hint_fits_buttons(text, labels)
        seen += "your action." in text or "is free." in text
        actor = rnd.choice([ANA, BEN, CY])
        action = rnd.choice(steps)
        argument = rnd.choice(["rest", "work", "train", "", "1", "body"])
        try:
            out = d.do(actor, action, argument)
        except StonetableError:
            continue
        if out.closed:
            break
    assert seen, "the walk never opened a group"


def test_a_plan_button_names_a_long_place_in_whole_words() -> None:
    w = world((ANA, BEN, CY))
    long = "The Lighthouse of the Drowned Bells"
    w = replace(w, cards=tuple(replace(c, title=long) if c.id == "a" else c for c in w.cards))
    sheets = {ANA: character("Ana"), BEN: character("Ben"), CY: character("Cy")}
    d = Driver(table(w, sheets), [3])
    d.do(ANA, "menu", "work")
    d.do(ANA, "plan_pick")
    _, labels = screen(d)
    assert [b for b in labels if b.startswith("🧹")] == ["🧹 The Lighthouse of the"]


def test_every_kind_the_downtime_log_keeps_has_its_own_line() -> None:
    """A kind of event added to the log without a method to draw it fails here."""
    from core.rules.nsu.downtime_panel import LOGGED_KINDS
    from tgbot.render.nsu_downtime import DowntimeLine

    drawn = vars(DowntimeLine)["text"].dispatcher.registry
    assert LOGGED_KINDS and [k.__name__ for k in LOGGED_KINDS if k not in drawn] == []
    with pytest.raises(TypeError):  # anything else is a mistake, never a silent blank
        DowntimeLine(fresh(), None, EN).text(object())
