# Generated from spec iam by `generate`; edits are merged on re-render.

"""The HTTP API: every endpoint of the spec, with its rules, guards, versions, idempotency
keys, pages and filters; health, metrics and OpenAPI."""

import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from httpx2 import Response

TenantHeaders = Callable[..., dict[str, str]]
Headers = dict[str, str] | None

PROBLEM_TYPE = "application/problem+json"
UNKNOWN_ID = "00000000-0000-0000-0000-000000000000"
USED: dict[str, int] = {}


def next_of(key: str, values: list[Any]) -> Any:
    """The next of ``values`` not used yet for ``key`` (unique values stay unique)."""
    index = USED.get(key, 0)
    USED[key] = index + 1
    return values[index % len(values)]


def sent(answer: Any, body: Any) -> Any:
    """``answer`` with only the keys ``body`` has, at every level: what a request sent comes
    back, and the answer may add the fields it left to their defaults (a value object's
    optional field as null)."""
    if isinstance(body, dict) and isinstance(answer, dict):
        return {key: sent(answer.get(key), value) for key, value in body.items()}
    if isinstance(body, list) and isinstance(answer, list) and len(body) == len(answer):
        return [sent(item, value) for item, value in zip(answer, body, strict=True)]
    return answer


def errors_of(response: Response) -> list[dict[str, str]]:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    errors: list[dict[str, str]] = response.json()["errors"]
    return errors


def eventually(read: Callable[[], Any], done: Callable[[Any], bool]) -> Any:
    """What ``read`` returns once ``done`` holds (read models are eventually consistent)."""
    deadline = time.monotonic() + 10
    value = read()
    while not done(value) and time.monotonic() < deadline:
        time.sleep(0.05)
        value = read()
    return value


def test_service_health(client: TestClient) -> None:
    response = client.get("/api/v1/iams/health")
    assert response.json() == {"status": "UP", "service": "iam"}


def test_actuator_health_liveness_and_readiness(client: TestClient) -> None:
    for path in (
        "/actuator/health",
        "/actuator/health/liveness",
        "/actuator/health/readiness",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.json()["status"] == "UP"


def test_metrics_count_requests_by_route(client: TestClient) -> None:
    client.get("/actuator/health")
    response = client.get("/metrics")
    assert response.status_code == 200
    assert 'route="/actuator/health"' in response.text


def test_openapi_lists_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert paths, "the OpenAPI document lists the routes"
