# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Bearer tokens guard every endpoint: 401 without a valid one, 403 without the
permission, and the tenant comes from the token only. Health, metrics and docs are public."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

TenantHeaders = Callable[..., dict[str, str]]
PROBLEM_TYPE = "application/problem+json"
PERMISSIONS = ["licensing:read", "licensing:write"]
UNKNOWN_ID = "00000000-0000-0000-0000-000000000000"
# method, path (with an unknown id), body, permission
ENDPOINTS = [
    pytest.param(
        "POST",
        "/api/v1/products",
        {
            "code": "desktop-app",
            "name": "name",
            "url": "url",
            "metadata": {},
        },
        "licensing:write",
        id="create_product",
    ),
    pytest.param(
        "GET",
        "/api/v1/products",
        None,
        "licensing:read",
        id="list_products",
    ),
    pytest.param(
        "GET",
        f"/api/v1/products/{UNKNOWN_ID}",
        None,
        "licensing:read",
        id="get_product",
    ),
    pytest.param(
        "PUT",
        f"/api/v1/products/{UNKNOWN_ID}",
        {
            "name": "name",
            "url": "url",
            "metadata": {},
        },
        "licensing:write",
        id="update_product",
    ),
    pytest.param(
        "DELETE",
        f"/api/v1/products/{UNKNOWN_ID}",
        None,
        "licensing:write",
        id="remove_product",
    ),
    pytest.param(
        "POST",
        "/api/v1/policies",
        {
            "productId": "bc8330a5-58e8-5ff6-b4b1-d562485bb9bb",
            "name": "name",
            "durationDays": 365,
            "maxMachines": 1,
            "floating": True,
            "entitlements": [],
            "gracePeriodDays": 1,
            "heartbeatIntervalSeconds": 600,
        },
        "licensing:write",
        id="create_policy",
    ),
    pytest.param(
        "GET",
        "/api/v1/policies",
        None,
        "licensing:read",
        id="list_policies",
    ),
    pytest.param(
        "GET",
        f"/api/v1/policies/{UNKNOWN_ID}",
        None,
        "licensing:read",
        id="get_policy",
    ),
    pytest.param(
        "PUT",
        f"/api/v1/policies/{UNKNOWN_ID}",
        {
            "name": "name",
            "durationDays": 365,
            "maxMachines": 1,
            "floating": True,
            "entitlements": [],
            "gracePeriodDays": 1,
            "heartbeatIntervalSeconds": 600,
        },
        "licensing:write",
        id="update_policy",
    ),
    pytest.param(
        "DELETE",
        f"/api/v1/policies/{UNKNOWN_ID}",
        None,
        "licensing:write",
        id="remove_policy",
    ),
    pytest.param(
        "POST",
        "/api/v1/licenses",
        {
            "key": "A1B2C3-D4E5F6-A7B8C9-D0E1F2",
            "policyId": "17cfd893-2c87-52ad-a1e6-d3b3b662a35b",
            "productId": "bc8330a5-58e8-5ff6-b4b1-d562485bb9bb",
            "name": "name",
            "owner": "owner",
            "expiresAt": "2030-01-02T03:04:05Z",
            "durationDays": 365,
            "maxMachines": 1,
            "metadata": {},
        },
        "licensing:write",
        id="create_license",
    ),
    pytest.param(
        "GET",
        "/api/v1/licenses",
        None,
        "licensing:read",
        id="list_licenses",
    ),
    pytest.param(
        "GET",
        f"/api/v1/licenses/{UNKNOWN_ID}",
        None,
        "licensing:read",
        id="get_license",
    ),
    pytest.param(
        "GET",
        "/api/v1/licenses/by-key/{key}".format(
            key="A1B2C3-D4E5F6-A7B8C9-D0E1F2",
        ),
        None,
        "licensing:read",
        id="get_license_by_key",
    ),
    pytest.param(
        "PATCH",
        f"/api/v1/licenses/{UNKNOWN_ID}",
        {
            "name": "name",
            "owner": "owner",
            "metadata": {},
        },
        "licensing:write",
        id="update_license",
    ),
    pytest.param(
        "POST",
        f"/api/v1/licenses/{UNKNOWN_ID}/actions/suspend",
        None,
        "licensing:write",
        id="suspend_license",
    ),
    pytest.param(
        "POST",
        f"/api/v1/licenses/{UNKNOWN_ID}/actions/reinstate",
        None,
        "licensing:write",
        id="reinstate_license",
    ),
    pytest.param(
        "POST",
        f"/api/v1/licenses/{UNKNOWN_ID}/actions/revoke",
        None,
        "licensing:write",
        id="revoke_license",
    ),
    pytest.param(
        "POST",
        f"/api/v1/licenses/{UNKNOWN_ID}/actions/renew",
        None,
        "licensing:write",
        id="renew_license",
    ),
    pytest.param(
        "POST",
        "/api/v1/machines",
        {
            "licenseId": "2b9cdfb2-5eae-598b-a1ac-b8bbcda2622e",
            "fingerprint": "4a:9c:07:e1",
            "name": "name",
            "platform": "platform",
        },
        "licensing:write",
        id="activate_machine",
    ),
    pytest.param(
        "GET",
        "/api/v1/machines",
        None,
        "licensing:read",
        id="list_machines",
    ),
    pytest.param(
        "GET",
        f"/api/v1/machines/{UNKNOWN_ID}",
        None,
        "licensing:read",
        id="get_machine",
    ),
    pytest.param(
        "GET",
        "/api/v1/machines/by-fingerprint/{fingerprint}".format(
            fingerprint="4a:9c:07:e1",
        ),
        None,
        "licensing:read",
        id="get_machine_by_fingerprint",
    ),
    pytest.param(
        "POST",
        f"/api/v1/machines/{UNKNOWN_ID}/actions/ping",
        None,
        "licensing:write",
        id="heartbeat_machine",
    ),
    pytest.param(
        "DELETE",
        f"/api/v1/machines/{UNKNOWN_ID}",
        None,
        "licensing:write",
        id="deactivate_machine",
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
        "/api/v1/products",
        json={
            "code": "desktop-app",
            "name": "name",
            "url": "url",
            "metadata": {},
        },
        headers={**as_tenant("tenant-a"), "X-Tenant-Id": "tenant-b"},
    )
    assert created.status_code == 201
    path = "/api/v1/products/{id}".format(id=created.json()["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_health_metrics_and_docs_are_public(client: TestClient) -> None:
    for path in (
        "/actuator/health",
        "/api/v1/licensings/health",
        "/metrics",
        "/openapi.json",
    ):
        assert client.get(path, headers={"Authorization": ""}).status_code == 200, path
