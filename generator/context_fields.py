"""The render context of fields: Python and pydantic types, defaults, the rule checks the
domain runs, read-model columns and sample values."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from generator import naming
from generator.literals import json_literal, python_literal, text_pattern
from generator.resolved import RField
from generator.typeref import TypeRef
from generator.values import (
    Catalog,
    Invalid,
    LongText,
    anchored,
    breaking,
    distinct_samples,
    rule_breaks,
    sample,
)

_DEFAULT_MESSAGES = {
    "not_blank": "{title} must not be blank",
    "contains": "{title} must contain {value!r}",
    "pattern": "{title} must match {value}",
    "min": "{title} must be at least {value}",
    "max": "{title} must be at most {value}",
    "min_length": "{title} needs at least {value} {unit}",
    "max_length": "{title} allows at most {value} {unit}",
    "scale": "{title} allows at most {value} digits after the point",
}
PYDANTIC_TYPES = {
    "str": "str",
    "int": "int",
    "float": "float",
    "bool": "bool",
    "decimal": "Decimal",
    "uuid": "UUID",
    "date": "date",
    "datetime": "AwareDatetime",
}

# Request fields of these scalars read only their JSON form (a date as text, not a number of
# seconds; a boolean as true/false, not 1 or "yes"), as the OpenAPI document states
# (eaf.web). Numbers stay lax: JSON Schema calls 2.0 an integer.
JSON_TYPES = {"bool": "JsonBool", "date": "JsonDate", "datetime": "JsonDateTime"}


@dataclass
class Check:
    """A rule of a field: ``kind`` and ``value`` (rendered by the blueprint's check
    macro), the message a violation reports, and a JSON value that breaks it."""

    kind: str
    value: Any
    value_py: str
    message: str
    invalid_json: str | None
    invalid_py: str | None
    exact: bool


@dataclass
class FieldCtx:
    name: str
    attr: str
    title: str
    py: str
    type: str
    kind: str
    element_kind: str
    element: str
    optional: bool
    required: bool
    default_py: str | None
    default_factory: str | None
    default_json: Any
    description: str
    checks: list[Check]
    nested: str | None
    api: str
    api_field: str
    patch_field: str
    """The ``Field(...)`` of the field in a merge patch: left out, it keeps its value."""
    column: str
    sample_json: str
    sample_py: str
    sample: Any
    unique: bool
    references: str | None
    references_snake: str | None
    to_domain: str
    check_input: str
    distinct_py: list[str]
    distinct_json: list[str]
    alternative_json: str | None
    hidden: bool = False
    """An aggregate's field no view shows."""


def title(name: str) -> str:
    return " ".join(naming.words(name)).capitalize()


def field_ctx(field_: RField, catalog: Catalog) -> FieldCtx:
    values = catalog.values
    type_ = field_.type
    default_py = default_factory = None
    if field_.has_default:
        literal = python_literal(field_.default, field_.full_type, values)
        if type_.is_collection and field_.default is not None:
            default_factory = (
                "list" if literal == "[]" else "dict" if literal == "{}" else (f"lambda: {literal}")
            )
        else:
            default_py = literal
    try:
        sample_value = sample(field_, catalog)
    except Invalid:
        sample_value = field_.default if field_.has_default else None
    element = _element(type_)
    try:
        varied = field_.unique or field_.varied
        distinct = distinct_samples(field_, catalog) if varied else [sample_value]
    except Invalid:
        distinct = [sample_value]
    return FieldCtx(
        name=field_.name,
        attr=field_.attr,
        title=title(field_.name),
        py=field_.full_type.py,
        type=str(type_),
        kind=type_.kind,
        element_kind=element.kind,
        element=element.name,
        optional=field_.optional,
        required=field_.required,
        default_py=default_py,
        default_factory=default_factory,
        default_json=field_.default,
        description=field_.description,
        checks=_checks(field_, sample_value, catalog),
        nested=_nested(type_),
        api=api_type(field_.full_type),
        api_field=api_field(field_),
        patch_field=api_field(field_, patch=True),
        column=type_.column,
        sample_json=json_literal(sample_value),
        sample_py=python_literal(sample_value, field_.full_type, values),
        sample=sample_value,
        unique=field_.unique,
        references=field_.references,
        references_snake=naming.snake(field_.references) if field_.references else None,
        to_domain=to_domain(field_.full_type, "VALUE"),
        check_input="Decimal(str(VALUE))" if type_.is_scalar("decimal") else "VALUE",
        distinct_py=[python_literal(v, field_.full_type, values) for v in distinct],
        distinct_json=[json_literal(v) for v in distinct],
        alternative_json=_alternative(field_, sample_value, catalog),
        hidden=field_.hidden,
    )


