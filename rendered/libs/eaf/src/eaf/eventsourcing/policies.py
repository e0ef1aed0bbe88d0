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

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence

from eaf.context import platform_context, use
from eaf.eventsourcing.ports import EventStore, SagaStore
from eaf.eventsourcing.records import StoredEvent
from eaf.eventsourcing.registry import EventRegistry

__all__ = ["PolicyHandler", "PolicyRunner"]

log = logging.getLogger(__name__)

PolicyHandler = Callable[[object, str], Awaitable[None]]
"""Runs one policy for a decoded event, given the idempotency key of that run."""


class PolicyRunner:
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
        self._events = events
        self._registry = registry
        self._tracking = tracking
        self._policies = policies
        self._name = name
        self._batch_size = batch_size
        self._retry_delay = retry_delay

    async def run_once(self) -> int:
        """Run the policies of the next batch of events; how many events were read. A
        failing handler stops the batch there (its event is handled again next time)."""
        with use(platform_context()):
            after = await self._tracking.tracking_position(self._name)
            batch = await self._events.read_all(
                after=after, limit=self._batch_size, event_types=list(self._policies)
            )
        done = after
        try:
            for stored in batch:
                await self._handle(stored)
                done = stored.position
        finally:
            if done != after:
                with use(platform_context()):
                    await self._tracking.save_tracking_position(self._name, done)
        return len(batch)

    async def run_until_idle(self) -> None:
        """Run policies until no event is left (including those the policies caused)."""
        while await self.run_once():
            pass

    async def run(self, stop: asyncio.Event, *, poll_interval: float = 0.2) -> None:
        """Follow the event store until ``stop`` is set; a failure is logged and retried."""
        while not stop.is_set():
            try:
                read = await self.run_once()
            except Exception:
                log.exception("%s: a policy failed; retrying", self._name)
                read = 0
                wait = self._retry_delay
            else:
                wait = poll_interval
            if read == 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=wait)

    async def _handle(self, stored: StoredEvent) -> None:
        event = self._registry.decode(stored)
        with use(stored.reaction_context()):
            for name, handler in self._policies.get(stored.event_type, ()):
                await handler(event, f"policy:{name}:{stored.event_id}")
