"""Identity brokering in process: a tenant's external OpenID providers through the API
(events, every invalid field, tenant isolation, the secret never read back), and the
callback's checks against a provider in the test's memory that forges what it is told
to (``tests/test_iam_broker_e2e.py`` at the repository root runs a real one)."""

import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from joserfc import jwt
from joserfc.jwk import ECKey, OctKey

from iam.application.ports.brokering import ProviderMetadata, ProviderUnavailableError
from tests.identity.conftest import Iam, bearer, eventually
from tests.identity.test_registered_clients import WEB_APP, tenant_admin
from tests.identity.test_tenants_and_users import stored_events

ISSUER = "https://idp.example"
SECRET = "provider-client-secret-1"
REDIRECT = WEB_APP["redirectUris"][0]
SETTINGS: dict[str, Any] = {
    "displayName": "Corp SSO",
    "issuer": ISSUER,
    "clientId": "iam",
    "clientSecret": SECRET,
    "roleMappers": [{"claim": "groups", "value": "admins", "roles": ["tenant-admin"]}],
}


class FakeProvider:
    """An OpenID provider in memory: its discovery, its key, and the ID token it
    answers the code with (``forge`` changes claims or the signing key)."""

    def __init__(self) -> None:
        self.key = ECKey.generate_key("P-256", {"kid": "k1"})
        self.nonce = ""
        self.claims: dict[str, Any] = {}
        self.forge: dict[str, Any] = {}
        self.signing_key: Any = self.key
        self.algorithm = "ES256"
        self.down = False
        self.redeemed: list[dict[str, str]] = []

    async def metadata(self, issuer: str) -> ProviderMetadata:
        if self.down:
            raise ProviderUnavailableError(f"{issuer}: [Errno 111] Connection refused")
        return ProviderMetadata(
            issuer=ISSUER,
            authorization_endpoint=f"{ISSUER}/authorize",
            token_endpoint=f"{ISSUER}/token",
            jwks_uri=f"{ISSUER}/jwks",
            token_endpoint_auth_methods=["client_secret_post"],
            id_token_signing_algorithms=["ES256"],
        )

    async def redeem_code(
        self,
        metadata: ProviderMetadata,
        *,
        client_id: str,
        client_secret: str,
        code: str,
        redirect_uri: str,
        verifier: str,
    ) -> dict[str, Any]:
        self.redeemed.append({"client_secret": client_secret, "verifier": verifier})
        now = int(time.time())
        claims = {
            "iss": ISSUER,
            "sub": "ext-1",
            "aud": client_id,
            "exp": now + 300,
            "iat": now,
            "nonce": self.nonce,
            "preferred_username": "ada",
            "email": "ada@example.com",
            "email_verified": True,
            "name": "Ada",
            "groups": ["admins"],
            **self.claims,
            **self.forge,
        }
        header = {"alg": self.algorithm, "kid": "k1"}
        token = jwt.encode(
            header, claims, self.signing_key, algorithms=[self.algorithm]
        )
        return {"id_token": token, "access_token": "opaque", "token_type": "Bearer"}

    async def jwks(self, metadata: ProviderMetadata) -> dict[str, Any]:
        return {"keys": [self.key.as_dict(private=False)]}


@pytest.fixture
def provider(iam: Iam) -> FakeProvider:
    fake = FakeProvider()
    iam.http.app.state.brokering._client = fake  # type: ignore[attr-defined]
    return fake


def realm_with_provider(iam: Iam, **settings: Any) -> tuple[str, dict[str, str]]:
    tenant_id, headers = tenant_admin(iam)
    portal = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/clients", json=WEB_APP, headers=headers
    )
    assert portal.status_code == 201, portal.text
    configured = iam.http.put(
        f"/api/v1/tenants/{tenant_id}/oidc-providers/corp",
        json={**SETTINGS, **settings},
        headers=headers,
    )
    assert configured.status_code == 201, configured.text
    return tenant_id, headers


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}" if parts.query else parts.path


def sign_in_page(iam: Iam) -> str:
    page = iam.http.get(
        "/realms/acme/authorize",
        params={
            "response_type": "code",
            "client_id": "portal",
            "redirect_uri": REDIRECT,
            "scope": "openid profile",
            "state": "xyz",
        },
        follow_redirects=False,
    )
    assert page.status_code == 200, page.text
    return page.text


def start(iam: Iam, provider: FakeProvider) -> dict[str, str]:
    """Click the provider's button; the parameters sent to the provider."""
    page = sign_in_page(iam)
    href = page.split('<a class="button" href="')[1].split('"')[0].replace("&amp;", "&")
    login = iam.http.get(path_of(href), follow_redirects=False)
    assert login.status_code == 303, login.text
    sent = {
        k: v[0] for k, v in parse_qs(urlsplit(login.headers["location"]).query).items()
    }
    provider.nonce = sent["nonce"]
    return sent


