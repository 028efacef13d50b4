"""The No Stone Unturned sheet in the Mini App, laid out like the printed sheet.

What a viewer sees is decided here, on every request:

* their own character in full, read-only wherever the rules decide a number
  (mood levels, modifiers, harm, recovery points), with the edits the rules
  allow now (creation steps while they hold a draft);
* other players' finished characters without their rumours (what a character
  heard about locations may hint at a face-down card); nothing of another
  player's draft but its name, once chosen.

Non-members never get here (the campaign use case refuses them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.campaigns import CampaignView
from core.rules.errors import Malformed
from core.rules.nsu.campaign import campaign_of, character_of, draft_of
from core.rules.nsu.details import MAX_HARMS
from core.rules.nsu.roll_panel import ROLL_PANEL
from core.rules.nsu.sheet import (
    MOOD_LINE_DICE,
    OPTIONAL_STEPS,
    RECOVERY_POINT_CAP,
    SENTIMENT_LINES,
    SKILL_LINES,
    Character,
    CharacterDraft,
    CreationStep,
    missing_steps,
)
from core.rules.nsu.terms import Aspect, Die
from core.rules.nsu.world import CLOCK_SEGMENTS
from core.rules.table import Table
from core.words.i18n import N_
from webapp.sheets import NOT_A_ROLL

# The Mini App edits these pages post, by what they do (the rules' edit table names).
ACTIONS: dict[str, str] = {
    "name": "character.name",
    "describe": "character.pronouns_and_look",
    "moods": "character.moods",
    "aspects": "character.aspects",
    "sentiments": "character.sentiments",
    "skills": "character.skills",
    "rumours": "character.rumours",
    "finish": "character.finish",
    "author": "setup.location",
    "revise": "setup.revise",
    "deal": "setup.deal",
    "roll": "setup.roll",
    "tick": "clock.tick",
    "untick": "clock.untick",
    "scene_detail": "play.scene_detail",
    "drop_scene_detail": "play.drop_scene_detail",
    "drop_detail": "play.drop_detail",
}

SHAPES = {Die.D8: "diamond", Die.D6: "square", Die.D4: "triangle"}

# Message ids: the page translates them for its viewer.
STEP_TITLES: dict[CreationStep, str] = {
    CreationStep.NAME: N_("Name"),
    CreationStep.PRONOUNS_AND_LOOK: N_("Pronouns and look"),
    CreationStep.MOODS: N_("Three moods"),
    CreationStep.ASPECTS: N_("Aspects"),
    CreationStep.SENTIMENTS: N_("Sentiments"),
    CreationStep.SKILLS: N_("Three skills"),
    CreationStep.RUMOURS: N_("Rumours"),
}

ASPECT_NAMES: dict[Aspect, str] = {
    Aspect.BODY: N_("Body"),
    Aspect.MIND: N_("Mind"),
    Aspect.HEART: N_("Heart"),
}


def _slice(index: int, radius: float = 20.0, centre: float = 22.0) -> str:
    start = math.radians(-90 + 360 / CLOCK_SEGMENTS * index)
    end = math.radians(-90 + 360 / CLOCK_SEGMENTS * (index + 1))
    x1, y1 = centre + radius * math.cos(start), centre + radius * math.sin(start)
    x2, y2 = centre + radius * math.cos(end), centre + radius * math.sin(end)
    return f"M{centre} {centre}L{x1:.2f} {y1:.2f}A{radius} {radius} 0 0 1 {x2:.2f} {y2:.2f}Z"


CLOCK_SLICES: tuple[str, ...] = tuple(_slice(i) for i in range(CLOCK_SEGMENTS))


def clock_slices(ticks: int) -> list[dict[str, Any]]:
    """The eight slices of a Collateral Clock pie, the first ``ticks`` filled."""
    return [{"d": d, "on": i < ticks} for i, d in enumerate(CLOCK_SLICES)]


def character_view(
    character: Character, *, own: bool, topics: Sequence[str] = ()
) -> dict[str, Any]:
    """A character as plain data for the page and the JSON (rumours for the owner only).

    Args:
        topics: the titles of the owner's own cards, which their rumours are about.
    """
    aspects = sorted(Aspect, key=lambda a: -character.aspect_die(a).value)
    skills: list[dict[str, Any]] = [
        {
            "name": s.name,
            "modifier": s.modifier,
            "marked": [a.value for a in Aspect if a in s.marked],
            "ready": s.ready_to_upgrade,
        }
        for s in character.skills
    ]
    skills += [{"name": None, "modifier": None, "marked": [], "ready": False}] * (
        SKILL_LINES - len(skills)
    )
    return {
        "own": own,
        "name": character.name,
        "pronouns": character.pronouns,
        "look": character.look,
        "aspects": [
            {
                "aspect": a.value,
                "label": ASPECT_NAMES[a],
                "die": character.aspect_die(a).label,
                "shape": SHAPES[character.aspect_die(a)],
            }
            for a in aspects
        ],
        "moods": [
            {
                "line": i + 1,
                "die": m.die.label,
                "shape": SHAPES[m.die],
                "name": m.name,
                "level": m.level,
                "boxes": [
                    {"on": n <= m.level, "threshold": n == m.die.overload_threshold}
                    for n in range(1, m.die.boxes + 1)
                ],
                "past_threshold": m.past_threshold,
                "overloaded": m.overloaded,
            }
            for i, m in enumerate(character.moods)
        ],
        "skills": skills,
        "sentiments": [{"name": s.name, "state": s.state.value} for s in character.sentiments],
        "harms": list(character.harms) + [None] * (MAX_HARMS - len(character.harms)),
        "overcome": character.overcome,
        "recovery": [n <= character.recovery_points for n in range(1, RECOVERY_POINT_CAP + 1)],
        "recovery_points": character.recovery_points,
        "details": [{"name": d.name, "polarity": d.polarity.value} for d in character.details],
        "scars": list(character.scars),
        # The viewer's projection keeps a character's rumours to its owner (the rules'
        # sheet_seen_by): another member's character arrives here with none.
        "rumours": list(character.rumours),
        "rumours_about": _about(character.rumours, topics),
    }


def _about(rumours: Sequence[str], topics: Sequence[str]) -> list[dict[str, str | None]]:
    """Each rumour with the title of the card it is about (the n-th of the owner's cards)."""
    return [
        {"about": topics[n] if n < len(topics) else None, "text": r} for n, r in enumerate(rumours)
    ]


def draft_view(draft: CharacterDraft, topics: Sequence[str]) -> dict[str, Any]:
    """The owner's draft: what each step holds so far and what is still missing."""
    missing = set(missing_steps(draft))
    aspects = None
    if draft.aspects is not None:
        aspects = {a.value: draft.aspects.die(a).label for a in Aspect}
    return {
        "steps": [
            {
                "key": s.value,
                "title": STEP_TITLES[s],
                "done": bool(draft.rumours) if s in OPTIONAL_STEPS else s not in missing,
                "optional": s in OPTIONAL_STEPS,
            }
            for s in CreationStep
        ],
        "ready": not missing,
        "name": draft.name,
        "pronouns": draft.pronouns,
        "look": draft.look,
        "moods": list(draft.moods) if draft.moods else None,
        "aspects": aspects,
        "sentiments": list(draft.sentiments) if draft.sentiments else None,
        "skills": list(draft.skills) if draft.skills else None,
        "rumours": list(draft.rumours),
        "rumour_lines": len(topics),
        "rumour_topics": list(topics),
        "mood_dice": [d.label for d in (Die.D8, Die.D6, Die.D4)],
    }


@dataclass(frozen=True)
class NsuSheetPage:
    key: str = "nsu"
    template: str = "sheets/nsu.html"

    def context(self, view: CampaignView, table: Table, viewer_id: int) -> dict[str, Any]:
        campaign = campaign_of(table)
        mine = table.seat(viewer_id)
        own_character = character_of(mine)
        own_draft = draft_of(mine) if own_character is None else None
        world = campaign.current_world()
        topics = [] if world is None else [c.title for c in world.cards if c.author_id == viewer_id]
        others = []
        for member in view.members:
            seat = table.seat(member.player_id)
            if member.player_id == viewer_id or seat is None:
                continue
            character = character_of(seat)
            draft = draft_of(seat) if character is None else None
            others.append(
                {
                    "player": member.player_id,
                    "name": member.name,
                    "character": None
                    if character is None
                    else character_view(character, own=False),
                    "creating": draft is not None,
                    "character_name": None if draft is None else draft.name,
                }
            )
        return {
            "phase": campaign.phase.value,
            "actions": ACTIONS,
            "character": None
            if own_character is None
            else character_view(own_character, own=True, topics=topics),
            "draft": None if own_draft is None else draft_view(own_draft, topics),
            "others": others,
            "layout": {
                "mood_lines": len(MOOD_LINE_DICE),
                "skill_lines": SKILL_LINES,
                "sentiment_lines": SENTIMENT_LINES,
            },
        }

    def roll(self, what: str, name: str) -> tuple[str, str]:
        """An aspect or a skill: ``/act``, an Action Roll for your character. The
        Arbiters pick the aspect at risk and you pick the skill on the panel, as the
        rules have it, so the tap starts the roll and chooses nothing for anyone."""
        if what not in ("aspect", "skill"):
            raise Malformed(NOT_A_ROLL)
        return ROLL_PANEL, ""


PAGE = NsuSheetPage()
