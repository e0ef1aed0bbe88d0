"""Fixtures for the projector tests beyond tests/conftest.py: NATS settings and a broker."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

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
