"""Signing in at a realm through a tenant's SAML identity provider, end to end: the
authorization request, the sign-in page's button, the real pysaml2 IdP, the ACS, the
code, and a token carrying the roles the provider's mappers grant."""

import base64
import json
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest
from fastapi.testclient import TestClient

from iam.application.signin import s256
from iam.main import create_app
from tests.identity.conftest import Iam, bearer, eventually, settings_for
from tests.identity.saml_idp import AuthnRequest, TestIdentityProvider
from tests.identity.test_registered_clients import WEB_APP, tenant_admin
from tests.identity.test_signin import REDIRECT

REALM = "/realms/acme"


@pytest.fixture
def iam(tmp_path: Path) -> Iterator[Iam]:
    with TestClient(create_app(settings_for(tmp_path))) as http:
        yield Iam(http)


@pytest.fixture
def idp(tmp_path: Path) -> TestIdentityProvider:
    return TestIdentityProvider(tmp_path)


def tenant_with_saml(
    iam: Iam, idp: TestIdentityProvider, **settings: Any
) -> tuple[str, str]:
    """The tenant ``acme`` with the public client ``spa`` and the SAML provider
    ``corp``: its id and its administrator's token."""
    tenant_id, headers = tenant_admin(iam)
    spa = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/clients",
        json={**WEB_APP, "clientId": "spa", "clientType": "public"},
        headers=headers,
    )
    assert spa.status_code == 201, spa.text
    token = headers["Authorization"].removeprefix("Bearer ")
    created = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/saml-providers",
        json={
            "alias": "corp",
            "metadataXml": idp.metadata(),
            "attributeMappers": [
                {"samlAttribute": "mail", "userAttribute": "email"},
                {"samlAttribute": "displayName", "userAttribute": "name"},
            ],
            "roleMappers": [
                {"samlAttribute": "groups", "value": "admins", "role": "tenant-admin"}
            ],
            **settings,
        },
        headers=bearer(token),
    )
    assert created.status_code == 201, created.text
    idp.trust(iam.http.get(f"/api/v1/tenants/{tenant_id}/saml/corp/metadata").text)
    return tenant_id, token


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def press_saml_button(
    iam: Iam, idp: TestIdentityProvider, verifier: str
) -> AuthnRequest:
    """Authorize, press the SAML button of the sign-in page: the AuthnRequest the IdP
    receives."""
    page = iam.http.get(
        f"{REALM}/authorize",
        params={
            "response_type": "code",
            "client_id": "spa",
            "redirect_uri": REDIRECT,
            "scope": "openid user-profile:read",
            "state": "xyz",
            "code_challenge": s256(verifier),
            "code_challenge_method": "S256",
        },
    )
    assert page.status_code == 200, page.text
    button = re.search(
        r'<a class="button" href="([^"]+)">Sign in with corp</a>', page.text
    )
    assert button is not None, page.text
    href = button.group(1).replace("&amp;", "&")
    started = iam.http.get(
        path_of(urljoin(f"http://testserver{REALM}/authorize", href)),
        follow_redirects=False,
    )
    assert started.status_code == 303, started.text
    return idp.receive(started.headers["location"])


def post_to_acs(iam: Iam, request: AuthnRequest, saml_response: str) -> Any:
    return iam.http.post(
        path_of(request.acs_url),
        data={"SAMLResponse": saml_response, "RelayState": request.relay_state},
        follow_redirects=False,
    )


def sign_in_with_saml(
    iam: Iam, idp: TestIdentityProvider, verifier: str, **respond: Any
) -> Any:
    """Authorize, press the SAML button, sign in at the IdP, post to the ACS and come
    back: the final answer of the IAM (the redirect to the client, or an error)."""
    request = press_saml_button(iam, idp, verifier)
    consumed = post_to_acs(iam, request, idp.respond(request, **respond))
    assert consumed.status_code == 303, consumed.text
    return iam.http.get(path_of(consumed.headers["location"]), follow_redirects=False)


def exchange(iam: Iam, answer: Any, verifier: str) -> dict[str, Any]:
    assert answer.status_code == 303, answer.text
    location = answer.headers["location"]
    assert location.startswith(REDIRECT)
    returned = parse_qs(urlsplit(location).query)
    assert returned["state"] == ["xyz"]
    token = iam.http.post(
        f"{REALM}/token",
        data={
            "grant_type": "authorization_code",
            "code": returned["code"][0],
            "redirect_uri": REDIRECT,
            "client_id": "spa",
            "code_verifier": verifier,
        },
    )
    assert token.status_code == 200, token.text
    body: dict[str, Any] = token.json()
    return body


def claims_of(access_token: str) -> dict[str, Any]:
    payload = access_token.split(".")[1]
    decoded: dict[str, Any] = json.loads(
        base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    )
    return decoded


