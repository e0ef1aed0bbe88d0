"""RFC 9068 access tokens: the claims a verifier returns, and the issuer that signs them."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from joserfc import jwt

from eaf.security.keys import SIGNING_ALGORITHM, KeyRing

ACCESS_TOKEN_TYPE = "at+jwt"


class InvalidTokenError(Exception):
    """A token was rejected; ``reason`` says why (safe to log, not to show to attackers)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class AccessClaims:
    """The verified claims of an access token.

    A token is either a tenant token (``tenant_id`` set) or a platform token
    (``platform`` true, no ``tenant_id``): platform operators act across tenants.
    """

    subject: str
    tenant_id: str | None
    client_id: str
    roles: frozenset[str]
    permissions: frozenset[str]
    scope: frozenset[str]
    jti: str
    exp: int
    iat: int
    issuer: str
    audience: tuple[str, ...]
    username: str | None = None
    email: str | None = None
    platform: bool = False
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class IssuedToken:
    """A signed access token and the claims in it."""

    token: str
    claims: dict[str, Any]

    @property
    def expires_in(self) -> int:
        return int(self.claims["exp"]) - int(self.claims["iat"])


class TokenIssuer:
    """Signs access tokens with the active key of a key ring (ES256, ``typ: at+jwt``)."""

    def __init__(
        self,
        key_ring: KeyRing,
        *,
        issuer: str,
        default_audience: str | Sequence[str],
        access_ttl: timedelta = timedelta(minutes=15),
        clock: Callable[[], float] = time.time,
    ) -> None:
        if access_ttl > key_ring.max_token_lifetime:
            raise ValueError(
                f"access_ttl {access_ttl} exceeds the key ring's max_token_lifetime"
                f" {key_ring.max_token_lifetime}: tokens would outlive their published key"
            )
        self._ring = key_ring
        self._issuer = issuer
        self._audience = default_audience
        self._access_ttl = access_ttl
        self._ttl = int(access_ttl.total_seconds())
        self._clock = clock
        self._others: dict[str, TokenIssuer] = {issuer: self}

    @property
    def issuer(self) -> str:
        """The ``iss`` of the tokens it signs (the URL of the service, or of a realm)."""
        return self._issuer

    def at(self, issuer: str) -> TokenIssuer:
        """The issuer signing as ``issuer`` (a realm's URL) with this one's keys, audience
        and lifetime; one per URL."""
        other = self._others.get(issuer)
        if other is None:
            other = TokenIssuer(
                self._ring,
                issuer=issuer,
                default_audience=self._audience,
                access_ttl=self._access_ttl,
                clock=self._clock,
            )
            self._others[issuer] = other
        return other

    def issue(
        self,
        *,
        subject: str,
        client_id: str,
        tenant_id: str | None,
        roles: Iterable[str] = (),
        permissions: Iterable[str] = (),
        scope: Iterable[str] = (),
        audience: str | Sequence[str] | None = None,
        username: str | None = None,
        email: str | None = None,
        platform: bool = False,
        extra: Mapping[str, Any] | None = None,
    ) -> IssuedToken:
        """A new token for ``subject``; a platform token has no tenant."""
        if platform == (tenant_id is not None):
            raise ValueError(
                "a token has either a tenant_id or platform=True, not both"
            )
        now = int(self._clock())
        claims: dict[str, Any] = {
            **(extra or {}),
            "iss": self._issuer,
            "sub": subject,
            "aud": _audience_claim(
                audience if audience is not None else self._audience
            ),
            "exp": now + self._ttl,
            "iat": now,
            "nbf": now,
            "jti": secrets.token_urlsafe(16),
            "client_id": client_id,
            "scope": " ".join(sorted(set(scope))),
            "roles": sorted(set(roles)),
            "permissions": sorted(set(permissions)),
        }
        if platform:
            claims["platform"] = True
        else:
            claims["tenant_id"] = tenant_id
        if username is not None:
            claims["username"] = username
        if email is not None:
            claims["email"] = email
        key = self._ring.active
        header = {"alg": SIGNING_ALGORITHM, "typ": ACCESS_TOKEN_TYPE, "kid": key.kid}
        token = jwt.encode(header, claims, key.key, algorithms=[SIGNING_ALGORITHM])
        return IssuedToken(token, claims)


def _audience_claim(audience: str | Sequence[str]) -> str | list[str]:
    if isinstance(audience, str):
        return audience
    return list(audience)
