# Generated from spec iam by `generate`; edits are merged on re-render.

"""The HTTP API: every endpoint of the spec, with its rules, guards, versions, idempotency
keys, pages and filters; health, metrics and OpenAPI."""

import uuid
from collections.abc import Callable
from typing import Any

from eaf.web.testing import (
    PROBLEM_TYPE,
    UNKNOWN_ID,
    errors_of,
    eventually,
    next_of,
    sent,
)
from fastapi.testclient import TestClient
from httpx2 import Response

TenantHeaders = Callable[..., dict[str, str]]
Headers = dict[str, str] | None


def create_role_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of POST /api/v1/tenants/{tenantId}/roles (the aggregates it references made)."""
    return {
        "name": next_of(
            "Role.name",
            [
                "editor",
                "edito0",
                "edito1",
                "edito2",
                "edito3",
                "edito4",
                "edito5",
                "edito6",
                "edito7",
                "edito8",
                "edito9",
                "editoa",
            ],
        ),
        "permissions": ["user-profile:read"],
        "description": "description",
    }


def change_role_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of PATCH /api/v1/tenants/{tenantId}/roles/{roleId} (the aggregates it references made)."""
    return {
        "permissions": ["user-profile:read"],
        "description": "description",
    }


def change_role_2_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of PUT /api/v1/tenants/{tenantId}/roles/{roleId} (the aggregates it references made)."""
    return {
        "permissions": ["user-profile:read"],
        "description": "description",
    }


def role_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body that makes a role."""
    return create_role_body(client, headers)


