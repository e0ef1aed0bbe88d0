"""LDAP federation against a real slapd: the provider's settings through the API, sign-in
by bind through the token endpoint, and the sync of users and groups."""

import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from eaf.security import TokenVerifier

from tests.identity.conftest import Iam, bearer, eventually
from tests.identity.ldap_server import (
    ADMIN_DN,
    ADMIN_PASSWORD,
    GROUPS_DN,
    USERS_DN,
    Slapd,
    slapd_missing,
)
from tests.identity.test_tenants_and_users import stored_events

pytestmark = pytest.mark.skipif(
    slapd_missing() is not None, reason=str(slapd_missing())
)

ALICE_PASSWORD = "alice-directory-1"
BOB_PASSWORD = "bob-directory-1"


@pytest.fixture
def slapd(tmp_path: Path) -> Iterator[Slapd]:
    server = Slapd.start_in(tmp_path / "slapd")
    alice = server.add_user("alice", ALICE_PASSWORD, cn="Alice Liddell")
    bob = server.add_user("bob", BOB_PASSWORD)
    server.add_group("admins", alice)
    server.add_group("developers", alice, bob)
    try:
        yield server
    finally:
        server.stop()


def settings(slapd: Slapd, **overrides: Any) -> dict[str, Any]:
    return {
        "urls": [slapd.url],
        "bindDn": ADMIN_DN,
        "bindCredential": ADMIN_PASSWORD,
        "usersDn": USERS_DN,
        "groupsDn": GROUPS_DN,
        "groupRoles": {"admins": ["tenant-admin"], "developers": ["developer"]},
        **overrides,
    }


def ldap_tenant(
    iam: Iam, slapd: Slapd, name: str = "Acme", **overrides: Any
) -> tuple[str, str]:
    """A tenant with a ``developer`` role and an LDAP provider; its id and admin token."""
    tenant_id, admin = iam.tenant_admin(name)
    role = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/roles",
        json={"name": "developer", "permissions": ["user-profile:write"]},
        headers=bearer(admin),
    )
    assert role.status_code == 201, role.text
    configured = iam.http.put(
        f"/api/v1/tenants/{tenant_id}/ldap",
        json=settings(slapd, **overrides),
        headers=bearer(admin),
    )
    assert configured.status_code == 201, configured.text
    return tenant_id, admin


def claims(iam: Iam, token: str) -> dict[str, Any]:
    verifier: TokenVerifier = iam.http.app.state.tokens._verifier  # type: ignore[attr-defined]
    verified = iam.http.portal.call(verifier.verify, token)  # type: ignore[union-attr]
    return dict(verified.raw)


def users(iam: Iam, tenant_id: str, admin: str) -> dict[str, dict[str, Any]]:
    listed = iam.http.get(f"/api/v1/tenants/{tenant_id}/users", headers=bearer(admin))
    return {user["username"]: user for user in listed.json()}


def users_when(
    iam: Iam,
    tenant_id: str,
    admin: str,
    ready: Callable[[dict[str, dict[str, Any]]], bool],
) -> dict[str, dict[str, Any]]:
    """The users once ``ready`` holds for them (the listing is a read model)."""

    def probe() -> dict[str, dict[str, Any]] | None:
        found = users(iam, tenant_id, admin)
        return found if ready(found) else None

    return eventually(probe)


def event_types(iam: Iam, tenant_id: str) -> list[str]:
    return [event.event_type for event in stored_events(iam, tenant_id)]


def test_the_provider_is_configured_without_revealing_its_credential(
    iam: Iam, slapd: Slapd
) -> None:
    tenant_id, admin = ldap_tenant(iam, slapd)

    read = iam.http.get(f"/api/v1/tenants/{tenant_id}/ldap", headers=bearer(admin))
    changed = iam.http.put(
        f"/api/v1/tenants/{tenant_id}/ldap",
        json={**settings(slapd), "readTimeoutSeconds": 3},
        headers=bearer(admin),
    )

    assert read.status_code == 200
    body = read.json()
    assert body["bindCredentialSet"] is True
    assert ADMIN_PASSWORD not in read.text
    assert body["usernameAttribute"] == "uid"
    assert body["uuidAttribute"] == "entryUUID"
    assert changed.status_code == 200, changed.text
    assert changed.json()["readTimeoutSeconds"] == 3
    stored = stored_events(iam, tenant_id)
    configured = [e for e in stored if e.event_type == "LdapProviderConfigured"]
    assert len(configured) == 2
    assert ADMIN_PASSWORD not in str([event.payload for event in stored])
    # the stored credential still works: a sign-in binds with it
    assert iam.token(tenant_id, "alice", ALICE_PASSWORD).status_code == 200
    deleted = iam.http.delete(
        f"/api/v1/tenants/{tenant_id}/ldap", headers=bearer(admin)
    )
    assert deleted.status_code == 204
    assert "LdapProviderRemoved" in event_types(iam, tenant_id)
    gone = iam.http.get(f"/api/v1/tenants/{tenant_id}/ldap", headers=bearer(admin))
    assert gone.status_code == 404


