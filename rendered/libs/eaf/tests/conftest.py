"""Fixtures shared by every eaf test package: one real PostgreSQL server per session
with a fresh database per test, a SQLite file per test, and a real nats-server per test."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from eaf.eventsourcing import SqlEventStore, create_event_store
from eaf.eventsourcing.testing.postgres import PostgresCluster, running_postgres
from eaf.messaging.embedded import EmbeddedNats


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    with running_postgres() as cluster:
        yield cluster


@pytest.fixture
async def postgres_database(postgres_cluster: PostgresCluster) -> str:
    return await postgres_cluster.create_database()


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster, postgres_database: str) -> str:
    return postgres_cluster.url(postgres_database)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
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


@pytest.fixture
async def nats_server(tmp_path: Path) -> AsyncIterator[EmbeddedNats]:
    """A real nats-server with JetStream, fresh for each test."""
    async with EmbeddedNats(tmp_path / "nats") as server:
        yield server
