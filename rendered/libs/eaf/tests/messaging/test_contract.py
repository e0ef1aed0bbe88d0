from __future__ import annotations

import pytest

from eaf.messaging import InMemoryBroker, JetStreamBroker
from eaf.messaging.testing import BrokerContract


class TestInMemoryBroker(BrokerContract):
    @pytest.fixture
    def broker(self) -> InMemoryBroker:
        return InMemoryBroker()


class TestJetStreamBroker(BrokerContract):
    @pytest.fixture
    def broker(self, nats_broker: JetStreamBroker) -> JetStreamBroker:
        return nats_broker
