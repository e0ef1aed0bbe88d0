# Generated from spec iam by `generate`; edits are merged on re-render.

"""The HTTP API: every endpoint of the spec, with its rules, guards, versions, idempotency
keys, pages and filters; health, metrics and OpenAPI."""

from collections.abc import Callable
from typing import Any

from eaf.web.testing import UNKNOWN_ID
from fastapi.testclient import TestClient
from httpx2 import Response

TenantHeaders = Callable[..., dict[str, str]]
Headers = dict[str, str] | None


def call_remove_user(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """DELETE /api/v1/tenants/{tenantId}/users/{userId} with the examples' body."""
    return client.request(
        "DELETE",
        f"/api/v1/tenants/{{tenantId}}/users/{id}",
        headers=headers,
    )


def call_disable_service_account(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """DELETE /api/v1/tenants/{tenantId}/service-accounts/{serviceAccountId} with the examples' body."""
    return client.request(
        "DELETE",
        f"/api/v1/tenants/{{tenantId}}/service-accounts/{id}",
        headers=headers,
    )


def test_list_user_list_answers_a_list(client: TestClient) -> None:
    response = client.get("/api/v1/tenants/{tenantId}/users")
    assert response.status_code == 200, response.text


def test_remove_user_of_a_missing_user_is_404(client: TestClient) -> None:
    response = call_remove_user(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "User not found"


def test_list_roles_answers_a_list(client: TestClient) -> None:
    response = client.get("/api/v1/tenants/{tenantId}/roles")
    assert response.status_code == 200, response.text


def test_list_service_accounts_answers_a_list(client: TestClient) -> None:
    response = client.get("/api/v1/tenants/{tenantId}/service-accounts")
    assert response.status_code == 200, response.text


def test_disable_service_account_of_a_missing_service_account_is_404(
    client: TestClient,
) -> None:
    response = call_disable_service_account(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Service account not found"


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
    assert "get" in paths["/api/v1/tenants/{tenantId}/roles/{roleId}"]
    assert (
        "get" in paths["/api/v1/tenants/{tenantId}/service-accounts/{serviceAccountId}"]
    )
    assert "get" in paths["/api/v1/tenants/{tenantId}/users"]
    assert "get" in paths["/api/v1/tenants/{tenantId}/users/{userId}"]
    assert "delete" in paths["/api/v1/tenants/{tenantId}/users/{userId}"]
    assert "get" in paths["/api/v1/tenants/{tenantId}/roles"]
    assert "get" in paths["/api/v1/tenants/{tenantId}/service-accounts"]
    assert (
        "delete"
        in paths["/api/v1/tenants/{tenantId}/service-accounts/{serviceAccountId}"]
    )
