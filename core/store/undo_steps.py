"""The undo steps kept with each change: before-images recorded, and where a ``↩ Undo``
shows.

Every step taken on a panel or in the Mini App is recorded by :func:`record_step`
in the same guarded transaction that saves it (the campaign's state, the touched
sheets and the touched panel as they were before). The undo use case
(:class:`core.campaigns.undo.Undos`) restores them; the campaign use cases record steps here
and ask which panels offer a step back, so they never import the use case above
them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from core.rules.choice import Choice, Common
from core.rules.registry import GameSystem
from core.rules.table import Json, Outcome, Table
from core.rules.undo import StepTaken, undo_choice
from core.store.models import UndoStep
from core.store.sql import Statement, dump_json, fetch, now
from core.words.i18n import N_

OPENED = N_("opening a new panel")  # how an opening step is named (it stands)
KEPT = 8  # steps kept per campaign (a few more may wait for the next pruning)
PRUNE_EVERY = 4
STALE = "That button is out of date. Use the latest message."
MOVED_ON = "The game moved on since your last step, so it stands."
NO_GAME = "No game is running in this chat. Start one with /newgame."


@dataclass(frozen=True)
class PanelBefore:
    """A panel as it was before a step, and its version after it."""

    panel_id: int
    state: Json
    closed: bool
    version_after: int
    text: str | None = None  # ``state`` as the JSON text it was read from, kept as it is


async def record_step(system: GameSystem, campaign_id: int, *args: Any, **kwargs: Any) -> StepTaken:
    """Inside a use case's transaction: keep what a step replaced (see the module and
    :func:`step_row`, which takes the same arguments)."""
    step, statement = step_row(system, campaign_id, *args, **kwargs)
    pruning = pruned(campaign_id, await fetch(*statement))
    if pruning is not None:
        await fetch(*pruning)
    return step


async def record_turn_step(
    campaign_id: int,
    step: StepTaken,
    version: int,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
) -> None:
    """Inside a turn order use case's transaction: keep a ``/turns`` or ``/next`` step
    (the order before it and after it, as stored); the campaign stays at ``version``."""
    keep = not (step.rolled or step.final or step.revealed)
    created = await UndoStep.create(
        campaign_id=campaign_id,
        actor_tg_id=step.actor,
        label=step.label[:160],
        rolled=step.rolled,
        final=step.final,
        revealed=step.revealed,
        campaign_version_before=version,
        campaign_version_after=version,
        turns={"before": before, "after": after} if keep else None,
    )
    pruning = pruned(campaign_id, [{"id": created.id}])
    if pruning is not None:
        await fetch(*pruning)


def pruned(campaign_id: int, inserted: list[dict[str, Any]]) -> Statement | None:
    """Now and then (by the new step's id), the statement keeping the campaign's newest
    steps only, so a step costs one statement."""
    if int(inserted[0]["id"]) % PRUNE_EVERY == 0:
        return _PRUNE, (campaign_id, campaign_id, KEPT - 1)
    return None


def step_row(
    system: GameSystem,
    campaign_id: int,
    actor: int,
    kind: str,
    action: str,
    rolled: bool,
    *,
    before: Table,
    outcome: Outcome,
    member_ids: dict[int, int],
    campaign_version_after: int,
    panel: PanelBefore | None = None,
    opened: bool = False,
) -> tuple[StepTaken, Statement]:
    """What a step replaced, as the statement that keeps it (run in the use case's
    transaction; :func:`pruned` on what it returns), and the step.

    Args:
        kind: the panel's kind, or "" for a Mini App edit.
        rolled: the step drew on chance (:class:`core.rules.undo.TallyRng`).
        before: the table before the step.
        outcome: what the step did.
        opened: the step opened a panel: it stands (a new procedure has begun on
            top of what came before, so that stands too).
    """
    step = system.undo.step(
        actor, kind, action, rolled, outcome.events, finished=panel is not None and outcome.closed
    )
    if opened:
        step = replace(step, label=OPENED, final=True)
    # a step that stands needs no before-images
    keep = not (step.rolled or step.final or step.revealed)
    changed_campaign = outcome.campaign_state is not None
    sheets = (
        {str(member_ids[p]): dict(before.seats[p].sheet) for p in outcome.sheets} if keep else {}
    )
    return step, (
        _INSERT,
        (
            campaign_id,
            step.actor,
            step.label[:160],
            step.rolled,
            step.final,
            step.revealed,
            False,
            dump_json(dict(before.state)) if keep and changed_campaign else None,
            # a step that changed the campaign bumped its version once (core.campaigns._settle)
            campaign_version_after - changed_campaign,
            campaign_version_after,
            dump_json(sheets),
            None if panel is None else panel.panel_id,
            None if panel is None or not keep else panel.text or dump_json(dict(panel.state)),
            False if panel is None else panel.closed,
            None if panel is None else panel.version_after - 1,
            None if panel is None else panel.version_after,
            now(),
        ),
    )


_INSERT = (
    "INSERT INTO undo_step (campaign_id, actor_tg_id, label, rolled, final, revealed, undone,"
    " campaign_state, campaign_version_before, campaign_version_after, sheets, panel_id,"
    " panel_state, panel_closed, panel_version_before, panel_version_after, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)

# Keep the campaign's newest KEPT steps, in one statement.
_PRUNE = (
    "DELETE FROM undo_step WHERE campaign_id = ? AND id < ("
    "SELECT id FROM undo_step WHERE campaign_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)"
)


def undo_after(step: StepTaken) -> Choice[Common] | None:
    """The ``↩ Undo`` the rules offer on the panel ``step`` was just taken on."""
    return undo_choice((step,))


@dataclass(frozen=True)
class StepRow:
    """An undo step as :data:`NEWEST` reads it (what :class:`Offers` looks at)."""

    actor_tg_id: int
    label: str
    rolled: bool
    final: bool
    revealed: bool
    panel_id: int | None
    panel_version_after: int | None
    campaign_version_after: int


# The campaign's two newest live steps (where a ↩ Undo may show), newest first.
NEWEST = (
    "SELECT actor_tg_id, label, rolled, final, revealed, panel_id, panel_version_after,"
    " campaign_version_after FROM undo_step WHERE campaign_id = ? AND undone = ?"
    " ORDER BY id DESC LIMIT 2"
)


def _taken(row: UndoStep | StepRow) -> StepTaken:
    return StepTaken(row.actor_tg_id, row.label, row.rolled, row.final, row.revealed)


def _offer_on(
    latest: UndoStep | StepRow | None,
    panel_id: int,
    version: int,
    campaign_version: int | None = None,
) -> Choice[Common] | None:
    """The rules' ``↩ Undo`` for a panel drawn at ``version``: only where the campaign's
    latest step was taken, as the panel was drawn right after it, and while nothing
    else moved the campaign on (``campaign_version``, when known): shown only while
    pressing it would work."""
    if latest is None or (latest.panel_id, latest.panel_version_after) != (panel_id, version):
        return None
    if campaign_version is not None and latest.campaign_version_after != campaign_version:
        return None
    return undo_choice((_taken(latest),))


async def undo_offer(
    panel_id: int, version: int, campaign_id: int, campaign_version: int | None = None
) -> Choice[Common] | None:
    """As :func:`_offer_on`, reading the campaign's latest step."""
    latest = await UndoStep.filter(campaign_id=campaign_id, undone=False).order_by("-id").first()
    return _offer_on(latest, panel_id, version, campaign_version)


@dataclass(frozen=True)
class Offers:
    """Where a ``↩ Undo`` may show: the campaign's two newest live steps, newest first."""

    steps: tuple[UndoStep | StepRow, ...]

    @staticmethod
    def newest(campaign_id: int) -> Statement:
        """The statement whose rows :meth:`read` takes."""
        return NEWEST, (campaign_id, False)

    @classmethod
    def read(cls, rows: list[dict[str, Any]]) -> Offers:
        """The offers in the rows of :meth:`newest`."""
        return cls(
            tuple(
                StepRow(
                    int(r["actor_tg_id"]),
                    r["label"],
                    bool(r["rolled"]),
                    bool(r["final"]),
                    bool(r["revealed"]),
                    None if r["panel_id"] is None else int(r["panel_id"]),
                    None if r["panel_version_after"] is None else int(r["panel_version_after"]),
                    int(r["campaign_version_after"]),
                )
                for r in rows
            )
        )

    @property
    def panels(self) -> frozenset[int]:
        """Panels that offered or now offer a step back: a change redraws them."""
        return frozenset(s.panel_id for s in self.steps if s.panel_id is not None)

    def undo(
        self, panel_id: int, version: int, campaign_version: int | None = None
    ) -> Choice[Common] | None:
        """As :func:`undo_offer`, for a panel drawn at ``version``."""
        latest = self.steps[0] if self.steps else None
        return _offer_on(latest, panel_id, version, campaign_version)


def history(rows: list[UndoStep]) -> list[StepTaken]:
    return [_taken(r) for r in rows]
