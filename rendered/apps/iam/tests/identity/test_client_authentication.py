"""Client authentication at the OAuth endpoints (RFC 6749 §2.3, §6; RFC 7009 §2.1;
RFC 7662 §2.1): confidential clients are service accounts, ``iam`` the public client."""

from typing import Any

import pytest
from httpx2 import Response

from tests.identity.conftest import ADMIN_PASSWORD, Iam, bearer
from tests.identity.test_tokens import INTROSPECT, REVOKE, TOKEN, basic, segment


class Acme:
    """A tenant with two confidential clients, ``billing`` and ``ops``."""

    def __init__(self, iam: Iam) -> None:
        self.iam = iam
        self.id, self.admin = iam.tenant_admin("Acme")
        self.billing = self.client("billing")
        self.ops = self.client("ops")

    def client(self, client_id: str, tenant_id: str | None = None) -> str:
        response = self.iam.http.post(
            f"/api/v1/tenants/{tenant_id or self.id}/service-accounts",
            json={"clientId": client_id, "roles": ["user"]},
            headers=bearer(self.admin if tenant_id is None else self.platform()),
        )
        assert response.status_code == 201, response.text
        secret: str = response.json()["clientSecret"]
        return secret

    def platform(self) -> str:
        return self.iam.platform_token()

    def login(self, headers: dict[str, str] | None = None, **client: str) -> Response:
        return self.iam.http.post(
            TOKEN,
            data={
                "grant_type": "password",
                "tenant": self.id,
                "username": "admin",
                "password": ADMIN_PASSWORD,
                **client,
            },
            headers=headers,
        )

    def refresh(
        self, token: str, headers: dict[str, str] | None = None, **client: str
    ) -> Response:
        return self.iam.http.post(
            TOKEN,
            data={"grant_type": "refresh_token", "refresh_token": token, **client},
            headers=headers,
        )

    def refresh_token_of_billing(self) -> str:
        response = self.login(basic("billing", self.billing))
        assert response.status_code == 200, response.text
        token: str = response.json()["refresh_token"]
        return token


@pytest.fixture
def acme(iam: Iam) -> Acme:
    return Acme(iam)


def invalid_client(response: Response, *, basic_used: bool) -> bool:
    body: dict[str, Any] = response.json()
    challenged = response.headers.get("www-authenticate", "").startswith("Basic")
    return (
        response.status_code == 401
        and body["error"] == "invalid_client"
        and (challenged or not basic_used)
    )


def test_the_password_grant_names_the_authenticated_client(acme: Acme) -> None:
    with_basic = acme.login(basic("billing", acme.billing))
    with_post = acme.login(client_id="billing", client_secret=acme.billing)
    public = acme.login()
    public_by_id = acme.login(client_id="iam")

    for response, client_id in [
        (with_basic, "billing"),
        (with_post, "billing"),
        (public, "iam"),
        (public_by_id, "iam"),
    ]:
        assert response.status_code == 200, response.text
        assert segment(response.json()["access_token"], 1)["client_id"] == client_id


def test_the_password_grant_refuses_a_bad_or_unknown_client(acme: Acme) -> None:
    wrong_basic = acme.login(basic("billing", "wrong"))
    wrong_post = acme.login(client_id="billing", client_secret="wrong")
    unknown = acme.login(basic("nobody", "secret"))
    unregistered_public = acme.login(client_id="web")
    confidential_without_secret = acme.login(client_id="billing")

    assert invalid_client(wrong_basic, basic_used=True)
    assert invalid_client(unknown, basic_used=True)
    assert invalid_client(wrong_post, basic_used=False)
    assert invalid_client(unregistered_public, basic_used=False)
    assert invalid_client(confidential_without_secret, basic_used=False)


def test_a_client_of_another_tenant_is_unknown_to_the_password_grant(
    acme: Acme,
) -> None:
    globex_id = str(acme.iam.create_tenant("Globex")["tenantId"])
    globex_secret = acme.client("globex-app", globex_id)

    response = acme.login(basic("globex-app", globex_secret))

    assert invalid_client(response, basic_used=True)


def test_a_refresh_token_is_bound_to_its_client(acme: Acme) -> None:
    token = acme.refresh_token_of_billing()

    no_client = acme.refresh(token)
    another_client = acme.refresh(token, basic("ops", acme.ops))
    wrong_secret = acme.refresh(token, basic("billing", "wrong"))
    wrong_post = acme.refresh(token, client_id="billing", client_secret="wrong")
    claimed_id = acme.refresh(token, client_id="billing")
    right = acme.refresh(token, basic("billing", acme.billing))

    assert invalid_client(no_client, basic_used=False)
    assert another_client.status_code == 400
    assert another_client.json()["error"] == "invalid_grant"
    assert invalid_client(wrong_secret, basic_used=True)
    assert invalid_client(wrong_post, basic_used=False)
    assert invalid_client(claimed_id, basic_used=False)
    assert right.status_code == 200, right.text
    assert segment(right.json()["access_token"], 1)["client_id"] == "billing"


