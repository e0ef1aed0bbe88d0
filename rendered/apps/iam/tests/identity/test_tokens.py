"""The token lifecycle: grants, refresh rotation, revocation, introspection, keys."""

import base64
import json
from typing import Any

import pytest
from eaf.security import StaticJwks, TokenVerifier

from iam.application.tokens import REUSE_WINDOW
from tests.identity.conftest import ADMIN_PASSWORD, Iam, bearer

TOKEN = "/api/v1/auth/token"
INTROSPECT = "/api/v1/auth/introspect"
REVOKE = "/api/v1/auth/revoke"


def segment(token: str, index: int) -> dict[str, Any]:
    part = token.split(".")[index]
    decoded: dict[str, Any] = json.loads(
        base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    )
    return decoded


def basic(client_id: str, secret: str) -> dict[str, str]:
    credentials = base64.b64encode(f"{client_id}:{secret}".encode()).decode()
    return {"Authorization": f"Basic {credentials}"}


def create_client(iam: Iam, tenant_id: str, admin: str, roles: list[str]) -> str:
    response = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/service-accounts",
        json={"clientId": "billing", "roles": roles},
        headers=bearer(admin),
    )
    assert response.status_code == 201, response.text
    secret: str = response.json()["clientSecret"]
    return secret


def test_the_password_grant_issues_an_rfc_9068_token(iam: Iam) -> None:
    tenant_id, _ = iam.tenant_admin("Acme")

    response = iam.token(tenant_id, "admin", ADMIN_PASSWORD)

    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == 900
    assert body["scope"] == ""
    assert body["refresh_token"]
    header, claims = segment(body["access_token"], 0), segment(body["access_token"], 1)
    assert header["typ"] == "at+jwt"
    assert header["alg"] == "ES256"
    jwks = iam.http.get("/.well-known/jwks.json").json()
    assert header["kid"] in [key["kid"] for key in jwks["keys"]]
    assert all("d" not in key for key in jwks["keys"])
    assert claims["tenant_id"] == tenant_id
    assert claims["username"] == "admin"
    assert claims["roles"] == ["tenant-admin"]
    assert "iam-users:*" in claims["permissions"]
    assert "user-profile:*" in claims["permissions"]
    assert claims["iss"] == "http://127.0.0.1:8081"
    assert claims["aud"] == "eaf"
    assert "platform" not in claims


async def test_the_token_verifies_against_the_published_jwks(iam: Iam) -> None:
    tenant_id, token = iam.tenant_admin("Acme")
    verifier = TokenVerifier(
        StaticJwks(iam.http.get("/.well-known/jwks.json").json()),
        issuer="http://127.0.0.1:8081",
        audience="eaf",
    )

    claims = await verifier.verify(token)

    assert claims.tenant_id == tenant_id
    assert claims.username == "admin"


def test_platform_admins_get_platform_tokens(iam: Iam) -> None:
    claims = segment(iam.platform_token(), 1)

    assert claims["platform"] is True
    assert "tenant_id" not in claims
    assert claims["permissions"] == ["*:*"]


def test_a_scope_narrows_the_permissions(iam: Iam) -> None:
    tenant_id, _ = iam.tenant_admin("Acme")

    narrowed = iam.token(tenant_id, "admin", ADMIN_PASSWORD, scope="iam-users:read")
    too_wide = iam.token(tenant_id, "admin", ADMIN_PASSWORD, scope="billing:read")

    assert narrowed.json()["scope"] == "iam-users:read"
    assert segment(narrowed.json()["access_token"], 1)["permissions"] == [
        "iam-users:read"
    ]
    assert too_wide.status_code == 400
    assert too_wide.json()["error"] == "invalid_scope"


def test_a_json_token_request_is_accepted(iam: Iam) -> None:
    iam.tenant_admin("Acme")

    response = iam.http.post(
        TOKEN,
        json={
            "grant_type": "password",
            "tenant": "Acme",
            "username": "admin",
            "password": ADMIN_PASSWORD,
        },
    )

    assert response.status_code == 200


def test_refresh_tokens_rotate_and_reuse_revokes_the_family(iam: Iam) -> None:
    tenant_id, _ = iam.tenant_admin("Acme")
    first = iam.token(tenant_id, "admin", ADMIN_PASSWORD).json()["refresh_token"]

    def refresh(token: str) -> dict[str, Any]:
        response = iam.http.post(
            TOKEN, data={"grant_type": "refresh_token", "refresh_token": token}
        )
        body: dict[str, Any] = response.json()
        return body

    second = refresh(first)
    assert second["refresh_token"] != first
    assert segment(second["access_token"], 1)["tenant_id"] == tenant_id
    third = refresh(second["refresh_token"])
    assert "access_token" in third

    reused = refresh(first)
    assert reused["error"] == "invalid_grant"
    assert "reused" in reused["error_description"]
    assert refresh(third["refresh_token"])["error"] == "invalid_grant"


