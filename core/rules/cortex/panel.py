"""The ``cortex.conflict`` panel: one Test, Contest or Stress Relief in one message.

The conflict itself lives in the campaign state (so the Mini App and every
panel see the same table); the panel's state ties it to its conflict by the
campaign's conflict counter and keeps what only the message needs: the
opposition dice the Watchtower is choosing and a short log of the exchanges.

Buttons carry short arguments: indexes into the roller's trait lists (``v0``
a Value, ``c0`` that Value challenged, ``r0`` a Relationship, ``a0`` an Asset,
``s0`` the opponent's Stress, ``l0`` their Limit, ``d0`` one of the roller's
Useful Details), a die size, or an index into a list the rules keep. Useful
Details and Aid need words, so they arrive as text (a reply to the message).

Invariants: who may press what comes from :func:`~.allowed.allowed_actions`;
a press by anyone else raises :class:`NotYourTurn` before anything is built;
the panel closes when its conflict is over and no 1 is left to use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from typing import Any

from core.rules.catalogue import N_
from core.rules.choice import Choice as GenericChoice
from core.rules.cortex import actions as a
from core.rules.cortex import log as conflict_log
from core.rules.cortex.allowed import ActionKind, allowed_actions
from core.rules.cortex.campaign import Loaded, load, saved
from core.rules.cortex.contest import apply
from core.rules.cortex.dice import Die
from core.rules.cortex.log import Entry
from core.rules.cortex.odds import MAX_ODDS_DICE, result_counts
from core.rules.cortex.pool import Pick, PickKind, draft_dice
from core.rules.cortex.state import AidKind, Conflict, Kind, Phase
from core.rules.cortex.state import Table as CortexTable
from core.rules.cortex.traits import Role, Sheet, same_name
from core.rules.cortex.turns import Step, opponent_of
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, current
from core.rules.table import Table as PlatformTable
from core.rules.waiting import Waiting, waiting

CONFLICT_PANEL = "cortex.conflict"
PANEL_VERSION = 1
MAX_LOG = 12
MAX_STAGED = 12
OVER = "That roll is over. Start a new one with /test or /contest."
OUTDATED = "That button is out of date. Use the latest message."
_FROM_TROUBLE = re.compile(
    r"^(?P<die>[dDдДкК]\d{1,2})\s+from\s+trouble\s*[:,-]?\s*(?P<name>\S.*)$", re.IGNORECASE
)


class Press(Enum):
    """The panel's buttons (and reply commands), by the action they send."""

    OPPOSITION_ADD = "opp.add"
    OPPOSITION_UNDO = "opp.undo"
    OPPOSITION_ROLL = "opp.roll"
    STRESS_OPPOSITION = "stress.opp"
    OPEN_POOL = "pool.open"  # the list of dice for the pool, a sub-step with Back
    BACK = "back"
    ADD = "add"
    REMOVE = "rm"
    RESOURCE = "res"
    DETAIL = "detail"  # text
    AID = "aid"  # text
    TEXT = "text"  # a reply to the message: a Useful Detail or Aid, read by :func:`read_text`
    ROLL = "roll"
    INCLUDE = "include"
    SETTLE = "settle"
    GIVE_IN = "givein"
    TAKE_STRESS = "stress.take"
    INFLICT = "inflict"
    STRESSED_OUT = "out"
    INTERFERE = "interfere"
    VOTE = "vote"
    COMPLICATION = "complication"
    CANCEL_TROUBLE = "cancel"
    END_SCENE = "end"
    CLOSE = "close"


_KIND_OF: dict[Press, ActionKind] = {
    Press.OPPOSITION_ADD: a.SetOpposition,
    Press.OPPOSITION_UNDO: a.SetOpposition,
    Press.OPPOSITION_ROLL: a.SetOpposition,
    Press.STRESS_OPPOSITION: a.RollStressOpposition,
    Press.OPEN_POOL: a.AddToPool,
    Press.BACK: a.AddToPool,
    Press.ADD: a.AddToPool,
    Press.REMOVE: a.RemoveFromPool,
    Press.RESOURCE: a.UseResource,
    Press.DETAIL: a.CreateDetail,
    Press.AID: a.OfferAid,
    Press.ROLL: a.RollPool,
    Press.INCLUDE: a.IncludeDie,
    Press.SETTLE: a.Settle,
    Press.GIVE_IN: a.GiveIn,
    Press.TAKE_STRESS: a.TakeStress,
    Press.INFLICT: a.InflictStress,
    Press.STRESSED_OUT: a.DeclareStressedOut,
    Press.INTERFERE: a.Interfere,
    Press.VOTE: a.Vote,
    Press.COMPLICATION: a.ActivateComplication,
    Press.CANCEL_TROUBLE: a.CancelTrouble,
    Press.END_SCENE: a.EndScene,
}
_WATCHTOWER_ONLY = frozenset({a.SetOpposition, a.ActivateComplication, a.EndScene, a.EndEpisode})
_CODES = {
    "v": PickKind.VALUE,
    "c": PickKind.VALUE,
    "r": PickKind.RELATIONSHIP,
    "a": PickKind.ASSET,
    "s": PickKind.OPPONENT_STRESS,
    "l": PickKind.OPPONENT_LIMIT,
    "d": PickKind.DETAIL,
}