def create_role(
    client: TestClient, headers: Headers = None, **overrides: Any
) -> dict[str, Any]:
    """A new role, made through POST /api/v1/tenants/{tenantId}/roles."""
    response = client.post(
        "/api/v1/tenants/{tenantId}/roles",
        json={**role_body(client, headers), **overrides},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


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


def call_change_role(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PATCH /api/v1/tenants/{tenantId}/roles/{roleId} with the examples' body."""
    return client.request(
        "PATCH",
        f"/api/v1/tenants/{{tenantId}}/roles/{id}",
        json={**change_role_body(client, headers), **(changes or {})},
        headers=headers,
    )


def call_change_role_2(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PUT /api/v1/tenants/{tenantId}/roles/{roleId} with the examples' body."""
    return client.request(
        "PUT",
        f"/api/v1/tenants/{{tenantId}}/roles/{id}",
        json={**change_role_2_body(client, headers), **(changes or {})},
        headers=headers,
    )


def call_change_secret_service_account(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """POST /api/v1/tenants/{tenantId}/service-accounts/{serviceAccountId}/secret with the examples' body."""
    return client.request(
        "POST",
        f"/api/v1/tenants/{{tenantId}}/service-accounts/{id}/secret",
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


def test_get_role_returns_the_stored_role(client: TestClient) -> None:
    created = create_role(client)
    response = client.get(
        "/api/v1/tenants/{{tenantId}}/roles/{roleId}".format(roleId=created["roleId"])
    )
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/tenants/{{tenantId}}/roles/{roleId}".format(roleId=created["roleId"]),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_get_role_is_scoped_to_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = create_role(client, as_tenant("tenant-a"))
    path = "/api/v1/tenants/{{tenantId}}/roles/{roleId}".format(
        roleId=created["roleId"]
    )
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_get_role_answers_404_with_a_problem(client: TestClient) -> None:
    response = client.get(f"/api/v1/tenants/{{tenantId}}/roles/{UNKNOWN_ID}")
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["detail"] == "Role not found"


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


def test_list_roles_lists_the_tenant_s_role_rows(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    mine = as_tenant("tenant-a")
    created = [create_role(client, mine) for _ in range(2)]
    create_role(client, as_tenant("tenant-b"))

    def listed() -> list[dict[str, Any]]:
        body: Any = client.get("/api/v1/tenants/{tenantId}/roles", headers=mine).json()
        return list(body["items"] if isinstance(body, dict) else body)

    rows = eventually(listed, lambda rows: len(rows) >= 2)
    assert sorted(row["roleId"] for row in rows) == sorted(
        row["roleId"] for row in created
    )
    # without ?sort=, in the spec's order: by name
    ordered = [row["name"] for row in rows if row["name"] is not None]
    assert ordered == sorted(ordered)


def test_create_role_answers_201_with_the_stored_role(client: TestClient) -> None:
    body = create_role_body(client)
    response = client.post("/api/v1/tenants/{tenantId}/roles", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    for field, value in body.items():
        assert sent(created[field], value) == value, field
    assert created["createdAt"] == created["updatedAt"]
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Location"].endswith(created["roleId"])
    assert "/default" in response.headers["Location"]


def test_create_role_names_every_missing_field(client: TestClient) -> None:
    errors = errors_of(client.post("/api/v1/tenants/{tenantId}/roles", json={}))
    assert {error["field"] for error in errors} >= {
        "name",
        "permissions",
    }


def test_create_role_refuses_a_second_role_with_the_same_key(
    client: TestClient,
) -> None:
    first = create_role(client)
    body = {**role_body(client), "name": first["name"]}
    response = client.post("/api/v1/tenants/{tenantId}/roles", json=body)
    assert response.status_code == 409, response.text
    assert response.json()["type"].endswith(":duplicate")
    assert [error["field"] for error in response.json()["errors"]] == ["name"]


def test_create_role_with_an_idempotency_key_makes_one_role(client: TestClient) -> None:
    body = role_body(client)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    path = "/api/v1/tenants/{tenantId}/roles"
    first = client.post(path, json=body, headers=key)
    again = client.post(path, json=body, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    changed = {**body, "name": "edito0"}
    other = client.post(path, json=changed, headers=key)
    assert other.status_code == 422, other.text
    assert other.json()["title"] == "Idempotency-Key reused"


def test_change_role_changes_the_stored_role(client: TestClient) -> None:
    created = create_role(client)
    response = call_change_role(client, created["roleId"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_change_role_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_role(client)
    body = change_role_body(client)
    path = "/api/v1/tenants/{{tenantId}}/roles/{roleId}".format(
        roleId=created["roleId"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PATCH", path, json=body, headers=key)
    again = client.request("PATCH", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_change_role_keeps_what_the_patch_leaves_out(client: TestClient) -> None:
    created = create_role(client)
    before = client.get(
        "/api/v1/tenants/{{tenantId}}/roles/{roleId}".format(roleId=created["roleId"])
    ).json()
    inputs: dict[str, Any] = {}
    response = client.patch(
        "/api/v1/tenants/{{tenantId}}/roles/{roleId}".format(
            roleId=created["roleId"],
        ),
        json=inputs,
    )
    assert response.status_code == 200, response.text
    after = client.get(
        "/api/v1/tenants/{{tenantId}}/roles/{roleId}".format(roleId=created["roleId"])
    ).json()
    assert after["permissions"] == before["permissions"]
    assert after["description"] == before["description"]
    # an empty patch changes nothing: no event, the same version
    assert int(response.headers["ETag"].strip('"')) == 1
    assert after["updatedAt"] == before["updatedAt"]


def test_change_role_refuses_null_for_permissions(client: TestClient) -> None:
    created = create_role(client)
    errors = errors_of(
        call_change_role(client, created["roleId"], changes={"permissions": None})
    )
    assert "permissions" in {error["field"] for error in errors}


def test_change_role_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_role(client)
    stale = {"If-Match": '"5"'}
    response = call_change_role(client, created["roleId"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_change_role_of_a_missing_role_is_404(client: TestClient) -> None:
    response = call_change_role(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Role not found"


def test_change_role_2_changes_the_stored_role(client: TestClient) -> None:
    created = create_role(client)
    response = call_change_role_2(client, created["roleId"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_change_role_2_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_role(client)
    body = change_role_2_body(client)
    path = "/api/v1/tenants/{{tenantId}}/roles/{roleId}".format(
        roleId=created["roleId"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PUT", path, json=body, headers=key)
    again = client.request("PUT", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_change_role_2_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_role(client)
    stale = {"If-Match": '"5"'}
    response = call_change_role_2(client, created["roleId"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_change_role_2_of_a_missing_role_is_404(client: TestClient) -> None:
    response = call_change_role_2(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Role not found"


def test_list_service_accounts_answers_a_list(client: TestClient) -> None:
    response = client.get("/api/v1/tenants/{tenantId}/service-accounts")
    assert response.status_code == 200, response.text


def test_change_secret_service_account_of_a_missing_service_account_is_404(
    client: TestClient,
) -> None:
    response = call_change_secret_service_account(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Service account not found"


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
    assert "post" in paths["/api/v1/tenants/{tenantId}/roles"]
    assert "patch" in paths["/api/v1/tenants/{tenantId}/roles/{roleId}"]
    assert "put" in paths["/api/v1/tenants/{tenantId}/roles/{roleId}"]
    assert "get" in paths["/api/v1/tenants/{tenantId}/service-accounts"]
    assert (
        "post"
        in paths[
            "/api/v1/tenants/{tenantId}/service-accounts/{serviceAccountId}/secret"
        ]
    )
    assert (
        "delete"
        in paths["/api/v1/tenants/{tenantId}/service-accounts/{serviceAccountId}"]
    )
