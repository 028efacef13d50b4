"""The code's structure: class sizes, import cycles, core's packages.

Read from the source, across core/, tgbot/ and webapp/:

- a class's size is its own lines plus those of every project class it is made
  of (its bases, their bases: the mixins it composes), each counted once; a
  reader has to hold all of it at once, so it stays under ``CLASS_LIMIT``;
- an import cycle is a set of project modules that import each other, directly
  or through others, counting imports made inside functions and for type
  checking (the import contracts in pyproject.toml keep the layers, and no
  cycle between packages);
- core/ is its layer packages, nothing loose at its top.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "tgbot", "webapp")

CLASS_LIMIT = 300  # lines, the mixins a class is made of included

# Classes still over CLASS_LIMIT, with their measured size: each may only shrink, and
# the entry goes when the class is under the limit.
OVER_THE_LIMIT: dict[str, int] = {}

# Import cycles still there (each a set of modules); core/ has none.
KNOWN_CYCLES: list[set[str]] = []


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


@dataclass
class Module:
    """A module's classes (name → size and bases) and the names it imports."""

    name: str
    is_package: bool
    classes: dict[str, tuple[int, list[ast.expr]]] = field(default_factory=dict)
    imported: dict[str, tuple[str, str | None]] = field(default_factory=dict)


def read(name: str, path: Path) -> Module:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = Module(name, path.name == "__init__.py")
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            size = (node.end_lineno or node.lineno) - node.lineno + 1
            module.classes[node.name] = (size, node.bases)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            source = node.module
            if node.level:  # relative: from .x import Y
                parts = name.split(".")
                base = parts if module.is_package else parts[:-1]
                base = base[: len(base) - node.level + 1]
                source = ".".join([*base, node.module])
            for alias in node.names:
                module.imported[alias.asname or alias.name] = (source, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                module.imported[alias.asname or alias.name.split(".")[0]] = (alias.name, None)
    return module


class Classes:
    """Every project class, and the project classes each is made of."""

    def __init__(self) -> None:
        self.modules = {name: read(name, path) for name, path in modules().items()}

    def resolve(self, module: str, name: str, depth: int = 0) -> tuple[str, str] | None:
        """Where the class ``name`` seen in ``module`` is defined, if in the project."""
        found = self.modules.get(module)
        if found is None or depth > 10:
            return None
        if name in found.classes:
            return module, name
        if name in found.imported:
            source, original = found.imported[name]
            if original is not None:
                if f"{source}.{original}" in self.modules:
                    return None  # a module, not a class
                return self.resolve(source, original, depth + 1)
        return None

    def base(self, module: str, expression: ast.expr) -> tuple[str, str] | None:
        if isinstance(expression, ast.Name):
            return self.resolve(module, expression.id)
        if isinstance(expression, ast.Attribute) and isinstance(expression.value, ast.Name):
            imported = self.modules[module].imported.get(expression.value.id)
            if imported is not None:
                source, original = imported
                target = source if original is None else f"{source}.{original}"
                return self.resolve(target, expression.attr)
        if isinstance(expression, ast.Subscript):  # Generic[T], Protocol[T]
            return self.base(module, expression.value)
        return None

    def size(self, module: str, name: str) -> int:
        seen: set[tuple[str, str]] = set()
        todo = [(module, name)]
        total = 0
        while todo:
            key = todo.pop()
            if key in seen:
                continue
            seen.add(key)
            lines, bases = self.modules[key[0]].classes[key[1]]
            total += lines
            todo += [b for e in bases if (b := self.base(key[0], e)) is not None]
        return total

    def sizes(self) -> dict[str, int]:
        return {
            f"{module}.{name}": self.size(module, name)
            for module, found in self.modules.items()
            for name in found.classes
        }


def import_cycles() -> list[set[str]]:
    """The project's strongly connected sets of modules (Tarjan's algorithm)."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    names = sorted(m for m in graph.modules if m.split(".")[0] in PACKAGES)
    project = set(names)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & project) for m in names}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = set()
            while True:
                other = stack.pop()
                on_stack.discard(other)
                group.add(other)
                if other == node:
                    break
            if len(group) > 1:
                cycles.append(group)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(names)))
    try:
        for name in names:
            if name not in index:
                visit(name)
    finally:
        sys.setrecursionlimit(limit)
    return cycles


def test_no_class_is_over_the_limit_counting_its_mixins() -> None:
    sizes = Classes().sizes()
    base = sizes["core.campaigns.base.CampaignsBase"]
    assert sizes["core.campaigns.presses.Presses"] > base  # its base is counted in
    over = {name: size for name, size in sizes.items() if size > CLASS_LIMIT}
    largest = sorted(over.items(), key=lambda item: -item[1])
    print("\nclasses over the limit:", largest)
    for name, size in over.items():
        assert name in OVER_THE_LIMIT, f"{name}: {size} lines with its mixins"
        assert size <= OVER_THE_LIMIT[name], f"{name} grew to {size} lines"
    gone = set(OVER_THE_LIMIT) - set(over)
    assert not gone, f"under the limit now, take them off OVER_THE_LIMIT: {gone}"


def test_no_new_import_cycle_and_none_in_core() -> None:
    cycles = import_cycles()
    print("\nimport cycles:", cycles)
    assert not [c for c in cycles if any(m.startswith("core.") for m in c)], cycles
    for cycle in cycles:
        assert cycle in KNOWN_CYCLES, f"a new import cycle: {sorted(cycle)}"


def test_core_holds_only_its_layer_packages() -> None:
    """core/ is its packages (docs/architecture.md, "core/, package by package"): a new
    module goes into the layer it belongs to, never loose at the top."""
    core = ROOT / "core"
    loose = sorted(
        p.name for p in core.glob("*.py") if p.name not in ("__init__.py", "__main__.py")
    )
    assert loose == [], f"modules loose in core/: {loose}"
    packages = sorted(p.name for p in core.iterdir() if (p / "__init__.py").exists())
    assert packages == ["campaigns", "rules", "runtime", "store", "views", "words"], packages