Choice = GenericChoice[Press]
"""One button someone may press now (``who``: the character it is for, "" for the Watchtower)."""


@dataclass(frozen=True)
class ConflictView:
    """Everything the bot shows of a conflict: data, not text."""

    table: CortexTable
    conflict: Conflict | None
    staged: tuple[Die, ...]
    log: tuple[Entry, ...]
    choices: tuple[Choice, ...]
    waiting: tuple[str, ...]  # characters the roll waits for; "" is the Watchtower
    pool: tuple[tuple[Die, str], ...]  # the pool being built, die by die
    cost: int  # Plot Points the pool's extras cost when rolled
    chance: Fraction | None  # chance the pool beats the number to beat (no Aid)
    current: bool  # the campaign's conflict is still this panel's

    def sheet(self, name: str) -> Sheet | None:
        return self.table.find(name)


# --- panel state ------------------------------------------------------------------


_IN_LIST = frozenset({Press.ADD, Press.REMOVE, Press.RESOURCE, Press.BACK})
_LIST_OPEN = N_("The list of dice is open: pick from it or tap Back first.")
_LIST_CLOSED = N_("The list of dice was closed: tap Add to the pool to open it again.")


def _picking_now(pick: bool, c: Conflict | None) -> bool:
    """Whether the list of dice is open (a sub-step while the pool is being built)."""
    return pick and c is not None and c.phase is Phase.BUILDING


@dataclass(frozen=True)
class ConflictState:
    """A conflict panel's stored state, read.

    Attributes:
        number: which of the campaign's conflicts this panel shows.
        staged: the opposition's dice staged for the roll.
        log: what happened on this panel, newest last.
        pick: the list of dice to add is open.
    """

    number: int
    staged: tuple[Die, ...]
    log: tuple[Entry, ...]
    pick: bool = False

    @classmethod
    def from_dict(cls, state: Json) -> ConflictState:
        """Raises: Malformed: the stored state is damaged or of an older version."""
        return cls(*_read(state), pick=bool(state.get("pick")))

    def to_dict(self) -> dict[str, Any]:
        """The state as stored (its log cut to the newest entries)."""
        return _write(self.number, self.staged, self.log, self.pick)


def _read(state: Json) -> tuple[int, tuple[Die, ...], tuple[Entry, ...]]:
    try:
        if state.get("v") != PANEL_VERSION:
            raise Malformed(OUTDATED)
        number = state["no"]
        if not isinstance(number, int):
            raise Malformed(OUTDATED)
        staged = tuple(Die.parse(d) for d in state.get("opp", []))
        log = tuple(conflict_log.entry(e) for e in state.get("log", []))
    except (KeyError, TypeError, AttributeError):
        raise Malformed(OUTDATED) from None
    return number, staged, log


def _write(
    number: int, staged: tuple[Die, ...], log: tuple[Entry, ...], pick: bool = False
) -> dict[str, Any]:
    return {
        "v": PANEL_VERSION,
        "no": number,
        "opp": [int(d) for d in staged],
        "log": [conflict_log.record(e) for e in log[-MAX_LOG:]],
        "pick": pick,
    }


