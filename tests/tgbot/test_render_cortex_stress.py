"""A Cortex table's Stress types as each reader sees them, and as they type them.

A new table's own types (Afraid, Angry, Exhausted, Injured, Insecure) read in the
reader's language on the panel, its buttons, its log, /trouble and the Mini App
sheet; a type the Watchtower wrote reads as written in every language. A reply
that inflicts Stress may name a default type in the reader's language.
"""

from __future__ import annotations

from typing import Any

import jinja2
import pytest

from core.rules.cortex.campaign import load
from core.rules.cortex.panel import Press
from core.rules.errors import StonetableError
from core.words.i18n import Lang, lang_for
from tests.core.rules.cortex.test_campaign_panel import CLARK, LOIS, WATCHTOWER, Game
from tests.core.rules.cortex.test_campaign_panel import game as _cortex_game
from tests.tgbot.test_i18n_pseudo import ROOT
from tests.tgbot.test_i18n_pseudo_cortex import campaign, panel_view
from tgbot.render import cortex
from tgbot.render.errors import user_message
from webapp.errors import message_of
from webapp.i18n import install
from webapp.sheets.cortex import PAGE

EN, RU, XX = lang_for("en"), lang_for("ru"), lang_for("xx")
game = _cortex_game


def panel(g: Game, lang: Lang) -> tuple[str, list[str]]:
    html, markup = cortex.ConflictRenderer().render(panel_view(g), lang)
    labels = [b.text for row in (markup.inline_keyboard if markup else ()) for b in row]
    return html, labels


def sheet_page(g: Game, lang: Lang, viewer: int = WATCHTOWER) -> str:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(ROOT / "webapp" / "templates"),
        autoescape=jinja2.select_autoescape(default=True),
    )
    install(env)
    view = campaign(g)
    context: dict[str, Any] = {"view": view, "token": "t", "page": PAGE, "lang": lang}
    context["sheet"] = PAGE.context(view, g.table, viewer)
    return env.get_template("campaign.html").render(**context)


def stress_lois(g: Game) -> None:
    """Clark beats Lois in a Contest and she takes Stress: the Stress is being chosen."""
    g.open(CLARK, "contest Lois")
    g.press(CLARK, "add", "v0")
    g.press(CLARK, "roll", "", 9)
    g.press(CLARK, "settle")
    g.press(LOIS, "add", "v0")
    g.press(LOIS, "roll", "", 2)
    g.press(LOIS, "settle")
    g.press(LOIS, "stress.take")


def test_the_stress_to_inflict_reads_in_the_panels_language(game: Game) -> None:
    stress_lois(game)
    _, ru = panel(game, RU)
    _, en = panel(game, EN)
    inflict = [f"💥 {t} · Clark" for t in ("Страх", "Гнев", "Усталость", "Травма")]
    assert [*inflict, "💥 Неуверенность · Clark"] == [x for x in ru if x.startswith("💥 ")][:5]
    assert [x for x in en if x.startswith("💥 ")][:5] == [
        f"💥 {t} · Clark" for t in ("Afraid", "Angry", "Exhausted", "Injured", "Insecure")
    ]
    _, xx = panel(game, XX)
    assert "💥 ⟦Àñgrÿ⟧ · Clark" in xx  # a default type comes from the catalogue


def test_inflicted_stress_reads_in_each_language_on_the_panel_and_in_trouble(game: Game) -> None:
    stress_lois(game)
    game.press(CLARK, "inflict", "1", 5)  # Angry d10
    assert load(game.table).table.sheet("Lois").stress_of("Angry") is not None  # stored as is
    ru, _ = panel(game, RU)
    en, _ = panel(game, EN)
    assert "💥 Lois получает Гнев d10" in ru and "Стресс: Гнев d10" in ru
    assert "💥 Lois takes Angry d10" in en and "Stress: Angry d10" in en
    table = load(game.table).table
    assert "Стресс: Гнев d10" in cortex.table_text(table, RU)
    assert "Stress: Angry d10" in cortex.table_text(table, EN)

    # Next Contest: Lois' Stress is a die for Clark, by its name in the panel's language
    game.open(CLARK, "contest Lois")
    game.press_only(CLARK, "pool.open")
    assert "💢 Гнев d10" in panel(game, RU)[1] and "💢 Angry d10" in panel(game, EN)[1]
    game.press(CLARK, "add", "s0")
    ru, ru_labels = panel(game, RU)
    en, en_labels = panel(game, EN)
    assert "Гнев d10" in ru and "➖ Гнев" in ru_labels
    assert "Angry d10" in en and "➖ Angry" in en_labels
    game.edit(WATCHTOWER, "scene.end")


def test_a_relief_names_the_stress_in_the_panels_language(game: Game) -> None:
    stress_lois(game)
    game.press(CLARK, "inflict", "0", 4)  # Afraid
    game.open(CLARK, "relief Lois afraid")
    assert "Clark → Lois (Страх)" in panel(game, RU)[0]
    assert "helps Lois (Afraid)" in panel(game, EN)[0]


