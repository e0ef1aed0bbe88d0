# Generated from spec iam by `generate`; edits are merged on re-render.

"""Bearer tokens guard every endpoint: 401 without a valid one, 403 without the
permission, and the tenant comes from the token only. Health, metrics and docs are public."""

import functools
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

TenantHeaders = Callable[..., dict[str, str]]
PROBLEM_TYPE = "application/problem+json"
PERMISSIONS = [
    "iam-keys:write",
    "iam-policies:read",
    "iam-policies:write",
    "iam-roles:read",
    "iam-roles:write",
    "iam-service-accounts:read",
    "iam-service-accounts:write",
    "iam-tenants:read",
    "iam-tenants:write",
    "iam-users:read",
    "iam-users:write",
]
UNKNOWN_ID = "00000000-0000-0000-0000-000000000000"
# method, path (with an unknown id), body, permission
ENDPOINTS = [
    pytest.param(
        "POST",
        "/api/v1/tenants",
        {
            "name": "name",
            "adminUsername": "admin",
            "adminEmail": "adminEmail@x",
            "adminPassword": "correct-horse-1",
        },
        "iam-tenants:write",
        id="directory_create_tenant",
    ),
    pytest.param(
        "GET",
        "/api/v1/tenants",
        None,
        "iam-tenants:read",
        id="list_every_tenant",
    ),
    pytest.param(
        "POST",
        "/api/v1/auth/keys/rotate",
        None,
        "iam-keys:write",
        id="tokens_rotate",
    ),
    pytest.param(
        "POST",
        "/api/v1/authz/check",
        {
            "permission": "doc:read",
            "resource": {},
            "env": {},
            "subject": "subject",
            "tenant": "tenant",
        },
        None,
        id="access_decide",
    ),
    pytest.param(
        "GET",
        "/api/v1/tenants/{tenantId}",
        None,
        "iam-tenants:read",
        id="get_tenant_of_the_tenant",
    ),
    pytest.param(
        "PATCH",
        "/api/v1/tenants/{tenantId}",
        {
            "status": "ACTIVE",
        },
        "iam-tenants:write",
        id="change_status_tenant",
    ),
    pytest.param(
        "GET",
        f"/api/v1/tenants/{{tenantId}}/roles/{UNKNOWN_ID}",
        None,
        "iam-roles:read",
        id="get_role",
    ),
    pytest.param(
        "GET",
        f"/api/v1/tenants/{{tenantId}}/service-accounts/{UNKNOWN_ID}",
        None,
        "iam-service-accounts:read",
        id="get_service_account",
    ),
    pytest.param(
        "GET",
        "/api/v1/tenants/{tenantId}/users",
        None,
        "iam-users:read",
        id="list_user_list",
    ),
    pytest.param(
        "GET",
        f"/api/v1/tenants/{{tenantId}}/users/{UNKNOWN_ID}",
        None,
        "iam-users:read",
        id="get_user",
    ),
    pytest.param(
        "POST",
        "/api/v1/tenants/{tenantId}/users",
        {
            "username": "alice",
            "email": "email@x",
            "password": "correct-horse-1",
            "roles": [" "],
            "attributes": {"department": "sales"},
        },
        "iam-users:write",
        id="create_user",
    ),
    pytest.param(
        "PATCH",
        f"/api/v1/tenants/{{tenantId}}/users/{UNKNOWN_ID}",
        {
            "status": "ACTIVE",
            "roles": [" "],
            "attributes": {"department": "sales"},
            "password": "correct-horse-1",
        },
        "iam-users:write",
        id="change_user",
    ),
    pytest.param(
        "DELETE",
        f"/api/v1/tenants/{{tenantId}}/users/{UNKNOWN_ID}",
        None,
        "iam-users:write",
        id="remove_user",
    ),
    pytest.param(
        "GET",
        "/api/v1/tenants/{tenantId}/roles",
        None,
        "iam-roles:read",
        id="list_roles",
    ),
    pytest.param(
        "POST",
        "/api/v1/tenants/{tenantId}/roles",
        {
            "name": "editor",
            "permissions": ["user-profile:read"],
            "description": "description",
        },
        "iam-roles:write",
        id="create_role",
    ),
    pytest.param(
        "PATCH",
        f"/api/v1/tenants/{{tenantId}}/roles/{UNKNOWN_ID}",
        {
            "permissions": ["user-profile:read"],
            "description": "description",
        },
        "iam-roles:write",
        id="change_role",
    ),
    pytest.param(
        "PUT",
        f"/api/v1/tenants/{{tenantId}}/roles/{UNKNOWN_ID}",
        {
            "permissions": ["user-profile:read"],
            "description": "description",
        },
        "iam-roles:write",
        id="change_role_2",
    ),
    pytest.param(
        "GET",
        "/api/v1/tenants/{tenantId}/policies",
        None,
        "iam-policies:read",
        id="list_policies",
    ),
    pytest.param(
        "GET",
        f"/api/v1/tenants/{{tenantId}}/policies/{UNKNOWN_ID}",
        None,
        "iam-policies:read",
        id="get_policy",
    ),
    pytest.param(
        "POST",
        "/api/v1/tenants/{tenantId}/policies",
        {
            "name": "sales-only",
            "effect": "deny",
            "permissions": ["license:*"],
            "conditions": [
                {"attribute": "user.department", "op": "ne", "value": "sales"}
            ],
        },
        "iam-policies:write",
        id="create_policy",
    ),
    pytest.param(
        "PUT",
        f"/api/v1/tenants/{{tenantId}}/policies/{UNKNOWN_ID}",
        {
            "effect": "deny",
            "permissions": ["license:*"],
            "conditions": [
                {"attribute": "user.department", "op": "ne", "value": "sales"}
            ],
        },
        "iam-policies:write",
        id="change_policy",
    ),
    pytest.param(
        "DELETE",
        f"/api/v1/tenants/{{tenantId}}/policies/{UNKNOWN_ID}",
        None,
        "iam-policies:write",
        id="disable_policy",
    ),
    pytest.param(
        "GET",
        "/api/v1/tenants/{tenantId}/service-accounts",
        None,
        "iam-service-accounts:read",
        id="list_service_accounts",
    ),
    pytest.param(
        "POST",
        "/api/v1/tenants/{tenantId}/service-accounts",
        {
            "clientId": "billing-worker",
            "roles": ["user"],
        },
        "iam-service-accounts:write",
        id="create_service_account",
    ),
    pytest.param(
        "POST",
        f"/api/v1/tenants/{{tenantId}}/service-accounts/{UNKNOWN_ID}/secret",
        None,
        "iam-service-accounts:write",
        id="change_secret_service_account",
    ),
    pytest.param(
        "DELETE",
        f"/api/v1/tenants/{{tenantId}}/service-accounts/{UNKNOWN_ID}",
        None,
        "iam-service-accounts:write",
        id="disable_service_account",
    ),
    pytest.param(
        "POST",
        "/api/v1/tenants/{tenantId}/clients",
        {
            "clientId": "portac",
            "name": "name",
            "clientType": "confidential",
            "grantTypes": ["authorization_code"],
            "redirectUris": ["https://portal.example.com/callback"],
            "postLogoutRedirectUris": ["https://portal.example.com/"],
            "scopes": ["openid"],
            "firstParty": True,
        },
        "iam-service-accounts:write",
        id="register_registered_client",
    ),
    pytest.param(
        "GET",
        "/api/v1/tenants/{tenantId}/clients",
        None,
        "iam-service-accounts:read",
        id="list_registered_clients",
    ),
    pytest.param(
        "GET",
        "/api/v1/tenants/{{tenantId}}/clients/{clientId}".format(
            clientId="portac",
        ),
        None,
        "iam-service-accounts:read",
        id="get_registered_client_by_client_id",
    ),
    pytest.param(
        "DELETE",
        "/api/v1/tenants/{{tenantId}}/clients/{clientId}".format(
            clientId="portap",
        ),
        None,
        "iam-service-accounts:write",
        id="disable_registered_client",
    ),
]
ENDPOINT = ("method", "path", "body", "permission")