def _entries(events: tuple[a.Event, ...]) -> tuple[Entry, ...]:
    found: list[Entry] = []
    for e in events:
        if isinstance(e, a.OppositionRolled):
            faces = " ".join(f"{r.die.label}:{r.face}" for r in e.dice)
            found.append(conflict_log.OppositionRolled(result=e.result, dice=faces))
        elif isinstance(e, a.PoolRolled):
            found.append(conflict_log.PoolRolled(roller=e.roll.roller, result=e.result))
        elif isinstance(e, a.DieIncluded):
            found.append(conflict_log.DieIncluded(roller=e.roller, result=e.result))
        elif isinstance(e, a.ActionSet):
            found.append(
                conflict_log.ActionSet(actor=e.actor, action=e.result, took_over=e.swapped)
            )
        elif isinstance(e, a.ActorWon):
            found.append(conflict_log.ActorHeld(actor=e.actor, reactor=e.reactor, margin=e.margin))
        elif isinstance(e, a.ConflictEnded):
            found.append(
                conflict_log.ConflictEnded(
                    winner=e.winner, loser=e.loser, margin=e.margin, ending=e.ending
                )
            )
        elif isinstance(e, a.PlotPointsPaid):
            found.append(
                conflict_log.PlotPointsPaid(
                    payer=e.payer, payee=e.payee, points=e.amount, reason=e.reason
                )
            )
        elif isinstance(e, a.DetailCreated):
            found.append(
                conflict_log.DetailCreated(
                    owner=e.owner, name=e.name, die=e.die, from_trouble=e.from_trouble
                )
            )
        elif isinstance(e, a.ValueChallenged):
            found.append(
                conflict_log.ValueChallenged(character=e.character, value=e.value, growth=e.die)
            )
        elif isinstance(e, a.StressInflicted):
            ch = e.change
            found.append(
                conflict_log.StressTaken(
                    inflicter=e.inflicter,
                    target=ch.target,
                    stress_type=ch.type,
                    die=ch.after,
                    stepped_up=ch.stepped_up,
                )
            )
        elif isinstance(e, a.StressRolled) and e.size is None:
            found.append(conflict_log.StressMissed(inflicter=e.inflicter))
        elif isinstance(e, a.StressedOut):
            found.append(conflict_log.StressedOut(character=e.character))
        elif isinstance(e, a.Relieved):
            found.append(
                conflict_log.StressRelieved(
                    friend=e.friend, stress_type=e.stress_type, growth=e.growth
                )
            )
        elif isinstance(e, a.ComplicationActivated):
            found.append(conflict_log.ComplicationActivated(owner=e.owner, die=e.die))
        elif isinstance(e, a.TroubleCancelled):
            found.append(conflict_log.TroubleCancelled(by=e.by, removed=e.removed))
        elif isinstance(e, a.InterferenceRolled):
            found.append(
                conflict_log.Interfered(interferer=e.interferer, result=e.result, stopped=e.stopped)
            )
        elif isinstance(e, a.ContestResumed):
            found.append(conflict_log.ContestResumed(order=", ".join(e.order)))
        elif isinstance(e, a.SceneEnded):
            found.append(conflict_log.SceneEnded(episode=e.episode))
    return tuple(found)


# --- reading names and arguments ---------------------------------------------------


def character(ct: CortexTable, name: str) -> Sheet:
    """The character called ``name``, with the table's names in the refusal."""
    found = ct.find(" ".join(name.split()))
    if found is None:
        names = ", ".join(s.name for s in ct.sheets)
        if not names:
            raise NotAllowedNow(
                "There is no “{name}” here. At this table: nobody yet.", name=name[:60]
            )
        raise NotAllowedNow(
            "There is no “{name}” here. At this table: {names}.", name=name[:60], names=names
        )
    return found


def _own_lead(ct: CortexTable, actor: int, what: str) -> str:
    lead = ct.lead_of(actor)
    if lead is None:
        raise NotAllowedNow(what)
    return lead


NO_TRAITS = N_(
    "{name} has no traits yet, so there are no dice to roll. Write them first: "
    "/trait value Justice d8, /trait asset Old car d6 (or on the sheet, /sheet)."
)


def _with_dice(ct: CortexTable, name: str) -> str:
    """``name``, once a Lead of that name has something to roll: a Value, a Relationship,
    an Asset, a Resource or a Useful Detail of their own.

    Raises:
        NotAllowedNow: a Lead with none of them (the pool would stay empty).
    """
    sheet = ct.find(name)
    if sheet is None or sheet.role is not Role.LEAD:
        return name
    if sheet.values or sheet.relationships or sheet.assets or sheet.resources:
        return name
    if any(same_name(d.owner, sheet.name) for d in ct.details):
        return name
    raise NotAllowedNow(NO_TRAITS, name=sheet.name)


def start_action(ct: CortexTable, actor: int, argument: str) -> a.Action:
    """Read ``test [who]``, ``contest [who vs] whom`` or ``relief <friend> <Stress type>``.

    Raises:
        Malformed: none of those.
        NotAllowedNow: a name that is not at the table.
    """
    word, _, rest = argument.strip().partition(" ")
    rest = rest.strip()
    word = word.lower()
    if word == "test":
        return a.StartTest(
            _with_dice(
                ct,
                character(ct, rest).name if rest else _own_lead(ct, actor, N_("Name who tests.")),
            )
        )
    if word == "contest":
        if not rest:
            raise Malformed("Name the opponent: /contest Lex (or /contest Lex vs Clark).")
        first, sep, second = rest.partition(" vs ")
        if sep:
            return a.StartContest(
                _with_dice(ct, character(ct, first).name),
                _with_dice(ct, character(ct, second).name),
            )
        return a.StartContest(
            _with_dice(ct, _own_lead(ct, actor, N_("Name who acts."))),
            _with_dice(ct, character(ct, rest).name),
        )
    if word == "relief":
        friend, _, stress_type = rest.rpartition(" ")
        if not friend or not stress_type:
            raise Malformed("Name the friend and the Stress: /relieve Lois Afraid.")
        reliever = _own_lead(ct, actor, N_("Name who relieves."))
        return a.StartRelief(reliever, character(ct, friend).name, stress_type)
    raise Malformed("Start a Test, a Contest or a Relief.")


