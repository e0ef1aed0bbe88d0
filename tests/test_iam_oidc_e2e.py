"""A running IAM as an OpenID provider per tenant: authlib's OAuth2Client completes the
authorization code flow with PKCE from the tenant's discovery document, the ID token
verifies against the JWKS, userinfo answers; every misuse of the flow is refused with a
clear error and nothing issued."""

from __future__ import annotations

import hashlib
import re
import secrets
from base64 import urlsafe_b64encode
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from authlib.integrations.httpx_client import OAuth2Client
from helpers import Service, free_port, iam_environ, password_token
from joserfc import jwt
from joserfc.jwk import KeySet
from joserfc.jwt import JWTClaimsRegistry

ADMIN = ("root", secrets.token_urlsafe(16))
PASSWORD = secrets.token_urlsafe(12)
REDIRECT = "http://127.0.0.1:9/callback"
LOGOUT_REDIRECT = "http://127.0.0.1:9/signed-out"


@dataclass
class Realm:
    """A tenant with a confidential and a public client, and its administrator."""

    iam: str
    name: str
    tenant_id: str
    secret: str

    @property
    def issuer(self) -> str:
        return f"{self.iam}/realms/{self.name}"

    def metadata(self) -> dict[str, Any]:
        answer = httpx.get(f"{self.issuer}/.well-known/openid-configuration")
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        return body


def create_realm(iam: str, name: str) -> Realm:
    """The tenant ``name`` (administrator ``boss``) and its clients ``portal``
    (confidential, first-party) and ``spa`` (public)."""
    root = password_token(iam, "platform", *ADMIN)
    created = httpx.post(
        f"{iam}/api/v1/tenants",
        json={
            "name": name,
            "adminUsername": "boss",
            "adminEmail": f"boss@{name}.test",
            "adminPassword": PASSWORD,
        },
        headers={"Authorization": f"Bearer {root}"},
    )
    assert created.status_code == 201, created.text
    tenant_id = created.json()["tenantId"]
    admin = {"Authorization": f"Bearer {password_token(iam, name, 'boss', PASSWORD)}"}
    common = {
        "grantTypes": ["authorization_code", "refresh_token"],
        "redirectUris": [REDIRECT],
        "postLogoutRedirectUris": [LOGOUT_REDIRECT],
        "scopes": ["openid", "profile", "email", "user-profile:read"],
        "firstParty": True,
    }
    portal = httpx.post(
        f"{iam}/api/v1/tenants/{tenant_id}/clients",
        json={"clientId": "portal", "clientType": "confidential", **common},
        headers=admin,
    )
    assert portal.status_code == 201, portal.text
    spa = httpx.post(
        f"{iam}/api/v1/tenants/{tenant_id}/clients",
        json={"clientId": "spa", "clientType": "public", **common},
        headers=admin,
    )
    assert spa.status_code == 201, spa.text
    return Realm(iam, name, tenant_id, portal.json()["clientSecret"])


def start_iam(directory: Path) -> Service:
    port = free_port()
    iam = Service(
        "iam",
        directory / "iam.log",
        {
            **iam_environ(directory, f"http://127.0.0.1:{port}", ADMIN),
            "BROKER_RELAY": "false",
            "BROKER_CONSUME": "false",
        },
        port=port,
    )
    iam.wait_ready()
    return iam


@pytest.fixture(scope="module")
def realms(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Realm, Realm]]:
    iam = start_iam(tmp_path_factory.mktemp("oidc"))
    try:
        yield create_realm(iam.url, "acme"), create_realm(iam.url, "globex")
    finally:
        iam.stop()


def sign_in(
    browser: httpx.Client, authorization_url: str, password: str = PASSWORD
) -> httpx.Response:
    """What the sign-in form answers for ``boss`` (the browser keeps its cookies)."""
    page = browser.get(authorization_url)
    assert page.status_code == 200, page.text
    action = re.search(r'<form method="post" action="([^"]+)"', page.text)
    form = re.search(r'name="form" value="([^"]+)"', page.text)
    assert action and form, page.text
    return browser.post(
        action.group(1),
        data={"form": form.group(1), "username": "boss", "password": password},
    )


def code_of(location: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def challenge(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode()).digest()
    return urlsafe_b64encode(digest).rstrip(b"=").decode()


def authorize_url(realm: Realm, client_id: str = "portal", **extra: str) -> str:
    params = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT,
        "scope": "openid profile",
        "state": "s-1",
        **extra,
    }
    return str(httpx.URL(realm.metadata()["authorization_endpoint"], params=params))


