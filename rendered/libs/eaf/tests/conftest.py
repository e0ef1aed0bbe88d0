"""Fixtures shared by every eaf test package: one real PostgreSQL server per session
with a fresh database per test, a SQLite file per test, and a real nats-server per test."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from eaf.eventsourcing import SqlEventStore, create_event_store
from eaf.eventsourcing.testing.postgres import PostgresCluster, running_postgres
from eaf.messaging.embedded import EmbeddedNats

_SPANS = InMemorySpanExporter()


def pytest_configure(config: pytest.Config) -> None:
    """The tests' tracer provider, set before any app is instrumented (which then keeps
    it, as it keeps a deployment's): every span is recorded, in memory."""
    provider = TracerProvider(resource=Resource.create({"service.name": "eaf-tests"}))
    provider.add_span_processor(SimpleSpanProcessor(_SPANS))
    trace.set_tracer_provider(provider)


@pytest.fixture
def spans() -> InMemorySpanExporter:
    """The spans finished during the test."""
    _SPANS.clear()
    return _SPANS


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