def test_the_sign_in_page_offers_the_enabled_providers(
    iam: Iam, idp: TestIdentityProvider
) -> None:
    tenant_id, token = tenant_with_saml(iam, idp)
    verifier = secrets.token_urlsafe(48)

    answer = sign_in_with_saml(iam, idp, verifier)
    assert answer.status_code == 303
    disabled = iam.http.put(
        f"/api/v1/tenants/{tenant_id}/saml-providers/corp",
        json={"metadataXml": idp.metadata(), "enabled": False},
        headers=bearer(token),
    )
    assert disabled.status_code == 200
    page = iam.http.get(
        f"{REALM}/authorize",
        params={
            "response_type": "code",
            "client_id": "spa",
            "redirect_uri": REDIRECT,
            "code_challenge": s256(verifier),
            "code_challenge_method": "S256",
        },
    )
    assert "Sign in with corp" not in page.text


def test_a_new_identity_signs_in_with_the_mapped_roles(
    iam: Iam, idp: TestIdentityProvider
) -> None:
    tenant_id, admin_token = tenant_with_saml(iam, idp)
    verifier = secrets.token_urlsafe(48)

    tokens = exchange(iam, sign_in_with_saml(iam, idp, verifier), verifier)

    claims = claims_of(tokens["access_token"])
    assert "tenant-admin" in claims["roles"]
    assert claims["tenant_id"] == tenant_id
    created = eventually(
        lambda: [
            user
            for user in iam.http.get(
                f"/api/v1/tenants/{tenant_id}/users", headers=bearer(admin_token)
            ).json()
            if user["username"] == "alice@corp.example"
        ]
    )
    assert created[0]["userId"] == claims["sub"]
    assert created[0]["attributes"]["name"] == "Alice Example"
    # a token asks for scopes: its permissions are the role's within them
    assert "user-profile:read" in claims["permissions"]


def test_an_identity_is_linked_by_the_email_the_provider_is_trusted_for(
    iam: Iam, idp: TestIdentityProvider
) -> None:
    tenant_id, admin_token = tenant_with_saml(
        iam, idp, firstSignIn="link-by-email", trustEmail=True
    )
    local = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/users",
        json={
            "username": "alice",
            "email": "alice@corp.example",
            "password": "user-password-1",
        },
        headers=bearer(admin_token),
    )
    assert local.status_code == 201, local.text
    eventually(
        lambda: any(
            u["username"] == "alice"
            for u in iam.http.get(
                f"/api/v1/tenants/{tenant_id}/users", headers=bearer(admin_token)
            ).json()
        )
    )
    verifier = secrets.token_urlsafe(48)

    tokens = exchange(iam, sign_in_with_saml(iam, idp, verifier), verifier)

    claims = claims_of(tokens["access_token"])
    assert claims["sub"] == local.json()["userId"]
    assert "tenant-admin" in claims["roles"]


def test_a_forged_response_signs_no_one_in(
    iam: Iam, idp: TestIdentityProvider, tmp_path: Path
) -> None:
    tenant_with_saml(iam, idp)
    forger = TestIdentityProvider(tmp_path, name="forger")
    request = press_saml_button(iam, idp, secrets.token_urlsafe(48))
    forger.trust(iam.http.get(path_of(request.issuer)).text)

    refused = post_to_acs(iam, request, forger.respond(request))

    assert refused.status_code == 400
    assert "set-cookie" not in refused.headers


def test_the_return_needs_the_browser_that_started(
    iam: Iam, idp: TestIdentityProvider
) -> None:
    """A response carried to another browser (login CSRF) gives that browser nothing."""
    tenant_with_saml(iam, idp)
    request = press_saml_button(iam, idp, secrets.token_urlsafe(48))
    consumed = post_to_acs(iam, request, idp.respond(request))
    assert consumed.status_code == 303
    iam.http.cookies.clear()

    other_browser = iam.http.get(
        path_of(consumed.headers["location"]), follow_redirects=False
    )

    assert other_browser.status_code == 400
    assert "iam_session" not in other_browser.headers.get("set-cookie", "")


def test_an_identity_whose_name_a_local_user_has_is_refused(
    iam: Iam, idp: TestIdentityProvider
) -> None:
    tenant_id, admin_token = tenant_with_saml(iam, idp)
    local = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/users",
        json={
            "username": "alice@corp.example",
            "email": "someone-else@corp.example",
            "password": "user-password-1",
        },
        headers=bearer(admin_token),
    )
    assert local.status_code == 201, local.text
    request = press_saml_button(iam, idp, secrets.token_urlsafe(48))

    refused = post_to_acs(iam, request, idp.respond(request))

    assert refused.status_code == 409, refused.text
    assert "exists already" in refused.text
    assert "set-cookie" not in refused.headers


def test_a_login_starts_only_for_a_form_of_this_browser(
    iam: Iam, idp: TestIdentityProvider
) -> None:
    tenant_with_saml(iam, idp)

    unknown_form = iam.http.get(f"{REALM}/saml/corp/login?form=not-a-form")
    unknown_alias = iam.http.get(f"{REALM}/saml/nope/login?form=not-a-form")

    assert unknown_form.status_code == 400
    assert "start again" in unknown_form.text
    assert unknown_alias.status_code == 400