def test_invalid_settings_are_answered_with_every_invalid_field(
    iam: Iam, slapd: Slapd
) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")

    response = iam.http.put(
        f"/api/v1/tenants/{tenant_id}/ldap",
        json={
            "urls": ["http://example.org", "ldaps://ok.example.org"],
            "bindDn": " ",
            "bindCredential": "",
            "usersDn": USERS_DN,
            "startTls": True,
            "usernameAttribute": "uid)(x",
            "vendor": "novell",
            "connectTimeoutSeconds": 0,
            "firstSignIn": "always",
            "caCertificate": "not a certificate",
            "groupRoles": {"admins": ["no-such-role"]},
        },
        headers=bearer(admin),
    )

    assert response.status_code == 422, response.text
    fields = {problem["field"] for problem in response.json()["errors"]}
    assert fields >= {
        "urls.0",
        "urls.1",
        "bindDn",
        "bindCredential",
        "usernameAttribute",
        "vendor",
        "connectTimeoutSeconds",
        "firstSignIn",
        "caCertificate",
        "groupRoles",
    }
    # a timeout is a JSON number: true is no 1.0
    boolean = iam.http.put(
        f"/api/v1/tenants/{tenant_id}/ldap",
        json={**settings(slapd), "readTimeoutSeconds": True},
        headers=bearer(admin),
    )
    assert boolean.status_code == 422, boolean.text
    assert [e["field"] for e in boolean.json()["errors"]] == ["readTimeoutSeconds"]


def test_a_tenant_admin_permission_is_required_and_other_tenants_see_nothing(
    iam: Iam, slapd: Slapd
) -> None:
    tenant_id, _ = ldap_tenant(iam, slapd)
    other_id, other_admin = iam.tenant_admin("Other")
    user = iam.create_user(other_id, other_admin, "carol")
    assert user.status_code == 201
    carol = iam.access_token(other_id, "carol", "user-password-1")

    foreign = iam.http.get(
        f"/api/v1/tenants/{tenant_id}/ldap", headers=bearer(other_admin)
    )
    own = iam.http.get(f"/api/v1/tenants/{other_id}/ldap", headers=bearer(other_admin))
    not_admin = iam.http.put(
        f"/api/v1/tenants/{other_id}/ldap", json=settings(slapd), headers=bearer(carol)
    )

    assert foreign.status_code == 404
    assert own.status_code == 404
    assert not_admin.status_code == 403
    # the other tenant has no LDAP: the directory's users do not sign in there
    assert (
        iam.token(other_id, "alice", ALICE_PASSWORD).json()["error"] == "invalid_grant"
    )


def test_an_ldap_user_signs_in_with_the_directory_password_and_mapped_roles(
    iam: Iam, slapd: Slapd
) -> None:
    tenant_id, admin = ldap_tenant(iam, slapd)

    response = iam.token(tenant_id, "alice", ALICE_PASSWORD)

    assert response.status_code == 200, response.text
    token = claims(iam, response.json()["access_token"])
    assert set(token["roles"]) == {"user", "tenant-admin", "developer"}
    assert "user-profile:write" in token["permissions"]
    assert "iam-users:*" in token["permissions"]
    alice = eventually(lambda: users(iam, tenant_id, admin).get("alice"))
    assert alice["attributes"] == {
        "email": "alice@example.org",
        "name": "Alice Liddell",
    }
    types = event_types(iam, tenant_id)
    assert types.count("UserCreated") == 2  # the tenant admin and alice
    assert types.count("UserFederated") == 1
    # the second sign-in finds the same user
    again = iam.token(tenant_id, "alice", ALICE_PASSWORD)
    assert again.status_code == 200
    assert event_types(iam, tenant_id).count("UserFederated") == 1
    # local users keep signing in with their own password
    assert iam.token(tenant_id, "admin", "admin-password-1").status_code == 200


