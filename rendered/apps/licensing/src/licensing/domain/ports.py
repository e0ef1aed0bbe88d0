# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Ports the licensing domain needs from the outside: where aggregates are kept."""

from typing import Protocol

from licensing.domain.model import License, Machine, Policy, Product


class ProductRepository(Protocol):
    """Keeps Product aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> Product | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: Product) -> Product:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[Product]:
        """Every Product of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[Product]:
        """Every Product of every tenant, as ``all`` (a platform read: for the platform's
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


class LicenseRepository(Protocol):
    """Keeps License aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> License | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: License) -> License:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[License]:
        """Every License of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[License]:
        """Every License of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class MachineRepository(Protocol):
    """Keeps Machine aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> Machine | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: Machine) -> Machine:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[Machine]:
        """Every Machine of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[Machine]:
        """Every Machine of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...
