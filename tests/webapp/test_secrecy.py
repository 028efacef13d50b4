"""Nothing a member may not see reaches them through any Mini App route.

Random NSU campaigns at every stage (locations being written, the map dealt, the
adventure with face-down cards, clocks and scouting, an Action Roll open,
downtime) are built through the pure rules with a unique marker in every secret
text (:mod:`tests.support.nsu_secrets`), stored, and read by every member through
the real routes with correctly signed initData: the sheet page and its JSON, the
export, the map page and JSON, each card's page and picture, My cards, the World
page, the log, the home page, the live stream and an edit's answer. No body may
hold a marker the member's projection hides; the member's own secrets do reach
them (so the search can fail). Threat dice notes and Cortex drama Growth, Special
Effects and Features' hidden traits are checked the same way. The web side reads
campaigns only through the projection (checked on its source).
"""

from __future__ import annotations

import ast
import asyncio
import itertools
import json
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.campaigns import Campaigns
from core.campaigns.pictures import CardPictures, face_key
from core.campaigns.play import Play
from core.rules.cortex.traits import Sheet as CortexSheet
from core.rules.nsu.campaign import NsuCampaign
from core.rules.nsu.roll_panel import ROLL_PANEL
from core.rules.nsu.world import HIDDEN_AUTHOR, World, can_see_face
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.rules.table import Role, Seat, Table
from core.runtime.locks import InProcessKeyedLock
from core.store.models import Campaign, CampaignStatus, Chat, Member, Panel, RollRecord
from core.store.repo import upsert_chat, upsert_player
from core.views import story as stories
from tests.core.rules.cortex.test_campaign_panel import CLARK, LOIS, WATCHTOWER, Game
from tests.support.bot_api import serve_app
from tests.support.heavy import small_heavy
from tests.support.nsu_secrets import PUBLIC_WISH, STAGES, Built, build, markers, plans
from webapp.app import create_app
from webapp.auth import make_init_data
from webapp.deps import WebDeps
from webapp.sheets import sheet_pages

pytestmark = [pytest.mark.db]

BOT_TOKEN = "4242:secrecy"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
WEBAPP = Path(__file__).resolve().parents[2] / "webapp"
_chats = itertools.count(1)


@dataclass(frozen=True)
class Web:
    origin: str
    http: aiohttp.ClientSession
    registry: Any


@pytest.fixture
async def web(db: str) -> AsyncIterator[Web]:
    registry = default_registry()
    campaigns = Campaigns(registry, SeededRng(1), InProcessKeyedLock())
    play = Play(SeededRng(1), campaigns.locks, time.time)
    app = create_app(
        WebDeps(play, campaigns, sheet_pages(), BOT_TOKEN, 86400, time.time, heavy=small_heavy())
    )
    async with serve_app(app) as origin, aiohttp.ClientSession() as http:
        yield Web(origin, http, registry)


def _world(state: dict[str, Any]) -> World | None:
    return NsuCampaign.from_dict(state).current_world()


async def store_table(system: str, table: Table) -> tuple[str, Campaign]:
    """A campaign of ``system`` in the database: its state and seated members."""
    chat_id = -100_000_000 - next(_chats)
    chat = await upsert_chat(chat_id, "supergroup", "The Table")
    players = {p: await upsert_player(p, seat.name) for p, seat in table.seats.items()}
    first = next(iter(players.values()))
    token = secrets.token_urlsafe(16)
    campaign = await Campaign.create(
        chat=chat,
        live_chat_id=chat_id,
        system=system,
        host=first,
        app_token=token,
        state=dict(table.state),
        status=CampaignStatus.ACTIVE,
    )
    for p, row in players.items():
        seat = table.seats[p]
        roles = sorted({r.value for r in seat.roles} | ({"host"} if row is first else set()))
        await Member.create(campaign=campaign, player=row, roles=roles, sheet=dict(seat.sheet))
    return token, campaign


