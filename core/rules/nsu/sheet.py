"""The No Stone Unturned character sheet, and character creation.

A :class:`Character` is immutable; every change returns a new one. Its
``__post_init__`` checks these invariants, so no Character can break them:

- Aspects: Body, Mind and Heart sit one each on d8, d6 and d4.
- Moods: exactly six lines with dice d8, d8, d6, d6, d4, d4. A line is *open*
  (no name) or holds a mood. The level is within 0..die+1 (the boxes of the
  track); an open line has level 0 and is not overloaded. At most one mood is
  overloaded at a time. Mood names are unique.
- Skills: at most six, unique names, modifier >= 0; the marked aspect boxes are
  a subset of the three aspects.
- Sentiments: exactly three lines; a blank line (left for a relationship to be
  decided later) is always connected.
- Harm: at most four harm lines; the character is Overcome exactly when all
  four are filled. Scars never count as harm.
- Recovery points: 0..``RECOVERY_POINT_CAP`` (ruling 11).

Creation goes through a :class:`CharacterDraft`, one step per rulebook step;
:func:`finish_creation` checks that nothing required is missing.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import TypeAlias, TypeVar

from core.rules.catalogue import N_
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.nsu.codec import from_plain, to_plain
from core.rules.nsu.details import MAX_HARMS, Detail, DetailKind, clean_label
from core.rules.nsu.terms import Aspect as Aspect
from core.rules.nsu.terms import Die as Die
from core.rules.said import Joined, Said

RECOVERY_POINT_CAP = 4  # the four Recovery Point boxes beside Overcome (ruling 11)
SKILL_LINES = 6
SENTIMENT_LINES = 3
STARTING_SKILL_MODIFIER = 1
NEW_SKILL_MODIFIER = 0


Harm: TypeAlias = str
"""A harm detail's label, written on one of the four harm lines."""
Scar: TypeAlias = str
"""What a recovered harm leaves behind; never counts as harm."""

MOOD_LINE_DICE: tuple[Die, ...] = (Die.D8, Die.D8, Die.D6, Die.D6, Die.D4, Die.D4)
Line = TypeVar("Line")


class SentimentState(enum.Enum):
    """Connected (no box), At Risk (first box) or Lost (second box)."""

    CONNECTED = "connected"
    AT_RISK = "at_risk"
    LOST = "lost"


@dataclass(frozen=True)
class Aspects:
    """Which die each aspect uses: a permutation of d8, d6, d4."""

    body: Die
    mind: Die
    heart: Die

    def __post_init__(self) -> None:
        if sorted((self.body, self.mind, self.heart)) != [Die.D4, Die.D6, Die.D8]:
            raise Malformed("Body, Mind and Heart take the d8, the d6 and the d4, one each.")

    def die(self, aspect: Aspect) -> Die:
        """The die of ``aspect``."""
        return {Aspect.BODY: self.body, Aspect.MIND: self.mind, Aspect.HEART: self.heart}[aspect]


@dataclass(frozen=True)
class Mood:
    """One mood line: its die, the mood written on it (None when open), its level."""

    die: Die
    name: str | None = None
    level: int = 0
    overloaded: bool = False

    def __post_init__(self) -> None:
        if self.name is not None and self.name != clean_label(self.name, "A mood"):
            raise Malformed("A mood needs a short, trimmed name.")
        if not 0 <= self.level <= self.die.boxes:
            raise Malformed(
                "A {die} mood level runs from 0 to {boxes}.",
                die=self.die.label,
                boxes=self.die.boxes,
            )
        if self.name is None and (self.level or self.overloaded):
            raise Malformed("An open mood line has no level and cannot be overloaded.")

    @property
    def is_open(self) -> bool:
        return self.name is None

    @property
    def past_threshold(self) -> bool:
        """Level above the overload threshold."""
        return self.level > self.die.overload_threshold

    @property
    def track_full(self) -> bool:
        """The last box of the track is marked."""
        return self.level == self.die.boxes

    def raised(self, amount: int) -> Mood:
        """``amount`` more boxes marked, stopping at the last box."""
        if self.is_open:
            raise NotAllowedNow("Write a mood on that line first.")
        if amount < 0:
            raise Malformed("Raise a mood by zero or more boxes.")
        return replace(self, level=min(self.die.boxes, self.level + amount))

    def lowered(self, amount: int) -> Mood:
        """``amount`` boxes cleared, stopping at 0 (an open line stays open)."""
        if amount < 0:
            raise Malformed("Lower a mood by zero or more boxes.")
        return replace(self, level=max(0, self.level - amount))


