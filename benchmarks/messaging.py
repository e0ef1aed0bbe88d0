"""Messaging throughput against raw nats-py, side by side on one embedded nats-server.

1. Outbox relay (InMemoryOutbox -> JetStreamBroker.publish_batch) against raw
   ``js.publish_async`` of the same subjects, bodies and headers, pre-encoded.
2. Subscriber (durable consumer worker, no-op handler) against a raw pull loop
   (``fetch`` + ``ack``) with the same batch size.

Each side runs ROUNDS times, interleaved; the best round counts. Prints one line per
measurement, the ratios, and last a line with all ratios.

    PYTHONPATH=rendered/libs/eaf/src python benchmarks/messaging.py [messages]
"""

from __future__ import annotations

import asyncio
import sys
import time
import uuid
from collections.abc import Awaitable, Callable

import nats
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig

from eaf.eventsourcing.outbox import InMemoryOutbox
from eaf.messaging import (
    Delivery,
    JetStreamBroker,
    Message,
    MessagingSettings,
    OutboxRelay,
    Subjects,
    Subscription,
    outbox_message,
)
from eaf.messaging.embedded import EmbeddedNats
from eaf.messaging.testing import stored_event

ROUNDS = 3
BATCH = 64


def fresh_outbox(count: int) -> InMemoryOutbox:
    outbox = InMemoryOutbox()
    for position in range(1, count + 1):
        outbox.add(stored_event(position, tenant=f"tenant{position % 4}"))
    return outbox


async def rate(count: int, run: Callable[[], Awaitable[None]]) -> float:
    started = time.perf_counter()
    await run()
    return count / (time.perf_counter() - started)


async def publish_part(broker: JetStreamBroker, js: JetStreamContext, count: int) -> float:
    settings = broker.settings
    relay_rates, raw_rates = [], []
    for _ in range(ROUNDS):
        outbox = fresh_outbox(count)
        relay = OutboxRelay(outbox, broker, service="bench", batch_size=1000)
        await js.purge_stream(settings.stream)
        relay_rates.append(await rate(count, relay.drain))
        assert len(outbox.published) == count

        messages = [
            outbox_message(Subjects(), "bench", stored)
            for stored in fresh_outbox(count).messages
        ]

        async def raw(messages: list[Message] = messages) -> None:
            for message in messages:
                await js.publish_async(
                    message.subject, message.data, headers=dict(message.headers)
                )
            await js.publish_async_completed()

        await js.purge_stream(settings.stream)
        raw_rates.append(await rate(count, raw))
        info = await js.stream_info(settings.stream)
        assert info.state.messages == count
    relay_rate, raw_rate = max(relay_rates), max(raw_rates)
    print(f"relay publish:     {relay_rate:10.0f} msg/s (outbox -> NATS, acked, marked)")
    print(f"raw publish_async: {raw_rate:10.0f} msg/s (nats-py, pre-encoded)")
    ratio = relay_rate / raw_rate
    print(f"ratio relay/raw publish: {ratio:.2f} (target >= 0.70)")
    return ratio


async def consume_part(broker: JetStreamBroker, js: JetStreamContext, count: int) -> float:
    stream = broker.settings.stream
    subscriber_rates, raw_rates = [], []
    for _ in range(ROUNDS):
        durable = f"bench-{uuid.uuid4().hex[:8]}"
        handled = 0
        done = asyncio.Event()

        async def handler(delivery: Delivery) -> None:
            nonlocal handled
            handled += 1
            if handled == count:
                done.set()

        async def subscribed(durable: str = durable) -> None:
            subscription = Subscription(durable=durable, batch_size=BATCH)
            worker = await broker.start(subscription, handler)
            await done.wait()
            await worker.stop()

        subscriber_rates.append(await rate(count, subscribed))

        async def raw() -> None:
            name = f"raw-{uuid.uuid4().hex[:8]}"
            config = ConsumerConfig(
                durable_name=name, ack_policy=AckPolicy.EXPLICIT, filter_subject=">"
            )
            await js.add_consumer(stream, config)
            pull = await js.pull_subscribe_bind(consumer=name, stream=stream)
            received = 0
            while received < count:
                for msg in await pull.fetch(BATCH, timeout=5):
                    await msg.ack()
                    received += 1
            await pull.unsubscribe()

        raw_rates.append(await rate(count, raw))
    subscriber_rate, raw_rate = max(subscriber_rates), max(raw_rates)
    print(f"subscriber:        {subscriber_rate:10.0f} msg/s (worker, context, ack)")
    print(f"raw fetch+ack:     {raw_rate:10.0f} msg/s (nats-py pull, batch {BATCH})")
    ratio = subscriber_rate / raw_rate
    print(f"ratio subscriber/raw consume: {ratio:.2f}")
    return ratio


async def main(count: int) -> None:
    async with EmbeddedNats() as server:
        settings = MessagingSettings(url=server.url, publish_timeout=30.0)
        async with await JetStreamBroker.connect(settings) as broker:
            raw_client = await nats.connect(server.url)
            js = raw_client.jetstream(publish_async_max_pending=4000)
            try:
                print(f"{count} messages, best of {ROUNDS} rounds, {server.url}")
                publish = await publish_part(broker, js, count)
                consume = await consume_part(broker, js, count)
            finally:
                await raw_client.close()
    print(f"ratios: relay_publish={publish:.2f} subscriber_consume={consume:.2f}")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000))
