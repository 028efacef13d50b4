"""A player's private panel for lines and veils ("nsu.safety").

Each reply adds one topic, as a line (never in the story) or a veil (off
screen); buttons switch between the two. The group learns the topic, never
who wrote it: the campaign keeps no author, and the event carries none.
"""

from __future__ import annotations

from core.rules.errors import Malformed, NotYourTurn
from core.rules.nsu.campaign import SafetyKind, add_safety_entry, campaign_of
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Table

SAFETY_PANEL = "nsu.safety"


class SafetyPanel:
    """The rules of the private lines-and-veils panel."""

    kind = SAFETY_PANEL

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        kind = SafetyKind.VEIL if argument == SafetyKind.VEIL.value else SafetyKind.LINE
        return Outcome(state={"v": 1, "owner": actor, "kind": kind.value})

    def act(
        self, table: Table, state: Json, actor: int, action: str, argument: str, rng: Rng
    ) -> Outcome:
        if actor != int(state["owner"]):
            raise NotYourTurn("This list belongs to someone else's private chat.")
        if action == "kind":
            try:
                kind = SafetyKind(argument)
            except ValueError:
                raise Malformed("Choose a line or a veil.") from None
            return Outcome(state={**state, "kind": kind.value})
        if action != "text":
            raise Malformed("That's not a lines-and-veils button.")
        campaign, added = add_safety_entry(
            campaign_of(table), SafetyKind(state.get("kind", "line")), argument
        )
        return Outcome(state=dict(state), events=(added,), campaign_state=campaign.to_dict())


__all__ = ["SAFETY_PANEL", "SafetyPanel"]
