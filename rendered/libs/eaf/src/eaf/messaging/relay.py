"""The outbox relay: moves events from a transactional outbox to the broker."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from eaf.messaging.message import outbox_message
from eaf.messaging.ports import Publisher, PublishError
from eaf.messaging.subjects import Subjects

if TYPE_CHECKING:
    from eaf.eventsourcing.outbox import Outbox

log = logging.getLogger("eaf.messaging.relay")


@dataclass
class RelayStats:
    published: int = 0
    failed_batches: int = 0


class OutboxRelay:
    """Publishes pending outbox messages in order, pipelined a batch at a time, and
    marks published only those the broker acknowledged. On failure it backs off and
    tries again, for ever: nothing is lost across broker outages or relay restarts, and
    a message published twice (acknowledged, but the mark was lost) is absorbed by the
    stream's duplicate window through ``Nats-Msg-Id``."""

    def __init__(
        self,
        outbox: Outbox,
        publisher: Publisher,
        *,
        service: str,
        subjects: Subjects | None = None,
        batch_size: int = 500,
        poll_interval: float = 0.2,
        backoff_initial: float = 0.1,
        backoff_max: float = 5.0,
    ) -> None:
        self.outbox = outbox
        self.publisher = publisher
        self.service = service
        self.subjects = subjects or Subjects()
        self.batch_size = batch_size
        self.poll_interval = poll_interval
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.stats = RelayStats()
        self._wakeup = asyncio.Event()

    def notify(self) -> None:
        """Tell the relay that new messages were written (it polls anyway)."""
        self._wakeup.set()

    async def relay_once(self) -> int:
        """Publish one batch; how many were published. Raises :class:`PublishError`
        if some were not acknowledged (those that were are marked published)."""
        pending = await self.outbox.pending(self.batch_size)
        if not pending:
            return 0
        messages = [
            outbox_message(self.subjects, self.service, stored) for stored in pending
        ]
        outcomes = await self.publisher.publish_batch(messages)
        acknowledged = [
            stored.position
            for stored, error in zip(pending, outcomes, strict=True)
            if error is None
        ]
        if acknowledged:
            await self.outbox.mark_published(acknowledged)
            self.stats.published += len(acknowledged)
        errors = [error for error in outcomes if error is not None]
        if errors:
            raise PublishError(
                f"{len(errors)} of {len(pending)} not acknowledged: {errors[0]}"
            )
        return len(acknowledged)

    async def drain(self) -> int:
        """Publish until the outbox is empty (one attempt per batch); how many."""
        total = 0
        while published := await self.relay_once():
            total += published
        return total

    async def run(self) -> None:
        """Relay until cancelled."""
        delay = self.backoff_initial
        while True:
            try:
                published = await self.relay_once()
            except Exception as error:
                self.stats.failed_batches += 1
                log.warning("outbox relay: %s; retrying in %.2fs", error, delay)
                await asyncio.sleep(delay * random.uniform(0.5, 1.0))
                delay = min(delay * 2, self.backoff_max)
                continue
            delay = self.backoff_initial
            if published < self.batch_size:
                await self._idle()

    async def _idle(self) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.poll_interval):
                await self._wakeup.wait()
        self._wakeup.clear()
