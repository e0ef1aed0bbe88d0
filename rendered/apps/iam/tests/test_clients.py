"""Registered clients: a tenant administrator registers them through the API, every
broken rule is listed in the problem body, and the registration is an event."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from iam.infrastructure.config import load_settings
from iam.main import create_app

ADMIN, PASSWORD = "root", "root-password-1"
TENANT_PASSWORD = "boss-password-1"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    settings = load_settings(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'iam.db'}",
            "SECURITY_KEYS_FILE": str(tmp_path / "keys.json"),
            "BROKER_RELAY": "false",
            "BROKER_CONSUME": "false",
            "IAM_PLATFORM_ADMIN_USERNAME": ADMIN,
            "IAM_PLATFORM_ADMIN_PASSWORD": PASSWORD,
            "SECURITY_PASSWORD_HASHING_TIME_COST": "1",
            "SECURITY_PASSWORD_HASHING_MEMORY_COST": "1024",
            "SECURITY_PASSWORD_HASHING_PARALLELISM": "1",
        }
    )
    with TestClient(create_app(settings), base_url="https://iam.test") as client:
        yield client


def token(app: TestClient, tenant: str, username: str, password: str) -> str:
    answer = app.post(
        "/api/v1/auth/token",
        data={
            "grant_type": "password",
            "tenant": tenant,
            "username": username,
            "password": password,
        },
    )
    assert answer.status_code == 200, answer.text
    access: str = answer.json()["access_token"]
    return access


def tenant_admin(app: TestClient, name: str = "acme") -> tuple[str, dict[str, str]]:
    """A new tenant's id and its administrator's headers."""
    root = token(app, "platform", ADMIN, PASSWORD)
    created = app.post(
        "/api/v1/tenants",
        json={
            "name": name,
            "adminUsername": "boss",
            "adminEmail": f"boss@{name}.test",
            "adminPassword": TENANT_PASSWORD,
        },
        headers={"Authorization": f"Bearer {root}"},
    )
    assert created.status_code == 201, created.text
    tenant_id: str = created.json()["tenantId"]
    bearer = token(app, name, "boss", TENANT_PASSWORD)
    return tenant_id, {"Authorization": f"Bearer {bearer}"}


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
    app: TestClient,
) -> None:
    tenant_id, headers = tenant_admin(app)
    created = app.post(
        f"/api/v1/tenants/{tenant_id}/clients", json=WEB_APP, headers=headers
    )
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["clientSecret"]
    assert {key: body[key] for key in WEB_APP} == WEB_APP
    assert body["status"] == "ACTIVE"
    read = app.get(f"/api/v1/tenants/{tenant_id}/clients/portal", headers=headers)
    assert read.status_code == 200
    assert "clientSecret" not in read.json()
    listed = app.get(f"/api/v1/tenants/{tenant_id}/clients", headers=headers)
    assert [c["clientId"] for c in listed.json()] == ["portal"]
    again = app.post(
        f"/api/v1/tenants/{tenant_id}/clients", json=WEB_APP, headers=headers
    )
    assert again.status_code == 409
    gone = app.delete(f"/api/v1/tenants/{tenant_id}/clients/portal", headers=headers)
    assert gone.status_code == 204
    assert (
        app.get(f"/api/v1/tenants/{tenant_id}/clients/portal", headers=headers).json()[
            "status"
        ]
        == "DISABLED"
    )


def test_a_public_client_has_no_secret(app: TestClient) -> None:
    tenant_id, headers = tenant_admin(app)
    created = app.post(
        f"/api/v1/tenants/{tenant_id}/clients",
        json={**WEB_APP, "clientId": "spa", "clientType": "public"},
        headers=headers,
    )
    assert created.status_code == 201, created.text
    assert "clientSecret" not in created.json()


def test_every_broken_rule_is_listed_by_field(app: TestClient) -> None:
    tenant_id, headers = tenant_admin(app)
    refused = app.post(
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


def test_only_the_tenants_administrators_register_its_clients(app: TestClient) -> None:
    tenant_id, _ = tenant_admin(app, "acme")
    _, other = tenant_admin(app, "globex")
    refused = app.post(
        f"/api/v1/tenants/{tenant_id}/clients", json=WEB_APP, headers=other
    )
    assert refused.status_code == 404
    assert (
        app.post(f"/api/v1/tenants/{tenant_id}/clients", json=WEB_APP).status_code
        == 401
    )


def test_a_client_id_is_either_a_service_accounts_or_a_registered_clients(
    app: TestClient,
) -> None:
    tenant_id, headers = tenant_admin(app)
    account = app.post(
        f"/api/v1/tenants/{tenant_id}/service-accounts",
        json={"clientId": "batch"},
        headers=headers,
    )
    assert account.status_code == 201, account.text
    taken = app.post(
        f"/api/v1/tenants/{tenant_id}/clients",
        json={**WEB_APP, "clientId": "batch"},
        headers=headers,
    )
    assert taken.status_code == 409
    assert (
        app.post(
            f"/api/v1/tenants/{tenant_id}/clients", json=WEB_APP, headers=headers
        ).status_code
        == 201
    )
    other = app.post(
        f"/api/v1/tenants/{tenant_id}/service-accounts",
        json={"clientId": "portal"},
        headers=headers,
    )
    assert other.status_code == 409
