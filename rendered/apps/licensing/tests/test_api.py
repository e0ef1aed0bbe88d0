# Generated from spec licensing by `generate`; edits are merged on re-render.

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


def create_product_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of POST /api/v1/products (the aggregates it references made)."""
    return {
        "code": next_of(
            "Product.code",
            [
                "desktop-app",
                "desktop-ap0",
                "desktop-ap1",
                "desktop-ap2",
                "desktop-ap3",
                "desktop-ap4",
                "desktop-ap5",
                "desktop-ap6",
                "desktop-ap7",
                "desktop-ap8",
                "desktop-ap9",
                "desktop-apa",
            ],
        ),
        "name": "name",
        "url": "url",
        "metadata": {},
    }


def update_product_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of PUT /api/v1/products/{id} (the aggregates it references made)."""
    return {
        "name": "name",
        "url": "url",
        "metadata": {},
    }


def remove_product_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of DELETE /api/v1/products/{id} (the aggregates it references made)."""
    return {}


def create_policy_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of POST /api/v1/policies (the aggregates it references made)."""
    return {
        "productId": create_product(client, headers)["id"],
        "name": "name",
        "durationDays": 365,
        "maxMachines": 1,
        "floating": True,
        "entitlements": [],
        "gracePeriodDays": 1,
        "heartbeatIntervalSeconds": 600,
    }


def update_policy_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of PUT /api/v1/policies/{id} (the aggregates it references made)."""
    return {
        "name": "name",
        "durationDays": 365,
        "maxMachines": 1,
        "floating": True,
        "entitlements": [],
        "gracePeriodDays": 1,
        "heartbeatIntervalSeconds": 600,
    }


def remove_policy_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of DELETE /api/v1/policies/{id} (the aggregates it references made)."""
    return {}


def create_license_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of POST /api/v1/licenses (the aggregates it references made)."""
    return {
        "key": next_of(
            "License.key",
            [
                "A1B2C3-D4E5F6-A7B8C9-D0E1F2",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F0",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F1",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F3",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F4",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F5",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F6",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F7",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F8",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F9",
                "A1B2C3-D4E5F6-A7B8C9-D0E1FA",
                "A1B2C3-D4E5F6-A7B8C9-D0E1FB",
            ],
        ),
        "policyId": create_policy(client, headers)["id"],
        "productId": create_product(client, headers)["id"],
        "name": "name",
        "owner": "owner",
        "expiresAt": "2030-01-02T03:04:05Z",
        "durationDays": 365,
        "maxMachines": 1,
        "metadata": {},
    }


def update_license_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of PATCH /api/v1/licenses/{id} (the aggregates it references made)."""
    return {
        "name": "name",
        "owner": "owner",
        "metadata": {},
    }


def suspend_license_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of POST /api/v1/licenses/{id}/actions/suspend (the aggregates it references made)."""
    return {}


def reinstate_license_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body of POST /api/v1/licenses/{id}/actions/reinstate (the aggregates it references made)."""
    return {}


def revoke_license_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of POST /api/v1/licenses/{id}/actions/revoke (the aggregates it references made)."""
    return {}


def renew_license_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body of POST /api/v1/licenses/{id}/actions/renew (the aggregates it references made)."""
    return {}


def activate_machine_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body of POST /api/v1/machines (the aggregates it references made)."""
    return {
        "licenseId": create_license(client, headers)["id"],
        "fingerprint": next_of(
            "Machine.fingerprint",
            [
                "4a:9c:07:e1",
                "4a:9c:07:e0",
                "4a:9c:07:e2",
                "4a:9c:07:e3",
                "4a:9c:07:e4",
                "4a:9c:07:e5",
                "4a:9c:07:e6",
                "4a:9c:07:e7",
                "4a:9c:07:e8",
                "4a:9c:07:e9",
                "4a:9c:07:ea",
                "4a:9c:07:eb",
            ],
        ),
        "name": "name",
        "platform": "platform",
    }


def heartbeat_machine_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body of POST /api/v1/machines/{id}/actions/ping (the aggregates it references made)."""
    return {}


def deactivate_machine_body(
    client: TestClient, headers: Headers = None
) -> dict[str, Any]:
    """The examples' body of DELETE /api/v1/machines/{id} (the aggregates it references made)."""
    return {}


def product_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body that makes a product."""
    return create_product_body(client, headers)


def create_product(
    client: TestClient, headers: Headers = None, **overrides: Any
) -> dict[str, Any]:
    """A new product, made through POST /api/v1/products."""
    headers = asker(headers)
    response = client.post(
        "/api/v1/products",
        json={**product_body(client, headers), **overrides},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def policy_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body that makes a policy."""
    return create_policy_body(client, headers)


