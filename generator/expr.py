"""The expression language of specs (guards, invariants, computed fields, values a command
sets): a small, typed subset of Python's expression syntax, parsed without running
anything and checked against the names in scope. `expr_code` turns a checked expression
into Python source and evaluates it for the generated tests' examples.

    status == 'active' and dueDate < today
    available - 1
    sum(l.quantity * l.unitPrice for l in lines)
"""

from __future__ import annotations

import ast
import difflib
import io
import keyword as python_keyword
import math
import tokenize
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from generator.typeref import NUMERIC, TypeRef

MAX_LENGTH = 500
MAX_NODES = 200
BOOL = TypeRef.scalar("bool")
INT = TypeRef.scalar("int")
FLOAT = TypeRef.scalar("float")
DECIMAL = TypeRef.scalar("decimal")
STR = TypeRef.scalar("str")
DATE = TypeRef.scalar("date")
DATETIME = TypeRef.scalar("datetime")
DURATION = TypeRef.scalar("duration")
NONE = TypeRef.scalar("none")
FUNCTIONS = (
    "len",
    "days",
    "hours",
    "minutes",
    "min",
    "max",
    "abs",
    "round",
    "sum",
    "all",
    "any",
    "date",
    "lower",
    "upper",
    "strip",
)


_USAGE = {
    "round": "it takes a decimal or a float and how many places: round(total, 2)",
    "days": "it takes an int: days(7)",
    "hours": "it takes an int: hours(2)",
    "minutes": "it takes an int: minutes(30)",
}
"""How a function whose arguments do not fit is called."""


class ExprError(ValueError):
    """An expression that cannot be used; the message is for the spec author."""


class SaidError(ExprError):
    """An expression naming what was refused already (a field whose type is wrong): the
    refusal said why, this would only follow from it."""


@dataclass(frozen=True)
class Node:
    """A checked expression: ``op`` says what it is, ``type`` what it gives."""

    op: str
    type: TypeRef
    args: tuple[Node, ...] = ()
    value: Any = None  # a literal's value, a name, an operator, a function or an enum member
    spelled: str | None = field(default=None, compare=False)
    """A number literal with a fraction as the spec wrote it (``0.10``), which a decimal
    takes exactly; its ``value`` is the nearest float."""


def names_in(node: Node) -> set[str]:
    """The names an expression reads (``event.x`` as such; a comprehension's own
    variable included)."""
    found = {str(node.value)} if node.op == "name" else set()
    for arg in node.args:
        found |= names_in(arg)
    return found


def names_beyond_presence(node: Node) -> set[str]:
    """The names an expression reads other than by asking whether they hold a value
    (``token is not None`` reads only that: a hidden or secret field may be asked)."""
    if node.op == "compare" and len(node.args) == 2 and node.value in (("is",), ("is not",)):
        named, other = node.args
        if named.op == "name" and other.type == NONE:
            return set()
    found = {str(node.value)} if node.op == "name" else set()
    for arg in node.args:
        found |= names_beyond_presence(arg)
    return found


@dataclass
class Scope:
    """The names an expression may use, with their types; ``values`` (enums and value
    objects of the spec) resolve member literals and value-object fields."""

    names: dict[str, TypeRef]
    enums: Mapping[str, list[str]] = field(default_factory=dict)
    values: Mapping[str, Mapping[str, TypeRef]] = field(default_factory=dict)
    defaults: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """The defaults of the values' fields that have one (as expressions compute with
    them), which a value object made in an expression takes when it is left out."""
    unnamable: Mapping[str, str] = field(default_factory=dict)
    """Names that are known but may not be used here, with why (a computed value)."""
    refused: frozenset[str] = frozenset()
    """Names declared but refused already (a field whose type is wrong): naming one is not
    refused again."""

    def with_names(self, extra: Mapping[str, TypeRef]) -> Scope:
        return replace(self, names={**self.names, **extra})


