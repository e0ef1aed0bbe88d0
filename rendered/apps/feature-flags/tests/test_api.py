# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""The HTTP API: every endpoint of the spec, with its rules, guards, versions, idempotency
keys, pages and filters; health, metrics and OpenAPI."""

import uuid
from collections.abc import Callable
from typing import Any

from eaf.web.testing import (
    PROBLEM_TYPE,
    UNKNOWN_ID,
    asker,
    errors_of,
    eventually,
    next_of,
    sent,
)
from fastapi.testclient import TestClient
from httpx2 import Response

TenantHeaders = Callable[..., dict[str, str]]
Headers = dict[str, str] | None


def create_project_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of POST /api/v1/projects (the aggregates it references made)."""
    return {
        "key": next_of(
            "Project.key",
            [
                "web-shop",
                "web-sho0",
                "web-sho1",
                "web-sho2",
                "web-sho3",
                "web-sho4",
                "web-sho5",
                "web-sho6",
                "web-sho7",
                "web-sho8",
                "web-sho9",
                "web-shoa",
            ],
        ),
        "name": "name",
        "description": "description",
        "environments": ["value"],
    }


def update_project_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of PUT /api/v1/projects/{id} (the aggregates it references made)."""
    return {
        "name": "name",
        "description": "description",
        "environments": ["value"],
    }


def remove_project_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of DELETE /api/v1/projects/{id} (the aggregates it references made)."""
    return {}


def create_segment_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of POST /api/v1/segments (the aggregates it references made)."""
    return {
        "name": next_of(
            "Segment.name",
            [
                "name",
                "nam0",
                "nam1",
                "nam2",
                "nam3",
                "nam4",
                "nam5",
                "nam6",
                "nam7",
                "nam8",
                "nam9",
                "nama",
            ],
        ),
        "description": "description",
        "constraints": [],
    }


def update_segment_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of PUT /api/v1/segments/{id} (the aggregates it references made)."""
    return {
        "name": next_of(
            "Segment.name",
            [
                "name",
                "nam0",
                "nam1",
                "nam2",
                "nam3",
                "nam4",
                "nam5",
                "nam6",
                "nam7",
                "nam8",
                "nam9",
                "nama",
            ],
        ),
        "description": "description",
        "constraints": [],
    }


def remove_segment_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of DELETE /api/v1/segments/{id} (the aggregates it references made)."""
    return {}


def create_flag_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of POST /api/v1/flags (the aggregates it references made)."""
    return {
        "key": next_of(
            "Flag.key",
            [
                "new-checkout",
                "new-checkou0",
                "new-checkou1",
                "new-checkou2",
                "new-checkou3",
                "new-checkou4",
                "new-checkou5",
                "new-checkou6",
                "new-checkou7",
                "new-checkou8",
                "new-checkou9",
                "new-checkoua",
            ],
        ),
        "projectId": create_project(client, headers)["id"],
        "description": "description",
        "type": "release",
        "impressionData": True,
        "environments": {},
        "variants": [],
        "dependencies": [],
    }


def describe_flag_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of PATCH /api/v1/flags/{id} (the aggregates it references made)."""
    return {
        "description": "description",
        "type": "release",
        "impressionData": True,
    }


def configure_flag_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of PUT /api/v1/flags/{id}/environments (the aggregates it references made)."""
    return {
        "environments": {},
    }


def set_variants_flag_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body of PUT /api/v1/flags/{id}/variants (the aggregates it references made)."""
    return {
        "variants": [],
    }


def set_dependencies_flag_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body of PUT /api/v1/flags/{id}/dependencies (the aggregates it references made)."""
    return {
        "dependencies": [],
    }


def mark_stale_flag_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of PUT /api/v1/flags/{id}/stale (the aggregates it references made)."""
    return {
        "stale": True,
    }


def archive_flag_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of POST /api/v1/flags/{id}/archive (the aggregates it references made)."""
    return {}


def revive_flag_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of POST /api/v1/flags/{id}/revive (the aggregates it references made)."""
    return {}


def remove_flag_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of DELETE /api/v1/flags/{id} (the aggregates it references made)."""
    return {}


def submit_usage_report_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body of POST /api/v1/usage-reports (the aggregates it references made)."""
    return {
        "appName": "web-shop",
        "instanceId": "instanceId",
        "environment": "production",
        "start": "2030-01-02T03:04:05Z",
        "stop": "2030-01-02T03:04:05Z",
        "toggles": {},
    }


def project_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body that makes a project."""
    return create_project_body(client, headers)