def _index(argument: str, size: int) -> int:
    if not argument.isdigit() or int(argument) >= size:
        raise NotAllowedNow(OUTDATED)
    return int(argument)


def _pick(ct: CortexTable, c: Conflict, code: str) -> Pick:
    kind = _CODES.get(code[:1])
    if kind is None:
        raise Malformed(OUTDATED)
    own = ct.sheet(c.roller)
    if kind is PickKind.DETAIL:
        mine = [d for d in ct.details if same_name(d.owner, own.name)]
        return Pick(kind, mine[_index(code[1:], len(mine))].name)
    if kind in (PickKind.OPPONENT_STRESS, PickKind.OPPONENT_LIMIT):
        opponent = opponent_of(ct, c, own.name)
        if opponent is None:
            raise NotAllowedNow("There is no opponent in this roll.")
        if kind is PickKind.OPPONENT_STRESS:
            return Pick(kind, opponent.stress[_index(code[1:], len(opponent.stress))].type)
        return Pick(kind, opponent.limits[_index(code[1:], len(opponent.limits))].name)
    items: tuple[Any, ...] = {
        PickKind.VALUE: own.values,
        PickKind.RELATIONSHIP: own.relationships,
        PickKind.ASSET: own.assets,
    }[kind]
    return Pick(kind, items[_index(code[1:], len(items))].name, challenge=code[:1] == "c")


def _aid_picks(helper: Sheet, words: str, ct: CortexTable) -> tuple[Pick, ...]:
    picks: list[Pick] = []
    for word in (w.strip() for w in words.split(",")):
        if not word:
            continue
        kinds = (
            (PickKind.VALUE, helper.values),
            (PickKind.RELATIONSHIP, helper.relationships),
            (PickKind.ASSET, helper.assets),
        )
        found = [Pick(k, t.name) for k, items in kinds for t in items if same_name(t.name, word)]
        found += [
            Pick(PickKind.DETAIL, d.name)
            for d in ct.details
            if same_name(d.owner, helper.name) and same_name(d.name, word)
        ]
        if not found:
            raise NotAllowedNow(
                "{name} has no trait called “{trait}”.", name=helper.name, trait=word[:60]
            )
        picks.append(found[0])
    if not picks:
        raise Malformed("Name the traits that aid, separated by commas: /aid Truth, Clark.")
    return tuple(picks)


def _fiddled_stress(text: str) -> a.InflictStress:
    """``Angry +d6 -d8``: a Stress type, then dice Assets add to or take from the pool."""
    words = text.split()
    if not words or len(words) > MAX_STAGED:
        raise Malformed("Write the Stress type, then dice to add or remove: Angry +d6 -d8.")
    add: list[Die] = []
    remove: list[Die] = []
    for word in words[1:]:
        if word[:1] not in "+-" or len(word) < 2:
            raise Malformed("Write the Stress type, then dice to add or remove: Angry +d6 -d8.")
        (add if word[0] == "+" else remove).append(Die.parse(word[1:]))
    return a.InflictStress(words[0], tuple(add), tuple(remove))


def read_text(ct: CortexTable, c: Conflict, actor: int, text: str) -> tuple[Press, str]:
    """A reply to the panel: ``detail <name>`` or ``aid <traits>``; bare text is a
    Useful Detail from whoever builds the pool, Aid from anyone else, and, from
    whoever inflicts Stress, the Stress with the pool's Asset fiddling (``Angry +d6 -d8``).
    The Watchtower's Features may take a detail's die out of Trouble: ``d8 from Trouble: Name``.
    """
    word, _, rest = text.strip().partition(" ")
    if word.lower() in ("detail", "aid") and rest.strip():
        return Press(word.lower()), rest.strip()
    if c.phase is Phase.INFLICTING and ct.controller(c.pending[0].inflicter) == actor:
        return Press.INFLICT, text.strip()
    builds = c.phase is Phase.BUILDING and ct.controller(c.roller) == actor
    return (Press.DETAIL if builds else Press.AID), text.strip()


def _mine(ct: CortexTable, actor: int, names: tuple[str, ...]) -> str:
    for name in names:
        if ct.controller(name) == actor:
            return name
    return names[0] if names else ""


