"""How many layers one button press goes through, counted on a real press.

A player presses a button on a threat-dice roll panel; the press goes through
the real handler, the campaign use case, the store, the rules, the renderer and
the edit of the message (on the local Bot API server). A profiler hook records
every function of the project's own code (core/, tgbot/, webapp/) that runs on
behalf of that press, from the handler down; library code is not counted.

Two figures are kept: every function the press runs, helpers included, and its
*hops*: the functions on the call stack, from the handler down, whenever the
press reaches its work or the outside world (:func:`endpoint`: the rules apply
the action, a renderer draws the panel, a statement goes to the database, a
request goes to Telegram), those entry points included. The ceilings below fail
the test if layers creep back (docs/architecture.md lists the path).
"""

from __future__ import annotations

import contextvars
import sys
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
import tortoise

from core.rules.rng import ScriptedRng
from tests.support.stack import GROUP, Stack, campaigns, labels, running_stack
from tests.tgbot.test_e2e_nsu_play import default_characters, start_table
from tests.tgbot.test_e2e_nsu_play import say as say_nsu
from tests.tgbot.test_e2e_nsu_play import tap as tap_nsu
from tests.tgbot.test_e2e_threat import ALICE, BO, ref, say, start_game, tap
from tgbot.features import panels
from tgbot.inbox import Inbox
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tuple(str(ROOT / part) + "/" for part in ("core", "tgbot", "webapp"))
NOT_THE_BOT = (str(ROOT / "tgbot" / "sandbox") + "/",)  # the Bot API stand-in
RULES = str(ROOT / "core" / "rules") + "/"
RENDER = str(ROOT / "tgbot" / "render") + "/"
REQUEST = str(ROOT / "tgbot" / "request.py")
DATABASE = str(Path(tortoise.__file__).parent / "backends") + "/"

# functions on the way from the handler to its work (was 22, then 17; the outbox added
# four: its row written with the change and marked sent, the planner, the sender; then
# 19: the undo offers read in _touched, the panel loaded by the one loader; 18: the
# fence's statements in saving itself; 9: the steps of a press build statements the use case
# runs through the one runner, saving commits itself, the press sends its rows with
# send_rows; 7: the use case calls the renderer the planner names and hands it what it drew,
# and the press's edit is called beside the button's answer; 15: a press has the one shape
# of every change, no copies of its own: its unit of work's transaction and record, the
# one runner of statements, the planner that draws it, the one sending path; see
# docs/architecture.md)
HOPS_CEILING = 15
HOP_FILES_CEILING = 9  # files those functions live in (was 15, 12, 14, 15, 7)

_pressing: contextvars.ContextVar[bool] = contextvars.ContextVar("pressing", default=False)


def project_file(filename: str) -> bool:
    return filename.startswith(PROJECT) and not filename.startswith(NOT_THE_BOT)


def _comprehension(name: str) -> bool:
    return name.endswith(("<listcomp>", "<genexpr>", "<dictcomp>", "<setcomp>", "<lambda>"))


def endpoint(frame: FrameType) -> bool:
    """Where a press reaches its work or the outside world: the rules apply the action,
    a renderer draws the panel, a statement goes to the database, a request to Telegram."""
    code = frame.f_code
    name, filename = code.co_qualname, code.co_filename
    if filename.startswith(DATABASE):
        return True
    if filename.startswith(RULES) and name.endswith(".act"):
        return True
    if filename.startswith(RENDER) and name.endswith(".render"):
        return True
    return filename == REQUEST and name.endswith(".do_request")


class PressTrace:
    """The project functions that ran on behalf of one press, in first-call order.

    ``functions`` is every one of them; ``hops`` only those on the way from the
    handler to an :func:`endpoint` (the functions on the stack when it is called).
    """

    def __init__(self, *, root: object = None) -> None:
        self.functions: dict[tuple[str, str], None] = {}
        self.hops: dict[tuple[str, str], None] = {}
        self.root = root if root is not None else panels.press.__code__

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or not _pressing.get():
            return
        code = frame.f_code
        if project_file(code.co_filename):
            self.functions.setdefault(self.key(frame), None)
        if not endpoint(frame):
            return
        at: FrameType | None = frame
        while at is not None:
            if project_file(at.f_code.co_filename) and not _comprehension(at.f_code.co_qualname):
                self.hops.setdefault(self.key(at), None)
            if at.f_code is self.root:
                break
            at = at.f_back

    @staticmethod
    def key(frame: FrameType) -> tuple[str, str]:
        code = frame.f_code
        return code.co_filename.removeprefix(str(ROOT) + "/"), code.co_qualname

    @staticmethod
    def files(keys: dict[tuple[str, str], None]) -> list[str]:
        return sorted({f for f, _ in keys})


