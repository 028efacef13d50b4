"""How many times one button press changes the form of its panel's state and sheets.

A press is driven through the real handler, the use case, the store, the rules, the
renderer and the local Bot API server; a profiler hook counts, for that press only:

- the panel state's JSON text turned into a mapping (``json.loads`` of the state column,
  the old state) and a mapping into JSON text (``json.dumps`` giving the new state);
- the panel state read into its typed value (a panel's ``PanelRules.read``, or any
  ``from_dict`` of the rules given the state or one of its parts, as the threat roll's
  wrapped roll; nested calls count once) and written back (an outermost ``to_dict`` of
  the rules returning the new state or one of its parts);
- each character sheet read into its typed value (the ``from_dict`` of a game's sheet
  class: NSU ``Character``, the threat, Cortex and d20 sheets), by its content, outside
  a panel state's own decoding;
- the campaign's own state read into its typed value (the rules' reader of it:
  ``NsuCampaign.from_dict``, Cortex's ``read_table``; outermost calls).

Before the state was read once as the press loaded it, an NSU roll press read its
state three times (the rules, the log, the view) and one sheet twice; a d20 press read
the roller's sheet five times; the undo record dumped the old state again. Now each is
at most once a press: the state read once when loaded, written once when saved
(its JSON text reused for the undo record), each sheet read once (docs/architecture.md,
"Panel state: stored as JSON, read once, typed everywhere after"). The campaign's own
state was read three times on that NSU press (the log, twice in the renderer) and twice
on a Cortex one (the rules, the renderer); a press that leaves it as it was now reads it
once, through the table the rules, the log and the renderer share (``Table.read``).
"""

from __future__ import annotations

import contextvars
import json
import sys
import typing
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from core.rules.cortex import campaign as cortex_campaign
from core.rules.cortex.traits import Sheet as CortexSheet
from core.rules.d20check.sheet import CharacterSheet
from core.rules.nsu.campaign import NsuCampaign
from core.rules.nsu.sheet import Character
from core.rules.registry import Registry
from core.rules.rng import ScriptedRng
from core.rules.threat.sheet import Sheet as ThreatSheet
from core.store.models import Panel as PanelRow
from tests.support.stack import GROUP, Stack, campaigns, labels, panel_row, running_stack
from tgbot.features import panels
from tgbot.sandbox.fake_api import default_cast

RULES = str(Path(__file__).resolve().parents[2] / "core" / "rules") + "/"
SHEETS: tuple[type, ...] = (Character, ThreatSheet, CortexSheet, CharacterSheet)
CEILING = 1  # each form change at most once a press

_pressing: contextvars.ContextVar[bool] = contextvars.ContextVar("decoding", default=False)


def _code(method: Any) -> Any:
    return getattr(method, "__func__", method).__code__


# the rules' readers of the campaign's own state, one per game that keeps a typed one
CAMPAIGN_READERS = frozenset({_code(NsuCampaign.from_dict), _code(cortex_campaign.read_table)})


def _first_argument(frame: FrameType) -> Any:
    code = frame.f_code
    return frame.f_locals.get(code.co_varnames[1]) if code.co_argcount > 1 else None


def _part_of(value: object, state: object) -> bool:
    """``value`` is the panel's state, or one of its own parts (a state wrapping a roll)."""
    if value is None or not isinstance(state, dict):
        return False
    return value == state or any(value == part for part in state.values() if isinstance(part, dict))


def _stack(frame: FrameType | None) -> str:
    names = []
    while frame is not None and len(names) < 6:
        names.append(frame.f_code.co_qualname)
        frame = frame.f_back
    return " < ".join(names)


def _copied(value: object) -> object:
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError):
        return None


def _same_json(text: object, state: object) -> bool:
    try:
        return isinstance(text, str | bytes) and json.loads(text) == state
    except ValueError:
        return False


