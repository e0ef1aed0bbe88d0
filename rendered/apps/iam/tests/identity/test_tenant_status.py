"""Tenants over HTTP: listing and reading them, and suspending one, which cuts its
users and clients off from tokens until it is reactivated."""

from typing import Any

from tests.identity.conftest import ADMIN_PASSWORD, Iam, bearer, eventually
from tests.identity.test_tokens import INTROSPECT, TOKEN, basic, create_client

TENANTS = "/api/v1/tenants"
UNKNOWN_TENANT = "00000000-0000-0000-0000-000000000000"


def set_status(iam: Iam, tenant_id: str, status: str, token: str | None = None) -> Any:
    return iam.http.patch(
        f"{TENANTS}/{tenant_id}",
        json={"status": status},
        headers=bearer(token or iam.platform_token()),
    )


def test_a_platform_admin_lists_every_tenant_at_once(iam: Iam) -> None:
    globex = iam.create_tenant("Globex")
    acme = iam.create_tenant("acme")

    response = iam.http.get(TENANTS, headers=bearer(iam.platform_token()))

    assert response.status_code == 200
    assert response.json() == [acme, globex]


def test_only_platform_admins_list_tenants(iam: Iam) -> None:
    _, admin = iam.tenant_admin("Acme")

    forbidden = iam.http.get(TENANTS, headers=bearer(admin))
    anonymous = iam.http.get(TENANTS)

    assert forbidden.status_code == 403
    assert forbidden.json()["detail"] == "platform operators only"
    assert anonymous.status_code == 401


def test_a_tenant_is_visible_to_platform_admins_and_its_own_admin(iam: Iam) -> None:
    acme = iam.create_tenant("Acme")
    acme_id = acme["tenantId"]
    acme_admin = iam.access_token(acme_id, "admin", ADMIN_PASSWORD)
    _, globex_admin = iam.tenant_admin("Globex")
    iam.create_user(acme_id, acme_admin, "alice")
    alice = iam.access_token(acme_id, "alice", "user-password-1")
    platform = iam.platform_token()

    def read(token: str, tenant_id: str = acme_id) -> Any:
        return iam.http.get(f"{TENANTS}/{tenant_id}", headers=bearer(token))

    assert read(platform).json() == acme
    assert read(acme_admin).json() == acme
    assert read(globex_admin).status_code == 404
    assert read(platform, UNKNOWN_TENANT).status_code == 404
    assert read(alice).status_code == 403


def test_a_platform_admin_suspends_and_reactivates_a_tenant(iam: Iam) -> None:
    tenant_id = iam.create_tenant("Acme")["tenantId"]
    platform = iam.platform_token()

    suspended = set_status(iam, tenant_id, "SUSPENDED")

    assert suspended.status_code == 200, suspended.text
    assert suspended.json()["status"] == "SUSPENDED"
    read = iam.http.get(f"{TENANTS}/{tenant_id}", headers=bearer(platform))
    assert read.json()["status"] == "SUSPENDED"
    listed = iam.http.get(TENANTS, headers=bearer(platform)).json()
    assert [tenant["status"] for tenant in listed] == ["SUSPENDED"]
    assert set_status(iam, tenant_id, "ACTIVE").json()["status"] == "ACTIVE"


