from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from fastapi import FastAPI

from eaf.domain import decimal_text
from eaf.web._bodies import Problem
from eaf.web._problems import PROBLEM_TYPE

PROBLEM_SCHEMA: dict[str, Any] = {
    "title": "Problem",
    "description": "An RFC 9457 problem detail.",
    "type": "object",
    "required": ["title", "status", "detail"],
    "properties": {
        "type": {"type": "string", "default": "about:blank"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
    },
}
_BODY_PROBLEMS = {
    "400": "Malformed body: not JSON, or nested too deeply (problem body)",
    "413": "The request body is too large (problem body)",
}
_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


_AUTH = {
    401: "No valid bearer token (see WWW-Authenticate)",
    403: "The token lacks the permission",
}


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route that answers ``statuses`` with problem bodies, for
    its OpenAPI document (``APIRouter(responses=...)`` or a route's)."""
    return {
        status: {"model": Problem, "content": {PROBLEM_TYPE: {}}} for status in statuses
    }


def auth_problem_responses() -> dict[int | str, dict[str, Any]]:
    """The 401 and 403 problem answers of a route that needs a bearer token with a
    permission, described."""
    responses = problem_responses(*_AUTH)
    for status, description in _AUTH.items():
        responses[status]["description"] = description
    return responses


def document_body_problems(app: FastAPI) -> None:
    """Declare, in the app's OpenAPI document, the 400 and 413 problem answers of every
    operation that takes a body (and write the bounds of its integers as integers, the
    patterns of map keys as ``propertyNames``)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = generate()
            add_body_problems(document)
            integer_bounds(document)
            key_patterns(document)
        return generate()

    app.openapi = openapi  # type: ignore[method-assign]


def add_body_problems(document: dict[str, Any]) -> None:
    """Add the 400 and 413 problem responses to each operation with a request body."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Problem", PROBLEM_SCHEMA)
    problem = {"schema": {"$ref": "#/components/schemas/Problem"}}
    for path in document.get("paths", {}).values():
        for method in _METHODS:
            operation = path.get(method)
            if operation is None or "requestBody" not in operation:
                continue
            responses = operation.setdefault("responses", {})
            for status, description in _BODY_PROBLEMS.items():
                response = responses.setdefault(status, {"description": description})
                response.setdefault("content", {}).setdefault(PROBLEM_TYPE, problem)


_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def integer_bounds(schema: Any) -> None:
    """Write the bounds of every ``integer`` in ``schema`` (an OpenAPI document) as integers:
    FastAPI's document model reads them as floats (``5.0``, ``1e+16``). Exact for the
    integers a float holds, the ±(2**53 - 1) of I-JSON a service's bounds stay within."""
    if isinstance(schema, list):
        for item in schema:
            integer_bounds(item)
    if not isinstance(schema, dict):
        return
    if schema.get("type") == "integer":
        for key in _BOUNDS:
            bound = schema.get(key)
            if isinstance(bound, float) and bound.is_integer():
                schema[key] = int(bound)
    for value in schema.values():
        integer_bounds(value)


def key_patterns(schema: Any) -> None:
    """State the pattern of a map's keys as ``propertyNames`` (with its values'
    ``additionalProperties``): pydantic writes ``dict[Annotated[str, pattern], V]`` as
    ``patternProperties``, which only says what a matching key's value is and lets any
    other key through."""
    if isinstance(schema, list):
        for item in schema:
            key_patterns(item)
    if not isinstance(schema, dict):
        return
    patterned = schema.get("patternProperties")
    if (
        isinstance(patterned, dict)
        and len(patterned) == 1
        and "additionalProperties" not in schema
    ):
        ((pattern, value),) = patterned.items()
        del schema["patternProperties"]
        schema["propertyNames"] = {
            **schema.get("propertyNames", {}),
            "pattern": pattern,
        }
        schema["additionalProperties"] = value
    for value in schema.values():
        key_patterns(value)


def decimal_schema(scale: int | None) -> Callable[[dict[str, Any]], None]:
    """A pydantic ``json_schema_extra`` that states, for a decimal field, what its two JSON
    forms accept: a number a multiple of ``10**-scale``, or a text of digits with at most
    ``scale`` places, as its value is judged (trailing zeros past them too: ``12.500`` is
    ``12.5``; pydantic's own schema lets any string through)."""
    if scale is None:
        fraction = r"(?:\.[0-9]+)?"
    elif scale == 0:
        fraction = r"(?:\.0+)?"
    else:
        fraction = rf"(?:\.[0-9]{{1,{scale}}}0*)?"
    pattern = rf"^-?[0-9]+{fraction}$"

    def state(schema: dict[str, Any]) -> None:
        if "default" in schema:
            # pydantic writes a Decimal default as str() does, 1E-18 for 0.000000000000000001
            schema["default"] = _plain(schema["default"])
        for branch in _decimal_branches(schema):
            if branch.get("type") == "string":
                branch["pattern"] = pattern
            elif scale is not None:
                branch["multipleOf"] = 1 if scale == 0 else float(f"1e-{scale}")

    return state


def _plain(default: Any) -> Any:
    """A decimal default (or a list or map of them) with each decimal's text in plain
    notation, as the schema's pattern states it."""
    if isinstance(default, list):
        return [_plain(item) for item in default]
    if isinstance(default, dict):
        return {key: _plain(item) for key, item in default.items()}
    if isinstance(default, str):
        return decimal_text(Decimal(default))
    return default


def _decimal_branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``number`` and ``string`` alternatives of decimals anywhere in ``schema`` (the
    field itself, an optional one, items of a list, values of a map)."""
    found: list[dict[str, Any]] = []
    alternatives: list[dict[str, Any]] = schema.get("anyOf", [])
    types = [branch.get("type") for branch in alternatives]
    if "number" in types and "string" in types:
        return alternatives
    for branch in alternatives:
        found.extend(_decimal_branches(branch))
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            found.extend(_decimal_branches(schema[key]))
    return found