def a_code(realm: Realm, client_id: str = "portal", verifier: str | None = None) -> str:
    """A fresh code for ``client_id``, with the S256 challenge of ``verifier``."""
    extra = {}
    if verifier is not None:
        extra = {"code_challenge": challenge(verifier), "code_challenge_method": "S256"}
    with httpx.Client() as browser:
        answer = sign_in(browser, authorize_url(realm, client_id, **extra))
    assert answer.status_code == 303, answer.text
    return code_of(answer.headers["location"])["code"]


def redeem(realm: Realm, code: str, **form: str) -> httpx.Response:
    return httpx.post(
        f"{realm.issuer}/token",
        data={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            **form,
        },
    )


def test_authlib_completes_code_and_pkce_validates_the_id_token_and_gets_userinfo(
    realms: tuple[Realm, Realm],
) -> None:
    acme, _ = realms
    metadata = acme.metadata()
    assert metadata["issuer"] == acme.issuer
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert metadata["end_session_endpoint"] == f"{acme.issuer}/logout"
    verifier, nonce = secrets.token_urlsafe(48), secrets.token_urlsafe(16)
    with OAuth2Client(
        client_id="portal",
        client_secret=acme.secret,
        redirect_uri=REDIRECT,
        scope="openid profile email user-profile:read",
        code_challenge_method="S256",
    ) as client:
        url, state = client.create_authorization_url(
            metadata["authorization_endpoint"], code_verifier=verifier, nonce=nonce
        )
        with httpx.Client() as browser:
            answer = sign_in(browser, url)
            assert answer.status_code == 303, answer.text
            location = answer.headers["location"]
            assert location.startswith(REDIRECT + "?")
            assert code_of(location)["state"] == state
            assert code_of(location)["iss"] == acme.issuer
            token = client.fetch_token(
                metadata["token_endpoint"],
                authorization_response=location,
                code_verifier=verifier,
            )
            # a second authorization request signs in at once: the session cookie
            again = browser.get(authorize_url(acme))
            assert again.status_code == 303
            assert "code" in code_of(again.headers["location"])
        keys = KeySet.import_key_set(httpx.get(metadata["jwks_uri"]).json())
        id_token = jwt.decode(token["id_token"], keys)
        assert id_token.header["alg"] in metadata["id_token_signing_alg_values_supported"]
        JWTClaimsRegistry(
            iss={"essential": True, "value": acme.issuer},
            aud={"essential": True, "value": "portal"},
            azp={"essential": True, "value": "portal"},
            nonce={"essential": True, "value": nonce},
            sub={"essential": True},
            auth_time={"essential": True},
            exp={"essential": True},
            iat={"essential": True},
        ).validate(id_token.claims)
        assert id_token.claims["preferred_username"] == "boss"
        userinfo = client.get(metadata["userinfo_endpoint"])
        assert userinfo.status_code == 200, userinfo.text
        assert userinfo.json() == {
            "sub": id_token.claims["sub"],
            "preferred_username": "boss",
            "email": "boss@acme.test",
        }
        access = jwt.decode(token["access_token"], keys).claims
        assert access["iss"] == acme.issuer
        assert access["tenant_id"] == acme.tenant_id
        assert access["permissions"] == ["user-profile:read"]
        refreshed = client.refresh_token(metadata["token_endpoint"])
        assert jwt.decode(refreshed["access_token"], keys).claims["iss"] == acme.issuer


def test_the_realms_discovery_lists_only_what_is_implemented(
    realms: tuple[Realm, Realm],
) -> None:
    acme, _ = realms
    metadata = acme.metadata()
    other = httpx.get(f"{acme.issuer}/.well-known/oauth-authorization-server").json()
    assert other == metadata
    assert metadata["response_types_supported"] == ["code"]
    assert metadata["grant_types_supported"] == ["authorization_code", "refresh_token"]
    for name in (
        "authorization_endpoint",
        "token_endpoint",
        "userinfo_endpoint",
        "end_session_endpoint",
        "jwks_uri",
        "revocation_endpoint",
        "introspection_endpoint",
    ):
        assert metadata[name].startswith(acme.issuer + "/")
    unknown = httpx.get(f"{acme.iam}/realms/nobody/.well-known/openid-configuration")
    assert unknown.status_code == 404
    # the root provider is as before: password, client credentials, refresh
    root = httpx.get(f"{acme.iam}/.well-known/openid-configuration").json()
    assert root["issuer"] == acme.iam
    assert root["grant_types_supported"] == ["password", "client_credentials", "refresh_token"]


def test_a_public_client_uses_pkce_and_its_refresh_token(realms: tuple[Realm, Realm]) -> None:
    acme, _ = realms
    verifier = secrets.token_urlsafe(48)
    code = a_code(acme, "spa", verifier)
    answer = redeem(acme, code, client_id="spa", code_verifier=verifier)
    assert answer.status_code == 200, answer.text
    assert answer.json()["id_token"] and answer.json()["refresh_token"]


