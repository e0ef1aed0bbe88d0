"""The outbox relay: moves events from a transactional outbox to the broker."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from eaf.context import producer_span, tracing
from eaf.messaging.message import Message, outbox_message
from eaf.messaging.ports import Publisher, PublishError
from eaf.messaging.subjects import Subjects
from eaf.metrics import OUTBOX_BACKLOG, PUBLISHED_EVENTS

if TYPE_CHECKING:
    from eaf.eventsourcing.outbox import Outbox, OutboxMessage

log = logging.getLogger("eaf.messaging.relay")


@dataclass
class RelayStats:
    published: int = 0
    failed_batches: int = 0


class OutboxRelay:
    """Publishes pending outbox messages in order, ``pipeline`` batches in flight at a
    time, and marks published only those the broker acknowledged. On failure it backs
    off and tries again, for ever: nothing is lost across broker outages or relay
    restarts, and a message published twice (acknowledged, but the mark was lost) is
    absorbed by the stream's duplicate window through ``Nats-Msg-Id``. Order holds
    unless a broker failure makes a message be retried after later ones."""

    def __init__(
        self,
        outbox: Outbox,
        publisher: Publisher,
        *,
        service: str,
        subjects: Subjects | None = None,
        batch_size: int = 1000,
        pipeline: int = 2,
        poll_interval: float = 0.2,
        backoff_initial: float = 0.1,
        backoff_max: float = 5.0,
    ) -> None:
        self.outbox = outbox
        self.publisher = publisher
        self.service = service
        self.subjects = subjects or Subjects()
        self.batch_size = batch_size
        self.pipeline = pipeline
        self.poll_interval = poll_interval
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.stats = RelayStats()
        self._in_flight: set[int] = set()
        self._wakeup = asyncio.Event()
        self._backlog_at = 0.0

    def notify(self) -> None:
        """Tell the relay that new messages were written (it polls anyway)."""
        self._wakeup.set()

    async def drain(self) -> int:
        """Publish until nothing is pending; how many were published. Raises
        :class:`PublishError` once a batch was not fully acknowledged (after the
        batches in flight finished and the acknowledged messages were marked)."""
        published = 0
        window: deque[asyncio.Task[int]] = deque()
        try:
            while True:
                batch = await self._take()
                if batch:
                    window.append(asyncio.create_task(self._publish(batch)))
                if window and (len(window) >= self.pipeline or not batch):
                    published += await window.popleft()
                elif not batch:
                    return published
        except Exception:
            for task in window:
                with contextlib.suppress(Exception):
                    await task
            raise
        finally:
            for task in window:
                task.cancel()

    async def run(self) -> None:
        """Relay until cancelled."""
        delay = self.backoff_initial
        while True:
            await self._measure_backlog()
            try:
                await self.drain()
            except Exception as error:
                self.stats.failed_batches += 1
                log.warning("outbox relay: %s; retrying in %.2fs", error, delay)
                await asyncio.sleep(delay * random.uniform(0.5, 1.0))
                delay = min(delay * 2, self.backoff_max)
                continue
            delay = self.backoff_initial
            await self._idle()

    async def _measure_backlog(self, every: float = 1.0) -> None:
        """Set the ``eaf_outbox_backlog`` gauge, at most once per ``every`` seconds."""
        now = time.monotonic()
        if now - self._backlog_at < every:
            return
        self._backlog_at = now
        try:
            OUTBOX_BACKLOG.labels(self.service).set(await self.outbox.backlog())
        except Exception as error:
            log.debug("outbox backlog unknown: %s", error)

    async def _take(self) -> list[OutboxMessage]:
        limit = self.batch_size + len(self._in_flight)
        pending = await self.outbox.pending(limit)
        batch = [m for m in pending if m.position not in self._in_flight]
        batch = batch[: self.batch_size]
        self._in_flight.update(stored.position for stored in batch)
        return batch

    async def _publish(self, batch: list[OutboxMessage]) -> int:
        internal = [stored.position for stored in batch if is_internal(stored)]
        batch = [stored for stored in batch if not is_internal(stored)]
        try:
            messages, ends = self._traced(
                [outbox_message(self.subjects, self.service, s) for s in batch]
            )
            try:
                outcomes = (
                    await self.publisher.publish_batch(messages) if messages else []
                )
            except BaseException as error:
                for end in ends:
                    end(error)
                raise
            for end, outcome in zip(ends, outcomes, strict=True):
                end(outcome)
            acknowledged = internal + [
                stored.position
                for stored, error in zip(batch, outcomes, strict=True)
                if error is None
            ]
            if acknowledged:
                await self.outbox.mark_published(acknowledged)
                self.stats.published += len(acknowledged) - len(internal)
                PUBLISHED_EVENTS.labels(self.service).inc(
                    len(acknowledged) - len(internal)
                )
        finally:
            self._in_flight.difference_update(stored.position for stored in batch)
            self._in_flight.difference_update(internal)
        errors = [error for error in outcomes if error is not None]
        if errors:
            raise PublishError(
                f"{len(errors)} of {len(batch)} not acknowledged: {errors[0]}"
            )
        return len(acknowledged)

    @staticmethod
    def _traced(
        messages: list[Message],
    ) -> tuple[list[Message], list[Callable[[BaseException | None], None]]]:
        """Each message in a producer span continuing its event's trace (ended when the
        broker answered), its headers carrying that span's context."""
        if not tracing():  # nothing to add: no copy, no span
            return messages, [_no_end] * len(messages)
        sent: list[Message] = []
        ends: list[Callable[[BaseException | None], None]] = []
        for message in messages:
            headers, end = producer_span(f"{message.subject} publish", message.headers)
            sent.append(replace(message, headers=headers))
            ends.append(end)
        return sent, ends

    async def _idle(self) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.poll_interval):
                await self._wakeup.wait()
        self._wakeup.clear()


def is_internal(stored: OutboxMessage) -> bool:
    """Bookkeeping events of the event store itself (``$``-prefixed types: unique-key
    reservations, idempotency records) stay in the service: they are not published."""
    return stored.event_type.startswith("$")


def _no_end(error: BaseException | None) -> None:
    return None
