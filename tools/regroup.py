"""Group core/'s loose modules into packages that show the layers, and rewrite every reference.

Run from the repository root, on a clean tree::

    python3 tools/regroup.py            # move, rewrite, then sort imports with .venv/bin/ruff
    python3 tools/regroup.py --dry-run  # say what would change, change nothing

It is idempotent: a module already moved is left alone, a reference already rewritten
no longer matches, and a second run changes nothing. Standard library only (ruff, when
``.venv/bin/ruff`` exists, only puts the rewritten imports back in order).

What it does, in order:

1. creates the new packages (``core/words``, ``core/runtime``, ``core/views``) with an
   ``__init__.py`` saying what they hold, and ``git mv``s each module of :data:`MOVES`;
2. rewrites every reference in the tracked text files (:func:`tracked`): dotted names
   (``core.outbox`` → ``core.store.outbox``: imports, ``import core.x``, ``core.x.attr``,
   monkeypatch and ``mock.patch`` targets, logger names, pyproject, babel.cfg), paths
   (``core/outbox.py`` → ``core/store/outbox.py``: docs, README, babel.cfg, tests'
   path strings, the models' docstrings and the migrations that copied them), and
   ``from core import a, b`` (split by package; ``from core import rules`` stays);
3. applies the few edits a move needs besides (:data:`PATCHES`: ``core/words/i18n.py``
   finds ``locale/`` one folder further up);
4. states the layers in pyproject.toml's import contracts (:func:`contracts`) and writes
   the layout table into docs/architecture.md (:func:`layout_section`);
5. sorts the imports of the rewritten Python files (``ruff check --fix --select I``) and
   lists any module still loose in core/ and any rewritten line over 100 characters.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

# package: (layer, what it holds, its modules moved from core/)
PACKAGES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "rules": ("1, the bottom", "pure game rules: no I/O, no clock, no global random", ()),
    "words": (
        "2",
        "words users read: the catalogues, and the rules' words in the reader's language",
        ("i18n", "typed_words", "map_words", "cortex_words", "pronouns"),
    ),
    "runtime": (
        "2",
        "process-wide services: settings, error types, keyed locks, campaign events",
        ("settings", "errors", "locks", "events"),
    ),
    "store": (
        "3",
        "persistence: models, statements, the guarded save, the outbox, request keys",
        ("outbox", "roll_history", "housekeeping"),
    ),
    "campaigns": (
        "4",
        "use cases: campaigns and panels, undo, rolls, chat settings, the Mini App's request keys",
        (
            "undo",
            "play",
            "idempotency",  # the web side's keys: the Mini App reaches no core.store module
            "secret_rolls",
            "inline_rolls",
            "saved_rolls",
            "sheet_rolls",
            "pictures",
            "topics",
            "languages",
        ),
    ),
    "views": (
        "5, the top",
        "what a viewer may see: projections, Mini App pages, the story, the archive",
        ("projection", "open_panels", "viewer_pages", "story", "archive"),
    ),
}
NEW_PACKAGES = {
    "words": "Words users read: message catalogues, and the rules' words in the reader's language.",
    "runtime": "Process-wide services: settings, error types, keyed locks, campaign events.",
    "views": "What a viewer may see: projections of campaigns, the Mini App's pages, the story, "
    "the archive.",
}
MOVES: dict[str, str] = {
    module: package for package, (_, _, modules) in PACKAGES.items() for module in modules
}
KEPT = {"__init__", "__main__"}  # the only modules core/ keeps at its top

# Edits a move needs besides its references: (file after the move, old text, new text).
PATCHES = [
    (
        "core/words/i18n.py",
        'LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"',
        'LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"',
    ),
    # core/campaigns/*.py now holds pictures.py too: its sentence names a size in KB
    (
        "tests/tgbot/test_i18n_pseudo.py",
        "                limit=9,\n                count=2,\n",
        "                limit=9,\n                kb=9,\n                count=2,\n",
    ),
    # lines the longer names would take over 100 characters
    (
        "tests/webapp/test_secrecy.py",
        'RAW_READERS = {"export_campaign", "campaign_rows", "open_panels"}'
        "  # unless from core.views.projection",
        "# read raw, unless imported from core.views.projection\n"
        'RAW_READERS = {"export_campaign", "campaign_rows", "open_panels"}',
    ),
    (
        "tgbot/features/saved.py",
        '"""/save and /saved: rolls kept under a name, used with /roll NAME',
        '"""/save and /saved: rolls kept under a name, for /roll NAME',
    ),
]
LIMIT = 100  # ruff's line-length

