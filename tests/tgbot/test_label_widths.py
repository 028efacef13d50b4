"""No button label in any catalogue is wider than a 360 px phone allows.

Every message the bot puts on a button (found in the renderers' and features' source:
the words inside a call that makes a button, and the label tables) is drawn in every
catalogue, its values filled with ordinary ones, and measured with a real font
(tests/support/phone.py): it must fit a one-button row. The keyboards as the games
lay them out, with real names, are measured the same way on every screen of the
language walks (tests/tgbot/test_i18n_every_screen.py) and of the per-game keyboard
tests (tests/tgbot/test_render_phone.py ``problems``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.words.i18n import available, lang_for
from tests.support.phone import label_px, room
from tgbot.render.layout import ONE_ROW, fit_name, fit_names, label_width, named, named_many

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*ROOT.glob("tgbot/render/*.py"), *ROOT.glob("tgbot/features/*.py")])
MAKERS = {"button", "InlineKeyboardButton", "_b", "make", "named", "_label", "_fit", "_button"}
MARKERS = {"gettext", "_", "N_", "pgettext"}
TABLE = re.compile(r"BUTTON|LABEL|STEPPER|^template$|^label$")
PROSE = re.compile(r"\b(lines|text|head|answer|query\.answer|said|status)\b")
VALUES = {"name": "Ana", "who": "Ana", "names": "Ana", "number": 2, "die": "d8", "n": 2}


def _literal(call: ast.Call) -> tuple[str | None, str] | None:
    """The (context, message) a marking call holds, if its text is a literal."""
    name = getattr(call.func, "id", getattr(call.func, "attr", ""))
    if name not in MARKERS or not call.args:
        return None
    if name == "pgettext" and len(call.args) >= 2:
        context, message = call.args[0], call.args[1]
        if isinstance(context, ast.Constant) and isinstance(message, ast.Constant):
            return str(context.value), str(message.value)
        return None
    first = call.args[0]
    return (
        (None, first.value)
        if isinstance(first, ast.Constant) and isinstance(first.value, str)
        else None
    )


def _label_like(message: str) -> bool:
    """An emoji and a few words, no markup, no sentence's end: how a button reads."""
    short = len(message) <= 40 and "<" not in message and message.rstrip()[-1:] not in ".!?:"
    # a quotation mark opens a phrase about something quoted, never a button
    return short and not message[:1].isalnum() and message[:1] not in "({%|,·…—-+−“«"


def button_messages() -> set[tuple[str | None, str]]:
    """Every catalogue message the source puts on a button: the words inside a call that
    makes one and the label tables, and (a superset) every short emoji-led phrase outside
    the lines of a message."""
    found: set[tuple[str | None, str]] = set()
    for path in SOURCES:
        source = path.read_text().splitlines()
        for node in ast.walk(ast.parse("\n".join(source))):
            inside = (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", "")) in MAKERS
            )
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            table = any(isinstance(t, ast.Name) and TABLE.search(t.id) for t in targets)
            if inside or table:
                found |= {held for inner in ast.walk(node) if (held := _marked(inner))}
            elif isinstance(node, ast.Expr | ast.Assign | ast.Return | ast.AugAssign):
                lines = "\n".join(source[node.lineno - 1 : node.end_lineno or node.lineno])
                if not PROSE.search(lines):  # a message's lines, not a keyboard
                    found |= {
                        held
                        for inner in ast.walk(node)
                        if (held := _marked(inner)) and _label_like(held[1])
                    }
    return found


def _marked(node: ast.AST) -> tuple[str | None, str] | None:
    return _literal(node) if isinstance(node, ast.Call) else None


def drawn(context: str | None, message: str, code: str) -> str:
    lang = lang_for(code)
    text = lang.pgettext(context, message) if context else lang.gettext(message)
    text = re.sub(r"%\((\w+)\)s", lambda m: str(VALUES.get(m[1], "2")), text)
    return re.sub(r"\{(\w*)\}", lambda m: str(VALUES.get(m[1], "2")), text)


def test_the_source_names_the_button_labels() -> None:
    found = {message for _, message in button_messages()}
    assert len(found) > 140, len(found)
    for label in ("Undo ({name})", "Skip detail {number} ({names})", "💪 Weak ability", "Agree"):
        assert label in found


