# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Output ports: what the licensing use cases need from the outside. The
transactions over the event store are the runtime's (the same for every service)."""

from datetime import datetime
from typing import Protocol

from eaf.eventsourcing import Idempotency, Transaction, Transactions

from licensing.domain.model import License, Machine, Policy, Product
from licensing.domain.ports import (
    LicenseRepository,
    MachineRepository,
    PolicyRepository,
    ProductRepository,
)

__all__ = [
    "Clock",
    "Idempotency",
    "Transaction",
    "Transactions",
    "ProductRepository",
    "ProductListing",
    "PolicyRepository",
    "PolicyListing",
    "LicenseRepository",
    "LicenseListing",
    "MachineRepository",
    "MachineListing",
]


class Clock(Protocol):
    """Tells the current time (UTC)."""

    def now(self) -> datetime:
        """The current instant, timezone-aware."""
        ...


class ProductListing(Protocol):
    """The read side of Product: a projection of its events, for the current tenant."""

    async def list(self) -> list[Product]:
        """Every product of the tenant, as of the projection's last batch."""
        ...


class PolicyListing(Protocol):
    """The read side of Policy: a projection of its events, for the current tenant."""

    async def list(self) -> list[Policy]:
        """Every policy of the tenant, as of the projection's last batch."""
        ...


class LicenseListing(Protocol):
    """The read side of License: a projection of its events, for the current tenant."""

    async def list(self) -> list[License]:
        """Every license of the tenant, as of the projection's last batch."""
        ...


class MachineListing(Protocol):
    """The read side of Machine: a projection of its events, for the current tenant."""

    async def list(self) -> list[Machine]:
        """Every machine of the tenant, as of the projection's last batch."""
        ...