def _alternative(field_: RField, value: Any, catalog: Catalog) -> str | None:
    """Another valid value of a scalar field (a request that differs from the sample)."""
    if field_.type.is_scalar("bool") and not field_.optional:
        return json_literal(not value)
    if field_.type.kind not in ("scalar", "enum") or field_.type.is_scalar("bool"):
        return None
    try:
        found = distinct_samples(field_, catalog, count=2)
    except Invalid:
        return None
    return json_literal(found[1]) if len(found) > 1 and found[1] != value else None


def to_domain(type_: TypeRef, expr: str, depth: int = 0) -> str:
    """Python that turns ``expr`` (the HTTP model's value) into the domain's value: value
    objects become the domain's dataclasses."""
    item = f"item{depth}"
    if type_.kind == "optional":
        inner = to_domain(type_.element, expr, depth)
        return expr if inner == expr else f"(None if {expr} is None else {inner})"
    if type_.kind == "value":
        return f"{naming.snake(type_.name)}_of({expr})"
    if type_.kind in ("list", "map"):
        inner = to_domain(type_.element, item, depth + 1)
        if inner == item:
            return expr
        if type_.kind == "list":
            return f"[{inner} for {item} in {expr}]"
        return f"{{key{depth}: {inner} for key{depth}, {item} in {expr}.items()}}"
    return expr


def _element(type_: TypeRef) -> TypeRef:
    while type_.kind in ("list", "map", "optional"):
        type_ = type_.element
    return type_


def _nested(type_: TypeRef) -> str | None:
    """How value objects inside a field are reached: ``value``, ``list``, ``map`` (one
    level), or None when the field holds none."""
    if type_.kind == "value":
        return "value"
    if type_.kind in ("list", "map") and type_.element.kind == "value":
        return type_.kind
    return None


def _checks(field_: RField, valid: Any, catalog: Catalog) -> list[Check]:
    checks = []
    unit = "character" if field_.type.is_scalar("str") else "item"
    for kind, value in field_.rules:
        message = field_.messages.get(kind) or _DEFAULT_MESSAGES[kind].format(
            title=title(field_.name), value=value, unit=unit if value == 1 else f"{unit}s"
        )
        invalid = None if valid is None else breaking(kind, value, valid, field_.type)
        exact = (
            invalid is not None
            and not isinstance(invalid, LongText)
            and all(
                other == kind or not rule_breaks(other, bound, invalid, field_.type)
                for other, bound in field_.rules
            )
        )
        if isinstance(invalid, LongText):
            exact = len(field_.rules) == 1
        checks.append(
            Check(
                kind=kind,
                value=value,
                value_py=_rule_value(kind, value, field_.type),
                message=message,
                invalid_json=None if invalid is None else json_literal(invalid),
                invalid_py=None
                if invalid is None
                else python_literal(invalid, field_.type, catalog.values),
                exact=exact,
            )
        )
    return checks


def _rule_value(kind: str, value: Any, type_: TypeRef) -> str:
    if kind == "pattern":
        return repr(anchored(value))
    if kind in ("min", "max") and type_.is_scalar("decimal"):
        return f"Decimal({str(value)!r})"
    if kind in ("min", "max") and type_.is_scalar("float"):
        return repr(float(value))
    return repr(value)


