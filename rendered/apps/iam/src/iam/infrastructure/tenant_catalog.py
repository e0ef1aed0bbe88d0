"""Every tenant, folded from the tenant events of all tenants.

A tenant's events live in its own scope, so no tenant-scoped read (repository or read
model) can list them all: this adapter reads the event store in an explicit platform
context. The fold is cached with the global position it has seen; every read folds in
only newer events, so a created or suspended tenant shows at once in any process."""

import asyncio
from dataclasses import replace

from eaf import context
from eaf.eventsourcing import EventStore

from iam.domain.model import Tenant
from iam.infrastructure.persistence import EVENTS

TENANT_EVENTS = ("TenantCreatedEvent", "TenantStatusChanged")
PAGE = 500


class StoredTenantCatalog:
    """A :class:`~iam.application.ports.access.TenantCatalog` on the event store."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self._position = 0
        self._tenants: dict[str, Tenant] = {}
        self._lock = asyncio.Lock()

    async def tenants(self) -> list[Tenant]:
        outer = context.current_or_none()
        correlation = {"correlation_id": outer.correlation_id} if outer else {}
        async with self._lock:
            with context.use(context.platform_context(**correlation)):
                await self._catch_up()
            return list(self._tenants.values())

    async def _catch_up(self) -> None:
        while True:
            events = await self._store.read_all(
                after=self._position, limit=PAGE, event_types=TENANT_EVENTS
            )
            for stored in events:
                event = EVENTS.decode(stored)
                tenant = self._tenants.get(stored.stream_id)
                self._tenants[stored.stream_id] = replace(
                    Tenant.from_history([event])
                    if tenant is None
                    else tenant.apply(event),
                    version=stored.stream_version,
                )
                self._position = stored.position
            if len(events) < PAGE:
                return