def parse(text: str, scope: Scope, expected: TypeRef | None = None) -> Node:
    """``text`` checked against ``scope``; ``expected`` (the type the result must have, if
    known) lets a bare or quoted enum member stand for itself."""
    if not isinstance(text, str):
        text = _literal_text(text)
    if len(text) > MAX_LENGTH:
        raise ExprError(f"an expression is at most {MAX_LENGTH} characters")
    if any(ord(c) < 32 for c in text):
        raise ExprError("an expression is one line without control characters")
    if expected is not None and expected.required().kind == "enum":
        enum = expected.required()
        members = scope.enums.get(enum.name, [])
        bare = text.strip()
        if bare in members and bare not in scope.names:
            return Node("member", enum, value=bare)
        if (
            bare.isidentifier()
            and not python_keyword.iskeyword(bare)
            and bare not in scope.names
            and bare not in FUNCTIONS
        ):
            raise ExprError(_not_a_member(bare, enum.name, members))
    try:
        source = _keywords_as_names(text.strip())
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError, tokenize.TokenError) as error:
        reason = getattr(error, "msg", None) or "not an expression"
        raise ExprError(
            f"cannot read expression {_show(text)}{_keyword_hint(text, scope)}: {reason}"
        ) from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ExprError(f"an expression has at most {MAX_NODES} parts")
    _restore_keyword_names(tree)
    _keep_spellings(tree, source)
    node = _Checker(scope).check(tree.body, expected)
    if expected is not None:
        node = coerce(node, expected, text)
    return node


