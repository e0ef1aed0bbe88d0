"""SQL adapters of the event-sourcing ports (SQLAlchemy 2 async: aiosqlite, asyncpg)."""

from eaf.eventsourcing.sql.database import Database
from eaf.eventsourcing.sql.event_store import SqlEventStore, create_event_store
from eaf.eventsourcing.sql.outbox import SqlOutbox
from eaf.eventsourcing.sql.sagas import SqlSagaStore
from eaf.eventsourcing.sql.snapshots import SqlSnapshotStore

__all__ = [
    "Database",
    "SqlEventStore",
    "SqlOutbox",
    "SqlSagaStore",
    "SqlSnapshotStore",
    "create_event_store",
]