@pytest.mark.parametrize(
    "username",
    ["*", "*)(uid=*))(|(uid=*", "alice)(|(uid=*", "al*", "alice\x00"],
)
def test_a_filter_in_the_username_matches_nobody(
    iam: Iam, slapd: Slapd, username: str
) -> None:
    tenant_id, _ = ldap_tenant(iam, slapd)

    response = iam.token(tenant_id, username, ALICE_PASSWORD)

    assert response.status_code == 400
    assert response.json()["error"] == "invalid_grant"
    assert event_types(iam, tenant_id).count("UserCreated") == 1  # the admin
    assert "UserFederated" not in event_types(iam, tenant_id)


def test_a_wrong_or_empty_password_is_an_invalid_grant_and_creates_nobody(
    iam: Iam, slapd: Slapd
) -> None:
    tenant_id, _ = ldap_tenant(iam, slapd)
    local_wrong = iam.token(tenant_id, "admin", "not-the-password")

    wrong = iam.token(tenant_id, "alice", "wrong-password-1")
    empty = iam.token(tenant_id, "alice", "")
    tokens = iam.http.app.state.tokens  # type: ignore[attr-defined]
    # the function the grant (and any login page) checks passwords with
    unbound = iam.http.portal.call(tokens.verify_password, tenant_id, "alice", "")  # type: ignore[union-attr]

    assert wrong.status_code == 400
    assert wrong.json() == local_wrong.json()
    assert empty.status_code == 400
    assert unbound is None
    assert "UserFederated" not in event_types(iam, tenant_id)


def test_an_unreachable_directory_is_a_clear_error_and_creates_nobody(
    iam: Iam, slapd: Slapd
) -> None:
    tenant_id, admin = ldap_tenant(iam, slapd)
    slapd.stop()

    response = iam.token(tenant_id, "alice", ALICE_PASSWORD)
    sync = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/ldap/sync", headers=bearer(admin)
    )

    assert response.status_code == 503
    assert response.json()["error"] == "temporarily_unavailable"
    assert "cannot be reached" in response.json()["error_description"]
    assert sync.status_code == 503
    assert sync.headers["content-type"] == "application/problem+json"
    assert "UserFederated" not in event_types(iam, tenant_id)


def test_a_directory_that_does_not_answer_times_out(iam: Iam, slapd: Slapd) -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        tenant_id, _ = ldap_tenant(
            iam, slapd, urls=[f"ldap://127.0.0.1:{port}"], readTimeoutSeconds=1
        )
        started = time.monotonic()

        response = iam.token(tenant_id, "alice", ALICE_PASSWORD)

    assert response.status_code == 503
    assert response.json()["error"] == "temporarily_unavailable"
    assert time.monotonic() - started < 5
    assert "UserFederated" not in event_types(iam, tenant_id)


def test_a_refused_service_bind_is_a_clear_error(iam: Iam, slapd: Slapd) -> None:
    tenant_id, admin = ldap_tenant(iam, slapd, bindCredential="not-the-password")

    response = iam.token(tenant_id, "alice", ALICE_PASSWORD)
    sync = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/ldap/sync", headers=bearer(admin)
    )

    assert response.status_code == 503
    assert "service bind" in response.json()["error_description"]
    assert sync.status_code == 503
    assert "service bind" in sync.json()["detail"]


def test_starttls_and_ldaps_verify_the_directory_with_the_ca(
    iam: Iam, slapd: Slapd
) -> None:
    starttls_id, _ = ldap_tenant(
        iam, slapd, "StartTls", startTls=True, caCertificate=slapd.ca_pem
    )
    ldaps_id, _ = ldap_tenant(
        iam, slapd, "Ldaps", urls=[slapd.ldaps_url], caCertificate=slapd.ca_pem
    )
    untrusted_id, _ = ldap_tenant(iam, slapd, "Untrusted", urls=[slapd.ldaps_url])

    assert iam.token(starttls_id, "alice", ALICE_PASSWORD).status_code == 200
    assert iam.token(ldaps_id, "bob", BOB_PASSWORD).status_code == 200
    refused = iam.token(untrusted_id, "alice", ALICE_PASSWORD)
    assert refused.status_code == 503
    assert "TLS failed" in refused.json()["error_description"]
    assert "UserFederated" not in event_types(iam, untrusted_id)