def callback(iam: Iam, **params: str) -> Any:
    return iam.http.get(
        "/realms/acme/broker/corp/endpoint", params=params, follow_redirects=False
    )


def usernames(iam: Iam, tenant_id: str, headers: dict[str, str]) -> set[str]:
    listed = iam.http.get(f"/api/v1/tenants/{tenant_id}/users", headers=headers)
    return {user["username"] for user in listed.json()}


def usernames_with(
    iam: Iam, tenant_id: str, headers: dict[str, str], username: str
) -> set[str]:
    """The usernames once ``username`` is among them (the listing is a read model)."""

    def probe() -> set[str] | None:
        found = usernames(iam, tenant_id, headers)
        return found if username in found else None

    return eventually(probe)


def test_a_provider_is_configured_read_back_without_its_secret_and_removed(
    iam: Iam,
) -> None:
    tenant_id, headers = realm_with_provider(iam)
    base = f"/api/v1/tenants/{tenant_id}/oidc-providers"

    read = iam.http.get(f"{base}/corp", headers=headers)
    replaced = iam.http.put(
        f"{base}/corp", json={**SETTINGS, "enabled": False}, headers=headers
    )
    listed = iam.http.get(base, headers=headers)
    deleted = iam.http.delete(f"{base}/corp", headers=headers)

    assert read.status_code == 200
    body = read.json()
    assert body["clientSecretSet"] is True and SECRET not in read.text
    assert body["scopes"] == ["openid", "email", "profile"]
    assert body["usernameClaim"] == "preferred_username"
    assert body["firstSignIn"] == "create" and body["enabled"] is True
    assert replaced.status_code == 200 and replaced.json()["enabled"] is False
    assert [provider["alias"] for provider in listed.json()] == ["corp"]
    assert deleted.status_code == 204
    assert iam.http.get(f"{base}/corp", headers=headers).status_code == 404
    events = stored_events(iam, tenant_id)
    types = [event.event_type for event in events]
    assert types.count("OidcProviderConfigured") == 2
    assert "OidcProviderRemoved" in types
    assert SECRET not in str([event.payload for event in events])


def test_invalid_settings_are_answered_with_every_invalid_field(iam: Iam) -> None:
    tenant_id, headers = tenant_admin(iam)
    answer = iam.http.put(
        f"/api/v1/tenants/{tenant_id}/oidc-providers/corp",
        json={
            "displayName": " ",
            "issuer": "http://idp.example.com",
            "clientId": "",
            "clientSecret": "",
            "scopes": ["email", "bad scope"],
            "usernameClaim": "a b",
            "claimAttributes": {"email": "1bad"},
            "roleMappers": [{"claim": "groups", "value": "x", "roles": ["no-such"]}],
            "firstSignIn": "always",
        },
        headers=headers,
    )
    assert answer.status_code == 422, answer.text
    fields = {problem["field"] for problem in answer.json()["errors"]}
    assert fields >= {
        "displayName",
        "issuer",
        "clientId",
        "clientSecret",
        "scopes",
        "scopes.1",
        "usernameClaim",
        "claimAttributes.email",
        "roleMappers",
        "firstSignIn",
    }
    bad_alias = iam.http.put(
        f"/api/v1/tenants/{tenant_id}/oidc-providers/Not_An_Alias",
        json=SETTINGS,
        headers=headers,
    )
    assert bad_alias.status_code == 422


def test_a_federation_admin_is_required_and_other_tenants_see_nothing(
    iam: Iam,
) -> None:
    tenant_id, _ = realm_with_provider(iam)
    other_id, other_token = iam.tenant_admin("globex")
    assert iam.create_user(other_id, other_token, "carol").status_code == 201
    carol = iam.access_token(other_id, "carol", "user-password-1")

    foreign = iam.http.get(
        f"/api/v1/tenants/{tenant_id}/oidc-providers/corp",
        headers=bearer(other_token),
    )
    own = iam.http.get(
        f"/api/v1/tenants/{other_id}/oidc-providers", headers=bearer(other_token)
    )
    not_admin = iam.http.put(
        f"/api/v1/tenants/{other_id}/oidc-providers/corp",
        json=SETTINGS,
        headers=bearer(carol),
    )

    assert foreign.status_code == 404
    assert own.status_code == 200 and own.json() == []
    assert not_admin.status_code == 403


def test_the_sign_in_page_shows_enabled_providers_bound_to_the_form(
    iam: Iam,
) -> None:
    tenant_id, headers = realm_with_provider(iam)
    iam.http.put(
        f"/api/v1/tenants/{tenant_id}/oidc-providers/off",
        json={**SETTINGS, "displayName": "Switched off", "enabled": False},
        headers=headers,
    )
    page = sign_in_page(iam)
    form = page.split('name="form" value="')[1].split('"')[0]
    assert (
        f'href="http://127.0.0.1:8081/realms/acme/broker/corp/login?form={form}"'
        in page
    )
    assert "Sign in with Corp SSO" in page and "Switched off" not in page