async def store(built: Built) -> tuple[str, int]:
    """The NSU campaign in the database, with an open roll and a picture per card."""
    token, campaign = await store_table("nsu", built.table())
    if built.roll is not None:
        await Panel.create(
            campaign=campaign,
            kind=ROLL_PANEL,
            state=dict(built.roll),
            chat_tg_id=campaign.live_chat_id,
        )
    world = _world(built.state)
    for n, card in enumerate(() if world is None else world.cards):
        key = face_key(campaign.id, card.author_id, card.title, card.description)
        await CardPictures().save(campaign.id, key, card.author_id, PNG + f"zqpic{n}x".encode())
    return token, campaign.id


def _auth(viewer: int, name: str, token: str) -> dict[str, str]:
    user = {"id": viewer, "first_name": name}
    init = make_init_data(
        BOT_TOKEN, user, int(time.time()) - 5, start_param=token, chat_type="supergroup"
    )
    return {"Authorization": "tma " + init}


async def _bodies(web: Web, viewer: int, name: str, token: str, cards: list[str]) -> dict[str, str]:
    """Every route's answer for this viewer, by route."""
    headers = _auth(viewer, name, token)
    gets = [
        f"/app/c/{token}",
        f"/api/c/{token}",
        f"/api/c/{token}/export",
        f"/api/c/{token}/map",
        f"/app/c/{token}/map",
        f"/app/c/{token}/cards",
        f"/app/c/{token}/world",
        f"/app/c/{token}/log",
        f"/api/c/{token}/log",
        f"/app/c/{token}/rolls",
        f"/api/c/{token}/rolls",
        f"/app/home?startapp={token}",
    ]
    gets += [f"/app/c/{token}/map/{c}" for c in cards]
    gets += [f"/api/c/{token}/cards/{c}/picture" for c in cards]
    out: dict[str, str] = {}
    for path in gets:
        async with web.http.get(web.origin + path, headers=headers) as response:
            body = await response.read()
            out[path] = body.decode("utf-8", "replace")
            assert response.status in (200, 404), (path, response.status, out[path][:300])
    async with web.http.get(web.origin + f"/api/c/{token}/events", headers=headers) as stream:
        out["events"] = (await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)).decode()
    for c in cards:  # an edit answers with the editor's sheet (or a refusal)
        payload = {"action": "play.scene_detail", "payload": {"card_id": c, "text": "A bend"}}
        async with web.http.post(
            web.origin + f"/api/c/{token}/edit", headers=headers, json=payload
        ) as response:
            out[f"edit {c}"] = (await response.read()).decode()
    return out


def _expected_hidden(built: Built, viewer: int) -> set[str]:
    """Secrets the rules keep from ``viewer``, listed independently of the projection."""
    hidden: set[str] = set()
    for p in built.sheets:
        if p != viewer:
            hidden |= markers(built.sheets[p]) - {f"zqscene{n}x" for n in range(99)}
    world = _world(built.state)
    for n, card in enumerate(() if world is None else world.cards):
        if not can_see_face(card, viewer):
            hidden |= markers([card.title, card.description, card.collateral_target])
            hidden.add(f"zqpic{n}x")
    return hidden


def _check_export(export: dict[str, Any], viewer: int) -> None:
    """Face-down cards in the member's copy keep no clock, no scouts, no author once dealt."""
    campaign = NsuCampaign.from_dict(export["state"])
    worlds = [campaign.world, None if campaign.setup is None else campaign.setup.world]
    worlds.append(None if campaign.downtime is None else campaign.downtime.world)
    for world in (w for w in worlds if w is not None):
        for card in world.cards:
            assert card.scouted_by <= {viewer}
            if not can_see_face(card, viewer):
                assert card.clock.ticks == 0 and card.scene_details == ()
                assert world.grid is None or card.author_id == HIDDEN_AUTHOR
    for member in export["members"]:
        if member["player"]["id"] != viewer:
            sheet = member["sheet"]
            assert set(sheet) <= {"draft", "character"}
            assert sheet.get("character", {}).get("rumours", []) == []
            if "draft" in sheet:
                assert {k for k, v in sheet["draft"].items() if v} <= {"name"}