def test_a_full_sync_imports_users_with_roles_and_disables_deleted_ones(
    iam: Iam, slapd: Slapd
) -> None:
    tenant_id, admin = ldap_tenant(iam, slapd)
    sync_url = f"/api/v1/tenants/{tenant_id}/ldap/sync"

    first = iam.http.post(sync_url, params={"mode": "full"}, headers=bearer(admin))

    assert first.status_code == 200, first.text
    assert first.json() | {"watermark": ""} == {
        "mode": "full",
        "seen": 2,
        "created": 2,
        "updated": 0,
        "disabled": 0,
        "skipped": 0,
        "watermark": "",
    }
    imported = users_when(iam, tenant_id, admin, lambda found: len(found) == 3)
    assert set(imported["alice"]["roles"]) == {"user", "tenant-admin", "developer"}
    assert set(imported["bob"]["roles"]) == {"user", "developer"}

    slapd.delete(f"uid=bob,{USERS_DN}")
    second = iam.http.post(sync_url, params={"mode": "full"}, headers=bearer(admin))

    assert second.json()["disabled"] == 1
    assert second.json()["created"] == 0
    assert "UserStatusChanged" in event_types(iam, tenant_id)
    bob = eventually(
        lambda: (
            (found := users(iam, tenant_id, admin)["bob"])["status"] == "DISABLED"
            and found
        )
    )
    assert bob["status"] == "DISABLED"
    assert iam.token(tenant_id, "bob", BOB_PASSWORD).status_code == 400
    assert "LdapUsersSynced" in event_types(iam, tenant_id)


def test_an_incremental_sync_picks_up_only_changed_entries(
    iam: Iam, slapd: Slapd
) -> None:
    tenant_id, admin = ldap_tenant(iam, slapd)
    sync_url = f"/api/v1/tenants/{tenant_id}/ldap/sync"
    full = iam.http.post(sync_url, params={"mode": "full"}, headers=bearer(admin))
    assert full.json()["created"] == 2
    time.sleep(1.1)  # modifyTimestamp has a resolution of one second
    slapd.modify(f"uid=bob,{USERS_DN}", "cn", "Robert")

    changed = iam.http.post(sync_url, params={"mode": "changed"}, headers=bearer(admin))

    assert changed.status_code == 200, changed.text
    assert changed.json()["seen"] == 1
    assert changed.json()["updated"] == 1
    assert changed.json()["watermark"] > full.json()["watermark"]
    bob = eventually(
        lambda: (
            (found := users(iam, tenant_id, admin)["bob"])["attributes"]["name"]
            == "Robert"
            and found
        )
    )
    assert bob["attributes"]["name"] == "Robert"


def test_an_ad_style_mapping_signs_in_by_another_attribute_with_member_of(
    iam: Iam, slapd: Slapd
) -> None:
    tenant_id, _ = ldap_tenant(
        iam,
        slapd,
        vendor="ad",
        userObjectClass="inetOrgPerson",
        usernameAttribute="uid",
        loginAttributes=["mail"],
        uuidAttribute="entryUUID",
        nameAttribute="cn",
    )

    response = iam.token(tenant_id, "alice@example.org", ALICE_PASSWORD)

    assert response.status_code == 200, response.text
    token = claims(iam, response.json()["access_token"])
    assert token["username"] == "alice"
    # memberOf (the AD preset's membership) is kept by slapd's memberof overlay
    assert set(token["roles"]) == {"user", "tenant-admin", "developer"}


def test_link_by_email_links_the_existing_user(iam: Iam, slapd: Slapd) -> None:
    tenant_id, admin = ldap_tenant(iam, slapd, firstSignIn="link-by-email")
    local = iam.create_user(
        tenant_id, admin, "alice.local", email="alice@example.org", roles=["user"]
    )
    assert local.status_code == 201
    eventually(lambda: users(iam, tenant_id, admin).get("alice.local"))

    response = iam.token(tenant_id, "alice", ALICE_PASSWORD)

    assert response.status_code == 200, response.text
    token = claims(iam, response.json()["access_token"])
    assert token["sub"] == local.json()["userId"]
    assert set(token["roles"]) == {"user", "tenant-admin", "developer"}
    types = event_types(iam, tenant_id)
    assert "UserLinked" in types
    assert "UserFederated" not in types
    assert "alice" not in users(iam, tenant_id, admin)