TEXT_SUFFIXES = {".py", ".toml", ".md", ".cfg", ".ini", ".yml", ".yaml", ".txt", ".sh", ".html"}
TEXT_NAMES = {"Makefile", "Dockerfile", "run", ".dockerignore"}
SKIPPED = ("tools/regroup.py", "locale/", "constraints.txt")

DOTTED = re.compile(r"(?<![\w.])core\.(" + "|".join(sorted(MOVES)) + r")(?![\w])")
PATHS = re.compile(r"(?<![\w/.])core/(" + "|".join(sorted(MOVES)) + r")(\.py)?(?![\w/])")
FROM_CORE = re.compile(
    r"^(?P<indent>[ \t]*)from core import (?:\((?P<group>[^)]*)\)|(?P<plain>[^\n#]*?))"
    r"(?P<comment>[ \t]*#[^\n]*)?$",
    re.MULTILINE,
)


def tracked(root: Path) -> list[Path]:
    """The repository's tracked text files this rewrites (not this script, not catalogues)."""
    names = subprocess.run(
        ["git", "ls-files"], cwd=root, check=True, capture_output=True, text=True
    ).stdout.splitlines()
    found = []
    for name in names:
        path = root / name
        if name.startswith(SKIPPED) or not path.is_file():
            continue
        if path.suffix in TEXT_SUFFIXES or path.name in TEXT_NAMES:
            found.append(path)
    return found


def rewrite_from_core(match: re.Match[str]) -> str:
    """``from core import outbox, rules``: ``from core.store import outbox`` and the rest."""
    body = match.group("group") if match.group("group") is not None else match.group("plain")
    names = [n.strip() for n in body.replace("\n", " ").split(",") if n.strip()]
    if not any(n.split()[0] in MOVES for n in names):
        return match.group(0)
    indent = match.group("indent")
    by_package: dict[str, list[str]] = {}
    for name in names:
        package = MOVES.get(name.split()[0])
        by_package.setdefault(f"core.{package}" if package else "core", []).append(name)
    lines = [f"{indent}from {p} import {', '.join(n)}" for p, n in by_package.items()]
    comment = match.group("comment") or ""
    return "\n".join(lines) + comment


def rewrite_text(text: str) -> str:
    text = FROM_CORE.sub(rewrite_from_core, text)
    text = DOTTED.sub(lambda m: f"core.{MOVES[m.group(1)]}.{m.group(1)}", text)
    return PATHS.sub(lambda m: f"core/{MOVES[m.group(1)]}/{m.group(1)}{m.group(2) or ''}", text)


STRINGS = re.compile(
    r'^(?P<indent>[ \t]*)(?P<items>"[^"\n]*"(?:,[ \t]*"[^"\n]*")*)(?P<end>,?)[ \t]*$'
)


def wrap_strings(text: str) -> str:
    """Re-wrap a too-long line that is only string literals (a list of paths) at ``LIMIT``."""
    out = []
    for line in text.split("\n"):
        match = STRINGS.match(line)
        if len(line) <= LIMIT or match is None:
            out.append(line)
            continue
        indent, items = match.group("indent"), re.split(r",[ \t]*", match.group("items"))
        current = ""
        for item in items:
            candidate = f"{current} {item}," if current else f"{indent}{item},"
            if current and len(candidate) > LIMIT:
                out.append(current)
                candidate = f"{indent}{item},"
            current = candidate
        out.append(current if match.group("end") else current[:-1])
    return "\n".join(out)


def contracts(text: str) -> str:
    """pyproject.toml's import contracts state core's layers (once; the old undo one goes)."""
    old = re.compile(
        r'\[\[tool\.importlinter\.contracts\]\]\nname = "The undo use case sits above the '
        r"campaign use cases[^\[]*?layers = \[[^\]]*\]\n\n?",
    )
    text = old.sub("", text)
    if "The layers of core" in text:
        return text
    layers = [f'"core.{p}"' for p in ("views", "campaigns", "store")]
    block = (
        "\n[[tool.importlinter.contracts]]\n"
        'name = "The layers of core: each package imports only those below it"\n'
        "# the rules mark their words for the catalogue with N_ (a name, no I/O) from core.words\n"
        'type = "layers"\n'
        f'layers = [{", ".join(layers)}, "core.words | core.runtime", "core.rules"]\n'
        'ignore_imports = ["core.rules.** -> core.words.i18n"]\n'
    )
    anchor = '\n[[tool.importlinter.contracts]]\nname = "Core does not depend on the edges"'
    if anchor in text:
        return text.replace(anchor, block + anchor, 1)
    return text.rstrip("\n") + "\n" + block