def test_a_refused_refresh_does_not_spend_the_token(iam: Iam) -> None:
    tenant_id, _ = iam.tenant_admin("Acme")
    token = iam.token(tenant_id, "admin", ADMIN_PASSWORD).json()["refresh_token"]
    grant = {"grant_type": "refresh_token", "refresh_token": token}

    refused = iam.http.post(TOKEN, data={**grant, "scope": "not-a-permission"})
    assert refused.json()["error"] == "invalid_scope"
    retried = iam.http.post(TOKEN, data=grant)
    assert retried.status_code == 200, retried.text


def test_a_long_lived_family_remembers_a_bounded_number_of_spent_tokens(
    iam: Iam,
) -> None:
    tenant_id, _ = iam.tenant_admin("Acme")
    spent = [iam.token(tenant_id, "admin", ADMIN_PASSWORD).json()["refresh_token"]]
    for _ in range(REUSE_WINDOW + 1):
        response = iam.http.post(
            TOKEN, data={"grant_type": "refresh_token", "refresh_token": spent[-1]}
        )
        spent.append(response.json()["refresh_token"])

    def refresh(token: str) -> dict[str, Any]:
        body: dict[str, Any] = iam.http.post(
            TOKEN, data={"grant_type": "refresh_token", "refresh_token": token}
        ).json()
        return body

    # Beyond the window a spent token is refused without revoking the family...
    assert refresh(spent[0])["error_description"] == "unknown refresh token"
    assert "access_token" in refresh(spent[-1])
    # ...within it, reuse still revokes the family.
    assert "reused" in refresh(spent[-2])["error_description"]


def test_revoking_a_refresh_token_revokes_its_family(iam: Iam) -> None:
    tenant_id, _ = iam.tenant_admin("Acme")
    refresh_token = iam.token(tenant_id, "admin", ADMIN_PASSWORD).json()[
        "refresh_token"
    ]

    revoked = iam.http.post(REVOKE, data={"token": refresh_token})
    refreshed = iam.http.post(
        TOKEN, data={"grant_type": "refresh_token", "refresh_token": refresh_token}
    )

    assert revoked.status_code == 200
    assert refreshed.json()["error"] == "invalid_grant"


