"""SAML 2.0 identity providers of a tenant: configuration over HTTP, the service
provider's metadata, and logins answered by a real pysaml2 identity provider, with the
responses an attacker would send refused."""

import base64
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eaf import context
from eaf.eventsourcing import EventStore
from fastapi.testclient import TestClient

from iam.main import create_app
from tests.identity.conftest import Iam, bearer, settings_for
from tests.identity.saml_idp import (
    IDP_ENTITY_ID,
    SSO_URL,
    AuthnRequest,
    TestIdentityProvider,
)

ALIAS = "corp"
MAPPERS: dict[str, Any] = {
    "attributeMappers": [
        {"samlAttribute": "mail", "userAttribute": "email"},
        {"samlAttribute": "displayName", "userAttribute": "name"},
    ],
    "roleMappers": [
        {"samlAttribute": "groups", "value": "admins", "role": "tenant-admin"}
    ],
}


@pytest.fixture
def iam(tmp_path: Path) -> Iterator[Iam]:
    with TestClient(create_app(settings_for(tmp_path))) as http:
        yield Iam(http)


@pytest.fixture
def idp(tmp_path: Path) -> TestIdentityProvider:
    return TestIdentityProvider(tmp_path)


class Tenant:
    """A tenant with its administrator, and the SAML provider it configures."""

    def __init__(self, iam: Iam, name: str) -> None:
        self.iam = iam
        self.id, self.token = iam.tenant_admin(name)

    @property
    def providers(self) -> str:
        return f"/api/v1/tenants/{self.id}/saml-providers"

    @property
    def saml(self) -> str:
        return f"/api/v1/tenants/{self.id}/saml/{ALIAS}"

    def configure(self, idp: TestIdentityProvider, **body: Any) -> dict[str, Any]:
        response = self.iam.http.post(
            self.providers,
            json={"alias": ALIAS, "metadataXml": idp.metadata(), **MAPPERS, **body},
            headers=bearer(self.token),
        )
        assert response.status_code == 201, response.text
        idp.trust(self.iam.http.get(f"{self.saml}/metadata").text)
        provider: dict[str, Any] = response.json()
        return provider

    def login(self, idp: TestIdentityProvider) -> AuthnRequest:
        """GET the login URL and follow it to the identity provider."""
        response = self.iam.http.get(f"{self.saml}/login", follow_redirects=False)
        if response.status_code == 303:
            return idp.receive(response.headers["location"])
        assert response.status_code == 200, response.text
        form = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', response.text))
        assert re.search(rf'action="{re.escape(SSO_URL)}"', response.text)
        return idp.receive(SSO_URL, form)

    def acs(self, saml_response: str, relay_state: str) -> Any:
        return self.iam.http.post(
            f"{self.saml}/acs",
            data={"SAMLResponse": saml_response, "RelayState": relay_state},
        )


@pytest.fixture
def tenant(iam: Iam, idp: TestIdentityProvider) -> Tenant:
    tenant = Tenant(iam, "acme")
    tenant.configure(idp)
    return tenant


def decoded(saml_response: str) -> str:
    return base64.b64decode(saml_response).decode()


def encoded(document: str) -> str:
    return base64.b64encode(document.encode()).decode()


def assert_refused(response: Any, reason: str = "") -> None:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["title"] == "SAML response refused"
    assert reason in body["detail"]


# --- configuration -------------------------------------------------------------------


def test_a_provider_is_configured_from_metadata_and_shown_with_its_sp_urls(
    iam: Iam, idp: TestIdentityProvider
) -> None:
    tenant = Tenant(iam, "acme")
    provider = tenant.configure(idp, binding="HTTP-POST")

    assert provider["alias"] == ALIAS
    assert provider["entityId"] == IDP_ENTITY_ID
    assert provider["ssoUrl"] == SSO_URL
    assert provider["binding"] == "HTTP-POST"
    assert provider["signAuthnRequests"] is True
    assert provider["enabled"] is True
    assert provider["acsUrl"].endswith(f"/api/v1/tenants/{tenant.id}/saml/{ALIAS}/acs")
    assert provider["roleMappers"] == MAPPERS["roleMappers"]
    listed = iam.http.get(tenant.providers, headers=bearer(tenant.token)).json()
    assert [p["alias"] for p in listed] == [ALIAS]


