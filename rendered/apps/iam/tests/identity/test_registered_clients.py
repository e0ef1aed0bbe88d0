"""Registered clients: a tenant administrator registers them through the API, every
broken rule is listed in the problem body, and the registration is an event."""

from typing import Any
from uuid import uuid5

from eaf import context
from eaf.eventsourcing import NewEvent
from eaf.security import PasswordHasher

from iam.application.identity import NAMESPACE
from tests.identity.conftest import Iam, bearer


def tenant_admin(iam: Iam, name: str = "acme") -> tuple[str, dict[str, str]]:
    """A new tenant's id and its administrator's headers."""
    tenant_id, token = iam.tenant_admin(name)
    return tenant_id, bearer(token)


WEB_APP: dict[str, Any] = {
    "clientId": "portal",
    "name": "Acme portal",
    "clientType": "confidential",
    "grantTypes": ["authorization_code", "refresh_token"],
    "redirectUris": ["https://portal.acme.test/callback"],
    "postLogoutRedirectUris": ["https://portal.acme.test/"],
    "scopes": ["openid", "profile", "user-profile:read"],
    "firstParty": True,
}


def test_a_tenant_admin_registers_a_confidential_client_whose_secret_is_shown_once(
    iam: Iam,
) -> None:
    tenant_id, headers = tenant_admin(iam)
    created = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/clients", json=WEB_APP, headers=headers
    )
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["clientSecret"]
    assert {key: body[key] for key in WEB_APP} == WEB_APP
    assert body["status"] == "ACTIVE"
    read = iam.http.get(f"/api/v1/tenants/{tenant_id}/clients/portal", headers=headers)
    assert read.status_code == 200
    assert "clientSecret" not in read.json()
    listed = iam.http.get(f"/api/v1/tenants/{tenant_id}/clients", headers=headers)
    assert [c["clientId"] for c in listed.json()] == ["portal"]
    again = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/clients", json=WEB_APP, headers=headers
    )
    assert again.status_code == 409
    gone = iam.http.delete(
        f"/api/v1/tenants/{tenant_id}/clients/portal", headers=headers
    )
    assert gone.status_code == 204
    disabled = iam.http.get(
        f"/api/v1/tenants/{tenant_id}/clients/portal", headers=headers
    )
    assert disabled.json()["status"] == "DISABLED"
    # disabling it again changes nothing: no event, the same version
    again = iam.http.delete(
        f"/api/v1/tenants/{tenant_id}/clients/portal", headers=headers
    )
    assert again.status_code == 204
    assert again.headers["etag"] == disabled.headers["etag"]
    unknown = iam.http.delete(
        f"/api/v1/tenants/{tenant_id}/clients/nobody", headers=headers
    )
    assert unknown.status_code == 404


def test_a_public_client_has_no_secret(iam: Iam) -> None:
    tenant_id, headers = tenant_admin(iam)
    created = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/clients",
        json={**WEB_APP, "clientId": "spa", "clientType": "public"},
        headers=headers,
    )
    assert created.status_code == 201, created.text
    assert created.json()["clientSecret"] is None


def test_every_broken_rule_is_listed_by_field(iam: Iam) -> None:
    tenant_id, headers = tenant_admin(iam)
    refused = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/clients",
        json={
            "clientId": "iam",
            "clientType": "secret",
            "grantTypes": ["authorization_code", "implicit"],
            "redirectUris": ["http://portal.acme.test/cb", "https://x.test/#frag"],
            "postLogoutRedirectUris": ["not a uri"],
            "scopes": ["openid", "everything"],
        },
        headers=headers,
    )
    assert refused.status_code == 422, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    fields = {error["field"] for error in refused.json()["errors"]}
    assert fields == {
        "clientType",
        "grantTypes.1",
        "redirectUris.0",
        "redirectUris.1",
        "postLogoutRedirectUris.0",
        "scopes.1",
    }
    # the rules across fields are checked once each value is well formed
    refused = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/clients",
        json={
            **WEB_APP,
            "clientId": "iam",
            "grantTypes": ["refresh_token"],
            "redirectUris": [],
            "postLogoutRedirectUris": ["https://a.test/", "https://a.test/"],
        },
        headers=headers,
    )
    assert refused.status_code == 422, refused.text
    assert {(e["field"], e["message"]) for e in refused.json()["errors"]} == {
        ("clientId", "iam is the public client's id"),
        ("grantTypes", "refresh_token needs authorization_code"),
        ("postLogoutRedirectUris", "A URI is listed twice"),
    }