def test_a_public_refresh_token_is_not_another_clients(acme: Acme) -> None:
    token = acme.login().json()["refresh_token"]

    confidential = acme.refresh(token, basic("billing", acme.billing))
    public = acme.refresh(token, client_id="iam")

    assert confidential.json()["error"] == "invalid_grant"
    assert public.status_code == 200, public.text


def test_another_client_cannot_replay_a_spent_token_to_revoke_the_family(
    acme: Acme,
) -> None:
    first = acme.refresh_token_of_billing()
    second = acme.refresh(first, basic("billing", acme.billing)).json()

    replayed = acme.refresh(first, basic("ops", acme.ops))
    still = acme.refresh(second["refresh_token"], basic("billing", acme.billing))

    assert replayed.json()["error"] == "invalid_grant"
    assert still.status_code == 200, still.text


def test_revocation_authenticates_the_client(acme: Acme) -> None:
    token = acme.refresh_token_of_billing()

    wrong = acme.iam.http.post(
        REVOKE, data={"token": token}, headers=basic("billing", "wrong")
    )
    unknown_token = acme.iam.http.post(
        REVOKE, data={"token": "nonsense"}, headers=basic("billing", "wrong")
    )

    assert invalid_client(wrong, basic_used=True)
    assert invalid_client(unknown_token, basic_used=True)
    assert acme.refresh(token, basic("billing", acme.billing)).status_code == 200


def test_revocation_ignores_another_clients_tokens(acme: Acme) -> None:
    refresh_token = acme.refresh_token_of_billing()
    access_token = acme.login(basic("billing", acme.billing)).json()["access_token"]

    for headers, data in [
        (basic("ops", acme.ops), {}),
        (None, {}),
        (None, {"client_id": "iam"}),
    ]:
        for token in (refresh_token, access_token):
            response = acme.iam.http.post(
                REVOKE, data={"token": token, **data}, headers=headers
            )
            assert response.status_code == 200

    assert (
        acme.iam.http.post(
            INTROSPECT, data={"token": access_token}, headers=bearer(acme.admin)
        ).json()["active"]
        is True
    )
    refreshed = acme.refresh(refresh_token, basic("billing", acme.billing))
    assert refreshed.status_code == 200, refreshed.text


def test_a_client_revokes_its_own_tokens(acme: Acme) -> None:
    refresh_token = acme.refresh_token_of_billing()
    access_token = acme.login(basic("billing", acme.billing)).json()["access_token"]

    for token in (refresh_token, access_token):
        revoked = acme.iam.http.post(
            REVOKE,
            data={
                "token": token,
                "client_id": "billing",
                "client_secret": acme.billing,
            },
        )
        assert revoked.status_code == 200

    refreshed = acme.refresh(refresh_token, basic("billing", acme.billing))
    assert refreshed.json()["error"] == "invalid_grant"
    introspected = acme.iam.http.post(
        INTROSPECT, data={"token": access_token}, headers=bearer(acme.admin)
    )
    assert introspected.json() == {"active": False}


@pytest.mark.parametrize("tenant", [None, "Acme"])
def test_an_opaque_token_introspects_inactive_to_a_client(
    acme: Acme, tenant: str | None
) -> None:
    data = {"token": "not-a-jwt"} | ({"tenant": tenant} if tenant else {})

    response = acme.iam.http.post(
        INTROSPECT, data=data, headers=basic("billing", acme.billing)
    )
    refresh_token = acme.iam.http.post(
        INTROSPECT,
        data={**data, "token": acme.refresh_token_of_billing()},
        headers=basic("billing", acme.billing),
    )

    assert response.status_code == 200, response.text
    assert response.json() == {"active": False}
    assert refresh_token.json() == {"active": False}


def test_client_credentials_find_the_tenant_by_client_id(acme: Acme) -> None:
    response = acme.iam.http.post(
        TOKEN,
        data={"grant_type": "client_credentials"},
        headers=basic("billing", acme.billing),
    )

    assert response.status_code == 200, response.text
    claims = segment(response.json()["access_token"], 1)
    assert (claims["client_id"], claims["tenant_id"]) == ("billing", acme.id)


def test_a_client_id_of_several_tenants_needs_the_tenant(acme: Acme) -> None:
    globex_id = str(acme.iam.create_tenant("Globex")["tenantId"])
    globex_billing = acme.client("billing", globex_id)

    def grant(secret: str, **tenant: str) -> Response:
        return acme.iam.http.post(
            TOKEN,
            data={"grant_type": "client_credentials", **tenant},
            headers=basic("billing", secret),
        )

    ambiguous = grant(globex_billing)
    named = grant(globex_billing, tenant="Globex")

    assert invalid_client(ambiguous, basic_used=True)
    assert "name the tenant" in ambiguous.json()["error_description"]
    assert named.status_code == 200, named.text
    assert segment(named.json()["access_token"], 1)["tenant_id"] == globex_id


def test_no_service_account_takes_the_public_clients_id(acme: Acme) -> None:
    response = acme.iam.http.post(
        f"/api/v1/tenants/{acme.id}/service-accounts",
        json={"clientId": "iam", "roles": []},
        headers=bearer(acme.admin),
    )

    assert response.status_code == 422
    assert response.json()["field"] == "clientId"
