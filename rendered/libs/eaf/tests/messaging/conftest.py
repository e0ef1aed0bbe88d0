from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from eaf.messaging import JetStreamBroker, MessagingSettings
from eaf.messaging.embedded import EmbeddedNats


@pytest.fixture
async def nats_server(tmp_path: Path) -> AsyncIterator[EmbeddedNats]:
    """A real nats-server with JetStream, fresh for each test."""
    async with EmbeddedNats(tmp_path / "nats") as server:
        yield server


@pytest.fixture
def settings(nats_server: EmbeddedNats) -> MessagingSettings:
    return MessagingSettings(url=nats_server.url, ack_wait=5.0, publish_timeout=2.0)


@pytest.fixture
async def nats_broker(settings: MessagingSettings) -> AsyncIterator[JetStreamBroker]:
    async with await JetStreamBroker.connect(settings) as broker:
        yield broker