@pytest.mark.parametrize("stage", STAGES)
@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_no_route_shows_a_member_what_their_projection_hides(
    web: Web, stage: str, data: st.DataObject
) -> None:
    plan = data.draw(plans(stage))
    built = build(plan)
    token, _ = await store(built)
    rules = web.registry.find("nsu").campaign
    table = built.table()
    planted = markers([built.state, built.sheets, built.roll])
    world = _world(built.state)
    cards = [] if world is None else [c.id for c in world.cards]
    for viewer in plan.ids:
        seen = rules.projected(table, viewer)
        visible = markers([seen.state, {p: s.sheet for p, s in seen.seats.items()}])
        visible.add(PUBLIC_WISH)  # what the roller said they want: the group read it
        hidden = planted - visible
        pictures = {f"zqpic{n}x" for n, c in enumerate(() if world is None else world.cards)}
        for n, c in enumerate(() if world is None else world.cards):
            if not can_see_face(c, viewer):
                hidden.add(f"zqpic{n}x")
        assert _expected_hidden(built, viewer) <= hidden  # the projection keeps these
        bodies = await _bodies(web, viewer, built.names[viewer], token, cards)
        for route, body in bodies.items():
            leaked = markers(body) & hidden
            assert not leaked, (plan.stage, viewer, route, leaked)
        everything = "".join(bodies.values())
        own = {f"zqrumour{viewer}x", f"zqlook{viewer}x"} & planted
        assert own <= markers(everything)  # the viewer's own secrets do reach them
        assert (pictures - hidden) <= markers(everything)  # and the faces they may see
        _check_export(json.loads(bodies[f"/api/c/{token}/export"]), viewer)
    await _check_story(web, token, plan.stage, plan.ids, planted, built)


async def _story_bodies(web: Web, token: str, table: Table) -> dict[str, str]:
    """The shared story's page (in each language) and its download, published by the host."""
    host = next(iter(table.seats))
    secret = await stories.publish(web.registry, token, host)
    out: dict[str, str] = {}
    for path in (f"/story/{secret}", f"/story/{secret}?lang=ru", f"/story/{secret}/download"):
        async with web.http.get(web.origin + path) as response:
            out[path] = (await response.read()).decode("utf-8", "replace")
            assert response.status == 200, (path, out[path][:300])
    return out


async def _check_story(
    web: Web, token: str, stage: str, ids: Any, planted: set[str], built: Built
) -> None:
    """The story holds only what every member may see: no draft, no face-down card's
    face or picture, no private look or note; the faces up for all do reach it."""
    rules = web.registry.find("nsu").campaign
    table, world = built.table(), _world(built.state)
    everyone = set(planted) | {PUBLIC_WISH}
    for viewer in ids:
        seen = rules.projected(table, viewer)
        everyone &= markers([seen.state, {p: s.sheet for p, s in seen.seats.items()}]) | {
            PUBLIC_WISH
        }
    for viewer in ids:
        assert not everyone & _expected_hidden(built, viewer)
    bodies = await _story_bodies(web, token, table)
    for route, body in bodies.items():
        leaked = (markers(body) & planted) - everyone
        assert not leaked, (stage, route, leaked)
        for n, card in enumerate(() if world is None else world.cards):
            shown = f"zqpic{n}x" in markers(body)
            assert shown <= (card.revealed and world.grid is not None), (route, card.id)
            if world.grid is not None and card.revealed:
                assert markers(card.title) <= markers(body), (route, card.id)


CAMPAIGN_READS = {"for_viewer", "table_for_viewer", "log_for_viewer", "campaigns_of", "edit"}
CAMPAIGN_READS |= {"current", "require_current", "at_a_glance", "panel", "panel_at"}
# read raw, unless imported from core.views.projection
RAW_READERS = {"export_campaign", "read_by_token", "open_panel_rows", "open_panels"}


