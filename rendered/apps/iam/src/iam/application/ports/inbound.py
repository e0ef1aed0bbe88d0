# Generated from spec iam by `generate`; edits are merged on re-render.

"""Input ports: the use cases the iam service offers."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from eaf.eventsourcing import Idempotency

from iam.domain.model import (
    AccessTokenRevocation,
    Policy,
    RefreshTokenFamily,
    Role,
    ServiceAccount,
    Tenant,
    User,
)


class TenantUseCases(Protocol):
    """What callers can do with tenant aggregates."""

    async def create(
        self, *, name: str, admin_user_id: str, idempotency: Idempotency | None = None
    ) -> Tenant:
        """Create a tenant (create)."""
        ...

    async def change_status(
        self,
        id: str,
        *,
        status: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Tenant:
        """Apply changeStatus to the tenant with this id."""
        ...

    async def get(self, id: str) -> Tenant | None:
        """The tenant with this id, or None."""
        ...

    async def list(self) -> list[Tenant]:
        """Every tenant of the tenant (from the read model: eventually consistent)."""
        ...


class UserUseCases(Protocol):
    """What callers can do with user aggregates."""

    async def create(
        self,
        *,
        username: str,
        email: str,
        password_hash: str,
        roles: list[str],
        attributes: dict[str, str],
        idempotency: Idempotency | None = None,
    ) -> User:
        """Create a user (create)."""
        ...

    async def change_status(
        self,
        id: str,
        *,
        status: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        """Apply changeStatus to the user with this id."""
        ...

    async def change_roles(
        self,
        id: str,
        *,
        roles: list[str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        """Apply changeRoles to the user with this id."""
        ...

    async def change_attributes(
        self,
        id: str,
        *,
        attributes: dict[str, str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        """Apply changeAttributes to the user with this id."""
        ...

    async def change_password(
        self,
        id: str,
        *,
        password_hash: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        """Apply changePassword to the user with this id."""
        ...

    async def get(self, id: str) -> User | None:
        """The user with this id, or None."""
        ...

    async def list(self) -> list[User]:
        """Every user of the tenant (from the read model: eventually consistent)."""
        ...


class RoleUseCases(Protocol):
    """What callers can do with role aggregates."""

    async def create(
        self,
        *,
        name: str,
        permissions: list[str],
        idempotency: Idempotency | None = None,
    ) -> Role:
        """Create a role (create)."""
        ...

    async def change_permissions(
        self,
        id: str,
        *,
        permissions: list[str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Role:
        """Apply changePermissions to the role with this id."""
        ...

    async def describe(
        self,
        id: str,
        *,
        description: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Role:
        """Apply describe to the role with this id."""
        ...

    async def get(self, id: str) -> Role | None:
        """The role with this id, or None."""
        ...

    async def list(self) -> list[Role]:
        """Every role of the tenant (from the read model: eventually consistent)."""
        ...


class PolicyUseCases(Protocol):
    """What callers can do with policy aggregates."""

    async def create(
        self,
        *,
        name: str,
        effect: str,
        permissions: list[str],
        conditions: str,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        """Create a policy (create)."""
        ...

    async def change(
        self,
        id: str,
        *,
        name: str,
        effect: str,
        permissions: list[str],
        conditions: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        """Apply change to the policy with this id."""
        ...

    async def change_status(
        self,
        id: str,
        *,
        status: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        """Apply changeStatus to the policy with this id."""
        ...

    async def get(self, id: str) -> Policy | None:
        """The policy with this id, or None."""
        ...

    async def list(self) -> list[Policy]:
        """Every policy of the tenant (from the read model: eventually consistent)."""
        ...


class ServiceAccountUseCases(Protocol):
    """What callers can do with service account aggregates."""

    async def create(
        self,
        *,
        client_id: str,
        secret_hash: str,
        roles: list[str],
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        """Create a service account (create)."""
        ...

    async def change_status(
        self,
        id: str,
        *,
        status: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        """Apply changeStatus to the service account with this id."""
        ...

    async def change_secret(
        self,
        id: str,
        *,
        secret_hash: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        """Apply changeSecret to the service account with this id."""
        ...

    async def get(self, id: str) -> ServiceAccount | None:
        """The service account with this id, or None."""
        ...

    async def list(self) -> list[ServiceAccount]:
        """Every service account of the tenant (from the read model: eventually consistent)."""
        ...


class RefreshTokenFamilyUseCases(Protocol):
    """What callers can do with refresh token family aggregates."""

    async def issue(
        self,
        *,
        subject: str,
        client_id: str,
        scope: str,
        current_hash: str,
        idempotency: Idempotency | None = None,
    ) -> RefreshTokenFamily:
        """Create a refresh token family (issue)."""
        ...

    async def rotate(
        self,
        id: str,
        *,
        current_hash: str,
        used_hashes: list[str],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> RefreshTokenFamily:
        """Apply rotate to the refresh token family with this id."""
        ...

    async def revoke(
        self,
        id: str,
        *,
        status: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> RefreshTokenFamily:
        """Apply revoke to the refresh token family with this id."""
        ...

    async def get(self, id: str) -> RefreshTokenFamily | None:
        """The refresh token family with this id, or None."""
        ...


class AccessTokenRevocationUseCases(Protocol):
    """What callers can do with access token revocation aggregates."""

    async def create(
        self, *, jti: str, expires_at: datetime, idempotency: Idempotency | None = None
    ) -> AccessTokenRevocation:
        """Create a access token revocation (create)."""
        ...

    async def get(self, id: str) -> AccessTokenRevocation | None:
        """The access token revocation with this id, or None."""
        ...
