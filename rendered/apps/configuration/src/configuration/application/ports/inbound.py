# Generated from spec configuration by `generate`; edits are merged on re-render.

"""Input ports: the use cases the configuration service offers."""

from __future__ import annotations

from typing import Protocol

from eaf.eventsourcing import Idempotency

from configuration.domain.model import ConfigSchema, PropertySet
from configuration.domain.types import Property


class ConfigSchemaUseCases(Protocol):
    """What callers can do with config schema aggregates."""

    async def define(
        self, *, application: str, document: str, idempotency: Idempotency | None = None
    ) -> ConfigSchema:
        """Create a config schema (define)."""
        ...

    async def revise(
        self,
        id: str,
        *,
        document: str,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ConfigSchema:
        """Apply revise to the config schema with this id."""
        ...

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> ConfigSchema:
        """Apply remove to the config schema with this id."""
        ...

    async def get(self, id: str) -> ConfigSchema | None:
        """The config schema with this id, or None."""
        ...

    async def get_by_application(self, application: str) -> ConfigSchema | None:
        """The config schema with this application, or None."""
        ...

    async def list(self) -> list[ConfigSchema]:
        """Every config schema of the tenant (from the read model: eventually consistent)."""
        ...


class PropertySetUseCases(Protocol):
    """What callers can do with property set aggregates."""

    async def create(
        self,
        *,
        key_: str,
        application: str,
        profile: str,
        label: str,
        properties: dict[str, Property],
        idempotency: Idempotency | None = None,
    ) -> PropertySet:
        """Create a property set (create)."""
        ...

    async def change(
        self,
        id: str,
        *,
        properties: dict[str, Property],
        rolled_back_to: int | None,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> PropertySet:
        """Apply change to the property set with this id."""
        ...

    async def remove(
        self,
        id: str,
        *,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> PropertySet:
        """Apply remove to the property set with this id."""
        ...

    async def get(self, id: str) -> PropertySet | None:
        """The property set with this id, or None."""
        ...

    async def get_by_key(self, key_: str) -> PropertySet | None:
        """The property set with this key, or None."""
        ...

    async def list(self) -> list[PropertySet]:
        """Every property set of the tenant (from the read model: eventually consistent)."""
        ...
