"""The Cortex campaign and the cortex.conflict panel at the platform's table."""

from __future__ import annotations

from typing import Any

import pytest

from core.rules.cortex import SYSTEM
from core.rules.cortex.campaign import (
    CortexCampaign,
    load,
    page_choices,
    parse_trait_text,
)
from core.rules.cortex.log import ConflictEnded
from core.rules.cortex.panel import CONFLICT_PANEL, ConflictPanel, Press, conflict_view
from core.rules.cortex.state import Ending, Phase
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn, StonetableError
from core.rules.rng import ScriptedRng, SeededRng
from core.rules.table import Json, Outcome, Role, Seat, Table

WATCHTOWER, CLARK, LOIS = 100, 1, 2
CAMPAIGN = CortexCampaign()
PANEL = ConflictPanel()


class Game:
    """A campaign in memory: applies outcomes like core.campaigns does."""

    def __init__(self) -> None:
        self.state: Json = CAMPAIGN.new_state()
        self.seats: dict[int, Seat] = {}
        self.panel: Json = {}
        self.closed = False
        self.seat(WATCHTOWER, "Wendy", Role.GAME_MASTER)
        self.seat(CLARK, "Clark")
        self.seat(LOIS, "Lois")

    @property
    def table(self) -> Table:
        return Table(7, "cortex", self.state, dict(self.seats))

    def seat(self, player: int, name: str, role: Role = Role.PLAYER) -> None:
        old = self.seats.get(player)
        self.seats[player] = Seat(player, name, frozenset({role}), old.sheet if old else {})
        self.state, sheet = CAMPAIGN.seated(self.table, player)
        self.seats[player] = Seat(player, name, frozenset({role}), sheet)

    def settle(self, outcome: Outcome) -> Outcome:
        if outcome.campaign_state is not None:
            self.state = outcome.campaign_state
        for player, sheet in outcome.sheets.items():
            old = self.seats[player]
            self.seats[player] = Seat(player, old.name, old.roles, sheet)
        return outcome

    def edit(self, player: int, action: str, **payload: Any) -> Outcome:
        return self.settle(CAMPAIGN.edit(self.table, player, action, payload, SeededRng(0)))

    def open(self, player: int, argument: str, *faces: int) -> Outcome:
        outcome = self.settle(PANEL.open(self.table, player, argument, ScriptedRng(faces)))
        self.panel, self.closed = outcome.state, outcome.closed
        return outcome

    def press(self, player: int, action: str, argument: str = "", *faces: int) -> Outcome:
        """One press as a player makes it: traits through the list of dice, opened first,
        and any other button after going back from it."""
        listed = action in ("add", "rm", "res")
        if listed != bool(self.panel.get("pick")) and action not in ("text", "back", "pool.open"):
            self.press_only(player, "pool.open" if listed else "back")
        return self.press_only(player, action, argument, *faces)

    def press_only(self, player: int, action: str, argument: str = "", *faces: int) -> Outcome:
        assert not self.closed
        rng = ScriptedRng(faces)
        outcome = self.settle(PANEL.act(self.table, self.panel, player, action, argument, rng))
        assert rng.remaining == 0
        self.panel, self.closed = outcome.state, outcome.closed
        return outcome

    def sheet(self, player: int) -> dict[str, Any]:
        return dict(self.seats[player].sheet)

    def view(self):  # type: ignore[no-untyped-def]
        return conflict_view(self.table, self.panel)


@pytest.fixture
def game() -> Game:
    g = Game()
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


def test_the_system_is_registered_with_the_watchtower_and_the_panel() -> None:
    assert SYSTEM.campaign.has_game_master
    assert SYSTEM.panel(CONFLICT_PANEL).kind == CONFLICT_PANEL


