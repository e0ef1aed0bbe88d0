from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from eaf.messaging import JetStreamBroker, MessagingSettings
from eaf.messaging.embedded import EmbeddedNats


@pytest.fixture
def settings(nats_server: EmbeddedNats) -> MessagingSettings:
    return MessagingSettings(url=nats_server.url, ack_wait=5.0, publish_timeout=2.0)


@pytest.fixture
async def nats_broker(settings: MessagingSettings) -> AsyncIterator[JetStreamBroker]:
    async with await JetStreamBroker.connect(settings) as broker:
        yield broker