@dataclass(frozen=True)
class Skill:
    """A skill line: name, modifier (used as + or -) and the aspect boxes marked."""

    name: str
    modifier: int = NEW_SKILL_MODIFIER
    marked: frozenset[Aspect] = frozenset()

    def __post_init__(self) -> None:
        if self.name != clean_label(self.name, "A skill"):
            raise Malformed("A skill needs a short, trimmed name.")
        if self.modifier < 0:
            raise Malformed("A skill modifier is 0 or more; its sign is chosen at each roll.")

    @property
    def ready_to_upgrade(self) -> bool:
        """All three aspect boxes are marked."""
        return len(self.marked) == len(Aspect)

    def upgraded(self) -> Skill:
        """One more point, its boxes cleared (ruling 5); only with all three marked."""
        if not self.ready_to_upgrade:
            raise NotAllowedNow(
                "{skill} needs all three aspect boxes marked first.", skill=self.name
            )
        return Skill(self.name, self.modifier + 1)


@dataclass(frozen=True)
class Sentiment:
    """Something the character holds dear; None while the line is left blank."""

    name: str | None = None
    state: SentimentState = SentimentState.CONNECTED

    def __post_init__(self) -> None:
        if self.name is not None and self.name != clean_label(self.name, "A sentiment"):
            raise Malformed("A sentiment needs a short, trimmed name.")
        if self.name is None and self.state is not SentimentState.CONNECTED:
            raise Malformed("A blank sentiment line has no boxes marked.")

    @property
    def usable(self) -> bool:
        """Written and not lost: it can be risked or endangered."""
        return self.name is not None and self.state is not SentimentState.LOST

    def endangered(self) -> Sentiment:
        """The next box marked: Connected -> At Risk -> Lost."""
        if not self.usable:
            raise NotAllowedNow("That sentiment is blank or already lost.")
        return replace(self, state=_NEXT_SENTIMENT_STATE[self.state])

    def restored(self) -> Sentiment:
        """The last marked box cleared: Lost -> At Risk -> Connected."""
        if self.name is None or self.state is SentimentState.CONNECTED:
            raise NotAllowedNow("That sentiment has nothing to restore.")
        return replace(self, state=_PREVIOUS_SENTIMENT_STATE[self.state])

    def forged(self, name: str) -> Sentiment:
        """A new sentiment written over this line, which is lost or blank."""
        if self.name is not None and self.state is not SentimentState.LOST:
            raise NotAllowedNow("Only a lost or blank sentiment can be replaced.")
        return Sentiment(clean_label(name, "A sentiment"))


_NEXT_SENTIMENT_STATE = {
    SentimentState.CONNECTED: SentimentState.AT_RISK,
    SentimentState.AT_RISK: SentimentState.LOST,
}
_PREVIOUS_SENTIMENT_STATE = {new: old for old, new in _NEXT_SENTIMENT_STATE.items()}


def _open_moods() -> tuple[Mood, ...]:
    return tuple(Mood(die) for die in MOOD_LINE_DICE)


def _put(lines: tuple[Line, ...], index: int, line: Line) -> tuple[Line, ...]:
    """The lines with the one at ``index`` replaced by ``line``."""
    return (*lines[:index], line, *lines[index + 1 :])


