"""No rule decision in tgbot/ or webapp/: the edges label the rules' choices.

What is legal, open or visible is decided in core/rules and offered as data: a
panel's choices (``choices(state, viewer)`` and the panels' ``*_choices``), a
viewer's projection (``visible_card``, ``visible_map``), a Mini App page's
``page_choices``. The edges read those and the rules' values (states, events,
constants, errors), and import nothing else of the rules: :data:`EDGE_READS` is
the whole list of rule modules an edge may import, each with what the edges read
there. An edge that imports any other rule module fails here; so does an entry no
edge imports any more, so the list stays the edges' real reading.

A module on the list may hold a predicate of the rules' own next to what the edges
read there (who may act, whether an edit is open); an edge reads the choices
computed from it instead (the shared pages below show how), and review keeps it so.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
EDGES = ("tgbot", "webapp")

# The rule modules the edges read, and what they read there.
EDGE_READS: dict[str, str] = {
    # every system's shared vocabulary
    "core.rules.choice": "the choices a panel lists, and who may take them",
    "core.rules.errors": "the errors the edges word for the user",
    "core.rules.registry": "the game systems and their manifests",
    "core.rules.table": "a campaign's seats and roles, as the rules keep them",
    "core.rules.dice": "the dice grammar, its rolls and results",
    "core.rules.dice_odds": "the exact odds of a dice expression",
    "core.rules.rng": "the dice a roll is made with, handed to the rules",
    "core.rules.said": "the rules' words, worded in the reader's language",
    "core.rules.text": "what text may be stored (refused whole otherwise)",
    "core.rules.typed": "reading what a player typed into the rules' terms",
    "core.rules.names": "whose names are in play",
    "core.rules.saved": "saved rolls' keys",
    "core.rules.undo": "the undo choice's mark",
    "core.rules.lifecycle": "how long an ended game may come back",
    "core.rules.log": "what a campaign log line is about, to tag it",
    # No Stone Unturned
    "core.rules.nsu.campaign": "the campaign's state and its characters",
    "core.rules.nsu.play_table": "the campaign as play reads it",
    "core.rules.nsu.terms": "the game's terms (aspects, dice, edges, risks)",
    "core.rules.nsu.sheet": "a character and a draft, as the sheet shows them",
    "core.rules.nsu.details": "the kinds of detail and harm",
    "core.rules.nsu.world": "the viewer's projection of the map and its cards",
    "core.rules.nsu.cards_page": "what a viewer may do with location cards (Mini App)",
    "core.rules.nsu.setup": "the setup's steps and what each is called",
    "core.rules.nsu.setup_turn": "whose turn the setup waits on",
    "core.rules.nsu.setup_panel": "the setup panel's board and choices",
    "core.rules.nsu.cards_panel": "the cards panel's view and choices",
    "core.rules.nsu.character_panel": "character creation's view and choices",
    "core.rules.nsu.adventure_panel": "the adventure panel's scene and choices",
    "core.rules.nsu.safety_panel": "the safety tools' choices",
    "core.rules.nsu.roll_panel": "an Action Roll's panel",
    "core.rules.nsu.roll_choices": "an Action Roll's choices and forecasts",
    "core.rules.nsu.action_roll": "an Action Roll's state and outcome, as shown",
    "core.rules.nsu.downtime": "downtime's state and complication tables, as shown",
    "core.rules.nsu.downtime_panel": "the downtime panel's prompts and choices",
    "core.rules.nsu.glance": "the names of the levels",
    "core.rules.nsu.odds": "an Action Roll's odds",
    "core.rules.nsu.odds_text": "reading an /odds question",
    # threat dice
    "core.rules.threat.table": "the roll panel's view and choices; the sheet page's choices",
    "core.rules.threat.panel": "the roll panel's actions and stages",
    "core.rules.threat.roll": "a roll's pool and outcome",
    "core.rules.threat.dice": "a die's result",
    "core.rules.threat.momentum": "the Momentum track's marks",
    "core.rules.threat.sheet": "a sheet's limits",
    # Cortex drama
    "core.rules.cortex.campaign": "the table as stored; the sheet page's choices",
    "core.rules.cortex.panel": "the conflict panel's view and choices",
    "core.rules.cortex.log": "the conflict log's typed lines, each worded by its own method",
    "core.rules.cortex.state": "a conflict's state, as shown",
    "core.rules.cortex.traits": "a sheet and the default Stress types",
    "core.rules.cortex.dice": "the dice",
    "core.rules.cortex.pool": "the kinds of a pool's picks",
    # d20 checks
    "core.rules.d20check": "a check's setup, flow and outcome; a sheet",
    "core.rules.nsu": "the game's manifest: whom its panels wait on",
    "core.rules.threat": "the game's manifest: whom its roll waits on",
    "core.rules.cortex": "the game's manifest: whom its conflict waits on",
    "core.rules.waiting": "whom a panel waits on, as its rules say",
    "core.rules.turns": "the turn order and its rolls, as the rules set them",
    "core.rules.reminders": "the /nudge words the rules read, and the wait's bounds",
    "core.rules.in_character": "a post's pieces: its words and the dice rolled in them",
    "core.rules.d20check.table": "the check and rest panels' choices; the sheet page's choices",
    "core.rules.d20check.check": "a proficiency's limit",
    "core.rules.d20check.rest": "the long rest's recovery skill",
    "core.rules.d20check.wounds": "the wound bands and limits",
    "core.rules.d20check.log": "the check log's typed entries, each worded by its own method",
    "core.rules.d20check.events": "a check's events (points spent or turned, harm)",
    "core.rules.d20check.plot_points": "which way a plot point turned, as the rules decided it",
    # the library's games, built from data
    "core.rules.dicesystem": "a library game's roll as it fell; reading /odds; its definition",
    "core.rules.systems": "a library game's words (its name, inputs, examples) and odds",
    "core.rules.systems.drafting": "the step a group's own system is written at (/system new)",
}


def rule_imports() -> dict[str, set[str]]:
    """Each rule module an edge imports, with the edge modules that import it."""
    graph = grimp.build_graph("core", *EDGES, include_external_packages=False)
    found: dict[str, set[str]] = {}
    for module in graph.modules:
        if module.split(".")[0] not in EDGES:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            if imported.startswith("core.rules"):
                found.setdefault(imported, set()).add(module)
    return found


def unlisted(found: dict[str, set[str]]) -> dict[str, list[str]]:
    """The rule modules in ``found`` that no edge may import, with who imports them."""
    return {module: sorted(by) for module, by in found.items() if module not in EDGE_READS}


def test_the_edges_import_only_the_rule_modules_they_read() -> None:
    found = rule_imports()
    new = unlisted(found)
    assert not new, (
        "an edge imports a rule module it has no business reading (read the rules' choices "
        f"or projection instead, or add it to EDGE_READS with what is read there): {new}"
    )
    gone = sorted(set(EDGE_READS) - set(found))
    assert not gone, f"no edge reads these any more: drop them from EDGE_READS: {gone}"


def test_an_edge_reading_who_may_act_in_a_conflict_is_caught() -> None:
    # core.rules.cortex.allowed decides who may take which conflict action: the panel's
    # choices carry it; a renderer importing it would be deciding the rule itself
    deciding = "core.rules.cortex.allowed"
    assert deciding in grimp.build_graph("core", include_external_packages=False).modules
    found = {deciding: {"tgbot.render.cortex"}, "core.rules.choice": {"tgbot.render.cortex"}}
    assert unlisted(found) == {deciding: ["tgbot.render.cortex"]}


def edge_modules() -> dict[str, str]:
    return {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for edge in EDGES
        for path in sorted((ROOT / edge).rglob("*.py"))
    }


SYSTEMS = frozenset({"nsu", "threat", "cortex", "d20"})


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


def test_no_shared_edge_module_branches_on_one_system() -> None:
    found = {
        path: branches
        for path, source in edge_modules().items()
        if (branches := system_branches(source))
    }
    assert not found, f"ask the system's rules (CampaignRules) instead: {found}"
    old_log = 'def names(view, table):\n    if view.system.key != "nsu":\n        return {}\n'
    assert system_branches(old_log) == ["view.system.key != 'nsu'"]


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