def test_the_mini_app_sheet_shows_default_stress_in_the_viewers_language(game: Game) -> None:
    stress_lois(game)
    game.press(CLARK, "inflict", "1", 5)
    ru, en = sheet_page(game, RU, LOIS), sheet_page(game, EN, LOIS)
    assert "Виды Стресса: Страх, Гнев, Усталость, Травма, Неуверенность" in ru
    assert "Stress types: Afraid, Angry, Exhausted, Injured, Insecure" in en
    assert '<span class="chip stress">Гнев d10' in ru
    assert '<span class="chip stress">Angry d10' in en
    assert 'aria-label="Recover Angry"' in en
    assert '"type": "Angry"}' in ru  # the edit still names the stored type
    assert 'aria-label="Снизить: Гнев"' in ru


def test_a_type_the_watchtower_wrote_reads_as_written_in_every_language(game: Game) -> None:
    game.edit(WATCHTOWER, "settings.stress", types="Hungry, Angry, Злость")
    stress_lois(game)
    for lang, angry in ((RU, "Гнев"), (EN, "Angry")):
        labels = [x for x in panel(game, lang)[1] if x.startswith("💥 ")]
        assert labels[:3] == ["💥 Hungry · Clark", f"💥 {angry} · Clark", "💥 Злость · Clark"]
    game.press(CLARK, "inflict", "0", 5)  # Hungry d10
    for lang in (RU, EN, XX):
        text, _ = panel(game, lang)
        assert "Hungry d10" in text  # never accented: not the catalogue's
        assert "Hungry" in cortex.table_text(load(game.table).table, lang)
    assert "Виды Стресса: Hungry, Гнев, Злость" in sheet_page(game, RU)
    assert "Stress types: Hungry, Angry, Злость" in sheet_page(game, EN)


def test_a_reply_that_inflicts_stress_may_name_it_in_the_readers_language(game: Game) -> None:
    reader = cortex.ConflictRenderer()
    game.open(CLARK, "contest Lois")
    assert reader.read_reply(panel_view(game), "Гнев", RU) == "Гнев"  # a Useful Detail now
    game.edit(WATCHTOWER, "scene.end")
    game.closed = True
    stress_lois(game)
    view = panel_view(game)
    assert reader.read_reply(view, "гнев +d6 -d8", RU) == "Angry +d6 -d8"
    assert reader.read_reply(view, "Afraid", RU) == "Afraid"
    assert reader.read_reply(view, "afraid +d6", EN) == "Afraid +d6"
    assert reader.read_reply(view, "Гнев", EN) == "Гнев"  # English reads English: refused
    game.press(CLARK, "text", reader.read_reply(view, "Неуверенность +d12", RU), 7, 3)
    assert load(game.table).table.sheet("Lois").stress_of("Insecure") is not None


@pytest.mark.parametrize(("lang", "afraid"), [(RU, "Страх"), (EN, "Afraid")], ids=["ru", "en"])
def test_an_inflict_button_reads_a_default_type_or_the_words_written(
    lang: Lang, afraid: str
) -> None:
    def label(name: str) -> str:
        return cortex.choice_label(cortex.Choice(Press.INFLICT, "0", who="Clark", name=name), lang)

    assert label("Afraid") == f"💥 {afraid} · Clark"
    assert label("Hungry") == "💥 Hungry · Clark"
    assert label("afraid") == "💥 afraid · Clark"  # only the stored default is the catalogue's


def refusal(g: Game, player: int, argument: str) -> StonetableError:
    with pytest.raises(StonetableError) as refused:
        g.open(player, argument)
    return refused.value


def test_a_refusal_names_the_stress_types_in_the_readers_language(game: Game) -> None:
    error = refusal(game, CLARK, "relief Lois Голод")
    assert user_message(error, RU).endswith(
        "Возьмите один из: Страх, Гнев, Усталость, Травма, Неуверенность."
    )
    assert user_message(error, EN).endswith(
        "Use one of: Afraid, Angry, Exhausted, Injured, Insecure."
    )
    assert message_of(error, RU).endswith("Страх, Гнев, Усталость, Травма, Неуверенность.")
    assert "⟦Àñgrÿ⟧" in user_message(error, XX)

    error = refusal(game, CLARK, "relief Lois Angry")  # she has none yet
    assert "Стресса «Гнев»" in user_message(error, RU) and "Angry" in user_message(error, EN)

    stress_lois(game)
    game.press(CLARK, "inflict", "1", 5)
    with pytest.raises(StonetableError) as refused:
        game.edit(WATCHTOWER, "settings.stress", types="Hungry")
    assert "Стресс «Гнев»" in user_message(refused.value, RU)
    game.edit(WATCHTOWER, "settings.stress", types="Hungry, Angry")
    error = refusal(game, CLARK, "relief Lois Голод")
    assert user_message(error, RU).endswith("Возьмите один из: Hungry, Гнев.")
    assert user_message(error, EN).endswith("Use one of: Hungry, Angry.")
