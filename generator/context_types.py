"""JSON Schema of spec field types."""

from __future__ import annotations

import re
from typing import Any

from generator.spec import FieldSpec

_SCALARS: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "float": {"type": "number"},
    "bool": {"type": "boolean"},
    "decimal": {"type": "string", "format": "decimal"},
    "uuid": {"type": "string", "format": "uuid"},
    "datetime": {"type": "string", "format": "date-time"},
    "date": {"type": "string", "format": "date"},
}


def type_schema(type_name: str) -> dict[str, Any]:
    """The JSON Schema of a spec type such as ``decimal`` or ``list[uuid]``."""
    match = re.fullmatch(r"list\[(\w+)\]", type_name)
    if match:
        return {"type": "array", "items": dict(_SCALARS[match[1]])}
    if type_name == "map":
        return {"type": "object", "additionalProperties": {"type": "string"}}
    return dict(_SCALARS[type_name])


def json_schema_of(field: FieldSpec) -> dict[str, Any]:
    """The JSON Schema of a spec field, with its description and default."""
    schema = type_schema(field.type)
    if field.description:
        schema["description"] = field.description
    if field.default is not None:
        schema["default"] = field.default
    return schema


_SAMPLES: dict[str, Any] = {
    "str": "sample",
    "int": 1,
    "float": 1.5,
    "bool": True,
    "decimal": "10.50",
    "uuid": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
    "datetime": "2026-01-02T03:04:05+00:00",
    "date": "2026-01-02",
}
_PY_LITERAL = {
    "decimal": "Decimal({!r})",
    "uuid": "UUID({!r})",
    "datetime": "datetime.fromisoformat({!r})",
    "date": "date.fromisoformat({!r})",
}


def python_literal(type_name: str, value: Any) -> str:
    """A Python expression of ``value`` (a JSON value) as the field's Python type."""
    match = re.fullmatch(r"list\[(\w+)\]", type_name)
    if match:
        return "[" + ", ".join(python_literal(match[1], item) for item in value) + "]"
    return _PY_LITERAL.get(type_name, "{!r}").format(value)


def sample_value(name: str, field: FieldSpec) -> Any:
    """A JSON value of ``field`` that satisfies its rules (its example when given)."""
    if field.example is not None:
        return field.example
    if field.type.startswith("list["):
        return []
    if field.type == "map":
        return {}
    value = _SAMPLES[field.type]
    for rule in field.rules:
        if rule.kind == "contains":
            value = f"{name}{rule.value}example.org"
        elif rule.kind in ("min", "min_length") and field.type in ("int", "float"):
            value = max(value, rule.value)
        elif rule.kind == "min_length":
            value = value.ljust(int(rule.value), "x")
    return value


def invalid_value(rule_kind: str, rule_value: Any) -> Any:
    """A JSON value that breaks one rule, or None when none can be derived (patterns)."""
    if rule_kind == "not_blank":
        return "   "
    if rule_kind == "contains":
        return "x" if rule_value != "x" else "y"
    if rule_kind == "min":
        return rule_value - 1
    if rule_kind == "max":
        return rule_value + 1
    if rule_kind == "min_length":
        return "x" * max(int(rule_value) - 1, 0)
    if rule_kind == "max_length":
        return "x" * (int(rule_value) + 1)
    return None
