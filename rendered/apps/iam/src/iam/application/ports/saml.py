"""Output ports of federation with external identity providers (SAML 2.0)."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from iam.domain.model import SamlIdentityProvider

REDIRECT_BINDING = "HTTP-Redirect"
POST_BINDING = "HTTP-POST"


class SamlError(Exception):
    """A SAML message that is refused: unsigned, forged, expired, for someone else..."""


@dataclass(frozen=True)
class ServiceProvider:
    """The IAM as the service provider of one tenant's identity provider."""

    entity_id: str
    acs_url: str


@dataclass(frozen=True)
class IdentityProviderDescription:
    """What an identity provider's metadata says about it."""

    entity_id: str
    sso_urls: dict[str, str]
    """The single sign-on URL of each binding (``HTTP-Redirect``, ``HTTP-POST``)."""
    signing_certificates: list[str]
    """Base64 DER certificates, without PEM armour."""


@dataclass(frozen=True)
class OutgoingRequest:
    """An AuthnRequest on its way to the identity provider through the browser."""

    request_id: str
    binding: str
    url: str
    """Where to redirect the browser (HTTP-Redirect), or where the form posts to."""
    form: dict[str, str] = field(default_factory=dict)
    """The fields of the auto-submitting form (HTTP-POST); empty for HTTP-Redirect."""


@dataclass(frozen=True)
class VerifiedAssertion:
    """The values of a response whose signature, conditions and subject confirmation were
    verified; nothing here comes from outside the signed assertion."""

    assertion_id: str
    issuer: str
    in_response_to: str
    name_id: str
    name_id_format: str
    attributes: dict[str, list[str]]
    """Attribute values by name (and by friendly name, where the IdP gives one)."""
    expires_at: datetime
    """The latest NotOnOrAfter of the assertion: until then a replay must be refused."""


class SamlProviderListing(Protocol):
    """Every SAML identity provider of the current tenant, as of the last stored event."""

    async def list(self) -> list[SamlIdentityProvider]:
        """The tenant's providers, removed ones included."""
        ...


class SamlProtocol(Protocol):
    """SAML 2.0 Web Browser SSO, service provider side."""

    def describe(self, metadata_xml: str) -> IdentityProviderDescription:
        """The identity provider that ``metadata_xml`` describes; ValueError if none."""
        ...

    def certificate(self, text: str) -> str:
        """The base64 DER of a PEM or base64 X.509 certificate; ValueError if it is not
        one."""
        ...

    def metadata(self, sp: ServiceProvider, *, sign_requests: bool) -> str:
        """The service provider's metadata document (entityID, ACS, certificate)."""
        ...

    def authn_request(
        self,
        provider: SamlIdentityProvider,
        sp: ServiceProvider,
        relay_state: str,
    ) -> OutgoingRequest:
        """A new AuthnRequest to ``provider``, signed if it says so."""
        ...

    def in_response_to(self, saml_response: str) -> str | None:
        """The InResponseTo of a base64 response, unverified: only to find the request
        it claims to answer, never trusted beyond that."""
        ...

    def verify(
        self,
        provider: SamlIdentityProvider,
        sp: ServiceProvider,
        saml_response: str,
        request_id: str,
    ) -> VerifiedAssertion:
        """The assertion of a base64 response to ``request_id``; SamlError when it is
        not signed by the provider, not for ``sp``, expired or otherwise invalid."""
        ...
