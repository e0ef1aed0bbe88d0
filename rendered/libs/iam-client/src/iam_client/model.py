"""The authenticated user and the errors of validation."""

from __future__ import annotations

from dataclasses import dataclass, field

from eaf.security import AccessClaims


@dataclass(frozen=True, slots=True)
class User:
    """The caller a valid access token stands for."""

    id: str
    tenant_id: str | None
    username: str | None
    client_id: str
    roles: frozenset[str]
    permissions: frozenset[str]
    scope: frozenset[str]
    token: str = field(repr=False)
    claims: AccessClaims = field(repr=False, compare=False)
    platform: bool = False

    @classmethod
    def from_claims(cls, claims: AccessClaims, token: str) -> User:
        return cls(
            id=claims.subject,
            tenant_id=claims.tenant_id,
            username=claims.username,
            client_id=claims.client_id,
            roles=claims.roles,
            permissions=claims.permissions,
            scope=claims.scope,
            token=token,
            claims=claims,
            platform=claims.platform,
        )


class AuthenticationError(Exception):
    """No valid credentials: answer 401. ``reason`` says why (for logs and RFC 6750)."""

    status_code = 401

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PermissionDeniedError(Exception):
    """Valid credentials without the permission: answer 403."""

    status_code = 403

    def __init__(self, permission: str, reason: str | None = None) -> None:
        self.permission = permission
        self.reason = reason or f"missing permission {permission}"
        super().__init__(self.reason)


class IamUnavailableError(Exception):
    """IAM could not be asked (network error, bad answer) for something only it knows."""


class IamDownError(IamUnavailableError):
    """IAM could not be reached, or failed (5xx): what the circuit breaker counts."""
