"""Each system's projection: what one member may see of a campaign, defined in its rules.

No Stone Unturned: random campaigns at every stage (built through the rules, a
marker in every secret text) projected for every member keep exactly what the
table's rules show them. Threat dice: notes stay with their owner. Cortex drama:
Growth and Special Effects stay on their own sheet, a Feature's hidden traits
with the Watchtower. d20 checks: nothing is secret.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings

from core.rules.cortex.dice import Die
from core.rules.cortex.traits import Sheet as CortexSheet
from core.rules.nsu.campaign import NsuCampaign
from core.rules.nsu.roll_panel import ROLL_PANEL
from core.rules.nsu.world import HIDDEN_AUTHOR, HIDDEN_FACE, World, can_see_face
from core.rules.registry import default_registry
from core.rules.table import Role, Seat, Table
from tests.core.rules.cortex.test_campaign_panel import CLARK, LOIS, WATCHTOWER, Game
from tests.support.nsu_secrets import PUBLIC_WISH, Plan, build, markers, plans

REGISTRY = default_registry()
NSU = REGISTRY.find("nsu").campaign


def _worlds(state: NsuCampaign) -> list[World]:
    found = [state.world, None if state.setup is None else state.setup.world]
    found.append(None if state.downtime is None else state.downtime.world)
    return [w for w in found if w is not None]


@settings(max_examples=150, deadline=None)
@given(plan=plans())
def test_an_nsu_member_sees_the_backs_their_own_faces_and_public_sheets_only(plan: Plan) -> None:
    built = build(plan)
    table = built.table()
    raw = NsuCampaign.from_dict(built.state)
    for viewer in plan.ids:
        seen = NSU.projected(table, viewer)
        assert NSU.projected(seen, viewer) == seen  # a projection is already as seen
        kept = NsuCampaign.from_dict(seen.state)
        for before, after in zip(_worlds(raw), _worlds(kept), strict=True):
            dealt = before.grid is not None
            assert [c.id for c in after.cards] == [c.id for c in before.cards]
            assert after.grid == before.grid and after.current == before.current
            for card, copy in zip(before.cards, after.cards, strict=True):
                assert (copy.danger, copy.reward, copy.revealed) == (
                    card.danger,
                    card.reward,
                    card.revealed,
                )  # the back is everyone's
                assert copy.scouted_by == card.scouted_by & {viewer}
                if can_see_face(card, viewer):
                    assert replace(copy, scouted_by=card.scouted_by) == card
                else:
                    assert copy.title == copy.description == HIDDEN_FACE
                    assert copy.clock.ticks == 0 and copy.scene_details == ()
                    assert copy.author_id == (HIDDEN_AUTHOR if dealt else card.author_id)
        for player, seat in seen.seats.items():
            sheet = built.sheets[player]
            if player == viewer:
                assert seat.sheet == sheet
                continue
            if "character" in sheet:
                assert seat.sheet["character"]["rumours"] == []
                rest = {k: v for k, v in sheet["character"].items() if k != "rumours"}
                assert {k: v for k, v in seat.sheet["character"].items() if k != "rumours"} == rest
            else:
                assert seat.sheet["draft"]["name"] == sheet["draft"]["name"]
                assert markers(seat.sheet) == set()
        if kept.downtime is not None:
            for player, character in kept.downtime.sheets:
                assert bool(character.rumours) is (player == viewer)
        if built.roll is not None:  # an Action Roll's copies of the sheets
            roll = NSU.panel_seen_by(ROLL_PANEL, built.roll, viewer)
            assert {m for m in markers(roll) if m != PUBLIC_WISH} <= {f"zqrumour{viewer}x"}
        # Every marker left is one the viewer may read: theirs, a face they see, a scene.
        faces = [c for w in _worlds(raw) for c in w.cards if can_see_face(c, viewer)]
        readable = markers(
            [
                (c.title, c.description, c.collateral_target, c.danger_type, c.treasure_type)
                for c in faces
            ]
        )
        for marker in markers([seen.state, [s.sheet for s in seen.seats.values()]]):
            owner = next((p for p in plan.ids if str(p) in marker), None)
            assert owner == viewer or marker in readable or marker.startswith("zqscene")


def test_threat_notes_stay_with_their_owner_even_from_the_gm() -> None:
    rules = REGISTRY.find("threat").campaign
    sheet = {"approaches": [["Bold", 2]], "momentum": 3, "harm": 1, "notes": "zqnotesx"}
    seats = {
        1: Seat(1, "Gm", frozenset({Role.GAME_MASTER}), {}),
        2: Seat(2, "Ann", frozenset({Role.PLAYER}), sheet),
        3: Seat(3, "Ben", frozenset({Role.PLAYER}), {}),
    }
    table = Table(1, "threat", {"v": 1}, seats)
    assert rules.projected(table, 2) == table
    for viewer in (1, 3):
        seen = rules.projected(table, viewer).seats[2].sheet
        assert seen == {**sheet, "notes": ""}


def test_cortex_growth_effects_and_a_features_hidden_traits() -> None:
    game = Game()
    game.edit(CLARK, "text", text="limit Kryptonite d10")
    game.edit(WATCHTOWER, "feature.add", name="Lex")
    game.edit(WATCHTOWER, "trait.set", character="Lex", box="value", name="Zqpower", die="d12")
    game.edit(WATCHTOWER, "trait.set", character="Lex", box="limit", name="Pride", die="d8")
    clark = CortexSheet.from_dict(game.sheet(CLARK))
    clark = replace(clark, growth=(Die.D6,), special_effects=("Zqflight",))
    game.seats[CLARK] = replace(game.seats[CLARK], sheet=clark.to_dict())
    rules = REGISTRY.find("cortex").campaign
    table = game.table
    assert rules.projected(table, CLARK).seats[CLARK].sheet == clark.to_dict()
    assert "Zqpower" in repr(rules.projected(table, WATCHTOWER).state)
    for viewer in (LOIS, WATCHTOWER):
        seen = CortexSheet.from_dict(dict(rules.projected(table, viewer).seats[CLARK].sheet))
        assert seen == replace(clark, growth=(), special_effects=())
    lois = rules.projected(table, LOIS)
    assert "Zqpower" not in repr(lois.state) and "Pride" in repr(lois.state)
    assert "Kryptonite" in repr(lois.seats[CLARK].sheet)  # a Lead's traits are the table's


def test_a_d20_table_has_no_secrets() -> None:
    rules = REGISTRY.find("d20").campaign
    seats = {1: Seat(1, "Ann", frozenset({Role.PLAYER}), {"anything": "zqx"})}
    table = Table(1, "d20", {"v": 1}, seats)
    assert rules.projected(table, 2) == table