Handler = Callable[[Any, Any], Awaitable[None]]


def traced(handler: Handler, trace: PressTrace) -> Handler:
    async def run(update: Any, context: Any) -> None:
        token = _pressing.set(True)  # tasks the press starts (gather) inherit it
        sys.setprofile(trace)
        try:
            await handler(update, context)
        finally:
            sys.setprofile(None)
            _pressing.reset(token)

    return run


@contextmanager
def presses_traced(inbox: Inbox) -> Iterator[list[PressTrace]]:
    """Trace every button press ``inbox`` takes from here on, from the inbox down, one
    :class:`PressTrace` each, in the order they came."""
    traces: list[PressTrace] = []
    taken = inbox.take_polled

    async def take_polled(data: object) -> bool:
        if not (isinstance(data, dict) and "callback_query" in data):
            return await taken(data)
        trace = PressTrace(root=Inbox.take_polled.__code__)
        traces.append(trace)
        token = _pressing.set(True)
        sys.setprofile(trace)
        try:
            return await taken(data)
        finally:
            sys.setprofile(None)
            _pressing.reset(token)

    inbox.take_polled = take_polled  # type: ignore[method-assign]
    try:
        yield traces
    finally:
        del inbox.take_polled


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    faces = [2, 3, 1, 7, 2, 5]
    async with running_stack(db, rng=ScriptedRng(faces), players=default_cast()) as running:
        yield running


async def test_a_press_goes_through_few_layers(stack: Stack) -> None:
    token = await start_game(stack)
    approach = {"name": "Prowess", "value": 2}
    await campaigns(stack).edit(token, ref(stack, BO), "approach.set", approach)
    climb = await stack.api.send_text(BO, GROUP, "I climb the tower")
    panel = await say(stack, ALICE, "/threat", reply_to=climb["message_id"])
    _, panel = await tap(stack, ALICE, panel, "⚠️ Threat +0")  # warm-up: the keypad opens
    application = stack.runtime.application
    assert application is not None
    handler = next(
        h for group in application.handlers.values() for h in group if h.callback is panels.press
    )
    trace = PressTrace()
    handler.callback = traced(panels.press, trace)
    try:
        _, panel = await tap(stack, ALICE, panel, "+3")  # the GM sets the threat
    finally:
        handler.callback = panels.press
    assert "+3 (desperate)" in panel["text"]
    hops = sorted(trace.hops)
    listing = "\n".join(f"{f}: {name}" for f, name in hops)
    print(
        f"\n{len(trace.functions)} functions; {len(hops)} hops in "
        f"{len(trace.files(trace.hops))} files:\n{listing}"
    )
    assert ("tgbot/features/panels.py", "press") in trace.hops  # it did trace the press
    assert any(f.startswith("core/rules/") for f, _ in hops), listing
    assert any(f.startswith("tgbot/render/") for f, _ in hops), listing
    assert len(hops) <= HOPS_CEILING, listing
    assert len(trace.files(trace.hops)) <= HOP_FILES_CEILING, listing


# From the inbox: an NSU action roll's press, from the update taken in (tgbot/inbox.py)
# to the Bot API call. Measured at 26 functions in 17 files before the press path was
# flattened, 23 in 18 after; 8 in 8 once the inbox ran the handlers in its own frame
# (the chat's turn a context around them), the unit of work became statements run by the
# use case, the use case drew the press's edit and the press called it beside its answer
# (docs/architecture.md: what went); 16 in 10 once a press took the one shape of every
# change (its unit of work, the planner drawing it, the one sending path). Each other view
# a press redraws is drawn by the planner as any change's redraws are: the planner's steps
# to its renderer and the presenter's drawing.
INBOX_HOPS_CEILING = 16
INBOX_HOP_FILES_CEILING = 10
REDRAW_HOPS = 3  # what each view redrawn besides the press's own adds
REDRAW_FILES = 2


@pytest.fixture
async def nsu_stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


# Every press of one whole NSU action roll, from the stakes to the kept die, at a table
# with its adventure panel open: those that spend a mood or write a sheet save the
# outcome, look for the views it touched and redraw the adventure panel too (10 hops in 9
# files without the adventure panel, 15 in 12 with it, before those steps became
# statements the press runs and drawings it makes itself). Each other panel a press
# redraws adds the planner's steps of a redraw (REDRAW_HOPS) and its renderer.
ROLL_PRESSES = (
    ("chidi", "⚖️ Body"),  # the Arbiter sets the stakes
    ("chidi", "🌍 World"),
    ("alice", "Ana: Curious d8"),  # spends from her sheet
    ("alice", "No details apply"),
    ("alice", "🎲 Ana: roll"),
    ("bo", "🤝 "),  # Bo helps: his sheet
    ("alice", "Ana: my own mood die"),  # the roll is settled
)


