"""Tenants (platform administrators only) and the users of a tenant."""

from typing import Any
from uuid import UUID, uuid5

import pytest
from eaf import context
from eaf.eventsourcing import StoredEvent

from tests.identity.conftest import ADMIN_PASSWORD, Iam, bearer, eventually

PROBLEM_TYPE = "application/problem+json"
#: The namespace of the IAM's name-derived ids (specs/iam.yaml, the keys' namespace).
NAMESPACE = UUID("8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91")


def stored_events(iam: Iam, tenant_id: str) -> list[StoredEvent]:
    async def read() -> list[StoredEvent]:
        with context.use(context.SecurityContext(tenant_id=tenant_id)):
            events: list[StoredEvent] = await iam.http.app.state.store.read_all()  # type: ignore[attr-defined]
            return events

    return iam.http.portal.call(read)  # type: ignore[union-attr]


def test_a_platform_admin_creates_a_tenant_in_its_own_scope(iam: Iam) -> None:
    body = iam.create_tenant("Acme")

    assert set(body) == {
        "tenantId",
        "name",
        "status",
        "createdAt",
        "updatedAt",
        "adminUserId",
    }
    assert body["name"] == "Acme"
    assert body["status"] == "ACTIVE"
    created = [
        event
        for event in stored_events(iam, body["tenantId"])
        if event.event_type == "TenantCreatedEvent"
    ]
    assert len(created) == 1
    assert created[0].tenant_id == body["tenantId"]
    assert created[0].payload["name"] == "Acme"
    assert created[0].payload["admin_user_id"] == body["adminUserId"]
    assert str(created[0].payload["tenant_id"]) == body["tenantId"]


def test_the_tenant_admin_can_log_in_with_tenant_id_or_name(iam: Iam) -> None:
    body = iam.create_tenant("Acme")

    for tenant in (body["tenantId"], "Acme", "acme"):
        assert iam.token(tenant, "admin", ADMIN_PASSWORD).status_code == 200


def test_only_platform_admins_create_tenants(iam: Iam) -> None:
    _, admin = iam.tenant_admin("Acme")
    request = {
        "name": "Other",
        "adminUsername": "admin",
        "adminEmail": "a@b.c",
        "adminPassword": ADMIN_PASSWORD,
    }

    forbidden = iam.http.post("/api/v1/tenants", json=request, headers=bearer(admin))
    anonymous = iam.http.post("/api/v1/tenants", json=request)

    assert forbidden.status_code == 403
    assert forbidden.headers["content-type"] == PROBLEM_TYPE
    assert anonymous.status_code == 401
    assert anonymous.headers["www-authenticate"] == "Bearer"


def test_a_tenant_name_is_unique_whatever_its_case(iam: Iam) -> None:
    iam.create_tenant("Acme")

    response = iam.http.post(
        "/api/v1/tenants",
        json={
            "name": "ACME",
            "adminUsername": "boss",
            "adminEmail": "boss@acme.example",
            "adminPassword": ADMIN_PASSWORD,
        },
        headers=bearer(iam.platform_token()),
    )

    assert response.status_code == 409
    assert response.headers["content-type"] == PROBLEM_TYPE
    assert response.json()["status"] == 409


@pytest.mark.parametrize("name", ["platform", "Platform", " PLATFORM "])
def test_no_tenant_is_named_platform(iam: Iam, name: str) -> None:
    response = iam.http.post(
        "/api/v1/tenants",
        json={
            "name": name,
            "adminUsername": "boss",
            "adminEmail": "boss@example.com",
            "adminPassword": ADMIN_PASSWORD,
        },
        headers=bearer(iam.platform_token()),
    )

    assert response.status_code == 422
    assert response.json()["field"] == "name"