def _keep_spellings(tree: ast.AST, source: str) -> None:
    """Mark each number literal with a fraction or an exponent with its text in ``source``
    (``12345678901234567.89``, which a float would round): a decimal takes it as written."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, float):
            node.spelled = ast.get_source_segment(source, node)  # type: ignore[attr-defined]


# Python keywords that expressions never use as keywords may name a field (``class``,
# ``from``): they are read as names, parsed under a stand-in and given back their own.
_EXPRESSION_KEYWORDS = frozenset(
    {"and", "or", "not", "in", "is", "if", "else", "for", "None", "True", "False"}
)
_NAME_KEYWORDS = frozenset(python_keyword.kwlist) - _EXPRESSION_KEYWORDS
_STAND_IN = "__keyword_name"


def _keywords_as_names(text: str) -> str:
    if not any(word in text for word in _NAME_KEYWORDS):
        return text
    tokens = [
        (
            kind,
            f"{value}{_STAND_IN}" if kind == tokenize.NAME and value in _NAME_KEYWORDS else value,
        )
        for kind, value, *_ in tokenize.generate_tokens(io.StringIO(text).readline)
    ]
    return tokenize.untokenize(tokens).strip()


def _restore_keyword_names(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        for attribute in ("id", "arg", "attr"):
            name = getattr(node, attribute, None)
            if isinstance(name, str) and name.endswith(_STAND_IN):
                setattr(node, attribute, name.removesuffix(_STAND_IN))


def _keyword_hint(text: str, scope: Scope) -> str:
    """Why a name of the scope cannot be read here: it is a keyword of expressions."""
    words = set(text.replace("(", " ").replace(")", " ").split())
    clashes = sorted(words & _EXPRESSION_KEYWORDS & set(scope.names))
    if not clashes:
        return ""
    return f" ({clashes[0]!r} names a field but is a keyword of expressions: rename the field)"


def _not_a_member(value: str, enum: str, members: list[str]) -> str:
    return f"{value!r} is not a {enum} (expected one of: {', '.join(members)})"


def _literal_text(value: Any) -> str:
    if value is None:  # YAML's null: the expression ``None``
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int | float):
        return repr(value)
    raise ExprError(f"expected an expression (text or a number), not {type(value).__name__}")


def _show(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def assignable(source: TypeRef, target: TypeRef) -> bool:
    """Whether a value of ``source`` may be stored where ``target`` is expected."""
    if source == target:
        return True
    if target.kind == "optional":
        return source == NONE or assignable(source.required(), target.required())
    if source.kind == "optional":
        return False
    if target in (FLOAT, DECIMAL) and source == INT:
        return True
    if source.kind == target.kind and source.kind in ("list", "map"):
        return source.element == NONE or assignable(source.element, target.element)
    return False


def coerce(node: Node, target: TypeRef, text: str) -> Node:
    """``node`` as a value of ``target`` (an int where a decimal is expected...)."""
    if node.type == target:
        return node
    if target.required() == DECIMAL and _float_literal(node):
        return _decimal_literal(node)
    if not assignable(node.type, target):
        raise ExprError(f"{_show(text)} is {_describe(node.type)}, expected {_describe(target)}")
    if target.required() == DECIMAL and node.type == INT:
        return Node("call", DECIMAL, (node,), "decimal")
    return Node(node.op, target, node.args, node.value)


def _float_literal(node: Node) -> bool:
    """Whether ``node`` is a number written with a fraction (``0.98``, ``-1.5``)."""
    if node.op in ("neg", "pos"):
        return _float_literal(node.args[0])
    return node.op == "literal" and node.type == FLOAT


def _decimal_literal(node: Node) -> Node:
    """The float literal ``node`` as the decimal it spells (``Decimal('0.98')``)."""
    if node.op in ("neg", "pos"):
        return Node(node.op, DECIMAL, (_decimal_literal(node.args[0]),))
    written = (node.spelled or repr(node.value)).replace("_", "")
    return Node("call", DECIMAL, (Node("literal", STR, value=written),), "decimal")


def _as_decimals(left: Node, right: Node) -> tuple[Node, Node]:
    """A number written with a fraction beside a decimal is a decimal (``gravity >= 0.98``,
    ``price * 1.2``): a decimal and a float do not mix, and a literal is what it spells."""
    if left.type.required() == DECIMAL and _float_literal(right):
        return left, _decimal_literal(right)
    if right.type.required() == DECIMAL and _float_literal(left):
        return _decimal_literal(left), right
    return left, right


def _describe(type_: TypeRef) -> str:
    if type_ == NONE:
        return "null"
    if type_.kind == "optional":
        return f"{_describe(type_.required())} or null"
    if type_.kind == "enum":
        return f"{_article(type_.name)} {type_.name} (enum)"
    return f"{_article(str(type_))} {type_}"


def _article(word: str) -> str:
    """``an int``, ``an Order``, ``a uuid``, ``a User`` (a "u" said "you")."""
    return "an" if word[:1].lower() in "aeio" else "a"


_BINARY = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
}
_COMPARE = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
}


class _Checker:
    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def fail(self, node: ast.AST, message: str) -> ExprError:
        return ExprError(f"{message} (in {_show(ast.unparse(node))})")

    def check(self, node: ast.AST, expected: TypeRef | None = None) -> Node:
        method = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            raise self.fail(node, f"{_kind(node)} is not allowed in spec expressions")
        result: Node = method(node, expected)
        return result

    # names and literals
    def _Name(self, node: ast.Name, expected: TypeRef | None) -> Node:
        known = self.scope.names.get(node.id)
        if known is not None:
            return Node("name", known, value=node.id)
        member = self._member(node.id, expected)
        if member is not None:
            return member
        if node.id in ("true", "false", "null"):
            return self._Constant(ast.Constant({"true": True, "false": False}.get(node.id)), None)
        raise self._unknown(node, node.id)

    def _unknown(self, node: ast.AST, name: str) -> ExprError:
        """An unknown name's error: the names in scope, and the closest one if any."""
        if name in self.scope.refused:
            return SaidError(f"{name!r} was refused")
        if name in self.scope.unnamable:
            return self.fail(node, f"{name!r} is {self.scope.unnamable[name]}")
        names = ", ".join(sorted(self.scope.names)) or "none"
        candidates = list(self.scope.names)
        if name.rsplit(".", 1)[-1] == "id":  # ``event.id``: the event names its ids ``xId``
            candidates = [n for n in candidates if n.endswith("Id")] or candidates
        close = difflib.get_close_matches(name, candidates, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return self.fail(node, f"unknown name {name!r}{hint} (known: {names})")

    def _member(self, text: str, expected: TypeRef | None) -> Node | None:
        if expected is None or expected.required().kind != "enum":
            return None
        enum = expected.required().name
        if text in self.scope.enums.get(enum, []):
            return Node("member", expected.required(), value=text)
        return None

    def _Constant(self, node: ast.Constant, expected: TypeRef | None) -> Node:
        value = node.value
        if value is None:
            return Node("literal", NONE, value=None)
        if isinstance(value, bool):
            return Node("literal", BOOL, value=value)
        if isinstance(value, int):
            if abs(value) >= 2**63:
                raise self.fail(node, "an integer literal is below 2**63")
            return Node("literal", INT, value=value)
        if isinstance(value, float):
            if not math.isfinite(value):
                raise self.fail(node, "a number literal is finite")
            return Node("literal", FLOAT, value=value, spelled=getattr(node, "spelled", None))
        if isinstance(value, str):
            member = self._member(value, expected)
            if member is not None:
                return member
            if expected is not None and expected.required().kind == "enum":
                enum = expected.required().name
                raise self.fail(node, _not_a_member(value, enum, self.scope.enums.get(enum, [])))
            return Node("literal", STR, value=value)
        raise self.fail(node, f"{type(value).__name__} literals are not allowed")

    def _Attribute(self, node: ast.Attribute, expected: TypeRef | None) -> Node:
        dotted = _dotted(node)
        if dotted is not None and dotted in self.scope.names:
            return Node("name", self.scope.names[dotted], value=dotted)
        if (
            dotted is not None
            and isinstance(node.value, ast.Name)
            and node.value.id not in self.scope.names
        ):  # ``event.x`` where the scope has ``event.y``: name the whole of it
            raise self._unknown(node, dotted)
        owner = self.check(node.value)
        if owner.type.kind == "optional":
            raise self.fail(node, f"{ast.unparse(node.value)} may be null: check it first")
        if owner.type.kind != "value":
            raise self.fail(node, f"{ast.unparse(node.value)} has no field {node.attr!r}")
        fields = self.scope.values.get(owner.type.name, {})
        if node.attr not in fields:
            raise self.fail(
                node,
                f"{owner.type.name} has no field {node.attr!r} (fields: {', '.join(fields)})",
            )
        return Node("field", fields[node.attr], (owner,), node.attr)

    def _List(self, node: ast.List | ast.Tuple, expected: TypeRef | None) -> Node:
        hint = expected.element if expected is not None and expected.kind == "list" else None
        items = tuple(self.check(item, hint) for item in node.elts)
        if len(items) > 50:
            raise self.fail(node, "a list literal has at most 50 items")
        element = _unify([i.type for i in items]) if items else NONE
        if element is None:
            raise self.fail(node, "the items of a list have one type")
        return Node("list", TypeRef("list", item=element), items)

    _Tuple = _List

    # operators
    def _UnaryOp(self, node: ast.UnaryOp, expected: TypeRef | None) -> Node:
        operand = self.check(node.operand)
        if isinstance(node.op, ast.Not):
            self._need(node.operand, operand, BOOL)
            return Node("not", BOOL, (operand,))
        if isinstance(node.op, ast.USub | ast.UAdd) and _numeric(operand.type, DURATION):
            return Node("neg" if isinstance(node.op, ast.USub) else "pos", operand.type, (operand,))
        raise self.fail(node, f"{_kind(node.op)} does not apply to {_describe(operand.type)}")

    def _BinOp(self, node: ast.BinOp, expected: TypeRef | None) -> Node:
        op = _BINARY.get(type(node.op))
        if op is None:
            raise self.fail(node, f"{_kind(node.op)} is not allowed")
        left, right = _as_decimals(self.check(node.left), self.check(node.right))
        result = _arithmetic(op, left.type, right.type)
        if result is None:
            raise self.fail(node, f"cannot {op} {_describe(left.type)} and {_describe(right.type)}")
        return Node("binary", result, (left, right), op)

    def _BoolOp(self, node: ast.BoolOp, expected: TypeRef | None) -> Node:
        is_and = isinstance(node.op, ast.And)
        checker: _Checker = self
        operands = []
        for operand_node in node.values:
            operand = checker.check(operand_node)
            checker._need(operand_node, operand, BOOL)
            operands.append(operand)
            narrowed = _narrowing(operand, when=is_and)
            if narrowed:
                checker = _Checker(checker.scope.with_names(narrowed))
        return Node("and" if is_and else "or", BOOL, tuple(operands))

    def _Compare(self, node: ast.Compare, expected: TypeRef | None) -> Node:
        left = self.check(node.left)
        parts: list[Node] = [left]
        ops: list[str] = []
        for op_node, right_node in zip(node.ops, node.comparators, strict=True):
            op = _COMPARE[type(op_node)]
            right = self._operand(right_node, left.type, op)
            left, right = _as_decimals(left, right)
            parts[-1] = left
            if op in ("==", "!=") and left.op == "literal" and left.type == STR:
                left = parts[-1] = self._operand(node.left, right.type, op)
            held = right.type.required()
            if (
                op in ("in", "not in")
                and left.op == "literal"
                and left.type == STR
                and held.kind == "list"
                and held.element is not None
                and held.element.required().kind == "enum"
            ):
                # 'refresh_token' in grantTypes: the text names a member of the items' enum
                left = parts[-1] = self.check(node.left, held.element.required())
            self._comparable(node, op, left, right)
            ops.append(op)
            parts.append(right)
            left = right
        return Node("compare", BOOL, tuple(parts), tuple(ops))

    def _operand(self, node: ast.AST, other: TypeRef, op: str) -> Node:
        if op in ("in", "not in"):
            hint = TypeRef("list", item=other.required())
            return self.check(node, hint)
        return self.check(node, other if other != NONE else None)

    def _comparable(self, node: ast.AST, op: str, left: Node, right: Node) -> None:
        a, b = left.type, right.type
        if op in ("is", "is not"):
            if b != NONE:
                raise self.fail(node, "`is` compares with None only (use == for values)")
            return
        if op in ("in", "not in"):
            if b.required().kind == "map":
                # a map is asked for a key, as Python's `in` asks a dict: its keys are text
                if a == STR:
                    return
                raise self.fail(
                    node,
                    f"`in` asks a map for a key (text), not {_describe(a)} (`'vip' in labels`)",
                )
            if b.required().kind == "list" and (
                b.required().element == NONE or _same(a, b.required().element)
            ):
                return
            if b == STR and a == STR:
                return
            raise self.fail(node, f"cannot look for {_describe(a)} in {_describe(b)}")
        if op in ("==", "!="):
            if _same(a.required(), b.required()) or NONE in (a, b):
                return
            raise self.fail(node, f"cannot compare {_describe(a)} with {_describe(b)}")
        for side in (left, right):
            if side.type.kind == "optional":
                shown = side.value if side.op == "name" else "a value"
                raise self.fail(
                    node, f"{shown} may be null: write `{shown} is not None and ...` first"
                )
        if not (_same(a, b) and _ordered(a)):
            raise self.fail(node, f"cannot order {_describe(a)} and {_describe(b)}")

    def _IfExp(self, node: ast.IfExp, expected: TypeRef | None) -> Node:
        test = self.check(node.test)
        self._need(node.test, test, BOOL)
        # `x if x is not None else y`: x is not null in the first branch (null in the other)
        then = _Checker(self.scope.with_names(_narrowing(test, when=True)))
        otherwise = _Checker(self.scope.with_names(_narrowing(test, when=False)))
        body, orelse = then.check(node.body, expected), otherwise.check(node.orelse, expected)
        joined = _unify([body.type, orelse.type])
        if joined is None:
            raise self.fail(node, "both branches of `if ... else` have one type")
        return Node("if", joined, (test, body, orelse))

    # calls
    def _Call(self, node: ast.Call, expected: TypeRef | None) -> Node:
        if isinstance(node.func, ast.Name) and node.func.id in self.scope.values:
            return self._construct(node, node.func.id)
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            name = ast.unparse(node.func)
            raise self.fail(node, f"unknown function {name!r} (known: {', '.join(FUNCTIONS)})")
        if node.keywords:
            raise self.fail(node, "functions take positional arguments only")
        name = node.func.id
        if len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp):
            return self._aggregate(node, name, node.args[0])
        args = tuple(self.check(arg) for arg in node.args)
        result = _call_type(name, [a.type for a in args])
        if result is None:
            shown = ", ".join(_describe(a.type) for a in args) or "nothing"
            usage = _USAGE.get(name, "")
            raise self.fail(
                node, f"{name}() does not take {shown}" + (f" ({usage})" if usage else "")
            )
        return Node("call", result, args, name)

    def _construct(self, node: ast.Call, name: str) -> Node:
        """A value object made of its fields, given by name (``Line(sku=sku, quantity=1)``);
        a field left out takes its default, or, optional, is null."""
        fields = self.scope.values[name]
        defaults = self.scope.defaults.get(name, {})
        if node.args:
            raise self.fail(node, f"{name}(...) takes its fields by name: {name}(field=...)")
        given: dict[str, Node] = {}
        for keyword in node.keywords:
            if keyword.arg is None:
                raise self.fail(node, "`**` is not allowed")
            if keyword.arg not in fields:
                known = ", ".join(fields)
                raise self.fail(node, f"{name} has no field {keyword.arg!r} (fields: {known})")
            target = fields[keyword.arg]
            value = self.check(keyword.value, target)
            try:
                given[keyword.arg] = coerce(value, target, ast.unparse(keyword.value))
            except ExprError as error:
                raise self.fail(node, f"{name}.{keyword.arg}: {error}") from None
        missing = [
            f
            for f, t in fields.items()
            if f not in given and f not in defaults and t.kind != "optional"
        ]
        if missing:
            raise self.fail(node, f"{name}(...) needs {', '.join(missing)}")
        args = tuple(
            given[f]
            if f in given
            else Node("default", t, value=defaults[f])
            if f in defaults
            else Node("literal", NONE, value=None)
            for f, t in fields.items()
        )
        return Node("construct", TypeRef("value", name), args, tuple(fields))

    def _aggregate(self, node: ast.Call, name: str, gen: ast.GeneratorExp) -> Node:
        if name not in ("sum", "all", "any", "min", "max"):
            raise self.fail(node, f"{name}() takes no `for` (sum, all, any, min and max do)")
        variable, iterable, element, condition = self._loop(node, gen)
        if name in ("all", "any"):
            if element.type != BOOL:
                raise self.fail(gen.elt, f"expected a bool, got {_describe(element.type)}")
            result = BOOL
        elif name == "sum" and element.type.required() in (INT, FLOAT, DECIMAL, DURATION):
            result = element.type
        elif name in ("min", "max") and _ordered(element.type):
            result = element.type.optional()
        else:
            raise self.fail(node, f"{name}() does not take {_describe(element.type)}")
        parts = (element, iterable) + ((condition,) if condition else ())
        return Node("aggregate", result, parts, (name, variable))

    def _ListComp(self, node: ast.ListComp, expected: TypeRef | None) -> Node:
        """``[c for c in comments if c.author != author]``: a list made from another."""
        variable, iterable, element, condition = self._loop(node, node)
        parts = (element, iterable) + ((condition,) if condition else ())
        return Node("comprehension", TypeRef("list", item=element.type), parts, variable)

    def _loop(
        self, node: ast.AST, gen: ast.GeneratorExp | ast.ListComp
    ) -> tuple[str, Node, Node, Node | None]:
        """One ``for`` over a list with its ``if`` conditions: the item's name, the list,
        the element computed per item and the conditions joined (None without any)."""
        if len(gen.generators) != 1:
            raise self.fail(node, "one `for` at a time")
        loop = gen.generators[0]
        if not isinstance(loop.target, ast.Name) or loop.is_async:
            raise self.fail(node, "a `for` names one item")
        iterable = self.check(loop.iter)
        if iterable.type.kind != "list":
            raise self.fail(node, f"`for` goes over a list, not {_describe(iterable.type)}")
        variable = loop.target.id
        if variable in self.scope.names:
            raise self.fail(node, f"{variable!r} is already a name here; choose another")
        inner = _Checker(self.scope.with_names({variable: iterable.type.element}))
        conditions: list[Node] = []
        for test in loop.ifs:
            checked = inner.check(test)
            inner._need(test, checked, BOOL)
            conditions.append(checked)
        element = inner.check(gen.elt)
        condition = (
            None
            if not conditions
            else conditions[0]
            if len(conditions) == 1
            else Node("and", BOOL, tuple(conditions))
        )
        return variable, iterable, element, condition

    def _need(self, node: ast.AST, checked: Node, type_: TypeRef) -> None:
        if checked.type != type_:
            raise self.fail(node, f"expected {_describe(type_)}, got {_describe(checked.type)}")


