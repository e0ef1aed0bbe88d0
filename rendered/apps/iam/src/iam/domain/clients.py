"""Registered clients of a tenant (RFC 6749 §2, OpenID Connect Registration): the
applications that sign users in with a browser, their rules and their events."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Self, TypeAlias
from urllib.parse import urlsplit
from uuid import UUID

from eaf.domain import AggregateRoot
from eaf.security import PERMISSION_PATTERN

from iam.domain.errors import Violation

CONFIDENTIAL, PUBLIC = "confidential", "public"
CLIENT_TYPES = (CONFIDENTIAL, PUBLIC)
AUTHORIZATION_CODE, REFRESH_TOKEN = "authorization_code", "refresh_token"
GRANT_TYPES = (AUTHORIZATION_CODE, REFRESH_TOKEN)
#: The OpenID Connect scopes; any other scope is a permission ``<resource>:<action>``.
OIDC_SCOPES = ("openid", "profile", "email")
CLIENT_ID_PATTERN = re.compile(r"[A-Za-z0-9._@-]{1,64}")
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
MAX_URIS = 20
MAX_URI_LENGTH = 2000


@dataclass(frozen=True, kw_only=True)
class ClientRegistered:
    """Client registered (v1)."""

    client_uuid: UUID
    client_id: str
    name: str
    client_type: str
    secret_hash: str
    grant_types: list[str]
    redirect_uris: list[str]
    post_logout_redirect_uris: list[str]
    scopes: list[str]
    first_party: bool
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class ClientStatusChanged:
    """Client status changed (v1)."""

    client_uuid: UUID
    status: str
    occurred_at: datetime


ClientEvent: TypeAlias = ClientRegistered | ClientStatusChanged
CLIENT_EVENTS: tuple[type[ClientRegistered | ClientStatusChanged], ...] = (
    ClientRegistered,
    ClientStatusChanged,
)


@dataclass(frozen=True, kw_only=True)
class RegisteredClient(AggregateRoot[ClientEvent]):
    """An application of the tenant that signs users in through the authorization
    endpoint: confidential (with a secret, of which only the hash is kept) or public."""

    client_id: str
    name: str
    client_type: str
    secret_hash: str
    grant_types: list[str]
    redirect_uris: list[str]
    post_logout_redirect_uris: list[str]
    scopes: list[str]
    first_party: bool
    status: str = "ACTIVE"

    @property
    def public(self) -> bool:
        return self.client_type == PUBLIC

    @classmethod
    def started_by(cls, event: ClientEvent) -> Self:
        if isinstance(event, ClientRegistered):
            return cls(
                id=str(event.client_uuid),
                client_id=event.client_id,
                name=event.name,
                client_type=event.client_type,
                secret_hash=event.secret_hash,
                grant_types=event.grant_types,
                redirect_uris=event.redirect_uris,
                post_logout_redirect_uris=event.post_logout_redirect_uris,
                scopes=event.scopes,
                first_party=event.first_party,
                created_at=event.occurred_at,
                updated_at=event.occurred_at,
            )
        raise ValueError(f"{type(event).__name__} does not start a RegisteredClient")

    def apply(self, event: ClientEvent) -> Self:
        if isinstance(event, ClientStatusChanged):
            return replace(self, status=event.status, updated_at=event.occurred_at)
        raise ValueError(f"{type(event).__name__} does not apply to a started client")

    def problems(self, now: datetime) -> list[Violation]:
        return registration_problems(
            client_id=self.client_id,
            name=self.name,
            client_type=self.client_type,
            grant_types=self.grant_types,
            redirect_uris=self.redirect_uris,
            post_logout_redirect_uris=self.post_logout_redirect_uris,
            scopes=self.scopes,
        )

    @classmethod
    def register(
        cls,
        *,
        id: str,
        client_id: str,
        name: str,
        client_type: str,
        secret_hash: str,
        grant_types: list[str],
        redirect_uris: list[str],
        post_logout_redirect_uris: list[str],
        scopes: list[str],
        first_party: bool,
        now: datetime,
    ) -> Self:
        """A new client; fails listing every rule its values break."""
        event = ClientRegistered(
            client_uuid=UUID(id),
            client_id=client_id,
            name=name,
            client_type=client_type,
            secret_hash=secret_hash,
            grant_types=grant_types,
            redirect_uris=redirect_uris,
            post_logout_redirect_uris=post_logout_redirect_uris,
            scopes=scopes,
            first_party=first_party,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def change_status(self, *, status: str, now: datetime) -> Self:
        event = ClientStatusChanged(
            client_uuid=UUID(self.id), status=status, occurred_at=now
        )
        return self.apply(event).record(event)


def registration_problems(
    *,
    client_id: str,
    name: str,
    client_type: str,
    grant_types: list[str],
    redirect_uris: list[str],
    post_logout_redirect_uris: list[str],
    scopes: list[str],
) -> list[Violation]:
    """Every rule a client registration breaks, by field (camelCase, as in the API)."""
    found: list[Violation] = []
    if CLIENT_ID_PATTERN.fullmatch(client_id) is None:
        found.append(
            Violation("clientId", "A client id is 1-64 letters, digits or . _ @ -")
        )
    if len(name) > 100:
        found.append(Violation("name", "A client name is at most 100 characters"))
    if client_type not in CLIENT_TYPES:
        found.append(
            Violation("clientType", "The client type is confidential or public")
        )
    if not grant_types:
        found.append(Violation("grantTypes", "At least one grant type is needed"))
    for index, grant_type in enumerate(grant_types):
        if grant_type not in GRANT_TYPES:
            found.append(
                Violation(
                    f"grantTypes[{index}]",
                    f"Unsupported grant type {grant_type[:64]!r}: one of"
                    f" {', '.join(GRANT_TYPES)} (client_credentials is a service"
                    " account's)",
                )
            )
    if REFRESH_TOKEN in grant_types and AUTHORIZATION_CODE not in grant_types:
        found.append(Violation("grantTypes", "refresh_token needs authorization_code"))
    if AUTHORIZATION_CODE in grant_types and not redirect_uris:
        found.append(
            Violation("redirectUris", "authorization_code needs a redirect URI")
        )
    found += _uri_problems("redirectUris", redirect_uris)
    found += _uri_problems("postLogoutRedirectUris", post_logout_redirect_uris)
    for index, scope in enumerate(scopes):
        if scope not in OIDC_SCOPES and re.fullmatch(PERMISSION_PATTERN, scope) is None:
            found.append(
                Violation(
                    f"scopes[{index}]",
                    "A scope is openid, profile, email or a permission"
                    " <resource>:<action>",
                )
            )
    return found


def _uri_problems(field: str, uris: list[str]) -> list[Violation]:
    if len(uris) > MAX_URIS:
        return [Violation(field, f"At most {MAX_URIS} URIs")]
    found = []
    for index, uri in enumerate(uris):
        problem = redirect_uri_problem(uri)
        if problem is not None:
            found.append(Violation(f"{field}[{index}]", problem))
    if len(set(uris)) != len(uris):
        found.append(Violation(field, "A URI is listed twice"))
    return found


def redirect_uri_problem(uri: str) -> str | None:
    """Why ``uri`` cannot be registered as a redirect URI, or None: absolute, without
    fragment (RFC 6749 §3.1.2), https, or http to a loopback host (RFC 8252 §7.3)."""
    if len(uri) > MAX_URI_LENGTH:
        return f"A URI is at most {MAX_URI_LENGTH} characters"
    try:
        parts = urlsplit(uri)
        host = parts.hostname
    except ValueError:
        return "Not a URI"
    if parts.scheme not in ("https", "http") or not host:
        return "An absolute http(s) URI is needed"
    if parts.fragment or "#" in uri:
        return "A redirect URI has no fragment"
    if parts.scheme == "http" and host not in LOOPBACK_HOSTS:
        return "http only to a loopback host (localhost, 127.0.0.1, ::1); else https"
    if any(ord(c) <= 0x20 or ord(c) == 0x7F for c in uri):
        return "A URI has no spaces or control characters"
    return None