def test_only_the_tenants_administrators_register_its_clients(iam: Iam) -> None:
    tenant_id, _ = tenant_admin(iam, "acme")
    _, other = tenant_admin(iam, "globex")
    refused = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/clients", json=WEB_APP, headers=other
    )
    assert refused.status_code == 404
    assert (
        iam.http.post(f"/api/v1/tenants/{tenant_id}/clients", json=WEB_APP).status_code
        == 401
    )


def test_a_client_id_is_either_a_service_accounts_or_a_registered_clients(
    iam: Iam,
) -> None:
    tenant_id, headers = tenant_admin(iam)
    account = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/service-accounts",
        json={"clientId": "batch"},
        headers=headers,
    )
    assert account.status_code == 201, account.text
    taken = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/clients",
        json={**WEB_APP, "clientId": "batch"},
        headers=headers,
    )
    assert taken.status_code == 409
    assert (
        iam.http.post(
            f"/api/v1/tenants/{tenant_id}/clients", json=WEB_APP, headers=headers
        ).status_code
        == 201
    )
    other = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/service-accounts",
        json={"clientId": "portal"},
        headers=headers,
    )
    assert other.status_code == 409


def test_clients_registered_before_keep_their_ids_and_secrets(iam: Iam) -> None:
    """Version 1 events kept the secret's hash as ``secret_hash`` ("" for a public
    client); the clients read back, and authenticate, as they did."""
    tenant_id, headers = tenant_admin(iam)
    hashed = PasswordHasher().hash("legacy-secret")

    def registered(client_id: str, client_type: str, secret_hash: str) -> NewEvent:
        return NewEvent(
            "ClientRegistered",
            {
                "client_uuid": str(
                    uuid5(NAMESPACE, f"{tenant_id}/registered-client/{client_id}")
                ),
                "client_id": client_id,
                "name": "",
                "client_type": client_type,
                "secret_hash": secret_hash,
                "grant_types": ["authorization_code"],
                "redirect_uris": ["https://legacy.acme.test/cb"],
                "post_logout_redirect_uris": [],
                "scopes": ["openid"],
                "first_party": False,
                "occurred_at": "2026-01-02T03:04:05+00:00",
            },
        )

    async def store() -> None:
        with context.use(context.SecurityContext(tenant_id=tenant_id)):
            for client_id, client_type, secret_hash in (
                ("legacy", "confidential", hashed),
                ("legacy-spa", "public", ""),
            ):
                event = registered(client_id, client_type, secret_hash)
                await iam.http.app.state.store.append(  # type: ignore[attr-defined]
                    "RegisteredClient",
                    event.payload["client_uuid"],
                    [event],
                    expected_version=0,
                )

    iam.http.portal.call(store)  # type: ignore[union-attr]
    read = iam.http.get(f"/api/v1/tenants/{tenant_id}/clients/legacy", headers=headers)
    assert read.status_code == 200, read.text
    assert read.json()["clientUuid"] == str(
        uuid5(NAMESPACE, f"{tenant_id}/registered-client/legacy")
    )
    assert read.json()["clientType"] == "confidential"
    assert "clientSecret" not in read.json()
    listed = iam.http.get(f"/api/v1/tenants/{tenant_id}/clients", headers=headers)
    assert [c["clientId"] for c in listed.json()] == ["legacy", "legacy-spa"]

    def token(client_id: str, secret: str | None) -> dict[str, Any]:
        answer = iam.http.post(
            "/realms/acme/token",
            data={
                "grant_type": "authorization_code",
                "code": "unknown",
                "redirect_uri": "https://legacy.acme.test/cb",
                "client_id": client_id,
                **({"client_secret": secret} if secret is not None else {}),
            },
        )
        body: dict[str, Any] = answer.json()
        return body

    # a client that authenticates reaches the code, which is unknown
    assert token("legacy", "legacy-secret")["error"] == "invalid_grant"
    assert token("legacy", "wrong")["error"] == "invalid_client"
    assert token("legacy-spa", None)["error"] == "invalid_grant"
