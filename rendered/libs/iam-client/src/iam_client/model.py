"""The authenticated user and the errors of validation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

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


class TokenValidator(Protocol):
    """What authenticates the bearer tokens of a service's requests (``require`` asks the
    one on ``app.state.iam_client``): :class:`~iam_client.IamClient` against IAM's
    published keys, or a service's own (the IAM validates the tokens it issued itself)."""

    async def validate(self, token: str, *, check_revocation: bool = False) -> User:
        """The user of a valid ``token``; :class:`AuthenticationError` otherwise."""
        ...

    def has_permission(
        self, user: User, permission: str, resource: Mapping[str, Any] | None = None
    ) -> bool:
        """Whether ``user`` holds ``permission``."""
        ...

    async def knows_tenant(self, tenant_id: str) -> bool:
        """Whether ``tenant_id`` is a tenant a platform operator's path may name (one that
        does not exist answers 404, as another tenant's does for a tenant's token)."""
        ...
