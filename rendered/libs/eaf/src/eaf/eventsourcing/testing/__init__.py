"""Contract test suites for the event-sourcing ports.

Every adapter runs the same suite: subclass the contract in a test module and provide
the fixture it names, yielding a fresh, empty store::

    class TestMyEventStore(EventStoreContract):
        @pytest.fixture
        async def event_store(self) -> AsyncIterator[EventStore]:
            ...
"""

from eaf.eventsourcing.testing.event_store import EventStoreContract
from eaf.eventsourcing.testing.helpers import Backend, as_tenant, new_events
from eaf.eventsourcing.testing.sagas import SagaStoreContract
from eaf.eventsourcing.testing.snapshots import SnapshotStoreContract

__all__ = [
    "Backend",
    "EventStoreContract",
    "SagaStoreContract",
    "SnapshotStoreContract",
    "as_tenant",
    "new_events",
]