def test_a_provider_is_configured_from_entity_id_sso_url_and_certificate(
    iam: Iam, idp: TestIdentityProvider
) -> None:
    tenant = Tenant(iam, "acme")
    response = iam.http.post(
        tenant.providers,
        json={
            "alias": ALIAS,
            "entityId": IDP_ENTITY_ID,
            "ssoUrl": SSO_URL,
            "signingCertificate": idp.certificate_pem,
            **MAPPERS,
        },
        headers=bearer(tenant.token),
    )
    assert response.status_code == 201, response.text
    idp.trust(iam.http.get(f"{tenant.saml}/metadata").text)

    request = tenant.login(idp)
    answer = tenant.acs(idp.respond(request), request.relay_state)

    assert answer.status_code == 200, answer.text
    assert answer.json()["nameId"] == "alice@corp.example"


def test_every_invalid_field_is_named(iam: Iam) -> None:
    tenant = Tenant(iam, "acme")
    response = iam.http.post(
        tenant.providers,
        json={
            "alias": "Not An Alias",
            "entityId": "",
            "ssoUrl": "ftp://idp",
            "signingCertificate": "not a certificate",
            "binding": "HTTP-Artifact",
            "nameIdFormat": "email",
            "firstSignIn": "merge",
            "attributeMappers": [{"samlAttribute": "", "userAttribute": "1bad"}],
            "roleMappers": [{"samlAttribute": "groups", "value": "x", "role": "nope"}],
        },
        headers=bearer(tenant.token),
    )

    assert response.status_code == 422, response.text
    fields = {error["field"] for error in response.json()["errors"]}
    assert fields >= {
        "alias",
        "entityId",
        "ssoUrl",
        "signingCertificate",
        "binding",
        "nameIdFormat",
        "firstSignIn",
        "attributeMappers.0.samlAttribute",
        "attributeMappers.0.userAttribute",
    }


def test_unknown_roles_of_role_mappers_are_named(
    iam: Iam, idp: TestIdentityProvider
) -> None:
    tenant = Tenant(iam, "acme")
    response = iam.http.post(
        tenant.providers,
        json={
            "alias": ALIAS,
            "metadataXml": idp.metadata(),
            "roleMappers": [{"samlAttribute": "groups", "value": "x", "role": "nope"}],
        },
        headers=bearer(tenant.token),
    )

    assert response.status_code == 422, response.text
    assert response.json()["errors"] == [
        {"field": "roleMappers", "message": "Unknown roles: nope"}
    ]


def test_metadata_that_describes_no_identity_provider_is_refused(iam: Iam) -> None:
    tenant = Tenant(iam, "acme")
    response = iam.http.post(
        tenant.providers,
        json={"alias": ALIAS, "metadataXml": "<nope/>"},
        headers=bearer(tenant.token),
    )
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == "metadataXml"


