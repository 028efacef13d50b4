"""One name for one thing: the words panels use for people, places, rumours and counts."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs, urlparse

from core.campaigns import CampaignView, PanelView
from core.rules.d20check import SYSTEM, CharacterSheet
from core.rules.d20check.events import HarmChanged
from core.rules.nsu import downtime as dt
from core.rules.nsu.campaign import campaign_of
from core.rules.nsu.roll_panel import ROLL_RULES
from core.rules.nsu.sheet import CharacterDraft
from core.rules.rng import ScriptedRng
from core.rules.table import Role, Seat, Table
from core.store.models import CampaignStatus
from core.words.i18n import lang_for
from tests.core.rules.nsu.table_support import (
    ALICE,
    BOB,
    Harness,
    build_to_locations,
    card_fields,
    write_locations,
)
from tests.support.nsu_table import card, character, split, table, world
from tests.support.panel_views import read_as
from tgbot.render.d20 import CheckRenderer
from tgbot.render.d20 import log_line as d20_log_line
from tgbot.render.layout import named
from tgbot.render.nsu import CardsRenderer, app_button, draft_lines, plain_name
from tgbot.render.nsu_downtime import DowntimeLine, card_name
from tgbot.render.nsu_play import NsuRollRenderer
from tgbot.sandbox.fake_api import parse_html

EN = lang_for("en")


def _view(state: Any, t: Any) -> Any:
    return SimpleNamespace(
        id=7,
        version=1,
        state=state,
        table=t,
        closed=False,
        events=(),
        campaign=SimpleNamespace(id=1),
        typed=read_as(state),
    )


def _plain(html: str) -> str:
    return str(parse_html(html)[0])


def test_a_roll_introduces_characters_with_their_players_where_they_act() -> None:
    w = split(world((1, 2, 3)), {1, 2}, {3})
    t = table(w, {1: character("Ana"), 2: character("Bo"), 3: character("Cy")})
    out = ROLL_RULES.open(t, 1, "I climb", ScriptedRng([2, 3, 5]))
    text = _plain(NsuRollRenderer().render(_view(out.state, t), EN)[0])
    assert "Action Roll: Ana (P1)" in text  # first mention
    assert "On screen with them: Bo (P2)" in text
    assert "⚖️ Arbiters: Cy (P3)" in text  # an Arbiter is named by their character too
    last = text.splitlines()[-1]
    assert last.startswith("👉 Cy: ") and "P3" not in last  # named with the player above
    for player in ("P1", "P2", "P3"):  # the same person never twice, nor two ways
        assert text.count(player) == 1, (player, text)


def test_the_adventure_names_each_person_once_with_their_player() -> None:
    from tgbot.render.nsu import AdventureRenderer

    for w in (split(world((1, 2, 3)), {1, 2}, {3}), world((1, 2, 3))):
        t = table(w, {1: character("Ana"), 2: character("Bo"), 3: character("Cy")})
        state = {"v": 1, "travel": False, "picking": None}
        text = _plain(AdventureRenderer().render(_view(state, t), EN)[0])
        for player, name in (("P1", "Ana"), ("P2", "Bo"), ("P3", "Cy")):
            assert text.count(player) == 1, (player, text)
            assert f"{name} ({player})" in text


def test_a_split_party_is_told_before_travel_that_it_meets_up() -> None:
    from tgbot.render.nsu import AdventureRenderer

    for w, told in ((split(world((1, 2, 3)), {1, 2}, {3}), True), (world((1, 2, 3)), False)):
        t = table(w, {1: character("Ana"), 2: character("Bo"), 3: character("Cy")})
        state = {"v": 1, "travel": True, "picking": None}
        text = _plain(AdventureRenderer().render(_view(state, t), EN)[0])
        assert ("The party meets up to travel" in text) is told, text


def test_a_face_down_card_is_named_by_its_map_label() -> None:
    w = world((1, 2, 3))
    w = replace(w, cards=(*w.cards, card("L6", 3, "The Sunken Choir")))
    assert card_name(w, "L6") == "L6 (D2 R3)"  # as the map labels it, never "card 4"
    assert card_name(w, "L6", viewer=3) == "The Sunken Choir"  # its author sees the title


def test_counts_in_the_downtime_log_agree_with_their_number() -> None:
    t = table(world((1, 2)), {1: character("Ana"), 2: character("Bo")})
    line = DowntimeLine(t, None, EN).text
    one = dt.HarmRecovered(1, "Bruise", "Mark", 1)
    assert line(one).endswith("(1 recovery point).")
    assert line(replace(one, cost=2)).endswith("(2 recovery points).")
    assert line(dt.RecoveryPointsTaken(1, 1, 3)) == "Ana rests: +1 recovery point (3/4)."
    inward = dt.IntrospectionRolled(2, heart_face=1)
    assert line(inward) == "Bo turns inward: Heart 1, 1 box to clear."
    cleared = dt.MoodReduced(2, mood=0, amount=1, remaining=2)
    assert line(cleared) == "Bo clears 1 box; 2 left."
    assert line(replace(cleared, amount=2)) == "Bo clears 2 boxes; 2 left."


def test_no_message_counts_with_a_bracketed_plural() -> None:
    """Counts agree with their number in every language: ngettext, never "box(es)"."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[2] / "locale" / "messages.pot"
    with root.open("rb") as file:
        catalog = read_po(file)
    bracketed = [
        m.id for m in catalog if any(mark in str(m.id) for mark in ("(s)", "(es)", "(ies)", "s(s)"))
    ]
    assert bracketed == []


