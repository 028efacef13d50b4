"""Mini App edits for worldbuilding, character creation, clocks and safety tools.

Each edit takes the table, the acting player, a JSON payload and the dice
(injected like a panel's), and goes through the same rules as the bot's panels:
dealing the map and rolling Danger and Reward can be done from either.

===================== ===============================================================
action                payload
===================== ===============================================================
setup.tone            {"notes": str, "tools": ["x_card" | "lines_and_veils" | "knocks"]}
setup.agree           {}
setup.ban             {"text": str}
setup.pass_ban        {}
setup.first_speaker   {"player_id": int}
setup.statement       {"text": str, "builds_on": int | null}
setup.pass_statement  {}
setup.card_full       {}
setup.scope           {"question": ScopeQuestion value | null, "text": str}
setup.finish_scope    {}
setup.resource        {"name": str}
setup.abundance       {"name": str}
setup.location        {"title", "description", "collateral_target", "danger_type",
                       "treasure_type": str}
setup.revise          {"card_id": str, and the five fields of setup.location} (the
                       author rewrites a saved card, until the map is dealt)
setup.deal            {"columns": int}  (shuffle the cards face down into a map)
setup.roll            {}  (roll Danger and Reward for every card)
character.<step>      the payload of :func:`character_panel.apply_step` (step values of
                      :class:`CreationStep`: name, pronouns_and_look, moods, ...)
character.finish      {}
clock.tick            {"card_id": str}
clock.untick          {"card_id": str}
safety.line           {"text": str}
safety.veil           {"text": str}
safety.x_card         {}
safety.knock          {}
===================== ===============================================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.nsu import setup as wb
from core.rules.nsu.campaign import (
    EditHandler,
    SafetyKind,
    add_safety_entry,
    campaign_of,
    character_of,
    draft_of,
    draft_sheet,
    knock,
    outcome,
    play_x_card,
)
from core.rules.nsu.character_panel import apply_step, finished, own_cards
from core.rules.nsu.setup import SetupAction
from core.rules.nsu.setup_panel import apply_setup
from core.rules.nsu.sheet import CharacterDraft, CreationStep
from core.rules.nsu.world import (
    SafetyTool,
    ScopeQuestion,
    can_see_face,
    tick_collateral,
    untick_collateral,
)
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Table


def _text(payload: Json, key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str):
        raise Malformed("Missing {what}.", what=key.replace("_", " "))
    return value


def _int(payload: Json, key: str) -> int:
    value = payload.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise Malformed("Missing {what}.", what=key.replace("_", " "))
    return value


def _setup_edit(build: Callable[[Json], SetupAction]) -> EditHandler:
    def edit(table: Table, actor: int, payload: Json, rng: Rng) -> Outcome:
        campaign, events = apply_setup(campaign_of(table), actor, build(payload), rng)
        return outcome(campaign, events)

    return edit


def _tone(payload: Json) -> SetupAction:
    try:
        tools = frozenset(SafetyTool(t) for t in payload.get("tools", ()))
    except (TypeError, ValueError):
        raise Malformed("Choose safety tools from the list.") from None
    return wb.ProposeTone(_text(payload, "notes"), tools)


def _statement(payload: Json) -> SetupAction:
    builds_on = payload.get("builds_on")
    if builds_on is not None and (not isinstance(builds_on, int) or isinstance(builds_on, bool)):
        raise Malformed("Build on a statement by its number.")
    return wb.MakeStatement(_text(payload, "text"), builds_on)


def _scope(payload: Json) -> SetupAction:
    question = payload.get("question")
    try:
        chosen = None if question is None else ScopeQuestion(question)
    except ValueError:
        raise Malformed("That's not one of the scope questions.") from None
    return wb.AnswerScope(chosen, _text(payload, "text"))


def _location(payload: Json) -> SetupAction:
    return wb.AuthorLocation(
        title=_text(payload, "title"),
        description=_text(payload, "description"),
        collateral_target=_text(payload, "collateral_target"),
        danger_type=_text(payload, "danger_type"),
        treasure_type=_text(payload, "treasure_type"),
    )


def _revision(payload: Json) -> SetupAction:
    return wb.ReviseLocation(
        card_id=_text(payload, "card_id"),
        title=_text(payload, "title"),
        description=_text(payload, "description"),
        collateral_target=_text(payload, "collateral_target"),
        danger_type=_text(payload, "danger_type"),
        treasure_type=_text(payload, "treasure_type"),
    )


def _draft(table: Table, actor: int) -> CharacterDraft:
    seat = table.seat(actor)
    if character_of(seat) is not None:
        raise NotAllowedNow("Your character is already made.")
    return draft_of(seat) or CharacterDraft()


def _creation_edit(step: CreationStep) -> EditHandler:
    def edit(table: Table, actor: int, payload: Json, rng: Rng) -> Outcome:
        draft = apply_step(_draft(table, actor), step, payload, len(own_cards(table, actor)))
        return Outcome(state={}, sheets={actor: draft_sheet(draft)})

    return edit


def _finish(table: Table, actor: int, payload: Json, rng: Rng) -> Outcome:
    done = finished(table, actor, _draft(table, actor), None)
    return replace(done, closed=False)


def _clock(tick: bool) -> EditHandler:
    def edit(table: Table, actor: int, payload: Json, rng: Rng) -> Outcome:
        campaign = campaign_of(table)
        world = campaign.current_world()
        if world is None:
            raise NotAllowedNow("There are no locations yet.")
        card = world.card(_text(payload, "card_id"))
        if not can_see_face(card, actor):
            raise NotAllowedNow("That location is still face down.")
        move = tick_collateral if tick else untick_collateral
        world, events = move(world, card.id, actor)
        return outcome(campaign.with_world(world), events)

    return edit


def _safety_entry(kind: SafetyKind) -> EditHandler:
    def edit(table: Table, actor: int, payload: Json, rng: Rng) -> Outcome:
        campaign, added = add_safety_entry(campaign_of(table), kind, _text(payload, "text"))
        return outcome(campaign, (added,))

    return edit


def _x_card(table: Table, actor: int, payload: Json, rng: Rng) -> Outcome:
    campaign, played = play_x_card(campaign_of(table))
    return outcome(campaign, (played,))


def _knock(table: Table, actor: int, payload: Json, rng: Rng) -> Outcome:
    campaign, knocked = knock(campaign_of(table))
    return outcome(campaign, (knocked,))


EDITS: dict[str, EditHandler] = {
    "setup.tone": _setup_edit(_tone),
    "setup.agree": _setup_edit(lambda p: wb.AgreeTone()),
    "setup.ban": _setup_edit(lambda p: wb.BanElement(_text(p, "text"))),
    "setup.pass_ban": _setup_edit(lambda p: wb.PassBan()),
    "setup.first_speaker": _setup_edit(lambda p: wb.ChooseFirstSpeaker(_int(p, "player_id"))),
    "setup.statement": _setup_edit(_statement),
    "setup.pass_statement": _setup_edit(lambda p: wb.PassStatement()),
    "setup.card_full": _setup_edit(lambda p: wb.DeclareCardFull()),
    "setup.scope": _setup_edit(_scope),
    "setup.finish_scope": _setup_edit(lambda p: wb.FinishScope()),
    "setup.resource": _setup_edit(lambda p: wb.NameResource(_text(p, "name"))),
    "setup.abundance": _setup_edit(lambda p: wb.ChooseAbundance(_text(p, "name"))),
    "setup.location": _setup_edit(_location),
    "setup.revise": _setup_edit(_revision),
    "setup.deal": _setup_edit(lambda p: wb.DealMap(_int(p, "columns"))),
    "setup.roll": _setup_edit(lambda p: wb.RollDangerAndReward()),
    **{f"character.{step.value}": _creation_edit(step) for step in CreationStep},
    "character.finish": _finish,
    "clock.tick": _clock(True),
    "clock.untick": _clock(False),
    "safety.line": _safety_entry(SafetyKind.LINE),
    "safety.veil": _safety_entry(SafetyKind.VEIL),
    "safety.x_card": _x_card,
    "safety.knock": _knock,
}
