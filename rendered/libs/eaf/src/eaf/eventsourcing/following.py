"""Following the event store from a saved tracking position: the loop shared by the
runners that react to stored events (policies, sagas)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Sequence

from eaf.context import platform_context, use
from eaf.eventsourcing.ports import EventStore, SagaStore
from eaf.eventsourcing.records import StoredEvent

__all__ = ["EventFollower"]

log = logging.getLogger(__name__)


class EventFollower(ABC):
    """Reads every tenant's events of ``event_types`` in global order, in batches, and
    hands each to :meth:`handle`. The position is saved under ``name`` in ``tracking``
    after each handled event's batch; a failing handler stops the batch at its event,
    which is handled again on the next run (handlers are idempotent)."""

    def __init__(
        self,
        *,
        events: EventStore,
        tracking: SagaStore,
        event_types: Sequence[str],
        name: str,
        batch_size: int,
        retry_delay: float = 1.0,
    ) -> None:
        self._events = events
        self._tracking = tracking
        self._event_types = list(event_types)
        self._name = name
        self._batch_size = batch_size
        self._retry_delay = retry_delay

    @abstractmethod
    async def handle(self, stored: StoredEvent) -> None:
        """React to one stored event (run in no particular security context)."""

    async def run_once(self) -> int:
        """Handle the next batch of events; how many events were read."""
        with use(platform_context()):
            after = await self._tracking.tracking_position(self._name)
            batch = await self._events.read_all(
                after=after, limit=self._batch_size, event_types=self._event_types
            )
        done = after
        try:
            for stored in batch:
                await self.handle(stored)
                done = stored.position
        finally:
            if done != after:
                with use(platform_context()):
                    await self._tracking.save_tracking_position(self._name, done)
        return len(batch)

    async def run_until_idle(self) -> None:
        """Handle events until none are left (including those the handlers caused)."""
        while await self.run_once():
            pass

    async def run(self, stop: asyncio.Event, *, poll_interval: float = 0.2) -> None:
        """Follow the event store until ``stop`` is set; a failure is logged and the
        batch retried after ``retry_delay`` seconds."""
        while not stop.is_set():
            try:
                read = await self.run_once()
            except Exception:
                log.exception("%s: handling an event failed; retrying", self._name)
                read = 0
                wait = self._retry_delay
            else:
                wait = poll_interval
            if read == 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=wait)
