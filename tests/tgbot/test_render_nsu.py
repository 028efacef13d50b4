"""NSU renderers: valid Telegram HTML at every step, names escaped, no secrets in the group."""

from __future__ import annotations

import io
import re

from PIL import Image

from core.campaigns import CampaignView, PanelView
from core.rules.nsu import SYSTEM
from core.rules.nsu.adventure_panel import public_map, scene
from core.rules.nsu.campaign import campaign_of
from core.rules.nsu.glance import nsu_status_lines
from core.store.models import CampaignStatus
from core.words.i18n import lang_for
from tests.core.rules.nsu.table_support import (
    ALICE,
    BOB,
    CARA,
    NAMES,
    Harness,
    Panel,
    build_world,
    card_fields,
    make_character,
)
from tgbot.callback import MAX_BYTES
from tgbot.panels import Note, Refresh
from tgbot.render.nsu import RENDERERS
from tgbot.render.nsu_map import map_png
from tgbot.sandbox.fake_api import parse_html

EN = lang_for("en")

GROUP = -100
RENDER = {r.kind: r for r in RENDERERS}
HOSTILE = "<b>Bob</b> & <i>co"


def view(h: Harness, panel: Panel, chat: int = GROUP, panel_id: int = 9) -> PanelView:
    table = h.table()
    campaign = CampaignView(
        id=1,
        system=SYSTEM,
        status=CampaignStatus.ACTIVE,
        host_id=ALICE,
        chat_tg_id=GROUP,
        chat_title="Table",
        app_token="tok",
        members=(),
        state=table.state,
        version=1,
    )
    return PanelView(
        id=panel_id,
        kind=panel.kind,
        version=3,
        state=panel.state,
        closed=panel.closed,
        chat_tg_id=chat,
        message_id=5,
        events=panel.events,
        campaign=campaign,
        table=table,
    )


def render(h: Harness, panel: Panel, chat: int = GROUP) -> str:
    """Render, check the HTML parses and every button fits; return the plain text."""
    html, markup = RENDER[panel.kind].render(view(h, panel, chat), EN)
    text, _ = parse_html(html)
    assert len(text) <= 4096
    if markup is not None:
        for row in markup.inline_keyboard:
            for b in row:
                assert b.callback_data is None or len(str(b.callback_data).encode()) <= MAX_BYTES
    return text


def hostile() -> Harness:
    NAMES[BOB] = HOSTILE
    return Harness()


def secrets_of(pid: int) -> tuple[str, ...]:
    return card_fields(pid, 1) + card_fields(pid, 2)


def test_every_worldbuilding_step_renders_and_keeps_cards_secret() -> None:
    h = hostile()
    try:
        panel = h.open("nsu.setup", ALICE)
        seen = [render(h, panel)]
        steps = [
            (BOB, "text", "Weird & <hopeful>"),
            (ALICE, "agree", ""),
            (CARA, "agree", ""),
            (ALICE, "text", "No <dragons>"),
            (BOB, "pass", ""),
            (CARA, "pass", ""),
            (ALICE, "text", "Walls & buses"),
            (BOB, "pass", ""),
            (CARA, "pass", ""),
            (ALICE, "text", "A week"),
            (ALICE, "scope", ""),
            *[(p, "text", n) for p, n in zip((ALICE, BOB, CARA, ALICE, BOB), "VWXYZ", strict=True)],
            (CARA, "abundance", "1"),
        ]
        for actor, action, argument in steps:
            h.act(panel, actor, action, argument)
            seen.append(render(h, panel))
        for pid in (ALICE, BOB, CARA):
            for n in (1, 2):
                cards = h.open("nsu.cards", pid, "9")
                for value in card_fields(pid, n):
                    h.act(cards, pid, "text", value)
                    private = render(h, cards, chat=pid)
                    assert all(
                        s not in private
                        for o in (ALICE, BOB, CARA)
                        if o != pid
                        for s in secrets_of(o)
                    )
                follow = RENDER["nsu.cards"].follow_ups(view(h, cards, pid))  # type: ignore[attr-defined]
                assert follow == [Refresh(9)]
            seen.append(render(h, panel))
        h.act(panel, BOB, "deal", "3")
        seen.append(render(h, panel))
        h.act(panel, CARA, "roll")
        seen.append(render(h, panel))
        group = "\n".join(seen)
        assert HOSTILE in group and "Weird & <hopeful>" in group and "No <dragons>" in group
        for pid in (ALICE, BOB, CARA):
            assert all(s not in group for s in secrets_of(pid))
        assert "The world is built" in seen[-1]
        assert re.search(r"L1 D[1-4] R[1-4]", seen[-1])
    finally:
        NAMES[BOB] = "Bob"


def test_ruling21_the_settlement_step_says_how_the_round_ends() -> None:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    steps = [
        (BOB, "text", "Weird"),
        (ALICE, "agree", ""),
        (CARA, "agree", ""),
        *[(p, "pass", "") for p in (ALICE, BOB, CARA)],
    ]
    for actor, action, argument in steps:
        h.act(panel, actor, action, argument)
    text = render(h, panel)
    assert "The round ends when two players in a row pass (whoever passed may speak again " in text
    assert "or when anyone taps “Card is full”." in text
    assert "one more pass ends the round" not in text
    h.act(panel, ALICE, "pass", "")
    text = render(h, panel)
    assert "Bob's turn" in text and "The last player passed: one more pass ends the round." in text
    h.act(panel, BOB, "text", "Walls")
    assert "one more pass ends the round" not in render(h, panel)


