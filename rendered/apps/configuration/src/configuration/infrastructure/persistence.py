# Generated from spec configuration by `generate`; edits are merged on re-render.

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

from configuration.domain.errors import ConcurrencyError
from configuration.domain.events import (
    SCHEMA_VERSIONS,
    PropertiesChanged,
    PropertiesCreated,
    PropertiesRemoved,
    SchemaDefined,
    SchemaRemoved,
    SchemaRevised,
)
from configuration.domain.model import ConfigSchema, PropertySet

EVENTS = EventRegistry()
for event_class in (
    PropertiesCreated,
    PropertiesChanged,
    SchemaDefined,
    SchemaRevised,
    SchemaRemoved,
    PropertiesRemoved,
):
    EVENTS.register(event_class, version=SCHEMA_VERSIONS[event_class.__name__])


def transactions(store: EventStore) -> StoreTransactions:
    """The use cases' transactions over ``store``."""
    return StoreTransactions(store, EVENTS)


class EventSourcedConfigSchemaRepository(AggregateRepository[ConfigSchema]):
    """ConfigSchema aggregates as streams of the current tenant's events."""

    STREAM = "ConfigSchema"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            ConfigSchema,
            conflict=ConcurrencyError,
            event_types=["SchemaDefined", "SchemaRemoved", "SchemaRevised"],
        )


class EventSourcedPropertySetRepository(AggregateRepository[PropertySet]):
    """PropertySet aggregates as streams of the current tenant's events."""

    STREAM = "PropertySet"

    def __init__(self, store: EventStore) -> None:
        super().__init__(
            store,
            EVENTS,
            PropertySet,
            conflict=ConcurrencyError,
            event_types=["PropertiesChanged", "PropertiesCreated", "PropertiesRemoved"],
        )
