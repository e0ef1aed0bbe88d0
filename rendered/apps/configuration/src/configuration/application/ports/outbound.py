# Generated from spec configuration by `generate`; edits are merged on re-render.

"""Output ports: what the configuration use cases need from the outside. The
transactions over the event store are the runtime's (the same for every service)."""

from datetime import datetime
from typing import Protocol

from eaf.eventsourcing import Idempotency, Transaction, Transactions

from configuration.domain.model import ConfigSchema, PropertySet
from configuration.domain.ports import ConfigSchemaRepository, PropertySetRepository

__all__ = [
    "Clock",
    "Idempotency",
    "Transaction",
    "Transactions",
    "ConfigSchemaRepository",
    "ConfigSchemaListing",
    "PropertySetRepository",
    "PropertySetListing",
]


class Clock(Protocol):
    """Tells the current time (UTC)."""

    def now(self) -> datetime:
        """The current instant, timezone-aware."""
        ...


class ConfigSchemaListing(Protocol):
    """The read side of ConfigSchema: a projection of its events, for the current tenant."""

    async def list(self) -> list[ConfigSchema]:
        """Every config schema of the tenant, as of the projection's last batch."""
        ...


class PropertySetListing(Protocol):
    """The read side of PropertySet: a projection of its events, for the current tenant."""

    async def list(self) -> list[PropertySet]:
        """Every property set of the tenant, as of the projection's last batch."""
        ...
