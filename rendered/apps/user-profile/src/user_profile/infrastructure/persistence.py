# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Event-sourced persistence on the eaf event store (SQLite, PostgreSQL or in-memory): an
aggregate is the fold of its stream; a use case's changes are appended in one transaction
(with unique-value reservations and idempotency records); stored events of older schema
versions are upcast on read."""

from eaf.eventsourcing import (
    AggregateRepository,
    EventRegistry,
    EventStore,
    StoreTransactions,
)

from user_profile.domain.errors import ConcurrencyError
from user_profile.domain.events import (
    SCHEMA_VERSIONS,
    SampleUserProfileCreated,
    SampleUserProfileRemoved,
    SampleUserProfileUpdated,
)
from user_profile.domain.model import SampleUserProfile

EVENTS = EventRegistry()
for event_class in (
    SampleUserProfileCreated,
    SampleUserProfileUpdated,
    SampleUserProfileRemoved,
):
    EVENTS.register(event_class, version=SCHEMA_VERSIONS[event_class.__name__])


def transactions(store: EventStore) -> StoreTransactions:
    """The use cases' transactions over ``store``."""
    return StoreTransactions(store, EVENTS)


class EventSourcedSampleUserProfileRepository(AggregateRepository[SampleUserProfile]):
    """SampleUserProfile aggregates as streams of the current tenant's events."""

    STREAM = "SampleUserProfile"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            SampleUserProfile,
            conflict=ConcurrencyError,
            event_types=[
                "SampleUserProfileCreated",
                "SampleUserProfileRemoved",
                "SampleUserProfileUpdated",
            ],
        )
