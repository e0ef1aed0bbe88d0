"""The JSON Schema of an application's properties (hand-written): what a property set
must satisfy, every violation reported at once."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import SchemaError  # type: ignore[import-untyped]

__all__ = ["schema_problems", "violations"]


def schema_problems(document: str) -> list[str]:
    """Why ``document`` is not a JSON Schema (draft 2020-12); empty when it is one."""
    try:
        schema = json.loads(document)
    except json.JSONDecodeError as error:
        return [f"not JSON: {error.msg} at line {error.lineno} column {error.colno}"]
    if not isinstance(schema, (dict, bool)):
        return ["a JSON Schema is an object or a boolean"]
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        return [
            f"{'/'.join(str(p) for p in error.absolute_path) or '(root)'}: {error.message}"
        ]
    return []


def violations(document: str, values: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Each ``(property, message)`` by which ``values`` break the schema ``document``;
    the property is the name of the top-level property concerned ("" for the whole set)."""
    validator = Draft202012Validator(json.loads(document))
    found = []
    for error in sorted(
        validator.iter_errors(dict(values)), key=lambda e: list(e.path)
    ):
        path = list(error.absolute_path)
        found.append((str(path[0]) if path else "", error.message))
    return found
