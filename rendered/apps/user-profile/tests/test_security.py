# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Bearer tokens guard every endpoint: 401 without a valid one, 403 without the
permission, and the tenant comes from the token only. Health, metrics and docs are public."""

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

TenantHeaders = Callable[..., dict[str, str]]
PROBLEM_TYPE = "application/problem+json"


def test_create_sample_user_profile_without_a_token_is_401(client: TestClient) -> None:
    response = client.request(
        "POST",
        "/api/v1/user-profiles",
        json={"name": "sample", "email": "email@example.org"},
        headers={"Authorization": ""},
    )
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_create_sample_user_profile_with_a_bad_token_is_401(client: TestClient) -> None:
    response = client.request(
        "POST",
        "/api/v1/user-profiles",
        json={"name": "sample", "email": "email@example.org"},
        headers={"Authorization": "Bearer not-a-jwt"},
    )
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith(
        'Bearer error="invalid_token"'
    )


def test_create_sample_user_profile_without_user_profile_write_is_403(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    others = [
        p
        for p in ["user-profile:read", "user-profile:write"]
        if p != "user-profile:write"
    ]
    response = client.request(
        "POST",
        "/api/v1/user-profiles",
        json={"name": "sample", "email": "email@example.org"},
        headers=as_tenant("tenant-a", others),
    )
    assert response.status_code == 403
    body: dict[str, Any] = response.json()
    assert "user-profile:write" in body["detail"]


def test_list_sample_user_profile_without_a_token_is_401(client: TestClient) -> None:
    response = client.request(
        "GET", "/api/v1/user-profiles", json=None, headers={"Authorization": ""}
    )
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_list_sample_user_profile_with_a_bad_token_is_401(client: TestClient) -> None:
    response = client.request(
        "GET",
        "/api/v1/user-profiles",
        json=None,
        headers={"Authorization": "Bearer not-a-jwt"},
    )
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith(
        'Bearer error="invalid_token"'
    )


def test_list_sample_user_profile_without_user_profile_read_is_403(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    others = [
        p
        for p in ["user-profile:read", "user-profile:write"]
        if p != "user-profile:read"
    ]
    response = client.request(
        "GET",
        "/api/v1/user-profiles",
        json=None,
        headers=as_tenant("tenant-a", others),
    )
    assert response.status_code == 403
    body: dict[str, Any] = response.json()
    assert "user-profile:read" in body["detail"]


def test_get_sample_user_profile_without_a_token_is_401(client: TestClient) -> None:
    response = client.request(
        "GET",
        "/api/v1/user-profiles/00000000-0000-0000-0000-000000000000",
        json=None,
        headers={"Authorization": ""},
    )
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_get_sample_user_profile_with_a_bad_token_is_401(client: TestClient) -> None:
    response = client.request(
        "GET",
        "/api/v1/user-profiles/00000000-0000-0000-0000-000000000000",
        json=None,
        headers={"Authorization": "Bearer not-a-jwt"},
    )
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith(
        'Bearer error="invalid_token"'
    )


def test_get_sample_user_profile_without_user_profile_read_is_403(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    others = [
        p
        for p in ["user-profile:read", "user-profile:write"]
        if p != "user-profile:read"
    ]
    response = client.request(
        "GET",
        "/api/v1/user-profiles/00000000-0000-0000-0000-000000000000",
        json=None,
        headers=as_tenant("tenant-a", others),
    )
    assert response.status_code == 403
    body: dict[str, Any] = response.json()
    assert "user-profile:read" in body["detail"]


def test_update_profile_sample_user_profile_without_a_token_is_401(
    client: TestClient,
) -> None:
    response = client.request(
        "PUT",
        "/api/v1/user-profiles/00000000-0000-0000-0000-000000000000",
        json={"name": "sample", "email": "email@example.org"},
        headers={"Authorization": ""},
    )
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_update_profile_sample_user_profile_with_a_bad_token_is_401(
    client: TestClient,
) -> None:
    response = client.request(
        "PUT",
        "/api/v1/user-profiles/00000000-0000-0000-0000-000000000000",
        json={"name": "sample", "email": "email@example.org"},
        headers={"Authorization": "Bearer not-a-jwt"},
    )
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith(
        'Bearer error="invalid_token"'
    )


def test_update_profile_sample_user_profile_without_user_profile_write_is_403(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    others = [
        p
        for p in ["user-profile:read", "user-profile:write"]
        if p != "user-profile:write"
    ]
    response = client.request(
        "PUT",
        "/api/v1/user-profiles/00000000-0000-0000-0000-000000000000",
        json={"name": "sample", "email": "email@example.org"},
        headers=as_tenant("tenant-a", others),
    )
    assert response.status_code == 403
    body: dict[str, Any] = response.json()
    assert "user-profile:write" in body["detail"]


def test_a_tenant_header_does_not_choose_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = client.post(
        "/api/v1/user-profiles",
        json={"name": "sample", "email": "email@example.org"},
        headers={**as_tenant("tenant-a"), "X-Tenant-Id": "tenant-b"},
    )
    assert created.status_code == 201
    path = "/api/v1/user-profiles/{id}".format(id=created.json()["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_health_metrics_and_docs_are_public(client: TestClient) -> None:
    for path in (
        "/actuator/health",
        "/api/v1/user-profiles/health",
        "/metrics",
        "/openapi.json",
    ):
        assert client.get(path, headers={"Authorization": ""}).status_code == 200, path
