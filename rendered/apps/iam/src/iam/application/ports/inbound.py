# Generated from spec iam by `generate`; edits are merged on re-render.

"""Input ports: the use cases the iam service offers."""

from __future__ import annotations

from typing import Protocol

from eaf.eventsourcing import Idempotency

from iam.domain.model import (
    Policy,
    RegisteredClient,
    Role,
    ServiceAccount,
    Tenant,
    User,
)
from iam.domain.types import (
    ClientType,
    GrantType,
    PolicyCondition,
    PolicyEffect,
    TenantStatus,
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
        status: TenantStatus,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Tenant:
        """Apply changeStatus to the tenant with this id."""
        ...

    async def get(self, id: str) -> Tenant | None:
        """The tenant with this id, or None."""
        ...

    async def every_tenant(self) -> list[Tenant]:
        """Every tenant record, one per tenant (read across the tenants: for platform
        operators only)."""
        ...


class UserUseCases(Protocol):
    """What callers can do with user aggregates."""

    async def create(
        self,
        *,
        username: str,
        email: str,
        password: str,
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
        password: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        """Apply changePassword to the user with this id."""
        ...

    async def change(
        self,
        id: str,
        *,
        status: str,
        roles: list[str],
        attributes: dict[str, str],
        password: str | None,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        """Apply change to the user with this id."""
        ...

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> User:
        """Apply remove to the user with this id."""
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
        description: str,
        idempotency: Idempotency | None = None,
    ) -> Role:
        """Create a role (create)."""
        ...

    async def change(
        self,
        id: str,
        *,
        permissions: list[str],
        description: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Role:
        """Apply change to the role with this id."""
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
        effect: PolicyEffect,
        permissions: list[str],
        conditions: list[PolicyCondition],
        idempotency: Idempotency | None = None,
    ) -> Policy:
        """Create a policy (create)."""
        ...

    async def change(
        self,
        id: str,
        *,
        effect: PolicyEffect,
        permissions: list[str],
        conditions: list[PolicyCondition],
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        """Apply change to the policy with this id."""
        ...

    async def disable(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> Policy:
        """Apply disable to the policy with this id."""
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
        client_secret: str,
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
        client_secret: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        """Apply changeSecret to the service account with this id."""
        ...

    async def disable(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ServiceAccount:
        """Apply disable to the service account with this id."""
        ...

    async def get(self, id: str) -> ServiceAccount | None:
        """The service account with this id, or None."""
        ...

    async def list(self) -> list[ServiceAccount]:
        """Every service account of the tenant (from the read model: eventually consistent)."""
        ...


class RegisteredClientUseCases(Protocol):
    """What callers can do with registered client aggregates."""

    async def register(
        self,
        *,
        client_id: str,
        name: str,
        client_type: ClientType,
        client_secret: str | None,
        grant_types: list[GrantType],
        redirect_uris: list[str],
        post_logout_redirect_uris: list[str],
        scopes: list[str],
        first_party: bool,
        idempotency: Idempotency | None = None,
    ) -> RegisteredClient:
        """Create a registered client (register)."""
        ...

    async def disable(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> RegisteredClient:
        """Apply disable to the registered client with this id."""
        ...

    async def get(self, id: str) -> RegisteredClient | None:
        """The registered client with this id, or None."""
        ...

    async def get_by_client_id(self, client_id: str) -> RegisteredClient | None:
        """The registered client with this clientId, or None."""
        ...

    async def list(self) -> list[RegisteredClient]:
        """Every registered client of the tenant (from the read model: eventually consistent)."""
        ...
