# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The HTTP API: every endpoint of the spec, its errors, health, metrics and OpenAPI."""

import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

TenantHeaders = Callable[..., dict[str, str]]

PROBLEM_TYPE = "application/problem+json"

CREATE_SAMPLE_USER_PROFILE_PATH = "/api/v1/user-profiles"
VALID_SAMPLE_USER_PROFILE: dict[str, Any] = {
    "name": "sample",
    "email": "email@example.org",
}


def create_sample_user_profile(client: TestClient) -> dict[str, Any]:
    response = client.post(
        CREATE_SAMPLE_USER_PROFILE_PATH, json=VALID_SAMPLE_USER_PROFILE
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_create_sample_user_profile_answers_201_with_the_stored_sample_user_profile(
    client: TestClient,
) -> None:
    body = create_sample_user_profile(client)
    for field, value in VALID_SAMPLE_USER_PROFILE.items():
        assert body[field] == value
    assert body["createdAt"] == body["updatedAt"]
    assert body["createdAt"].endswith("Z")


def test_create_sample_user_profile_rejects_name_breaking_not_blank(
    client: TestClient,
) -> None:
    body = {**VALID_SAMPLE_USER_PROFILE, "name": "   "}
    response = client.post(CREATE_SAMPLE_USER_PROFILE_PATH, json=body)
    assert response.status_code == 422
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["detail"] == "Name cannot be blank"
    assert response.json()["field"] == "name"


def test_create_sample_user_profile_rejects_email_breaking_contains(
    client: TestClient,
) -> None:
    body = {**VALID_SAMPLE_USER_PROFILE, "email": "x"}
    response = client.post(CREATE_SAMPLE_USER_PROFILE_PATH, json=body)
    assert response.status_code == 422
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["detail"] == "Email must be valid"
    assert response.json()["field"] == "email"


def test_create_sample_user_profile_names_a_missing_field(client: TestClient) -> None:
    response = client.post(CREATE_SAMPLE_USER_PROFILE_PATH, json={})
    assert response.status_code == 422
    assert response.headers["content-type"] == PROBLEM_TYPE
    fields = {error["field"] for error in response.json()["errors"]}
    assert fields == set(VALID_SAMPLE_USER_PROFILE)


def test_list_sample_user_profile_lists_the_tenant_s_sample_user_profile_from_the_read_model(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    mine = as_tenant("tenant-a")
    created = [
        client.post(
            CREATE_SAMPLE_USER_PROFILE_PATH,
            json=VALID_SAMPLE_USER_PROFILE,
            headers=mine,
        ).json()
        for _ in range(2)
    ]
    client.post(
        CREATE_SAMPLE_USER_PROFILE_PATH,
        json=VALID_SAMPLE_USER_PROFILE,
        headers=as_tenant("tenant-b"),
    )
    listed: list[dict[str, Any]] = []
    deadline = time.monotonic() + 10
    while len(listed) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
        listed = client.get("/api/v1/user-profiles", headers=mine).json()
    assert sorted(listed, key=lambda p: p["id"]) == sorted(
        created, key=lambda p: p["id"]
    )


def test_get_sample_user_profile_returns_the_stored_sample_user_profile(
    client: TestClient,
) -> None:
    created = create_sample_user_profile(client)
    response = client.get("/api/v1/user-profiles/{id}".format(id=created["id"]))
    assert response.status_code == 200
    assert response.json() == created


def test_get_sample_user_profile_is_scoped_to_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = client.post(
        CREATE_SAMPLE_USER_PROFILE_PATH,
        json=VALID_SAMPLE_USER_PROFILE,
        headers=as_tenant("tenant-a"),
    ).json()
    path = "/api/v1/user-profiles/{id}".format(id=created["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404
    assert client.get(path).status_code == 404


def test_get_sample_user_profile_answers_404_with_an_empty_body(
    client: TestClient,
) -> None:
    response = client.get(
        "/api/v1/user-profiles/{id}".format(id="00000000-0000-0000-0000-000000000000")
    )
    assert response.status_code == 404
    assert response.content == b""


def test_update_profile_sample_user_profile_changes_the_stored_sample_user_profile(
    client: TestClient,
) -> None:
    created = create_sample_user_profile(client)
    path = "/api/v1/user-profiles/{id}".format(id=created["id"])
    response = client.put(path, json=VALID_SAMPLE_USER_PROFILE)
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] > created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]


def test_update_profile_sample_user_profile_of_a_missing_sample_user_profile_is_404(
    client: TestClient,
) -> None:
    path = "/api/v1/user-profiles/{id}".format(
        id="00000000-0000-0000-0000-000000000000"
    )
    response = client.put(path, json=VALID_SAMPLE_USER_PROFILE)
    assert response.status_code == 404
    assert response.json()["detail"] == "Profile not found"


def test_update_profile_sample_user_profile_rejects_name_breaking_not_blank(
    client: TestClient,
) -> None:
    created = create_sample_user_profile(client)
    path = "/api/v1/user-profiles/{id}".format(id=created["id"])
    body = {**VALID_SAMPLE_USER_PROFILE, "name": "   "}
    response = client.put(path, json=body)
    assert response.status_code == 422
    assert response.json()["detail"] == "Name cannot be blank"
    assert response.json()["field"] == "name"


def test_update_profile_sample_user_profile_rejects_email_breaking_contains(
    client: TestClient,
) -> None:
    created = create_sample_user_profile(client)
    path = "/api/v1/user-profiles/{id}".format(id=created["id"])
    body = {**VALID_SAMPLE_USER_PROFILE, "email": "x"}
    response = client.put(path, json=body)
    assert response.status_code == 422
    assert response.json()["detail"] == "Email must be valid"
    assert response.json()["field"] == "email"


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