def test_a_wrong_or_unregistered_redirect_uri_is_an_error_page_never_a_redirect(
    realms: tuple[Realm, Realm],
) -> None:
    acme, _ = realms
    for wrong in ("http://127.0.0.1:9/elsewhere", REDIRECT + "/x", REDIRECT + "?a=1"):
        answer = httpx.get(authorize_url(acme, redirect_uri=wrong))
        assert answer.status_code == 400
        assert "location" not in answer.headers
        assert "redirect_uri is missing or not registered" in answer.text
    unknown_client = httpx.get(authorize_url(acme, client_id="nobody"))
    assert unknown_client.status_code == 400 and "location" not in unknown_client.headers


def test_a_public_client_without_pkce_or_with_plain_is_refused(
    realms: tuple[Realm, Realm],
) -> None:
    acme, _ = realms
    for extra in (
        {},
        {"code_challenge": "x" * 43, "code_challenge_method": "plain"},
        {"code_challenge": "x" * 43},
    ):
        answer = httpx.get(authorize_url(acme, "spa", **extra))
        assert answer.status_code == 303
        refused = code_of(answer.headers["location"])
        assert refused["error"] == "invalid_request"
        assert refused["state"] == "s-1"
        assert "code" not in refused


def test_a_missing_or_wrong_verifier_is_refused_and_nothing_issued(
    realms: tuple[Realm, Realm],
) -> None:
    acme, _ = realms
    verifier = secrets.token_urlsafe(48)
    missing = redeem(acme, a_code(acme, "spa", verifier), client_id="spa")
    assert missing.status_code == 400
    assert missing.json() == {
        "error": "invalid_grant",
        "error_description": "code_verifier is missing (PKCE)",
    }
    wrong = redeem(
        acme,
        a_code(acme, "spa", verifier),
        client_id="spa",
        code_verifier=secrets.token_urlsafe(48),
    )
    assert wrong.status_code == 400
    assert wrong.json()["error_description"] == "code_verifier does not match the challenge"
    assert "access_token" not in missing.json() | wrong.json()


def test_a_reused_code_is_refused_and_the_tokens_it_gave_are_revoked(
    realms: tuple[Realm, Realm],
) -> None:
    acme, _ = realms
    code = a_code(acme)
    auth = ("portal", acme.secret)
    first = httpx.post(
        f"{acme.issuer}/token",
        data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT},
        auth=auth,
    )
    assert first.status_code == 200, first.text
    issued = first.json()
    again = httpx.post(
        f"{acme.issuer}/token",
        data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT},
        auth=auth,
    )
    assert again.status_code == 400
    assert again.json()["error"] == "invalid_grant"
    assert "used already" in again.json()["error_description"]
    introspected = httpx.post(
        f"{acme.issuer}/introspect", data={"token": issued["access_token"]}, auth=auth
    )
    assert introspected.json() == {"active": False}
    refreshed = httpx.post(
        f"{acme.issuer}/token",
        data={"grant_type": "refresh_token", "refresh_token": issued["refresh_token"]},
        auth=auth,
    )
    assert refreshed.status_code == 400 and refreshed.json()["error"] == "invalid_grant"


def test_a_code_of_another_client_or_another_tenant_is_refused(
    realms: tuple[Realm, Realm],
) -> None:
    acme, globex = realms
    verifier = secrets.token_urlsafe(48)
    other_client = redeem(
        acme, a_code(acme, "portal", verifier), client_id="spa", code_verifier=verifier
    )
    assert other_client.status_code == 400
    assert other_client.json() == {
        "error": "invalid_grant",
        "error_description": "code issued to another client",
    }
    # globex has a client "spa" too: acme's code is still refused at globex's endpoint
    other_tenant = redeem(
        globex, a_code(acme, "spa", verifier), client_id="spa", code_verifier=verifier
    )
    assert other_tenant.status_code == 400
    assert other_tenant.json() == {
        "error": "invalid_grant",
        "error_description": "code issued by another realm",
    }


def test_a_wrong_password_shows_the_form_again_with_the_error_and_no_code(
    realms: tuple[Realm, Realm],
) -> None:
    acme, _ = realms
    with httpx.Client() as browser:
        answer = sign_in(browser, authorize_url(acme), password="not-the-password")
        assert answer.status_code == 400
        assert "location" not in answer.headers
        assert 'aria-describedby="password-error"' in answer.text
        assert "Wrong username or password." in answer.text
        assert "iam_session" not in browser.cookies


def test_a_form_posted_without_the_browsers_cookie_is_refused(
    realms: tuple[Realm, Realm],
) -> None:
    acme, _ = realms
    with httpx.Client() as browser:
        page = browser.get(authorize_url(acme))
        form = re.search(r'name="form" value="([^"]+)"', page.text)
        assert form is not None
    forged = httpx.post(
        f"{acme.issuer}/login",
        data={"form": form.group(1), "username": "boss", "password": PASSWORD},
    )
    assert forged.status_code == 400
    assert "location" not in forged.headers