def test_only_platform_admins_change_a_tenants_status(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")

    own = set_status(iam, tenant_id, "SUSPENDED", admin)
    unknown = set_status(iam, UNKNOWN_TENANT, "SUSPENDED")
    bad = set_status(iam, tenant_id, "CLOSED")

    assert own.status_code == 403
    assert unknown.status_code == 404
    assert bad.status_code == 422
    assert bad.json()["errors"] == [
        {"field": "status", "message": "Input should be 'ACTIVE' or 'SUSPENDED'"}
    ]


def test_a_role_granting_tenant_writes_does_not_make_a_platform_admin(iam: Iam) -> None:
    """A tenant's administrator may give a role any permission, iam-tenants:write too:
    the tenant's status still changes only by a platform administrator's token."""
    tenant_id, admin = iam.tenant_admin("Acme")
    role = iam.http.post(
        f"{TENANTS}/{tenant_id}/roles",
        json={"name": "tenant-ops", "permissions": ["iam-tenants:*"]},
        headers=bearer(admin),
    )
    assert role.status_code == 201, role.text
    assert iam.create_user(tenant_id, admin, "ops", roles=["tenant-ops"]).is_success
    ops = iam.access_token(tenant_id, "ops", "user-password-1")

    refused = set_status(iam, tenant_id, "SUSPENDED", ops)

    assert refused.status_code == 403
    assert refused.json()["detail"] == "platform operators only"
    read = iam.http.get(f"{TENANTS}/{tenant_id}", headers=bearer(ops))
    assert read.json()["status"] == "ACTIVE"


def test_a_suspended_tenant_gets_no_tokens(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    secret = create_client(iam, tenant_id, admin, ["user"])
    refresh_token = iam.token(tenant_id, "admin", ADMIN_PASSWORD).json()[
        "refresh_token"
    ]

    set_status(iam, tenant_id, "SUSPENDED")

    login = iam.token(tenant_id, "admin", ADMIN_PASSWORD)
    client = iam.http.post(
        TOKEN,
        data={"grant_type": "client_credentials", "tenant": tenant_id},
        headers=basic("billing", secret),
    )
    refreshed = iam.http.post(
        TOKEN, data={"grant_type": "refresh_token", "refresh_token": refresh_token}
    )
    assert login.status_code == 400
    assert login.json()["error"] == "invalid_grant"
    assert client.status_code == 401
    assert client.json()["error"] == "invalid_client"
    assert refreshed.status_code == 400
    assert refreshed.json()["error"] == "invalid_grant"

    # reactivated, everything works again: the refresh token was not spent
    set_status(iam, tenant_id, "ACTIVE")
    assert iam.token(tenant_id, "admin", ADMIN_PASSWORD).status_code == 200
    again = iam.http.post(
        TOKEN, data={"grant_type": "refresh_token", "refresh_token": refresh_token}
    )
    assert again.status_code == 200, again.text


def test_a_suspended_tenants_access_tokens_stop_working(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    platform = iam.platform_token()

    set_status(iam, tenant_id, "SUSPENDED", platform)

    introspected = iam.http.post(
        INTROSPECT, data={"token": admin}, headers=bearer(platform)
    )
    used = iam.http.get(f"{TENANTS}/{tenant_id}/users", headers=bearer(admin))
    assert introspected.json() == {"active": False}
    assert used.status_code == 401
    # platform administrators still manage the suspended tenant
    managed = iam.http.get(f"{TENANTS}/{tenant_id}/users", headers=bearer(platform))
    assert managed.status_code == 200


def test_a_tenant_admin_cannot_grant_itself_platform_powers(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    role = iam.http.post(
        f"{TENANTS}/{tenant_id}/roles",
        json={"name": "almighty", "permissions": ["*:*"]},
        headers=bearer(admin),
    )
    assert role.status_code == 201, role.text
    admin_id = eventually(
        lambda: next(
            (
                user["userId"]
                for user in iam.http.get(
                    f"{TENANTS}/{tenant_id}/users", headers=bearer(admin)
                ).json()
                if user["username"] == "admin"
            ),
            None,
        )
    )
    iam.http.patch(
        f"{TENANTS}/{tenant_id}/users/{admin_id}",
        json={"roles": ["tenant-admin", "almighty"]},
        headers=bearer(admin),
    )
    almighty = iam.access_token(tenant_id, "admin", ADMIN_PASSWORD)

    attempts = [
        iam.http.get(TENANTS, headers=bearer(almighty)),
        set_status(iam, tenant_id, "SUSPENDED", almighty),
        iam.http.post(
            TENANTS,
            json={
                "name": "Other",
                "adminUsername": "admin",
                "adminEmail": "admin@other.example",
                "adminPassword": ADMIN_PASSWORD,
            },
            headers=bearer(almighty),
        ),
        iam.http.post("/api/v1/auth/keys/rotate", headers=bearer(almighty)),
    ]

    assert [attempt.status_code for attempt in attempts] == [403] * 4
