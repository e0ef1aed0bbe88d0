"""An in-process broker with JetStream's semantics, for unit tests and demos."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from eaf.messaging.dispatch import dispatch
from eaf.messaging.message import Delivery, Header, Message, original, received
from eaf.messaging.ports import DeadLetter, Handler, Subscription
from eaf.messaging.subjects import Subjects, matches


@dataclass
class _Consumer:
    filters: list[str]
    position: int = 0
    due: list[tuple[float, int]] = field(default_factory=list)
    deliveries: dict[int, int] = field(default_factory=dict)


class InMemoryBroker:
    """A stream in a list, durable consumers as positions in it, dead letters aside."""

    def __init__(
        self,
        subjects: Subjects | None = None,
        *,
        duplicate_window: float = 120.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.subjects = subjects or Subjects()
        self.duplicate_window = duplicate_window
        self.messages: list[Message] = []
        self._clock = clock
        self._seen: dict[str, float] = {}
        self._consumers: dict[str, _Consumer] = {}
        self._changed = asyncio.Event()
        self._ephemeral = itertools.count(1)
        self._dead_letters = InMemoryDeadLetters(self)

    @property
    def dead_letters(self) -> InMemoryDeadLetters:
        return self._dead_letters

    async def publish(self, message: Message) -> None:
        self.append(message)

    async def publish_batch(
        self, messages: Sequence[Message]
    ) -> list[Exception | None]:
        for message in messages:
            self.append(message)
        return [None] * len(messages)

    def append(self, message: Message) -> None:
        """Store ``message`` unless its ``Nats-Msg-Id`` was seen within the window."""
        now = self._clock()
        msg_id = message.headers.get(Header.MSG_ID)
        if msg_id is not None:
            seen = self._seen.get(msg_id)
            if seen is not None and now - seen < self.duplicate_window:
                return
            self._seen[msg_id] = now
        self.messages.append(message)
        self._wake()

    async def start(self, subscription: Subscription, handler: Handler) -> MemoryWorker:
        if subscription.durable is None:
            raise ValueError(
                "a handler needs a durable subscription (a consumer group)"
            )
        consumer = self._consumers.get(subscription.durable)
        if consumer is None:
            consumer = self._consumer(subscription)
            self._consumers[subscription.durable] = consumer
        worker = MemoryWorker(self, consumer, subscription, handler)
        worker.task = asyncio.create_task(worker.run())
        return worker

    @contextlib.asynccontextmanager
    async def stream(
        self, subscription: Subscription
    ) -> AsyncIterator[AsyncIterator[Delivery]]:
        name = subscription.durable or f"_ephemeral{next(self._ephemeral)}"
        consumer = self._consumers.get(name) or self._consumer(subscription)
        self._consumers[name] = consumer
        iterator = self._iterate(consumer)
        try:
            yield iterator
        finally:
            await iterator.aclose()
            if subscription.durable is None:
                del self._consumers[name]

    async def _iterate(self, consumer: _Consumer) -> AsyncGenerator[Delivery]:
        while True:
            delivery = self._take(consumer)
            if delivery is None:
                await self._wait(consumer)
                continue
            yield delivery

    def _consumer(self, subscription: Subscription) -> _Consumer:
        filters = self.subjects.filters(
            tenants=subscription.tenants,
            services=subscription.services,
            event_types=subscription.event_types,
        )
        if subscription.durable is not None:
            filters.append(self.subjects.replay(subscription.durable))
        start = len(self.messages) if subscription.deliver_new else 0
        return _Consumer(filters=filters, position=start)

    def _take(self, consumer: _Consumer) -> Delivery | None:
        index: int | None
        if consumer.due and consumer.due[0][0] <= self._clock():
            _, index = heapq.heappop(consumer.due)
        else:
            index = self._next_new(consumer)
        if index is None:
            return None
        attempt = consumer.deliveries.get(index, 0) + 1
        consumer.deliveries[index] = attempt
        stored = self.messages[index]
        message = received(stored.subject, stored.data, stored.headers)
        return Delivery(message=message, attempt=attempt, sequence=index + 1)

    def _next_new(self, consumer: _Consumer) -> int | None:
        while consumer.position < len(self.messages):
            index = consumer.position
            consumer.position += 1
            subject = self.messages[index].subject
            if any(matches(pattern, subject) for pattern in consumer.filters):
                return index
        return None

    async def _wait(self, consumer: _Consumer) -> None:
        changed = self._changed
        timeout = 1.0
        if consumer.due:
            timeout = max(0.0, min(timeout, consumer.due[0][0] - self._clock()))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await changed.wait()

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _retry(self, consumer: _Consumer, sequence: int, delay: float) -> None:
        heapq.heappush(consumer.due, (self._clock() + delay, sequence - 1))
        self._wake()

    def _settled(self, consumer: _Consumer, sequence: int) -> None:
        consumer.deliveries.pop(sequence - 1, None)


class MemoryWorker:
    """One instance of a durable consumer in an :class:`InMemoryBroker`."""

    def __init__(
        self,
        broker: InMemoryBroker,
        consumer: _Consumer,
        subscription: Subscription,
        handler: Handler,
    ) -> None:
        self._broker = broker
        self._consumer = consumer
        self._subscription = subscription
        self._handler = handler
        self._stopping = False
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        while not self._stopping:
            delivery = self._broker._take(self._consumer)
            if delivery is None:
                await self._broker._wait(self._consumer)
                continue
            await dispatch(
                delivery, self._handler, self._subscription, _Settlement(self, delivery)
            )

    async def stop(self) -> None:
        self._stopping = True
        self._broker._wake()
        if self.task is not None:
            await self.task


@dataclass
class _Settlement:
    worker: MemoryWorker
    delivery: Delivery

    async def ack(self) -> None:
        self.worker._broker._settled(self.worker._consumer, self.delivery.sequence)

    async def retry(self, delay: float) -> None:
        self.worker._broker._retry(self.worker._consumer, self.delivery.sequence, delay)

    async def dead_letter(self, reason: str) -> None:
        durable = self.worker._subscription.durable
        assert durable is not None
        self.worker._broker.dead_letters.add(durable, reason, self.delivery)
        self.worker._broker._settled(self.worker._consumer, self.delivery.sequence)


class InMemoryDeadLetters:
    """Dead letters of an :class:`InMemoryBroker`, numbered like a stream."""

    def __init__(self, broker: InMemoryBroker) -> None:
        self._broker = broker
        self._letters: dict[int, DeadLetter] = {}
        self._sequence = itertools.count(1)

    def add(self, durable: str, reason: str, delivery: Delivery) -> None:
        sequence = next(self._sequence)
        self._letters[sequence] = DeadLetter(
            sequence=sequence,
            durable=durable,
            reason=reason,
            attempts=delivery.attempt,
            failed_at=datetime.now(UTC),
            message=original(delivery.message),
        )

    async def find(
        self, durable: str | None = None, limit: int = 100
    ) -> list[DeadLetter]:
        letters = [
            letter
            for letter in self._letters.values()
            if durable is None or letter.durable == durable
        ]
        return letters[:limit]

    async def get(self, sequence: int) -> DeadLetter:
        return self._letters[sequence]

    async def replay(self, sequence: int) -> None:
        letter = self._letters[sequence]
        headers = dict(letter.message.headers)
        headers[Header.ORIGINAL_SUBJECT] = letter.message.subject
        headers[Header.MSG_ID] = f"replay-{sequence}"
        replayed = replace(
            letter.message,
            subject=self._broker.subjects.replay(letter.durable),
            headers=headers,
        )
        self._broker.append(replayed)
        del self._letters[sequence]

    async def purge(self, durable: str | None = None) -> int:
        doomed = [
            letter.sequence for letter in await self.find(durable, len(self._letters))
        ]
        for sequence in doomed:
            del self._letters[sequence]
        return len(doomed)
