"""Runs sagas by following the event store from a tracking position."""

from __future__ import annotations

from collections.abc import Sequence

from eaf.context import use
from eaf.eventsourcing.following import EventFollower
from eaf.eventsourcing.ports import EventStore, SagaState, SagaStore
from eaf.eventsourcing.records import StoredEvent
from eaf.eventsourcing.registry import EventRegistry
from eaf.eventsourcing.saga import CommandDispatcher, Saga

__all__ = ["SagaRunner"]


class SagaRunner(EventFollower):
    """Feeds every tenant's events, in global order, to the sagas that handle them.

    Each handler and the commands it dispatches run in the triggering event's security
    context (its tenant, user and correlation id, with the event as causation). The
    runner's position is saved after each batch (up to a failing handler, whose event is
    handled again); a redelivered event is skipped by the saga instances that already
    handled it. Commands dispatched just before a crash may be dispatched again: command
    handlers must tolerate that (at-least-once).
    """

    def __init__(
        self,
        *,
        events: EventStore,
        registry: EventRegistry,
        store: SagaStore,
        sagas: Sequence[type[Saga]],
        dispatch: CommandDispatcher,
        name: str = "sagas",
        batch_size: int = 200,
    ) -> None:
        handled = {event_type for saga in sagas for event_type in saga.routes}
        super().__init__(
            events=events,
            tracking=store,
            event_types=registry.names_of(handled),
            name=name,
            batch_size=batch_size,
        )
        self._registry = registry
        self._store = store
        self._sagas = sagas
        self._dispatch = dispatch

    async def handle(self, stored: StoredEvent) -> None:
        event = self._registry.decode(stored)
        with use(stored.reaction_context()):
            for saga_type in self._sagas:
                route = saga_type.routes.get(type(event))
                association = saga_type.association_of(event)
                if route is None or association is None:
                    continue
                record = await self._store.load(saga_type.saga_type, association)
                if record is None:
                    if not route.starts:
                        continue
                    record = SagaState(saga_type.saga_type, association)
                    saga = saga_type(association)
                elif record.ended or record.last_position >= stored.position:
                    continue
                else:
                    saga = saga_type.restore(record)
                saga.bind(self._dispatch)
                await route.handler(saga, event)
                await self._store.save(
                    SagaState(
                        saga_type=record.saga_type,
                        association=association,
                        state=saga.state(),
                        ended=saga.ended,
                        last_position=stored.position,
                        revision=record.revision,
                    )
                )
