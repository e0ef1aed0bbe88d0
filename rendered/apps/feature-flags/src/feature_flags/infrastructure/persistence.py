# Generated from spec feature-flags by `generate`; edits are merged on re-render.

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

from feature_flags.domain.errors import ConcurrencyError
from feature_flags.domain.events import (
    SCHEMA_VERSIONS,
    FlagArchivedEvent,
    FlagConfigured,
    FlagCreated,
    FlagDependenciesSet,
    FlagDescribed,
    FlagRemoved,
    FlagRevived,
    FlagStaleMarked,
    FlagVariantsSet,
    ProjectCreated,
    ProjectRemoved,
    ProjectUpdated,
    SegmentCreated,
    SegmentRemoved,
    SegmentUpdated,
    UsageRecorded,
)
from feature_flags.domain.model import Flag, Project, Segment, UsageReport

EVENTS = EventRegistry()
for event_class in (
    ProjectCreated,
    ProjectUpdated,
    ProjectRemoved,
    SegmentCreated,
    SegmentUpdated,
    SegmentRemoved,
    FlagCreated,
    FlagDescribed,
    FlagConfigured,
    FlagVariantsSet,
    FlagDependenciesSet,
    FlagStaleMarked,
    FlagArchivedEvent,
    FlagRevived,
    FlagRemoved,
    UsageRecorded,
):
    EVENTS.register(event_class, version=SCHEMA_VERSIONS[event_class.__name__])


def transactions(store: EventStore) -> StoreTransactions:
    """The use cases' transactions over ``store``."""
    return StoreTransactions(store, EVENTS)


class EventSourcedProjectRepository(AggregateRepository[Project]):
    """Project aggregates as streams of the current tenant's events."""

    STREAM = "Project"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            Project,
            conflict=ConcurrencyError,
            event_types=["ProjectCreated", "ProjectRemoved", "ProjectUpdated"],
        )


class EventSourcedSegmentRepository(AggregateRepository[Segment]):
    """Segment aggregates as streams of the current tenant's events."""

    STREAM = "Segment"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            Segment,
            conflict=ConcurrencyError,
            event_types=["SegmentCreated", "SegmentRemoved", "SegmentUpdated"],
        )


class EventSourcedFlagRepository(AggregateRepository[Flag]):
    """Flag aggregates as streams of the current tenant's events."""

    STREAM = "Flag"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            Flag,
            conflict=ConcurrencyError,
            event_types=[
                "FlagArchivedEvent",
                "FlagConfigured",
                "FlagCreated",
                "FlagDependenciesSet",
                "FlagDescribed",
                "FlagRemoved",
                "FlagRevived",
                "FlagStaleMarked",
                "FlagVariantsSet",
            ],
        )


class EventSourcedUsageReportRepository(AggregateRepository[UsageReport]):
    """UsageReport aggregates as streams of the current tenant's events."""

    STREAM = "UsageReport"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            UsageReport,
            conflict=ConcurrencyError,
            event_types=["UsageRecorded"],
        )
