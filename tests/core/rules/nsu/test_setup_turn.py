"""Where worldbuilding stands for one viewer: step, turn and the viewer's own moves."""

from __future__ import annotations

from core.rules.nsu.setup import (
    ActionKind,
    AgreeTone,
    AnswerScope,
    BanElement,
    ChooseFirstSpeaker,
    FinishScope,
    MakeStatement,
    NameResource,
    PassBan,
    PassStatement,
    ProposeTone,
    SetupState,
    SetupStep,
    apply,
    new_setup,
)
from core.rules.nsu.setup_turn import setup_turn
from core.rules.nsu.world import SafetyTool, ScopeQuestion

ALICE, BOB, CARA, ZED = 11, 22, 33, 44


def test_the_tone_step_offers_agreement_only_after_a_proposal_and_only_once() -> None:
    state = new_setup([ALICE, BOB, CARA])
    turn = setup_turn(state, BOB)
    assert (turn.step, turn.number, turn.steps) == (SetupStep.TONE, 1, 9)
    assert turn.can == {ActionKind.PROPOSE_TONE} and turn.building
    state, _ = apply(state, ALICE, ProposeTone("quiet wonder", frozenset({SafetyTool.KNOCKS})))
    assert ActionKind.AGREE_TONE in setup_turn(state, BOB).can
    assert ActionKind.AGREE_TONE not in setup_turn(state, ALICE).can  # she proposed it
    outsider = setup_turn(state, ZED)
    assert not outsider.building and outsider.can == frozenset()


def test_bans_wait_for_those_who_have_not_chosen() -> None:
    state = new_setup([ALICE, BOB, CARA])
    state, _ = apply(state, ALICE, ProposeTone("quiet wonder", frozenset({SafetyTool.KNOCKS})))
    for p in (BOB, CARA):
        state, _ = apply(state, p, AgreeTone())
    state, _ = apply(state, BOB, BanElement("spiders"))
    turn = setup_turn(state, BOB)
    assert turn.step is SetupStep.BANS and turn.can == frozenset()
    assert turn.waiting_for == (ALICE, CARA)


def _at_settlement() -> SetupState:
    state = new_setup([ALICE, BOB, CARA])
    state, _ = apply(state, ALICE, ProposeTone("quiet wonder", frozenset({SafetyTool.KNOCKS})))
    for p in (BOB, CARA):
        state, _ = apply(state, p, AgreeTone())
    for p in (ALICE, BOB, CARA):
        state, _ = apply(state, p, PassBan())
    return state


def test_the_settlement_turn_and_the_first_speaker_choice() -> None:
    state = _at_settlement()
    turn = setup_turn(state, BOB)
    assert turn.speaker == ALICE and turn.choose_first
    assert ActionKind.MAKE_STATEMENT not in turn.can
    state, _ = apply(state, BOB, ChooseFirstSpeaker(CARA))
    state, _ = apply(state, CARA, MakeStatement("a bell tower"))
    turn = setup_turn(state, ALICE)
    assert turn.speaker == ALICE and not turn.choose_first
    assert {ActionKind.MAKE_STATEMENT, ActionKind.PASS_STATEMENT} <= turn.can
    assert ActionKind.MAKE_STATEMENT not in setup_turn(state, BOB).can


def test_scope_questions_left_and_resources_one_each_first() -> None:
    state = _at_settlement()
    for p in (ALICE, BOB):
        state, _ = apply(state, p, PassStatement())
    state, _ = apply(state, BOB, AnswerScope(ScopeQuestion.TECHNOLOGY, "steam"))
    turn = setup_turn(state, CARA)
    assert turn.step is SetupStep.SCOPE and ScopeQuestion.TECHNOLOGY not in turn.open_questions
    assert len(turn.open_questions) == len(ScopeQuestion) - 1
    state, _ = apply(state, CARA, FinishScope())
    state, _ = apply(state, ALICE, NameResource("Water"))
    turn = setup_turn(state, ALICE)
    assert turn.one_each and turn.resources_left == 4 and turn.can == frozenset()
    for p, name in ((BOB, "Salt"), (CARA, "Rope")):
        state, _ = apply(state, p, NameResource(name))
    turn = setup_turn(state, ALICE)
    assert not turn.one_each and turn.resources_left == 2
    assert turn.can == {ActionKind.NAME_RESOURCE}