def create_policy(
    client: TestClient, headers: Headers = None, **overrides: Any
) -> dict[str, Any]:
    """A new policy, made through POST /api/v1/policies."""
    headers = asker(headers)
    response = client.post(
        "/api/v1/policies",
        json={**policy_body(client, headers), **overrides},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def license_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body that makes a license."""
    return create_license_body(client, headers)


def create_license(
    client: TestClient, headers: Headers = None, **overrides: Any
) -> dict[str, Any]:
    """A new license, made through POST /api/v1/licenses."""
    headers = asker(headers)
    response = client.post(
        "/api/v1/licenses",
        json={**license_body(client, headers), **overrides},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def machine_body(client: TestClient, headers: Headers = None) -> dict[str, Any]:
    """The examples' body that makes a machine."""
    return activate_machine_body(client, headers)


def create_machine(
    client: TestClient, headers: Headers = None, **overrides: Any
) -> dict[str, Any]:
    """A new machine, made through POST /api/v1/machines."""
    headers = asker(headers)
    response = client.post(
        "/api/v1/machines",
        json={**machine_body(client, headers), **overrides},
        headers=headers,
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def call_update_product(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PUT /api/v1/products/{id} with the examples' body."""
    return client.request(
        "PUT",
        f"/api/v1/products/{id}",
        json={**update_product_body(client, headers), **(changes or {})},
        headers=headers,
    )


def call_remove_product(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """DELETE /api/v1/products/{id} with the examples' body."""
    return client.request(
        "DELETE",
        f"/api/v1/products/{id}",
        headers=headers,
    )


def call_update_policy(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PUT /api/v1/policies/{id} with the examples' body."""
    return client.request(
        "PUT",
        f"/api/v1/policies/{id}",
        json={**update_policy_body(client, headers), **(changes or {})},
        headers=headers,
    )


def call_remove_policy(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """DELETE /api/v1/policies/{id} with the examples' body."""
    return client.request(
        "DELETE",
        f"/api/v1/policies/{id}",
        headers=headers,
    )


def call_update_license(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """PATCH /api/v1/licenses/{id} with the examples' body."""
    return client.request(
        "PATCH",
        f"/api/v1/licenses/{id}",
        json={**update_license_body(client, headers), **(changes or {})},
        headers=headers,
    )


def call_suspend_license(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """POST /api/v1/licenses/{id}/actions/suspend with the examples' body."""
    return client.request(
        "POST",
        f"/api/v1/licenses/{id}/actions/suspend",
        headers=headers,
    )


def call_reinstate_license(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """POST /api/v1/licenses/{id}/actions/reinstate with the examples' body."""
    return client.request(
        "POST",
        f"/api/v1/licenses/{id}/actions/reinstate",
        headers=headers,
    )


def call_revoke_license(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """POST /api/v1/licenses/{id}/actions/revoke with the examples' body."""
    return client.request(
        "POST",
        f"/api/v1/licenses/{id}/actions/revoke",
        headers=headers,
    )


def call_renew_license(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """POST /api/v1/licenses/{id}/actions/renew with the examples' body."""
    return client.request(
        "POST",
        f"/api/v1/licenses/{id}/actions/renew",
        headers=headers,
    )


def call_heartbeat_machine(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """POST /api/v1/machines/{id}/actions/ping with the examples' body."""
    return client.request(
        "POST",
        f"/api/v1/machines/{id}/actions/ping",
        headers=headers,
    )


def call_deactivate_machine(
    client: TestClient,
    id: str,
    headers: Headers = None,
    changes: dict[str, Any] | None = None,
) -> Response:
    """DELETE /api/v1/machines/{id} with the examples' body."""
    return client.request(
        "DELETE",
        f"/api/v1/machines/{id}",
        headers=headers,
    )


def test_create_product_answers_201_with_the_stored_product(client: TestClient) -> None:
    body = create_product_body(client)
    response = client.post("/api/v1/products", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    for field, value in body.items():
        assert sent(created[field], value) == value, field
    assert created["createdAt"] == created["updatedAt"]
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Location"].endswith(created["id"])


def test_create_product_rejects_name_breaking_not_blank(client: TestClient) -> None:
    body = {**product_body(client), "name": "   "}
    errors = errors_of(client.post("/api/v1/products", json=body))
    assert {"field": "name", "message": "Name must not be blank"} in errors


def test_create_product_rejects_name_breaking_max_length(client: TestClient) -> None:
    body = {**product_body(client), "name": "x" * 201}
    errors = errors_of(client.post("/api/v1/products", json=body))
    assert "name" in {error["field"] for error in errors}


def test_create_product_rejects_url_breaking_max_length(client: TestClient) -> None:
    body = {**product_body(client), "url": "x" * 2001}
    errors = errors_of(client.post("/api/v1/products", json=body))
    assert {"field": "url", "message": "Url allows at most 2000 characters"} in errors


def test_create_product_names_every_missing_field(client: TestClient) -> None:
    errors = errors_of(client.post("/api/v1/products", json={}))
    assert {error["field"] for error in errors} >= {
        "code",
        "name",
    }


def test_create_product_refuses_a_second_product_with_the_same_code(
    client: TestClient,
) -> None:
    first = create_product(client)
    body = {**product_body(client), "code": first["code"]}
    response = client.post("/api/v1/products", json=body)
    assert response.status_code == 409, response.text
    assert response.json()["type"].endswith(":duplicate")
    assert response.json()["field"] == "code"


def test_create_product_with_an_idempotency_key_makes_one_product(
    client: TestClient,
) -> None:
    body = product_body(client)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    path = "/api/v1/products"
    first = client.post(path, json=body, headers=key)
    again = client.post(path, json=body, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    # another value than the body's (one of the values the examples vary)
    changed = {
        **body,
        "code": next(v for v in ["desktop-ap0", "desktop-app"] if v != body["code"]),
    }
    other = client.post(path, json=changed, headers=key)
    assert other.status_code == 422, other.text
    assert other.json()["title"] == "Idempotency-Key reused"


def test_list_products_answers_a_page(client: TestClient) -> None:
    response = client.get("/api/v1/products")
    assert response.status_code == 200, response.text
    assert response.json()["total"] >= 0


def test_list_products_lists_the_tenant_s_product_rows(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    mine = as_tenant("tenant-a")
    created = [create_product(client, mine) for _ in range(2)]
    create_product(client, as_tenant("tenant-b"))

    def listed() -> list[dict[str, Any]]:
        body: Any = client.get("/api/v1/products", headers=mine).json()
        return list(body["items"] if isinstance(body, dict) else body)

    rows = eventually(listed, lambda rows: len(rows) >= 2)
    assert sorted(row["id"] for row in rows) == sorted(row["id"] for row in created)
    first = client.get("/api/v1/products", params={"limit": 1}, headers=mine).json()
    assert first["total"] == 2
    assert len(first["items"]) == 1
    assert first["next"] is not None
    second = client.get(first["next"], headers=mine).json()
    assert second["next"] is None
    assert {first["items"][0]["id"], second["items"][0]["id"]} == {
        row["id"] for row in created
    }
    for order in ("code", "-code"):
        assert (
            client.get(
                "/api/v1/products", params={"sort": order}, headers=mine
            ).status_code
            == 200
        )


def test_list_products_refuses_a_bad_page(client: TestClient) -> None:
    response = client.get("/api/v1/products", params={"limit": 0})
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "limit"


def test_get_product_returns_the_stored_product(client: TestClient) -> None:
    created = create_product(client)
    response = client.get("/api/v1/products/{id}".format(id=created["id"]))
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/products/{id}".format(id=created["id"]),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_get_product_is_scoped_to_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = create_product(client, as_tenant("tenant-a"))
    path = "/api/v1/products/{id}".format(id=created["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_get_product_answers_404_with_a_problem(client: TestClient) -> None:
    response = client.get(f"/api/v1/products/{UNKNOWN_ID}")
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["detail"] == "Product not found"


def test_update_product_changes_the_stored_product(client: TestClient) -> None:
    created = create_product(client)
    response = call_update_product(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_update_product_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_product(client)
    body = update_product_body(client)
    path = "/api/v1/products/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PUT", path, json=body, headers=key)
    again = client.request("PUT", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_update_product_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_product(client)
    stale = {"If-Match": '"5"'}
    response = call_update_product(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_update_product_of_a_missing_product_is_404(client: TestClient) -> None:
    response = call_update_product(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Product not found"


def test_update_product_rejects_name_breaking_not_blank(client: TestClient) -> None:
    created = create_product(client)
    errors = errors_of(
        call_update_product(client, created["id"], changes={"name": "   "})
    )
    assert {"field": "name", "message": "Name must not be blank"} in errors


def test_update_product_rejects_name_breaking_max_length(client: TestClient) -> None:
    created = create_product(client)
    errors = errors_of(
        call_update_product(client, created["id"], changes={"name": "x" * 201})
    )
    assert "name" in {error["field"] for error in errors}


def test_update_product_rejects_url_breaking_max_length(client: TestClient) -> None:
    created = create_product(client)
    errors = errors_of(
        call_update_product(client, created["id"], changes={"url": "x" * 2001})
    )
    assert {"field": "url", "message": "Url allows at most 2000 characters"} in errors


def test_remove_product_changes_the_stored_product(client: TestClient) -> None:
    created = create_product(client)
    response = call_remove_product(client, created["id"])
    assert response.status_code == 204, response.text
    assert int(response.headers["ETag"].strip('"')) == 2
    assert (
        client.get("/api/v1/products/{id}".format(id=created["id"])).status_code == 404
    )
    assert call_remove_product(client, created["id"]).status_code == 404


def test_remove_product_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_product(client)
    path = "/api/v1/products/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("DELETE", path, headers=key)
    again = client.request("DELETE", path, headers=key)
    assert first.status_code == again.status_code == 204, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_remove_product_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_product(client)
    stale = {"If-Match": '"5"'}
    response = call_remove_product(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_remove_product_of_a_missing_product_is_404(client: TestClient) -> None:
    response = call_remove_product(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Product not found"


def test_create_policy_answers_201_with_the_stored_policy(client: TestClient) -> None:
    body = create_policy_body(client)
    response = client.post("/api/v1/policies", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    for field, value in body.items():
        assert sent(created[field], value) == value, field
    assert created["createdAt"] == created["updatedAt"]
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Location"].endswith(created["id"])


def test_create_policy_rejects_name_breaking_not_blank(client: TestClient) -> None:
    body = {**policy_body(client), "name": "   "}
    errors = errors_of(client.post("/api/v1/policies", json=body))
    assert {"field": "name", "message": "Name must not be blank"} in errors


def test_create_policy_rejects_name_breaking_max_length(client: TestClient) -> None:
    body = {**policy_body(client), "name": "x" * 201}
    errors = errors_of(client.post("/api/v1/policies", json=body))
    assert "name" in {error["field"] for error in errors}


def test_create_policy_rejects_duration_days_breaking_min(client: TestClient) -> None:
    body = {**policy_body(client), "durationDays": 0}
    errors = errors_of(client.post("/api/v1/policies", json=body))
    assert {
        "field": "durationDays",
        "message": "Duration days must be at least 1",
    } in errors


def test_create_policy_rejects_duration_days_breaking_max(client: TestClient) -> None:
    body = {**policy_body(client), "durationDays": 36501}
    errors = errors_of(client.post("/api/v1/policies", json=body))
    assert {
        "field": "durationDays",
        "message": "Duration days must be at most 36500",
    } in errors


def test_create_policy_rejects_max_machines_breaking_min(client: TestClient) -> None:
    body = {**policy_body(client), "maxMachines": 0}
    errors = errors_of(client.post("/api/v1/policies", json=body))
    assert {
        "field": "maxMachines",
        "message": "Max machines must be at least 1",
    } in errors


def test_create_policy_rejects_max_machines_breaking_max(client: TestClient) -> None:
    body = {**policy_body(client), "maxMachines": 100001}
    errors = errors_of(client.post("/api/v1/policies", json=body))
    assert {
        "field": "maxMachines",
        "message": "Max machines must be at most 100000",
    } in errors


def test_create_policy_rejects_grace_period_days_breaking_min(
    client: TestClient,
) -> None:
    body = {**policy_body(client), "gracePeriodDays": -1}
    errors = errors_of(client.post("/api/v1/policies", json=body))
    assert {
        "field": "gracePeriodDays",
        "message": "Grace period days must be at least 0",
    } in errors


def test_create_policy_rejects_grace_period_days_breaking_max(
    client: TestClient,
) -> None:
    body = {**policy_body(client), "gracePeriodDays": 366}
    errors = errors_of(client.post("/api/v1/policies", json=body))
    assert {
        "field": "gracePeriodDays",
        "message": "Grace period days must be at most 365",
    } in errors


def test_create_policy_rejects_heartbeat_interval_seconds_breaking_min(
    client: TestClient,
) -> None:
    body = {**policy_body(client), "heartbeatIntervalSeconds": 59}
    errors = errors_of(client.post("/api/v1/policies", json=body))
    assert {
        "field": "heartbeatIntervalSeconds",
        "message": "Heartbeat interval seconds must be at least 60",
    } in errors


def test_create_policy_rejects_heartbeat_interval_seconds_breaking_max(
    client: TestClient,
) -> None:
    body = {**policy_body(client), "heartbeatIntervalSeconds": 31536001}
    errors = errors_of(client.post("/api/v1/policies", json=body))
    assert {
        "field": "heartbeatIntervalSeconds",
        "message": "Heartbeat interval seconds must be at most 31536000",
    } in errors


def test_create_policy_names_every_missing_field(client: TestClient) -> None:
    errors = errors_of(client.post("/api/v1/policies", json={}))
    assert {error["field"] for error in errors} >= {
        "productId",
        "name",
    }


def test_create_policy_needs_an_existing_product(client: TestClient) -> None:
    body = {**policy_body(client), "productId": str(uuid.uuid4())}
    errors = errors_of(client.post("/api/v1/policies", json=body))
    assert "productId" in {error["field"] for error in errors}


def test_create_policy_with_an_idempotency_key_makes_one_policy(
    client: TestClient,
) -> None:
    body = policy_body(client)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    path = "/api/v1/policies"
    first = client.post(path, json=body, headers=key)
    again = client.post(path, json=body, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    changed = {**body, "productId": "00000000-0000-4000-8000-000000000001"}
    other = client.post(path, json=changed, headers=key)
    assert other.status_code == 422, other.text
    assert other.json()["title"] == "Idempotency-Key reused"


def test_list_policies_answers_a_page(client: TestClient) -> None:
    response = client.get("/api/v1/policies")
    assert response.status_code == 200, response.text
    assert response.json()["total"] >= 0


def test_list_policies_lists_the_tenant_s_policy_rows(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    mine = as_tenant("tenant-a")
    created = [create_policy(client, mine) for _ in range(2)]
    create_policy(client, as_tenant("tenant-b"))

    def listed() -> list[dict[str, Any]]:
        body: Any = client.get("/api/v1/policies", headers=mine).json()
        return list(body["items"] if isinstance(body, dict) else body)

    rows = eventually(listed, lambda rows: len(rows) >= 2)
    assert sorted(row["id"] for row in rows) == sorted(row["id"] for row in created)
    first = client.get("/api/v1/policies", params={"limit": 1}, headers=mine).json()
    assert first["total"] == 2
    assert len(first["items"]) == 1
    assert first["next"] is not None
    second = client.get(first["next"], headers=mine).json()
    assert second["next"] is None
    assert {first["items"][0]["id"], second["items"][0]["id"]} == {
        row["id"] for row in created
    }
    matching = client.get(
        "/api/v1/policies", params={"productId": created[0]["productId"]}, headers=mine
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    for order in ("name", "-name"):
        assert (
            client.get(
                "/api/v1/policies", params={"sort": order}, headers=mine
            ).status_code
            == 200
        )


def test_list_policies_refuses_a_bad_page(client: TestClient) -> None:
    response = client.get("/api/v1/policies", params={"limit": 0})
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "limit"


def test_get_policy_returns_the_stored_policy(client: TestClient) -> None:
    created = create_policy(client)
    response = client.get("/api/v1/policies/{id}".format(id=created["id"]))
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/policies/{id}".format(id=created["id"]),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_get_policy_is_scoped_to_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = create_policy(client, as_tenant("tenant-a"))
    path = "/api/v1/policies/{id}".format(id=created["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_get_policy_answers_404_with_a_problem(client: TestClient) -> None:
    response = client.get(f"/api/v1/policies/{UNKNOWN_ID}")
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["detail"] == "Policy not found"


def test_update_policy_changes_the_stored_policy(client: TestClient) -> None:
    created = create_policy(client)
    response = call_update_policy(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_update_policy_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_policy(client)
    body = update_policy_body(client)
    path = "/api/v1/policies/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PUT", path, json=body, headers=key)
    again = client.request("PUT", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_update_policy_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_policy(client)
    stale = {"If-Match": '"5"'}
    response = call_update_policy(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_update_policy_of_a_missing_policy_is_404(client: TestClient) -> None:
    response = call_update_policy(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Policy not found"


def test_update_policy_rejects_name_breaking_not_blank(client: TestClient) -> None:
    created = create_policy(client)
    errors = errors_of(
        call_update_policy(client, created["id"], changes={"name": "   "})
    )
    assert {"field": "name", "message": "Name must not be blank"} in errors


def test_update_policy_rejects_name_breaking_max_length(client: TestClient) -> None:
    created = create_policy(client)
    errors = errors_of(
        call_update_policy(client, created["id"], changes={"name": "x" * 201})
    )
    assert "name" in {error["field"] for error in errors}


def test_update_policy_rejects_duration_days_breaking_min(client: TestClient) -> None:
    created = create_policy(client)
    errors = errors_of(
        call_update_policy(client, created["id"], changes={"durationDays": 0})
    )
    assert {
        "field": "durationDays",
        "message": "Duration days must be at least 1",
    } in errors


def test_update_policy_rejects_duration_days_breaking_max(client: TestClient) -> None:
    created = create_policy(client)
    errors = errors_of(
        call_update_policy(client, created["id"], changes={"durationDays": 36501})
    )
    assert {
        "field": "durationDays",
        "message": "Duration days must be at most 36500",
    } in errors


def test_update_policy_rejects_max_machines_breaking_min(client: TestClient) -> None:
    created = create_policy(client)
    errors = errors_of(
        call_update_policy(client, created["id"], changes={"maxMachines": 0})
    )
    assert {
        "field": "maxMachines",
        "message": "Max machines must be at least 1",
    } in errors


def test_update_policy_rejects_max_machines_breaking_max(client: TestClient) -> None:
    created = create_policy(client)
    errors = errors_of(
        call_update_policy(client, created["id"], changes={"maxMachines": 100001})
    )
    assert {
        "field": "maxMachines",
        "message": "Max machines must be at most 100000",
    } in errors


def test_update_policy_rejects_grace_period_days_breaking_min(
    client: TestClient,
) -> None:
    created = create_policy(client)
    errors = errors_of(
        call_update_policy(client, created["id"], changes={"gracePeriodDays": -1})
    )
    assert {
        "field": "gracePeriodDays",
        "message": "Grace period days must be at least 0",
    } in errors


def test_update_policy_rejects_grace_period_days_breaking_max(
    client: TestClient,
) -> None:
    created = create_policy(client)
    errors = errors_of(
        call_update_policy(client, created["id"], changes={"gracePeriodDays": 366})
    )
    assert {
        "field": "gracePeriodDays",
        "message": "Grace period days must be at most 365",
    } in errors


def test_update_policy_rejects_heartbeat_interval_seconds_breaking_min(
    client: TestClient,
) -> None:
    created = create_policy(client)
    errors = errors_of(
        call_update_policy(
            client, created["id"], changes={"heartbeatIntervalSeconds": 59}
        )
    )
    assert {
        "field": "heartbeatIntervalSeconds",
        "message": "Heartbeat interval seconds must be at least 60",
    } in errors


def test_update_policy_rejects_heartbeat_interval_seconds_breaking_max(
    client: TestClient,
) -> None:
    created = create_policy(client)
    errors = errors_of(
        call_update_policy(
            client, created["id"], changes={"heartbeatIntervalSeconds": 31536001}
        )
    )
    assert {
        "field": "heartbeatIntervalSeconds",
        "message": "Heartbeat interval seconds must be at most 31536000",
    } in errors


def test_remove_policy_changes_the_stored_policy(client: TestClient) -> None:
    created = create_policy(client)
    response = call_remove_policy(client, created["id"])
    assert response.status_code == 204, response.text
    assert int(response.headers["ETag"].strip('"')) == 2
    assert (
        client.get("/api/v1/policies/{id}".format(id=created["id"])).status_code == 404
    )
    assert call_remove_policy(client, created["id"]).status_code == 404


def test_remove_policy_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_policy(client)
    path = "/api/v1/policies/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("DELETE", path, headers=key)
    again = client.request("DELETE", path, headers=key)
    assert first.status_code == again.status_code == 204, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_remove_policy_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_policy(client)
    stale = {"If-Match": '"5"'}
    response = call_remove_policy(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_remove_policy_of_a_missing_policy_is_404(client: TestClient) -> None:
    response = call_remove_policy(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Policy not found"


def test_create_license_answers_201_with_the_stored_license(client: TestClient) -> None:
    body = create_license_body(client)
    response = client.post("/api/v1/licenses", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    for field, value in body.items():
        assert sent(created[field], value) == value, field
    assert created["createdAt"] == created["updatedAt"]
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Location"].endswith(created["id"])


def test_create_license_rejects_name_breaking_max_length(client: TestClient) -> None:
    body = {**license_body(client), "name": "x" * 201}
    errors = errors_of(client.post("/api/v1/licenses", json=body))
    assert {"field": "name", "message": "Name allows at most 200 characters"} in errors


def test_create_license_rejects_owner_breaking_max_length(client: TestClient) -> None:
    body = {**license_body(client), "owner": "x" * 321}
    errors = errors_of(client.post("/api/v1/licenses", json=body))
    assert {
        "field": "owner",
        "message": "Owner allows at most 320 characters",
    } in errors


def test_create_license_rejects_duration_days_breaking_min(client: TestClient) -> None:
    body = {**license_body(client), "durationDays": -1}
    errors = errors_of(client.post("/api/v1/licenses", json=body))
    assert {
        "field": "durationDays",
        "message": "Duration days must be at least 0",
    } in errors


def test_create_license_rejects_duration_days_breaking_max(client: TestClient) -> None:
    body = {**license_body(client), "durationDays": 36501}
    errors = errors_of(client.post("/api/v1/licenses", json=body))
    assert {
        "field": "durationDays",
        "message": "Duration days must be at most 36500",
    } in errors


def test_create_license_rejects_max_machines_breaking_min(client: TestClient) -> None:
    body = {**license_body(client), "maxMachines": 0}
    errors = errors_of(client.post("/api/v1/licenses", json=body))
    assert {
        "field": "maxMachines",
        "message": "Max machines must be at least 1",
    } in errors


def test_create_license_rejects_max_machines_breaking_max(client: TestClient) -> None:
    body = {**license_body(client), "maxMachines": 100001}
    errors = errors_of(client.post("/api/v1/licenses", json=body))
    assert {
        "field": "maxMachines",
        "message": "Max machines must be at most 100000",
    } in errors


def test_create_license_names_every_missing_field(client: TestClient) -> None:
    errors = errors_of(client.post("/api/v1/licenses", json={}))
    assert {error["field"] for error in errors} >= {
        "policyId",
        "productId",
    }


def test_create_license_needs_an_existing_policy(client: TestClient) -> None:
    body = {**license_body(client), "policyId": str(uuid.uuid4())}
    errors = errors_of(client.post("/api/v1/licenses", json=body))
    assert "policyId" in {error["field"] for error in errors}


def test_create_license_needs_an_existing_product(client: TestClient) -> None:
    body = {**license_body(client), "productId": str(uuid.uuid4())}
    errors = errors_of(client.post("/api/v1/licenses", json=body))
    assert "productId" in {error["field"] for error in errors}


def test_create_license_refuses_a_second_license_with_the_same_key_(
    client: TestClient,
) -> None:
    first = create_license(client)
    body = {**license_body(client), "key": first["key"]}
    response = client.post("/api/v1/licenses", json=body)
    assert response.status_code == 409, response.text
    assert response.json()["type"].endswith(":duplicate")
    assert response.json()["field"] == "key"


def test_create_license_with_an_idempotency_key_makes_one_license(
    client: TestClient,
) -> None:
    body = license_body(client)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    path = "/api/v1/licenses"
    first = client.post(path, json=body, headers=key)
    again = client.post(path, json=body, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    # another value than the body's (one of the values the examples vary)
    changed = {
        **body,
        "key": next(
            v
            for v in ["A1B2C3-D4E5F6-A7B8C9-D0E1F0", "A1B2C3-D4E5F6-A7B8C9-D0E1F2"]
            if v != body["key"]
        ),
    }
    other = client.post(path, json=changed, headers=key)
    assert other.status_code == 422, other.text
    assert other.json()["title"] == "Idempotency-Key reused"


def test_list_licenses_answers_a_page(client: TestClient) -> None:
    response = client.get("/api/v1/licenses")
    assert response.status_code == 200, response.text
    assert response.json()["total"] >= 0


def test_list_licenses_lists_the_tenant_s_license_rows(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    mine = as_tenant("tenant-a")
    created = [create_license(client, mine) for _ in range(2)]
    create_license(client, as_tenant("tenant-b"))

    def listed() -> list[dict[str, Any]]:
        body: Any = client.get("/api/v1/licenses", headers=mine).json()
        return list(body["items"] if isinstance(body, dict) else body)

    rows = eventually(listed, lambda rows: len(rows) >= 2)
    assert sorted(row["id"] for row in rows) == sorted(row["id"] for row in created)
    first = client.get("/api/v1/licenses", params={"limit": 1}, headers=mine).json()
    assert first["total"] == 2
    assert len(first["items"]) == 1
    assert first["next"] is not None
    second = client.get(first["next"], headers=mine).json()
    assert second["next"] is None
    assert {first["items"][0]["id"], second["items"][0]["id"]} == {
        row["id"] for row in created
    }
    matching = client.get(
        "/api/v1/licenses", params={"policyId": created[0]["policyId"]}, headers=mine
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    matching = client.get(
        "/api/v1/licenses", params={"productId": created[0]["productId"]}, headers=mine
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    matching = client.get(
        "/api/v1/licenses", params={"status": created[0]["status"]}, headers=mine
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    matching = client.get(
        "/api/v1/licenses", params={"owner": created[0]["owner"]}, headers=mine
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    # An optional column may be null in the rows made here: filter by a value it holds.
    if created[0]["expiresAt"] is not None:
        matching = client.get(
            "/api/v1/licenses",
            params={"expiresAt": created[0]["expiresAt"]},
            headers=mine,
        ).json()
        assert created[0]["id"] in {
            row["id"]
            for row in (matching["items"] if isinstance(matching, dict) else matching)
        }
    if created[0]["expiresAt"] is not None:
        ranged = client.get(
            "/api/v1/licenses",
            params={"expiresAt.gte": created[0]["expiresAt"]},
            headers=mine,
        ).json()
        assert created[0]["id"] in {
            row["id"]
            for row in (ranged["items"] if isinstance(ranged, dict) else ranged)
        }
    for order in ("createdAt", "-createdAt"):
        assert (
            client.get(
                "/api/v1/licenses", params={"sort": order}, headers=mine
            ).status_code
            == 200
        )
    for order in ("expiresAt", "-expiresAt"):
        assert (
            client.get(
                "/api/v1/licenses", params={"sort": order}, headers=mine
            ).status_code
            == 200
        )


def test_list_licenses_refuses_a_bad_page(client: TestClient) -> None:
    response = client.get("/api/v1/licenses", params={"limit": 0})
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "limit"


def test_get_license_returns_the_stored_license(client: TestClient) -> None:
    created = create_license(client)
    response = client.get("/api/v1/licenses/{id}".format(id=created["id"]))
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/licenses/{id}".format(id=created["id"]),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_get_license_is_scoped_to_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = create_license(client, as_tenant("tenant-a"))
    path = "/api/v1/licenses/{id}".format(id=created["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_get_license_answers_404_with_a_problem(client: TestClient) -> None:
    response = client.get(f"/api/v1/licenses/{UNKNOWN_ID}")
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["detail"] == "License not found"


def test_get_license_by_key_returns_the_stored_license(client: TestClient) -> None:
    created = create_license(client)
    response = client.get("/api/v1/licenses/by-key/{key}".format(key=created["key"]))
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/licenses/by-key/{key}".format(key=created["key"]),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_update_license_changes_the_stored_license(client: TestClient) -> None:
    created = create_license(client)
    response = call_update_license(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_update_license_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_license(client)
    body = update_license_body(client)
    path = "/api/v1/licenses/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("PATCH", path, json=body, headers=key)
    again = client.request("PATCH", path, json=body, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_update_license_keeps_what_the_patch_leaves_out(client: TestClient) -> None:
    created = create_license(client)
    before = client.get("/api/v1/licenses/{id}".format(id=created["id"])).json()
    inputs: dict[str, Any] = {}
    response = client.patch(
        "/api/v1/licenses/{id}".format(
            id=created["id"],
        ),
        json=inputs,
    )
    assert response.status_code == 200, response.text
    after = client.get("/api/v1/licenses/{id}".format(id=created["id"])).json()
    assert after["name"] == before["name"]
    assert after["owner"] == before["owner"]
    assert after["metadata"] == before["metadata"]
    # an empty patch changes nothing: no event, the same version
    assert int(response.headers["ETag"].strip('"')) == 1
    assert after["updatedAt"] == before["updatedAt"]


def test_update_license_refuses_null_for_name(client: TestClient) -> None:
    created = create_license(client)
    errors = errors_of(
        call_update_license(client, created["id"], changes={"name": None})
    )
    # the answer says null is no value for it
    assert any(e["field"] == "name" and "null" in e["message"] for e in errors), errors


def test_update_license_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_license(client)
    stale = {"If-Match": '"5"'}
    response = call_update_license(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_update_license_of_a_missing_license_is_404(client: TestClient) -> None:
    response = call_update_license(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "License not found"


def test_update_license_rejects_name_breaking_max_length(client: TestClient) -> None:
    created = create_license(client)
    errors = errors_of(
        call_update_license(client, created["id"], changes={"name": "x" * 201})
    )
    assert {"field": "name", "message": "Name allows at most 200 characters"} in errors


def test_update_license_rejects_owner_breaking_max_length(client: TestClient) -> None:
    created = create_license(client)
    errors = errors_of(
        call_update_license(client, created["id"], changes={"owner": "x" * 321})
    )
    assert {
        "field": "owner",
        "message": "Owner allows at most 320 characters",
    } in errors


def test_suspend_license_changes_the_stored_license(client: TestClient) -> None:
    created = create_license(client)
    response = call_suspend_license(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_suspend_license_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_license(client)
    path = "/api/v1/licenses/{id}/actions/suspend".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("POST", path, headers=key)
    again = client.request("POST", path, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_suspend_license_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_license(client)
    stale = {"If-Match": '"5"'}
    response = call_suspend_license(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_suspend_license_is_refused_by_its_guard(client: TestClient) -> None:
    created = create_license(client)
    assert call_suspend_license(client, created["id"]).status_code < 300
    response = call_suspend_license(client, created["id"])
    assert response.status_code == 409, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["type"] == "urn:problem-type:licensing:license-not-active"


def test_suspend_license_of_a_missing_license_is_404(client: TestClient) -> None:
    response = call_suspend_license(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "License not found"


def test_reinstate_license_changes_the_stored_license(client: TestClient) -> None:
    created = create_license(client)
    assert call_suspend_license(client, created["id"]).status_code < 300
    response = call_reinstate_license(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 3


def test_reinstate_license_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_license(client)
    assert call_suspend_license(client, created["id"]).status_code < 300
    path = "/api/v1/licenses/{id}/actions/reinstate".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("POST", path, headers=key)
    again = client.request("POST", path, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_reinstate_license_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_license(client)
    assert call_suspend_license(client, created["id"]).status_code < 300
    stale = {"If-Match": '"6"'}
    response = call_reinstate_license(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_reinstate_license_is_refused_by_its_guard(client: TestClient) -> None:
    created = create_license(client)
    response = call_reinstate_license(client, created["id"])
    assert response.status_code == 409, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["type"] == "urn:problem-type:licensing:license-not-suspended"


def test_reinstate_license_of_a_missing_license_is_404(client: TestClient) -> None:
    response = call_reinstate_license(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "License not found"


def test_revoke_license_changes_the_stored_license(client: TestClient) -> None:
    created = create_license(client)
    response = call_revoke_license(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_revoke_license_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_license(client)
    path = "/api/v1/licenses/{id}/actions/revoke".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("POST", path, headers=key)
    again = client.request("POST", path, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_revoke_license_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_license(client)
    stale = {"If-Match": '"5"'}
    response = call_revoke_license(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_revoke_license_is_refused_by_its_guard(client: TestClient) -> None:
    created = create_license(client)
    assert call_revoke_license(client, created["id"]).status_code < 300
    response = call_revoke_license(client, created["id"])
    assert response.status_code == 409, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["type"] == "urn:problem-type:licensing:license-revoked"


def test_revoke_license_of_a_missing_license_is_404(client: TestClient) -> None:
    response = call_revoke_license(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "License not found"


def test_renew_license_changes_the_stored_license(client: TestClient) -> None:
    created = create_license(client)
    response = call_renew_license(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_renew_license_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_license(client)
    path = "/api/v1/licenses/{id}/actions/renew".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("POST", path, headers=key)
    again = client.request("POST", path, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_renew_license_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_license(client)
    stale = {"If-Match": '"5"'}
    response = call_renew_license(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_renew_license_is_refused_by_its_guard(client: TestClient) -> None:
    created = create_license(client)
    assert call_revoke_license(client, created["id"]).status_code < 300
    response = call_renew_license(client, created["id"])
    assert response.status_code == 409, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["type"] == "urn:problem-type:licensing:not-renewable"


def test_renew_license_of_a_missing_license_is_404(client: TestClient) -> None:
    response = call_renew_license(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "License not found"


def test_activate_machine_answers_201_with_the_stored_machine(
    client: TestClient,
) -> None:
    body = activate_machine_body(client)
    response = client.post("/api/v1/machines", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    for field, value in body.items():
        assert sent(created[field], value) == value, field
    assert created["createdAt"] == created["updatedAt"]
    assert response.headers["ETag"] == '"1"'
    assert response.headers["Location"].endswith(created["id"])


def test_activate_machine_rejects_name_breaking_max_length(client: TestClient) -> None:
    body = {**machine_body(client), "name": "x" * 201}
    errors = errors_of(client.post("/api/v1/machines", json=body))
    assert {"field": "name", "message": "Name allows at most 200 characters"} in errors


def test_activate_machine_rejects_platform_breaking_max_length(
    client: TestClient,
) -> None:
    body = {**machine_body(client), "platform": "x" * 101}
    errors = errors_of(client.post("/api/v1/machines", json=body))
    assert {
        "field": "platform",
        "message": "Platform allows at most 100 characters",
    } in errors


def test_activate_machine_names_every_missing_field(client: TestClient) -> None:
    errors = errors_of(client.post("/api/v1/machines", json={}))
    assert {error["field"] for error in errors} >= {
        "licenseId",
        "fingerprint",
    }


def test_activate_machine_needs_an_existing_license(client: TestClient) -> None:
    body = {**machine_body(client), "licenseId": str(uuid.uuid4())}
    errors = errors_of(client.post("/api/v1/machines", json=body))
    assert "licenseId" in {error["field"] for error in errors}


def test_activate_machine_refuses_a_second_machine_with_the_same_fingerprint(
    client: TestClient,
) -> None:
    first = create_machine(client)
    body = {**machine_body(client), "fingerprint": first["fingerprint"]}
    response = client.post("/api/v1/machines", json=body)
    assert response.status_code == 409, response.text
    assert response.json()["type"].endswith(":duplicate")
    assert response.json()["field"] == "fingerprint"


def test_activate_machine_with_an_idempotency_key_makes_one_machine(
    client: TestClient,
) -> None:
    body = machine_body(client)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    path = "/api/v1/machines"
    first = client.post(path, json=body, headers=key)
    again = client.post(path, json=body, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    changed = {**body, "licenseId": "00000000-0000-4000-8000-000000000001"}
    other = client.post(path, json=changed, headers=key)
    assert other.status_code == 422, other.text
    assert other.json()["title"] == "Idempotency-Key reused"


def test_list_machines_answers_a_page(client: TestClient) -> None:
    response = client.get("/api/v1/machines")
    assert response.status_code == 200, response.text
    assert response.json()["total"] >= 0


def test_list_machines_lists_the_tenant_s_machine_rows(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    mine = as_tenant("tenant-a")
    created = [create_machine(client, mine) for _ in range(2)]
    create_machine(client, as_tenant("tenant-b"))

    def listed() -> list[dict[str, Any]]:
        body: Any = client.get("/api/v1/machines", headers=mine).json()
        return list(body["items"] if isinstance(body, dict) else body)

    rows = eventually(listed, lambda rows: len(rows) >= 2)
    assert sorted(row["id"] for row in rows) == sorted(row["id"] for row in created)
    first = client.get("/api/v1/machines", params={"limit": 1}, headers=mine).json()
    assert first["total"] == 2
    assert len(first["items"]) == 1
    assert first["next"] is not None
    second = client.get(first["next"], headers=mine).json()
    assert second["next"] is None
    assert {first["items"][0]["id"], second["items"][0]["id"]} == {
        row["id"] for row in created
    }
    matching = client.get(
        "/api/v1/machines", params={"licenseId": created[0]["licenseId"]}, headers=mine
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    matching = client.get(
        "/api/v1/machines",
        params={"fingerprint": created[0]["fingerprint"]},
        headers=mine,
    ).json()
    assert created[0]["id"] in {
        row["id"]
        for row in (matching["items"] if isinstance(matching, dict) else matching)
    }
    for order in ("createdAt", "-createdAt"):
        assert (
            client.get(
                "/api/v1/machines", params={"sort": order}, headers=mine
            ).status_code
            == 200
        )


def test_list_machines_refuses_a_bad_page(client: TestClient) -> None:
    response = client.get("/api/v1/machines", params={"limit": 0})
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "limit"


def test_get_machine_returns_the_stored_machine(client: TestClient) -> None:
    created = create_machine(client)
    response = client.get("/api/v1/machines/{id}".format(id=created["id"]))
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/machines/{id}".format(id=created["id"]),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_get_machine_is_scoped_to_the_tenant(
    client: TestClient, as_tenant: TenantHeaders
) -> None:
    created = create_machine(client, as_tenant("tenant-a"))
    path = "/api/v1/machines/{id}".format(id=created["id"])
    assert client.get(path, headers=as_tenant("tenant-a")).status_code == 200
    assert client.get(path, headers=as_tenant("tenant-b")).status_code == 404


def test_get_machine_answers_404_with_a_problem(client: TestClient) -> None:
    response = client.get(f"/api/v1/machines/{UNKNOWN_ID}")
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["detail"] == "Machine not found"


def test_get_machine_by_fingerprint_returns_the_stored_machine(
    client: TestClient,
) -> None:
    created = create_machine(client)
    response = client.get(
        "/api/v1/machines/by-fingerprint/{fingerprint}".format(
            fingerprint=created["fingerprint"]
        )
    )
    assert response.status_code == 200
    assert response.json() == created
    tag = response.headers["ETag"]
    unchanged = client.get(
        "/api/v1/machines/by-fingerprint/{fingerprint}".format(
            fingerprint=created["fingerprint"]
        ),
        headers={"If-None-Match": tag},
    )
    assert unchanged.status_code == 304


def test_heartbeat_machine_changes_the_stored_machine(client: TestClient) -> None:
    created = create_machine(client)
    response = call_heartbeat_machine(client, created["id"])
    assert response.status_code == 200, response.text
    assert response.json()["updatedAt"] >= created["updatedAt"]
    assert response.json()["createdAt"] == created["createdAt"]
    assert int(response.headers["ETag"].strip('"')) == 2


def test_heartbeat_machine_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_machine(client)
    path = "/api/v1/machines/{id}/actions/ping".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("POST", path, headers=key)
    again = client.request("POST", path, headers=key)
    assert first.status_code == again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_heartbeat_machine_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_machine(client)
    stale = {"If-Match": '"5"'}
    response = call_heartbeat_machine(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_heartbeat_machine_of_a_missing_machine_is_404(client: TestClient) -> None:
    response = call_heartbeat_machine(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Machine not found"


def test_deactivate_machine_changes_the_stored_machine(client: TestClient) -> None:
    created = create_machine(client)
    response = call_deactivate_machine(client, created["id"])
    assert response.status_code == 204, response.text
    assert int(response.headers["ETag"].strip('"')) == 2
    assert (
        client.get("/api/v1/machines/{id}".format(id=created["id"])).status_code == 404
    )
    assert call_deactivate_machine(client, created["id"]).status_code == 404


def test_deactivate_machine_with_the_same_idempotency_key_is_replayed(
    client: TestClient,
) -> None:
    created = create_machine(client)
    path = "/api/v1/machines/{id}".format(
        id=created["id"],
    )
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.request("DELETE", path, headers=key)
    again = client.request("DELETE", path, headers=key)
    assert first.status_code == again.status_code == 204, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_deactivate_machine_of_a_version_not_read_is_412(client: TestClient) -> None:
    created = create_machine(client)
    stale = {"If-Match": '"5"'}
    response = call_deactivate_machine(client, created["id"], stale)
    assert response.status_code == 412
    assert response.headers["content-type"] == PROBLEM_TYPE


def test_deactivate_machine_of_a_missing_machine_is_404(client: TestClient) -> None:
    response = call_deactivate_machine(client, UNKNOWN_ID)
    assert response.status_code == 404
    assert response.json()["detail"] == "Machine not found"


def test_service_health(client: TestClient) -> None:
    response = client.get("/api/v1/licensings/health")
    assert response.json() == {"status": "UP", "service": "licensing"}


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
    assert "post" in paths["/api/v1/products"]
    assert "get" in paths["/api/v1/products"]
    assert "get" in paths["/api/v1/products/{id}"]
    assert "put" in paths["/api/v1/products/{id}"]
    assert "delete" in paths["/api/v1/products/{id}"]
    assert "post" in paths["/api/v1/policies"]
    assert "get" in paths["/api/v1/policies"]
    assert "get" in paths["/api/v1/policies/{id}"]
    assert "put" in paths["/api/v1/policies/{id}"]
    assert "delete" in paths["/api/v1/policies/{id}"]
    assert "post" in paths["/api/v1/licenses"]
    assert "get" in paths["/api/v1/licenses"]
    assert "get" in paths["/api/v1/licenses/{id}"]
    assert "get" in paths["/api/v1/licenses/by-key/{key}"]
    assert "patch" in paths["/api/v1/licenses/{id}"]
    assert "post" in paths["/api/v1/licenses/{id}/actions/suspend"]
    assert "post" in paths["/api/v1/licenses/{id}/actions/reinstate"]
    assert "post" in paths["/api/v1/licenses/{id}/actions/revoke"]
    assert "post" in paths["/api/v1/licenses/{id}/actions/renew"]
    assert "post" in paths["/api/v1/machines"]
    assert "get" in paths["/api/v1/machines"]
    assert "get" in paths["/api/v1/machines/{id}"]
    assert "get" in paths["/api/v1/machines/by-fingerprint/{fingerprint}"]
    assert "post" in paths["/api/v1/machines/{id}/actions/ping"]
    assert "delete" in paths["/api/v1/machines/{id}"]
