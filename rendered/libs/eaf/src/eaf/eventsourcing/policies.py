"""Policies: when an event is stored, run a command. A runner follows the event store from
its tracking position and hands each event of a type some policy handles to that policy,
in the event's security context (its tenant, user and correlation id, the event as the
command's causation).

Each run is idempotent: the handler gets a key unique to the policy and the event, which
the rendered use case records in the same transaction as its changes (an idempotency
record), so an event handled again after a crash changes nothing twice. A handler that
raises is retried (with the runner's position unchanged) until it succeeds; handlers catch
the refusals they expect (a guard, a missing aggregate) themselves.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence

from eaf.context import use
from eaf.eventsourcing.following import EventFollower
from eaf.eventsourcing.ports import EventStore, SagaStore
from eaf.eventsourcing.records import StoredEvent
from eaf.eventsourcing.registry import EventRegistry

__all__ = ["PolicyHandler", "PolicyRunner"]

PolicyHandler = Callable[[object, str], Awaitable[None]]
"""Runs one policy for a decoded event, given the idempotency key of that run."""


class PolicyRunner(EventFollower):
    """Follows the event store and runs ``policies`` (event type -> (name, handler)s).

    The tracking position lives in ``tracking`` (the saga store of the event store's
    database) under ``name``; it moves past an event once every policy of it ran.
    """

    def __init__(
        self,
        *,
        events: EventStore,
        registry: EventRegistry,
        tracking: SagaStore,
        policies: Mapping[str, Sequence[tuple[str, PolicyHandler]]],
        name: str = "policies",
        batch_size: int = 100,
        retry_delay: float = 1.0,
    ) -> None:
        super().__init__(
            events=events,
            tracking=tracking,
            event_types=list(policies),
            name=name,
            batch_size=batch_size,
            retry_delay=retry_delay,
        )
        self._registry = registry
        self._policies = policies

    async def handle(self, stored: StoredEvent) -> None:
        event = self._registry.decode(stored)
        with use(stored.reaction_context()):
            for name, handler in self._policies.get(stored.event_type, ()):
                await handler(event, f"policy:{name}:{stored.event_id}")
