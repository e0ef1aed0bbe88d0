"""The store-following source: read the event store from the checkpoint, in order."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from eaf.context import platform_context, use
from eaf.eventsourcing.ports import EventStore
from eaf.projectors.ports import DeadLetterRecord, Rewound
from eaf.projectors.projector import Projector

log = logging.getLogger("eaf.projectors")


class StoreFollower:
    """Feeds a projector every tenant's events from the event store, in global order,
    ``batch_size`` at a time (one transaction each). Run it with :meth:`run`, or
    step it with :meth:`run_once` / :meth:`run_until_idle`."""

    def __init__(
        self,
        projector: Projector,
        events: EventStore,
        *,
        batch_size: int = 500,
        poll_interval: float = 0.2,
        backoff_max: float = 5.0,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self.projector = projector
        self.events = events
        self.batch_size = batch_size
        self.poll_interval = poll_interval
        self.backoff_max = backoff_max
        self.dead_letters: list[DeadLetterRecord] = []
        self._wakeup = asyncio.Event()
        self._checkpoint = 0

    def notify(self) -> None:
        """Tell the follower new events were appended (it polls anyway)."""
        self._wakeup.set()

    async def run_once(self) -> int:
        """Apply the next batch; how many events were read. A reset of the
        projection (``eaf projections rebuild``) is noticed here: the follower
        starts again from position 0."""
        with use(platform_context()):
            after = await self.projector.store.checkpoint(self.projector.name)
            if after < self._checkpoint:
                self._rewound(after)
            self._checkpoint = after
            batch = await self.events.read_all(
                after=after,
                limit=self.batch_size,
                event_types=self.projector.projection.event_types,
            )
            if batch:
                try:
                    self.dead_letters += await self.projector.project(
                        batch, dedup="position", after=after
                    )
                except Rewound as rewound:
                    self._rewound(rewound.checkpoint)
                    return len(batch)
                self._checkpoint = batch[-1].position
        return len(batch)

    def _rewound(self, checkpoint: int) -> None:
        log.warning(
            "%s: the projection was reset; replaying from position %d",
            self.projector.name,
            checkpoint,
        )
        self._checkpoint = checkpoint
        if self.projector.cache is not None:
            self.projector.cache.clear()

    async def run_until_idle(self) -> int:
        """Apply batches until none are left; how many events were read."""
        total = 0
        while count := await self.run_once():
            total += count
        return total

    async def rebuild(self) -> int:
        """Drop the read model and checkpoint, then replay from position 0."""
        await self.projector.reset()
        self._checkpoint = 0
        return await self.run_until_idle()

    async def run(self, stop: asyncio.Event) -> None:
        """Follow the event store until ``stop`` is set; database trouble is retried
        with backoff (the batch was rolled back, so nothing is applied twice)."""
        delay = self.poll_interval
        while not stop.is_set():
            try:
                count = await self.run_once()
            except Exception as error:
                log.warning(
                    "%s: %s; retrying in %.2fs", self.projector.name, error, delay
                )
                await self._idle(stop, delay)
                delay = min(delay * 2, self.backoff_max)
                continue
            delay = self.poll_interval
            if count < self.batch_size:
                await self._idle(stop, self.poll_interval)

    async def _idle(self, stop: asyncio.Event, timeout: float) -> None:
        waiters = [
            asyncio.ensure_future(stop.wait()),
            asyncio.ensure_future(self._wakeup.wait()),
        ]
        try:
            await asyncio.wait(waiters, timeout=timeout, return_when="FIRST_COMPLETED")
        finally:
            for waiter in waiters:
                waiter.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await waiter
        self._wakeup.clear()
