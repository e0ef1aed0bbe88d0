# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The HTTP API: every endpoint of the spec, with its rules, guards, versions, idempotency
keys, pages and filters; health, metrics and OpenAPI."""

import uuid
from collections.abc import Callable
from typing import Any

from eaf.web.testing import PROBLEM_TYPE, UNKNOWN_ID, asker, errors_of, eventually, sent
from fastapi.testclient import TestClient
from httpx2 import Response

TenantHeaders = Callable[..., dict[str, str]]
Headers = dict[str, str] | None


def create_sample_user_profile_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body of POST /api/v1/user-profiles (the aggregates it references made)."""
    return {
        "name": "name",
        "email": "email@x",
    }


def update_profile_sample_user_profile_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body of PUT /api/v1/user-profiles/{id} (the aggregates it references made)."""
    return {
        "name": "name",
        "email": "email@x",
    }


def remove_sample_user_profile_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body of DELETE /api/v1/user-profiles/{id} (the aggregates it references made)."""
    return {}


def sample_user_profile_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body that makes a sample user profile."""
    return create_sample_user_profile_body(client, headers)


def create_sample_user_profile(
    client: TestClient, headers: Headers = None, **overrides: Any
) -> dict[str, Any]:
    """A new sample user profile, made through POST /api/v1/user-profiles."""
    headers = asker(headers)
    response = client.post(
        "/api/v1/user-profiles",
        json={**sample_user_profile_body(client, headers), **overrides},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def call_update_profile_sample_user_profile(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PUT /api/v1/user-profiles/{id} with the examples' body."""
    return client.request(
        "PUT",
        f"/api/v1/user-profiles/{id}",
        json={
            **update_profile_sample_user_profile_body(client, headers),
            **(changes or {}),
        },
        headers=headers,
    )


