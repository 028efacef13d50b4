"""A tiny game system for testing the shared campaign and panel machinery.

Edit "roll" puts one die from the injected dice in the campaign state.
Panel "count": whoever opened it may press "inc" (up to ``limit``) or "done";
anyone else is refused. Each "inc" also adds one to the campaign's total and to
the presser's sheet, so tests can see what an outcome saves.

It is also the fifth game of tests/tgbot/test_manifest.py: this one module is its
whole package (its rules, and as its manifest's edges name them, its bot feature
with the /count command and the panel's renderer, and its sheet page); registered
with one line (a module added to ``SYSTEM_MODULES``), it is played end to end.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from telegram import InlineKeyboardMarkup, Update
from telegram.ext import BaseHandler, CommandHandler

from core.campaigns import PanelView
from core.rules.choice import Choice
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.registry import CampaignRules, Edges, GameSystem, Registry
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Table, current
from core.rules.waiting import Waiting, waiting
from core.words.i18n import Lang
from tgbot.context import StonetableContext
from tgbot.features.panels import post_panel
from tgbot.panels import button, keyboard
from tgbot.updates import CommandSpec, actor, command_args
from webapp.sheets import MembersPage


class CounterCampaign(CampaignRules):
    has_game_master = False

    def new_state(self) -> Json:
        return {"total": 0, "seats": 0}

    def seated(self, table: Table, player_id: int) -> tuple[Json, Json]:
        return {**table.state, "seats": table.state.get("seats", 0) + 1}, {"presses": 0}

    def edit(self, table: Table, actor: int, action: str, payload: Json, rng: Rng) -> Outcome:
        """Mini App edit "roll": one d6 from the injected dice, kept in the campaign;
        "tally": one more on the actor's sheet only (the campaign state is untouched)."""
        if action == "tally":
            sheet = table.seats[actor].sheet
            return Outcome(state={}, sheets={actor: {**sheet, "tally": sheet.get("tally", 0) + 1}})
        if action != "roll":
            raise NotAllowedNow("That can't be changed here.")
        return Outcome(state={}, campaign_state={**table.state, "rolled": rng.randint(1, 6)})


@dataclass(frozen=True)
class CountState:
    owner: int
    value: int
    limit: int
    note: str = ""
    roll: int = 0  # the die rolled as it opened

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"owner": self.owner, "value": self.value, "limit": self.limit}
        out.update({"roll": self.roll, **({"note": self.note} if self.note else {})})
        return out


def _kept(count: CountState, **more: Any) -> Outcome:
    """The counter's new state, as stored and as read."""
    return Outcome(state=count.to_dict(), model=count, **more)


class CountVerb(Enum):
    INC = "inc"
    DONE = "done"


class CountPanel:
    kind = "count"

    def read(self, state: Json) -> CountState:
        try:
            note = str(state.get("note", ""))
            owner, value, limit = int(state["owner"]), int(state["value"]), int(state["limit"])
            return CountState(owner, value, limit, note, int(state.get("roll", 0)))
        except (KeyError, TypeError, ValueError):
            raise Malformed("This counter can't be read.") from None

    def waiting(self, table: Table, state: CountState | Json) -> Waiting:
        """The counter waits on the player who started it (to count on or finish)."""
        owner = frozenset({current(self, state).owner})
        return waiting([Choice(CountVerb.INC, by=owner), Choice(CountVerb.DONE, by=owner)])

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        limit = int(argument) if argument.isdigit() else 3
        if not 1 <= limit <= 10:
            raise Malformed("Count to a number from 1 to 10.")
        return Outcome(
            state={"owner": actor, "value": 0, "limit": limit, "roll": rng.randint(1, 6)}
        )

    def act(
        self,
        table: Table,
        state: CountState | Json,
        actor: int,
        action: str,
        argument: str,
        rng: Rng,
    ) -> Outcome:
        count = current(self, state)
        if actor != count.owner:
            raise NotYourTurn("Only the player who started this may press it.")
        if action == "text":
            return _kept(replace(count, note=argument))
        if action == "done":
            return _kept(count, closed=True, events=("done",))
        if action != "inc":
            raise Malformed("Unknown button.")
        if count.value >= count.limit:
            raise NotAllowedNow("Already at the limit.")
        sheet = table.seats[actor].sheet
        return _kept(
            replace(count, value=count.value + 1),
            events=("inc",),
            campaign_state={**table.state, "total": table.state.get("total", 0) + 1},
            sheets={actor: {**sheet, "presses": sheet.get("presses", 0) + 1}},
        )


COUNTER = GameSystem(
    key="counter",
    name="Counter",
    summary="for tests",
    campaign=CounterCampaign(),
    panels={"count": CountPanel()},
    edges=Edges(features=(__name__,), sheet=__name__),  # this module shows it too
)
SYSTEM = COUNTER


def counter_registry() -> Registry:
    return Registry({"counter": COUNTER})


# Its edges (named by COUNTER.edges): the bot feature, the renderer, the sheet page.


class CountRenderer:
    kind = "count"

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        state = view.typed(CountState)
        text = f"Count: {state.value}/{state.limit}"
        if view.closed:
            return text, None
        return text, keyboard([[button(view, "+1", "inc"), button(view, "Done", "done")]])


async def count(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    view = await context.deps.campaigns.open_panel(
        chat, player, "count", command_args(update).strip(), unit=context.unit
    )
    await post_panel(update, context, view)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [CommandHandler("count", count)]


# a description without words, so it reads the same in every language
COMMANDS = [CommandSpec("count", "🔢 1, 2, 3…", private=False, game="counter")]
RENDERERS = [CountRenderer()]
PAGE = MembersPage(key="counter")
