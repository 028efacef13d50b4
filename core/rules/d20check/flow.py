"""A check as a small state machine the bot can drive one button at a time.

Phases::

    SETUP --roll--> ROLLER_DECIDES --keep--> GM_DECIDES --keep--> RESOLVED
                     ^    | retry / reroll       ^    | forced reroll
                     +----+                      +----+

* SETUP: the roller changes the setup and target, then rolls.
* ROLLER_DECIDES (a player's check only): the roller may spend a lucky point
  to retry a failure, and any player at the table (the roller too) may spend
  an unlucky point to reroll a success. There is no limit per check: after
  each roll the same choices come back as long as the pool has a point of the
  kind needed (ruling 25). The roller ends this phase by keeping the result.
* GM_DECIDES: on a player's check whose roller spent no point themselves, the
  Game Master may spend an unlucky point to force a reroll; on their own
  check, they may spend one to reroll it, whatever the result. Again as long
  as the pool has an unlucky point (ruling 25). Or they let the result stand.
* RESOLVED: the last roll stands; band strain is added to the roller's sheet.

A phase in which the person deciding has nothing to choose but "keep" is
skipped at once, so buttons are only ever shown for a real choice.

Invariants:
    * Only the roller, the Game Master and (to reroll a player's success) the
      table's other players ever act; other people get :class:`NotYourTurn`.
      An action that belongs to the right person but is not allowed now gets
      :class:`NotAllowedNow`. A refused action
      changes nothing and draws no dice.
    * Spending and natural 1/20 only turn points, so the pool size is constant.
    * A natural 1 or 20 turns a point on every roll of a player's check
      (first roll, retry, reroll, forced reroll), never on the Game Master's own.
    * ``allowed_actions`` is exactly what ``act`` accepts, for every person.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum

from core.rules.catalogue import N_
from core.rules.choice import Choice
from core.rules.d20check.check import (
    CheckResult,
    CheckRoll,
    CheckSetup,
    Difficulty,
    Opposition,
    Target,
    resolve,
    roll_check,
    target_from_dict,
    target_to_dict,
)
from core.rules.d20check.events import CheckResolved, Event, PlotPointSpent, Rolled, RollReason
from core.rules.d20check.naturals import natural_effects
from core.rules.d20check.plot_points import PlotPointKind, PlotPointPool
from core.rules.d20check.sheet import CharacterSheet
from core.rules.d20check.wounds import strain_from_check
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn, StonetableError
from core.rules.rng import Rng

STATE_VERSION = 1


class Phase(Enum):
    SETUP = "setup"
    ROLLER_DECIDES = "roller_decides"
    GM_DECIDES = "gm_decides"
    RESOLVED = "resolved"


class ActionKind(Enum):
    """Every button a check can show."""

    SET_UP = "set_up"  # roller, before rolling
    ROLL = "roll"  # roller, before rolling
    RETRY = "retry"  # roller: spend a lucky point after a failure
    REROLL = "reroll"  # any player: spend an unlucky point after a player's success
    KEEP = "keep"  # whoever decides now: spend nothing, the result stands
    FORCE_REROLL = "force_reroll"  # Game Master, on a player's check the player spent nothing on
    GM_REROLL = "gm_reroll"  # Game Master, on their own check


_ROLLER_ACTIONS = frozenset({ActionKind.SET_UP, ActionKind.ROLL, ActionKind.RETRY})
_GM_ACTIONS = frozenset({ActionKind.FORCE_REROLL, ActionKind.GM_REROLL})


@dataclass(frozen=True)
class Step:
    """The result of one accepted action."""

    check: CheckFlow
    pool: PlotPointPool
    sheet: CharacterSheet | None
    events: tuple[Event, ...]


@dataclass(frozen=True)
class CheckFlow:
    """One check in progress, from setup to the result that stands.

    Attributes:
        roller: who makes the check (the Game Master for their own checks).
        game_master: the campaign's Game Master.
        target: the difficulty or the opposing result.
        setup: ability strength, proficiency, advantages, disadvantages.
        phase: where the check is.
        rolls: every roll so far, oldest first; the last one counts.
        roller_spent: the kind of the last point the roller spent, if any.
        roller_kept: the roller chose to let the result stand.
        gm_spent: the Game Master spent a point on this check.
        players: the table's other players, who may spend an unlucky point to
            reroll the roller's success (ruling 25).
    """

    roller: int
    game_master: int
    target: Target
    setup: CheckSetup = field(default_factory=CheckSetup)
    phase: Phase = Phase.SETUP
    rolls: tuple[CheckRoll, ...] = ()
    roller_spent: PlotPointKind | None = None
    roller_kept: bool = False
    gm_spent: bool = False
    players: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if not isinstance(self.setup, CheckSetup):
            raise Malformed("That is not a check setup.")
        if not isinstance(self.target, Difficulty | Opposition):
            raise Malformed("That is not a difficulty or an opposing result.")
        if (self.phase is Phase.SETUP) == bool(self.rolls):
            raise Malformed("A check is rolled exactly when it is past its setup.")
        if self.players & {self.roller, self.game_master}:
            raise Malformed("The other players are neither the roller nor the Game Master.")

    @classmethod
    def open(
        cls,
        roller: int,
        game_master: int,
        target: Target | None = None,
        setup: CheckSetup | None = None,
        players: Iterable[int] = (),
    ) -> CheckFlow:
        """Start a check; the target defaults to difficulty 10.

        ``players`` are the table's players; the roller and the Game Master
        are left out of them, whoever passes them in.
        """
        return cls(
            roller=roller,
            game_master=game_master,
            target=target if target is not None else Difficulty(10),
            setup=setup if setup is not None else CheckSetup(),
            players=frozenset(players) - {roller, game_master},
        )

    @property
    def is_gm_check(self) -> bool:
        """True when the Game Master makes the check (no player's plot point rules)."""
        return self.roller == self.game_master

    @property
    def result(self) -> CheckResult | None:
        """The result that counts now, or None before the roll."""
        return resolve(self.rolls[-1], self.target) if self.rolls else None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.RESOLVED

    # -- who may do what ---------------------------------------------------

    def allowed_actions(self, actor: int, pool: PlotPointPool) -> frozenset[ActionKind]:
        """The buttons to show ``actor`` now, given the current pool."""
        return self.who_may_act(pool).get(actor, frozenset())

    def who_may_act(self, pool: PlotPointPool) -> Mapping[int, frozenset[ActionKind]]:
        """Everyone who may act now and what they may do; nobody else may."""
        if self.phase is Phase.SETUP:
            return {self.roller: frozenset({ActionKind.SET_UP, ActionKind.ROLL})}
        if self.phase is Phase.ROLLER_DECIDES:
            out = {self.roller: self._roller_spends(pool) | {ActionKind.KEEP}}
            if self._success_rerollable(pool):
                out.update({p: frozenset({ActionKind.REROLL}) for p in self.players})
            return out
        if self.phase is Phase.GM_DECIDES:
            return {self.game_master: self._gm_spends(pool) | {ActionKind.KEEP}}
        return {}

    def choices(self, pool: PlotPointPool) -> tuple[Choice[ActionKind], ...]:
        """The legal choices now, one per kind of action, each with who may take it."""
        by: dict[ActionKind, set[int]] = {}
        for person, kinds in self.who_may_act(pool).items():
            for kind in kinds:
                by.setdefault(kind, set()).add(person)
        return tuple(Choice(kind, by=frozenset(by[kind])) for kind in ActionKind if kind in by)

    def _success_rerollable(self, pool: PlotPointPool) -> bool:
        """A player's success that anyone at the table may reroll now (ruling 25)."""
        result = self.result
        return (
            not self.is_gm_check
            and not self.roller_kept
            and result is not None
            and result.succeeded
            and pool.has(PlotPointKind.UNLUCKY)
        )

    def _roller_spends(self, pool: PlotPointPool) -> frozenset[ActionKind]:
        result = self.result
        if self.is_gm_check or result is None or self.roller_kept:
            return frozenset()
        if not result.succeeded and pool.has(PlotPointKind.LUCKY):
            return frozenset({ActionKind.RETRY})
        if self._success_rerollable(pool):
            return frozenset({ActionKind.REROLL})
        return frozenset()

    def _players_may_spend(self, pool: PlotPointPool) -> bool:
        return bool(self._roller_spends(pool)) or (
            bool(self.players) and self._success_rerollable(pool)
        )

    def _gm_spends(self, pool: PlotPointPool) -> frozenset[ActionKind]:
        if self.result is None or not pool.has(PlotPointKind.UNLUCKY):
            return frozenset()
        if self.is_gm_check:
            return frozenset({ActionKind.GM_REROLL})
        if self.roller_spent is None:
            return frozenset({ActionKind.FORCE_REROLL})
        return frozenset()

    # -- acting ---------------------------------------------------------------

    def set_up(self, actor: int, setup: CheckSetup, target: Target | None = None) -> CheckFlow:
        """Change the setup (and optionally the target) before rolling.

        Raises:
            NotYourTurn: ``actor`` is not the roller.
            NotAllowedNow: the dice are already rolled.
            Malformed: ``setup`` or ``target`` is not a setup or target.
        """
        if not isinstance(setup, CheckSetup):
            raise Malformed("That is not a check setup.")
        if target is not None and not isinstance(target, Difficulty | Opposition):
            raise Malformed("That is not a difficulty or an opposing result.")
        self._require(actor, ActionKind.SET_UP, None)
        return replace(self, setup=setup, target=target if target is not None else self.target)

    def act(
        self,
        actor: int,
        action: ActionKind,
        *,
        pool: PlotPointPool,
        rng: Rng,
        sheet: CharacterSheet | None = None,
    ) -> Step:
        """Do one action other than SET_UP.

        Args:
            actor: the person pressing the button.
            action: what they do.
            pool: the campaign's plot point pool as it is now.
            rng: where dice come from (only drawn from if the action is accepted).
            sheet: the roller's sheet, to add band strain when the check ends;
                None for a check without a sheet (such as the Game Master's).

        Raises:
            NotYourTurn: the action belongs to someone else.
            NotAllowedNow: the action is not allowed at this point.
            Malformed: SET_UP (use :meth:`set_up`) or not an action.
        """
        if not isinstance(action, ActionKind):
            raise Malformed("That is not something you can do in a check.")
        if action is ActionKind.SET_UP:
            raise Malformed("Change the setup with the setup buttons.")
        self._require(actor, action, pool)
        events: list[Event] = []
        check = self
        if action is ActionKind.ROLL:
            phase = Phase.GM_DECIDES if self.is_gm_check else Phase.ROLLER_DECIDES
            check, pool = check._roll(RollReason.FIRST, phase, pool, rng, events)
        elif action in (ActionKind.RETRY, ActionKind.REROLL):
            kind = PlotPointKind.LUCKY if action is ActionKind.RETRY else PlotPointKind.UNLUCKY
            pool = pool.spend(kind)
            events.append(PlotPointSpent(actor, kind))
            reason = RollReason.RETRY if action is ActionKind.RETRY else RollReason.REROLL
            if actor == check.roller:
                check = replace(check, roller_spent=kind)
            check, pool = check._roll(reason, Phase.ROLLER_DECIDES, pool, rng, events)
        elif action is ActionKind.KEEP:
            if check.phase is Phase.ROLLER_DECIDES:
                check = replace(check, roller_kept=True, phase=Phase.GM_DECIDES)
            else:
                check = replace(check, phase=Phase.RESOLVED)
        else:  # FORCE_REROLL or GM_REROLL
            pool = pool.spend(PlotPointKind.UNLUCKY)
            events.append(PlotPointSpent(actor, PlotPointKind.UNLUCKY))
            reason = (
                RollReason.FORCED_REROLL
                if action is ActionKind.FORCE_REROLL
                else RollReason.GM_REROLL
            )
            check = replace(check, gm_spent=True)
            check, pool = check._roll(reason, Phase.GM_DECIDES, pool, rng, events)
        check, sheet = check._settle(pool, sheet, events)
        return Step(check=check, pool=pool, sheet=sheet, events=tuple(events))

    def _roll(
        self,
        reason: RollReason,
        phase: Phase,
        pool: PlotPointPool,
        rng: Rng,
        events: list[Event],
    ) -> tuple[CheckFlow, PlotPointPool]:
        """Roll once more, move to ``phase``, and turn points on a natural."""
        roll = roll_check(self.setup, rng)
        check = replace(self, rolls=(*self.rolls, roll), phase=phase)
        result = resolve(roll, self.target)
        events.append(Rolled(reason, result))
        if not self.is_gm_check:
            pool, natural_events = natural_effects(pool, result)
            events.extend(natural_events)
        return check, pool

    def _settle(
        self, pool: PlotPointPool, sheet: CharacterSheet | None, events: list[Event]
    ) -> tuple[CheckFlow, CharacterSheet | None]:
        """Skip phases with nothing to choose; on resolving, add band strain."""
        check = self
        if check.phase is Phase.ROLLER_DECIDES and not check._players_may_spend(pool):
            check = replace(check, phase=Phase.GM_DECIDES)
        if check.phase is Phase.GM_DECIDES and not check._gm_spends(pool):
            check = replace(check, phase=Phase.RESOLVED)
        if check.phase is Phase.RESOLVED:
            result = check.result
            assert result is not None
            if sheet is not None and not check.is_gm_check:
                strain = strain_from_check(sheet.band, result.succeeded)
                if strain:
                    sheet, harm = sheet.take_harm(strain=strain)
                    events.append(harm)
            events.append(CheckResolved(result))
        return check, sheet

    # -- refusals ---------------------------------------------------------

    def _require(self, actor: int, action: ActionKind, pool: PlotPointPool | None) -> None:
        if pool is None:
            allowed = self.phase is Phase.SETUP and actor == self.roller
        else:
            allowed = action in self.allowed_actions(actor, pool)
        if not allowed:
            raise refusal(self, actor, action, pool)

    # -- storage ----------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict; :meth:`from_dict` reverses it."""
        return {
            "v": STATE_VERSION,
            "roller": self.roller,
            "game_master": self.game_master,
            "target": target_to_dict(self.target),
            "setup": self.setup.to_dict(),
            "phase": self.phase.value,
            "rolls": [roll.to_dict() for roll in self.rolls],
            "roller_spent": None if self.roller_spent is None else self.roller_spent.value,
            "roller_kept": self.roller_kept,
            "gm_spent": self.gm_spent,
            "players": sorted(self.players),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> CheckFlow:
        """Rebuild a check from :meth:`to_dict` output.

        Raises:
            Malformed: unknown version, missing or invalid fields.
        """
        return _read_check(data)


# -- refusals ---------------------------------------------------------------


def _owner(check: CheckFlow, action: ActionKind) -> int | None:
    """The one person whose action ``action`` is now, if it is one person's."""
    if action in _ROLLER_ACTIONS:
        return check.roller
    if action in _GM_ACTIONS:
        return check.game_master
    if action is ActionKind.REROLL:
        return check.roller if check.is_gm_check else None
    if check.phase is Phase.ROLLER_DECIDES:
        return check.roller
    if check.phase is Phase.GM_DECIDES:
        return check.game_master
    return None


def refusal(
    check: CheckFlow, actor: int, action: ActionKind, pool: PlotPointPool | None
) -> StonetableError:
    """Why ``actor`` may not take ``action`` now: not their turn, or not allowed now."""
    may_reroll = actor in check.players and action is ActionKind.REROLL
    if actor not in (check.roller, check.game_master) and not (
        may_reroll and not check.is_gm_check
    ):
        return NotYourTurn("This is someone else's check.")
    if check.phase is Phase.RESOLVED:
        return NotAllowedNow("This check is already over.")
    if action is ActionKind.REROLL and actor == check.game_master and not check.is_gm_check:
        return NotYourTurn("Players reroll a success; the Game Master forces a reroll.")
    owner = _owner(check, action)
    if owner is not None and owner != actor:
        if owner == check.game_master:
            return NotYourTurn("Only the Game Master can do that.")
        return NotYourTurn("Only the player making the check can do that.")
    return NotAllowedNow(_reason(check, action, pool))


def _reason(check: CheckFlow, action: ActionKind, pool: PlotPointPool | None) -> str:
    """What stops ``action`` now, said to the person whose action it is."""
    result = check.result
    if action in (ActionKind.SET_UP, ActionKind.ROLL):
        return N_("The dice are already rolled.")
    if result is None:
        return N_("Roll the dice first.")
    if action in (ActionKind.RETRY, ActionKind.REROLL):
        if check.is_gm_check:
            return N_("On your own checks, reroll with an unlucky plot point instead.")
        if check.roller_kept:
            return N_("The player already kept this result.")
        if action is ActionKind.RETRY and result.succeeded:
            return N_("A lucky retry is only for a failed check.")
        if action is ActionKind.REROLL and not result.succeeded:
            return N_("An unlucky reroll is only for a successful check.")
        kind = PlotPointKind.LUCKY if action is ActionKind.RETRY else PlotPointKind.UNLUCKY
        if pool is not None and not pool.has(kind):
            if kind is PlotPointKind.LUCKY:
                return N_("There is no lucky plot point left.")
            return N_("There is no unlucky plot point left.")
        return N_("The result already stands.")
    if action is ActionKind.FORCE_REROLL and check.is_gm_check:
        return N_("This is your own check: reroll it instead.")
    if action is ActionKind.GM_REROLL and not check.is_gm_check:
        return N_("To make a player roll again, force a reroll.")
    if check.roller_spent is not None:
        return N_("The player spent a plot point, so the result stands.")
    if check.phase is not Phase.GM_DECIDES:
        return N_("The player is still deciding.")
    return N_("There is no unlucky plot point left.")


def _read_check(data: Mapping[str, object]) -> CheckFlow:
    """A saved check of this version, its phase agreeing with its rolls."""
    if data.get("v") != STATE_VERSION:
        raise Malformed("That saved check is from another version.")
    try:
        check = _read_fields(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise Malformed("That saved check could not be read.") from exc
    rolled = check.phase is not Phase.SETUP
    if rolled != bool(check.rolls):
        raise Malformed("That saved check could not be read.")
    if any(roll.setup != check.setup for roll in check.rolls):
        raise Malformed("That saved check could not be read.")
    return check


def _read_fields(data: Mapping[str, object]) -> CheckFlow:
    """The check's fields, each of its type (KeyError, TypeError, ValueError otherwise)."""
    roller, game_master = data["roller"], data["game_master"]
    target_data, setup_data, rolls_data = data["target"], data["setup"], data["rolls"]
    spent, kept, gm_spent = data["roller_spent"], data["roller_kept"], data["gm_spent"]
    players = data.get("players", [])
    if not (
        isinstance(roller, int)
        and isinstance(game_master, int)
        and isinstance(target_data, Mapping)
        and isinstance(setup_data, Mapping)
        and isinstance(rolls_data, list)
        and isinstance(kept, bool)
        and isinstance(gm_spent, bool)
        and all(isinstance(roll, Mapping) for roll in rolls_data)
        and isinstance(players, list)
        and all(isinstance(p, int) and not isinstance(p, bool) for p in players)
    ):
        raise TypeError("bad field")
    return CheckFlow(
        roller=roller,
        game_master=game_master,
        target=target_from_dict(target_data),
        setup=CheckSetup.from_dict(setup_data),
        phase=Phase(data["phase"]),
        rolls=tuple(CheckRoll.from_dict(roll) for roll in rolls_data),
        roller_spent=None if spent is None else PlotPointKind(spent),
        roller_kept=kept,
        gm_spent=gm_spent,
        players=frozenset(players),
    )
