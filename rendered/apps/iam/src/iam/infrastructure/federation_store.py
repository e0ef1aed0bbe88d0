"""The identity sources' aggregates on the event store, in the events' own registry (the
spec does not carry them yet)."""

from eaf.eventsourcing import AggregateRepository, EventRegistry, EventStore

from iam.domain.errors import ConcurrencyError
from iam.domain.federation import (
    FEDERATION_EVENTS,
    FederatedIdentity,
    LdapProvider,
    UserFederated,
    UserLinked,
)

EVENTS = EventRegistry()
for event_class in FEDERATION_EVENTS:
    EVENTS.register(event_class, version=1)

PAGE = 500


class EventSourcedLdapProviderRepository(AggregateRepository[LdapProvider]):
    """The current tenant's LDAP provider as its stream of events."""

    def __init__(self, store: EventStore) -> None:
        super().__init__(store, EVENTS, LdapProvider, conflict=ConcurrencyError)


class EventSourcedFederatedIdentities(AggregateRepository[FederatedIdentity]):
    """The current tenant's external identities, one stream each."""

    def __init__(self, store: EventStore) -> None:
        super().__init__(store, EVENTS, FederatedIdentity, conflict=ConcurrencyError)
        self._store = store

    async def of_source(self, source: str) -> list[FederatedIdentity]:
        found: list[FederatedIdentity] = []
        position = 0
        while True:
            events = await self._store.read_all(
                after=position,
                limit=PAGE,
                event_types=EVENTS.names_of((UserFederated, UserLinked)),
            )
            for stored in events:
                position = stored.position
                identity = FederatedIdentity.from_history([EVENTS.decode(stored)])
                if identity.source == source:
                    found.append(identity)
            if len(events) < PAGE:
                return found