@pytest.fixture
def as_tenant(as_tenant: TenantHeaders) -> TenantHeaders:
    """Here a tenant user's token is only theirs: never sent as a platform operator's."""
    return functools.partial(as_tenant, plain=True)


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
    ENDPOINT, [e for e in ENDPOINTS if "{tenantId}" in str(e.values[1])]
)
def test_a_path_naming_another_tenant_is_404(
    client: TestClient,
    as_tenant: TenantHeaders,
    method: str,
    path: str,
    body: Any,
    permission: str,
) -> None:
    response = client.request(
        method,
        path.replace("{tenantId}", "tenant-b"),
        json=body,
        headers=as_tenant("tenant-a"),
    )
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM_TYPE


@pytest.mark.parametrize(
    ENDPOINT, [e for e in ENDPOINTS if "{tenantId}" in str(e.values[1])]
)
def test_a_platform_operator_needs_the_permission_too(
    client: TestClient,
    as_platform: Callable[[list[str]], dict[str, str]],
    method: str,
    path: str,
    body: Any,
    permission: str,
) -> None:
    others = [p for p in PERMISSIONS if p != permission]
    response = client.request(
        method,
        path.replace("{tenantId}", "tenant-b"),
        json=body,
        headers=as_platform(others),
    )
    assert response.status_code == 403


