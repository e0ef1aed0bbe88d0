# Generated from spec configuration by `generate`; edits are merged on re-render.

"""Bearer tokens guard every endpoint: 401 without a valid one, 403 without the
permission, and the tenant comes from the token only. Health, metrics and docs are public."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

TenantHeaders = Callable[..., dict[str, str]]
PROBLEM_TYPE = "application/problem+json"
PERMISSIONS = ["configuration:read", "configuration:write"]
UNKNOWN_ID = "00000000-0000-0000-0000-000000000000"
# method, path (with an unknown id), body, permission
ENDPOINTS = [
    pytest.param(
        "POST",
        "/api/v1/schemas",
        {
            "application": "billing",
            "document": '{"type": "object"}',
        },
        "configuration:write",
        id="define_config_schema",
    ),
    pytest.param(
        "GET",
        "/api/v1/schemas",
        None,
        "configuration:read",
        id="list_schemas",
    ),
    pytest.param(
        "GET",
        f"/api/v1/schemas/{UNKNOWN_ID}",
        None,
        "configuration:read",
        id="get_config_schema",
    ),
    pytest.param(
        "GET",
        "/api/v1/schemas/by-application/{application}".format(
            application="billing",
        ),
        None,
        "configuration:read",
        id="get_config_schema_by_application",
    ),
    pytest.param(
        "PUT",
        f"/api/v1/schemas/{UNKNOWN_ID}",
        {
            "document": '{"type": "object"}',
        },
        "configuration:write",
        id="revise_config_schema",
    ),
    pytest.param(
        "DELETE",
        f"/api/v1/schemas/{UNKNOWN_ID}",
        None,
        "configuration:write",
        id="remove_config_schema",
    ),
    pytest.param(
        "GET",
        "/api/v1/property-sets",
        None,
        "configuration:read",
        id="list_property_sets",
    ),
    pytest.param(
        "GET",
        f"/api/v1/property-sets/{UNKNOWN_ID}",
        None,
        "configuration:read",
        id="get_property_set",
    ),
    pytest.param(
        "DELETE",
        f"/api/v1/property-sets/{UNKNOWN_ID}",
        None,
        "configuration:write",
        id="remove_property_set",
    ),
]
ENDPOINT = ("method", "path", "body", "permission")


@pytest.mark.parametrize(ENDPOINT, ENDPOINTS)
def test_without_a_token_is_401(
    client: TestClient, method: str, path: str, body: Any, permission: str | None
) -> None:
    response = client.request(method, path, json=body, headers={"Authorization": ""})
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.headers["content-type"] == PROBLEM_TYPE


@pytest.mark.parametrize(ENDPOINT, ENDPOINTS)
def test_with_a_bad_token_is_401(
    client: TestClient, method: str, path: str, body: Any, permission: str | None
) -> None:
    response = client.request(
        method, path, json=body, headers={"Authorization": "Bearer not-a-jwt"}
    )
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith(
        'Bearer error="invalid_token"'
    )


@pytest.mark.parametrize(ENDPOINT, [e for e in ENDPOINTS if e.values[3] is not None])
def test_without_the_permission_is_403(
    client: TestClient,
    as_tenant: TenantHeaders,
    method: str,
    path: str,
    body: Any,
    permission: str,
) -> None:
    others = [p for p in PERMISSIONS if p != permission]
    response = client.request(
        method, path, json=body, headers=as_tenant("tenant-a", others)
    )
    assert response.status_code == 403
    assert permission in response.json()["detail"]


@pytest.mark.parametrize(
    ENDPOINT,
    [
        e
        for e in ENDPOINTS
        if e.values[3] is not None and "{tenantId}" not in str(e.values[1])
    ],
)
def test_a_platform_token_names_no_tenant_here_and_is_refused(
    client: TestClient,
    as_platform: Callable[[list[str]], dict[str, str]],
    method: str,
    path: str,
    body: Any,
    permission: str,
) -> None:
    """A platform operator's token has no tenant: where the tenant comes from the token,
    it acts in none (403, never another tenant's data, never a 500)."""
    response = client.request(method, path, json=body, headers=as_platform(PERMISSIONS))
    assert response.status_code == 403, response.text
    assert response.json()["type"] == "urn:problem-type:tenant-required"


def test_a_tenant_header_does_not_choose_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = client.post(
        "/api/v1/schemas",
        json={
            "application": "billing",
            "document": '{"type": "object"}',
        },
        headers={**as_tenant("tenant-a"), "X-Tenant-Id": "tenant-b"},
    )
    assert created.status_code == 201
    path = "/api/v1/schemas/{id}".format(id=created.json()["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_health_metrics_and_docs_are_public(client: TestClient) -> None:
    for path in (
        "/actuator/health",
        "/api/v1/configurations/health",
        "/metrics",
        "/openapi.json",
    ):
        assert client.get(path, headers={"Authorization": ""}).status_code == 200, path