@dataclass(frozen=True)
class Character:
    """A player character's sheet. See the module docstring for its invariants."""

    name: str
    pronouns: str
    look: str
    aspects: Aspects
    moods: tuple[Mood, ...] = field(default_factory=_open_moods)
    skills: tuple[Skill, ...] = ()
    sentiments: tuple[Sentiment, ...] = (Sentiment(), Sentiment(), Sentiment())
    details: tuple[Detail, ...] = ()
    harms: tuple[Harm, ...] = ()
    scars: tuple[Scar, ...] = ()
    recovery_points: int = 0
    rumours: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check_lines(self)

    # -- reading ---------------------------------------------------------

    @property
    def overcome(self) -> bool:
        """Four harms: the character cannot act until a harm is recovered."""
        return len(self.harms) >= MAX_HARMS

    @property
    def can_act(self) -> bool:
        return not self.overcome

    @property
    def overloaded_mood(self) -> int | None:
        """Index of the overloaded mood line, if any."""
        for index, mood in enumerate(self.moods):
            if mood.overloaded:
                return index
        return None

    def aspect_die(self, aspect: Aspect) -> Die:
        return self.aspects.die(aspect)

    def mood(self, index: int) -> Mood:
        """The mood line at ``index`` (0..5).

        Raises:
            Malformed: no such line.
        """
        if not 0 <= index < len(self.moods):
            raise Malformed("A sheet has six mood lines, numbered 1 to 6.")
        return self.moods[index]

    def skill(self, index: int) -> Skill:
        if not 0 <= index < len(self.skills):
            raise Malformed("There is no skill on that line.")
        return self.skills[index]

    def sentiment(self, index: int) -> Sentiment:
        if not 0 <= index < SENTIMENT_LINES:
            raise Malformed("A sheet has three sentiment lines.")
        return self.sentiments[index]

    @property
    def usable_sentiments(self) -> tuple[int, ...]:
        """Indices of sentiments that are written and not lost."""
        return tuple(i for i, s in enumerate(self.sentiments) if s.usable)

    # -- moods -----------------------------------------------------------

    def _with_mood(self, index: int, mood: Mood) -> Character:
        return replace(self, moods=_put(self.moods, index, mood))

    def write_mood(self, index: int, name: str) -> Character:
        """Write a new mood on an open line; it takes that line's die.

        Raises:
            NotAllowedNow: the line already holds a mood.
        """
        line = self.mood(index)
        if not line.is_open:
            raise NotAllowedNow(
                "Line {line} already holds {mood}.", line=index + 1, mood=str(line.name)
            )
        return self._with_mood(index, Mood(line.die, clean_label(name, "A mood")))

    def rename_mood(self, index: int, name: str) -> Character:
        """Give a mood a new, stronger name (level and overload stay).

        Raises:
            NotAllowedNow: the line is open.
        """
        line = self.mood(index)
        if line.is_open:
            raise NotAllowedNow("That mood line is still open.")
        return self._with_mood(index, replace(line, name=clean_label(name, "A mood")))

    def raise_mood(self, index: int, amount: int = 1) -> Character:
        """Mark ``amount`` more boxes, stopping at the last box.

        Raises:
            NotAllowedNow: the line is open.
        """
        return self._with_mood(index, self.mood(index).raised(amount))

    def lower_mood(self, index: int, amount: int) -> Character:
        """Clear ``amount`` boxes, stopping at 0."""
        return self._with_mood(index, self.mood(index).lowered(amount))

    def clear_mood(self, index: int) -> Character:
        """Clear every box of a mood (level 0)."""
        line = self.mood(index)
        return self._with_mood(index, replace(line, level=0))

    def set_overloaded(self, index: int, overloaded: bool) -> Character:
        """Overload one mood (ending any other overload) or end its overload."""
        line = self.mood(index)
        if line.is_open:
            raise NotAllowedNow("An open mood line cannot be overloaded.")
        moods = [replace(m, overloaded=False) if overloaded else m for m in self.moods]
        moods[index] = replace(line, overloaded=overloaded)
        return replace(self, moods=tuple(moods))

    def swap_moods(self, first: int, second: int) -> Character:
        """Swap the dice of two moods: names, levels and overload change lines.

        A level longer than its new track stops at the last box; the downtime
        rules then fill that track (ruling 23).
        """
        a, b = self.mood(first), self.mood(second)
        moods = list(self.moods)
        moods[first] = Mood(a.die, b.name, min(b.level, a.die.boxes), b.overloaded)
        moods[second] = Mood(b.die, a.name, min(a.level, b.die.boxes), a.overloaded)
        return replace(self, moods=tuple(moods))

    def replace_mood(self, index: int, name: str) -> Character:
        """Replace a mood at level 0 with a different one.

        Raises:
            NotAllowedNow: the mood has marked boxes.
        """
        line = self.mood(index)
        if line.level:
            raise NotAllowedNow("Only a mood at level 0 can be replaced.")
        return self._with_mood(index, Mood(line.die, clean_label(name, "A mood")))

    # -- skills ----------------------------------------------------------

    def add_skill(self, name: str, modifier: int = NEW_SKILL_MODIFIER) -> Character:
        """Write a new skill on an empty line (new skills start at 0).

        Raises:
            NotAllowedNow: all six skill lines are filled.
        """
        if len(self.skills) >= SKILL_LINES:
            raise NotAllowedNow("All six skill lines are filled.")
        return replace(self, skills=(*self.skills, Skill(clean_label(name, "A skill"), modifier)))

    def mark_skill(self, index: int, aspect: Aspect) -> Character:
        """Mark the box of ``aspect`` on a skill (no change if already marked)."""
        skill = self.skill(index)
        marked = replace(skill, marked=skill.marked | {aspect})
        return replace(self, skills=_put(self.skills, index, marked))

    def upgrade_skill(self, index: int) -> Character:
        """Raise a skill with all three boxes marked by 1 and clear its boxes (ruling 5).

        Raises:
            NotAllowedNow: not all three boxes are marked.
        """
        return replace(self, skills=_put(self.skills, index, self.skill(index).upgraded()))

    # -- sentiments ------------------------------------------------------

    def _with_sentiment(self, index: int, sentiment: Sentiment) -> Character:
        return replace(self, sentiments=_put(self.sentiments, index, sentiment))

    def write_sentiment(self, index: int, name: str) -> Character:
        """Fill a blank sentiment line.

        Raises:
            NotAllowedNow: the line is already written.
        """
        if self.sentiment(index).name is not None:
            raise NotAllowedNow("That sentiment line is already written.")
        return self._with_sentiment(index, Sentiment(clean_label(name, "A sentiment")))

    def endanger_sentiment(self, index: int) -> Character:
        """Mark the next box: Connected -> At Risk -> Lost.

        Raises:
            NotAllowedNow: the line is blank or the sentiment is already lost.
        """
        return self._with_sentiment(index, self.sentiment(index).endangered())

    def restore_sentiment(self, index: int) -> Character:
        """Clear the last marked box: Lost -> At Risk -> Connected.

        Raises:
            NotAllowedNow: the sentiment is blank or already connected.
        """
        return self._with_sentiment(index, self.sentiment(index).restored())

    def forge_sentiment(self, index: int, name: str) -> Character:
        """Write a new sentiment over a lost or blank line.

        Raises:
            NotAllowedNow: the line holds a sentiment that is not lost.
        """
        return self._with_sentiment(index, self.sentiment(index).forged(name))

    # -- details, harm, recovery ------------------------------------------

    def add_detail(self, detail: Detail) -> Character:
        """Write a hard detail (positive or negative) in Other Details.

        Raises:
            Malformed: soft or scene details are not written on a sheet.
        """
        if detail.kind is not DetailKind.HARD:
            raise Malformed("Only hard details go on a character sheet.")
        return replace(self, details=(*self.details, detail))

    def remove_detail(self, index: int) -> Character:
        if not 0 <= index < len(self.details):
            raise Malformed("There is no such detail on the sheet.")
        return replace(self, details=self.details[:index] + self.details[index + 1 :])

    def add_harm(self, name: str) -> Character:
        """Write a harm detail; the fourth makes the character Overcome.

        Raises:
            NotAllowedNow: all four harm lines are filled (already Overcome).
        """
        label = clean_label(name, "A harm")
        if self.overcome:
            raise NotAllowedNow(
                "{name} is already Overcome: the harm lines are full.", name=self.name
            )
        return replace(self, harms=(*self.harms, label))

    @property
    def recovery_cost(self) -> int:
        """Recovery points needed to turn one harm into a scar: the number of harms."""
        return len(self.harms)

    def recover_harm(self, index: int, scar: str) -> Character:
        """Spend recovery points equal to the harm count to turn a harm into a scar.

        Raises:
            NotAllowedNow: not enough recovery points.
        """
        if not 0 <= index < len(self.harms):
            raise Malformed("There is no such harm on the sheet.")
        cost = self.recovery_cost
        if self.recovery_points < cost:
            raise _too_few_points(cost, self.name, self.recovery_points)
        return replace(
            self,
            harms=self.harms[:index] + self.harms[index + 1 :],
            scars=(*self.scars, clean_label(scar, "A scar")),
            recovery_points=self.recovery_points - cost,
        )

    def add_recovery_points(self, amount: int, cap: int = RECOVERY_POINT_CAP) -> Character:
        """Take recovery points, up to the cap (ruling 11)."""
        if amount < 0:
            raise Malformed("Take zero or more recovery points.")
        cap = min(cap, RECOVERY_POINT_CAP)
        return replace(self, recovery_points=min(cap, max(self.recovery_points, 0) + amount))

    def add_rumour(self, text: str) -> Character:
        return replace(self, rumours=(*self.rumours, " ".join(text.split())))

    # -- storage ---------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready copy; :meth:`from_dict` reads it back."""
        plain: dict[str, object] = to_plain(self)
        return plain

    @classmethod
    def from_dict(cls, data: object) -> Character:
        return from_plain(cls, data)


