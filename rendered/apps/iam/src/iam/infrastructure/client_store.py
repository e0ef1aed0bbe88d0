"""Registered clients on the event store, beside the generated repositories (their
events join the same registry, so every reader of the store decodes them)."""

from eaf.eventsourcing import AggregateRepository, EventStore

from iam.domain.clients import CLIENT_EVENTS, RegisteredClient
from iam.domain.errors import ConcurrencyError
from iam.infrastructure.persistence import EVENTS

for client_event in CLIENT_EVENTS:
    EVENTS.register(client_event, version=1)


class EventSourcedRegisteredClientRepository(AggregateRepository[RegisteredClient]):
    """RegisteredClient aggregates as streams of the current tenant's events."""

    STREAM = "RegisteredClient"

    def __init__(self, store: EventStore) -> None:
        super().__init__(store, EVENTS, RegisteredClient, conflict=ConcurrencyError)