def test_a_tenant_admin_manages_users(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")

    created = iam.create_user(
        tenant_id, admin, "alice", attributes={"department": "sales"}
    )
    assert created.status_code == 201, created.text
    alice: dict[str, Any] = created.json()
    assert alice["tenantId"] == tenant_id
    assert alice["roles"] == ["user"]
    assert alice["attributes"] == {"department": "sales"}
    assert alice["status"] == "ACTIVE"
    assert "password" not in alice and "passwordHash" not in alice
    users = f"/api/v1/tenants/{tenant_id}/users"
    one = f"{users}/{alice['userId']}"

    assert iam.http.get(one, headers=bearer(admin)).json()["username"] == "alice"
    listed = eventually(
        lambda: [
            (user["username"], user["status"])
            for user in iam.http.get(users, headers=bearer(admin)).json()
            if user["username"] == "alice"
        ]
    )
    assert listed == [("alice", "ACTIVE")]

    patched = iam.http.patch(
        one,
        json={"roles": ["tenant-admin", "user"], "attributes": {"level": "3"}},
        headers=bearer(admin),
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["roles"] == ["tenant-admin", "user"]
    assert patched.json()["attributes"] == {"level": "3"}

    assert iam.http.delete(one, headers=bearer(admin)).status_code == 204
    assert iam.http.get(one, headers=bearer(admin)).status_code == 404
    eventually(
        lambda: all(
            user["username"] != "alice"
            for user in iam.http.get(users, headers=bearer(admin)).json()
        )
    )
    assert iam.token(tenant_id, "alice", "user-password-1").status_code == 400


def test_a_disabled_user_cannot_log_in(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    alice = iam.create_user(tenant_id, admin, "alice").json()

    iam.http.patch(
        f"/api/v1/tenants/{tenant_id}/users/{alice['userId']}",
        json={"status": "DISABLED"},
        headers=bearer(admin),
    )

    assert iam.token(tenant_id, "alice", "user-password-1").json() == {
        "error": "invalid_grant",
        "error_description": "invalid tenant, username or password",
    }


def test_a_patch_changes_the_password_and_never_deletes(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    alice = iam.create_user(tenant_id, admin, "alice").json()
    one = f"/api/v1/tenants/{tenant_id}/users/{alice['userId']}"

    renamed = iam.http.patch(
        one, json={"attributes": {"a": "b"}}, headers=bearer(admin)
    )
    kept = iam.token(tenant_id, "alice", "user-password-1")
    short = iam.http.patch(one, json={"password": "short"}, headers=bearer(admin))
    changed = iam.http.patch(
        one, json={"password": "another-password-2"}, headers=bearer(admin)
    )
    deleted = iam.http.patch(one, json={"status": "DELETED"}, headers=bearer(admin))
    unknown = iam.http.patch(one, json={"status": "LOCKED"}, headers=bearer(admin))

    assert renamed.status_code == 200 and kept.status_code == 200, kept.text
    assert short.status_code == 422
    assert short.json()["errors"] == [
        {"field": "password", "message": "Password is at least 8 characters"}
    ]
    assert changed.status_code == 200 and "password" not in changed.json()
    assert iam.token(tenant_id, "alice", "user-password-1").status_code == 400
    assert iam.token(tenant_id, "alice", "another-password-2").status_code == 200
    assert deleted.status_code == unknown.status_code == 422
    assert deleted.json()["detail"] == "Status is one of ACTIVE, DISABLED"
    assert iam.http.get(one, headers=bearer(admin)).json()["status"] == "ACTIVE"


def test_users_and_service_accounts_keep_the_ids_they_were_given_before(
    iam: Iam,
) -> None:
    """The spec's keys make the ids the hand-written directory made (stored data, and
    the tokens' subjects, refer to them)."""
    tenant_id, admin = iam.tenant_admin("Acme")

    alice = iam.create_user(tenant_id, admin, "Alice").json()
    batch = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/service-accounts",
        json={"clientId": "batch"},
        headers=bearer(admin),
    ).json()

    assert alice["userId"] == str(uuid5(NAMESPACE, f"{tenant_id}/alice"))
    assert batch["serviceAccountId"] == str(
        uuid5(NAMESPACE, f"{tenant_id}/client/batch")
    )


def test_a_username_is_unique_in_its_tenant(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    iam.create_user(tenant_id, admin, "alice")

    again = iam.create_user(tenant_id, admin, "Alice")

    assert again.status_code == 409
    assert again.headers["content-type"] == PROBLEM_TYPE


def test_unknown_roles_and_bad_fields_are_rejected(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")

    unknown_role = iam.create_user(tenant_id, admin, "alice", roles=["wizard"])
    bad_email = iam.create_user(tenant_id, admin, "bob", email="nope")
    short_password = iam.create_user(tenant_id, admin, "carol", password="short")

    assert unknown_role.status_code == 422
    assert "wizard" in unknown_role.json()["detail"]
    assert bad_email.status_code == 422
    assert short_password.status_code == 422


def test_another_tenant_is_not_found(iam: Iam) -> None:
    acme_id, acme_admin = iam.tenant_admin("Acme")
    globex_id, globex_admin = iam.tenant_admin("Globex")
    alice = iam.create_user(acme_id, acme_admin, "alice").json()

    read = iam.http.get(
        f"/api/v1/tenants/{acme_id}/users/{alice['userId']}",
        headers=bearer(globex_admin),
    )
    write = iam.create_user(acme_id, globex_admin, "mallory")
    listed = iam.http.get(
        f"/api/v1/tenants/{acme_id}/users", headers=bearer(globex_admin)
    )
    # the right tenant, but a user id of another tenant
    crossed = iam.http.get(
        f"/api/v1/tenants/{globex_id}/users/{alice['userId']}",
        headers=bearer(globex_admin),
    )

    assert read.status_code == write.status_code == listed.status_code == 404
    assert crossed.status_code == 404


def test_a_plain_user_may_not_manage_users(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    iam.create_user(tenant_id, admin, "alice")
    alice = iam.access_token(tenant_id, "alice", "user-password-1")

    response = iam.create_user(tenant_id, alice, "bob")

    assert response.status_code == 403
    assert response.json()["detail"] == "missing permission iam-users:write"


def test_a_platform_admin_manages_any_tenants_users(iam: Iam) -> None:
    tenant_id, _ = iam.tenant_admin("Acme")

    response = iam.create_user(tenant_id, iam.platform_token(), "alice")
    missing = iam.create_user(
        "00000000-0000-0000-0000-000000000000", iam.platform_token(), "alice"
    )

    assert response.status_code == 201
    assert missing.status_code == 404