def test_a_rumour_names_the_card_it_is_about() -> None:
    draft = CharacterDraft(rumours=("Bells ring there at night", "Nobody came back"))
    cards = (card("a", 1, "Glass <Orchard>"), card("b", 1, "The Mill"))
    lines = draft_lines(draft, cards)
    assert "Rumour about <b>Glass &lt;Orchard&gt;</b>: Bells ring there at night" in lines
    assert "Rumour about <b>The Mill</b>: Nobody came back" in lines


def test_the_map_pictures_button_opens_the_map() -> None:
    args = {"webapp_url": "https://app.example/app", "bot": "bot", "short_name": "play"}
    group = app_button("🗺 Open the map", private=False, token="T" * 22, page="map", **args)
    assert group is not None and group.url is not None
    assert parse_qs(urlparse(group.url).query)["startapp"] == ["T" * 22 + "-map"]
    private = app_button("🗺 Open the map", private=True, token="T" * 22, page="map", **args)
    assert private is not None and private.web_app is not None
    assert private.web_app.url.endswith("startapp=" + "T" * 22 + "-map")
    sheet = app_button("Open sheet", private=True, token="T" * 22, **args)
    assert sheet is not None and sheet.web_app is not None
    assert sheet.web_app.url.endswith("startapp=" + "T" * 22)


def test_the_locations_panel_offers_edits_until_the_map_is_dealt() -> None:
    h = Harness()
    board = build_to_locations(h)
    write_locations(h)
    panel = h.open("nsu.cards", ALICE)
    text, markup = CardsRenderer().render(_view(panel.state, h.table()), EN)
    labels = [b.text for row in (markup.inline_keyboard if markup else ()) for b in row]
    assert [label for label in labels if label.startswith("✏️ Edit")] == [
        "✏️ Edit 1. Glass Orchard 1",
        "✏️ Edit 2. Glass Orchard 2",
    ]
    assert "until then you can still edit them" in text
    setup = campaign_of(h.table()).setup
    assert setup is not None
    h.act(panel, ALICE, "edit", setup.world.cards[0].id)
    text, markup = CardsRenderer().render(_view(panel.state, h.table()), EN)
    assert "Rewriting Glass Orchard 1" in text and "Now: Glass Orchard 1" in text
    labels = [b.text for row in (markup.inline_keyboard if markup else ()) for b in row]
    assert "✔️ Keep as it is" in labels
    h.act(panel, ALICE, "restart")
    h.act(board, BOB, "deal", "3")
    text, markup = CardsRenderer().render(_view(panel.state, h.table()), EN)
    labels = [b.text for row in (markup.inline_keyboard if markup else ()) for b in row]
    assert not [label for label in labels if label.startswith("✏️")]


