"""Fixtures for the event-sourcing tests beyond tests/conftest.py: a raw PostgreSQL
connection and each backend's stores."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg  # type: ignore[import-untyped]
import pytest

from eaf.eventsourcing import (
    InMemoryEventStore,
    InMemorySagaStore,
    InMemorySnapshotStore,
    SqlEventStore,
)
from eaf.eventsourcing.testing import Backend
from eaf.eventsourcing.testing.postgres import PostgresCluster


@pytest.fixture
async def postgres_connection(
    postgres_cluster: PostgresCluster, postgres_database: str
) -> AsyncIterator[asyncpg.Connection]:
    """A raw connection to the test's database as the application's role."""
    connection = await postgres_cluster.connect(postgres_database)
    yield connection
    await connection.close()


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> Backend:
    if request.param == "memory":
        return Backend(
            "memory", InMemoryEventStore(), InMemorySnapshotStore(), InMemorySagaStore()
        )
    store: SqlEventStore = request.getfixturevalue(f"{request.param}_store")
    return Backend(request.param, store, store.snapshots, store.sagas)
