"""Every adapter of every port passes the same contract suite."""

from __future__ import annotations

import pytest

from eaf.eventsourcing import (
    InMemoryEventStore,
    InMemorySagaStore,
    InMemorySnapshotStore,
    SqlEventStore,
)
from eaf.eventsourcing.ports import EventStore, SagaStore, SnapshotStore
from eaf.eventsourcing.sql import SqlSagaStore, SqlSnapshotStore
from eaf.eventsourcing.testing import (
    EventStoreContract,
    SagaStoreContract,
    SnapshotStoreContract,
)


class TestInMemoryEventStore(EventStoreContract):
    @pytest.fixture
    def event_store(self) -> EventStore:
        return InMemoryEventStore()


class TestSqliteEventStore(EventStoreContract):
    @pytest.fixture
    def event_store(self, sqlite_store: SqlEventStore) -> EventStore:
        return sqlite_store


class TestPostgresEventStore(EventStoreContract):
    @pytest.fixture
    def event_store(self, postgres_store: SqlEventStore) -> EventStore:
        return postgres_store


class TestInMemorySnapshotStore(SnapshotStoreContract):
    @pytest.fixture
    def snapshot_store(self) -> SnapshotStore:
        return InMemorySnapshotStore()


class TestSqliteSnapshotStore(SnapshotStoreContract):
    @pytest.fixture
    def snapshot_store(self, sqlite_store: SqlEventStore) -> SqlSnapshotStore:
        return sqlite_store.snapshots


class TestPostgresSnapshotStore(SnapshotStoreContract):
    @pytest.fixture
    def snapshot_store(self, postgres_store: SqlEventStore) -> SqlSnapshotStore:
        return postgres_store.snapshots


class TestInMemorySagaStore(SagaStoreContract):
    @pytest.fixture
    def saga_store(self) -> SagaStore:
        return InMemorySagaStore()


class TestSqliteSagaStore(SagaStoreContract):
    @pytest.fixture
    def saga_store(self, sqlite_store: SqlEventStore) -> SqlSagaStore:
        return sqlite_store.sagas


class TestPostgresSagaStore(SagaStoreContract):
    @pytest.fixture
    def saga_store(self, postgres_store: SqlEventStore) -> SqlSagaStore:
        return postgres_store.sagas