def test_seating_gives_leads_a_sheet_named_after_them_and_the_watchtower_none() -> None:
    g = Game()
    assert g.sheet(WATCHTOWER) == {}
    assert g.sheet(CLARK)["name"] == "Clark" and g.sheet(CLARK)["plot_points"] == 1
    g.seat(3, "clark")  # a clashing name gets a number
    assert g.sheet(3)["name"] == "clark 2"
    ct = load(g.table).table
    assert ct.watchtower == WATCHTOWER and ct.lead_of(CLARK) == "Clark"


def test_a_returning_player_keeps_their_sheet(game: Game) -> None:
    before = game.sheet(CLARK)
    game.seat(CLARK, "Clark")
    assert game.sheet(CLARK) == before


def test_trait_text_grammar() -> None:
    assert parse_trait_text("asset Farm Boy d8 distinction") == (
        "trait.set",
        {"box": "asset", "name": "Farm Boy", "die": "d8", "kind": "distinction"},
    )
    assert parse_trait_text("remove value Justice") == (
        "trait.remove",
        {"box": "value", "name": "Justice"},
    )
    assert parse_trait_text("name Clark Kent") == ("rename", {"name": "Clark Kent"})
    with pytest.raises(Malformed, match="/trait value"):
        parse_trait_text("value Justice d7x")


def test_leads_edit_their_own_sheets_only(game: Game) -> None:
    assert [v["name"] for v in game.sheet(CLARK)["values"]] == ["Justice", "Love"]
    game.edit(CLARK, "trait.set", box="value", name="justice", die=12)  # re-rated, same slot
    assert game.sheet(CLARK)["values"][0]["die"] == 12
    game.edit(CLARK, "trait.remove", box="value", name="Love")
    assert len(game.sheet(CLARK)["values"]) == 1
    with pytest.raises(NotYourTurn):
        game.edit(LOIS, "trait.set", box="value", name="X", die=6, character="Clark")
    with pytest.raises(NotAllowedNow, match="no Lead"):
        game.edit(WATCHTOWER, "trait.set", box="value", name="X", die=6)
    with pytest.raises(Malformed):
        game.edit(CLARK, "trait.set", box="value", name="X", die=7)
    with pytest.raises(Malformed):
        game.edit(CLARK, "shout")


def test_rename_keeps_names_unique(game: Game) -> None:
    game.edit(CLARK, "rename", name="Kal-El")
    assert load(game.table).table.lead_of(CLARK) == "Kal-El"
    with pytest.raises(NotAllowedNow, match="already here"):
        game.edit(CLARK, "rename", name="lois")


def test_the_watchtower_adds_features_and_edits_them(game: Game) -> None:
    game.edit(WATCHTOWER, "feature.add", name="Lex")
    game.edit(WATCHTOWER, "trait.set", character="Lex", box="value", name="Power", die="d12")
    assert load(game.table).table.sheet("Lex").values[0].name == "Power"
    with pytest.raises(NotYourTurn):
        game.edit(CLARK, "feature.add", name="Brainiac")
    with pytest.raises(NotYourTurn):
        game.edit(CLARK, "trait.set", character="Lex", box="value", name="X", die=6)
    with pytest.raises(NotYourTurn):
        game.edit(CLARK, "scene.end")


def test_the_sheet_page_offers_each_viewer_what_the_edits_accept(game: Game) -> None:
    game.edit(WATCHTOWER, "feature.add", name="Lex")
    ct = load(game.table).table
    clark, watchtower = page_choices(ct, CLARK), page_choices(ct, WATCHTOWER)
    assert set(clark.sheets) == {"Clark", "Lois", "Lex"}
    assert clark.sheet("Clark").edits and not clark.sheet("Lois").edits
    assert clark.sheet("Lois").whole  # a Lead's traits are the table's to see
    assert not clark.sheet("Lex").whole and watchtower.sheet("Lex").whole
    assert watchtower.sheet("Lex").edits and not watchtower.sheet("Clark").edits
    assert watchtower.runs_table and watchtower.table_edits and not clark.table_edits
    # each offered edit is one the rules take from that viewer; the others refuse
    game.edit(CLARK, "trait.set", box="value", name="Hope", die=6)
    game.edit(WATCHTOWER, "trait.set", character="Lex", box="value", name="Power", die=12)
    with pytest.raises(StonetableError):
        game.edit(CLARK, "trait.set", character="Lois", box="value", name="X", die=6)
    with pytest.raises(StonetableError):
        game.edit(CLARK, "scene.end")
    game.open(CLARK, "test")  # in a roll: Clark's sheet is locked, offered no edit
    locked = page_choices(load(game.table).table, CLARK).sheet("Clark")
    assert locked.locked and not locked.edits