def test_resources_say_one_each_then_anyone_adds_the_rest() -> None:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    steps = [
        (BOB, "text", "Weird"),
        (ALICE, "agree", ""),
        (CARA, "agree", ""),
        *[(p, "pass", "") for p in (ALICE, BOB, CARA)],
        (ALICE, "text", "Walls"),
        (BOB, "pass", ""),
        (CARA, "pass", ""),
        (ALICE, "scope", ""),
        (ALICE, "text", "Water"),
    ]
    for actor, action, argument in steps:
        h.act(panel, actor, action, argument)
    text = render(h, panel)
    assert "one resource each (1 of 5)" in text and "Waiting for: Bob, Cara" in text
    h.act(panel, BOB, "text", "Salt")
    h.act(panel, CARA, "text", "Music")
    text = render(h, panel)
    assert "Everyone has named one" in text and "anyone replies" in text and "(3 of 5)" in text
    assert "Waiting for" not in text and "one resource each" not in text
    h.act(panel, ALICE, "text", "Light")  # a second one from the same player is fine now
    assert "(4 of 5)" in render(h, panel)


def test_character_and_adventure_render_and_brief_the_right_people() -> None:
    h = hostile()
    try:
        build_world(h)
        for pid in (ALICE, BOB, CARA):
            make_character(h, pid)
        panel = h.open("nsu.adventure", ALICE)
        assert "At home" in render(h, panel)
        assert "/act what you want to happen" in render(h, panel)  # what to do next
        h.act(panel, ALICE, "travel")
        h.act(panel, ALICE, "go", "0")
        text = render(h, panel)
        world = campaign_of(h.table()).require_world()
        here = world.card(world.current or "")
        assert here.title in text and here.danger_type not in text
        notes = RENDER["nsu.adventure"].follow_ups(view(h, panel))  # type: ignore[attr-defined]
        assert all(isinstance(n, Note) for n in notes)
        to = sorted(n.chat_id for n in notes)  # type: ignore[union-attr]
        assert to == sorted((ALICE, BOB, CARA))  # the author once, the other Arbiters once
        for note in notes:
            plain, _ = parse_html(note.text)  # type: ignore[union-attr]
            assert here.treasure_type in plain
        h.act(panel, ALICE, "pick")
        assert HOSTILE in render(h, panel)
        h.act(panel, ALICE, "pick", "1")
        h.act(panel, ALICE, "split")
        text = render(h, panel)
        assert "On screen" in text and "Arbiters" in text
        notes = RENDER["nsu.adventure"].follow_ups(view(h, panel))  # type: ignore[attr-defined]
        arbiters = scene(h.table(), panel.state).arbiters
        assert sorted(n.chat_id for n in notes) == sorted(arbiters)  # type: ignore[union-attr]
        glance = "\n".join(nsu_status_lines(h.table()))
        assert HOSTILE in glance and "1 of 6 locations flipped" in glance
    finally:
        NAMES[BOB] = "Bob"


def test_character_panel_steps_render() -> None:
    h = hostile()
    try:
        panel = h.open("nsu.character", BOB)
        texts = [render(h, panel, chat=BOB)]
        for action, argument in [
            ("text", "<Wren> & co"),
            ("text", "they"),
            ("text", "Tall"),
            ("text", "A, B, C"),
            ("aspects", "2"),
            ("text", "x, -, y"),
            ("text", "Run, Hide, <Sing>"),
        ]:
            h.act(panel, BOB, action, argument)
            texts.append(render(h, panel, chat=BOB))
        joined = "\n".join(texts)
        assert "<Wren> & co" in joined and "<Sing> +1" in joined
        assert "Rumours are about the two locations" in texts[-1]
        h.act(panel, BOB, "finish")
        assert "<Wren> & co is ready" in render(h, panel, chat=BOB)
        follow = RENDER["nsu.character"].follow_ups(view(h, panel, BOB))  # type: ignore[attr-defined]
        assert follow == []  # opened without a board to redraw
        again = Harness()
        finished = again.open("nsu.character", ALICE, "7")
        for action, argument in [
            ("text", "Moss"),
            ("text", "he"),
            ("text", "Mossy"),
            ("text", "A, B, C"),
            ("aspects", "0"),
            ("text", "x, y, z"),
            ("text", "Run, Hide, Sing"),
            ("finish", ""),
        ]:
            again.act(finished, ALICE, action, argument)
        follow = RENDER["nsu.character"].follow_ups(view(again, finished, ALICE))  # type: ignore[attr-defined]
        assert follow == [Refresh(7)]
    finally:
        NAMES[BOB] = "Bob"


def test_lines_and_veils_are_posted_without_a_name() -> None:
    h = hostile()
    try:
        panel = h.open("nsu.safety", BOB)
        h.act(panel, BOB, "kind", "veil")
        h.act(panel, BOB, "text", "Spiders & <webs>")
        assert "Spiders & <webs>" in render(h, panel, chat=BOB)
        notes = RENDER["nsu.safety"].follow_ups(view(h, panel, BOB))  # type: ignore[attr-defined]
        assert len(notes) == 1 and notes[0].chat_id == GROUP
        plain, _ = parse_html(notes[0].text)
        assert "Spiders & <webs>" in plain and "Bob" not in plain
    finally:
        NAMES[BOB] = "Bob"


def test_map_picture_is_a_png_of_the_right_size() -> None:
    h = Harness()
    build_world(h)
    picture = map_png(public_map(h.table()))
    image = Image.open(io.BytesIO(picture))
    assert image.format == "PNG" and image.size[0] > 3 * 200 and image.size[1] > 2 * 130