def renderers(hops: list[tuple[str, str]]) -> int:
    return sum(f.startswith("tgbot/render/") and name.endswith(".render") for f, name in hops)


async def test_every_press_of_an_nsu_roll_from_the_inbox(nsu_stack: Stack) -> None:
    from tests.support.nsu_bot import ALICE as NSU_ALICE
    from tests.support.nsu_bot import BO as NSU_BO
    from tests.support.nsu_bot import CHIDI

    players = {"alice": NSU_ALICE, "bo": NSU_BO, "chidi": CHIDI}
    stack = nsu_stack
    await start_table(stack, default_characters())
    adventure = await say_nsu(stack, NSU_ALICE, "/adventure")
    assert "Adventure" in adventure["text"]
    panel = await say_nsu(stack, NSU_ALICE, "/act I cross the rope bridge")
    inbox = stack.runtime.inbox
    assert inbox is not None
    report: list[str] = []
    with presses_traced(inbox) as traces:
        for who, label in ROLL_PRESSES:
            panel = await tap_nsu(stack, players[who], panel, label)
            hops = sorted(traces[-1].hops)
            files = traces[-1].files(traces[-1].hops)
            drawn = renderers(hops)
            report.append(f"{label}: {len(hops)} hops in {len(files)} files, {drawn} drawn")
            listing = "\n".join(f"{f}: {name}" for f, name in hops)
            assert ("tgbot/inbox.py", "Inbox.take_polled") in traces[-1].hops, listing
            assert any(f.startswith("core/rules/nsu/") for f, _ in hops), listing
            assert any(f == "tgbot/request.py" for f, _ in hops), listing
            assert drawn >= 1, listing
            more = drawn - 1
            assert len(hops) - REDRAW_HOPS * more <= INBOX_HOPS_CEILING, f"{label}:\n{listing}"
            assert len(files) - REDRAW_FILES * more <= INBOX_HOP_FILES_CEILING, label
    print("\n" + "\n".join(report))
    assert "wins" in panel["text"]  # the roll was played to its end
    assert len(traces) == len(ROLL_PRESSES)
    # it did measure presses that redraw the adventure panel beside their own
    assert max(renderers(sorted(t.hops)) for t in traces) == 2, report


async def test_a_press_in_private_names_its_game_in_no_more_hops(nsu_stack: Stack) -> None:
    """A player's own panel in their private chat: the press reads how many games they
    are in with its other statements, so the line naming the game (for a player in
    two) costs no layer (16 hops in 14 files before, the planner asking for every game
    the player is in, each read whole)."""
    from tests.tgbot.test_e2e_nsu_two_games import BO as TWO_GAMES_BO
    from tests.tgbot.test_e2e_nsu_two_games import FORUM, HEADER_B, ZOE, two_games

    stack = nsu_stack
    _, b = await two_games(stack)  # Bo plays in both topics, Zoë in topic B only
    inbox = stack.runtime.inbox
    assert inbox is not None
    for player, header in ((TWO_GAMES_BO, HEADER_B), (ZOE, "")):
        mark = stack.api.mark()
        await stack.api.send_text(player, FORUM, "/lines", thread_id=b)  # answered in private
        panel = await stack.api.wait_for_message(player, timeout=10, since=mark)
        assert panel["text"].startswith(header + "🚧 Lines and veils"), panel["text"]
        with presses_traced(inbox) as traces:
            data = next(
                b["callback_data"]
                for row in panel["reply_markup"]["inline_keyboard"]
                for b in row
                if b["text"].endswith("Veil")
            )
            press = await stack.api.press_button(player, player, panel["message_id"], data)
            assert not (await press.answered(10))["text"]
            shown = panel["message_id"]
            edited = await stack.api.wait_for_message(
                player, lambda m, shown=shown: m["message_id"] == shown, timeout=10
            )
        (trace,) = traces
        assert edited["text"].startswith(header + "🚧 Lines and veils"), edited["text"]
        assert "✅ Veil" in labels(edited), labels(edited)
        hops = sorted(trace.hops)
        listing = "\n".join(f"{f}: {name}" for f, name in hops)
        print(f"\n{player}: {len(hops)} hops in {len(trace.files(trace.hops))} files")
        assert ("tgbot/inbox.py", "Inbox.take_polled") in trace.hops, listing
        assert len(hops) <= INBOX_HOPS_CEILING, listing
        assert len(trace.files(trace.hops)) <= INBOX_HOP_FILES_CEILING, listing
