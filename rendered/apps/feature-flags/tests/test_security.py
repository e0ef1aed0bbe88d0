# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""Bearer tokens guard every endpoint: 401 without a valid one, 403 without the
permission, and the tenant comes from the token only. Health, metrics and docs are public."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

TenantHeaders = Callable[..., dict[str, str]]
PROBLEM_TYPE = "application/problem+json"
PERMISSIONS = ["feature-flags:evaluate", "feature-flags:read", "feature-flags:write"]
UNKNOWN_ID = "00000000-0000-0000-0000-000000000000"
# method, path (with an unknown id), body, permission
ENDPOINTS = [
    pytest.param(
        "POST",
        "/api/v1/projects",
        {
            "key": "web-shop",
            "name": "name",
            "description": "description",
            "environments": ["value"],
        },
        "feature-flags:write",
        id="create_project",
    ),
    pytest.param(
        "GET",
        "/api/v1/projects",
        None,
        "feature-flags:read",
        id="list_projects",
    ),
    pytest.param(
        "GET",
        f"/api/v1/projects/{UNKNOWN_ID}",
        None,
        "feature-flags:read",
        id="get_project",
    ),
    pytest.param(
        "PUT",
        f"/api/v1/projects/{UNKNOWN_ID}",
        {
            "name": "name",
            "description": "description",
            "environments": ["value"],
        },
        "feature-flags:write",
        id="update_project",
    ),
    pytest.param(
        "DELETE",
        f"/api/v1/projects/{UNKNOWN_ID}",
        None,
        "feature-flags:write",
        id="remove_project",
    ),
    pytest.param(
        "POST",
        "/api/v1/segments",
        {
            "name": "name",
            "description": "description",
            "constraints": [],
        },
        "feature-flags:write",
        id="create_segment",
    ),
    pytest.param(
        "GET",
        "/api/v1/segments",
        None,
        "feature-flags:read",
        id="list_segments",
    ),
    pytest.param(
        "GET",
        f"/api/v1/segments/{UNKNOWN_ID}",
        None,
        "feature-flags:read",
        id="get_segment",
    ),
    pytest.param(
        "PUT",
        f"/api/v1/segments/{UNKNOWN_ID}",
        {
            "name": "name",
            "description": "description",
            "constraints": [],
        },
        "feature-flags:write",
        id="update_segment",
    ),
    pytest.param(
        "DELETE",
        f"/api/v1/segments/{UNKNOWN_ID}",
        None,
        "feature-flags:write",
        id="remove_segment",
    ),
    pytest.param(
        "POST",
        "/api/v1/flags",
        {
            "key": "new-checkout",
            "projectId": "24492400-c65b-5cdb-af5d-6d0232e0aeed",
            "description": "description",
            "type": "release",
            "impressionData": True,
            "environments": {},
            "variants": [],
            "dependencies": [],
        },
        "feature-flags:write",
        id="create_flag",
    ),
    pytest.param(
        "GET",
        "/api/v1/flags",
        None,
        "feature-flags:read",
        id="list_flags",
    ),
    pytest.param(
        "GET",
        f"/api/v1/flags/{UNKNOWN_ID}",
        None,
        "feature-flags:read",
        id="get_flag",
    ),
    pytest.param(
        "GET",
        "/api/v1/flags/by-key/{key}".format(
            key="new-checkout",
        ),
        None,
        "feature-flags:read",
        id="get_flag_by_key",
    ),
    pytest.param(
        "PATCH",
        f"/api/v1/flags/{UNKNOWN_ID}",
        {
            "description": "description",
            "type": "release",
            "impressionData": True,
        },
        "feature-flags:write",
        id="describe_flag",
    ),
    pytest.param(
        "PUT",
        f"/api/v1/flags/{UNKNOWN_ID}/environments",
        {
            "environments": {},
        },
        "feature-flags:write",
        id="configure_flag",
    ),
    pytest.param(
        "PUT",
        f"/api/v1/flags/{UNKNOWN_ID}/variants",
        {
            "variants": [],
        },
        "feature-flags:write",
        id="set_variants_flag",
    ),
    pytest.param(
        "PUT",
        f"/api/v1/flags/{UNKNOWN_ID}/dependencies",
        {
            "dependencies": [],
        },
        "feature-flags:write",
        id="set_dependencies_flag",
    ),
    pytest.param(
        "PUT",
        f"/api/v1/flags/{UNKNOWN_ID}/stale",
        {
            "stale": True,
        },
        "feature-flags:write",
        id="mark_stale_flag",
    ),
    pytest.param(
        "POST",
        f"/api/v1/flags/{UNKNOWN_ID}/archive",
        None,
        "feature-flags:write",
        id="archive_flag",
    ),
    pytest.param(
        "POST",
        f"/api/v1/flags/{UNKNOWN_ID}/revive",
        None,
        "feature-flags:write",
        id="revive_flag",
    ),
    pytest.param(
        "DELETE",
        f"/api/v1/flags/{UNKNOWN_ID}",
        None,
        "feature-flags:write",
        id="remove_flag",
    ),
    pytest.param(
        "POST",
        "/api/v1/usage-reports",
        {
            "appName": "web-shop",
            "instanceId": "instanceId",
            "environment": "production",
            "start": "2030-01-02T03:04:05Z",
            "stop": "2030-01-02T03:04:05Z",
            "toggles": {},
        },
        "feature-flags:evaluate",
        id="submit_usage_report",
    ),
    pytest.param(
        "GET",
        "/api/v1/usage-reports",
        None,
        "feature-flags:read",
        id="list_usage_reports",
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
        "/api/v1/projects",
        json={
            "key": "web-shop",
            "name": "name",
            "description": "description",
            "environments": ["value"],
        },
        headers={**as_tenant("tenant-a"), "X-Tenant-Id": "tenant-b"},
    )
    assert created.status_code == 201
    path = "/api/v1/projects/{id}".format(id=created.json()["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_health_metrics_and_docs_are_public(client: TestClient) -> None:
    for path in (
        "/actuator/health",
        "/api/v1/feature-flags/health",
        "/metrics",
        "/openapi.json",
    ):
        assert client.get(path, headers={"Authorization": ""}).status_code == 200, path