def test_a_test_from_opposition_to_success(game: Game) -> None:
    game.open(CLARK, "test")
    view = game.view()
    assert view.waiting == ("",)
    with pytest.raises(NotYourTurn, match="Watchtower"):
        game.press(CLARK, "opp.add", "8")
    game.press(WATCHTOWER, "opp.add", "8")
    game.press(WATCHTOWER, "opp.add", "6")
    game.press(WATCHTOWER, "opp.undo")
    game.press(WATCHTOWER, "opp.add", "4")
    game.press(WATCHTOWER, "opp.roll", "", 5, 3)  # 8
    assert game.view().conflict.to_beat == 8  # type: ignore[union-attr]
    game.press(CLARK, "add", "v0")
    game.press(CLARK, "add", "r0")
    with pytest.raises(NotYourTurn, match="Clark"):
        game.press(LOIS, "add", "a0")
    game.press(CLARK, "add", "a0")
    view = game.view()
    assert [int(d) for d, _ in view.pool] == [10, 8, 8]
    assert view.chance is not None and 0 < view.chance < 1
    game.press(CLARK, "roll", "", 7, 1, 6)
    assert load(game.table).table.complications  # the 1 waits for the Watchtower
    outcome = game.press(CLARK, "settle")  # 13 > 8
    assert not game.closed  # the Complication can still be activated
    assert any(isinstance(e, ConflictEnded) and e.ending is Ending.SUCCESS for e in game.view().log)
    assert outcome.events
    with pytest.raises(NotYourTurn):
        game.press(CLARK, "complication", "0")
    game.press(WATCHTOWER, "complication", "0")
    assert game.closed
    assert load(game.table).table.trouble and game.sheet(CLARK)["plot_points"] == 2


def test_a_contest_of_several_exchanges_with_a_swap_and_stress(game: Game) -> None:
    game.open(CLARK, "contest Lois")
    game.press(CLARK, "add", "v0")
    game.press(CLARK, "add", "a0")
    game.press(CLARK, "roll", "", 6, 5)
    game.press(CLARK, "settle")  # Action 11
    assert game.view().waiting == ("Lois",)
    game.press(LOIS, "add", "v0")
    game.press(LOIS, "add", "r0")
    game.press(LOIS, "roll", "", 9, 6)
    game.press(LOIS, "settle")  # 15 beats 11: Lois acts now
    c = game.view().conflict
    assert c is not None and c.actor == "Lois" and c.roller == "Clark"
    # Clark's last pool is reused; he adds his Limit? no: Lois' nothing; he rolls again
    game.press(CLARK, "roll", "", 4, 3)
    game.press(CLARK, "settle")  # 7 does not beat 15
    assert game.view().conflict.phase is Phase.YIELDING  # type: ignore[union-attr]
    with pytest.raises(NotYourTurn):
        game.press(LOIS, "stress.take")
    game.press(CLARK, "stress.take")
    game.press(LOIS, "out")  # won by 8: Stressed Out
    assert game.closed
    assert game.sheet(CLARK)["stressed_out"] is True
    whats = [e.what for e in game.view().log]
    assert whats.count("action") == 2 and "won" in whats and "stressed_out" in whats


def test_a_beaten_reactor_gives_in(game: Game) -> None:
    game.open(CLARK, "contest Lois")
    game.press(CLARK, "add", "v0")
    game.press(CLARK, "roll", "", 9)
    game.press(CLARK, "settle")
    game.press(LOIS, "givein")
    assert game.closed


