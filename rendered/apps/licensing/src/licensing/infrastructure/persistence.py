# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Event-sourced persistence on the eaf event store (SQLite, PostgreSQL or in-memory): an
aggregate is the fold of its stream; a use case's changes are appended in one transaction
(with unique-value reservations and idempotency records); stored events of older schema
versions are upcast on read."""

from eaf.eventsourcing import (
    AggregateRepository,
    EventRegistry,
    EventStore,
    StoreTransactions,
)

from licensing.domain.errors import ConcurrencyError
from licensing.domain.events import (
    SCHEMA_VERSIONS,
    LicenseCreated,
    LicenseReinstated,
    LicenseRenewed,
    LicenseRevokedEvent,
    LicenseSuspended,
    LicenseUpdated,
    MachineActivated,
    MachineClaimed,
    MachineDeactivated,
    MachineHeartbeat,
    MachineReleased,
    PolicyCreated,
    PolicyRemoved,
    PolicyUpdated,
    ProductCreated,
    ProductRemoved,
    ProductUpdated,
)
from licensing.domain.model import License, Machine, Policy, Product

EVENTS = EventRegistry()
for event_class in (
    ProductCreated,
    ProductUpdated,
    ProductRemoved,
    PolicyCreated,
    PolicyUpdated,
    PolicyRemoved,
    LicenseCreated,
    LicenseUpdated,
    LicenseSuspended,
    LicenseReinstated,
    LicenseRevokedEvent,
    LicenseRenewed,
    MachineClaimed,
    MachineReleased,
    MachineActivated,
    MachineHeartbeat,
    MachineDeactivated,
):
    EVENTS.register(event_class, version=SCHEMA_VERSIONS[event_class.__name__])


def transactions(store: EventStore) -> StoreTransactions:
    """The use cases' transactions over ``store``."""
    return StoreTransactions(store, EVENTS)


class EventSourcedProductRepository(AggregateRepository[Product]):
    """Product aggregates as streams of the current tenant's events."""

    STREAM = "Product"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            Product,
            conflict=ConcurrencyError,
            event_types=["ProductCreated", "ProductRemoved", "ProductUpdated"],
        )


class EventSourcedPolicyRepository(AggregateRepository[Policy]):
    """Policy aggregates as streams of the current tenant's events."""

    STREAM = "Policy"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            Policy,
            conflict=ConcurrencyError,
            event_types=["PolicyCreated", "PolicyRemoved", "PolicyUpdated"],
        )


class EventSourcedLicenseRepository(AggregateRepository[License]):
    """License aggregates as streams of the current tenant's events."""

    STREAM = "License"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            License,
            conflict=ConcurrencyError,
            event_types=[
                "LicenseCreated",
                "LicenseReinstated",
                "LicenseRenewed",
                "LicenseRevokedEvent",
                "LicenseSuspended",
                "LicenseUpdated",
                "MachineClaimed",
                "MachineReleased",
            ],
        )


class EventSourcedMachineRepository(AggregateRepository[Machine]):
    """Machine aggregates as streams of the current tenant's events."""

    STREAM = "Machine"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            Machine,
            conflict=ConcurrencyError,
            event_types=["MachineActivated", "MachineDeactivated", "MachineHeartbeat"],
        )
