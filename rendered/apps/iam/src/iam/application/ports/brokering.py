"""Output ports of identity brokering: where a tenant's external OpenID providers are
kept, and the OpenID Connect protocol spoken to them."""

from dataclasses import dataclass, field
from typing import Any, Protocol

from iam.domain.brokering import OidcProviders


class ProviderUnavailableError(Exception):
    """An external provider could not be reached or answered nonsense (refused
    connection, timeout, an error status, a document that is not what it should be)."""


class ProviderRefusedError(Exception):
    """An external provider answered with an OAuth error (``error``, its description)."""

    def __init__(self, error: str, description: str = "") -> None:
        super().__init__(f"{error}: {description}" if description else error)
        self.error = error


class OidcProvidersRepository(Protocol):
    """Keeps the current tenant's external OpenID providers as the events they emitted."""

    async def get(self, id: str) -> OidcProviders | None: ...

    async def save(self, aggregate: OidcProviders) -> OidcProviders: ...


@dataclass(frozen=True)
class ProviderMetadata:
    """What an OpenID provider's discovery document says the broker needs."""

    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str
    token_endpoint_auth_methods: list[str] = field(
        default_factory=lambda: ["client_secret_basic"]
    )
    id_token_signing_algorithms: list[str] = field(default_factory=lambda: ["RS256"])


class OpenIdProviderClient(Protocol):
    """The HTTP calls to an external OpenID provider; each raises
    :class:`ProviderUnavailableError` when it cannot answer."""

    async def metadata(self, issuer: str) -> ProviderMetadata:
        """The provider's ``{issuer}/.well-known/openid-configuration``."""
        ...

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
        """The token response to an ``authorization_code`` grant;
        :class:`ProviderRefusedError` for an OAuth error answer."""
        ...

    async def jwks(self, metadata: ProviderMetadata) -> dict[str, Any]:
        """The provider's public keys (a JWK set)."""
        ...