def _kind(node: object) -> str:
    names = {
        "Lambda": "a lambda",
        "NamedExpr": "`:=`",
        "Subscript": "indexing `[...]`",
        "Starred": "`*`",
        "Dict": "a dict literal",
        "Set": "a set literal",
        "ListComp": "a list comprehension",
        "JoinedStr": "an f-string",
        "Await": "await",
        "Pow": "`**`",
        "BitAnd": "`&`",
        "BitOr": "`|`",
        "BitXor": "`^`",
        "LShift": "`<<`",
        "RShift": "`>>`",
        "MatMult": "`@`",
        "Invert": "`~`",
        "Slice": "a slice",
    }
    return names.get(type(node).__name__, type(node).__name__)


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        owner = _dotted(node.value)
        return None if owner is None else f"{owner}.{node.attr}"
    return None


def _narrowing(operand: Node, *, when: bool) -> dict[str, TypeRef]:
    """Names known not to be null after ``operand`` is true (``when``) or false: each
    test of an ``and`` that is true (of an ``or`` that is false), through ``not``."""
    if operand.op == ("and" if when else "or"):
        narrowed: dict[str, TypeRef] = {}
        for part in operand.args:
            narrowed.update(_narrowing(part, when=when))
        return narrowed
    if operand.op == "not":
        return _narrowing(operand.args[0], when=not when)
    if operand.op != "compare" or len(operand.args) != 2:
        return {}
    left, right = operand.args
    (op,) = operand.value
    if is_null(left):  # null != x reads as x != null
        left, right = right, left
    positive = ("is not", "!=") if when else ("is", "==")
    tested = op in positive and is_null(right) and left.op == "name"
    if tested and left.type.kind == "optional":
        return {left.value: left.type.required()}
    return {}