def _action(
    ct: CortexTable, c: Conflict, actor: int, press: Press, argument: str, staged: tuple[Die, ...]
) -> a.Action:
    if press is Press.OPPOSITION_ROLL:
        if not staged:
            raise NotAllowedNow("Add at least one opposition die first.")
        return a.SetOpposition(staged)
    if press is Press.STRESS_OPPOSITION:
        return a.RollStressOpposition()
    if press is Press.ADD:
        return a.AddToPool(_pick(ct, c, argument))
    if press is Press.REMOVE:
        return a.RemoveFromPool(c.draft.picks[_index(argument, len(c.draft.picks))])
    if press is Press.RESOURCE:
        own = ct.sheet(c.roller)
        index = _index(argument.removesuffix("u"), len(own.resources))
        return a.UseResource(own.resources[index].name, use_up=argument.endswith("u"))
    if press is Press.DETAIL:
        name = " ".join(argument.split())
        found = _FROM_TROUBLE.match(name)
        if found is not None:
            return a.CreateDetail(found["name"], from_trouble=Die.parse(found["die"]))
        if not name:
            raise Malformed("Name the Useful Detail: reply to the roll with its name.")
        return a.CreateDetail(name)
    if press is Press.AID:
        who, sep, words = argument.partition(":")
        helper = character(ct, who) if sep else ct.find(ct.lead_of(actor) or "")
        if helper is None:
            raise Malformed("Name the Feature that aids: /aid Lex: Power, Billionaire.")
        return a.OfferAid(helper.name, _aid_picks(helper, words if sep else argument, ct))
    if press is Press.INFLICT:
        types = ct.settings.stress_types
        if argument.isdigit():
            return a.InflictStress(types[_index(argument, len(types))])
        return _fiddled_stress(argument)
    if press is Press.INTERFERE:
        return a.Interfere(ct.sheets[_index(argument, len(ct.sheets))].name)
    if press is Press.VOTE:
        if argument not in ("y", "n"):
            raise Malformed(OUTDATED)
        waiting = tuple(n for n in c.contestants if not any(same_name(n, v) for v in c.votes))
        return a.Vote(_mine(ct, actor, waiting), argument == "y")
    if press is Press.COMPLICATION:
        return a.ActivateComplication(_index(argument, len(ct.complications)))
    if press is Press.CANCEL_TROUBLE:
        one, _, trouble = argument.partition(".")
        return a.CancelTrouble(
            _index(one, len(ct.watchtower_ones)), _index(trouble, len(ct.trouble))
        )
    simple: dict[Press, a.Action] = {
        Press.ROLL: a.RollPool(),
        Press.INCLUDE: a.IncludeDie(),
        Press.SETTLE: a.Settle(),
        Press.GIVE_IN: a.GiveIn(),
        Press.TAKE_STRESS: a.TakeStress(),
        Press.STRESSED_OUT: a.DeclareStressedOut(),
        Press.END_SCENE: a.EndScene(),
    }
    return simple[press]


def _refusal(ct: CortexTable, actor: int, kind: ActionKind) -> NotAllowedNow:
    """Why ``actor`` may not do ``kind`` now: someone else's move, or the wrong moment."""
    if kind in _WATCHTOWER_ONLY and actor != ct.watchtower:
        return NotYourTurn("Only the Watchtower can do that.")
    if kind is a.CancelTrouble and ct.lead_of(actor) is None:
        return NotYourTurn("Only players can use the Watchtower's 1s.")
    someone = any(kind in allowed_actions(ct, user) for user in _users(ct))
    if someone:
        return _turn(ct)
    return NotAllowedNow("That can't be done at this point of the roll.")


def _turn(ct: CortexTable) -> NotYourTurn:
    names = waiting_for(ct)
    if not names:
        return NotYourTurn("That isn't yours to press.")
    if names == ("",):
        return NotYourTurn("It's up to the Watchtower now.")
    if len(names) == 1:
        return NotYourTurn("It's up to {name} now.", name=names[0])
    return NotYourTurn(
        "It's up to {some} and {last} now.", some=" and ".join(names[:-1]), last=names[-1]
    )


def _users(ct: CortexTable) -> tuple[int, ...]:
    return (ct.watchtower, *(s.user for s in ct.seats))


# --- what to show -----------------------------------------------------------------------


def waiting_for(ct: CortexTable) -> tuple[str, ...]:
    """The characters the conflict waits for ("" when it is the Watchtower's own move)."""
    c = ct.conflict
    if c is None or c.phase is Phase.DONE:
        return ()
    if c.phase is Phase.OPPOSITION:
        return ("",) if c.kind is Kind.TEST else (c.reactor,)
    if c.phase is Phase.YIELDING:
        return (c.reactor,)
    if c.phase is Phase.INFLICTING:
        return (c.pending[0].inflicter,)
    if c.phase is Phase.STOPPED:
        return tuple(n for n in c.contestants if not any(same_name(n, v) for v in c.votes))
    return (c.roller,)


def lingering(ct: CortexTable) -> bool:
    """Whether 1s are left that someone may still use after the roll."""
    usable = any(d <= one.die for one in ct.watchtower_ones for d in ct.trouble)
    return bool(ct.complications) or (usable and bool(ct.seats))


