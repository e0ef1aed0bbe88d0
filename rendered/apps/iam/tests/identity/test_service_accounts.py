"""Service accounts: listing them, and rotating a secret (shown once, the old one dead)."""

from typing import Any

import pytest

from tests.identity.conftest import Iam, bearer
from tests.identity.test_tokens import TOKEN, basic, create_client


def accounts_of(tenant_id: str) -> str:
    return f"/api/v1/tenants/{tenant_id}/service-accounts"


def client_token(iam: Iam, tenant_id: str, client_id: str, secret: str) -> Any:
    return iam.http.post(
        TOKEN,
        data={"grant_type": "client_credentials", "tenant": tenant_id},
        headers=basic(client_id, secret),
    )


def test_a_tenant_admin_lists_its_service_accounts(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    create_client(iam, tenant_id, admin, ["user"])
    reporting = iam.http.post(
        accounts_of(tenant_id), json={"clientId": "reporting"}, headers=bearer(admin)
    ).json()
    iam.http.delete(
        f"{accounts_of(tenant_id)}/{reporting['serviceAccountId']}",
        headers=bearer(admin),
    )

    listed = iam.http.get(accounts_of(tenant_id), headers=bearer(admin))

    # read from the event store: every change shows in the next listing
    assert listed.status_code == 200
    accounts = listed.json()
    assert [account["clientId"] for account in accounts] == ["billing", "reporting"]
    assert [account["status"] for account in accounts] == ["ACTIVE", "DISABLED"]
    assert accounts[0]["roles"] == ["user"]
    assert accounts[0]["tenantId"] == tenant_id
    assert all("clientSecret" not in account for account in accounts)
    assert all("secretHash" not in account for account in accounts)


def test_service_accounts_are_private_to_their_tenant(iam: Iam) -> None:
    acme_id, acme_admin = iam.tenant_admin("Acme")
    _, globex_admin = iam.tenant_admin("Globex")
    create_client(iam, acme_id, acme_admin, [])
    iam.create_user(acme_id, acme_admin, "alice")
    alice = iam.access_token(acme_id, "alice", "user-password-1")

    other = iam.http.get(accounts_of(acme_id), headers=bearer(globex_admin))
    plain_user = iam.http.get(accounts_of(acme_id), headers=bearer(alice))

    assert other.status_code == 404
    assert plain_user.status_code == 403


def test_a_rotated_secret_is_shown_once_and_replaces_the_old_one(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    old_secret = create_client(iam, tenant_id, admin, ["user"])
    account = iam.http.get(accounts_of(tenant_id), headers=bearer(admin)).json()[0]
    one = f"{accounts_of(tenant_id)}/{account['serviceAccountId']}"

    rotated = iam.http.post(f"{one}/secret", headers=bearer(admin))

    assert rotated.status_code == 200, rotated.text
    new_secret = rotated.json()["clientSecret"]
    assert new_secret and new_secret != old_secret
    assert rotated.json()["clientId"] == "billing"
    assert "clientSecret" not in iam.http.get(one, headers=bearer(admin)).json()
    refused = client_token(iam, tenant_id, "billing", old_secret)
    assert refused.status_code == 401
    assert refused.json()["error"] == "invalid_client"
    assert client_token(iam, tenant_id, "billing", new_secret).status_code == 200


def test_only_an_active_account_of_the_tenant_gets_a_new_secret(iam: Iam) -> None:
    acme_id, acme_admin = iam.tenant_admin("Acme")
    _, globex_admin = iam.tenant_admin("Globex")
    created = iam.http.post(
        accounts_of(acme_id), json={"clientId": "billing"}, headers=bearer(acme_admin)
    ).json()
    one = f"{accounts_of(acme_id)}/{created['serviceAccountId']}"

    other_tenant = iam.http.post(f"{one}/secret", headers=bearer(globex_admin))
    unknown = iam.http.post(
        f"{accounts_of(acme_id)}/00000000-0000-0000-0000-000000000000/secret",
        headers=bearer(acme_admin),
    )
    iam.http.delete(one, headers=bearer(acme_admin))
    disabled = iam.http.post(f"{one}/secret", headers=bearer(acme_admin))

    assert other_tenant.status_code == 404
    assert unknown.status_code == 404
    assert disabled.status_code == 409
    assert disabled.json()["detail"] == "The service account is disabled"


@pytest.mark.parametrize("client_id", ["bad id", "", "billing\n", "x" * 65])
def test_a_bad_client_id_is_reported_as_client_id(iam: Iam, client_id: str) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")

    response = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/service-accounts",
        json={"clientId": client_id, "roles": []},
        headers=bearer(admin),
    )

    assert response.status_code == 422
    assert response.json()["field"] == "clientId"
    assert response.json()["errors"] == [
        {
            "field": "clientId",
            "message": "A client id is 1-64 letters, digits or . _ @ -",
        }
    ]


def test_the_public_clients_id_and_unknown_roles_are_refused(iam: Iam) -> None:
    tenant_id, admin = iam.tenant_admin("Acme")
    accounts = f"/api/v1/tenants/{tenant_id}/service-accounts"

    public = iam.http.post(accounts, json={"clientId": "iam"}, headers=bearer(admin))
    unknown = iam.http.post(
        accounts,
        json={"clientId": "batch", "roles": ["user", "wizard"]},
        headers=bearer(admin),
    )

    assert public.status_code == unknown.status_code == 422
    assert public.json()["errors"] == [
        {"field": "clientId", "message": "iam is the public client's id"}
    ]
    assert unknown.json()["errors"] == [
        {"field": "roles.1", "message": 'Unknown role "wizard"'}
    ]


def test_a_service_account_is_read_with_its_tenant_and_never_its_secret(
    iam: Iam,
) -> None:
    """The generated GET: the account as listed (with the time of its last change),
    its tenant shown, its secret's hash never; another tenant's path is 404."""
    tenant_id, admin = iam.tenant_admin("Acme")
    create_client(iam, tenant_id, admin, ["user"])
    listed = iam.http.get(accounts_of(tenant_id), headers=bearer(admin)).json()[0]
    one = f"{accounts_of(tenant_id)}/{listed['serviceAccountId']}"

    read = iam.http.get(one, headers=bearer(admin))

    assert read.status_code == 200, read.text
    account = read.json()
    assert account == {**listed, "updatedAt": account["updatedAt"]}
    assert account["tenantId"] == tenant_id
    assert "secretHash" not in account and "clientSecret" not in account
    assert read.headers["ETag"] == '"1"'
    _, globex_admin = iam.tenant_admin("Globex")
    assert iam.http.get(one, headers=bearer(globex_admin)).status_code == 404
    missing = iam.http.get(f"{accounts_of(tenant_id)}/nope", headers=bearer(admin))
    assert missing.json()["detail"] == "Service account not found"
    schema = iam.http.get("/openapi.json").json()["components"]["schemas"]
    assert "secretHash" not in schema["ServiceAccount"]["properties"]
