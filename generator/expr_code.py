"""Checked spec expressions as Python source (for the rendered code) and as values (to
check the generated tests' examples against guards and invariants, without running any
spec text)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from generator import naming
from generator.expr import DECIMAL, DURATION, FLOAT, INT, Node, is_null
from generator.reserved import python_attribute
from generator.typeref import TypeRef


@dataclass
class Code:
    """Python source of an expression and what it needs imported (``timedelta``,
    ``Decimal``, enum names)."""

    source: str
    imports: set[str] = field(default_factory=set)


def member_name(value: str) -> str:
    """The Python name of an enum member: ``in-progress`` -> ``IN_PROGRESS``."""
    return "_".join(naming.words(value)).upper() or "EMPTY"


def to_python(node: Node, names: Mapping[str, str]) -> Code:
    """``node`` as Python source; ``names`` maps each spec name in scope to its Python
    expression (``dueDate`` -> ``self.due_date``)."""
    imports: set[str] = set()
    source = _Writer(names, imports).write(node)
    if node.op in _WRAPPED:
        source = source[1:-1]
    return Code(source, imports)


def refusal(node: Node, names: Mapping[str, str]) -> Code:
    """The Python condition under which the check ``node`` fails: ``not (...)``, or the
    operand itself of a check that is a negation (``not archived`` fails when
    ``self.archived`` holds), never ``not (not ...)``."""
    if node.op == "not":
        return to_python(node.args[0], names)
    if node.op == "compare" and len(node.value) == 1 and node.value[0] in _OPPOSITE:
        # `a == b` fails when `a != b` (ruff prefers that to `not (a == b)`)
        opposite = Node("compare", node.type, node.args, (_OPPOSITE[node.value[0]],))
        return to_python(opposite, names)
    written = to_python(node, names)
    return Code(f"not ({written.source})", written.imports)


_OPPOSITE = {
    "==": "!=",
    "!=": "==",
    "in": "not in",
    "not in": "in",
    "is": "is not",
    "is not": "is",
}
"""Comparisons whose negation is another comparison (orderings are not negated so: a
float may be NaN)."""


_IDENTITY = {"==": "is", "!=": "is not"}

_TRUTH_OPS = ("==", "!=", "is", "is not")
"""Comparisons that, with a bool literal on one side, are written as the other side."""


def _is_bool_literal(node: Node) -> bool:
    return node.op == "literal" and isinstance(node.value, bool)


_WRAPPED = frozenset({"not", "neg", "binary", "and", "or", "compare", "if"})
"""Nodes the writer puts in parentheses (dropped around a whole expression)."""


class _Writer:
    def __init__(self, names: Mapping[str, str], imports: set[str]) -> None:
        self.names = dict(names)
        self.imports = imports

    def write(self, node: Node) -> str:
        method: Callable[[Node], str] = getattr(self, f"_{node.op}")
        return method(node)

    def _literal(self, node: Node) -> str:
        return repr(node.value)

    def _member(self, node: Node) -> str:
        enum = node.type.required().name  # an optional field's value is typed optional
        self.imports.add(enum)
        return f"{enum}.{member_name(node.value)}"

    def _name(self, node: Node) -> str:
        return self.names[node.value]

    def _field(self, node: Node) -> str:
        return f"{self.write(node.args[0])}.{python_attribute(naming.snake(node.value))}"

    def _construct(self, node: Node) -> str:
        value = node.type.required().name  # an optional field's value is typed optional
        self.imports.add(value)
        given = (  # a field left out that has a default: the dataclass's own
            f"{python_attribute(naming.snake(name))}={self.write(arg)}"
            for name, arg in zip(node.value, node.args, strict=True)
            if arg.op != "default"
        )
        return f"{value}({', '.join(given)})"

    def _list(self, node: Node) -> str:
        return "[" + ", ".join(self.write(item) for item in node.args) + "]"

    def _not(self, node: Node) -> str:
        inner = node.args[0]
        if inner.op == "not":  # not not x: x as a bool (ruff SIM208)
            return f"(bool({self.write(inner.args[0])}))"
        if inner.op == "compare" and len(inner.value) == 1 and inner.value[0] in _OPPOSITE:
            # not (a == b): a != b (ruff SIM201, SIM202)
            return self._compare(
                Node("compare", inner.type, inner.args, (_OPPOSITE[inner.value[0]],))
            )
        return f"(not {self.write(inner)})"

    def _neg(self, node: Node) -> str:
        return f"(-{self.write(node.args[0])})"

    def _pos(self, node: Node) -> str:
        return self.write(node.args[0])

    def _binary(self, node: Node) -> str:
        left, right = (self.write(arg) for arg in node.args)
        return f"({left} {node.value} {right})"

    def _and(self, node: Node) -> str:
        return "(" + " and ".join(self.write(arg) for arg in node.args) + ")"

    def _or(self, node: Node) -> str:
        return "(" + " or ".join(self.write(arg) for arg in node.args) + ")"

    def _compare(self, node: Node) -> str:
        if len(node.value) == 1 and node.value[0] in _TRUTH_OPS:
            literals = [arg for arg in node.args if _is_bool_literal(arg)]
            if len(literals) == 1:
                return self._truth(node.value[0], node.args, literals[0])
        parts = [self.write(node.args[0])]
        for left, op, right in zip(node.args, node.value, node.args[1:], strict=False):
            if op in _IDENTITY and any(is_null(side) for side in (left, right)):
                op = _IDENTITY[op]  # null is compared by identity (PEP 8, ruff E711)
            parts += [op, self.write(right)]
        return "(" + " ".join(parts) + ")"

    def _truth(self, op: str, args: tuple[Node, ...], literal: Node) -> str:
        """``x == True`` written as ruff asks (E712): ``x`` or ``not x`` for a bool, ``x is
        True`` for an optional one (in parentheses, as every comparison is)."""
        other = args[1] if args[0] is literal else args[0]
        equal = op in ("==", "is")
        if other.type.kind == "optional":
            return f"({self.write(other)} {'is' if equal else 'is not'} {literal.value!r})"
        holds = equal == bool(literal.value)
        return f"({self.write(other)})" if holds else f"(not {self.write(other)})"

    def _if(self, node: Node) -> str:
        test = self.write(node.args[0])
        body, orelse = (self._as(node.type, arg) for arg in node.args[1:])
        return f"({body} if {test} else {orelse})"

    def _as(self, type_: TypeRef, node: Node) -> str:
        """``node`` written as a value of ``type_``: an int where a decimal is made
        ``Decimal(...)`` (``x if n else 0``, ``max(total, 0)``), for the type checker."""
        written = self.write(node)
        if type_.required() == DECIMAL and node.type.required() == INT:
            self.imports.add("Decimal")
            return f"Decimal({written})"
        return written

    def _call(self, node: Node) -> str:
        args = [self.write(arg) for arg in node.args]
        name = node.value
        if name == "decimal":
            self.imports.add("Decimal")
            return f"Decimal({args[0]})"
        if name in ("days", "hours", "minutes"):
            self.imports.add("timedelta")
            return f"timedelta({name}={args[0]})"
        if name == "date":
            return f"{args[0]}.date()"
        if name in ("lower", "upper", "strip"):
            return f"{args[0]}.{name}()"
        if name == "sum":
            return f"sum({args[0]}{self._start(node.type)})"
        if name in ("min", "max"):
            args = [self._as(node.type, arg) for arg in node.args]
        return f"{name}({', '.join(args)})"

    def _aggregate(self, node: Node) -> str:
        name, variable = node.value
        python = f"item_{naming.snake(variable)}"
        inner = _Writer({**self.names, variable: python}, self.imports)
        element = inner.write(node.args[0])
        iterable = self.write(node.args[1])
        condition = f" if {inner.write(node.args[2])}" if len(node.args) > 2 else ""
        generator = f"({element} for {python} in {iterable}{condition})"
        if name == "sum":
            return f"sum({generator}{self._start(node.type)})"
        if name in ("min", "max"):
            return f"{name}({generator}, default=None)"
        return f"{name}{generator}"

    def _comprehension(self, node: Node) -> str:
        python = f"item_{naming.snake(node.value)}"
        inner = _Writer({**self.names, node.value: python}, self.imports)
        element = inner.write(node.args[0])
        iterable = self.write(node.args[1])
        condition = f" if {inner.write(node.args[2])}" if len(node.args) > 2 else ""
        return f"[{element} for {python} in {iterable}{condition}]"

    def _start(self, type_: Any) -> str:
        if type_ == DECIMAL:
            self.imports.add("Decimal")
            return ", Decimal(0)"
        if type_ == FLOAT:
            return ", 0.0"
        if type_ == DURATION:
            self.imports.add("timedelta")
            return ", timedelta()"
        return ""


class EvalError(ValueError):
    """An expression has no value for these examples (a null compared, a division by 0)."""


def evaluate(node: Node, values: Mapping[str, Any]) -> Any:
    """The value of ``node`` where each name has its value in ``values`` (enum members as
    their strings, value objects as dicts by spec field name)."""
    try:
        return _evaluate(node, values)
    except (ArithmeticError, InvalidOperation, TypeError, KeyError, ValueError) as error:
        raise EvalError(str(error)) from None


_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
    "is": operator.is_,
    "is not": operator.is_not,
}


def _evaluate(node: Node, values: Mapping[str, Any]) -> Any:
    op, args = node.op, node.args
    if op == "literal" or op == "member" or op == "default":
        return node.value
    if op == "name":
        return values[node.value]
    if op == "field":
        return _evaluate(args[0], values)[node.value]
    if op == "list":
        return [_evaluate(arg, values) for arg in args]
    if op == "construct":  # a value object is a mapping of its fields, as examples are
        return {name: _evaluate(arg, values) for name, arg in zip(node.value, args, strict=True)}
    if op == "not":
        return not _evaluate(args[0], values)
    if op == "neg":
        return -_evaluate(args[0], values)
    if op == "pos":
        return _evaluate(args[0], values)
    if op == "binary":
        left, right = _evaluate(args[0], values), _evaluate(args[1], values)
        if node.type == INT and node.value == "/":
            raise EvalError("int / int")
        return _OPS[node.value](left, right)
    if op == "and":
        return all(_evaluate(arg, values) for arg in args)
    if op == "or":
        return any(_evaluate(arg, values) for arg in args)
    if op == "compare":
        left = _evaluate(args[0], values)
        for name, right_node in zip(node.value, args[1:], strict=True):
            right = _evaluate(right_node, values)
            if not _OPS[name](left, right):
                return False
            left = right
        return True
    if op == "if":
        return _evaluate(args[1] if _evaluate(args[0], values) else args[2], values)
    if op == "call":
        return _call(node.value, [_evaluate(arg, values) for arg in args])
    if op == "comprehension":
        made = []
        for item in _evaluate(args[1], values):
            scope = {**values, node.value: item}
            if len(args) > 2 and not _evaluate(args[2], scope):
                continue
            made.append(_evaluate(args[0], scope))
        return made
    if op == "aggregate":
        name, variable = node.value
        items = []
        for item in _evaluate(args[1], values):
            scope = {**values, variable: item}
            if len(args) > 2 and not _evaluate(args[2], scope):
                continue
            items.append(_evaluate(args[0], scope))
        if name == "sum":
            return sum(items, Decimal(0) if node.type == DECIMAL else 0)
        if name in ("min", "max"):
            return (min if name == "min" else max)(items) if items else None
        return all(items) if name == "all" else any(items)
    raise EvalError(f"cannot evaluate {op}")


def _call(name: str, args: list[Any]) -> Any:
    if name == "decimal":
        return Decimal(args[0])
    if name in ("days", "hours", "minutes"):
        return timedelta(**{name: args[0]})
    if name == "date":
        value = args[0]
        return value.date() if isinstance(value, datetime) else value
    if name in ("lower", "upper", "strip"):
        return getattr(args[0], name)()
    builtins: dict[str, Callable[..., Any]] = {
        "len": len,
        "min": min,
        "max": max,
        "abs": abs,
        "round": round,
        "sum": sum,
        "all": all,
        "any": any,
    }
    return builtins[name](*args)


def today_and_now() -> tuple[date, datetime]:
    """The instant examples are checked at (tests run later, so examples should hold for
    years: a due date in 2099, not next week)."""
    from datetime import UTC

    now = datetime.now(UTC)
    return now.date(), now


__all__ = ["INT", "Code", "EvalError", "evaluate", "member_name", "to_python"]
