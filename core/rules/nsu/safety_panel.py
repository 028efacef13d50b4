"""A player's private panel for lines and veils ("nsu.safety").

Each reply adds one topic, as a line (never in the story) or a veil (off
screen); buttons switch between the two. The group learns the topic, never
who wrote it: the campaign keeps no author, and the event carries none.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from core.rules.choice import Choice
from core.rules.errors import Malformed, NotYourTurn
from core.rules.nsu.campaign import SafetyKind, add_safety_entry, campaign_of
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Table, current
from core.rules.waiting import Waiting, free_play

SAFETY_PANEL = "nsu.safety"


class SafetyVerb(Enum):
    """What the owner may do on their lines-and-veils panel."""

    ADD = "text"  # reply with a topic
    KIND = "kind"  # switch between adding lines and veils


@dataclass(frozen=True)
class SafetyPanelState:
    """A player's private lines-and-veils panel: whose it is, and what a reply adds."""

    owner: int
    kind: SafetyKind = SafetyKind.LINE

    def to_dict(self) -> dict[str, object]:
        return {"v": 1, "owner": self.owner, "kind": self.kind.value}

    @classmethod
    def from_dict(cls, state: Json) -> SafetyPanelState:
        """Raises: Malformed: the stored state is damaged."""
        try:
            return cls(int(state["owner"]), SafetyKind(state.get("kind", "line")))
        except (KeyError, TypeError, ValueError):
            raise Malformed("That button is out of date. Use the latest message.") from None


def safety_choices(state: SafetyPanelState | Json) -> tuple[Choice[SafetyVerb], ...]:
    """The owner's choices: add a topic as the current kind (``name``) by reply, or pick
    the kind a reply adds (lines first; the current one ``selected``)."""
    panel = state if isinstance(state, SafetyPanelState) else SafetyPanelState.from_dict(state)
    me = frozenset({panel.owner})
    kind = panel.kind
    return (
        Choice(SafetyVerb.ADD, by=me, name=kind.value, by_reply=True),
        *(
            Choice(SafetyVerb.KIND, k.value, by=me, name=k.value, selected=k is kind)
            for k in (SafetyKind.LINE, SafetyKind.VEIL)
        ),
    )


class SafetyPanel:
    """The rules of the private lines-and-veils panel."""

    kind = SAFETY_PANEL

    def read(self, state: Json) -> SafetyPanelState:
        return SafetyPanelState.from_dict(state)

    def waiting(self, table: Table, state: SafetyPanelState | Json) -> Waiting:
        """Lines and veils are added at will: the panel names its owner's choices (the kind
        already picked is no step) and holds up nobody."""
        return free_play(c for c in safety_choices(state) if not c.selected)

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        kind = SafetyKind.VEIL if argument == SafetyKind.VEIL.value else SafetyKind.LINE
        return Outcome(state=SafetyPanelState(actor, kind).to_dict())

    def act(
        self,
        table: Table,
        state: SafetyPanelState | Json,
        actor: int,
        action: str,
        argument: str,
        rng: Rng,
    ) -> Outcome:
        panel = current(self, state)
        if actor != panel.owner:
            raise NotYourTurn("This list belongs to someone else's private chat.")
        if action == "kind":
            try:
                kind = SafetyKind(argument)
            except ValueError:
                raise Malformed("Choose a line or a veil.") from None
            chosen = replace(panel, kind=kind)
            return Outcome(state=chosen.to_dict(), model=chosen)
        if action != "text":
            raise Malformed("That's not a lines-and-veils button.")
        campaign, added = add_safety_entry(campaign_of(table), panel.kind, argument)
        return Outcome(
            state=panel.to_dict(),
            events=(added,),
            campaign_state=campaign.to_dict(),
            model=panel,
        )


__all__ = ["SAFETY_PANEL", "SafetyPanel", "SafetyPanelState", "SafetyVerb", "safety_choices"]
