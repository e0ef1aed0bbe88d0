"""Fixtures for the projector tests beyond tests/conftest.py: NATS settings, a broker,
and an event store on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from eaf.eventsourcing import SqlEventStore
from eaf.messaging import JetStreamBroker, MessagingSettings
from eaf.messaging.embedded import EmbeddedNats


@pytest.fixture
def nats_settings(nats_server: EmbeddedNats) -> MessagingSettings:
    return MessagingSettings(url=nats_server.url, ack_wait=1.0, publish_timeout=2.0)


@pytest.fixture
async def nats_broker(
    nats_settings: MessagingSettings,
) -> AsyncIterator[JetStreamBroker]:
    async with await JetStreamBroker.connect(nats_settings) as broker:
        yield broker


@pytest.fixture(params=["sqlite", "postgres"])
def sql_events(request: pytest.FixtureRequest) -> SqlEventStore:
    store: SqlEventStore = request.getfixturevalue(f"{request.param}_store")
    return store
