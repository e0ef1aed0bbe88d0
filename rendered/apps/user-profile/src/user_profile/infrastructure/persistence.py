# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Event-sourced repositories on the eaf event store (SQLite, PostgreSQL or in-memory):
an aggregate is the fold of its stream; saving appends its new events, with the outbox,
in one transaction; stored events of older schema versions are upcast on read."""

from typing import ClassVar, Generic, Protocol, Self, TypeVar

from eaf.context import platform_context, use
from eaf.eventsourcing import ConcurrencyError as StreamConflict
from eaf.eventsourcing import (
    EventRegistry,
    EventStore,
    InMemoryEventStore,
    create_event_store,
)

from user_profile.domain.errors import ConcurrencyError
from user_profile.domain.events import (
    SCHEMA_VERSIONS,
    DomainEvent,
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


class _Sourced(Protocol):
    """What a repository needs of an aggregate (every generated aggregate has it)."""

    @property
    def id(self) -> str: ...

    @property
    def version(self) -> int: ...

    @property
    def changes(self) -> tuple[DomainEvent, ...]: ...

    def committed(self) -> Self: ...


A = TypeVar("A", bound=_Sourced)


class StreamRepository(Generic[A]):
    """Aggregates of one type as streams (``STREAM``) of the current tenant's events."""

    STREAM: ClassVar[str]

    def __init__(self, store: EventStore) -> None:
        self._store = store

    def replay(self, events: list[DomainEvent]) -> A:
        """The aggregate folded from its events, oldest first."""
        raise NotImplementedError

    async def get(self, id: str) -> A | None:
        stored = await self._store.read_stream(self.STREAM, id)
        if not stored:
            return None
        return self.replay([EVENTS.decode(event) for event in stored])

    async def save(self, aggregate: A) -> A:
        try:
            await self._store.append(
                self.STREAM,
                aggregate.id,
                [EVENTS.encode(event) for event in aggregate.changes],
                expected_version=aggregate.version,
            )
        except StreamConflict as error:
            raise ConcurrencyError(str(error)) from error
        return aggregate.committed()


class EventSourcedSampleUserProfileRepository(StreamRepository[SampleUserProfile]):
    """SampleUserProfile aggregates as streams of the current tenant's events."""

    STREAM = "SampleUserProfile"

    def replay(self, events: list[DomainEvent]) -> SampleUserProfile:
        return SampleUserProfile.from_history(events)
