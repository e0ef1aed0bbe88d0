"""Registered clients: a tenant administrator registers them through the API, every
broken rule is listed in the problem body, and the registration is an event."""

from typing import Any

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
    assert (
        iam.http.get(
            f"/api/v1/tenants/{tenant_id}/clients/portal", headers=headers
        ).json()["status"]
        == "DISABLED"
    )


def test_a_public_client_has_no_secret(iam: Iam) -> None:
    tenant_id, headers = tenant_admin(iam)
    created = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/clients",
        json={**WEB_APP, "clientId": "spa", "clientType": "public"},
        headers=headers,
    )
    assert created.status_code == 201, created.text
    assert "clientSecret" not in created.json()


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
        "clientId",
        "clientType",
        "grantTypes[1]",
        "redirectUris[0]",
        "redirectUris[1]",
        "postLogoutRedirectUris[0]",
        "scopes[1]",
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
