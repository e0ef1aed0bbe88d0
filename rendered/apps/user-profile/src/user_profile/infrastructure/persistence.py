# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Event-sourced persistence on the eaf event store (SQLite, PostgreSQL or in-memory): an
aggregate is the fold of its stream; a use case's changes are appended in one transaction
(with unique-value reservations and idempotency records); stored events of older schema
versions are upcast on read."""

from eaf.context import platform_context, use
from eaf.eventsourcing import (
    AggregateRepository,
    EventRegistry,
    EventStore,
    InMemoryEventStore,
    StoreTransactions,
    create_event_store,
)

from user_profile.domain.errors import ConcurrencyError
from user_profile.domain.events import (
    SCHEMA_VERSIONS,
    SampleUserProfileCreated,
    SampleUserProfileUpdated,
)
from user_profile.domain.model import SampleUserProfile

EVENTS = EventRegistry()
for event_class in (
    SampleUserProfileCreated,
    SampleUserProfileUpdated,
):
    EVENTS.register(event_class, version=SCHEMA_VERSIONS[event_class.__name__])


async def open_event_store(url: str | None) -> EventStore:
    """The event store at ``url`` (``sqlite+aiosqlite://...``, ``postgresql+asyncpg://...``),
    or an in-memory one when ``url`` is None."""
    if url is None:
        return InMemoryEventStore()
    return await create_event_store(url)


async def close_event_store(store: EventStore) -> None:
    close = getattr(store, "close", None)
    if close is not None:
        await close()


async def event_store_ready(store: EventStore) -> bool:
    """True when the event store answers a read."""
    try:
        with use(platform_context()):
            await store.read_all(limit=1)
    except Exception:
        return False
    return True


def transactions(store: EventStore) -> StoreTransactions:
    """The use cases' transactions over ``store``."""
    return StoreTransactions(store, EVENTS)


class EventSourcedSampleUserProfileRepository(AggregateRepository[SampleUserProfile]):
    """SampleUserProfile aggregates as streams of the current tenant's events."""

    STREAM = "SampleUserProfile"

    def __init__(self, store: EventStore) -> None:
        super().__init__(store, EVENTS, SampleUserProfile, conflict=ConcurrencyError)