def create_project(
    client: TestClient, headers: Headers = None, **overrides: Any
) -> dict[str, Any]:
    """A new project, made through POST /api/v1/projects."""
    headers = asker(headers)
    response = client.post(
        "/api/v1/projects",
        json={**project_body(client, headers), **overrides},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def segment_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body that makes a segment."""
    return create_segment_body(client, headers)


def create_segment(
    client: TestClient, headers: Headers = None, **overrides: Any
) -> dict[str, Any]:
    """A new segment, made through POST /api/v1/segments."""
    headers = asker(headers)
    response = client.post(
        "/api/v1/segments",
        json={**segment_body(client, headers), **overrides},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def flag_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body that makes a flag."""
    return create_flag_body(client, headers)


def create_flag(
    client: TestClient, headers: Headers = None, **overrides: Any
) -> dict[str, Any]:
    """A new flag, made through POST /api/v1/flags."""
    headers = asker(headers)
    response = client.post(
        "/api/v1/flags",
        json={**flag_body(client, headers), **overrides},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def usage_report_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body that makes a usage report."""
    return submit_usage_report_body(client, headers)


def create_usage_report(
    client: TestClient, headers: Headers = None, **overrides: Any
) -> dict[str, Any]:
    """A new usage report, made through POST /api/v1/usage-reports."""
    headers = asker(headers)
    response = client.post(
        "/api/v1/usage-reports",
        json={**usage_report_body(client, headers), **overrides},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def call_update_project(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PUT /api/v1/projects/{id} with the examples' body."""
    return client.request(
        "PUT",
        f"/api/v1/projects/{id}",
        json={**update_project_body(client, headers), **(changes or {})},
        headers=headers,
    )


def call_remove_project(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """DELETE /api/v1/projects/{id} with the examples' body."""
    return client.request(
        "DELETE",
        f"/api/v1/projects/{id}",
        headers=headers,
    )


def call_update_segment(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PUT /api/v1/segments/{id} with the examples' body."""
    return client.request(
        "PUT",
        f"/api/v1/segments/{id}",
        json={**update_segment_body(client, headers), **(changes or {})},
        headers=headers,
    )


def call_remove_segment(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """DELETE /api/v1/segments/{id} with the examples' body."""
    return client.request(
        "DELETE",
        f"/api/v1/segments/{id}",
        headers=headers,
    )


def call_describe_flag(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PATCH /api/v1/flags/{id} with the examples' body."""
    return client.request(
        "PATCH",
        f"/api/v1/flags/{id}",
        json={**describe_flag_body(client, headers), **(changes or {})},
        headers=headers,
    )


def call_configure_flag(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PUT /api/v1/flags/{id}/environments with the examples' body."""
    return client.request(
        "PUT",
        f"/api/v1/flags/{id}/environments",
        json={**configure_flag_body(client, headers), **(changes or {})},
        headers=headers,
    )


def call_set_variants_flag(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PUT /api/v1/flags/{id}/variants with the examples' body."""
    return client.request(
        "PUT",
        f"/api/v1/flags/{id}/variants",
        json={**set_variants_flag_body(client, headers), **(changes or {})},
        headers=headers,
    )


def call_set_dependencies_flag(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PUT /api/v1/flags/{id}/dependencies with the examples' body."""
    return client.request(
        "PUT",
        f"/api/v1/flags/{id}/dependencies",
        json={**set_dependencies_flag_body(client, headers), **(changes or {})},
        headers=headers,
    )


def call_mark_stale_flag(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PUT /api/v1/flags/{id}/stale with the examples' body."""
    return client.request(
        "PUT",
        f"/api/v1/flags/{id}/stale",
        json={**mark_stale_flag_body(client, headers), **(changes or {})},
        headers=headers,
    )


def call_archive_flag(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """POST /api/v1/flags/{id}/archive with the examples' body."""
    return client.request(
        "POST",
        f"/api/v1/flags/{id}/archive",
        headers=headers,
    )


def call_revive_flag(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """POST /api/v1/flags/{id}/revive with the examples' body."""
    return client.request(
        "POST",
        f"/api/v1/flags/{id}/revive",
        headers=headers,
    )


def call_remove_flag(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """DELETE /api/v1/flags/{id} with the examples' body."""
    return client.request(
        "DELETE",
        f"/api/v1/flags/{id}",
        headers=headers,
    )


def test_create_project_answers_201_with_the_stored_project(client: TestClient) -> None:
    body = create_project_body(client)
    response = client.post("/api/v1/projects", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    for field, value in body.items():
        assert sent(created[field], value) == value, field
    assert created["createdAt"] == created["updatedAt"]
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Location"].endswith(created["id"])


def test_create_project_rejects_name_breaking_not_blank(client: TestClient) -> None:
    body = {**project_body(client), "name": "   "}
    errors = errors_of(client.post("/api/v1/projects", json=body))
    assert {"field": "name", "message": "Name must not be blank"} in errors


def test_create_project_rejects_name_breaking_max_length(client: TestClient) -> None:
    body = {**project_body(client), "name": "x" * 101}
    errors = errors_of(client.post("/api/v1/projects", json=body))
    assert "name" in {error["field"] for error in errors}


def test_create_project_rejects_description_breaking_max_length(
    client: TestClient,
) -> None:
    body = {**project_body(client), "description": "x" * 1001}
    errors = errors_of(client.post("/api/v1/projects", json=body))
    assert {
        "field": "description",
        "message": "Description allows at most 1000 characters",
    } in errors


def test_create_project_rejects_environments_breaking_min_length(
    client: TestClient,
) -> None:
    body = {**project_body(client), "environments": []}
    errors = errors_of(client.post("/api/v1/projects", json=body))
    assert {
        "field": "environments",
        "message": "Environments needs at least 1 item",
    } in errors


def test_create_project_names_every_missing_field(client: TestClient) -> None:
    errors = errors_of(client.post("/api/v1/projects", json={}))
    assert {error["field"] for error in errors} >= {
        "key",
        "name",
    }


def test_create_project_refuses_a_second_project_with_the_same_key_(
    client: TestClient,
) -> None:
    first = create_project(client)
    body = {**project_body(client), "key": first["key"]}
    response = client.post("/api/v1/projects", json=body)
    assert response.status_code == 409, response.text
    assert response.json()["type"].endswith(":duplicate")
    assert response.json()["field"] == "key"


def test_create_project_with_an_idempotency_key_makes_one_project(
    client: TestClient,
) -> None:
    body = project_body(client)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    path = "/api/v1/projects"
    first = client.post(path, json=body, headers=key)
    again = client.post(path, json=body, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    # another value than the body's (one of the values the examples vary)
    changed = {
        **body,
        "key": next(v for v in ["web-sho0", "web-shop"] if v != body["key"]),
    }
    other = client.post(path, json=changed, headers=key)
    assert other.status_code == 422, other.text
    assert other.json()["title"] == "Idempotency-Key reused"


def test_list_projects_answers_a_page(client: TestClient) -> None:
    response = client.get("/api/v1/projects")
    assert response.status_code == 200, response.text
    assert response.json()["total"] >= 0


def test_list_projects_lists_the_tenant_s_project_rows(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    mine = as_tenant("tenant-a")
    created = [create_project(client, mine) for _ in range(2)]
    create_project(client, as_tenant("tenant-b"))

    def listed() -> list[dict[str, Any]]:
        body: Any = client.get("/api/v1/projects", headers=mine).json()
        return list(body["items"] if isinstance(body, dict) else body)

    rows = eventually(listed, lambda rows: len(rows) >= 2)
    assert sorted(row["id"] for row in rows) == sorted(row["id"] for row in created)
    first = client.get("/api/v1/projects", params={"limit": 1}, headers=mine).json()
    assert first["total"] == 2
    assert len(first["items"]) == 1
    assert first["next"] is not None
    second = client.get(first["next"], headers=mine).json()
    assert second["next"] is None
    assert {first["items"][0]["id"], second["items"][0]["id"]} == {
        row["id"] for row in created
    }
    for order in ("key", "-key"):
        assert (
            client.get(
                "/api/v1/projects", params={"sort": order}, headers=mine
            ).status_code
            == 200
        )


def test_list_projects_refuses_a_bad_page(client: TestClient) -> None:
    response = client.get("/api/v1/projects", params={"limit": 0})
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "limit"


def test_get_project_returns_the_stored_project(client: TestClient) -> None:
    created = create_project(client)
    response = client.get("/api/v1/projects/{id}".format(id=created["id"]))
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/projects/{id}".format(id=created["id"]),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_get_project_is_scoped_to_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = create_project(client, as_tenant("tenant-a"))
    path = "/api/v1/projects/{id}".format(id=created["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_get_project_answers_404_with_a_problem(client: TestClient) -> None:
    response = client.get(f"/api/v1/projects/{UNKNOWN_ID}")
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["detail"] == "Project not found"


def test_update_project_changes_the_stored_project(client: TestClient) -> None:
    created = create_project(client)
    response = call_update_project(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_update_project_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_project(client)
    body = update_project_body(client)
    path = "/api/v1/projects/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PUT", path, json=body, headers=key)
    again = client.request("PUT", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_update_project_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_project(client)
    stale = {"If-Match": '"5"'}
    response = call_update_project(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_update_project_of_a_missing_project_is_404(client: TestClient) -> None:
    response = call_update_project(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Project not found"


def test_update_project_rejects_name_breaking_not_blank(client: TestClient) -> None:
    created = create_project(client)
    errors = errors_of(
        call_update_project(client, created["id"], changes={"name": "   "})
    )
    assert {"field": "name", "message": "Name must not be blank"} in errors


def test_update_project_rejects_name_breaking_max_length(client: TestClient) -> None:
    created = create_project(client)
    errors = errors_of(
        call_update_project(client, created["id"], changes={"name": "x" * 101})
    )
    assert "name" in {error["field"] for error in errors}


def test_update_project_rejects_description_breaking_max_length(
    client: TestClient,
) -> None:
    created = create_project(client)
    errors = errors_of(
        call_update_project(client, created["id"], changes={"description": "x" * 1001})
    )
    assert {
        "field": "description",
        "message": "Description allows at most 1000 characters",
    } in errors


def test_update_project_rejects_environments_breaking_min_length(
    client: TestClient,
) -> None:
    created = create_project(client)
    errors = errors_of(
        call_update_project(client, created["id"], changes={"environments": []})
    )
    assert {
        "field": "environments",
        "message": "Environments needs at least 1 item",
    } in errors


def test_remove_project_changes_the_stored_project(client: TestClient) -> None:
    created = create_project(client)
    response = call_remove_project(client, created["id"])
    assert response.status_code == 204, response.text
    assert int(response.headers["ETag"].strip('"')) == 2
    assert (
        client.get("/api/v1/projects/{id}".format(id=created["id"])).status_code == 404
    )
    assert call_remove_project(client, created["id"]).status_code == 404


def test_remove_project_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_project(client)
    path = "/api/v1/projects/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("DELETE", path, headers=key)
    again = client.request("DELETE", path, headers=key)
    assert first.status_code == again.status_code == 204, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_remove_project_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_project(client)
    stale = {"If-Match": '"5"'}
    response = call_remove_project(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_remove_project_of_a_missing_project_is_404(client: TestClient) -> None:
    response = call_remove_project(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Project not found"


def test_create_segment_answers_201_with_the_stored_segment(client: TestClient) -> None:
    body = create_segment_body(client)
    response = client.post("/api/v1/segments", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    for field, value in body.items():
        assert sent(created[field], value) == value, field
    assert created["createdAt"] == created["updatedAt"]
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Location"].endswith(created["id"])


def test_create_segment_rejects_name_breaking_not_blank(client: TestClient) -> None:
    body = {**segment_body(client), "name": "   "}
    errors = errors_of(client.post("/api/v1/segments", json=body))
    assert {"field": "name", "message": "Name must not be blank"} in errors


def test_create_segment_rejects_name_breaking_max_length(client: TestClient) -> None:
    body = {**segment_body(client), "name": "x" * 101}
    errors = errors_of(client.post("/api/v1/segments", json=body))
    assert "name" in {error["field"] for error in errors}


def test_create_segment_rejects_description_breaking_max_length(
    client: TestClient,
) -> None:
    body = {**segment_body(client), "description": "x" * 1001}
    errors = errors_of(client.post("/api/v1/segments", json=body))
    assert {
        "field": "description",
        "message": "Description allows at most 1000 characters",
    } in errors


def test_create_segment_names_every_missing_field(client: TestClient) -> None:
    errors = errors_of(client.post("/api/v1/segments", json={}))
    assert {error["field"] for error in errors} >= {
        "name",
    }


def test_create_segment_refuses_a_second_segment_with_the_same_name(
    client: TestClient,
) -> None:
    first = create_segment(client)
    body = {**segment_body(client), "name": first["name"]}
    response = client.post("/api/v1/segments", json=body)
    assert response.status_code == 409, response.text
    assert response.json()["type"].endswith(":duplicate")
    assert response.json()["field"] == "name"


def test_create_segment_with_an_idempotency_key_makes_one_segment(
    client: TestClient,
) -> None:
    body = segment_body(client)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    path = "/api/v1/segments"
    first = client.post(path, json=body, headers=key)
    again = client.post(path, json=body, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    # another value than the body's (one of the values the examples vary)
    changed = {**body, "name": next(v for v in ["nam0", "name"] if v != body["name"])}
    other = client.post(path, json=changed, headers=key)
    assert other.status_code == 422, other.text
    assert other.json()["title"] == "Idempotency-Key reused"


def test_list_segments_answers_a_page(client: TestClient) -> None:
    response = client.get("/api/v1/segments")
    assert response.status_code == 200, response.text
    assert response.json()["total"] >= 0


def test_list_segments_lists_the_tenant_s_segment_rows(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    mine = as_tenant("tenant-a")
    created = [create_segment(client, mine) for _ in range(2)]
    create_segment(client, as_tenant("tenant-b"))

    def listed() -> list[dict[str, Any]]:
        body: Any = client.get("/api/v1/segments", headers=mine).json()
        return list(body["items"] if isinstance(body, dict) else body)

    rows = eventually(listed, lambda rows: len(rows) >= 2)
    assert sorted(row["id"] for row in rows) == sorted(row["id"] for row in created)
    first = client.get("/api/v1/segments", params={"limit": 1}, headers=mine).json()
    assert first["total"] == 2
    assert len(first["items"]) == 1
    assert first["next"] is not None
    second = client.get(first["next"], headers=mine).json()
    assert second["next"] is None
    assert {first["items"][0]["id"], second["items"][0]["id"]} == {
        row["id"] for row in created
    }
    for order in ("name", "-name"):
        assert (
            client.get(
                "/api/v1/segments", params={"sort": order}, headers=mine
            ).status_code
            == 200
        )


def test_list_segments_refuses_a_bad_page(client: TestClient) -> None:
    response = client.get("/api/v1/segments", params={"limit": 0})
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "limit"


def test_get_segment_returns_the_stored_segment(client: TestClient) -> None:
    created = create_segment(client)
    response = client.get("/api/v1/segments/{id}".format(id=created["id"]))
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/segments/{id}".format(id=created["id"]),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_get_segment_is_scoped_to_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = create_segment(client, as_tenant("tenant-a"))
    path = "/api/v1/segments/{id}".format(id=created["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_get_segment_answers_404_with_a_problem(client: TestClient) -> None:
    response = client.get(f"/api/v1/segments/{UNKNOWN_ID}")
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["detail"] == "Segment not found"


def test_update_segment_changes_the_stored_segment(client: TestClient) -> None:
    created = create_segment(client)
    response = call_update_segment(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_update_segment_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_segment(client)
    body = update_segment_body(client)
    path = "/api/v1/segments/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PUT", path, json=body, headers=key)
    again = client.request("PUT", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_update_segment_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_segment(client)
    stale = {"If-Match": '"5"'}
    response = call_update_segment(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_update_segment_of_a_missing_segment_is_404(client: TestClient) -> None:
    response = call_update_segment(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Segment not found"


def test_update_segment_rejects_name_breaking_not_blank(client: TestClient) -> None:
    created = create_segment(client)
    errors = errors_of(
        call_update_segment(client, created["id"], changes={"name": "   "})
    )
    assert {"field": "name", "message": "Name must not be blank"} in errors


def test_update_segment_rejects_name_breaking_max_length(client: TestClient) -> None:
    created = create_segment(client)
    errors = errors_of(
        call_update_segment(client, created["id"], changes={"name": "x" * 101})
    )
    assert "name" in {error["field"] for error in errors}


def test_update_segment_rejects_description_breaking_max_length(
    client: TestClient,
) -> None:
    created = create_segment(client)
    errors = errors_of(
        call_update_segment(client, created["id"], changes={"description": "x" * 1001})
    )
    assert {
        "field": "description",
        "message": "Description allows at most 1000 characters",
    } in errors


def test_remove_segment_changes_the_stored_segment(client: TestClient) -> None:
    created = create_segment(client)
    response = call_remove_segment(client, created["id"])
    assert response.status_code == 204, response.text
    assert int(response.headers["ETag"].strip('"')) == 2
    assert (
        client.get("/api/v1/segments/{id}".format(id=created["id"])).status_code == 404
    )
    assert call_remove_segment(client, created["id"]).status_code == 404


def test_remove_segment_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_segment(client)
    path = "/api/v1/segments/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("DELETE", path, headers=key)
    again = client.request("DELETE", path, headers=key)
    assert first.status_code == again.status_code == 204, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_remove_segment_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_segment(client)
    stale = {"If-Match": '"5"'}
    response = call_remove_segment(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_remove_segment_of_a_missing_segment_is_404(client: TestClient) -> None:
    response = call_remove_segment(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Segment not found"


def test_create_flag_answers_201_with_the_stored_flag(client: TestClient) -> None:
    body = create_flag_body(client)
    response = client.post("/api/v1/flags", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    for field, value in body.items():
        assert sent(created[field], value) == value, field
    assert created["createdAt"] == created["updatedAt"]
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Location"].endswith(created["id"])


def test_create_flag_rejects_description_breaking_max_length(
    client: TestClient,
) -> None:
    body = {**flag_body(client), "description": "x" * 1001}
    errors = errors_of(client.post("/api/v1/flags", json=body))
    assert {
        "field": "description",
        "message": "Description allows at most 1000 characters",
    } in errors


def test_create_flag_names_every_missing_field(client: TestClient) -> None:
    errors = errors_of(client.post("/api/v1/flags", json={}))
    assert {error["field"] for error in errors} >= {
        "key",
        "projectId",
    }


def test_create_flag_needs_an_existing_project(client: TestClient) -> None:
    body = {**flag_body(client), "projectId": str(uuid.uuid4())}
    errors = errors_of(client.post("/api/v1/flags", json=body))
    assert "projectId" in {error["field"] for error in errors}


def test_create_flag_refuses_a_second_flag_with_the_same_key_(
    client: TestClient,
) -> None:
    first = create_flag(client)
    body = {**flag_body(client), "key": first["key"]}
    response = client.post("/api/v1/flags", json=body)
    assert response.status_code == 409, response.text
    assert response.json()["type"].endswith(":duplicate")
    assert response.json()["field"] == "key"


def test_create_flag_with_an_idempotency_key_makes_one_flag(client: TestClient) -> None:
    body = flag_body(client)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    path = "/api/v1/flags"
    first = client.post(path, json=body, headers=key)
    again = client.post(path, json=body, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    # another value than the body's (one of the values the examples vary)
    changed = {
        **body,
        "key": next(v for v in ["new-checkou0", "new-checkout"] if v != body["key"]),
    }
    other = client.post(path, json=changed, headers=key)
    assert other.status_code == 422, other.text
    assert other.json()["title"] == "Idempotency-Key reused"


def test_list_flags_answers_a_page(client: TestClient) -> None:
    response = client.get("/api/v1/flags")
    assert response.status_code == 200, response.text
    assert response.json()["total"] >= 0


def test_list_flags_lists_the_tenant_s_flag_rows(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    mine = as_tenant("tenant-a")
    created = [create_flag(client, mine) for _ in range(2)]
    create_flag(client, as_tenant("tenant-b"))

    def listed() -> list[dict[str, Any]]:
        body: Any = client.get("/api/v1/flags", headers=mine).json()
        return list(body["items"] if isinstance(body, dict) else body)

    rows = eventually(listed, lambda rows: len(rows) >= 2)
    assert sorted(row["id"] for row in rows) == sorted(row["id"] for row in created)
    first = client.get("/api/v1/flags", params={"limit": 1}, headers=mine).json()
    assert first["total"] == 2
    assert len(first["items"]) == 1
    assert first["next"] is not None
    second = client.get(first["next"], headers=mine).json()
    assert second["next"] is None
    assert {first["items"][0]["id"], second["items"][0]["id"]} == {
        row["id"] for row in created
    }
    matching = client.get(
        "/api/v1/flags", params={"projectId": created[0]["projectId"]}, headers=mine
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    matching = client.get(
        "/api/v1/flags", params={"type": created[0]["type"]}, headers=mine
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    matching = client.get(
        "/api/v1/flags", params={"stale": created[0]["stale"]}, headers=mine
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    matching = client.get(
        "/api/v1/flags", params={"archived": created[0]["archived"]}, headers=mine
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    for order in ("key", "-key"):
        assert (
            client.get(
                "/api/v1/flags", params={"sort": order}, headers=mine
            ).status_code
            == 200
        )
    for order in ("createdAt", "-createdAt"):
        assert (
            client.get(
                "/api/v1/flags", params={"sort": order}, headers=mine
            ).status_code
            == 200
        )
    for order in ("updatedAt", "-updatedAt"):
        assert (
            client.get(
                "/api/v1/flags", params={"sort": order}, headers=mine
            ).status_code
            == 200
        )


def test_list_flags_refuses_a_bad_page(client: TestClient) -> None:
    response = client.get("/api/v1/flags", params={"limit": 0})
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "limit"


def test_get_flag_returns_the_stored_flag(client: TestClient) -> None:
    created = create_flag(client)
    response = client.get("/api/v1/flags/{id}".format(id=created["id"]))
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/flags/{id}".format(id=created["id"]),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_get_flag_is_scoped_to_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = create_flag(client, as_tenant("tenant-a"))
    path = "/api/v1/flags/{id}".format(id=created["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_get_flag_answers_404_with_a_problem(client: TestClient) -> None:
    response = client.get(f"/api/v1/flags/{UNKNOWN_ID}")
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["detail"] == "Flag not found"


def test_get_flag_by_key_returns_the_stored_flag(client: TestClient) -> None:
    created = create_flag(client)
    response = client.get("/api/v1/flags/by-key/{key}".format(key=created["key"]))
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/flags/by-key/{key}".format(key=created["key"]),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_describe_flag_changes_the_stored_flag(client: TestClient) -> None:
    created = create_flag(client)
    response = call_describe_flag(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_describe_flag_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_flag(client)
    body = describe_flag_body(client)
    path = "/api/v1/flags/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PATCH", path, json=body, headers=key)
    again = client.request("PATCH", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_describe_flag_keeps_what_the_patch_leaves_out(client: TestClient) -> None:
    created = create_flag(client)
    before = client.get("/api/v1/flags/{id}".format(id=created["id"])).json()
    inputs: dict[str, Any] = {}
    response = client.patch(
        "/api/v1/flags/{id}".format(
            id=created["id"],
        ),
        json=inputs,
    )
    assert response.status_code == 200, response.text
    after = client.get("/api/v1/flags/{id}".format(id=created["id"])).json()
    assert after["description"] == before["description"]
    assert after["type"] == before["type"]
    assert after["impressionData"] == before["impressionData"]
    # an empty patch changes nothing: no event, the same version
    assert int(response.headers["ETag"].strip('"')) == 1
    assert after["updatedAt"] == before["updatedAt"]


def test_describe_flag_refuses_null_for_description(client: TestClient) -> None:
    created = create_flag(client)
    errors = errors_of(
        call_describe_flag(client, created["id"], changes={"description": None})
    )
    # the answer says null is no value for it
    assert any(
        e["field"] == "description" and "null" in e["message"] for e in errors
    ), errors


def test_describe_flag_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_flag(client)
    stale = {"If-Match": '"5"'}
    response = call_describe_flag(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_describe_flag_is_refused_by_its_guard(client: TestClient) -> None:
    created = create_flag(client)
    assert call_archive_flag(client, created["id"]).status_code < 300
    response = call_describe_flag(client, created["id"])
    assert response.status_code == 409, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["type"] == "urn:problem-type:feature-flags:flag-archived"


def test_describe_flag_of_a_missing_flag_is_404(client: TestClient) -> None:
    response = call_describe_flag(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Flag not found"


def test_describe_flag_rejects_description_breaking_max_length(
    client: TestClient,
) -> None:
    created = create_flag(client)
    errors = errors_of(
        call_describe_flag(client, created["id"], changes={"description": "x" * 1001})
    )
    assert {
        "field": "description",
        "message": "Description allows at most 1000 characters",
    } in errors


def test_configure_flag_changes_the_stored_flag(client: TestClient) -> None:
    created = create_flag(client)
    response = call_configure_flag(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_configure_flag_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_flag(client)
    body = configure_flag_body(client)
    path = "/api/v1/flags/{id}/environments".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PUT", path, json=body, headers=key)
    again = client.request("PUT", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_configure_flag_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_flag(client)
    stale = {"If-Match": '"5"'}
    response = call_configure_flag(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_configure_flag_is_refused_by_its_guard(client: TestClient) -> None:
    created = create_flag(client)
    assert call_archive_flag(client, created["id"]).status_code < 300
    response = call_configure_flag(client, created["id"])
    assert response.status_code == 409, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["type"] == "urn:problem-type:feature-flags:flag-archived"


def test_configure_flag_of_a_missing_flag_is_404(client: TestClient) -> None:
    response = call_configure_flag(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Flag not found"


def test_set_variants_flag_changes_the_stored_flag(client: TestClient) -> None:
    created = create_flag(client)
    response = call_set_variants_flag(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_set_variants_flag_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_flag(client)
    body = set_variants_flag_body(client)
    path = "/api/v1/flags/{id}/variants".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PUT", path, json=body, headers=key)
    again = client.request("PUT", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_set_variants_flag_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_flag(client)
    stale = {"If-Match": '"5"'}
    response = call_set_variants_flag(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_set_variants_flag_is_refused_by_its_guard(client: TestClient) -> None:
    created = create_flag(client)
    assert call_archive_flag(client, created["id"]).status_code < 300
    response = call_set_variants_flag(client, created["id"])
    assert response.status_code == 409, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["type"] == "urn:problem-type:feature-flags:flag-archived"


def test_set_variants_flag_of_a_missing_flag_is_404(client: TestClient) -> None:
    response = call_set_variants_flag(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Flag not found"


def test_set_dependencies_flag_changes_the_stored_flag(client: TestClient) -> None:
    created = create_flag(client)
    response = call_set_dependencies_flag(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_set_dependencies_flag_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_flag(client)
    body = set_dependencies_flag_body(client)
    path = "/api/v1/flags/{id}/dependencies".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PUT", path, json=body, headers=key)
    again = client.request("PUT", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_set_dependencies_flag_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_flag(client)
    stale = {"If-Match": '"5"'}
    response = call_set_dependencies_flag(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_set_dependencies_flag_is_refused_by_its_guard(client: TestClient) -> None:
    created = create_flag(client)
    assert call_archive_flag(client, created["id"]).status_code < 300
    response = call_set_dependencies_flag(client, created["id"])
    assert response.status_code == 409, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["type"] == "urn:problem-type:feature-flags:flag-archived"


def test_set_dependencies_flag_of_a_missing_flag_is_404(client: TestClient) -> None:
    response = call_set_dependencies_flag(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Flag not found"


def test_mark_stale_flag_changes_the_stored_flag(client: TestClient) -> None:
    created = create_flag(client)
    response = call_mark_stale_flag(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_mark_stale_flag_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_flag(client)
    body = mark_stale_flag_body(client)
    path = "/api/v1/flags/{id}/stale".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PUT", path, json=body, headers=key)
    again = client.request("PUT", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_mark_stale_flag_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_flag(client)
    stale = {"If-Match": '"5"'}
    response = call_mark_stale_flag(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_mark_stale_flag_of_a_missing_flag_is_404(client: TestClient) -> None:
    response = call_mark_stale_flag(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Flag not found"


def test_archive_flag_changes_the_stored_flag(client: TestClient) -> None:
    created = create_flag(client)
    response = call_archive_flag(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_archive_flag_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_flag(client)
    path = "/api/v1/flags/{id}/archive".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("POST", path, headers=key)
    again = client.request("POST", path, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_archive_flag_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_flag(client)
    stale = {"If-Match": '"5"'}
    response = call_archive_flag(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_archive_flag_is_refused_by_its_guard(client: TestClient) -> None:
    created = create_flag(client)
    assert call_archive_flag(client, created["id"]).status_code < 300
    response = call_archive_flag(client, created["id"])
    assert response.status_code == 409, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["type"] == "urn:problem-type:feature-flags:flag-archived"


def test_archive_flag_of_a_missing_flag_is_404(client: TestClient) -> None:
    response = call_archive_flag(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Flag not found"


def test_revive_flag_changes_the_stored_flag(client: TestClient) -> None:
    created = create_flag(client)
    assert call_archive_flag(client, created["id"]).status_code < 300
    response = call_revive_flag(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 3


def test_revive_flag_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_flag(client)
    assert call_archive_flag(client, created["id"]).status_code < 300
    path = "/api/v1/flags/{id}/revive".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("POST", path, headers=key)
    again = client.request("POST", path, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_revive_flag_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_flag(client)
    assert call_archive_flag(client, created["id"]).status_code < 300
    stale = {"If-Match": '"6"'}
    response = call_revive_flag(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_revive_flag_is_refused_by_its_guard(client: TestClient) -> None:
    created = create_flag(client)
    response = call_revive_flag(client, created["id"])
    assert response.status_code == 409, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert (
        response.json()["type"] == "urn:problem-type:feature-flags:command-not-allowed"
    )


def test_revive_flag_of_a_missing_flag_is_404(client: TestClient) -> None:
    response = call_revive_flag(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Flag not found"


def test_remove_flag_changes_the_stored_flag(client: TestClient) -> None:
    created = create_flag(client)
    assert call_archive_flag(client, created["id"]).status_code < 300
    response = call_remove_flag(client, created["id"])
    assert response.status_code == 204, response.text
    assert int(response.headers["ETag"].strip('"')) == 3
    assert client.get("/api/v1/flags/{id}".format(id=created["id"])).status_code == 404
    assert call_remove_flag(client, created["id"]).status_code == 404


def test_remove_flag_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_flag(client)
    assert call_archive_flag(client, created["id"]).status_code < 300
    path = "/api/v1/flags/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("DELETE", path, headers=key)
    again = client.request("DELETE", path, headers=key)
    assert first.status_code == again.status_code == 204, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_remove_flag_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_flag(client)
    assert call_archive_flag(client, created["id"]).status_code < 300
    stale = {"If-Match": '"6"'}
    response = call_remove_flag(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_remove_flag_is_refused_by_its_guard(client: TestClient) -> None:
    created = create_flag(client)
    response = call_remove_flag(client, created["id"])
    assert response.status_code == 409, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert (
        response.json()["type"] == "urn:problem-type:feature-flags:command-not-allowed"
    )


def test_remove_flag_of_a_missing_flag_is_404(client: TestClient) -> None:
    response = call_remove_flag(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Flag not found"


def test_submit_usage_report_answers_201_with_the_stored_usage_report(
    client: TestClient,
) -> None:
    body = submit_usage_report_body(client)
    response = client.post("/api/v1/usage-reports", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    for field, value in body.items():
        assert sent(created[field], value) == value, field
    assert created["createdAt"] == created["updatedAt"]
    assert response.headers["ETag"] == '"1"'


def test_submit_usage_report_rejects_app_name_breaking_not_blank(
    client: TestClient,
) -> None:
    body = {**usage_report_body(client), "appName": "   "}
    errors = errors_of(client.post("/api/v1/usage-reports", json=body))
    assert {"field": "appName", "message": "App name must not be blank"} in errors


def test_submit_usage_report_rejects_app_name_breaking_max_length(
    client: TestClient,
) -> None:
    body = {**usage_report_body(client), "appName": "x" * 201}
    errors = errors_of(client.post("/api/v1/usage-reports", json=body))
    assert "appName" in {error["field"] for error in errors}


def test_submit_usage_report_rejects_instance_id_breaking_max_length(
    client: TestClient,
) -> None:
    body = {**usage_report_body(client), "instanceId": "x" * 201}
    errors = errors_of(client.post("/api/v1/usage-reports", json=body))
    assert {
        "field": "instanceId",
        "message": "Instance id allows at most 200 characters",
    } in errors


def test_submit_usage_report_rejects_environment_breaking_not_blank(
    client: TestClient,
) -> None:
    body = {**usage_report_body(client), "environment": "   "}
    errors = errors_of(client.post("/api/v1/usage-reports", json=body))
    assert {
        "field": "environment",
        "message": "Environment must not be blank",
    } in errors


def test_submit_usage_report_rejects_environment_breaking_max_length(
    client: TestClient,
) -> None:
    body = {**usage_report_body(client), "environment": "x" * 101}
    errors = errors_of(client.post("/api/v1/usage-reports", json=body))
    assert "environment" in {error["field"] for error in errors}


def test_submit_usage_report_names_every_missing_field(client: TestClient) -> None:
    errors = errors_of(client.post("/api/v1/usage-reports", json={}))
    assert {error["field"] for error in errors} >= {
        "appName",
        "environment",
        "start",
        "stop",
    }


def test_submit_usage_report_with_an_idempotency_key_makes_one_usage_report(
    client: TestClient,
) -> None:
    body = usage_report_body(client)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    path = "/api/v1/usage-reports"
    first = client.post(path, json=body, headers=key)
    again = client.post(path, json=body, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    changed = {**body, "appName": "web-sho0"}
    other = client.post(path, json=changed, headers=key)
    assert other.status_code == 422, other.text
    assert other.json()["title"] == "Idempotency-Key reused"


def test_list_usage_reports_answers_a_page(client: TestClient) -> None:
    response = client.get("/api/v1/usage-reports")
    assert response.status_code == 200, response.text
    assert response.json()["total"] >= 0


def test_list_usage_reports_lists_the_tenant_s_usage_report_rows(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    mine = as_tenant("tenant-a")
    created = [create_usage_report(client, mine) for _ in range(2)]
    create_usage_report(client, as_tenant("tenant-b"))

    def listed() -> list[dict[str, Any]]:
        body: Any = client.get("/api/v1/usage-reports", headers=mine).json()
        return list(body["items"] if isinstance(body, dict) else body)

    rows = eventually(listed, lambda rows: len(rows) >= 2)
    assert sorted(row["id"] for row in rows) == sorted(row["id"] for row in created)
    first = client.get(
        "/api/v1/usage-reports", params={"limit": 1}, headers=mine
    ).json()
    assert first["total"] == 2
    assert len(first["items"]) == 1
    assert first["next"] is not None
    second = client.get(first["next"], headers=mine).json()
    assert second["next"] is None
    assert {first["items"][0]["id"], second["items"][0]["id"]} == {
        row["id"] for row in created
    }
    matching = client.get(
        "/api/v1/usage-reports",
        params={"environment": created[0]["environment"]},
        headers=mine,
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    matching = client.get(
        "/api/v1/usage-reports", params={"appName": created[0]["appName"]}, headers=mine
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    matching = client.get(
        "/api/v1/usage-reports", params={"stop": created[0]["stop"]}, headers=mine
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    ranged = client.get(
        "/api/v1/usage-reports", params={"stop.gte": created[0]["stop"]}, headers=mine
    ).json()
    assert created[0]["id"] in {
        row["id"] for row in (ranged["items"] if isinstance(ranged, dict) else ranged)
    }
    for order in ("stop", "-stop"):
        assert (
            client.get(
                "/api/v1/usage-reports", params={"sort": order}, headers=mine
            ).status_code
            == 200
        )


def test_list_usage_reports_refuses_a_bad_page(client: TestClient) -> None:
    response = client.get("/api/v1/usage-reports", params={"limit": 0})
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "limit"


def test_service_health(client: TestClient) -> None:
    response = client.get("/api/v1/feature-flags/health")
    assert response.json() == {"status": "UP", "service": "feature-flags"}


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
    assert "post" in paths["/api/v1/projects"]
    assert "get" in paths["/api/v1/projects"]
    assert "get" in paths["/api/v1/projects/{id}"]
    assert "put" in paths["/api/v1/projects/{id}"]
    assert "delete" in paths["/api/v1/projects/{id}"]
    assert "post" in paths["/api/v1/segments"]
    assert "get" in paths["/api/v1/segments"]
    assert "get" in paths["/api/v1/segments/{id}"]
    assert "put" in paths["/api/v1/segments/{id}"]
    assert "delete" in paths["/api/v1/segments/{id}"]
    assert "post" in paths["/api/v1/flags"]
    assert "get" in paths["/api/v1/flags"]
    assert "get" in paths["/api/v1/flags/{id}"]
    assert "get" in paths["/api/v1/flags/by-key/{key}"]
    assert "patch" in paths["/api/v1/flags/{id}"]
    assert "put" in paths["/api/v1/flags/{id}/environments"]
    assert "put" in paths["/api/v1/flags/{id}/variants"]
    assert "put" in paths["/api/v1/flags/{id}/dependencies"]
    assert "put" in paths["/api/v1/flags/{id}/stale"]
    assert "post" in paths["/api/v1/flags/{id}/archive"]
    assert "post" in paths["/api/v1/flags/{id}/revive"]
    assert "delete" in paths["/api/v1/flags/{id}"]
    assert "post" in paths["/api/v1/usage-reports"]
    assert "get" in paths["/api/v1/usage-reports"]