def is_null(node: Node) -> bool:
    """Whether ``node`` is the null literal (whatever type a comparison gave it)."""
    return node.type == NONE or (node.op == "literal" and node.value is None)


def _same(a: TypeRef, b: TypeRef) -> bool:
    return a == b or {a, b} <= {INT, FLOAT} or {a, b} <= {INT, DECIMAL}


def _ordered(type_: TypeRef) -> bool:
    return type_ in (INT, FLOAT, DECIMAL, STR, DATE, DATETIME, DURATION)


def _numeric(type_: TypeRef, *extra: TypeRef) -> bool:
    return type_.kind == "scalar" and (type_.name in NUMERIC or type_ in extra)


def _unify(types: list[TypeRef]) -> TypeRef | None:
    """One type that holds all of ``types`` (ints with floats are floats...), if any."""
    result = types[0]
    for type_ in types[1:]:
        if assignable(type_, result):
            continue
        if assignable(result, type_):
            result = type_
        elif type_ == NONE:
            result = result.optional()
        elif result == NONE:
            result = type_.optional()
        else:
            return None
    return result


def _arithmetic(op: str, a: TypeRef, b: TypeRef) -> TypeRef | None:
    if _numeric(a) and _numeric(b):
        kinds = {a.name, b.name}
        if kinds == {"float", "decimal"}:
            return None
        if op == "/" and kinds == {"int"}:
            return FLOAT
        return DECIMAL if "decimal" in kinds else FLOAT if "float" in kinds else INT
    if op == "+" and a == b and (a == STR or a.kind == "list"):
        return a
    if op == "+" and STR in (a, b) and all(t == STR or t.kind == "enum" for t in (a, b)):
        return STR  # an enum member is its text (a StrEnum)
    if op in ("+", "-") and a in (DATE, DATETIME) and b == DURATION:
        return a
    if op == "+" and a == DURATION and b in (DATE, DATETIME):
        return b
    if op == "-" and a == b and a in (DATE, DATETIME):
        return DURATION
    if op in ("+", "-") and a == b == DURATION:
        return DURATION
    if op in ("/", "//") and a == b == DURATION:
        return FLOAT if op == "/" else INT
    if op == "*" and {a, b} == {INT, DURATION}:
        return DURATION
    return None


