"""Applying batches of events exactly once: retry, split, dead-letter."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from eaf.eventsourcing.records import StoredEvent, utc_now
from eaf.projectors.cache import ReadModelCache
from eaf.projectors.ports import (
    Applied,
    DeadLetterRecord,
    Dedup,
    HandlerError,
    ProjectionStore,
)
from eaf.projectors.projection import Projection

log = logging.getLogger("eaf.projectors")


@dataclass(frozen=True)
class RetryPolicy:
    """How often one failing event is tried on its own, and the pauses before each
    retry, before it is dead-lettered."""

    max_attempts: int = 3
    delays: Sequence[float] = (0.05, 0.25, 1.0)

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    def delay(self, attempt: int) -> float:
        """The pause after failed attempt ``attempt`` (1-based)."""
        if not self.delays:
            return 0.0
        return self.delays[min(attempt, len(self.delays)) - 1]


class Projector:
    """Applies batches of events to one projection through a store.

    A batch commits with its checkpoint or not at all. When a handler fails, the
    events before it are committed as a smaller batch, the failing event is retried
    alone with backoff, and after ``retry.max_attempts`` it is dead-lettered and
    skipped; the rest of the batch follows. Database errors are not the handler's
    fault: they propagate, and the source retries the batch later."""

    def __init__(
        self,
        projection: Projection,
        store: ProjectionStore,
        *,
        cache: ReadModelCache | None = None,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.projection = projection
        self.store = store
        self.cache = cache
        self.retry = retry or RetryPolicy()
        self._sleep = sleep

    @property
    def name(self) -> str:
        return self.projection.name

    async def start(self) -> str | None:
        """Create the projection's tables if missing. When the projection's
        fingerprint changed, the store drops its read model to be rebuilt from
        position 0: the reason is logged and returned."""
        reason = await self.store.create(self.projection)
        if reason is not None:
            log.warning("%s: rebuilding from position 0: %s", self.name, reason)
            if self.cache is not None:
                self.cache.clear()
        return reason

    async def project(
        self,
        events: Sequence[StoredEvent],
        *,
        dedup: Dedup,
        after: int | None = None,
    ) -> list[DeadLetterRecord]:
        """Apply ``events`` in order; returns the dead letters it recorded. With
        ``dedup="position"``, ``after`` is the checkpoint the events were read after:
        if the projection is reset meanwhile, :class:`Rewound` is raised and nothing
        more is applied (the caller reads again from the checkpoint)."""
        dead: list[DeadLetterRecord] = []
        pending = list(events)
        while pending:
            try:
                self._written(
                    await self.store.apply(
                        self.projection, pending, dedup=dedup, after=after
                    )
                )
                break
            except HandlerError as failure:
                if failure.index > 0:
                    done, pending = pending[: failure.index], pending[failure.index :]
                    dead += await self.project(done, dedup=dedup, after=after)
                    after = _past(after, done[-1], dedup)
                    continue
                letter = await self._retry_alone(pending[0], failure, dedup, after)
                if letter is not None:
                    dead.append(letter)
                after = _past(after, pending[0], dedup)
                pending = pending[1:]
        return dead

    async def _retry_alone(
        self,
        event: StoredEvent,
        failure: HandlerError,
        dedup: Dedup,
        after: int | None,
    ) -> DeadLetterRecord | None:
        attempt = 1
        while attempt < self.retry.max_attempts:
            log.info(
                "%s: attempt %d at position %d failed: %s",
                self.name,
                attempt,
                event.position,
                failure,
            )
            await self._sleep(self.retry.delay(attempt))
            attempt += 1
            try:
                self._written(
                    await self.store.apply(
                        self.projection, [event], dedup=dedup, after=after
                    )
                )
                return None
            except HandlerError as again:
                failure = again
        log.warning(
            "%s: dead-lettering position %d after %d attempts: %s",
            self.name,
            event.position,
            attempt,
            failure,
        )
        letter = DeadLetterRecord(
            projection=self.name,
            position=event.position,
            event_id=str(event.event_id),
            event_type=event.event_type,
            tenant_id=event.tenant_id,
            reason=str(failure)[:2000],
            attempts=attempt,
            failed_at=utc_now(),
        )
        await self.store.dead_letter(self.projection, letter, dedup=dedup, after=after)
        return letter

    def _written(self, applied: Applied) -> None:
        if self.cache is not None and applied.touched:
            self.cache.invalidate(applied.touched)

    async def reset(self) -> None:
        """Forget the read model and the checkpoint (the next run replays from 0)."""
        await self.store.reset(self.projection)
        if self.cache is not None:
            self.cache.clear()


def _past(after: int | None, event: StoredEvent, dedup: Dedup) -> int | None:
    """The least checkpoint once ``event`` was applied or dead-lettered: events in
    global order move the checkpoint to each one's position."""
    if after is None or dedup != "position":
        return after
    return max(after, event.position)