def test_changes_are_recorded_as_events(
    iam: Iam, tenant: Tenant, idp: TestIdentityProvider
) -> None:
    changed = iam.http.put(
        f"{tenant.providers}/{ALIAS}",
        json={"metadataXml": idp.metadata(), "enabled": False},
        headers=bearer(tenant.token),
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["enabled"] is False
    removed = iam.http.delete(
        f"{tenant.providers}/{ALIAS}", headers=bearer(tenant.token)
    )
    assert removed.status_code == 204

    assert (
        iam.http.get(
            f"{tenant.providers}/{ALIAS}", headers=bearer(tenant.token)
        ).status_code
        == 404
    )
    store: EventStore = iam.http.app.state.store  # type: ignore[attr-defined]

    async def types() -> list[str]:
        with context.use(context.SecurityContext(tenant_id=tenant.id)):
            events = await store.read_all(after=0, limit=1000)
        return [e.event_type for e in events if e.stream_type == "SamlIdentityProvider"]

    assert iam.http.portal is not None
    assert iam.http.portal.call(types) == [
        "SamlIdentityProviderCreated",
        "SamlIdentityProviderChanged",
        "SamlIdentityProviderStatusChanged",
    ]


def test_one_tenants_providers_are_invisible_to_another(
    iam: Iam, tenant: Tenant
) -> None:
    other = Tenant(iam, "globex")

    assert iam.http.get(other.providers, headers=bearer(other.token)).json() == []
    assert (
        iam.http.get(
            f"{other.providers}/{ALIAS}", headers=bearer(other.token)
        ).status_code
        == 404
    )
    assert (
        iam.http.get(tenant.providers, headers=bearer(other.token)).status_code == 404
    )
    assert iam.http.get(f"{other.saml}/metadata").status_code == 404


def test_configuring_needs_the_permission(iam: Iam, tenant: Tenant) -> None:
    created = iam.create_user(tenant.id, tenant.token, "bob")
    assert created.status_code == 201, created.text
    token = iam.access_token(tenant.id, "bob", "user-password-1")

    assert iam.http.get(tenant.providers, headers=bearer(token)).status_code == 403
    assert iam.http.get(tenant.providers).status_code == 401


# --- service provider metadata ---------------------------------------------------------


def test_the_sp_metadata_names_entity_id_acs_and_signing_certificate(
    iam: Iam, tenant: Tenant
) -> None:
    response = iam.http.get(f"{tenant.saml}/metadata")

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/samlmetadata+xml")
    document = response.text
    assert f'entityID="{iam.http.base_url}' not in document  # the configured issuer
    assert f"/api/v1/tenants/{tenant.id}/saml/{ALIAS}/metadata" in document
    assert f"/api/v1/tenants/{tenant.id}/saml/{ALIAS}/acs" in document
    assert 'AuthnRequestsSigned="true"' in document
    assert "X509Certificate" in document


# --- logins ----------------------------------------------------------------------------


@pytest.mark.parametrize("binding", ["HTTP-Redirect", "HTTP-POST"])
def test_a_signed_response_gives_the_external_identity_with_mapped_roles(
    iam: Iam, idp: TestIdentityProvider, binding: str
) -> None:
    tenant = Tenant(iam, "acme")
    tenant.configure(idp, binding=binding)

    request = tenant.login(idp)
    assert request.signed
    response = tenant.acs(idp.respond(request), request.relay_state)

    assert response.status_code == 200, response.text
    assert response.json() == {
        "tenantId": tenant.id,
        "providerAlias": ALIAS,
        "issuer": IDP_ENTITY_ID,
        "nameId": "alice@corp.example",
        "nameIdFormat": "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
        "attributes": {"email": "alice@corp.example", "name": "Alice Example"},
        "roles": ["tenant-admin"],
    }


def test_a_signed_response_with_an_unsigned_assertion_is_accepted(
    tenant: Tenant, idp: TestIdentityProvider
) -> None:
    request = tenant.login(idp)
    saml_response = idp.respond(request, sign_response=True, sign_assertion=False)

    assert tenant.acs(saml_response, request.relay_state).status_code == 200


def test_unsigned_requests_when_the_provider_says_so(
    iam: Iam, idp: TestIdentityProvider
) -> None:
    tenant = Tenant(iam, "acme")
    tenant.configure(idp, signAuthnRequests=False)
    response = iam.http.get(f"{tenant.saml}/login", follow_redirects=False)

    assert "Signature=" not in response.headers["location"]


# --- what is refused ---------------------------------------------------------------


def test_an_assertion_signed_by_another_key_is_refused(
    tenant: Tenant, idp: TestIdentityProvider, tmp_path: Path
) -> None:
    request = tenant.login(idp)
    forger = TestIdentityProvider(tmp_path, name="forger")
    forger.trust(tenant.iam.http.get(f"{tenant.saml}/metadata").text)

    forged = forger.respond(request, sign_response=True, sign_assertion=True)
    assert_refused(tenant.acs(forged, request.relay_state), "signature")
    # the request is still open: the real response is accepted afterwards
    assert tenant.acs(idp.respond(request), request.relay_state).status_code == 200


def test_an_unsigned_response_is_refused(
    tenant: Tenant, idp: TestIdentityProvider
) -> None:
    request = tenant.login(idp)
    unsigned = idp.respond(request, sign_response=False, sign_assertion=False)

    assert_refused(tenant.acs(unsigned, request.relay_state), "not signed")
    assert tenant.acs(idp.respond(request), request.relay_state).status_code == 200


def test_a_tampered_signed_assertion_is_refused(
    tenant: Tenant, idp: TestIdentityProvider
) -> None:
    request = tenant.login(idp)
    document = decoded(idp.respond(request, email="alice@corp.example"))
    tampered = document.replace("alice@corp.example", "mallory@corp.example")

    assert_refused(tenant.acs(encoded(tampered), request.relay_state), "signature")


def _assertion(document: str) -> tuple[int, int]:
    """Where the (first) assertion of ``document`` starts and ends."""
    start = re.search(r"<(\w+:)?Assertion[\s>]", document)
    assert start is not None
    closing = f"</{start.group(1) or ''}Assertion>"
    return start.start(), document.index(closing, start.start()) + len(closing)


def _prefix(document: str, element: str) -> str:
    found = re.search(rf"<(\w+:)?{element}[\s>]", document)
    assert found is not None, element
    return found.group(1) or ""


def _evil(assertion: str) -> str:
    """A copy of ``assertion`` for mallory, with its signature stripped and a new ID."""
    evil = re.sub(
        r"<(\w+:)?Signature[\s>].*?</(\w+:)?Signature>", "", assertion, flags=re.S
    )
    evil = evil.replace("alice@corp.example", "mallory@corp.example")
    return re.sub(r'ID="[^"]+"', 'ID="id-evil"', evil, count=1)


def _before_first(document: str, element: str, inserted: str) -> str:
    found = re.search(rf"<(\w+:)?{element}[\s>]", document)
    assert found is not None, element
    return document[: found.start()] + inserted + document[found.start() :]


def _in_advice(doc: str, a: int, b: int) -> str:
    """The signed assertion moved into the Advice of mallory's unsigned one."""
    prefix = _prefix(doc, "Assertion")
    advice = f"<{prefix}Advice>{doc[a:b]}</{prefix}Advice>"
    return doc[:a] + _before_first(_evil(doc[a:b]), "AuthnStatement", advice) + doc[b:]


def _in_extensions(doc: str, a: int, b: int) -> str:
    """The signed assertion hidden in the response's Extensions, mallory's in its place."""
    prefix = _prefix(doc, "Response")
    extensions = f"<{prefix}Extensions>{doc[a:b]}</{prefix}Extensions>"
    return _before_first(doc[:a], "Status", extensions) + _evil(doc[a:b]) + doc[b:]


@pytest.mark.parametrize(
    "wrap",
    [
        # XSW: an unsigned assertion before the signed one
        lambda doc, a, b: doc[:a] + _evil(doc[a:b]) + doc[a:],
        # XSW: an unsigned assertion after the signed one
        lambda doc, a, b: doc[:b] + _evil(doc[a:b]) + doc[b:],
        _in_advice,
        _in_extensions,
    ],
    ids=["before", "after", "in-advice", "in-extensions"],
)
def test_signature_wrapping_is_refused(
    tenant: Tenant, idp: TestIdentityProvider, wrap: Any
) -> None:
    request = tenant.login(idp)
    document = decoded(idp.respond(request))
    start, end = _assertion(document)
    wrapped = wrap(document, start, end)
    assert "mallory@corp.example" in wrapped
    assert wrapped.count(document[start:end]) == 1  # the signed assertion, untouched

    assert_refused(tenant.acs(encoded(wrapped), request.relay_state))
    answer = tenant.acs(idp.respond(request), request.relay_state)
    assert answer.json()["nameId"] == "alice@corp.example"


def test_a_wrapped_response_signature_is_refused(
    tenant: Tenant, idp: TestIdentityProvider
) -> None:
    """The signed response kept whole in the Extensions of a forged one that carries
    mallory's assertion (the response ID the signature names is the hidden one's)."""
    request = tenant.login(idp)
    signed = decoded(idp.respond(request, sign_response=True, sign_assertion=False))
    signed = signed[
        signed.index("<", signed.index("?>") + 2 if "?>" in signed else 0) :
    ]
    start, end = _assertion(signed)
    prefix = _prefix(signed, "Response")
    unsigned_head = re.sub(
        r"<(\w+:)?Signature[\s>].*?</(\w+:)?Signature>", "", signed[:start], flags=re.S
    )
    forged = (
        _before_first(
            unsigned_head.replace(' ID="', ' ID="forged-', 1),
            "Status",
            f"<{prefix}Extensions>{signed}</{prefix}Extensions>",
        )
        + _evil(signed[start:end])
        + signed[end:]
    )
    assert forged.count(signed) == 1

    assert_refused(tenant.acs(encoded(forged), request.relay_state))


def test_an_expired_assertion_is_refused(
    tenant: Tenant, idp: TestIdentityProvider
) -> None:
    request = tenant.login(idp)
    expired = idp.respond(request, lifetime_minutes=-10)

    assert_refused(tenant.acs(expired, request.relay_state), "expired")


def test_an_assertion_for_another_audience_is_refused(
    tenant: Tenant, idp: TestIdentityProvider
) -> None:
    request = tenant.login(idp)
    elsewhere = idp.respond(request, audience="https://other-sp.example/metadata")

    assert_refused(tenant.acs(elsewhere, request.relay_state))


def test_a_replayed_response_is_refused(
    tenant: Tenant, idp: TestIdentityProvider
) -> None:
    request = tenant.login(idp)
    saml_response = idp.respond(request)

    assert tenant.acs(saml_response, request.relay_state).status_code == 200
    assert_refused(tenant.acs(saml_response, request.relay_state))


def test_a_replayed_assertion_in_a_new_response_is_refused(
    tenant: Tenant, idp: TestIdentityProvider
) -> None:
    """The signed assertion of a used response, sent again in answer to a new request
    (as if the IdP had answered that one with it)."""
    first = tenant.login(idp)
    used = decoded(idp.respond(first, sign_assertion=True))
    assert tenant.acs(encoded(used), first.relay_state).status_code == 200
    second = tenant.login(idp)
    fresh = decoded(idp.respond(second, sign_assertion=True))
    a, b = _assertion(used)
    c, d = _assertion(fresh)
    replayed = fresh[:c] + used[a:b] + fresh[d:]

    assert_refused(tenant.acs(encoded(replayed), second.relay_state))


def test_a_response_to_an_unknown_request_is_refused(
    tenant: Tenant, idp: TestIdentityProvider
) -> None:
    request = tenant.login(idp)
    unsolicited = idp.respond(request, in_response_to="id-never-sent")

    assert_refused(tenant.acs(unsolicited, request.relay_state), "no request")


def test_a_response_to_another_tenants_request_is_refused(
    iam: Iam, tenant: Tenant, idp: TestIdentityProvider
) -> None:
    other = Tenant(iam, "globex")
    other.configure(idp)
    request = other.login(idp)
    saml_response = idp.respond(request)

    assert_refused(tenant.acs(saml_response, request.relay_state), "no request")
    assert other.acs(saml_response, request.relay_state).status_code == 200


def test_another_relay_state_is_refused(
    tenant: Tenant, idp: TestIdentityProvider
) -> None:
    request = tenant.login(idp)

    assert_refused(tenant.acs(idp.respond(request), "forged-state"), "RelayState")


def test_a_disabled_or_unknown_provider_gives_no_login(
    iam: Iam, tenant: Tenant, idp: TestIdentityProvider
) -> None:
    request = tenant.login(idp)
    saml_response = idp.respond(request)
    disabled = iam.http.put(
        f"{tenant.providers}/{ALIAS}",
        json={"metadataXml": idp.metadata(), "enabled": False},
        headers=bearer(tenant.token),
    )
    assert disabled.status_code == 200

    assert iam.http.get(f"{tenant.saml}/login").status_code == 403
    assert tenant.acs(saml_response, request.relay_state).status_code == 403
    unknown = f"/api/v1/tenants/{tenant.id}/saml/nope"
    assert iam.http.get(f"{unknown}/login").status_code == 404
    assert (
        iam.http.post(
            f"{unknown}/acs",
            data={"SAMLResponse": saml_response, "RelayState": request.relay_state},
        ).status_code
        == 404
    )
