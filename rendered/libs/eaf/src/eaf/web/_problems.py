from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from starlette.responses import JSONResponse

PROBLEM_TYPE = "application/problem+json"


def problem_response(
    status: int,
    detail: str,
    *,
    title: str | None = None,
    headers: Mapping[str, str] | None = None,
    **extensions: Any,
) -> JSONResponse:
    """An RFC 9457 ``application/problem+json`` response (``title`` defaults to the
    status's reason phrase)."""
    body = {
        "type": "about:blank",
        "title": title or problem_title(status),
        "status": status,
        "detail": detail,
        **extensions,
    }
    return JSONResponse(
        body, status_code=status, headers=dict(headers or {}), media_type=PROBLEM_TYPE
    )


def problem_title(status: int) -> str:
    """The reason phrase of an HTTP status (``Not Found``)."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"
