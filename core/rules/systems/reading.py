"""How a system's roll is read: a small expression language over its inputs and dice.

An expression is written as a Python expression and checked against a short list of
what may appear, so a host can write one safely: whole numbers, ``True``/``False``,
``+ - * // %``, comparisons, ``and``/``or``/``not``, ``A if C else B``, ``min``,
``max``, ``abs``, the names of the inputs and of earlier named values, and what a
group of dice shows:

- ``total(g)``: the sum of its dice (of the kept ones, when the group keeps some);
- ``high(g)``, ``low(g)``: its highest and lowest die (a die with the dice its
  explosion added reads as their sum); 0 when the group has no dice;
  ``high(g, "<100")``, ``low(g, ">0")``: the same among the dice that meet the
  comparison (0 when none does);
- ``count(g, ">=5")``: how many faces (every face an explosion added too) meet the
  comparison, written as in the dice grammar (``=6``, ``>=8``, ``<=1``, ``<>1``).

Nothing else reads: no attributes, no other calls, no powers, no strings but a
``count`` comparison. A reading is compiled once and evaluated with nothing but the
values it names.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import CodeType

from core.rules.dice import Compare
from core.rules.errors import Malformed

MAX_EXPRESSION = 400  # characters of one expression

BAD_EXPRESSION = (
    "“{field}” can't be read at “{what}”. An expression holds whole numbers, the inputs' "
    "names, + - * // %, comparisons, and, or, not, A if C else B, min, max, abs, total, high, "
    "low and count."
)
UNKNOWN_NAME = "“{field}” names “{name}”, which is neither an input nor a value defined before it."
UNKNOWN_GROUP = "“{field}” reads dice “{name}”, but the definition has no such dice."
BAD_COUNT = '“{field}”: count needs dice and a comparison, as in count(pool, ">=5").'
LONG_EXPRESSION = "“{field}” is too long: at most {limit} characters."

FEATURES = ("total", "high", "low")  # what a group shows; ``count`` takes a comparison too
_FUNCTIONS = ("min", "max", "abs")
_COMPARE = re.compile(r"^(>=|<=|<>|!=|>|<|=)?(-?\d{1,6})$")

_ALLOWED = (
    ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call,
    ast.Name, ast.Load, ast.Constant, ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod,
    ast.USub, ast.UAdd, ast.Not, ast.And, ast.Or, ast.Eq, ast.NotEq, ast.Lt, ast.LtE,
    ast.Gt, ast.GtE,
)  # fmt: skip


@dataclass(frozen=True)
class Feature:
    """What one group of dice shows that a reading uses: ``total``, ``high``, ``low``
    or ``count`` (with ``compare``)."""

    group: str
    kind: str
    compare: Compare | None = None

    @property
    def name(self) -> str:
        """The variable the compiled expression reads it from."""
        if self.compare is None:
            return f"{self.kind}__{self.group}"
        op = {">=": "ge", "<=": "le", ">": "gt", "<": "lt", "=": "eq", "!=": "ne"}[self.compare.op]
        return f"{self.kind}__{self.group}__{op}__{self.compare.value}".replace("-", "m")


def read_compare(text: str) -> Compare | None:
    """A comparison point as the dice grammar writes it (a bare number is ``=``)."""
    match = _COMPARE.match(text.strip())
    if match is None:
        return None
    op = match.group(1) or "="
    return Compare("!=" if op == "<>" else op, int(match.group(2)))


@dataclass(frozen=True)
class Expression:
    """A checked, compiled expression and what it reads."""

    text: str
    code: CodeType
    names: frozenset[str]  # the inputs and named values it reads
    features: frozenset[Feature]
    where: tuple[str, frozenset[str], frozenset[str]]  # its field, and what it could read

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # code can't be pickled: sent to another process (odds run there), it is compiled again
        return compile_expression, (self.text, *self.where)

    def evaluate(self, values: Mapping[str, int]) -> int:
        """Its value, given every name and feature it reads (by :attr:`Feature.name`)."""
        result = eval(
            self.code, {"__builtins__": {}, "min": min, "max": max, "abs": abs}, dict(values)
        )
        return int(result)


def compile_expression(
    text: object, field: str, names: frozenset[str], groups: frozenset[str]
) -> Expression:
    """Check ``text`` (the definition's ``field``) and compile it.

    Args:
        names: the inputs and named values it may read.
        groups: the dice groups it may read.

    Raises:
        Malformed: it isn't an expression of the language, or reads something unknown.
    """
    if not isinstance(text, (str, int)) or isinstance(text, bool):
        raise Malformed(BAD_EXPRESSION, field=field, what=str(text))
    source = str(text)
    if len(source) > MAX_EXPRESSION:
        raise Malformed(LONG_EXPRESSION, field=field, limit=MAX_EXPRESSION)
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError:
        raise Malformed(BAD_EXPRESSION, field=field, what=source.strip()[:40]) from None
    used: set[str] = set()
    features: set[Feature] = set()
    tree = _Rewrite(field, names, groups, used, features).visit(tree)
    ast.fix_missing_locations(tree)
    code = compile(tree, f"<{field}>", "eval")
    return Expression(source, code, frozenset(used), frozenset(features), (field, names, groups))


class _Rewrite(ast.NodeTransformer):
    """Checks every node and turns ``total(g)``, ``count(g, ">=5")``… into plain names."""

    def __init__(
        self, field: str, names: frozenset[str], groups: frozenset[str],
        used: set[str], features: set[Feature],
    ) -> None:  # fmt: skip
        self.field, self.names, self.groups = field, names, groups
        self.used, self.features = used, features

    def fail(self, node: ast.AST) -> Malformed:
        return Malformed(BAD_EXPRESSION, field=self.field, what=ast.unparse(node)[:40])

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if not isinstance(node, _ALLOWED):
            raise self.fail(node)
        return super().generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if not isinstance(node.value, int):
            raise self.fail(node)
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id not in self.names:
            raise Malformed(UNKNOWN_NAME, field=self.field, name=node.id)
        self.used.add(node.id)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        func = node.func.id if isinstance(node.func, ast.Name) else ""
        if node.keywords:
            raise self.fail(node)
        if func in _FUNCTIONS:
            if not node.args:
                raise self.fail(node)
            node.args = [self.visit(a) for a in node.args]
            return node
        if func not in (*FEATURES, "count"):
            raise self.fail(node)
        wanted = (2,) if func == "count" else (1,) if func == "total" else (1, 2)
        group = node.args[0] if node.args else None
        if len(node.args) not in wanted or not isinstance(group, ast.Name):
            if func == "count":
                raise Malformed(BAD_COUNT, field=self.field)
            raise self.fail(node)
        if group.id not in self.groups:
            raise Malformed(UNKNOWN_GROUP, field=self.field, name=group.id)
        compare = None
        if len(node.args) == 2:
            point = node.args[1]
            text = point.value if isinstance(point, ast.Constant) else None
            compare = read_compare(text) if isinstance(text, str) else None
            if compare is None and func == "count":
                raise Malformed(BAD_COUNT, field=self.field)
            if compare is None:
                raise self.fail(node)
        feature = Feature(group.id, func, compare)
        self.features.add(feature)
        return ast.copy_location(ast.Name(id=feature.name, ctx=ast.Load()), node)


Addend = tuple[int, str, str | int]
"""One part of a sum: its sign (1 or -1), what it is (``"dice"``: a group's total, read
``"name"``: an input or a follow-up's name, ``"number"``), and which (or the number)."""


def sum_parts(text: str, lets: Mapping[str, str]) -> tuple[Addend, ...] | None:
    """The parts of ``text`` when it is a plain sum: group totals, inputs and whole
    numbers added and taken away (named values that are such sums themselves read as
    their parts); None for anything else (a highest die, a condition, a product).

    ``text`` is an expression already checked (:func:`compile_expression`)."""
    found: list[Addend] = []

    def walk(node: ast.AST, sign: int, depth: int) -> bool:
        if depth > len(lets) + 1:
            return False
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            right = sign if isinstance(node.op, ast.Add) else -sign
            return walk(node.left, sign, depth) and walk(node.right, right, depth)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return walk(node.operand, -sign if isinstance(node.op, ast.USub) else sign, depth)
        if isinstance(node, ast.Constant) and type(node.value) is int:
            found.append((sign, "number", node.value))
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            group = node.args[0] if len(node.args) == 1 else None
            if node.func.id == "total" and isinstance(group, ast.Name):
                found.append((sign, "dice", group.id))
                return True
            return False
        if isinstance(node, ast.Name):
            if node.id in lets:
                return walk(ast.parse(lets[node.id].strip(), mode="eval").body, sign, depth + 1)
            found.append((sign, "name", node.id))
            return True
        return False

    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return None
    return tuple(found) if walk(tree.body, 1, 0) else None