class DecodeTrace:
    """The form changes of one press's panel state and sheets (see the module)."""

    def __init__(self, registry: Registry) -> None:
        rules = [r for system in registry for r in system.panels.values()]
        self.rules_types = tuple({type(r) for r in rules})
        self.states = tuple(
            {typing.get_type_hints(type(r).read)["return"] for r in rules}  # its typed state
        )
        self.reads = {_code(type(r).read) for r in rules}
        self.from_dicts = {
            _code(c.from_dict) for c in (*self.states, *SHEETS) if hasattr(c, "from_dict")
        }
        self.to_dicts = {_code(c.to_dict) for c in self.states if hasattr(c, "to_dict")}
        self.loads, self.dumps = json.loads.__code__, json.dumps.__code__
        self.old: object = None  # the state before the press, and after it
        self.new: object = None
        self.open: list[tuple[str, FrameType]] = []  # counted calls under way
        self.read: list[object] = []  # what each outermost from_dict read
        self.written: list[object] = []  # what each outermost to_dict wrote
        self.where: list[str] = []  # where each outermost decode was called (printed)
        self.json_loads: list[object] = []  # what each json.loads returned
        self.json_dumps: list[object] = []  # what each json.dumps returned
        self.sheet_reads: Counter[str] = Counter()  # by the sheet's content
        self.campaign_reads = 0  # the campaign's own state read into its typed value

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if not _pressing.get():
            return
        code = frame.f_code
        if event == "return":
            if self.open and self.open[-1][1] is frame:
                kind, _ = self.open.pop()
                if kind == "write" and not any(k == kind for k, _ in self.open):
                    self.written.append(_copied(arg))
            if code is self.loads:
                self.json_loads.append(arg)
            elif code is self.dumps:
                self.json_dumps.append(arg)
            return
        if event != "call":
            return
        if code in CAMPAIGN_READERS:
            self._campaign_read(frame)
            return
        kind = self._kind(frame)
        if kind is None:
            return
        reading = any(k in ("read", "decode") for k, _ in self.open)
        if kind == "read" and not reading:
            self.read.append(self.old)  # a PanelRules.read: a state read, whichever
            self.where.append(_stack(frame))
        elif kind == "decode" and not reading:
            self.read.append(_copied(_first_argument(frame)))
            self.where.append(_stack(frame))
        elif kind == "sheet" and not reading:
            data = _first_argument(frame)
            self.sheet_reads[json.dumps(data, sort_keys=True, default=str)] += 1
            self.where.append("sheet: " + _stack(frame))
        self.open.append((kind, frame))

    def _campaign_read(self, frame: FrameType) -> None:
        """An outermost read of the campaign's state (a reader calling another: once)."""
        if any(k == "campaign" for k, _ in self.open):
            return
        self.campaign_reads += 1
        self.where.append("campaign: " + _stack(frame))
        self.open.append(("campaign", frame))

    def _kind(self, frame: FrameType) -> str | None:
        code = frame.f_code
        if code in self.reads and isinstance(frame.f_locals.get("self"), self.rules_types):
            return "read"
        rules = code.co_filename.startswith(RULES)
        if code.co_name == "from_dict" and (rules or code in self.from_dicts):
            return "sheet" if frame.f_locals.get("cls") in SHEETS else "decode"
        if code.co_name == "to_dict" and (rules or code in self.to_dicts):
            return "write"  # the new state, or a part of it, if that is what it returns
        return None

    @property
    def state_reads(self) -> int:
        """The state (or a part of it: a state wrapping a roll) read into a typed value."""
        return sum(1 for d in self.read if _part_of(d, self.old) or _part_of(d, self.new))

    @property
    def state_writes(self) -> int:
        """A typed value written as the new state (or a part of it)."""
        return sum(1 for d in self.written if _part_of(d, self.new))

    @property
    def state_loads(self) -> int:
        """The old state's JSON text turned into a mapping."""
        return sum(1 for value in self.json_loads if value == self.old)

    @property
    def state_dumps(self) -> int:
        """The new state turned into JSON text."""
        return sum(1 for text in self.json_dumps if _same_json(text, self.new))

    @property
    def old_dumps(self) -> int:
        """The old state turned into JSON text again (for the undo record)."""
        return sum(1 for text in self.json_dumps if _same_json(text, self.old))

    def figures(self) -> dict[str, int]:
        return {
            "state json.loads": self.state_loads,
            "state read": self.state_reads,
            "state to_dict": self.state_writes,
            "state json.dumps": self.state_dumps,
            "old state json.dumps": self.old_dumps,
            "most reads of one sheet": max(self.sheet_reads.values(), default=0),
            "campaign state read": self.campaign_reads,
        }


async def measured(stack: Stack, press: Callable[[], Awaitable[Any]], panel_id: int) -> DecodeTrace:
    """Run ``press`` (one press of panel ``panel_id``) with the hook on its handler."""
    application = stack.runtime.application
    assert application is not None
    handler = next(
        h for group in application.handlers.values() for h in group if h.callback is panels.press
    )
    trace = DecodeTrace(stack.runtime.registry)
    trace.old = (await PanelRow.get(id=panel_id)).state

    async def run(update: Any, context: Any) -> None:
        token = _pressing.set(True)
        sys.setprofile(trace)
        try:
            await panels.press(update, context)
        finally:
            sys.setprofile(None)
            _pressing.reset(token)

    handler.callback = run
    try:
        await press()
    finally:
        handler.callback = panels.press
    trace.new = (await PanelRow.get(id=panel_id)).state
    assert trace.new != trace.old, "the press changed nothing"
    print(f"\n{trace.figures()}\nsheets read: {sorted(trace.sheet_reads.values())}")
    print("\n".join(trace.where))
    return trace


