"""A tenant's external OpenID providers on the event store, in their events' own
registry (the spec does not carry them yet)."""

from eaf.eventsourcing import AggregateRepository, EventRegistry, EventStore

from iam.domain.brokering import BROKERING_EVENTS, OidcProviders
from iam.domain.errors import ConcurrencyError

EVENTS = EventRegistry()
for event_class in BROKERING_EVENTS:
    EVENTS.register(event_class, version=1)


class EventSourcedOidcProviders(AggregateRepository[OidcProviders]):
    """The current tenant's external OpenID providers as one stream of events."""

    def __init__(self, store: EventStore) -> None:
        super().__init__(store, EVENTS, OidcProviders, conflict=ConcurrencyError)