def test_an_edit_button_names_a_long_location_in_whole_words() -> None:
    h = Harness()
    build_to_locations(h)
    long = "The Lighthouse of the Drowned Bells"
    for pid in h.players:
        for n in (1, 2):
            cards = h.open("nsu.cards", pid)
            title, *rest = card_fields(pid, n)
            for value in (long if (pid, n) == (ALICE, 1) else title, *rest):
                h.act(cards, pid, "text", value)
    panel = h.open("nsu.cards", ALICE)
    _, markup = CardsRenderer().render(_view(panel.state, h.table()), EN)
    labels = [b.text for row in (markup.inline_keyboard if markup else ()) for b in row]
    assert [label for label in labels if label.startswith("✏️ Edit")] == [
        "✏️ Edit 1. The Lighthouse of the",
        "✏️ Edit 2. Glass Orchard 2",
    ]


def test_a_first_player_button_names_a_long_name_in_whole_words() -> None:
    seats = {1: Seat(1, "Maximiliana Wolfeschlegelstein", frozenset({Role.PLAYER}), {})}
    name = plain_name(Table(1, "nsu", {}, seats), 1)
    assert named(EN.gettext("{name} first", name="{}"), name) == "Maximiliana first"


def test_a_d20_check_names_the_character_and_introduces_the_player_once() -> None:
    seats = {
        1: Seat(1, "Alice", frozenset({Role.PLAYER}), CharacterSheet("Thorn").to_dict()),
        2: Seat(2, "Gil", frozenset({Role.HOST, Role.GAME_MASTER}), {}),
    }
    t = Table(1, "d20", {"v": 1, "plot_points": {"lucky": 1, "unlucky": 1}}, seats)
    opened = SYSTEM.panel("d20.check").open(t, 1, "dc12", ScriptedRng([]))
    campaign = CampaignView(1, SYSTEM, CampaignStatus.ACTIVE, 2, -1, "T", "tok", (), t.state, 1)
    view = PanelView(9, "d20.check", 9, opened.state, False, -1, 1, (), campaign, t)
    text = _plain(CheckRenderer().render(view, EN)[0])
    assert text.startswith("🎲 Thorn (Alice) makes a check")  # first mention
    assert "Thorn sets up the check, then rolls." in text
    assert text.splitlines()[-1].startswith("👉 Thorn: ")  # who acts now, named above
    assert text.count("(Alice)") == 1


def test_downtime_and_d20_counts_agree_with_their_number() -> None:
    t = table(world((1, 2)), {1: character("Ana"), 2: character("Bo")})
    line = DowntimeLine(t, None, EN).text
    more = dt.TimeSpent(units=1, actions_each=1)
    assert line(more) == "More time passes: +1 action each, more complications."
    assert "+2 actions each" in line(replace(more, actions_each=2))
    seats = {1: Seat(1, "Alice", frozenset({Role.PLAYER}), CharacterSheet("Thorn").to_dict())}
    d20 = Table(1, "d20", {"v": 1}, seats)
    harm = HarmChanged(0, 15, 0, 16, wounds_lost_past_limit=1)
    assert d20_log_line(d20, harm, "Thorn") == (
        "🩸 Thorn: wounds 15 → 16. (1 more wound past the last box.)"
    )
    more = replace(harm, wounds_lost_past_limit=3)
    assert "(3 more wounds past" in str(d20_log_line(d20, more, "Thorn"))
