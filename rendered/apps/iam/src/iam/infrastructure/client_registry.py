"""The tenants of every client id, folded from the service accounts and registered
clients of all tenants.

Client ids are unique per tenant, and a service account lives in its tenant's scope:
this adapter reads the creations in an explicit platform context, caching the fold with
the global position it has seen, so a new client is found at once in any process."""

import asyncio
from collections import defaultdict

from eaf import context
from eaf.eventsourcing import EventStore

from iam.domain.events import ClientRegistered, ServiceAccountCreated
from iam.infrastructure.persistence import (
    EVENTS,
    EventSourcedRegisteredClientRepository,
    EventSourcedServiceAccountRepository,
)

PAGE = 500


class StoredClientRegistry:
    """A :class:`~iam.application.ports.access.ClientRegistry` on the event store."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self._position = 0
        self._tenants: defaultdict[str, set[str]] = defaultdict(set)
        self._lock = asyncio.Lock()

    async def tenants_of(self, client_id: str) -> list[str]:
        async with self._lock:
            await self._caught_up()
            return sorted(self._tenants.get(client_id, ()))

    async def _caught_up(self) -> None:
        outer = context.current_or_none()
        correlation = {"correlation_id": outer.correlation_id} if outer else {}
        with context.use(context.platform_context(**correlation)):
            await self._catch_up()

    async def _catch_up(self) -> None:
        while True:
            events = await self._store.read_all(
                after=self._position,
                limit=PAGE,
                event_types=("ServiceAccountCreated", "ClientRegistered"),
            )
            for stored in events:
                self._position = stored.position
                if stored.stream_type not in (
                    EventSourcedServiceAccountRepository.STREAM,
                    EventSourcedRegisteredClientRepository.STREAM,
                ):
                    continue
                event = EVENTS.decode(stored)
                if isinstance(event, ServiceAccountCreated | ClientRegistered):
                    self._tenants[event.client_id].add(stored.tenant_id)
            if len(events) < PAGE:
                return
