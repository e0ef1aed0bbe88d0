from __future__ import annotations

from typing import Any

from fastapi import FastAPI

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


def document_body_problems(app: FastAPI) -> None:
    """Declare, in the app's OpenAPI document, the 400 and 413 problem answers of every
    operation that takes a body."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            add_body_problems(generate())
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