def layout_section(root: Path) -> str:
    """The layout table, read from the tree: each package's modules and its layer."""
    rows = ["| package | layer | what it holds | modules |", "|---|---|---|---|"]
    for package, (layer, what, _) in reversed(PACKAGES.items()):
        folder = root / "core" / package
        names = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
        names += sorted(f"{p.name}/" for p in folder.iterdir() if (p / "__init__.py").exists())
        rows.append(f"| `core.{package}` | {layer} | {what} | {', '.join(names)} |")
    return (
        "### core/, package by package\n\n"
        "core/ holds only packages (and `__main__`, the odds command). Each imports only the\n"
        "packages below it (`core.words` and `core.runtime` share a layer and import neither\n"
        "the other); the rules import nothing else of core (their marker of words for the\n"
        'catalogue, `N_`, is `core.rules.catalogue`\'s). The import contract "The layers of core"\n'
        "in pyproject.toml (`lint-imports`) keeps it so, and `tests/test_structure.py` fails on\n"
        "an import cycle. A new module goes in the package of its layer.\n\n"
        + "\n".join(rows)
        + "\n"
    )


def architecture(text: str, root: Path) -> str:
    """Replace the planned grouping (or an earlier run's table) with the layout."""
    section = re.compile(
        r"### (?:Planned grouping of core/|core/, package by package)\n.*?(?=\n## |\n### |\Z)",
        re.DOTALL,
    )
    return section.sub(lambda _: layout_section(root), text, count=1)


def git(root: Path, *args: str, dry: bool) -> None:
    print("git", *args)
    if not dry:
        subprocess.run(["git", *args], cwd=root, check=True)


def move(root: Path, dry: bool) -> None:
    for package, doc in NEW_PACKAGES.items():
        init = root / "core" / package / "__init__.py"
        if not init.exists():
            print("create", init.relative_to(root))
            if not dry:
                init.parent.mkdir(exist_ok=True)
                init.write_text(f'"""{doc}"""\n', encoding="utf-8")
                git(root, "add", str(init.relative_to(root)), dry=dry)
    for module, package in MOVES.items():
        source = root / "core" / f"{module}.py"
        target = root / "core" / package / f"{module}.py"
        if source.exists() and target.exists():
            sys.exit(f"both {source.relative_to(root)} and {target.relative_to(root)} exist")
        if source.exists():
            git(root, "mv", str(source.relative_to(root)), str(target.relative_to(root)), dry=dry)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="change nothing, say what would")
    parser.add_argument("--no-ruff", action="store_true", help="leave the imports' order alone")
    args = parser.parse_args()
    root = Path.cwd()
    if not (root / "core").is_dir() or not (root / ".git").exists():
        sys.exit("run from the repository root")
    move(root, args.dry_run)

    changed: list[Path] = []
    for path in tracked(root) if not args.dry_run else []:
        before = path.read_text(encoding="utf-8")
        after = rewrite_text(before)
        relative = path.relative_to(root).as_posix()
        if path.suffix == ".py" and after != before:
            after = wrap_strings(after)
        if relative == "pyproject.toml":
            after = contracts(after)
        if relative == "docs/architecture.md":
            after = architecture(after, root)
        for file, old, new in PATCHES:
            if relative == file:
                after = after.replace(old, new)
        if after != before:
            path.write_text(after, encoding="utf-8")
            changed.append(path)
            print("rewrote", relative)
    if args.dry_run:
        for path in tracked(root):
            text = path.read_text(encoding="utf-8")
            if rewrite_text(text) != text:
                print("would rewrite", path.relative_to(root))

    python = [p for p in changed if p.suffix == ".py" and p.parent.name != "migrations"]
    ruff = root / ".venv" / "bin" / "ruff"
    ruff_cmd = str(ruff) if ruff.exists() else shutil.which("ruff")
    if python and not args.no_ruff and ruff_cmd:
        subprocess.run(
            [ruff_cmd, "check", "--fix", "--select", "I", "--quiet", *map(str, python)],
            cwd=root,
            check=False,
        )
    elif python and not args.no_ruff:
        print("ruff not found: run `ruff check --fix --select I .` to sort the imports")

    for path in changed:
        if path.suffix != ".py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if len(line) > LIMIT and "core" in line:
                print(f"check the length: {path.relative_to(root)}:{number}")
    loose = sorted(
        p.stem for p in (root / "core").glob("*.py") if p.stem not in KEPT and p.stem not in MOVES
    )
    if loose:
        print("still loose in core/ (add them to PACKAGES):", ", ".join(loose))


if __name__ == "__main__":
    main()
