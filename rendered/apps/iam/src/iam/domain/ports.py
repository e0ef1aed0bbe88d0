# Generated from spec iam by `generate`; edits are merged on re-render.

"""Ports the iam domain needs from the outside: where aggregates are kept."""

from typing import Protocol

from iam.domain.model import (
    AccessTokenRevocation,
    Policy,
    RefreshTokenFamily,
    RegisteredClient,
    Role,
    SamlAssertionUse,
    SamlIdentityProvider,
    SamlLoginRequest,
    ServiceAccount,
    Tenant,
    User,
)


class TenantRepository(Protocol):
    """Keeps Tenant aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> Tenant | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: Tenant) -> Tenant:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[Tenant]:
        """Every Tenant of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[Tenant]:
        """Every Tenant of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class UserRepository(Protocol):
    """Keeps User aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> User | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: User) -> User:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[User]:
        """Every User of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[User]:
        """Every User of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class RoleRepository(Protocol):
    """Keeps Role aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> Role | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: Role) -> Role:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[Role]:
        """Every Role of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[Role]:
        """Every Role of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class PolicyRepository(Protocol):
    """Keeps Policy aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> Policy | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: Policy) -> Policy:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[Policy]:
        """Every Policy of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[Policy]:
        """Every Policy of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class ServiceAccountRepository(Protocol):
    """Keeps ServiceAccount aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> ServiceAccount | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: ServiceAccount) -> ServiceAccount:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[ServiceAccount]:
        """Every ServiceAccount of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[ServiceAccount]:
        """Every ServiceAccount of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class RegisteredClientRepository(Protocol):
    """Keeps RegisteredClient aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> RegisteredClient | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: RegisteredClient) -> RegisteredClient:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[RegisteredClient]:
        """Every RegisteredClient of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[RegisteredClient]:
        """Every RegisteredClient of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class RefreshTokenFamilyRepository(Protocol):
    """Keeps RefreshTokenFamily aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> RefreshTokenFamily | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: RefreshTokenFamily) -> RefreshTokenFamily:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[RefreshTokenFamily]:
        """Every RefreshTokenFamily of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[RefreshTokenFamily]:
        """Every RefreshTokenFamily of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class AccessTokenRevocationRepository(Protocol):
    """Keeps AccessTokenRevocation aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> AccessTokenRevocation | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: AccessTokenRevocation) -> AccessTokenRevocation:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[AccessTokenRevocation]:
        """Every AccessTokenRevocation of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[AccessTokenRevocation]:
        """Every AccessTokenRevocation of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class SamlIdentityProviderRepository(Protocol):
    """Keeps SamlIdentityProvider aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> SamlIdentityProvider | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: SamlIdentityProvider) -> SamlIdentityProvider:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[SamlIdentityProvider]:
        """Every SamlIdentityProvider of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[SamlIdentityProvider]:
        """Every SamlIdentityProvider of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class SamlLoginRequestRepository(Protocol):
    """Keeps SamlLoginRequest aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> SamlLoginRequest | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: SamlLoginRequest) -> SamlLoginRequest:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[SamlLoginRequest]:
        """Every SamlLoginRequest of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[SamlLoginRequest]:
        """Every SamlLoginRequest of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class SamlAssertionUseRepository(Protocol):
    """Keeps SamlAssertionUse aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> SamlAssertionUse | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: SamlAssertionUse) -> SamlAssertionUse:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[SamlAssertionUse]:
        """Every SamlAssertionUse of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[SamlAssertionUse]:
        """Every SamlAssertionUse of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...