def api_type(type_: TypeRef) -> str:
    """The pydantic annotation of a type in the HTTP models (value objects as their
    ``...Body`` models, enums as the domain's enums)."""
    if type_.kind == "optional":
        return f"{api_type(type_.element)} | None"
    if type_.kind == "list":
        return f"list[{api_type(type_.element)}]"
    if type_.kind == "map":
        return f"dict[str, {api_type(type_.element)}]"
    if type_.kind == "value":
        return f"{type_.name}Body"
    if type_.kind == "enum":
        return type_.name
    return JSON_TYPES.get(type_.name) or PYDANTIC_TYPES[type_.name]


def api_field(field_: RField, *, patch: bool = False) -> str:
    """The ``Field(...)`` of a request model field: its JSON name, default and the rules
    JSON Schema can state (so the OpenAPI document states them). In a merge ``patch``
    every field may be left out (``eaf.web.patch_field``)."""
    args = [f"alias={field_.name!r}"]
    rules = dict(field_.rules)
    if patch:
        pass  # eaf.web.patch_field: left out, the current value is kept
    elif field_.has_default:
        literal = python_literal(field_.default, field_.full_type, {})
        if field_.default is None:
            args.append("default=None")
        elif field_.type.is_collection and _holds_value(field_.type):
            # value objects inside: made from the JSON default as the body's own models
            args.append(
                f"default_factory=lambda: TypeAdapter({api_type(field_.type)})"
                f".validate_python({json_literal(field_.default)})"
            )
        elif field_.type.is_collection:
            args.append(f"default_factory=lambda: {json_literal(field_.default)}")
        elif field_.type.kind == "value":
            args.append(f"default_factory=lambda: {field_.type.name}Body.model_validate("
                        f"{json_literal(field_.default)})")  # fmt: skip
        else:
            args.append(f"default={literal}")
    if field_.type.is_scalar("str"):
        pattern = text_pattern(rules)
        if pattern is not None:
            args.append(f"pattern={pattern!r}")
    for kind, keyword in (("min_length", "min_length"), ("max_length", "max_length")):
        if kind in rules:
            args.append(f"{keyword}={rules[kind]}")
    for kind, keyword in (("min", "ge"), ("max", "le")):
        if kind in rules:
            args.append(f"{keyword}={_rule_value(kind, rules[kind], field_.type)}")
        elif field_.type.is_scalar("int"):
            # the integers JSON carries exactly (I-JSON, RFC 7493), which the stores hold
            # too: a larger one is refused (422), as the document states
            args.append(f"{keyword}={-JSON_INT if kind == 'min' else JSON_INT}")
    if "scale" in rules:
        args.append(f"decimal_places={rules['scale']}")
    if _holds(field_.type, "decimal"):
        args.append(f"json_schema_extra=decimal_schema({rules.get('scale')})")
    elif field_.hidden:
        args.append('json_schema_extra={"writeOnly": True}')  # never in a view
    if field_.description:
        args.append(f"description={field_.description!r}")
    return f"{'patch_field' if patch else 'Field'}({', '.join(args)})"


JSON_INT = 2**53 - 1


def _innermost(type_: TypeRef) -> TypeRef:
    """What an optional, list or map (nested ones too) holds; ``type_`` itself else."""
    while type_.kind in ("optional", "list", "map"):
        type_ = type_.element
    return type_


def _holds_value(type_: TypeRef) -> bool:
    return _innermost(type_).kind == "value"


def _holds(type_: TypeRef, *names: str) -> bool:
    """Whether ``type_`` is one of the scalars ``names``, or an optional, list or map of them."""
    return _innermost(type_).is_scalar(*names)


def decimal_text(value: Any) -> str:
    return str(Decimal(str(value)))


def snake_path(path: str) -> str:
    return re.sub(r"[^a-z0-9_]", "_", path.lower())


__all__ = ["Check", "FieldCtx", "field_ctx", "title"]
