# Generated from spec iam by `generate`; edits are merged on re-render.

"""Input ports: the use cases the iam service offers."""

from __future__ import annotations

from typing import Protocol

from eaf.eventsourcing import Idempotency

from iam.domain.model import Role, ServiceAccount


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