def test_stress_is_inflicted_by_type_and_shows_as_an_opponent_box(game: Game) -> None:
    game.open(CLARK, "contest Lois")
    game.press(CLARK, "add", "v0")
    game.press(CLARK, "roll", "", 9)
    game.press(CLARK, "settle")
    game.press(LOIS, "add", "v0")
    game.press(LOIS, "roll", "", 2)
    game.press(LOIS, "settle")
    game.press(LOIS, "stress.take")
    game.press(CLARK, "inflict", "1", 5)  # Angry, stress pool d10
    assert game.sheet(LOIS)["stress"] == [{"type": "Angry", "die": 10}]
    game.open(CLARK, "contest Lois")
    game.press_only(CLARK, "pool.open")
    codes = [ch.argument for ch in game.view().choices if ch.verb is Press.ADD]
    assert "s0" in codes  # Lois' Angry Stress is a die for Clark now


def test_stale_panels_and_unknown_presses_are_refused(game: Game) -> None:
    game.open(CLARK, "contest Lois")
    old = game.panel
    game.edit(WATCHTOWER, "scene.end")
    with pytest.raises(NotAllowedNow, match="over"):
        PANEL.act(game.table, old, CLARK, "roll", "", ScriptedRng(()))
    game.open(CLARK, "test")
    with pytest.raises(NotAllowedNow, match="over"):
        PANEL.act(game.table, old, CLARK, "roll", "", ScriptedRng(()))
    with pytest.raises(Malformed):
        PANEL.act(game.table, game.panel, WATCHTOWER, "explode", "", ScriptedRng(()))
    with pytest.raises(Malformed):
        PANEL.act(game.table, game.panel, WATCHTOWER, "opp.add", "7", ScriptedRng(()))
    with pytest.raises(NotAllowedNow, match="point of the roll"):
        PANEL.act(game.table, game.panel, WATCHTOWER, "complication", "9", ScriptedRng(()))
    with pytest.raises(NotAllowedNow, match="Finish"):
        game.open(LOIS, "test")


def test_opening_needs_known_names_and_a_lead(game: Game) -> None:
    with pytest.raises(NotAllowedNow, match="At this table"):
        game.open(CLARK, "contest Zod")
    with pytest.raises(NotAllowedNow, match="Name who"):
        game.open(WATCHTOWER, "test")
    with pytest.raises(Malformed):
        game.open(CLARK, "duel Lois")
    game.open(WATCHTOWER, "test Lois")
    assert game.view().conflict.actor == "Lois"  # type: ignore[union-attr]


def test_sheets_are_locked_in_a_roll_and_a_leaver_drops_out(game: Game) -> None:
    game.open(CLARK, "contest Lois")
    with pytest.raises(NotAllowedNow, match="in a roll"):
        game.edit(CLARK, "trait.set", box="value", name="Hope", die=6)
    del game.seats[LOIS]
    state = CAMPAIGN.left(game.table, LOIS)
    assert state["conflict"] is None


def test_useful_details_and_aid_arrive_as_text(game: Game) -> None:
    game.edit(CLARK, "text", text="value Truth d6")
    game.seat(3, "Chloe")
    game.edit(3, "text", text="value Truth d8")
    game.open(LOIS, "test")
    game.press(WATCHTOWER, "opp.add", "6")
    game.press(WATCHTOWER, "opp.roll", "", 4)
    game.press(LOIS, "add", "v0")
    game.press(LOIS, "detail", "Open <window>")
    assert game.sheet(LOIS)["plot_points"] == 0
    game.press(CLARK, "aid", "Truth, Lois")
    assert [int(d) for d, _ in game.view().pool] == [10, 6]
    game.press(LOIS, "roll", "", 3, 2, 6, 5)  # pool 3+2, Clark's aid best 6
    game.press(LOIS, "settle")
    assert any(isinstance(e, ConflictEnded) and e.ending is Ending.SUCCESS for e in game.view().log)