# -- creation ---------------------------------------------------------------


class CreationStep(enum.Enum):
    """The character creation steps, in rulebook order."""

    NAME = "name"
    PRONOUNS_AND_LOOK = "pronouns_and_look"
    MOODS = "moods"
    ASPECTS = "aspects"
    SENTIMENTS = "sentiments"
    SKILLS = "skills"
    RUMOURS = "rumours"


# Steps that may stay undone when the sheet is finished.
OPTIONAL_STEPS = frozenset({CreationStep.RUMOURS})
# A missing step as a refusal names it.
_MISSING_WORDS = {
    CreationStep.NAME: N_("name"),
    CreationStep.PRONOUNS_AND_LOOK: N_("pronouns and look"),
    CreationStep.MOODS: N_("moods"),
    CreationStep.ASPECTS: N_("aspects"),
    CreationStep.SENTIMENTS: N_("sentiments"),
    CreationStep.SKILLS: N_("skills"),
    CreationStep.RUMOURS: N_("rumours"),
}


@dataclass(frozen=True)
class CharacterDraft:
    """A sheet being filled in. Steps may be taken in any order and redone.

    The name may wait until the end; a sentiment line may stay blank (for a
    relationship with a character not yet introduced); three mood lines and
    three skill lines stay open for play.
    """

    name: str | None = None
    pronouns: str | None = None
    look: str | None = None
    moods: tuple[str, str, str] | None = None  # d8, d6, d4
    aspects: Aspects | None = None
    sentiments: tuple[str | None, str | None, str | None] | None = None
    skills: tuple[str, str, str] | None = None
    rumours: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        plain: dict[str, object] = to_plain(self)
        return plain

    @classmethod
    def from_dict(cls, data: object) -> CharacterDraft:
        return from_plain(cls, data)