@pytest.mark.parametrize(
    ENDPOINT,
    [
        e
        for e in ENDPOINTS
        if e.id
        in [
            "directory_create_tenant",
            "list_every_tenant",
            "tokens_rotate",
            "change_status_tenant",
        ]
    ],
)
def test_a_tenant_s_token_is_refused_where_only_platform_operators_call(
    client: TestClient,
    as_tenant: TenantHeaders,
    method: str,
    path: str,
    body: Any,
    permission: str,
) -> None:
    """A tenant's administrator may grant their roles any permission: these endpoints
    let only a platform operator's token through, even in the caller's own tenant."""
    response = client.request(
        method,
        path.replace("{tenantId}", "tenant-a"),
        json=body,
        headers=as_tenant("tenant-a"),
    )
    assert response.status_code == 403
    assert response.json()["detail"] == "platform operators only"


def test_a_platform_operator_reads_every_tenant_s_record_at_list_every_tenant(
    client: TestClient, as_platform: Callable[[list[str]], dict[str, str]]
) -> None:
    """No tenant's record is made here (the service's own code makes them): the list is
    read across the tenants, empty, with the permission only."""
    response = client.get("/api/v1/tenants", headers=as_platform(["iam-tenants:read"]))
    assert response.status_code == 200, response.text
    assert response.json() == []
    others = [p for p in PERMISSIONS if p != "iam-tenants:read"]
    assert client.get("/api/v1/tenants", headers=as_platform(others)).status_code == 403


def test_a_tenant_header_does_not_choose_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = client.post(
        "/api/v1/tenants/{tenantId}/roles",
        json={
            "name": "editor",
            "permissions": ["user-profile:read"],
            "description": "description",
        },
        headers={**as_tenant("tenant-a"), "X-Tenant-Id": "tenant-b"},
    )
    assert created.status_code == 201
    path = "/api/v1/tenants/{{tenantId}}/roles/{roleId}".format(
        roleId=created.json()["roleId"]
    )
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_a_platform_operator_acts_in_the_tenant_the_path_names(
    client: TestClient,
    as_tenant: TenantHeaders,
    as_platform: Callable[[list[str]], dict[str, str]],
) -> None:
    created = client.post(
        "/api/v1/tenants/tenant-a/roles",
        json={
            "name": "editor",
            "permissions": ["user-profile:read"],
            "description": "description",
        },
        headers=as_platform(PERMISSIONS),
    )
    assert created.status_code == 201, created.text
    path = "/api/v1/tenants/{{tenantId}}/roles/{roleId}".format(
        roleId=created.json()["roleId"]
    )
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404
    assert (
        client.get(
            path.replace("{tenantId}", "tenant-b"), headers=as_platform(PERMISSIONS)
        ).status_code
        == 404
    )


def test_health_metrics_and_docs_are_public(client: TestClient) -> None:
    for path in (
        "/actuator/health",
        "/api/v1/iams/health",
        "/metrics",
        "/openapi.json",
    ):
        assert client.get(path, headers={"Authorization": ""}).status_code == 200, path