def test_a_reply_is_a_detail_from_the_roller_and_aid_from_others(game: Game) -> None:
    game.edit(WATCHTOWER, "feature.add", name="Lex")
    game.edit(WATCHTOWER, "text", text="Lex: value Power d12")
    game.open(CLARK, "contest Lois")
    game.press(CLARK, "text", "Barn door")  # the roller: a Useful Detail
    assert load(game.table).table.details[0].name == "Barn door"
    game.press(WATCHTOWER, "text", "aid Lex: Power")  # a Feature aids
    c = game.view().conflict
    assert c is not None and c.aid[0].helper == "Lex"
    with pytest.raises(NotYourTurn):
        game.press(LOIS, "text", "Window")  # Lois is in the contest: not her pool


def _chidi(game: Game) -> None:
    game.seat(3, "Chidi")
    for line in ("value Truth d8", "relationship Clark d6", "asset Hacker d8"):
        game.edit(3, "text", text=line)
    game.edit(WATCHTOWER, "feature.add", name="Lex")
    for line in ("Lex: value Power d12", "Lex: asset Billionaire d10", "Lex: limit Paranoid d8"):
        game.edit(WATCHTOWER, "text", text=line)


@pytest.mark.parametrize("seed", range(8))
def test_random_presses_of_the_shown_buttons_never_break_the_table(game: Game, seed: int) -> None:
    import random

    from core.rules.cortex.allowed import allowed_actions
    from core.rules.cortex.panel import _KIND_OF

    _chidi(game)
    rnd = random.Random(seed)
    users = [WATCHTOWER, CLARK, LOIS, 3]
    starts = ["test", "contest Lex", "contest Chidi", "test Lex", "contest Lex vs Lois"]
    pressed: set[Press] = set()
    for _ in range(150):
        if game.closed or not game.panel or not game.view().current:
            try:
                game.open(rnd.choice(users), rnd.choice(starts))
            except NotAllowedNow:
                game.edit(WATCHTOWER, "scene.end")
            continue
        view = game.view()
        if not view.choices:
            game.edit(WATCHTOWER, "scene.end")
            continue
        choices = [c for c in view.choices if c.verb is not Press.END_SCENE]
        choice = rnd.choice(choices if choices and rnd.random() < 0.95 else view.choices)
        ct = load(game.table).table
        kind = _KIND_OF.get(choice.verb)
        assert choice.by, choice  # every choice shown names who may take it
        right = [u for u in users if u in choice.by]
        user = rnd.choice(right if right and rnd.random() < 0.8 else users)
        allowed = kind is not None and kind in allowed_actions(ct, user)
        before = (dict(game.state), {p: dict(s.sheet) for p, s in game.seats.items()})
        try:
            outcome = PANEL.act(
                game.table,
                game.panel,
                user,
                choice.verb.value,
                choice.argument,
                SeededRng(rnd.randrange(10**6)),
            )
        except (NotAllowedNow, Malformed):
            after = (dict(game.state), {p: dict(s.sheet) for p, s in game.seats.items()})
            assert after == before  # a refusal changes nothing
            continue
        assert allowed or choice.verb is Press.CLOSE, (choice, user)
        assert user in choice.by, (choice, user)  # nobody else's press goes through
        game.settle(outcome)
        game.panel, game.closed = outcome.state, outcome.closed
        pressed.add(choice.verb)
        table = load(game.table).table  # always loads back into a valid table
        assert all(s.plot_points >= 0 for s in table.sheets)
    assert {Press.ROLL, Press.SETTLE} <= pressed  # the walk gets somewhere


