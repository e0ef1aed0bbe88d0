"""Fixtures for the projector tests: a SQLite file per test, a fresh database per test
on the session's PostgreSQL server (tests/conftest.py), and a real nats-server per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from eaf.eventsourcing import SqlEventStore, create_event_store
from eaf.eventsourcing.testing.postgres import PostgresCluster
from eaf.messaging import JetStreamBroker, MessagingSettings
from eaf.messaging.embedded import EmbeddedNats


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