def _call_type(name: str, args: list[TypeRef]) -> TypeRef | None:
    if name == "len" and len(args) == 1 and (args[0] == STR or args[0].is_collection):
        return INT
    if name in ("days", "hours", "minutes") and args == [INT]:
        return DURATION
    if name in ("min", "max") and len(args) >= 2 and all(_ordered(a) for a in args):
        return _unify(args) if all(_same(args[0], a) for a in args) else None
    if name == "abs" and len(args) == 1 and _numeric(args[0], DURATION):
        return args[0]
    if name == "round" and len(args) == 2 and args[0] in (DECIMAL, FLOAT) and args[1] == INT:
        return args[0]  # to that many places, a half to the even digit (Python's round)
    if name in ("sum",) and len(args) == 1 and args[0].kind == "list":
        element = args[0].element
        return element if _numeric(element, DURATION) else None
    if name in ("all", "any") and args == [TypeRef("list", item=BOOL)]:
        return BOOL
    if name == "date" and args == [DATETIME]:
        return DATE
    if name in ("lower", "upper", "strip") and args == [STR]:
        return STR
    return None


def can_fail(node: Node) -> bool:
    """Whether computing ``node`` may raise an arithmetic error or give a float that is no
    number: a division (by 0), arithmetic on floats, decimals, dates and durations (past
    year 9999, past a float's range), a duration made of an int (``days(n)``)."""
    if node.op == "binary" and (
        node.value in ("/", "//", "%") or not (node.type == INT or _concatenation(node.type))
    ):
        return True
    if node.op == "call" and (
        node.value in ("days", "hours", "minutes")
        or (node.value in ("abs", "sum", "round") and node.type.required() != INT)
    ):
        return True
    if node.op == "aggregate" and node.value[0] == "sum" and node.type.required() != INT:
        return True
    if node.op == "neg" and node.type == DURATION:
        return True
    return any(can_fail(arg) for arg in node.args)


