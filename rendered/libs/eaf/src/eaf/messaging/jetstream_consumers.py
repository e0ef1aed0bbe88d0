"""JetStream pull consumers: durable consumer groups, and streams for real-time work."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import nats.errors
from nats.aio.msg import Msg
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

from eaf.messaging.dispatch import dispatch
from eaf.messaging.jetstream_pull import Delivered, PullConsumer, delivered
from eaf.messaging.message import Delivery, received
from eaf.messaging.ports import Handler, Subscription
from eaf.metrics import CONSUMER_LAG

if TYPE_CHECKING:
    from eaf.messaging.jetstream import JetStreamBroker

log = logging.getLogger("eaf.messaging")

IDLE_WAIT = 1.0
"""How long one pull waits for a first message when the consumer is idle."""

TOP_UP_WAIT = 0.05
"""How long a pull lingers for more when the consumer has been busy."""

MAX_ACK_PENDING = 1000
"""The server's default limit on delivered, unacknowledged messages per consumer;
raised to two batches for larger batches."""


def consumer_config(
    broker: JetStreamBroker, subscription: Subscription, name: str
) -> ConsumerConfig:
    """Explicit acks, no server-side delivery limit (the dispatcher dead-letters), and
    the filters of the subscription plus the consumer's own replay subject."""
    filters = broker.subjects.filters(
        tenants=subscription.tenants,
        services=subscription.services,
        event_types=subscription.event_types,
    )
    durable = subscription.durable
    if durable is not None:
        filters.append(broker.subjects.replay(durable))
    return ConsumerConfig(
        name=name,
        durable_name=durable,
        filter_subjects=filters,
        ack_policy=AckPolicy.EXPLICIT,
        ack_wait=broker.settings.ack_wait,
        deliver_policy=DeliverPolicy.NEW
        if subscription.deliver_new
        else DeliverPolicy.ALL,
        max_deliver=-1,
        # Room for the batch being committed and the next one fetched meanwhile.
        max_ack_pending=max(MAX_ACK_PENDING, 2 * subscription.batch_size),
        inactive_threshold=None if durable is not None else 60.0,
    )


async def _bind(
    broker: JetStreamBroker, subscription: Subscription, name: str
) -> PullConsumer:
    config = consumer_config(broker, subscription, name)
    stream = broker.settings.stream
    await broker.retrying(lambda: broker.js.add_consumer(stream, config))
    return await PullConsumer.bind(broker.client, stream, name)


def _delivery(msg: Msg, position: Delivered) -> Delivery:
    return Delivery(
        message=received(msg.subject, msg.data, msg.headers or {}),
        attempt=position.attempt,
        sequence=position.stream_sequence,
    )


class _Puller:
    """Pulls batches: waits long for a first message when idle, then takes whatever is
    there in batches, so a trickle is handled at once and a backlog in bulk."""

    def __init__(self, subscription: PullConsumer, batch: int) -> None:
        self.subscription = subscription
        self.batch = batch
        self.idle = True
        self.failures = 0

    async def next_batch(self) -> list[Msg]:
        try:
            if self.idle:
                messages = await self.subscription.fetch(1, timeout=IDLE_WAIT)
            else:
                messages = await self.subscription.fetch(
                    self.batch, timeout=TOP_UP_WAIT
                )
        except TimeoutError:
            self.idle = True
            self.failures = 0
            return []
        except nats.errors.Error as error:
            # Reconnecting, or the consumer's leader moving: keep trying, more slowly.
            self.failures += 1
            log.warning("pull failed (%s); retrying", error)
            await asyncio.sleep(min(0.1 * 2**self.failures, 2.0))
            return []
        self.idle = False
        self.failures = 0
        return messages


async def start_worker(
    broker: JetStreamBroker, subscription: Subscription, handler: Handler
) -> JetStreamWorker:
    if subscription.durable is None:
        raise ValueError("a handler needs a durable subscription (a consumer group)")
    pull = await _bind(broker, subscription, subscription.durable)
    worker = JetStreamWorker(broker, pull, subscription, handler)
    worker.task = asyncio.create_task(worker.run())
    return worker


class JetStreamWorker:
    """One member of a consumer group: its own pull subscription, a shared consumer."""

    def __init__(
        self,
        broker: JetStreamBroker,
        pull: PullConsumer,
        subscription: Subscription,
        handler: Handler,
    ) -> None:
        self._broker = broker
        self._pull = pull
        self._subscription = subscription
        self._handler = handler
        self._stopping = False
        self._handling = False
        self._lag = CONSUMER_LAG.labels(subscription.durable or "ephemeral")
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        puller = _Puller(self._pull, self._subscription.batch_size)
        loop = asyncio.get_running_loop()
        while not self._stopping:
            messages = await puller.next_batch()
            self._handling = True
            extended_at = loop.time()
            try:
                for index, msg in enumerate(messages):
                    if loop.time() - extended_at > self._broker.settings.ack_wait / 2:
                        # Slow handlers: keep the rest of the batch from being
                        # redelivered to another member while it waits its turn.
                        await self._extend(messages[index:])
                        extended_at = loop.time()
                    await self._handle(msg)
            finally:
                self._handling = False

    async def _extend(self, waiting: list[Msg]) -> None:
        for msg in waiting:
            with contextlib.suppress(nats.errors.Error):
                await msg.in_progress()

    async def _handle(self, msg: Msg) -> None:
        try:
            position = delivered(msg)
            delivery = _delivery(msg, position)
            settlement = _Settlement(self._broker, self._subscription, msg, delivery)
            await dispatch(delivery, self._handler, self._subscription, settlement)
            # What the stream holds for the group beyond this message.
            self._lag.set(position.pending)
        except Exception:
            # Settling failed (broker unreachable): redelivered after ack_wait.
            log.exception("could not settle a message on %s", msg.subject)

    async def stop(self) -> None:
        self._stopping = True
        task = self.task
        if task is not None:
            if not self._handling:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(nats.errors.Error):
            await self._pull.unsubscribe()


@dataclass
class _Settlement:
    broker: JetStreamBroker
    subscription: Subscription
    msg: Msg
    delivery: Delivery

    async def ack(self) -> None:
        await self.msg.ack()

    async def retry(self, delay: float) -> None:
        await self.msg.nak(delay=delay)

    async def dead_letter(self, reason: str) -> None:
        durable = self.subscription.durable
        assert durable is not None
        await self.broker.dead_letters.add(durable, reason, self.delivery)
        await self.msg.term()


@contextlib.asynccontextmanager
async def message_stream(
    broker: JetStreamBroker, subscription: Subscription
) -> AsyncIterator[AsyncIterator[Delivery]]:
    """Deliveries as an async iterator; without a durable name the consumer is
    ephemeral and deleted on exit."""
    name = subscription.durable or f"stream-{uuid.uuid4().hex}"
    pull = await _bind(broker, subscription, name)
    iterator = _iterate(_Puller(pull, subscription.batch_size))
    try:
        yield iterator
    finally:
        await iterator.aclose()
        with contextlib.suppress(nats.errors.Error):
            await pull.unsubscribe()
        if subscription.durable is None:
            with contextlib.suppress(nats.errors.Error):
                await broker.js.delete_consumer(broker.settings.stream, name)


async def _iterate(puller: _Puller) -> AsyncGenerator[Delivery]:
    while True:
        for msg in await puller.next_batch():
            yield _delivery(msg, delivered(msg))
            await msg.ack()