@pytest.mark.parametrize("code", available())
def test_every_button_label_of_the_catalogue_fits_a_phone(code: str) -> None:
    wide = []
    for context, message in sorted(button_messages(), key=lambda m: (m[0] or "", m[1])):
        if "\n" in message or len(message) > 60:
            continue  # a sentence some helper also passes around, not a label
        label = drawn(context, message, code)
        if label_px(label) > room(1):
            wide.append(f"{label_px(label):.0f} px: {label!r}")
    assert wide == [], wide


def test_the_measure_tells_a_cut_label_from_a_whole_one() -> None:
    assert label_px("🏁 End downtime") <= room(2) < label_px("🏁 End downtime…")
    assert label_px("Пропуск детали 2 (" + "Зоя Драконова, " * 3 + ")") > room(1)
    assert label_px("⚖️ x") < label_px("⚖ xx")  # a variation selector takes no room


def name_shown_whole(label: str, bare: str, name: str) -> bool:
    """Whether ``label`` (drawn with ``name``; ``bare`` is the same label drawn with a
    ``\x00`` for the name) shows the name whole, as its first words, or as its initial,
    never a word cut off: what stands where the name goes is one of those."""
    if "\x00" not in bare:
        return True  # this button names nobody
    before, _, after = bare.partition("\x00")
    if not (label.startswith(before) and label.endswith(after)):
        return False
    shown = label[len(before) : len(label) - len(after)]
    words = name.split()
    whole = [" ".join(words[:n]) for n in range(1, len(words) + 1)]
    # a name shortened to its first words drops the comma they ended on ("Ana" of "Ana, Bo")
    whole += [first.rstrip(",") for first in whole[:-1]]
    return shown in whole or shown == f"{words[0][0]}." or shown == name


WORDS = st.text(st.characters(blacklist_categories=("Cs", "Zs", "Cc")), min_size=1, max_size=16)
NAMES = st.lists(WORDS, min_size=1, max_size=4).map(" ".join)


@given(name=NAMES, template=st.sampled_from(["✋ Keep it ({})", "{} first", "✏️ {}'s step"]))
def test_a_label_names_a_person_in_whole_words_within_the_row(name: str, template: str) -> None:
    label = named(template, name)
    assert name_shown_whole(label, template.replace("{}", "\x00"), name), label
    first = label_width(template.replace("{}", name.split()[0]))
    assert label_width(label) <= ONE_ROW or first > ONE_ROW


LETTERS = st.text(st.characters(whitelist_categories=("L",)), min_size=1, max_size=12)
PLAIN_NAMES = st.lists(LETTERS, min_size=1, max_size=3).map(" ".join)


@given(names=st.lists(PLAIN_NAMES, min_size=1, max_size=5), room=st.integers(8, 30))
def test_a_label_naming_several_people_counts_those_it_has_no_room_for(
    names: list[str], room: int
) -> None:
    said = fit_names(names, room)
    shown, plus, more = said.rpartition(" +")
    shown, more = (shown, more) if plus else (said, "0")
    parts = shown.split(", ")
    assert len(parts) + int(more) == len(names), said
    for part, name in zip(parts, names, strict=False):
        assert part in {fit_name(name, n) for n in range(0, 40)}, (part, name)


def test_a_cut_name_is_told_from_a_whole_one() -> None:
    assert fit_name("Chidi Okafor", 10) == "Chidi"
    assert fit_name("Chidi Okafor", 12) == "Chidi Okafor"
    assert fit_name("Wolfeschlegelsteinhausen", 10) == "W."
    assert not name_shown_whole("✅ Keep · Chidi Ok…", "✅ Keep · \x00", "Chidi Okafor")
    assert name_shown_whole("✅ Keep · Chidi", "✅ Keep · \x00", "Chidi Okafor")
    assert named_many("Skip ({})", ["Ana Lee", "Bo", "Cy", "Dee"]) == "Skip (Ana Lee, Bo, Cy, Dee)"
    assert named_many("Skip detail 2 ({})", ["Zoya Drakonova"] * 4) == (
        "Skip detail 2 (Zoya, Zoya +2)"
    )
