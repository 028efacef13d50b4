"""The threat roll as chat text and buttons: valid Telegram HTML at every step, names escaped."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.campaigns import CampaignView, MemberView, PanelView
from core.rules.errors import StonetableError
from core.rules.registry import default_registry
from core.rules.rng import ScriptedRng, SeededRng
from core.rules.table import Json, Role, Seat, Table
from core.rules.threat.panel import ActionKind
from core.rules.threat.sheet import Approach, Sheet
from core.rules.threat.table import ThreatRollPanel
from core.store.models import CampaignStatus
from core.words.i18n import lang_for
from tgbot.callback import decode
from tgbot.render.threat import ThreatRollRenderer
from tgbot.sandbox.fake_api import parse_html

EN = lang_for("en")

GM, ANA, BO = 1, 2, 3
NASTY = "<b>Bo</b> & <i>Co"
RULES = ThreatRollPanel()
RENDERER = ThreatRollRenderer()


def table(approach: str = "Prowess", momentum: int = 5, harm: int = 1) -> Table:
    sheet = Sheet((Approach(approach, 2), Approach("Guile", 1)), momentum, harm).to_dict()
    seats = {
        GM: Seat(GM, "Gail & <GM>", frozenset({Role.HOST, Role.GAME_MASTER}), Sheet().to_dict()),
        ANA: Seat(ANA, "Ana <3", frozenset({Role.PLAYER}), sheet),
        BO: Seat(BO, NASTY, frozenset({Role.PLAYER}), Sheet().to_dict()),
    }
    return Table(1, "threat", {"v": 1}, seats)


def view_of(t: Table, state: Json, version: int = 3, closed: bool = False) -> PanelView:
    campaign = CampaignView(
        id=1,
        system=default_registry().find("threat"),
        status=CampaignStatus.ACTIVE,
        host_id=GM,
        chat_tg_id=-100,
        chat_title="T",
        app_token="tok",
        members=tuple(MemberView(s.player_id, s.name, s.roles) for s in t.seats.values()),
        state=t.state,
        version=1,
    )
    return PanelView(
        id=7,
        kind="threat.roll",
        version=version,
        state=state,
        closed=closed,
        chat_tg_id=-100,
        message_id=1,
        events=(),
        campaign=campaign,
        table=t,
    )


def check(view: PanelView) -> tuple[str, list[str]]:
    html, markup = RENDERER.render(view, EN)
    text, _ = parse_html(html)  # raises on bad HTML, like Telegram
    assert len(text) < 4096
    labels = []
    for row in markup.inline_keyboard if markup else ():
        for button in row:
            assert button.callback_data is not None
            data = decode(str(button.callback_data))
            assert data.encode() == button.callback_data
            labels.append(button.text)
    return text, labels


def test_names_with_html_are_text_and_every_step_is_valid_html() -> None:
    t = table(approach="<Sneak> & run")
    state = RULES.open(t, GM, f"for={ANA}", SeededRng(1)).state
    text, labels = check(view_of(t, state))
    assert "Ana <3 acts" in text and "GM: Gail & <GM>" in text
    assert "🎯 Approach…" in labels and "🎲 Roll" not in labels
    state = RULES.act(t, state, ANA, "open_approach", "", SeededRng(1)).state
    text, labels = check(view_of(t, state))
    assert labels == ["<Sneak> & run 2", "Guile 1", "⬅️ Back"]
    assert text.endswith("👉 Ana <3: pick the approach or go back · Gail & <GM>: go back")
    for actor, action, argument in [
        (ANA, "choose_approach", "0"),
        (BO, "join", ""),
        (GM, "open_threat", ""),
        (GM, "set_threat", "2"),
    ]:
        state = RULES.act(t, state, actor, action, argument, SeededRng(1)).state
    text, labels = check(view_of(t, state))
    assert f"{NASTY} helps" in text and "Approach: <Sneak> & run 2" in text
    assert "🎯 <Sneak> & run 2" in labels and "⚠️ Threat +2" in labels
    assert "Harm 1: +1 threat die" in text and "Pool: 3d against 3t" in text
    out = RULES.act(t, state, ANA, "roll", "", ScriptedRng([3, 2, 1, 8, 1, 2]))
    text, labels = check(view_of(t, out.state))
    assert "Threat dice: 8✂️ 1 | harm: 2 — 1 cut" in text
    assert labels == ["🔥 Burn Momentum → Botched", "Keep Dire"]
    done = RULES.act(t, out.state, ANA, "burn", "", SeededRng(1))
    text, labels = check(view_of(t, done.state, closed=True))
    assert labels == [] and "BOTCHED" in text and f"{NASTY} shares the risk" in text


def test_an_impossible_roll_says_so_before_and_after() -> None:
    t = table()
    state = RULES.open(t, ANA, "3d4t", SeededRng(1)).state
    text, _ = check(view_of(t, state))
    assert "Impossible as things stand" in text and "Chance" not in text
    done = RULES.act(t, state, ANA, "roll", "", SeededRng(1))
    text, labels = check(view_of(t, done.state, closed=True))
    assert "Impossible as things stand" in text and labels == []


@settings(max_examples=100, deadline=None)
@given(
    approach=st.text(
        st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=24
    ).filter(lambda s: s.strip()),
    presses=st.lists(
        st.tuples(
            st.sampled_from([GM, ANA, BO]),
            st.sampled_from([k.value for k in ActionKind]),
            st.sampled_from(["", "0", "1", "-2", "4", "expertise.on", "on", "off"]),
            st.integers(0, 1000),
        ),
        max_size=10,
    ),
)
def test_any_roll_renders_as_valid_html_with_valid_buttons(
    approach: str, presses: list[tuple[int, str, str, int]]
) -> None:
    t = table(approach=approach)
    state = RULES.open(t, ANA, "", SeededRng(1)).state
    closed = False
    for actor, action, argument, seed in presses:
        check(view_of(t, state, closed=closed))
        try:
            out = RULES.act(t, state, actor, action, argument, SeededRng(seed))
        except StonetableError:
            continue
        state, closed = out.state, out.closed
    check(view_of(t, state, closed=closed))
