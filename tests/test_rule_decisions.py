"""No rule decision in tgbot/ or webapp/: the edges label the rules' choices.

What is legal, open or visible is decided in core/rules and offered as choices
(``choices(state, viewer)`` and the panels' ``*_choices``). This scan fails when a
module under tgbot/ or webapp/ imports or calls one of the rules' own predicates
(who may act, which kinds of action are open, who may see or edit what) instead
of reading the choices; the Action Roll renderer's old ``roll_step_buttons``,
which listed the open steps with ``expected`` and tested ``ActionKind.X in
open_now``, is the pattern it was written against.

The few uses not moved yet are listed in ``NOT_MOVED_YET`` with where they are;
an entry that no longer occurs fails the test too, so the list only shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EDGES = ("tgbot", "webapp")

# The rules' predicates: what they decide, and what an edge reads instead.
PREDICATES = {
    "expected": "the open kinds of action (read roll_choices)",
    "who_may_act": "who may act (read the panel's choices)",
    "allowed_actions": "who may take which action (read the panel's choices)",
    "help_may_come": "whether an ally may still help (read roll_choices)",
    "keep_choices": "one step's dice (read roll_choices, which has them all)",
    "helper_die_choices": "one step's dice (read roll_choices, which has them all)",
    "can_see_face": "who may see a card's face (read the viewer's projection)",
    # downtime: the prompt's buttons are the rules' panel_choices, nothing else
    "scout_targets": "which cards may be scouted (read the downtime panel_choices)",
    "plan_targets": "which places have collateral to address (read panel_choices)",
    "reward_card": "whether a reward waits to come home (read panel_choices)",
    "menu_openers": "who may open a group of downtime actions (read panel_choices)",
    "enders": "who may end downtime (read panel_choices)",
    "scout_must_decide": "whether the Scout presses on or turns back (read the choices)",
    "seek_choices": "one prompt's options (read panel_choices, which has them all)",
    "clock_choices": "one group's options (read panel_choices, which has them all)",
    "clearable_moods": "which moods may be cleared (read panel_choices)",
}
# Properties of the rules' values that decide what may be done (``sheet.usable_sentiments``).
ATTRIBUTES = {
    "usable_sentiments": "which sentiments may be marked (read the panel's choices)",
}
SYSTEMS = frozenset({"nsu", "threat", "cortex", "d20"})

# (file, predicate): uses not moved in this round, each a known rule decision left in
# an edge. Remove the entry when the use goes.
NOT_MOVED_YET: set[tuple[str, str]] = set()


def uses(source: str) -> set[str]:
    """The rules' predicates a module imports from core or calls."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("core"):
            found |= {a.name for a in node.names if a.name in PREDICATES}
        elif isinstance(node, ast.Call):
            func = node.func
            name = (
                func.attr
                if isinstance(func, ast.Attribute)
                else func.id
                if isinstance(func, ast.Name)
                else ""
            )
            if name in PREDICATES:
                found.add(name)
        elif isinstance(node, ast.Attribute) and node.attr in ATTRIBUTES:
            found.add(node.attr)
    return found


def system_branches(source: str) -> list[str]:
    """Comparisons of a system's key with one system's name (``view.system.key != "nsu"``):
    a shared page deciding a system's rule itself, where the system's rules should say."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
            named = any(isinstance(p, ast.Constant) and p.value in SYSTEMS for p in parts)
            keyed = any(isinstance(p, ast.Attribute) and p.attr in ("key", "system") for p in parts)
            if named and keyed:
                found.append(ast.unparse(node))
    return found


def edge_modules() -> dict[str, str]:
    return {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for edge in EDGES
        for path in sorted((ROOT / edge).rglob("*.py"))
    }


def test_no_edge_module_decides_what_the_rules_decide() -> None:
    found = {(path, name) for path, source in edge_modules().items() for name in uses(source)}
    new = sorted(found - NOT_MOVED_YET)
    assert not new, "rule decisions in an edge; read the rules' choices instead: " + "; ".join(
        f"{path} uses {name} ({PREDICATES.get(name) or ATTRIBUTES[name]})" for path, name in new
    )
    gone = sorted(NOT_MOVED_YET - found)
    assert not gone, f"moved to the rules: drop these from NOT_MOVED_YET: {gone}"


def test_no_shared_edge_module_branches_on_one_system() -> None:
    found = {
        path: branches
        for path, source in edge_modules().items()
        if (branches := system_branches(source))
    }
    assert not found, f"ask the system's rules (CampaignRules) instead: {found}"
    old_log = 'def names(view, table):\n    if view.system.key != "nsu":\n        return {}\n'
    assert system_branches(old_log) == ["view.system.key != 'nsu'"]


OLD_ROLL_STEP_BUTTONS = """
from core.rules.nsu.action_roll import ActionKind, expected

def roll_step_buttons(view, roll, lang):
    rows = []
    open_now = {e.kind: e.players for e in expected(roll)}
    if ActionKind.CHOOSE_ASPECT in open_now:
        rows.append([button(view, "Body", "choose_aspect", "body")])
    return rows
"""

NEW_ROLL_STEP_BUTTONS = """
from core.rules.nsu.roll_choices import roll_choices

def roll_step_buttons(view, roll, lang):
    return [[button(view, label(c), c.verb.value, c.argument)] for c in roll_choices(roll)]
"""


def test_the_scan_catches_the_old_roll_step_buttons_and_passes_the_new() -> None:
    assert uses(OLD_ROLL_STEP_BUTTONS) == {"expected"}
    assert uses(NEW_ROLL_STEP_BUTTONS) == set()
    method = "def f(check, pool):\n    return check.who_may_act(pool)\n"
    assert uses(method) == {"who_may_act"}


OLD_DOWNTIME_BUTTONS = """
from core.rules.nsu.downtime_panel import scout_targets

def personal(view, panel, state):
    cards = [b(view, "scout_card", str(i)) for i in scout_targets(state.world, player)]
    marks = [b(view, "endanger", str(i + 1)) for i in sheet.usable_sentiments]
    return cards + marks
"""

NEW_DOWNTIME_BUTTONS = """
from core.rules.nsu.downtime_panel import panel_choices

def downtime_buttons(view, panel, state):
    return [b(view, c.verb.value, c.argument) for c in panel_choices(panel, state)]
"""


def test_the_scan_catches_the_old_downtime_buttons_and_passes_the_new() -> None:
    assert uses(OLD_DOWNTIME_BUTTONS) == {"scout_targets", "usable_sentiments"}
    assert uses(NEW_DOWNTIME_BUTTONS) == set()


MAKERS = frozenset({"button", "_b"})  # a panel button: (view, label, action, argument)


def literal_actions(source: str) -> list[str]:
    """Panel buttons whose action is written in the renderer (``button(view, "Line",
    "kind", "line")``) instead of taken from a choice (``c.verb.value``): the
    renderer deciding on its own that this button is offered."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or len(node.args) < 3:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        action = node.args[2]
        if name in MAKERS and isinstance(action, ast.Constant):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_every_panel_button_takes_its_action_from_a_choice() -> None:
    found = {
        path: calls
        for path, source in edge_modules().items()
        if path.startswith("tgbot/") and (calls := literal_actions(source))
    }
    assert not found, f"buttons not drawn from the rules' choices: {found}"
    old = 'rows = [[button(view, "Line", "kind", "line"), button(view, "Veil", "kind", "veil")]]\n'
    new = "rows = [[button(view, label(c), c.verb.value, c.argument) for c in choices]]\n"
    assert len(literal_actions(old)) == 2 and literal_actions(new) == []