def _concatenation(type_: TypeRef) -> bool:
    return type_ == STR or type_.kind == "list"


def zero_divisors(node: Node, nonzero: frozenset[Node] = frozenset()) -> list[Node]:
    """The divisors of ``node``'s divisions (``/``, ``//``, ``%``) that may be 0: neither
    a constant other than 0 nor tested to be other than 0 around the division
    (``x / n if n != 0 else 0``, ``n > 0 and x / n > 1``); ``nonzero`` are known not 0."""
    if node.op == "binary" and node.value in ("/", "//", "%"):
        divisor = node.args[1]
        unsafe = [] if divisor in nonzero or _constant(divisor) not in (None, 0) else [divisor]
        return unsafe + [d for arg in node.args for d in zero_divisors(arg, nonzero)]
    if node.op == "if":
        test, body, orelse = node.args
        return [
            *zero_divisors(test, nonzero),
            *zero_divisors(body, nonzero | _nonzero_when(test, when=True)),
            *zero_divisors(orelse, nonzero | _nonzero_when(test, when=False)),
        ]
    if node.op in ("and", "or"):
        found: list[Node] = []
        known = nonzero
        for operand in node.args:
            found += zero_divisors(operand, known)
            known = known | _nonzero_when(operand, when=node.op == "and")
        return found
    return [d for arg in node.args for d in zero_divisors(arg, nonzero)]