def _reads(tree: ast.AST, *, store: bool = True) -> set[str]:
    """Raw campaign reads in one module: the use cases that return the stored state,
    the stored rows, panels or the whole export, and (``store``) the store itself."""
    found = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in CAMPAIGN_READS
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "campaigns"
        ):
            found.add(node.attr)
        if isinstance(node, ast.ImportFrom) and node.module != "core.views.projection":
            found |= {a.name for a in node.names if a.name in RAW_READERS}
            # the unit of work, its planner and its request key are the edge's to open (a
            # change, not a read of a campaign)
            store_module = (node.module or "").startswith("core.store")
            change = ("core.store.unit", "core.store.outbox", "core.store.request_keys")
            if store and store_module and node.module not in change:
                found.add(node.module or "")
        if isinstance(node, ast.Import) and store:
            found |= {a.name for a in node.names if a.name.startswith("core.store")}
    return found


def test_the_web_side_reads_campaigns_only_through_the_projection() -> None:
    """No Mini App module reads a campaign whole: only snapshots and core.views.projection."""
    offenders = {}
    for path in sorted(WEBAPP.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        found = _reads(tree, store=path.name != "app.py")  # the webhook may keep updates
        if found:
            offenders[str(path.relative_to(WEBAPP))] = sorted(found)
    assert offenders == {}
    # The check itself finds raw reads.
    assert _reads(ast.parse("view = await deps.campaigns.for_viewer(token, player)")) == {
        "for_viewer"
    }
    raw = "from core.views.open_panels import open_panels\nfrom core.store.models import Campaign"
    assert _reads(ast.parse(raw)) == {"open_panels", "core.store.models"}
    assert _reads(ast.parse("from core.views.projection import open_panels")) == set()


async def _leaks(web: Web, system: str, table: Table, hidden: dict[int, set[str]]) -> None:
    """Every member reads every route; none shows them what ``hidden`` keeps from them.
    The shared story shows none of what any member may not see."""
    token, _ = await store_table(system, table)
    planted = markers([table.state, [s.sheet for s in table.seats.values()]])
    for viewer, seat in table.seats.items():
        bodies = await _bodies(web, viewer, seat.name, token, [])
        for route, body in bodies.items():
            assert not markers(body) & hidden[viewer], (system, viewer, route)
        assert planted - hidden[viewer] <= markers("".join(bodies.values()))
    kept = set().union(*hidden.values())
    for route, body in (await _story_bodies(web, token, table)).items():
        assert not markers(body) & kept, (system, route, markers(body) & kept)


async def test_threat_notes_reach_no_one_but_their_owner(web: Web) -> None:
    gm, ann, ben = 7001, 7002, 7003
    sheets = {
        p: {"approaches": [["Bold", 2]], "momentum": 1, "harm": 0, "notes": f"zqnotes{p}x"}
        for p in (ann, ben)
    }
    seats = {
        gm: Seat(gm, "Gwen", frozenset({Role.GAME_MASTER}), {}),
        ann: Seat(ann, "Ann", frozenset({Role.PLAYER}), sheets[ann]),
        ben: Seat(ben, "Ben", frozenset({Role.PLAYER}), sheets[ben]),
    }
    notes = {f"zqnotes{ann}x", f"zqnotes{ben}x"}
    hidden = {gm: notes, ann: {f"zqnotes{ben}x"}, ben: {f"zqnotes{ann}x"}}
    await _leaks(web, "threat", Table(1, "threat", {"v": 1}, seats), hidden)


async def test_cortex_growth_effects_and_features_reach_only_who_may_see_them(web: Web) -> None:
    game = Game()
    game.edit(WATCHTOWER, "feature.add", name="Lex")
    game.edit(WATCHTOWER, "trait.set", character="Lex", box="value", name="zqpower1x", die="d12")
    game.edit(WATCHTOWER, "trait.set", character="Lex", box="limit", name="Pride", die="d8")
    for player in (CLARK, LOIS):
        sheet = CortexSheet.from_dict(game.sheet(player))
        sheet = replace(sheet, special_effects=(f"zqeffect{player}x",))
        game.seats[player] = replace(game.seats[player], sheet=sheet.to_dict())
    effects = {f"zqeffect{CLARK}x", f"zqeffect{LOIS}x"}
    hidden = {
        CLARK: {f"zqeffect{LOIS}x", "zqpower1x"},
        LOIS: {f"zqeffect{CLARK}x", "zqpower1x"},
        WATCHTOWER: effects,
    }
    await _leaks(web, "cortex", game.table, hidden)


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_secret_rolls_reach_only_those_who_saw_them(web: Web, data: st.DataObject) -> None:
    """Random rolls, public, secret (seen by some) or revealed, in the game's topic or
    another: each member's pages hold exactly the rolls they may see, and their averages
    count nothing else."""
    gm, ann, ben, outsider = 7101, 7102, 7103, 7199
    seats = {
        gm: Seat(gm, "Gwen", frozenset({Role.GAME_MASTER}), {}),
        ann: Seat(ann, "Ann", frozenset({Role.PLAYER}), {}),
        ben: Seat(ben, "Ben", frozenset({Role.PLAYER}), {}),
    }
    token, campaign = await store_table("threat", Table(1, "threat", {"v": 1}, seats))
    chat = await Chat.get(id=campaign.chat_id)  # type: ignore[attr-defined]
    people = [gm, ann, ben, outsider]
    rows = {p: await upsert_player(p, f"P{p}") for p in people}
    plans = data.draw(
        st.lists(
            st.tuples(
                st.sampled_from(people),
                st.none() | st.sets(st.sampled_from(people), max_size=3),
                st.booleans(),
                st.sampled_from([0, 0, 0, 9]),
            ),
            min_size=1,
            max_size=10,
        )
    )
    seen_by: dict[int, set[int]] = {}
    for n, (roller, seen, revealed, topic) in enumerate(plans):
        secret = None if seen is None else sorted(seen | {roller})
        await RollRecord.create(
            chat=chat,
            player=rows[roller],
            notation="1d6",
            label=f"zqroll{n}x",
            total=n % 6 + 1,
            faces=[[[n % 6 + 1, 1]]],
            topic_id=topic,
            campaign_id=campaign.id,
            seen_by=secret,
            revealed=revealed,
        )
        may = set(people) if secret is None or revealed else set(secret)
        seen_by[n] = may if topic == 0 else set()
    for viewer, seat in seats.items():
        shown = {f"zqroll{n}x" for n, who in seen_by.items() if viewer in who}
        bodies = await _bodies(web, viewer, seat.name, token, [])
        for route, body in bodies.items():
            leaked = {m for m in markers(body) if m.startswith("zqroll")} - shown
            assert not leaked, (viewer, route, leaked)
        assert shown <= markers(bodies[f"/api/c/{token}/rolls"])
        assert shown <= markers(bodies[f"/app/c/{token}/rolls"])
        history = json.loads(bodies[f"/api/c/{token}/rolls"])
        counted = {p["id"]: p["rolls"] for p in history["players"]}
        for roller in people:
            mine = [n for n, (r, *_) in enumerate(plans) if r == roller and viewer in seen_by[n]]
            assert counted.get(roller, 0) == len(mine), (viewer, roller)
        for roller in people:  # the player filter shows the same, and only theirs
            async with web.http.get(
                web.origin + f"/api/c/{token}/rolls?who={roller}",
                headers=_auth(viewer, seat.name, token),
            ) as response:
                rolls = (await response.json())["rolls"]
            assert {r["note"] for r in rolls} == {
                f"zqroll{n}x"
                for n, (r, *_) in enumerate(plans)
                if r == roller and viewer in seen_by[n]
            }