def call_remove_sample_user_profile(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """DELETE /api/v1/user-profiles/{id} with the examples' body."""
    return client.request(
        "DELETE",
        f"/api/v1/user-profiles/{id}",
        headers=headers,
    )


def test_create_sample_user_profile_answers_201_with_the_stored_sample_user_profile(
    client: TestClient,
) -> None:
    body = create_sample_user_profile_body(client)
    response = client.post("/api/v1/user-profiles", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    for field, value in body.items():
        assert sent(created[field], value) == value, field
    assert created["createdAt"] == created["updatedAt"]
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Location"].endswith(created["id"])


def test_create_sample_user_profile_rejects_name_breaking_not_blank(
    client: TestClient,
) -> None:
    body = {**sample_user_profile_body(client), "name": "   "}
    errors = errors_of(client.post("/api/v1/user-profiles", json=body))
    assert {"field": "name", "message": "Name cannot be blank"} in errors


def test_create_sample_user_profile_rejects_email_breaking_contains(
    client: TestClient,
) -> None:
    body = {**sample_user_profile_body(client), "email": "xxxxxxx"}
    errors = errors_of(client.post("/api/v1/user-profiles", json=body))
    assert {"field": "email", "message": "Email must be valid"} in errors


def test_create_sample_user_profile_names_every_missing_field(
    client: TestClient,
) -> None:
    errors = errors_of(client.post("/api/v1/user-profiles", json={}))
    assert {error["field"] for error in errors} >= {
        "name",
        "email",
    }


def test_create_sample_user_profile_with_an_idempotency_key_makes_one_sample_user_profile(
    client: TestClient,
) -> None:
    body = sample_user_profile_body(client)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    path = "/api/v1/user-profiles"
    first = client.post(path, json=body, headers=key)
    again = client.post(path, json=body, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    changed = {**body, "name": "nam0"}
    other = client.post(path, json=changed, headers=key)
    assert other.status_code == 422, other.text
    assert other.json()["title"] == "Idempotency-Key reused"


def test_list_sample_user_profile_list_answers_a_list(client: TestClient) -> None:
    response = client.get("/api/v1/user-profiles")
    assert response.status_code == 200, response.text


def test_list_sample_user_profile_list_lists_the_tenant_s_sample_user_profile_rows(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    mine = as_tenant("tenant-a")
    created = [create_sample_user_profile(client, mine) for _ in range(2)]
    create_sample_user_profile(client, as_tenant("tenant-b"))

    def listed() -> list[dict[str, Any]]:
        body: Any = client.get("/api/v1/user-profiles", headers=mine).json()
        return list(body["items"] if isinstance(body, dict) else body)

    rows = eventually(listed, lambda rows: len(rows) >= 2)
    assert sorted(row["id"] for row in rows) == sorted(row["id"] for row in created)


def test_get_sample_user_profile_returns_the_stored_sample_user_profile(
    client: TestClient,
) -> None:
    created = create_sample_user_profile(client)
    response = client.get("/api/v1/user-profiles/{id}".format(id=created["id"]))
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/user-profiles/{id}".format(id=created["id"]),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_get_sample_user_profile_is_scoped_to_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = create_sample_user_profile(client, as_tenant("tenant-a"))
    path = "/api/v1/user-profiles/{id}".format(id=created["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_get_sample_user_profile_answers_404_with_a_problem(client: TestClient) -> None:
    response = client.get(f"/api/v1/user-profiles/{UNKNOWN_ID}")
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["detail"] == "Profile not found"


def test_update_profile_sample_user_profile_changes_the_stored_sample_user_profile(
    client: TestClient,
) -> None:
    created = create_sample_user_profile(client)
    response = call_update_profile_sample_user_profile(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_update_profile_sample_user_profile_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_sample_user_profile(client)
    body = update_profile_sample_user_profile_body(client)
    path = "/api/v1/user-profiles/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PUT", path, json=body, headers=key)
    again = client.request("PUT", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_update_profile_sample_user_profile_of_a_version_not_read_is_412(
    client: TestClient,
) -> None:
    created = create_sample_user_profile(client)
    stale = {"If-Match": '"5"'}
    response = call_update_profile_sample_user_profile(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_update_profile_sample_user_profile_of_a_missing_sample_user_profile_is_404(
    client: TestClient,
) -> None:
    response = call_update_profile_sample_user_profile(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Profile not found"


def test_update_profile_sample_user_profile_rejects_name_breaking_not_blank(
    client: TestClient,
) -> None:
    created = create_sample_user_profile(client)
    errors = errors_of(
        call_update_profile_sample_user_profile(
            client, created["id"], changes={"name": "   "}
        )
    )
    assert {"field": "name", "message": "Name cannot be blank"} in errors


def test_update_profile_sample_user_profile_rejects_email_breaking_contains(
    client: TestClient,
) -> None:
    created = create_sample_user_profile(client)
    errors = errors_of(
        call_update_profile_sample_user_profile(
            client, created["id"], changes={"email": "xxxxxxx"}
        )
    )
    assert {"field": "email", "message": "Email must be valid"} in errors


def test_remove_sample_user_profile_changes_the_stored_sample_user_profile(
    client: TestClient,
) -> None:
    created = create_sample_user_profile(client)
    response = call_remove_sample_user_profile(client, created["id"])
    assert response.status_code == 204, response.text
    assert int(response.headers["ETag"].strip('"')) == 2
    assert (
        client.get("/api/v1/user-profiles/{id}".format(id=created["id"])).status_code
        == 404
    )
    assert call_remove_sample_user_profile(client, created["id"]).status_code == 404


def test_remove_sample_user_profile_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_sample_user_profile(client)
    path = "/api/v1/user-profiles/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("DELETE", path, headers=key)
    again = client.request("DELETE", path, headers=key)
    assert first.status_code == again.status_code == 204, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_remove_sample_user_profile_of_a_version_not_read_is_412(
    client: TestClient,
) -> None:
    created = create_sample_user_profile(client)
    stale = {"If-Match": '"5"'}
    response = call_remove_sample_user_profile(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_remove_sample_user_profile_of_a_missing_sample_user_profile_is_404(
    client: TestClient,
) -> None:
    response = call_remove_sample_user_profile(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Profile not found"


def test_service_health(client: TestClient) -> None:
    response = client.get("/api/v1/user-profiles/health")
    assert response.json() == {"status": "UP", "service": "user-profile"}


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
    assert "post" in paths["/api/v1/user-profiles"]
    assert "get" in paths["/api/v1/user-profiles"]
    assert "get" in paths["/api/v1/user-profiles/{id}"]
    assert "put" in paths["/api/v1/user-profiles/{id}"]
    assert "delete" in paths["/api/v1/user-profiles/{id}"]


def test_remove_sample_user_profile_4_is_not_found_while_its_flag_is_off(
    flags_off: TestClient,
) -> None:
    """The endpoint is gated by the flag profile-deletion."""
    path = "/api/v1/user-profiles/{id}".replace("{id}", UNKNOWN_ID)
    response = flags_off.request("DELETE", path, json={})
    assert response.status_code == 404, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert "profile-deletion" in response.json()["detail"]