def _constant(node: Node) -> Any:
    """The number a constant expression is (``2``, ``-1.5``, ``days(1)`` as 1), else None."""
    if node.op == "literal" and isinstance(node.value, int | float) and node.value is not True:
        return node.value if node.value is not False else None
    if node.op in ("neg", "pos") or (
        node.op == "call" and node.value in ("decimal", "days", "hours", "minutes")
    ):
        return _constant(node.args[0]) if len(node.args) == 1 else None
    return None


def _nonzero_when(test: Node, *, when: bool) -> frozenset[Node]:
    """The expressions known not to be 0 where ``test`` is ``when`` (``n != 0``, ``n > 0``,
    ``n < 0``, ``n >= 1``..., through ``not``, ``and`` and ``or``)."""
    if test.op == "not":
        return _nonzero_when(test.args[0], when=not when)
    if test.op == ("and" if when else "or"):
        return frozenset().union(*(_nonzero_when(part, when=when) for part in test.args))
    if test.op != "compare" or len(test.args) != 2:
        return frozenset()
    (op,) = test.value
    left, right = test.args
    if not when:
        op = _NEGATED.get(op, "")
    for side, bound, op_ in ((left, right, op), (right, left, _MIRRORED.get(op, ""))):
        value = _constant(bound)
        if value is not None and _excludes_zero(op_, value):
            return frozenset({side})
    return frozenset()


_NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
_MIRRORED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _excludes_zero(op: str, bound: Any) -> bool:
    """Whether ``x op bound`` holding means ``x`` is not 0."""
    excludes: dict[str, bool] = {
        "!=": bound == 0,
        ">": bound >= 0,
        ">=": bound > 0,
        "<": bound <= 0,
        "<=": bound < 0,
        "==": bound != 0,
    }
    return excludes.get(op, False)


def spoken(node: Node) -> str:
    """``node`` as spec text, for messages (a part too intricate to write is "a value")."""
    if node.op == "name":
        return str(node.value)
    if node.op == "literal":
        return repr(node.value)
    if node.op == "field":
        return f"{spoken(node.args[0])}.{node.value}"
    if node.op == "call" and node.value == "decimal":
        return spoken(node.args[0])
    if node.op == "call":
        return f"{node.value}({', '.join(spoken(arg) for arg in node.args)})"
    if node.op == "binary":
        left, right = (spoken(arg) for arg in node.args)
        return f"({left} {node.value} {right})"
    return "a value"
