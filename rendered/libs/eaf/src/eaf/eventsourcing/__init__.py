"""Event sourcing for eaf services: a tenant-aware event store with a global order,
optimistic concurrency, a transactional outbox, snapshots, upcasting and sagas.

Adapters: :class:`InMemoryEventStore` (tests), and :func:`create_event_store` for a
SQLite file (the default) or PostgreSQL. Contract tests for new adapters live in
:mod:`eaf.eventsourcing.testing`.
"""

from eaf.eventsourcing.aggregate import Aggregate, applies
from eaf.eventsourcing.errors import (
    AggregateNotFoundError,
    ConcurrencyError,
    DuplicateEventError,
    DuplicateKeyError,
    EventSourcingError,
    IdempotencyKeyReusedError,
    NotYetProjected,
    PreconditionFailedError,
    StoreUnavailableError,
    UnknownEventTypeError,
    UpcastError,
)
from eaf.eventsourcing.lifecycle import (
    close_event_store,
    event_store_ready,
    open_event_store,
)
from eaf.eventsourcing.memory import (
    InMemoryEventStore,
    InMemorySagaStore,
    InMemorySnapshotStore,
)
from eaf.eventsourcing.outbox import InMemoryOutbox, Outbox, OutboxMessage
from eaf.eventsourcing.policies import PolicyHandler, PolicyRunner
from eaf.eventsourcing.ports import (
    EventStore,
    SagaState,
    SagaStore,
    Snapshot,
    SnapshotStore,
)
from eaf.eventsourcing.records import (
    EventMetadata,
    NewEvent,
    StoredEvent,
    StreamAppend,
)
from eaf.eventsourcing.registry import EventRegistry, Upcaster
from eaf.eventsourcing.repository import EventSourcedRepository
from eaf.eventsourcing.saga import CommandDispatcher, Saga, handles, starts
from eaf.eventsourcing.saga_runner import SagaRunner
from eaf.eventsourcing.sql import SqlEventStore, create_event_store
from eaf.eventsourcing.transactions import (
    AggregateRepository,
    Idempotency,
    Sourced,
    StoreTransactions,
    Transaction,
    Transactions,
    change_one,
    keyed_id,
    make_one,
)

__all__ = [
    "Aggregate",
    "AggregateRepository",
    "AggregateNotFoundError",
    "CommandDispatcher",
    "ConcurrencyError",
    "DuplicateEventError",
    "DuplicateKeyError",
    "EventMetadata",
    "EventRegistry",
    "EventSourcedRepository",
    "EventSourcingError",
    "EventStore",
    "Idempotency",
    "IdempotencyKeyReusedError",
    "InMemoryEventStore",
    "InMemoryOutbox",
    "InMemorySagaStore",
    "InMemorySnapshotStore",
    "NewEvent",
    "Outbox",
    "PolicyHandler",
    "PolicyRunner",
    "PreconditionFailedError",
    "OutboxMessage",
    "Saga",
    "SagaRunner",
    "SagaState",
    "SagaStore",
    "Snapshot",
    "SnapshotStore",
    "Sourced",
    "StoreTransactions",
    "SqlEventStore",
    "StoredEvent",
    "StreamAppend",
    "Transaction",
    "Transactions",
    "change_one",
    "keyed_id",
    "make_one",
    "NotYetProjected",
    "StoreUnavailableError",
    "UnknownEventTypeError",
    "UpcastError",
    "Upcaster",
    "applies",
    "close_event_store",
    "create_event_store",
    "event_store_ready",
    "handles",
    "open_event_store",
    "starts",
]
