"""The vocabulary of the OAuth 2.0 endpoints: their errors, clients, the token response,
and the opaque refresh token."""

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID, uuid4

from iam.application.identity import PLATFORM
from iam.domain.model import RegisteredClient

#: The OpenID Connect scopes; any other scope is a permission ``<resource>:<action>``.
OIDC_SCOPES = ("openid", "profile", "email")


class OAuthError(Exception):
    """An RFC 6749 §5.2 error: ``error`` code, description, HTTP status."""

    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(description)
        self.error = error
        self.description = description
        self.status = status


class TooManyAttemptsError(Exception):
    """Too many failed logins for one account: retry after ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many failed attempts; retry after {retry_after}s")
        self.retry_after = retry_after


class InactiveTokenError(Exception):
    """An access token that is not (or no longer) valid; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class ClientCredentials:
    """What a request presents of its client (RFC 6749 §2.3): an id, a secret unless it
    is the public client, and the tenant it names, if any."""

    client_id: str | None = None
    secret: str | None = None
    tenant: str | None = None


@dataclass(frozen=True)
class Client:
    """An authenticated client: a service account of ``tenant_id``, a client registered
    in it (``registered``), or the public client (``tenant_id`` None, of every
    tenant)."""

    client_id: str
    tenant_id: str | None = None
    registered: RegisteredClient | None = field(default=None, compare=False)

    def issued(self, tenant_id: str, client_id: str) -> bool:
        """Whether a token of ``tenant_id`` issued to ``client_id`` is this client's."""
        return client_id == self.client_id and self.tenant_id in (None, tenant_id)


@dataclass(frozen=True)
class Realm:
    """A tenant as an OpenID provider of its own: its tenant id and the issuer of the
    tokens it issues (``{base}/realms/{name}``)."""

    tenant_id: str
    name: str
    issuer: str


@dataclass(frozen=True)
class IssuedTokens:
    """What was issued for an authorization code, to revoke if the code is reused."""

    tenant_id: str
    jti: str
    exp: int
    family_id: str | None


@dataclass(frozen=True)
class TokenResponse:
    """The successful answer of the token endpoint (RFC 6749 §5.1)."""

    access_token: str
    expires_in: int
    scope: str
    refresh_token: str | None = None
    id_token: str | None = None

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "access_token": self.access_token,
            "token_type": "Bearer",
            "expires_in": self.expires_in,
            "scope": self.scope,
        }
        if self.refresh_token is not None:
            body["refresh_token"] = self.refresh_token
        if self.id_token is not None:
            body["id_token"] = self.id_token
        return body


@dataclass(frozen=True)
class RefreshToken:
    """``<tenant>.<family id>.<secret>``: the family is found in the tenant's scope, and
    only the sha256 of the secret is stored."""

    tenant_id: str
    family_id: str
    secret: str

    def __str__(self) -> str:
        return f"{self.tenant_id}.{self.family_id}.{self.secret}"

    @property
    def hash(self) -> str:
        return hashlib.sha256(self.secret.encode()).hexdigest()

    @classmethod
    def new(cls, tenant_id: str) -> "RefreshToken":
        return cls(tenant_id, str(uuid4()), secrets.token_urlsafe(32))

    @classmethod
    def parse(cls, text: str) -> "RefreshToken | None":
        parts = text.split(".")
        if len(parts) != 3 or not parts[2]:
            return None
        try:
            tenant_id = parts[0] if parts[0] == PLATFORM else str(UUID(parts[0]))
            family_id = str(UUID(parts[1]))
        except ValueError:
            return None
        return cls(tenant_id, family_id, parts[2])