def test_a_revoked_access_token_is_inactive(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    other = iam.access_token(tenant_id, "admin", ADMIN_PASSWORD)

    assert iam.http.post(REVOKE, data={"token": other}).status_code == 200
    assert iam.http.post(REVOKE, data={"token": "nonsense"}).status_code == 200

    introspected = iam.http.post(
        INTROSPECT, data={"token": other}, headers=bearer(admin)
    )
    assert introspected.json() == {"active": False}
    used = iam.http.get(f"/api/v1/tenants/{tenant_id}/users", headers=bearer(other))
    assert used.status_code == 401
    assert used.headers["www-authenticate"].startswith('Bearer error="invalid_token"')


def test_introspection_of_an_active_token(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")

    answer = iam.http.post(INTROSPECT, data={"token": admin}, headers=bearer(admin))

    body = answer.json()
    assert answer.headers["cache-control"] == "no-store"
    assert body["active"] is True
    assert body["tenant_id"] == tenant_id
    assert body["username"] == "admin"
    assert body["token_type"] == "Bearer"
    assert body["roles"] == ["tenant-admin"]
    assert {"sub", "client_id", "scope", "exp", "iat", "iss", "aud", "jti"} <= set(body)
    for garbage in ("nonsense", admin[:-4] + "AAAA"):
        assert iam.http.post(
            INTROSPECT, data={"token": garbage}, headers=bearer(admin)
        ).json() == {"active": False}


def test_introspection_needs_a_caller(iam: Iam) -> None:
    _, admin = iam.tenant_admin("Acme")

    response = iam.http.post(INTROSPECT, data={"token": admin})

    assert response.status_code == 401
    assert response.json()["error"] == "invalid_client"


def test_a_token_of_another_tenant_is_inactive_to_a_tenant_caller(iam: Iam) -> None:
    _, acme = iam.tenant_admin("Acme")
    _, globex = iam.tenant_admin("Globex")

    answer = iam.http.post(INTROSPECT, data={"token": acme}, headers=bearer(globex))

    assert answer.json() == {"active": False}


def test_a_disabled_users_token_is_inactive(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    alice_id = iam.create_user(tenant_id, admin, "alice").json()["userId"]
    alice = iam.access_token(tenant_id, "alice", "user-password-1")

    iam.http.patch(
        f"/api/v1/tenants/{tenant_id}/users/{alice_id}",
        json={"status": "DISABLED"},
        headers=bearer(admin),
    )

    answer = iam.http.post(INTROSPECT, data={"token": alice}, headers=bearer(admin))
    assert answer.json() == {"active": False}


def test_the_client_credentials_grant(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    secret = create_client(iam, tenant_id, admin, ["user"])

    with_basic = iam.http.post(
        TOKEN,
        data={"grant_type": "client_credentials", "tenant": tenant_id},
        headers=basic("billing", secret),
    )
    with_form = iam.http.post(
        TOKEN,
        data={
            "grant_type": "client_credentials",
            "tenant": "Acme",
            "client_id": "billing",
            "client_secret": secret,
        },
    )

    assert with_basic.status_code == 200, with_basic.text
    assert "refresh_token" not in with_basic.json()
    claims = segment(with_basic.json()["access_token"], 1)
    assert claims["client_id"] == "billing"
    assert claims["tenant_id"] == tenant_id
    assert claims["permissions"] == ["user-profile:read"]
    assert with_form.status_code == 200
    introspected = iam.http.post(
        INTROSPECT,
        data={"token": with_form.json()["access_token"]},
        headers=basic("billing", secret),
    )
    assert introspected.json()["active"] is True


def test_bad_client_credentials_are_an_invalid_client(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    create_client(iam, tenant_id, admin, [])

    response = iam.http.post(
        TOKEN,
        data={"grant_type": "client_credentials", "tenant": tenant_id},
        headers=basic("billing", "wrong"),
    )

    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Basic")
    assert response.json() == {
        "error": "invalid_client",
        "error_description": "client authentication failed",
    }


def test_rfc_6749_error_bodies(iam: Iam) -> None:
    tenant_id, _ = iam.tenant_admin("Acme")

    unsupported = iam.http.post(TOKEN, data={"grant_type": "implicit"})
    missing = iam.http.post(TOKEN, data={"grant_type": "password", "tenant": "Acme"})
    bad_password = iam.token(tenant_id, "admin", "wrong-password")
    unknown_tenant = iam.token("Nowhere", "admin", ADMIN_PASSWORD)

    assert unsupported.status_code == 400
    assert unsupported.json()["error"] == "unsupported_grant_type"
    assert missing.json()["error"] == "invalid_request"
    assert bad_password.status_code == 400
    assert bad_password.json()["error"] == "invalid_grant"
    assert bad_password.headers["cache-control"] == "no-store"
    assert unknown_tenant.json() == bad_password.json()


def test_repeated_failures_are_throttled(iam: Iam) -> None:
    tenant_id, _ = iam.tenant_admin("Acme")
    for _ in range(3):  # the configured max_failures
        assert iam.token(tenant_id, "admin", "wrong-password").status_code == 400

    throttled = iam.token(tenant_id, "admin", ADMIN_PASSWORD)

    assert throttled.status_code == 429
    assert int(throttled.headers["retry-after"]) >= 1
    assert iam.token(tenant_id, "someone-else", "x").status_code == 400


def test_rotated_keys_stay_published_for_their_tokens(iam: Iam) -> None:
    tenant_id, before = iam.tenant_admin("Acme")
    old_kid = segment(before, 0)["kid"]

    rotated = iam.http.post(
        "/api/v1/auth/keys/rotate", headers=bearer(iam.platform_token())
    )
    after = iam.access_token(tenant_id, "admin", ADMIN_PASSWORD)

    assert rotated.status_code == 200
    new_kid = rotated.json()["kid"]
    assert segment(after, 0)["kid"] == new_kid != old_kid
    kids = {key["kid"] for key in iam.http.get("/.well-known/jwks.json").json()["keys"]}
    assert kids == {old_kid, new_kid}
    users = f"/api/v1/tenants/{tenant_id}/users"
    assert iam.http.get(users, headers=bearer(before)).status_code == 200
    assert iam.http.get(users, headers=bearer(after)).status_code == 200


def test_only_platform_admins_rotate_keys(iam: Iam) -> None:
    _, admin = iam.tenant_admin("Acme")

    response = iam.http.post("/api/v1/auth/keys/rotate", headers=bearer(admin))

    assert response.status_code == 403


@pytest.mark.parametrize(
    "path",
    ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"],
)
def test_the_provider_metadata(iam: Iam, path: str) -> None:
    response = iam.http.get(path)
    metadata = response.json()

    assert metadata["issuer"] == "http://127.0.0.1:8081"
    assert metadata["token_endpoint"] == "http://127.0.0.1:8081/api/v1/auth/token"
    assert metadata["jwks_uri"].endswith("/.well-known/jwks.json")
    assert metadata["introspection_endpoint"].endswith(INTROSPECT)
    assert metadata["revocation_endpoint"].endswith(REVOKE)
    assert set(metadata["grant_types_supported"]) == {
        "password",
        "client_credentials",
        "refresh_token",
    }
    assert response.status_code == 200
    assert metadata["response_types_supported"] == []
    methods = ["client_secret_basic", "client_secret_post"]
    assert metadata["token_endpoint_auth_methods_supported"] == [*methods, "none"]
    assert metadata["revocation_endpoint_auth_methods_supported"] == [*methods, "none"]
    assert metadata["introspection_endpoint_auth_methods_supported"] == methods
    assert set(metadata) == {
        "issuer",
        "token_endpoint",
        "jwks_uri",
        "introspection_endpoint",
        "revocation_endpoint",
        "grant_types_supported",
        "response_types_supported",
        "token_endpoint_auth_methods_supported",
        "revocation_endpoint_auth_methods_supported",
        "introspection_endpoint_auth_methods_supported",
    }