def _pool_choices(ct: CortexTable, c: Conflict) -> list[Choice]:
    own = ct.sheet(c.roller)
    opponent = opponent_of(ct, c, own.name)
    boxes_used = {p.kind.box for p in c.draft.picks if p.kind.box is not None}
    found: list[Choice] = []

    def offer(code: str, kind: PickKind, name: str, die: Die, count: int = 1) -> None:
        pick = Pick(kind, name, challenge=code.startswith("c"))
        if c.draft.has(pick):
            return
        cost = 1 if kind.box in boxes_used else 0
        found.append(
            Choice(Press.ADD, code, who=own.name, name=name, die=int(die), count=count, cost=cost)
        )

    for i, v in enumerate(own.values):
        offer(f"v{i}", PickKind.VALUE, v.name, v.die)
    for i, v in enumerate(own.values):
        if not v.challenged:
            offer(f"c{i}", PickKind.VALUE, v.name, v.die, 3)
    for i, r in enumerate(own.relationships):
        offer(f"r{i}", PickKind.RELATIONSHIP, r.name, r.die)
    for i, x in enumerate(own.assets):
        offer(f"a{i}", PickKind.ASSET, x.name, x.die)
    if opponent is not None:
        for i, s in enumerate(opponent.stress):
            offer(f"s{i}", PickKind.OPPONENT_STRESS, s.type, s.die)
        for i, lim in enumerate(opponent.limits):
            offer(f"l{i}", PickKind.OPPONENT_LIMIT, lim.name, lim.die, 3)
    mine = [d for d in ct.details if same_name(d.owner, own.name)]
    for i, d in enumerate(mine):
        offer(f"d{i}", PickKind.DETAIL, d.name, d.die)
    for i, p in enumerate(c.draft.picks):
        found.append(
            Choice(Press.REMOVE, str(i), who=own.name, name=p.name, count=3 if p.challenge else 1)
        )
    return found + _resource_choices(own, c)


def _resource_choices(own: Sheet, c: Conflict) -> list[Choice]:
    """Each resource not used up and not already helping: spent, or spent and used up."""
    aiding = {x.resource.casefold() for x in c.aid if x.kind is AidKind.RESOURCE}
    found: list[Choice] = []
    for i, res in enumerate(own.resources):
        if not res.used_up and res.name.casefold() not in aiding:
            found += [
                Choice(Press.RESOURCE, code, who=own.name, name=res.name, die=int(res.die), count=2)
                for code in (str(i), f"{i}u")
            ]
    return found


def _rollable(ct: CortexTable, c: Conflict) -> bool:
    """Whether the roller's pool may be rolled now: it holds a die, and it challenges
    no value that was challenged already (as rolling it checks)."""
    own = ct.sheet(c.roller)
    if not draft_dice(c.draft, own, opponent_of(ct, c, own.name), ct.details):
        return False
    return not any(own.value(p.name).challenged for p in c.draft.new_challenges())


def _choices(
    ct: CortexTable, c: Conflict | None, staged: tuple[Die, ...], picking: bool = False
) -> tuple[Choice, ...]:
    """The buttons now: the main ones, or the open list of dice and Back."""
    allowed = {user: allowed_actions(ct, user) for user in _users(ct)}

    def anyone(kind: ActionKind) -> bool:
        return any(kind in kinds for kinds in allowed.values())

    found: list[Choice] = []
    running = c is not None and c.phase is not Phase.DONE
    if c is not None and picking and anyone(a.AddToPool):
        found = [*_pool_choices(ct, c), Choice(Press.BACK, who=c.roller)]
        return tuple(replace(ch, by=_takers(ct, allowed, ch)) for ch in found)
    if c is not None and running:
        if anyone(a.SetOpposition):
            if len(staged) < MAX_STAGED:
                found += [Choice(Press.OPPOSITION_ADD, str(int(d)), die=int(d)) for d in Die]
            if staged:
                found.append(Choice(Press.OPPOSITION_UNDO))
                found.append(Choice(Press.OPPOSITION_ROLL, count=len(staged)))
        if anyone(a.RollStressOpposition):
            found.append(Choice(Press.STRESS_OPPOSITION, who=c.reactor))
        if anyone(a.AddToPool):
            options = _pool_choices(ct, c)
            if options:
                found.append(Choice(Press.OPEN_POOL, who=c.roller, count=len(options)))
        if anyone(a.RollPool) and _rollable(ct, c):
            found.append(Choice(Press.ROLL, who=c.roller, cost=c.draft.cost()))
        if anyone(a.IncludeDie):
            found.append(Choice(Press.INCLUDE, who=c.roller, cost=1))
        if anyone(a.Settle):
            found.append(Choice(Press.SETTLE, who=c.roller))
        if anyone(a.GiveIn):
            found.append(Choice(Press.GIVE_IN, who=c.reactor))
        if anyone(a.TakeStress):
            found.append(Choice(Press.TAKE_STRESS, who=c.reactor))
        if anyone(a.InflictStress):
            who = c.pending[0].inflicter
            found += [
                Choice(Press.INFLICT, str(i), who=who, name=name)
                for i, name in enumerate(ct.settings.stress_types)
            ]
        if anyone(a.DeclareStressedOut):
            found.append(Choice(Press.STRESSED_OUT, who=c.pending[0].inflicter))
        if anyone(a.Interfere):
            inside = (*c.names(), *c.contestants)
            for i, s in enumerate(ct.sheets):
                outside = not any(same_name(s.name, n) for n in inside)
                if outside and not s.stressed_out and a.Interfere in allowed[ct.controller(s.name)]:
                    found.append(
                        Choice(Press.INTERFERE, str(i), who=s.name, cost=1 if s.is_lead else 0)
                    )
        if anyone(a.Vote):
            found.append(Choice(Press.VOTE, "y", cost=1))
            found.append(Choice(Press.VOTE, "n"))
    if c is not None:
        offered: set[tuple[str, int]] = set()
        for i, x in enumerate(ct.complications):
            if (x.owner, int(x.die)) in offered:
                continue  # the same 1 again: one button does either
            offered.add((x.owner, int(x.die)))
            found.append(Choice(Press.COMPLICATION, str(i), who=x.owner, die=int(x.die)))
        for i, one in enumerate(ct.watchtower_ones):
            fits = [j for j, d in enumerate(ct.trouble) if d <= one.die]
            if fits and ct.seats:
                j = max(fits, key=lambda k: (int(ct.trouble[k]), -k))
                found.append(
                    Choice(
                        Press.CANCEL_TROUBLE, f"{i}.{j}", name=one.die.label, die=int(ct.trouble[j])
                    )
                )
        if running:
            found.append(Choice(Press.END_SCENE))
        elif lingering(ct):
            found.append(Choice(Press.CLOSE))
    return tuple(replace(ch, by=_takers(ct, allowed, ch)) for ch in found)


