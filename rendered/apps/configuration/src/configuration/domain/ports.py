# Generated from spec configuration by `generate`; edits are merged on re-render.

"""Ports the configuration domain needs from the outside: where aggregates are kept."""

from typing import Protocol

from configuration.domain.model import ConfigSchema, PropertySet


class ConfigSchemaRepository(Protocol):
    """Keeps ConfigSchema aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> ConfigSchema | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: ConfigSchema) -> ConfigSchema:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[ConfigSchema]:
        """Every ConfigSchema of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[ConfigSchema]:
        """Every ConfigSchema of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...


class PropertySetRepository(Protocol):
    """Keeps PropertySet aggregates as the events they emitted (tenant-scoped)."""

    async def get(self, id: str) -> PropertySet | None:
        """The aggregate with this id, or None."""
        ...

    async def save(self, aggregate: PropertySet) -> PropertySet:
        """Append its pending events atomically; raises ConcurrencyError when another
        writer saved since it was loaded; returns the committed aggregate."""
        ...

    async def all(self) -> list[PropertySet]:
        """Every PropertySet of the tenant as of the last stored event, but the deleted ones."""
        ...

    async def all_tenants(self) -> list[PropertySet]:
        """Every PropertySet of every tenant, as ``all`` (a platform read: for the platform's
        own code, never for a tenant's request)."""
        ...