def test_an_outsider_interferes_and_the_contestants_vote_to_go_on(game: Game) -> None:
    _chidi(game)
    game.open(CLARK, "contest Lois")
    game.press(CLARK, "add", "v0")
    game.press(CLARK, "roll", "", 5)
    game.press(CLARK, "settle")  # Action 5
    interfere = [c for c in game.view().choices if c.verb is Press.INTERFERE]
    assert {c.who for c in interfere} == {"Chidi", "Lex"}
    chidi = next(c for c in interfere if c.who == "Chidi")
    with pytest.raises(NotYourTurn):
        game.press(CLARK, "interfere", chidi.argument)
    game.press(3, "interfere", chidi.argument)
    assert game.sheet(3)["plot_points"] == 0  # paid the Watchtower
    game.press(3, "add", "v0")
    game.press(3, "roll", "", 7)
    game.press(3, "settle")  # 7 beats 5: stopped
    assert game.view().waiting == ("Clark", "Lois")
    game.press(CLARK, "vote", "y")
    with pytest.raises(NotYourTurn):
        game.press(CLARK, "vote", "y")
    game.press(LOIS, "vote", "y")
    assert game.sheet(3)["plot_points"] == 2  # one from each contestant
    assert any(e.what == "resumed" for e in game.view().log)
    assert game.view().waiting == ("Clark",)


def test_stress_relief_through_the_panel_moves_the_stress_into_growth(game: Game) -> None:
    game.open(CLARK, "contest Lois")
    game.press(CLARK, "add", "v0")
    game.press(CLARK, "roll", "", 9)
    game.press(CLARK, "settle")
    game.press(LOIS, "add", "v0")
    game.press(LOIS, "roll", "", 2)
    game.press(LOIS, "settle")
    game.press(LOIS, "stress.take")
    game.press(CLARK, "inflict", "0", 4)  # Afraid d10
    game.open(CLARK, "relief Lois Afraid")
    assert game.view().waiting == ("Lois",)
    with pytest.raises(NotYourTurn):
        game.press(CLARK, "stress.opp")
    game.press(LOIS, "stress.opp", "", 3)
    game.press(CLARK, "add", "v0")
    game.press(CLARK, "roll", "", 8)
    game.press(CLARK, "settle")
    assert game.closed
    assert game.sheet(LOIS)["stress"] == [] and game.sheet(LOIS)["growth"] == [10]


def test_the_watchtower_sets_stress_types_but_keeps_those_in_use(game: Game) -> None:
    game.edit(WATCHTOWER, "settings.stress", types="Afraid, Angry, Hungry")
    assert load(game.table).table.settings.stress_types == ("Afraid", "Angry", "Hungry")
    with pytest.raises(NotYourTurn):
        game.edit(CLARK, "settings.stress", types="Sad")
    game.open(CLARK, "contest Lois")
    game.press(CLARK, "add", "v0")
    game.press(CLARK, "roll", "", 9)
    game.press(CLARK, "settle")
    game.press(LOIS, "givein")
    game.edit(WATCHTOWER, "scene.end")
    game.open(CLARK, "contest Lois")
    game.press(CLARK, "add", "v0")
    game.press(CLARK, "roll", "", 9)
    game.press(CLARK, "settle")
    game.press(LOIS, "add", "v0")
    game.press(LOIS, "roll", "", 2)
    game.press(LOIS, "settle")
    game.press(LOIS, "stress.take")
    game.press(CLARK, "text", "Hungry +d6 -d10", 5)  # the pool d10 becomes d6
    assert game.sheet(LOIS)["stress"] == [{"type": "Hungry", "die": 6}]
    with pytest.raises(NotAllowedNow, match="Hungry"):
        game.edit(WATCHTOWER, "settings.stress", types="Afraid")


def test_a_features_useful_detail_may_come_out_of_trouble(game: Game) -> None:
    game.edit(WATCHTOWER, "feature.add", name="Lex")
    game.edit(WATCHTOWER, "text", text="Lex: value Power d12")
    game.open(CLARK, "test")
    game.press(WATCHTOWER, "opp.add", "8")
    game.press(WATCHTOWER, "opp.roll", "", 5)
    game.press(CLARK, "add", "v0")
    game.press(CLARK, "roll", "", 1)
    game.press(CLARK, "settle")
    game.press(WATCHTOWER, "complication", "0")  # Trouble: d10
    game.open(WATCHTOWER, "contest Lex vs Clark")
    game.press(WATCHTOWER, "text", "d10 from Trouble: Hidden cameras")
    ct = load(game.table).table
    assert ct.trouble == () and ct.details[-1].die == 10
    assert game.sheet(CLARK)["plot_points"] == 3  # the Complication, then the detail


