"""Helpers of the HTTP API tests the generator renders for every service (and of tests
written by hand beside them): distinct example values, what a request sent back in its
answer, a 422 problem's errors, waiting for an eventually consistent read, and the headers
of who asks."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from eaf.web._problems import PROBLEM_TYPE

__all__ = [
    "PROBLEM_TYPE",
    "UNKNOWN_ID",
    "asker",
    "errors_of",
    "eventually",
    "next_of",
    "sent",
]

UNKNOWN_ID = "00000000-0000-0000-0000-000000000000"
"""An id no aggregate has."""

_USED: dict[str, int] = {}


class Answer(Protocol):
    """What the tests read of an HTTP response (httpx's, Starlette's test client's)."""

    @property
    def status_code(self) -> int: ...

    @property
    def headers(self) -> Any: ...

    @property
    def text(self) -> str: ...

    def json(self) -> Any: ...


REQUEST_ONLY = frozenset({"if-match", "if-none-match", "idempotency-key"})
"""The headers that belong to one request: its precondition and its idempotency key."""


def asker(headers: dict[str, str] | None) -> dict[str, str] | None:
    """Who asks (the tenant, the token) of ``headers``, without what belongs to the one
    request they were made for (:data:`REQUEST_ONLY`): what a test makes on the way to that
    request is made with no precondition and under no idempotency key."""
    if headers is None:
        return None
    return {
        name: value
        for name, value in headers.items()
        if name.lower() not in REQUEST_ONLY
    }


def next_of(key: str, values: list[Any]) -> Any:
    """The next of ``values`` not used yet for ``key`` in this process, cycling (so the
    values of a unique field stay unique across the tests that take them)."""
    index = _USED.get(key, 0)
    _USED[key] = index + 1
    return values[index % len(values)]


def sent(answer: Any, body: Any) -> Any:
    """``answer`` with only the keys ``body`` has, at every level: what a request sent
    comes back, and the answer may add the fields it left to their defaults (a value
    object's optional field as null)."""
    if isinstance(body, dict) and isinstance(answer, dict):
        return {key: sent(answer.get(key), value) for key, value in body.items()}
    if isinstance(body, list) and isinstance(answer, list) and len(body) == len(answer):
        return [sent(item, value) for item, value in zip(answer, body, strict=True)]
    return answer


def errors_of(response: Answer) -> list[dict[str, str]]:
    """The ``errors`` of a 422 problem answer (failing the test when it is not one)."""
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    errors: list[dict[str, str]] = response.json()["errors"]
    return errors


def eventually(
    read: Callable[[], Any], done: Callable[[Any], bool], timeout: float = 10
) -> Any:
    """What ``read`` returns once ``done`` holds, or its last answer after ``timeout``
    seconds (read models are eventually consistent)."""
    deadline = time.monotonic() + timeout
    value = read()
    while not done(value) and time.monotonic() < deadline:
        time.sleep(0.05)
        value = read()
    return value