def within_ceilings(trace: DecodeTrace) -> None:
    figures = trace.figures()
    assert trace.state_loads == 1, figures  # it was read from the store, once
    assert trace.state_reads == 1, figures
    assert trace.state_writes == 1, figures
    assert trace.state_dumps == 1, figures
    assert trace.old_dumps == 0, figures  # the undo record keeps the text as it was read
    assert all(n <= CEILING for n in trace.sheet_reads.values()), trace.sheet_reads
    assert trace.campaign_reads <= CEILING, figures  # the press left it as it was


pytestmark = [pytest.mark.e2e, pytest.mark.db]


async def _panel_of(message: dict[str, Any]) -> int:
    return int((await panel_row(message)).id)


@pytest.fixture
async def plain_stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


async def test_an_nsu_roll_press_reads_its_state_and_sheets_once(plain_stack: Stack) -> None:
    from tests.support.nsu_bot import ALICE, CHIDI
    from tests.tgbot.test_e2e_nsu_play import default_characters, say, start_table, tap

    stack = plain_stack
    await start_table(stack, default_characters())
    panel = await say(stack, ALICE, "/act I cross the rope bridge")
    shown: list[dict[str, Any]] = []

    async def press() -> None:
        shown.append(await tap(stack, CHIDI, panel, "⚖️ Body"))  # the Arbiter sets the stakes

    trace = await measured(stack, press, await _panel_of(panel))
    assert "Body" in shown[0]["text"]
    assert trace.sheet_reads, "the roll read no sheet"  # it does read its players' sheets
    assert trace.campaign_reads, "the roll read no campaign state"  # the log and view do
    within_ceilings(trace)


@pytest.fixture
async def threat_stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, rng=ScriptedRng([2, 3, 1, 7, 2, 5]), players=default_cast()) as s:
        yield s


async def test_a_threat_press_reads_its_state_and_sheet_once(threat_stack: Stack) -> None:
    from tests.tgbot.test_e2e_threat import ALICE, BO, ref, say, start_game, tap

    stack = threat_stack
    token = await start_game(stack)
    approach = {"name": "Prowess", "value": 2}
    await campaigns(stack).edit(token, ref(stack, BO), "approach.set", approach)
    climb = await stack.api.send_text(BO, GROUP, "I climb the tower")
    panel = await say(stack, ALICE, "/threat", reply_to=climb["message_id"])
    _, panel = await tap(stack, ALICE, panel, "⚠️ Threat +0")  # the keypad opens
    shown: list[dict[str, Any]] = []

    async def press() -> None:
        shown.append((await tap(stack, ALICE, panel, "+3"))[1])  # the GM sets the threat

    trace = await measured(stack, press, await _panel_of(panel))
    assert "+3 (desperate)" in shown[0]["text"]
    assert trace.sheet_reads, "the roll read no sheet"
    within_ceilings(trace)


async def test_a_cortex_press_reads_its_state_and_sheets_once(plain_stack: Stack) -> None:
    from tests.tgbot.test_e2e_cortex import BO, WATCHTOWER, Panel, open_game, say

    stack = plain_stack
    await open_game(stack)
    panel = Panel(stack, await say(stack, BO, "/test"))
    panel_id = await _panel_of(panel.message)
    trace = await measured(stack, lambda: panel.press(WATCHTOWER, "👁 +d8"), panel_id)
    assert "d8" in panel.message["text"]
    assert trace.campaign_reads, "the conflict read no campaign state"  # its table does
    within_ceilings(trace)


async def test_a_d20_press_reads_its_state_and_sheet_once(plain_stack: Stack) -> None:
    from tests.tgbot.test_e2e_d20 import BO, ref, say, start_game, tap

    stack = plain_stack
    token = await start_game(stack)
    strong = {"name": "Might", "strength": "strong"}
    await campaigns(stack).edit(token, ref(stack, BO), "ability.set", strong)
    panel = await say(stack, BO, "/check might dc12")
    shown: list[dict[str, Any]] = []

    async def press() -> None:
        shown.append((await tap(stack, BO, panel, "⚖️ Prof"))[1])  # the bonuses open

    trace = await measured(stack, press, await _panel_of(panel))
    assert "Prof +" in labels(shown[0])
    assert trace.sheet_reads, "the check read no sheet"
    within_ceilings(trace)