def test_a_brokered_sign_in_sends_pkce_and_redeems_with_the_stored_secret(
    iam: Iam, provider: FakeProvider
) -> None:
    tenant_id, headers = realm_with_provider(iam)
    sent = start(iam, provider)
    assert sent["code_challenge_method"] == "S256"
    assert sent["scope"] == "openid email profile"
    assert (
        sent["redirect_uri"] == "http://127.0.0.1:8081/realms/acme/broker/corp/endpoint"
    )

    answered = callback(iam, code="c-1", state=sent["state"])

    assert answered.status_code == 303, answered.text
    assert answered.headers["location"].startswith(REDIRECT + "?code=")
    assert provider.redeemed[0]["client_secret"] == SECRET
    assert "ada" in usernames_with(iam, tenant_id, headers, "ada")
    types = [event.event_type for event in stored_events(iam, tenant_id)]
    assert "UserFederated" in types


@pytest.mark.parametrize(
    ("forgery", "text"),
    [
        ({"key": "other"}, "signature"),
        ({"key": "client-secret"}, "signature"),
        ({"aud": "someone-else"}, "aud"),
        ({"nonce": "replayed-nonce"}, "nonce"),
        ({"exp": int(time.time()) - 3600, "iat": int(time.time()) - 7200}, "exp"),
        ({"iss": "https://evil.example"}, "iss"),
    ],
)
def test_a_forged_id_token_is_refused_and_creates_nobody(
    iam: Iam, provider: FakeProvider, forgery: dict[str, Any], text: str
) -> None:
    tenant_id, _ = realm_with_provider(iam)
    before = len(stored_events(iam, tenant_id))
    key = forgery.pop("key", None)
    if key == "other":
        provider.signing_key = ECKey.generate_key("P-256", {"kid": "k1"})
    elif key == "client-secret":
        provider.signing_key = OctKey.import_key(SECRET.encode() * 2)
        provider.algorithm = "HS256"
    provider.forge = forgery
    sent = start(iam, provider)

    answered = callback(iam, code="c-1", state=sent["state"])

    assert answered.status_code == 502, answered.text
    assert text in answered.text and "location" not in answered.headers
    assert len(stored_events(iam, tenant_id)) == before


def test_refusals_wrong_state_and_unreachable_provider_are_error_pages(
    iam: Iam, provider: FakeProvider
) -> None:
    tenant_id, headers = realm_with_provider(iam)
    sent = start(iam, provider)
    denied = callback(iam, error="access_denied", state=sent["state"])
    wrong = callback(iam, code="c-1", state="not-a-state")
    spent = callback(iam, code="c-1", state=sent["state"])
    mixed_up = callback(
        iam, code="c-1", state=start(iam, provider)["state"], iss="https://evil.example"
    )
    provider.down = True
    page = sign_in_page(iam)
    href = page.split('<a class="button" href="')[1].split('"')[0]
    unreachable = iam.http.get(path_of(href), follow_redirects=False)

    assert denied.status_code == 403 and "access_denied" in denied.text
    assert wrong.status_code == 400 and spent.status_code == 400
    assert mixed_up.status_code == 400 and "another issuer" in mixed_up.text
    assert unreachable.status_code == 502 and "Connection refused" in unreachable.text
    for answer in (denied, wrong, spent, mixed_up, unreachable):
        assert "location" not in answer.headers
    types = [event.event_type for event in stored_events(iam, tenant_id)]
    assert "UserFederated" not in types and "ada" not in usernames(
        iam, tenant_id, headers
    )


@pytest.mark.parametrize("verified", [True, False, "true"])
def test_link_by_email_only_when_the_provider_verified_it(
    iam: Iam, provider: FakeProvider, verified: object
) -> None:
    tenant_id, headers = realm_with_provider(iam, firstSignIn="link-by-email")
    created = iam.create_user(
        tenant_id, iam.access_token(tenant_id, "admin", "admin-password-1"), "carol"
    )
    assert created.status_code == 201
    usernames_with(iam, tenant_id, headers, "carol")
    provider.claims = {"email": "carol@example.com", "email_verified": verified}
    sent = start(iam, provider)

    answered = callback(iam, code="c-1", state=sent["state"])

    assert answered.status_code == 303, answered.text
    types = [event.event_type for event in stored_events(iam, tenant_id)]
    assert ("UserLinked" in types) is (verified is True)
    if verified is not True:
        assert "ada" in usernames_with(iam, tenant_id, headers, "ada")