def choose_name(draft: CharacterDraft, name: str) -> CharacterDraft:
    """Step 1: the name (may also be given last)."""
    return replace(draft, name=clean_label(name, "A name"))


def describe(draft: CharacterDraft, pronouns: str, look: str) -> CharacterDraft:
    """Step 2: pronouns and look."""
    look_text = " ".join(look.split())
    if not look_text:
        raise Malformed("Say a few words about how your character looks.")
    if len(look_text) > 500:
        raise Malformed("Keep the look under 500 characters.")
    return replace(draft, pronouns=clean_label(pronouns, "Pronouns"), look=look_text)


def pick_moods(draft: CharacterDraft, d8: str, d6: str, d4: str) -> CharacterDraft:
    """Step 3: three moods, one on a d8 line, one on a d6 line, one on a d4 line."""
    names = (clean_label(d8, "A mood"), clean_label(d6, "A mood"), clean_label(d4, "A mood"))
    if len({n.casefold() for n in names}) != 3:
        raise Malformed("Pick three different moods.")
    return replace(draft, moods=names)


def assign_aspects(draft: CharacterDraft, body: Die, mind: Die, heart: Die) -> CharacterDraft:
    """Step 4: Body, Mind and Heart onto d8, d6 and d4, one each."""
    return replace(draft, aspects=Aspects(body, mind, heart))


def invent_sentiments(
    draft: CharacterDraft, first: str | None, second: str | None, third: str | None
) -> CharacterDraft:
    """Step 5: three sentiments; a line may stay blank (None) for now."""
    names = tuple(
        None if s is None or not s.strip() else clean_label(s, "A sentiment")
        for s in (first, second, third)
    )
    written = [n.casefold() for n in names if n is not None]
    if len(written) != len(set(written)):
        raise Malformed("Write three different sentiments.")
    return replace(draft, sentiments=(names[0], names[1], names[2]))


def write_skills(draft: CharacterDraft, first: str, second: str, third: str) -> CharacterDraft:
    """Step 6: three skills, each starting at modifier 1."""
    names = tuple(clean_label(s, "A skill") for s in (first, second, third))
    if len({n.casefold() for n in names}) != 3:
        raise Malformed("Write three different skills.")
    return replace(draft, skills=(names[0], names[1], names[2]))


