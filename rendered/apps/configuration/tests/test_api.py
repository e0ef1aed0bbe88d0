# Generated from spec configuration by `generate`; edits are merged on re-render.

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


def define_config_schema_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body of POST /api/v1/schemas (the aggregates it references made)."""
    return {
        "application": next_of(
            "ConfigSchema.application",
            [
                "billing",
                "billin0",
                "billin1",
                "billin2",
                "billin3",
                "billin4",
                "billin5",
                "billin6",
                "billin7",
                "billin8",
                "billin9",
                "billina",
            ],
        ),
        "document": '{"type": "object"}',
    }


def revise_config_schema_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body of PUT /api/v1/schemas/{id} (the aggregates it references made)."""
    return {
        "document": '{"type": "object"}',
    }


def remove_config_schema_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body of DELETE /api/v1/schemas/{id} (the aggregates it references made)."""
    return {}


def config_schema_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body that makes a config schema."""
    return define_config_schema_body(client, headers)


def create_config_schema(
    client: TestClient, headers: Headers = None, **overrides: Any
) -> dict[str, Any]:
    """A new config schema, made through POST /api/v1/schemas."""
    headers = asker(headers)
    response = client.post(
        "/api/v1/schemas",
        json={**config_schema_body(client, headers), **overrides},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def call_revise_config_schema(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PUT /api/v1/schemas/{id} with the examples' body."""
    return client.request(
        "PUT",
        f"/api/v1/schemas/{id}",
        json={**revise_config_schema_body(client, headers), **(changes or {})},
        headers=headers,
    )


def call_remove_config_schema(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """DELETE /api/v1/schemas/{id} with the examples' body."""
    return client.request(
        "DELETE",
        f"/api/v1/schemas/{id}",
        headers=headers,
    )


def call_remove_property_set(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """DELETE /api/v1/property-sets/{id} with the examples' body."""
    return client.request(
        "DELETE",
        f"/api/v1/property-sets/{id}",
        headers=headers,
    )


def test_define_config_schema_answers_201_with_the_stored_config_schema(
    client: TestClient,
) -> None:
    body = define_config_schema_body(client)
    response = client.post("/api/v1/schemas", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    for field, value in body.items():
        assert sent(created[field], value) == value, field
    assert created["createdAt"] == created["updatedAt"]
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Location"].endswith(created["id"])


def test_define_config_schema_rejects_document_breaking_not_blank(
    client: TestClient,
) -> None:
    body = {**config_schema_body(client), "document": "   "}
    errors = errors_of(client.post("/api/v1/schemas", json=body))
    assert {"field": "document", "message": "Document must not be blank"} in errors


def test_define_config_schema_rejects_document_breaking_max_length(
    client: TestClient,
) -> None:
    body = {**config_schema_body(client), "document": "x" * 65537}
    errors = errors_of(client.post("/api/v1/schemas", json=body))
    assert "document" in {error["field"] for error in errors}


def test_define_config_schema_names_every_missing_field(client: TestClient) -> None:
    errors = errors_of(client.post("/api/v1/schemas", json={}))
    assert {error["field"] for error in errors} >= {
        "application",
        "document",
    }


def test_define_config_schema_refuses_a_second_config_schema_with_the_same_application(
    client: TestClient,
) -> None:
    first = create_config_schema(client)
    body = {**config_schema_body(client), "application": first["application"]}
    response = client.post("/api/v1/schemas", json=body)
    assert response.status_code == 409, response.text
    assert response.json()["type"].endswith(":duplicate")
    assert response.json()["field"] == "application"


def test_define_config_schema_with_an_idempotency_key_makes_one_config_schema(
    client: TestClient,
) -> None:
    body = config_schema_body(client)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    path = "/api/v1/schemas"
    first = client.post(path, json=body, headers=key)
    again = client.post(path, json=body, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    # another value than the body's (one of the values the examples vary)
    changed = {
        **body,
        "application": next(
            v for v in ["billin0", "billing"] if v != body["application"]
        ),
    }
    other = client.post(path, json=changed, headers=key)
    assert other.status_code == 422, other.text
    assert other.json()["title"] == "Idempotency-Key reused"


def test_list_schemas_answers_a_page(client: TestClient) -> None:
    response = client.get("/api/v1/schemas")
    assert response.status_code == 200, response.text
    assert response.json()["total"] >= 0


def test_list_schemas_lists_the_tenant_s_config_schema_rows(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    mine = as_tenant("tenant-a")
    created = [create_config_schema(client, mine) for _ in range(2)]
    create_config_schema(client, as_tenant("tenant-b"))

    def listed() -> list[dict[str, Any]]:
        body: Any = client.get("/api/v1/schemas", headers=mine).json()
        return list(body["items"] if isinstance(body, dict) else body)

    rows = eventually(listed, lambda rows: len(rows) >= 2)
    assert sorted(row["id"] for row in rows) == sorted(row["id"] for row in created)
    first = client.get("/api/v1/schemas", params={"limit": 1}, headers=mine).json()
    assert first["total"] == 2
    assert len(first["items"]) == 1
    assert first["next"] is not None
    second = client.get(first["next"], headers=mine).json()
    assert second["next"] is None
    assert {first["items"][0]["id"], second["items"][0]["id"]} == {
        row["id"] for row in created
    }
    for order in ("application", "-application"):
        assert (
            client.get(
                "/api/v1/schemas", params={"sort": order}, headers=mine
            ).status_code
            == 200
        )


def test_list_schemas_refuses_a_bad_page(client: TestClient) -> None:
    response = client.get("/api/v1/schemas", params={"limit": 0})
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "limit"


def test_get_config_schema_returns_the_stored_config_schema(client: TestClient) -> None:
    created = create_config_schema(client)
    response = client.get("/api/v1/schemas/{id}".format(id=created["id"]))
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/schemas/{id}".format(id=created["id"]),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_get_config_schema_is_scoped_to_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = create_config_schema(client, as_tenant("tenant-a"))
    path = "/api/v1/schemas/{id}".format(id=created["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_get_config_schema_answers_404_with_a_problem(client: TestClient) -> None:
    response = client.get(f"/api/v1/schemas/{UNKNOWN_ID}")
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["detail"] == "Schema not found"


def test_get_config_schema_by_application_returns_the_stored_config_schema(
    client: TestClient,
) -> None:
    created = create_config_schema(client)
    response = client.get(
        "/api/v1/schemas/by-application/{application}".format(
            application=created["application"]
        )
    )
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/schemas/by-application/{application}".format(
            application=created["application"]
        ),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_revise_config_schema_changes_the_stored_config_schema(
    client: TestClient,
) -> None:
    created = create_config_schema(client)
    response = call_revise_config_schema(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_revise_config_schema_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_config_schema(client)
    body = revise_config_schema_body(client)
    path = "/api/v1/schemas/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PUT", path, json=body, headers=key)
    again = client.request("PUT", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_revise_config_schema_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_config_schema(client)
    stale = {"If-Match": '"5"'}
    response = call_revise_config_schema(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_revise_config_schema_of_a_missing_config_schema_is_404(
    client: TestClient,
) -> None:
    response = call_revise_config_schema(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Schema not found"


def test_revise_config_schema_rejects_document_breaking_not_blank(
    client: TestClient,
) -> None:
    created = create_config_schema(client)
    errors = errors_of(
        call_revise_config_schema(client, created["id"], changes={"document": "   "})
    )
    assert {"field": "document", "message": "Document must not be blank"} in errors


def test_revise_config_schema_rejects_document_breaking_max_length(
    client: TestClient,
) -> None:
    created = create_config_schema(client)
    errors = errors_of(
        call_revise_config_schema(
            client, created["id"], changes={"document": "x" * 65537}
        )
    )
    assert "document" in {error["field"] for error in errors}


def test_remove_config_schema_changes_the_stored_config_schema(
    client: TestClient,
) -> None:
    created = create_config_schema(client)
    response = call_remove_config_schema(client, created["id"])
    assert response.status_code == 204, response.text
    assert int(response.headers["ETag"].strip('"')) == 2
    assert (
        client.get("/api/v1/schemas/{id}".format(id=created["id"])).status_code == 404
    )
    assert call_remove_config_schema(client, created["id"]).status_code == 404


def test_remove_config_schema_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_config_schema(client)
    path = "/api/v1/schemas/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("DELETE", path, headers=key)
    again = client.request("DELETE", path, headers=key)
    assert first.status_code == again.status_code == 204, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_remove_config_schema_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_config_schema(client)
    stale = {"If-Match": '"5"'}
    response = call_remove_config_schema(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_remove_config_schema_of_a_missing_config_schema_is_404(
    client: TestClient,
) -> None:
    response = call_remove_config_schema(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Schema not found"


def test_list_property_sets_answers_a_page(client: TestClient) -> None:
    response = client.get("/api/v1/property-sets")
    assert response.status_code == 200, response.text
    assert response.json()["total"] >= 0


def test_list_property_sets_refuses_a_bad_page(client: TestClient) -> None:
    response = client.get("/api/v1/property-sets", params={"limit": 0})
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "limit"


def test_remove_property_set_of_a_missing_property_set_is_404(
    client: TestClient,
) -> None:
    response = call_remove_property_set(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Property set not found"


def test_service_health(client: TestClient) -> None:
    response = client.get("/api/v1/configurations/health")
    assert response.json() == {"status": "UP", "service": "configuration"}


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
    assert "post" in paths["/api/v1/schemas"]
    assert "get" in paths["/api/v1/schemas"]
    assert "get" in paths["/api/v1/schemas/{id}"]
    assert "get" in paths["/api/v1/schemas/by-application/{application}"]
    assert "put" in paths["/api/v1/schemas/{id}"]
    assert "delete" in paths["/api/v1/schemas/{id}"]
    assert "get" in paths["/api/v1/property-sets"]
    assert "get" in paths["/api/v1/property-sets/{id}"]
    assert "delete" in paths["/api/v1/property-sets/{id}"]