def test_logout_ends_the_session_and_returns_to_the_registered_uri(
    realms: tuple[Realm, Realm],
) -> None:
    acme, _ = realms
    with httpx.Client() as browser:
        signed_in = sign_in(browser, authorize_url(acme))
        code = code_of(signed_in.headers["location"])["code"]
        tokens = httpx.post(
            f"{acme.issuer}/token",
            data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT},
            auth=("portal", acme.secret),
        ).json()
        unregistered = browser.get(
            f"{acme.issuer}/logout",
            params={
                "id_token_hint": tokens["id_token"],
                "post_logout_redirect_uri": "http://127.0.0.1:9/else",
            },
        )
        assert unregistered.status_code == 400 and "location" not in unregistered.headers
        signed_in_again = browser.get(authorize_url(acme))
        assert signed_in_again.status_code == 200  # the refused logout ended it anyway
        sign_in(browser, authorize_url(acme))
        out = browser.get(
            f"{acme.issuer}/logout",
            params={
                "id_token_hint": tokens["id_token"],
                "post_logout_redirect_uri": LOGOUT_REDIRECT,
                "state": "bye",
            },
        )
        assert out.status_code == 303
        assert out.headers["location"] == LOGOUT_REDIRECT + "?state=bye"
        assert browser.get(authorize_url(acme)).status_code == 200  # the form again


def register(realm: Realm, body: dict[str, Any]) -> dict[str, Any]:
    admin = password_token(realm.iam, realm.name, "boss", PASSWORD)
    answer = httpx.post(
        f"{realm.iam}/api/v1/tenants/{realm.tenant_id}/{body.pop('kind', 'clients')}",
        json=body,
        headers={"Authorization": f"Bearer {admin}"},
    )
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def test_a_third_party_client_gets_a_code_only_once_the_user_consents(
    realms: tuple[Realm, Realm],
) -> None:
    _, globex = realms
    register(
        globex,
        {
            "clientId": "partner",
            "name": "Partner app",
            "clientType": "public",
            "redirectUris": [REDIRECT],
            "scopes": ["openid", "profile"],
        },
    )
    verifier = secrets.token_urlsafe(48)
    pkce = {"code_challenge": challenge(verifier), "code_challenge_method": "S256"}
    with httpx.Client() as browser:
        asked = sign_in(browser, authorize_url(globex, "partner", **pkce))
        assert asked.status_code == 200
        assert "Allow Partner app?" in asked.text
        form = re.search(r'name="form" value="([^"]+)"', asked.text)
        assert form is not None
        denied = browser.post(
            f"{globex.issuer}/consent", data={"form": form.group(1), "decision": "deny"}
        )
        assert denied.status_code == 303
        assert code_of(denied.headers["location"])["error"] == "access_denied"
        again = browser.get(authorize_url(globex, "partner", **pkce))
        form = re.search(r'name="form" value="([^"]+)"', again.text)
        assert form is not None and "Allow Partner app?" in again.text
        allowed = browser.post(
            f"{globex.issuer}/consent", data={"form": form.group(1), "decision": "allow"}
        )
        code = code_of(allowed.headers["location"])["code"]
    tokens = redeem(globex, code, client_id="partner", code_verifier=verifier)
    assert tokens.status_code == 200, tokens.text
    # no permission scope asked for or registered: the token only identifies its user
    keys = KeySet.import_key_set(httpx.get(f"{globex.issuer}/jwks").json())
    assert jwt.decode(tokens.json()["access_token"], keys).claims["permissions"] == []


def test_the_sign_in_page_is_throttled_as_the_password_grant_is(
    realms: tuple[Realm, Realm],
) -> None:
    acme, _ = realms
    register(
        acme,
        {
            "kind": "users",
            "username": "eve",
            "email": "eve@acme.test",
            "password": PASSWORD,
            "roles": ["user"],
        },
    )
    with httpx.Client() as browser:
        page = browser.get(authorize_url(acme))
        form = re.search(r'name="form" value="([^"]+)"', page.text)
        assert form is not None
        statuses = [
            browser.post(
                f"{acme.issuer}/login",
                data={"form": form.group(1), "username": "eve", "password": "wrong"},
            ).status_code
            for _ in range(6)
        ]
        assert statuses[:5] == [400] * 5 and statuses[5] == 429
    # the same account is throttled at the token endpoint too
    grant = httpx.post(
        f"{acme.iam}/api/v1/auth/token",
        data={"grant_type": "password", "tenant": "acme", "username": "eve", "password": PASSWORD},
    )
    assert grant.status_code == 429
