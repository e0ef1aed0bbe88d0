"""A tenant's realm as an OpenID provider, in process: discovery, the sign-in page, the
code flow with PKCE, and the refusals that must never redirect or issue."""

import base64
import re
import secrets
from urllib.parse import parse_qs, urlsplit

from iam.application.signin import s256
from tests.identity.conftest import ADMIN_PASSWORD, Iam
from tests.identity.test_registered_clients import WEB_APP, tenant_admin

ISSUER = "http://127.0.0.1:8081/realms/acme"
REDIRECT = WEB_APP["redirectUris"][0]


def public_client(iam: Iam) -> None:
    tenant_id, headers = tenant_admin(iam)
    created = iam.http.post(
        f"/api/v1/tenants/{tenant_id}/clients",
        json={**WEB_APP, "clientId": "spa", "clientType": "public"},
        headers=headers,
    )
    assert created.status_code == 201, created.text


def authorize(iam: Iam, **extra: str) -> str:
    params = {
        "response_type": "code",
        "client_id": "spa",
        "redirect_uri": REDIRECT,
        "scope": "openid user-profile:read",
        "state": "xyz",
        **extra,
    }
    page = iam.http.get("/realms/acme/authorize", params=params, follow_redirects=False)
    assert page.status_code == 200, page.text
    return page.text


def form_id(page: str) -> str:
    found = re.search(r'name="form" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def test_s256_is_the_rfc_7636_example() -> None:
    assert (
        s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    )


def test_discovery_lists_the_realms_endpoints(iam: Iam) -> None:
    public_client(iam)
    metadata = iam.http.get("/realms/acme/.well-known/openid-configuration").json()
    assert metadata["issuer"] == ISSUER
    assert metadata["authorization_endpoint"] == ISSUER + "/authorize"
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert (
        iam.http.get("/realms/platform/.well-known/openid-configuration").status_code
        == 404
    )


def test_the_sign_in_page_is_accessible_html(iam: Iam) -> None:
    public_client(iam)
    verifier = secrets.token_urlsafe(48)
    page = authorize(iam, code_challenge=s256(verifier), code_challenge_method="S256")
    assert '<html lang="en">' in page
    assert '<label for="username">' in page and 'id="username"' in page
    assert '<label for="password">' in page and 'id="password"' in page
    assert ":focus-visible" in page and "<script" not in page
    wrong = iam.http.post(
        "/realms/acme/login",
        data={"form": form_id(page), "username": "admin", "password": "wrong"},
        follow_redirects=False,
    )
    assert wrong.status_code == 400
    assert 'aria-describedby="password-error"' in wrong.text
    assert wrong.headers["x-frame-options"] == "DENY"


def test_code_flow_with_pkce(iam: Iam) -> None:
    public_client(iam)
    verifier = secrets.token_urlsafe(48)
    page = authorize(iam, code_challenge=s256(verifier), code_challenge_method="S256")
    signed_in = iam.http.post(
        "/realms/acme/login",
        data={"form": form_id(page), "username": "admin", "password": ADMIN_PASSWORD},
        follow_redirects=False,
    )
    assert signed_in.status_code == 303, signed_in.text
    returned = parse_qs(urlsplit(signed_in.headers["location"]).query)
    assert returned["state"] == ["xyz"] and returned["iss"] == [ISSUER]
    cookie = signed_in.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    token = iam.http.post(
        "/realms/acme/token",
        data={
            "grant_type": "authorization_code",
            "code": returned["code"][0],
            "redirect_uri": REDIRECT,
            "client_id": "spa",
            "code_verifier": verifier,
        },
    )
    assert token.status_code == 200, token.text
    body = token.json()
    payload = body["access_token"].split(".")[1]
    claims = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    assert f'"iss":"{ISSUER}"'.encode() in claims.replace(b" ", b"")
    userinfo = iam.http.get(
        "/realms/acme/userinfo",
        headers={"Authorization": f"Bearer {body['access_token']}"},
    )
    assert userinfo.status_code == 200
    # the token is accepted by the IAM's own API too (its issuer is one of the realms)
    introspected = iam.http.post(
        "/api/v1/auth/introspect",
        data={"token": body["access_token"]},
        headers={"Authorization": f"Bearer {body['access_token']}"},
    )
    assert introspected.json()["iss"] == ISSUER


def test_refusals_never_redirect_to_an_unregistered_uri(iam: Iam) -> None:
    public_client(iam)
    answer = iam.http.get(
        "/realms/acme/authorize",
        params={
            "response_type": "code",
            "client_id": "spa",
            "redirect_uri": "https://evil.test/cb",
        },
        follow_redirects=False,
    )
    assert answer.status_code == 400 and "location" not in answer.headers
    no_pkce = iam.http.get(
        "/realms/acme/authorize",
        params={"response_type": "code", "client_id": "spa", "redirect_uri": REDIRECT},
        follow_redirects=False,
    )
    assert no_pkce.status_code == 303
    assert "error=invalid_request" in no_pkce.headers["location"]
    unknown_code = iam.http.post(
        "/realms/acme/token",
        data={
            "grant_type": "authorization_code",
            "code": "nope",
            "redirect_uri": REDIRECT,
            "client_id": "spa",
        },
    )
    assert unknown_code.json()["error"] == "invalid_grant"


def test_a_tenant_name_is_one_percent_encoded_segment_of_its_issuer(
    iam: Iam,
) -> None:
    iam.create_tenant("Acme Corp")
    metadata = iam.http.get("/realms/Acme%20Corp/.well-known/openid-configuration")
    assert metadata.json()["issuer"] == "http://127.0.0.1:8081/realms/Acme%20Corp"