def consider_rumours(draft: CharacterDraft, *rumours: str) -> CharacterDraft:
    """Step 7: what the character has heard about the locations you authored."""
    texts = tuple(" ".join(r.split()) for r in rumours if r.strip())
    if any(len(t) > 500 for t in texts):
        raise Malformed("Keep each rumour under 500 characters.")
    return replace(draft, rumours=texts)


def missing_steps(draft: CharacterDraft) -> tuple[CreationStep, ...]:
    """Required steps not yet done, in rulebook order."""
    done = {
        CreationStep.NAME: draft.name is not None,
        CreationStep.PRONOUNS_AND_LOOK: draft.pronouns is not None and draft.look is not None,
        CreationStep.MOODS: draft.moods is not None,
        CreationStep.ASPECTS: draft.aspects is not None,
        CreationStep.SENTIMENTS: draft.sentiments is not None,
        CreationStep.SKILLS: draft.skills is not None,
        CreationStep.RUMOURS: bool(draft.rumours),
    }
    return tuple(s for s in CreationStep if not done[s] and s not in OPTIONAL_STEPS)


def finish_creation(draft: CharacterDraft) -> Character:
    """Turn a complete draft into a Character.

    Raises:
        NotAllowedNow: a required step is missing (the message names it).
    """
    missing = missing_steps(draft)
    if missing:
        steps = Joined(", ", [Said(_MISSING_WORDS[s]) for s in missing])
        raise NotAllowedNow("The sheet still needs: {steps}.", steps=steps)
    assert draft.name is not None and draft.pronouns is not None and draft.look is not None
    assert draft.moods is not None and draft.aspects is not None
    assert draft.sentiments is not None and draft.skills is not None
    d8, d6, d4 = draft.moods
    moods = (
        Mood(Die.D8, d8),
        Mood(Die.D8),
        Mood(Die.D6, d6),
        Mood(Die.D6),
        Mood(Die.D4, d4),
        Mood(Die.D4),
    )
    return Character(
        name=draft.name,
        pronouns=draft.pronouns,
        look=draft.look,
        aspects=draft.aspects,
        moods=moods,
        skills=tuple(Skill(s, STARTING_SKILL_MODIFIER) for s in draft.skills),
        sentiments=tuple(Sentiment(s) for s in draft.sentiments),
        rumours=draft.rumours,
    )


def _check_lines(c: Character) -> None:
    """A sheet's lines as the rules draw them: the mood, skill, sentiment and harm lines,
    each mood and skill once, recovery points within the cap, only hard details."""
    clean_label(c.name, "A name")
    if tuple(m.die for m in c.moods) != MOOD_LINE_DICE:
        raise Malformed("A sheet has six mood lines: d8, d8, d6, d6, d4, d4.")
    names = [m.name.casefold() for m in c.moods if m.name is not None]
    if len(names) != len(set(names)):
        raise Malformed("Two mood lines carry the same mood.")
    if sum(m.overloaded for m in c.moods) > 1:
        raise Malformed("Only one mood can be overloaded at a time.")
    if len(c.skills) > SKILL_LINES:
        raise Malformed("A sheet has {count} skill lines.", count=SKILL_LINES)
    skill_names = [s.name.casefold() for s in c.skills]
    if len(skill_names) != len(set(skill_names)):
        raise Malformed("Two skill lines carry the same skill.")
    if len(c.sentiments) != SENTIMENT_LINES:
        raise Malformed("A sheet has {count} sentiment lines.", count=SENTIMENT_LINES)
    if len(c.harms) > MAX_HARMS:
        raise Malformed("A sheet has {count} harm lines.", count=MAX_HARMS)
    if not 0 <= c.recovery_points <= RECOVERY_POINT_CAP:
        raise Malformed("Recovery points run from 0 to {limit}.", limit=RECOVERY_POINT_CAP)
    for d in c.details:
        if d.kind is not DetailKind.HARD:
            raise Malformed("Only hard details are written on a sheet.")


def _too_few_points(cost: int, name: str, points: int) -> NotAllowedNow:
    """Recovering a harm costs as many recovery points as there are harms."""
    if cost == 1:
        return NotAllowedNow(
            "Recovering a harm costs 1 recovery point; {name} has {points}.",
            name=name,
            points=points,
        )
    return NotAllowedNow(
        "Recovering a harm costs {cost} recovery points; {name} has {points}.",
        cost=cost,
        name=name,
        points=points,
    )