# The list of dice: a sub-step with Back, so that a phone shows every button.


def test_the_list_of_dice_opens_in_place_of_the_main_buttons_and_goes_back(game: Game) -> None:
    game.open(CLARK, "contest Lois")
    main = game.view().choices
    assert Press.ADD not in {c.verb for c in main}
    (opener,) = [c for c in main if c.verb is Press.OPEN_POOL]
    assert opener.by == {CLARK} and opener.count >= 5 and len(main) <= 8
    with pytest.raises(NotYourTurn):
        game.press_only(LOIS, "pool.open")
    before = dict(game.panel)
    game.press_only(CLARK, "pool.open")
    listed = game.view().choices
    assert {c.verb for c in listed} <= {Press.ADD, Press.REMOVE, Press.RESOURCE, Press.BACK}
    assert listed[-1].verb is Press.BACK and len(listed) <= 8
    game.press_only(CLARK, "add", "v0")
    assert game.view().choices[-1].verb is Press.BACK  # the list stays open for the next trait
    with pytest.raises(NotAllowedNow, match="list of dice is open: pick from it or tap Back"):
        game.press_only(CLARK, "roll", "")
    game.press_only(CLARK, "back")
    assert not game.panel["pick"] and before["pick"] is False
    assert Press.ROLL in {c.verb for c in game.view().choices}


def test_a_press_on_the_closed_list_of_dice_is_refused_clearly(game: Game) -> None:
    game.open(CLARK, "contest Lois")
    with pytest.raises(NotAllowedNow, match="list of dice was closed: tap Add to the pool"):
        game.press_only(CLARK, "add", "v0")
    with pytest.raises(NotAllowedNow, match="No list is open"):
        game.press_only(CLARK, "back")
    game.press_only(CLARK, "pool.open")
    with pytest.raises(NotAllowedNow, match="is open"):
        game.press_only(CLARK, "pool.open")
    stale = dict(game.panel)
    game.press_only(CLARK, "back")
    with pytest.raises(NotAllowedNow, match="was closed"):
        game.press_only(CLARK, "add", "r0")
    assert stale["pick"] is True


def test_the_same_complication_twice_is_one_button(game: Game) -> None:
    from dataclasses import replace

    from core.rules.cortex.dice import Die
    from core.rules.cortex.panel import _choices
    from core.rules.cortex.state import Complication

    game.open(CLARK, "contest Lois")
    ct = load(game.table).table
    ones = (Complication("Lois", Die(8)),) * 2 + (Complication("Lois", Die(6)),)
    shown = [
        (c.who, c.die, c.argument)
        for c in _choices(replace(ct, complications=ones), ct.conflict, ())
        if c.verb is Press.COMPLICATION
    ]
    assert shown == [("Lois", 8, "0"), ("Lois", 6, "2")]


def test_a_lead_with_no_traits_is_told_to_write_them_rather_than_shown_an_empty_pool() -> None:
    g = Game()
    for who, argument in [(CLARK, "test"), (WATCHTOWER, "test Clark"), (CLARK, "contest Lois")]:
        with pytest.raises(NotAllowedNow, match=r"has no traits yet.*/trait value") as refused:
            g.open(who, argument)
        assert refused.value.values == {"name": "Clark"}
    g.edit(CLARK, "text", text="limit Kryptonite d10")  # a Limit alone gives no die to roll
    with pytest.raises(NotAllowedNow, match="has no traits yet"):
        g.open(CLARK, "test")
    g.edit(CLARK, "text", text="value Justice d10")
    with pytest.raises(NotAllowedNow, match="has no traits yet") as refused:
        g.open(CLARK, "contest Lois")  # the opponent has none either
    assert refused.value.values == {"name": "Lois"}
    assert g.open(CLARK, "test").state  # a Value is enough
