"""JSON values of spec types written as Python expressions (defaults, examples), and the
JSON Schema of spec types (for the HTTP models)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from generator.expr_code import member_name
from generator.resolved import RField
from generator.typeref import TypeRef
from generator.values import NOT_BLANK, LongText, anchored

_PY_SCALAR = {
    "decimal": "Decimal({!r})",
    "uuid": "UUID({!r})",
    "date": "date.fromisoformat({!r})",
    "datetime": "datetime.fromisoformat({!r})",
}


def python_literal(value: Any, type_: TypeRef, values: Mapping[str, list[RField]]) -> str:
    """``value`` (JSON data of ``type_``) as a Python expression of the domain type."""
    if value is None:
        return "None"
    if isinstance(value, LongText):
        return f'"x" * {int(value)}'
    type_ = type_.required()
    if type_.kind == "list":
        return "[" + ", ".join(python_literal(v, type_.element, values) for v in value) + "]"
    if type_.kind == "map":
        items = (f"{k!r}: {python_literal(v, type_.element, values)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if type_.kind == "enum":
        return f"{type_.name}.{member_name(value)}"
    if type_.kind == "value":
        fields = values.get(type_.name, [])
        args = (
            f"{f.attr}={python_literal(value[f.name], f.full_type, values)}"
            for f in fields
            if f.name in value
        )
        return f"{type_.name}({', '.join(args)})"
    pattern = _PY_SCALAR.get(type_.name)
    if pattern is not None:
        return pattern.format(value)
    return repr(value)


def json_literal(value: Any) -> str:
    """``value`` as a Python expression of its JSON data (for request bodies in tests)."""
    if isinstance(value, LongText):
        return f'"x" * {int(value)}'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {json_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(json_literal(v) for v in value) + "]"
    return repr(value)


def text_pattern(rules: Mapping[str, Any]) -> str | None:
    """One JSON Schema pattern that holds every text rule of a field (pydantic and
    OpenAPI take one pattern): not_blank, contains and pattern."""
    parts = []
    if rules.get("not_blank"):
        parts.append(rf"(?=[\s\S]*[^{NOT_BLANK}])")
    if "contains" in rules:
        parts.append(f"(?=[\\s\\S]*{re.escape(rules['contains'])})")
    if "pattern" in rules:
        body = anchored(rules["pattern"])[1:]
        return "^" + "".join(parts) + body
    if not parts:
        return None
    return "^" + "".join(parts)
