"""Fields resolved: name, Python attribute, parsed type, rules that fit the type, and a
default and example that fit both."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from generator import naming
from generator.expr import ExprError, Node, SaidError, Scope, parse, spoken, zero_divisors
from generator.patterns import pattern_error
from generator.reserved import python_attribute
from generator.resolved import Domain, Loc, RComputed, RField
from generator.spec import (
    CAMEL,
    JSON_INT,
    MAX_NAME,
    RULE_KEYS,
    ComputedSpec,
    FieldSpec,
    ItemsSpec,
)
from generator.typeref import TypeError_, TypeRef, parse_type
from generator.values import Catalog, Invalid, anchored, conform, normalized, to_eval

_TEXT_RULES = ("not_blank", "contains", "pattern")
_SIZE_RULES = ("min_length", "max_length")
_BOUND_RULES = ("min", "max")
_CHECKED = {
    "rules": "the fields requests set (an aggregate's, a value object's, a command's inputs)",
    "unique": "an aggregate's fields",
    "references": "an aggregate's fields, a value object's and a command's inputs",
}
"""The fields a key that checks values applies to (``rules``: each rule, items, messages)."""
UNIQUE_TYPES = frozenset({"str", "int", "uuid", "date", "decimal"})
NOT_UNIQUE_WHY = {
    "datetime": "an instant is kept to the microsecond, so two that read as the same minute"
    " differ and uniqueness would hold almost nothing: make a date, or a str slot, unique",
    "float": "binary fractions compare inexactly: use a decimal",
}
"""Why a field of these types may not be unique (the README says it too)."""
MAX_PATTERN = 500


def camel_problem(name: str, what: str = "name") -> str | None:
    """Why ``name`` is not a camelCase spec name, or None."""
    if not isinstance(name, str) or not re.fullmatch(CAMEL, name) or len(name) > MAX_NAME:
        return f"{_show(name)} must be a camelCase {what} ({CAMEL}, at most {MAX_NAME} characters)"
    return None


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 62 else text[:59] + "..."


class FieldResolver:
    """Resolves fields against the enums and value objects of one spec."""

    def __init__(
        self,
        domain: Domain,
        enums: set[str],
        values: set[str],
        likes: Mapping[str, FieldSpec] | None = None,
    ) -> None:
        self.domain = domain
        self.enums = enums
        self.values = values
        self.likes = likes or {}
        """The fields a ``like`` may name, by ``<Aggregate or Value>.<field>``."""

    @property
    def catalog(self) -> Catalog:
        return Catalog(
            {name: value.fields for name, value in self.domain.values.items()},
            self.domain.enums,
        )

    def scope(self, names: dict[str, TypeRef]) -> Scope:
        """The names an expression may use: ``names``, with the spec's enums and values."""
        values = {n: {f.name: f.full_type for f in v.fields} for n, v in self.domain.values.items()}
        catalog = self.catalog
        defaults = {
            n: {f.name: to_eval(f.default, f.full_type, catalog) for f in v.fields if f.has_default}
            for n, v in self.domain.values.items()
        }
        return Scope(names, self.domain.enums, values, defaults)

    def expression(
        self, text: Any, scope: Scope, loc: Loc, expected: TypeRef | None
    ) -> Node | None:
        """``text`` parsed in ``scope`` (of the ``expected`` type); None, with a problem at
        ``loc``, when it is not a valid expression."""
        try:
            return parse(text, scope, expected)
        except SaidError:
            return None
        except ExprError as error:
            self.domain.problem(loc, str(error))
            return None

    def computed(
        self, specs: dict[str, ComputedSpec], scope: Scope, loc: Loc, taken: set[str], what: str
    ) -> list[RComputed]:
        """Computed values over ``scope``; a name in ``taken`` is refused as ``what``."""
        resolved: list[RComputed] = []
        for name, computed in specs.items():
            where = (*loc, "computed", name)
            problem = camel_problem(name, "computed name")
            if problem or name in taken:
                self.domain.problem(where, problem or f"{name!r} is also a {what}")
                continue
            type_ = self.type(computed.type, (*where, "type"))
            if type_ is None:
                continue
            if computed.optional:
                type_ = type_.optional()
            node = self.expression(computed.value, scope, (*where, "value"), type_)
            divisors = zero_divisors(node) if node is not None else []
            if divisors and type_.kind != "optional":
                divisor = spoken(divisors[0])
                self.domain.problem(
                    (*where, "value"),
                    f"{name} divides by {divisor}, which may be 0: make it `optional: true` "
                    f"(null when it cannot be computed) or test the divisor first "
                    f"(`... if {divisor} != 0 else ...`)",
                )
            elif node is not None:
                attr = python_attribute(naming.snake(name))
                resolved.append(RComputed(name, attr, type_, node, computed.description or ""))
        return resolved

    def type(self, text: str, loc: Loc) -> TypeRef | None:
        try:
            return parse_type(text, self.enums, self.values)
        except TypeError_ as error:
            self.domain.problem(loc, str(error))
            return None

    def fields(
        self,
        fields: dict[str, FieldSpec],
        loc: Loc,
        *,
        rules: bool = True,
        shown: bool = False,
        unchecked: str = "",
    ) -> list[RField]:
        """The fields of ``fields``; ``shown``: an aggregate's, which a view shows unless
        they are hidden; ``unchecked``: whose they are when nothing checks them (``an
        event``), which refuses the keys that would check them."""
        resolved: list[RField] = []
        attrs: dict[str, str] = {}
        for name, given in fields.items():
            spec = self._liked(given, (*loc, name), unchecked)
            if spec is None:
                continue
            if unchecked:
                self._unchecked(spec, (*loc, name), unchecked)
            field = self.field(name, spec, (*loc, name), rules=rules and not unchecked)
            if field is None:
                continue
            if spec.hidden and not shown:
                self.domain.problem(
                    (*loc, name, "hidden"), "hidden applies to an aggregate's fields (its views)"
                )
            field.hidden = spec.hidden and shown
            field.like = given.like
            if spec.secret is not None:
                self._secret(field, spec, shown, (*loc, name, "secret"))
            elif spec.made_when is not None:
                self.domain.problem(
                    (*loc, name, "made_when"),
                    "made_when is the condition of a generated secret (secret: generated)",
                )
            if field.attr in attrs:
                self.domain.problem(
                    (*loc, name), f"{name!r} and {attrs[field.attr]!r} are the same name in Python"
                )
                continue
            attrs[field.attr] = name
            resolved.append(field)
        return resolved

    def _liked(
        self, spec: FieldSpec, loc: Loc, unchecked: str, seen: tuple[str, ...] = ()
    ) -> FieldSpec | None:
        """``spec`` with what its ``like`` takes from the field it names (itself expanded
        first); None, the problem reported, when it names none. What only an aggregate's
        field is (unique, a reference, hidden, a secret) is not taken, and a field nothing
        checks (``unchecked``) takes only the type."""
        if spec.like is None:
            return spec
        if spec.like in seen or spec.like not in self.likes:
            known = ", ".join(sorted(self.likes)) or "none declared"
            self.domain.problem(
                (*loc, "like"),
                f"{spec.like!r} takes its type from this field: `like` goes round"
                if spec.like in seen
                else f"unknown field {spec.like!r} (`like` names <Aggregate or Value>.<field>;"
                f" expected one of: {known})",
            )
            return None
        target = self._liked(self.likes[spec.like], loc, unchecked, (*seen, spec.like))
        if target is None:
            return None
        if unchecked:
            inherited: dict[str, Any] = {"type": target.type}
        else:
            inherited = target.model_dump(
                exclude_unset=True,
                exclude={"unique", "references", "hidden", "secret", "made_when", "like"},
            )
        own = spec.model_dump(exclude_unset=True, exclude={"like"})
        return FieldSpec.model_validate({**inherited, **own})

    def _secret(self, field: RField, spec: FieldSpec, shown: bool, loc: Loc) -> None:
        """Make ``field`` a secret (only its hash kept, never shown), if it may be one."""
        kind = spec.secret if spec.secret in ("generated", "sealed") else "given"
        conditional = kind == "generated" and spec.made_when is not None
        kept = "it is kept sealed" if kind == "sealed" else "its hash is kept"
        if not shown:
            problem = f"secret applies to an aggregate's fields ({kept})"
        elif spec.made_when is not None and kind != "generated":
            loc, problem = (
                (*loc[:-1], "made_when"),
                "made_when is the condition of a generated secret: a given one is given",
            )
        elif not field.type.is_scalar("str"):
            problem = f"a secret is a str ({kept})"
        elif spec.optional and not conditional and kind != "sealed":
            problem = f"a secret is required ({kept})" + (
                ", unless generated only on a condition: optional, with made_when"
                if kind == "generated"
                else " (only a sealed one, which the service uses itself, may be optional)"
            )
        elif conditional and not spec.optional:
            loc, problem = (
                (*loc[:-1], "made_when"),
                "a secret made only when a condition holds is null otherwise: optional: true",
            )
        elif spec.has_default:
            problem = "a secret has no default (it would be written in the spec)"
        elif kind == "generated" and (field.rules or spec.has_example):
            problem = "a generated secret takes no rules or example: the service makes it"
        else:
            shown_value = [rule for rule, text in field.messages.items() if "{value}" in text]
            if shown_value:
                loc, problem = (
                    (*loc[:-1], "messages", shown_value[0]),
                    "a secret's message cannot show {value}: the answer would tell the secret",
                )
            else:
                field.secret, field.hidden = kind, True
                field.made_when = spec.made_when
                return
        self.domain.problem(loc, problem)

    def _unchecked(self, spec: FieldSpec, loc: Loc, owner: str) -> None:
        """A problem for each key of ``spec`` that would check a field of ``owner`` (``an
        event``), which nothing checks: it would be ignored."""
        for key in (*RULE_KEYS, "items", "keys", "normalize", "messages", "unique", "references"):
            if key in spec.model_fields_set:
                self.domain.problem(
                    (*loc, key),
                    f"{key} applies to {_CHECKED.get(key, _CHECKED['rules'])}, not to"
                    f" {owner}'s: nothing would check it",
                )

    def field(self, name: str, spec: FieldSpec, loc: Loc, *, rules: bool = True) -> RField | None:
        problem = camel_problem(name, "field name")
        if problem:
            self.domain.problem(loc, problem)
            return None
        type_ = self.type(spec.type or "", (*loc, "type"))
        if type_ is None:
            return None
        # `Member` (by its id) or `Role.name` (by its key's one field)
        target, by_key, key = (spec.references or "").partition(".")
        if spec.references is not None and not target:
            self.domain.problem(
                (*loc, "references"),
                "references names an aggregate (`Member`: by its id) or the one field of its"
                " key (`Role.name`)",
            )
        field = RField(
            name=name,
            attr=python_attribute(naming.snake(name)),
            type=type_,
            loc=loc,
            optional=spec.optional,
            unique=spec.unique,
            references=target or None,
            references_key=key if by_key else None,
            description=spec.description or "",
        )
        if rules:
            field.rules = self._rules(spec.rules, type_, loc)
            messages = dict(spec.messages)
            # what a reference names no aggregate with says (``{value}``: the value)
            missing = messages.pop("references", None) if spec.references else None
            field.messages = self._messages(messages, field.rules, loc)
            if missing is not None:
                field.messages["references"] = missing
            if spec.items is not None:
                field.item_rules, field.item_messages = self._items(spec.items, type_, loc)
            if spec.keys is not None:
                field.key_rules, field.key_messages = self._keys(spec.keys, type_, loc)
            if spec.normalize:
                field.normalize = self._normalize(spec, type_, (*loc, "normalize"))
        if spec.has_default:
            if spec.default is None and not spec.optional:
                self.domain.problem((*loc, "default"), "only an optional field defaults to null")
            else:
                field.has_default = True
                field.default = self.value(spec.default, field, (*loc, "default"))
        elif spec.optional:
            field.has_default, field.default = True, None
        if spec.has_example:
            field.has_example = True
            field.example = self.value(spec.example, field, (*loc, "example"))
        return field

    def value(self, value: Any, field: RField, loc: Loc) -> Any:
        """``value`` conformed to ``field`` (its type and rules, once normalized as a
        request's would be); a problem otherwise."""
        kept = normalized(value, field.normalize)
        try:
            return conform(
                kept,
                field.full_type,
                field.rules,
                self.catalog,
                field.item_rules,
                keys=field.key_rules,
            )
        except Invalid as error:
            changed = field.normalize and kept != value  # (a NaN is not itself)
            shown = _show(value) + (f" (normalized: {_show(kept)})" if changed else "")
            self.domain.problem(loc, f"{shown} does not fit {field.name}: {error}")
            return None
        except RecursionError:
            self.domain.problem(loc, "the value nests too deep")
            return None

    def _items(
        self, items: ItemsSpec, type_: TypeRef, loc: Loc
    ) -> tuple[list[tuple[str, Any]], dict[str, str]]:
        """The rules of each item of a list or map field of ``type_``, and their messages."""
        where = (*loc, "items")
        if not type_.is_collection or type_.element.kind not in ("scalar", "enum"):
            self.domain.problem(
                where,
                f"items applies to a list or map of a scalar or an enum (list[str], map[int]),"
                f" not {type_}",
            )
            return [], {}
        rules = self._rules(items.rules, type_.element, where, noun="items")
        return rules, self._messages(items.messages, rules, where, noun="the items")

    def _normalize(self, spec: FieldSpec, type_: TypeRef, loc: Loc) -> tuple[str, ...]:
        """The normalizing steps of a str field, once they are known to fit it."""
        steps = tuple(spec.normalize)
        if not type_.is_scalar("str"):
            self.domain.problem(loc, f"normalize applies to str fields, not {type_}")
        elif spec.secret is not None:
            self.domain.problem(loc, "a secret is kept as it is given: it is not normalized")
        elif len(set(steps)) < len(steps) or {"lower", "upper"} <= set(steps):
            self.domain.problem(loc, "each step once, and lower or upper, not both")
        else:
            return steps
        return ()

    def _keys(
        self, keys: ItemsSpec, type_: TypeRef, loc: Loc
    ) -> tuple[list[tuple[str, Any]], dict[str, str]]:
        """The rules of each key of a map field of ``type_``, and their messages."""
        where = (*loc, "keys")
        if type_.kind != "map":
            self.domain.problem(
                where, f"keys applies to a map (its keys are text: map[int]), not {type_}"
            )
            return [], {}
        rules = self._rules(keys.rules, TypeRef.scalar("str"), where, noun="keys")
        return rules, self._messages(keys.messages, rules, where, noun="the keys")

    def _rules(
        self, rules: list[tuple[str, Any]], type_: TypeRef, loc: Loc, noun: str = "fields"
    ) -> list[tuple[str, Any]]:
        """The ``rules`` that fit ``type_`` (of a field, or of the ``items`` of one)."""
        kept: list[tuple[str, Any]] = []
        is_text = type_.is_scalar("str")
        is_number = type_.kind == "scalar" and type_.name in ("int", "float", "decimal")
        sized = f"str {noun}" if noun in ("items", "keys") else "str, list and map fields"
        for key, value in rules:
            where = (*loc, key)
            if key in _TEXT_RULES and not is_text:
                self.domain.problem(where, f"{key} applies to str {noun}, not {type_}")
            elif key in _SIZE_RULES and not (is_text or type_.is_collection):
                self.domain.problem(where, f"{key} applies to {sized}, not {type_}")
            elif key in _BOUND_RULES and not is_number:
                self.domain.problem(where, f"{key} applies to int, float and decimal, not {type_}")
            elif key == "scale" and not type_.is_scalar("decimal"):
                self.domain.problem(where, f"scale applies to decimal {noun}, not {type_}")
            elif (key == "not_blank" and value is False) or (
                key == "pattern" and not self._pattern_ok(value, where)
            ):
                continue
            elif key in _BOUND_RULES:
                bound = self._bound(value, type_, where)
                if bound is not None:
                    kept.append((key, bound))
            else:
                kept.append((key, value))
        found = dict(kept)
        for low, high in (("min", "max"), ("min_length", "max_length")):
            if low in found and high in found and _number(found[low]) > _number(found[high]):
                self.domain.problem(
                    (*loc, low), f"{low} {found[low]} is above {high} {found[high]}"
                )
        return kept

    def _pattern_ok(self, pattern: str, loc: Loc) -> bool:
        if len(pattern) > MAX_PATTERN:
            self.domain.problem(loc, f"a pattern is at most {MAX_PATTERN} characters")
            return False
        error = pattern_error(pattern) or pattern_error(anchored(pattern))
        if error is not None:
            self.domain.problem(loc, f"invalid regular expression: {error}")
            return False
        return True

    def _bound(self, value: Any, type_: TypeRef, loc: Loc) -> Any:
        if type_.is_scalar("int"):
            if isinstance(value, bool) or not isinstance(value, int):
                self.domain.problem(loc, f"{_show(value)} is not an integer (the field is an int)")
                return None
            if abs(value) > JSON_INT:
                self.domain.problem(
                    loc,
                    f"{_show(value)} is beyond what an int holds: ±{JSON_INT} (2**53 - 1), the"
                    " integers JSON carries exactly (I-JSON, RFC 7493); a larger number is a"
                    " decimal",
                )
                return None
            return value
        if type_.is_scalar("float"):
            if isinstance(value, bool) or not isinstance(value, int | float):
                self.domain.problem(loc, f"{_show(value)} is not a number")
                return None
            if not math.isfinite(value):
                self.domain.problem(loc, "a bound is a finite number")
                return None
            return float(value)
        try:
            number = Decimal(str(value))
        except InvalidOperation:
            self.domain.problem(loc, f"{_show(value)} is not a decimal number")
            return None
        if isinstance(value, bool) or not number.is_finite() or abs(number.adjusted()) > 30:
            self.domain.problem(loc, "a bound is a finite number below 10**30")
            return None
        return str(number)

    def _messages(
        self,
        messages: dict[str, str],
        rules: list[tuple[str, Any]],
        loc: Loc,
        noun: str = "this field",
    ) -> dict[str, str]:
        present = {key for key, _ in rules}
        for key in messages:
            if key not in present:
                self.domain.problem(
                    (*loc, "messages", key),
                    f"{_show(key)} is not a rule of {noun} "
                    f"(its rules: {', '.join(sorted(present)) or 'none'})",
                )
        return {key: text for key, text in messages.items() if key in present}


def _number(value: Any) -> Decimal:
    return Decimal(str(value))