def _takers(
    ct: CortexTable, allowed: dict[int, frozenset[ActionKind]], ch: Choice
) -> frozenset[int]:
    """Who may press ``ch``: the users its action is allowed to, and of those the one
    who runs the character it is for."""
    if ch.verb is Press.CLOSE:
        return frozenset({ct.watchtower})
    kind = _KIND_OF[ch.verb]
    users = frozenset(u for u, kinds in allowed.items() if kind in kinds)
    if ch.who and kind not in _WATCHTOWER_ONLY:
        runner = ct.controller(ch.who)
        users = frozenset(u for u in users if u == runner)
    return users


def _chance(dice: tuple[Die, ...], to_beat: int | None) -> Fraction | None:
    if to_beat is None or not dice or len(dice) > MAX_ODDS_DICE:
        return None
    counts = result_counts(dice)
    whole = sum(counts.values())
    return Fraction(sum(n for r, n in counts.items() if r > to_beat), whole)


def conflict_view(table: PlatformTable, state: ConflictState | Json) -> ConflictView:
    """What a conflict panel shows now.

    Raises:
        Malformed: the panel or campaign state is damaged.
    """
    read = state if isinstance(state, ConflictState) else ConflictState.from_dict(state)
    number, staged, log = read.number, read.staged, read.log
    loaded = load(table)
    ct = loaded.table
    current = number == loaded.number and ct.conflict is not None
    c = ct.conflict if current else None
    pool: tuple[tuple[Die, str], ...] = ()
    cost = 0
    chance = None
    if c is not None and c.phase is Phase.BUILDING:
        own = ct.sheet(c.roller)
        try:
            pool = draft_dice(c.draft, own, opponent_of(ct, c, own.name), ct.details)
        except NotAllowedNow:
            pool = ()
        cost = c.draft.cost()
        to_beat = c.to_beat if c.kind is not Kind.CONTEST or c.roller != c.actor else None
        chance = _chance(tuple(d for d, _ in pool), to_beat)
    return ConflictView(
        table=ct,
        conflict=c,
        staged=staged,
        log=log,
        choices=_choices(ct, c, staged, _picking_now(read.pick, c)) if current else (),
        waiting=waiting_for(ct) if current else (),
        pool=pool,
        cost=cost,
        chance=chance,
        current=current,
    )


# --- the panel rules ----------------------------------------------------------------------


# open at any time: left off while anything else is open
SIDE = frozenset({Press.COMPLICATION, Press.CANCEL_TROUBLE, Press.END_SCENE})
# what nobody has to do: give Aid, interfere
OPTIONAL = frozenset({Press.AID, Press.INTERFERE})


class ConflictPanel:
    """The ``cortex.conflict`` panel."""

    kind = CONFLICT_PANEL

    def read(self, state: Json) -> ConflictState:
        return ConflictState.from_dict(state)

    def waiting(self, table: PlatformTable, state: ConflictState | Json) -> Waiting:
        """The conflict waits on whoever builds, rolls or answers now; Aid and interfering are
        optional, and Complications, Trouble and ending the scene never hold it."""
        return waiting(conflict_view(table, current(self, state)).choices, SIDE, OPTIONAL)

    def open(self, table: PlatformTable, actor: int, argument: str, rng: Rng) -> Outcome:
        """Start a conflict: ``test [who]``, ``contest [who vs] whom``, ``relief friend Type``.

        Raises:
            Malformed, NotAllowedNow, NotYourTurn: as the rules say.
        """
        loaded = load(table)
        step = apply(loaded.table, actor, start_action(loaded.table, actor, argument), rng)
        number = loaded.number + 1
        outcome = saved(loaded, step.table, number)
        return replace(outcome, state=_write(number, (), ()), events=step.events)

    def act(
        self,
        table: PlatformTable,
        state: ConflictState | Json,
        actor: int,
        action: str,
        argument: str,
        rng: Rng,
    ) -> Outcome:
        """Apply one press (a :class:`Press` value) with its argument.

        Raises:
            Malformed, NotAllowedNow, NotYourTurn: as the rules say; nothing changes.
        """
        panel = current(self, state)
        number, staged, log = panel.number, panel.staged, panel.log
        try:
            press = Press(action)
        except ValueError:
            raise Malformed(OUTDATED) from None
        loaded = load(table)
        ct, c = loaded.table, loaded.table.conflict
        if number != loaded.number or c is None:
            raise NotAllowedNow(OVER)
        if press is Press.CLOSE:
            return _closed(ct, c, actor, panel)
        if press is Press.TEXT:
            press, argument = read_text(ct, c, actor, argument)
        kind = _KIND_OF[press]
        if kind not in allowed_actions(ct, actor):
            raise _refusal(ct, actor, kind)
        picking = _picking_now(panel.pick, c)
        _check_list(press, picking)
        if press in (Press.OPEN_POOL, Press.BACK):
            return _kept(ConflictState(number, staged, log, press is Press.OPEN_POOL))
        if press in (Press.OPPOSITION_ADD, Press.OPPOSITION_UNDO):
            return _stage(number, staged, log, press, argument)
        step = apply(ct, actor, _action(ct, c, actor, press, argument, staged), rng)
        return _played(loaded, replace(panel, pick=picking), press, step)


def _played(loaded: Loaded, panel: ConflictState, press: Press, step: Step) -> Outcome:
    """A step played on the table: the campaign saved, and the panel's log told of it."""
    after = step.table.conflict
    closed = after is None or (after.phase is Phase.DONE and not lingering(step.table))
    staged = () if press is Press.OPPOSITION_ROLL else panel.staged
    now = _kept(replace(panel, staged=staged, log=panel.log + _entries(step.events)))
    outcome = saved(loaded, step.table)
    return replace(outcome, state=now.state, model=now.model, events=step.events, closed=closed)


def _kept(panel: ConflictState) -> Outcome:
    """The panel's new state, as stored and as read (its log cut to the newest entries)."""
    panel = replace(panel, log=panel.log[-MAX_LOG:])
    return Outcome(state=panel.to_dict(), model=panel)


def _closed(ct: CortexTable, c: Conflict, actor: int, panel: ConflictState) -> Outcome:
    """The Watchtower closes a finished roll's panel."""
    if actor != ct.watchtower:
        raise NotYourTurn("Only the Watchtower can do that.")
    if c.phase is not Phase.DONE:
        raise NotAllowedNow("Finish the roll first.")
    return replace(_kept(panel), closed=True)


def _check_list(press: Press, picking: bool) -> None:
    """The pool's list opens once, closes once; its buttons work only while it is open."""
    if press in (Press.OPEN_POOL, Press.BACK):
        if picking == (press is Press.OPEN_POOL):
            raise NotAllowedNow(_LIST_OPEN if picking else N_("No list is open to go back from."))
        return
    if picking and press not in _IN_LIST and press not in (Press.DETAIL, Press.AID):
        raise NotAllowedNow(_LIST_OPEN)
    if not picking and press in (Press.ADD, Press.REMOVE, Press.RESOURCE):
        raise NotAllowedNow(_LIST_CLOSED)


def _stage(
    number: int, staged: tuple[Die, ...], log: tuple[Entry, ...], press: Press, argument: str
) -> Outcome:
    """The Watchtower adds or takes back one opposition die (nothing is rolled yet)."""
    if press is Press.OPPOSITION_UNDO:
        if not staged:
            raise NotAllowedNow("No opposition dice to take back.")
        return _kept(ConflictState(number, staged[:-1], log))
    if len(staged) >= MAX_STAGED:
        raise NotAllowedNow("Opposition takes at most {most} dice.", most=MAX_STAGED)
    return _kept(ConflictState(number, (*staged, Die.parse(argument)), log))
