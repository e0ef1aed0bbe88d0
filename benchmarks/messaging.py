"""Messaging throughput against raw nats-py, side by side on one embedded nats-server.

1. Outbox relay (InMemoryOutbox -> JetStreamBroker.publish_batch) against raw
   ``js.publish_async`` of the same subjects, bodies and headers, pre-encoded. The
   outbox holds each payload as stored JSON, as the SQL outbox hands it out (the
   relay publishes those bytes as they are); a second line shows the relay encoding
   payloads itself (an outbox of dicts only), for reference.
2. Subscriber (durable consumer worker, no-op handler) against a raw pull loop
   (``fetch`` + ``ack``) with the same batch size.
3. Projector catch-up: a JetStreamSource applying the pre-published events to a SQLite
   read model (one transaction per fetched batch with its event ids, exactly once)
   against the raw pull loop over the same messages.

Each side runs ROUNDS times, interleaved; the best round counts. Prints one line per
measurement, the ratios, and last a line with all ratios.

    PYTHONPATH=rendered/libs/eaf/src python benchmarks/messaging.py [messages]
"""

from __future__ import annotations

import asyncio
import functools
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import replace

import nats
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
from eaf.messaging.message import encode
from eaf.messaging.testing import stored_event
from eaf.projectors import JetStreamSource, Projection, Projector, SqlProjectionStore, upsert
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig
from sqlalchemy import Column, Integer, MetaData, Table, Text

ROUNDS = 5
BATCH = 64


def fresh_outbox(count: int, *, stored_bodies: bool = True) -> InMemoryOutbox:
    """``count`` events; with ``stored_bodies`` each carries its payload as stored
    JSON, as :class:`eaf.eventsourcing.sql.SqlOutbox` reads it from the events table."""
    outbox = InMemoryOutbox()
    for position in range(1, count + 1):
        stored = stored_event(position, tenant=f"tenant{position % 4}")
        if stored_bodies:
            stored = replace(stored, body=encode(stored.payload))
        outbox.add(stored)
    return outbox


async def rate(count: int, run: Callable[[], Awaitable[None]]) -> float:
    started = time.perf_counter()
    await run()
    return count / (time.perf_counter() - started)


async def relay_publish(broker: JetStreamBroker, outbox: InMemoryOutbox) -> None:
    """Relay the whole outbox with the relay's default settings."""
    await OutboxRelay(outbox, broker, service="bench").drain()
    assert len(outbox.published) == len(outbox.messages)


async def raw_publish(js: JetStreamContext, messages: list[Message]) -> None:
    """What nats-py does at best: publish_async everything, then await all acks."""
    for message in messages:
        await js.publish_async(message.subject, message.data, headers=dict(message.headers))
    await js.publish_async_completed()


async def subscribe(broker: JetStreamBroker, count: int) -> None:
    """Handle ``count`` messages with a no-op handler on a new durable consumer."""
    handled = 0
    done = asyncio.Event()

    async def handler(delivery: Delivery) -> None:
        nonlocal handled
        handled += 1
        if handled == count:
            done.set()

    subscription = Subscription(durable=f"bench-{uuid.uuid4().hex[:8]}", batch_size=BATCH)
    worker = await broker.start(subscription, handler)
    await done.wait()
    await worker.stop()


async def raw_pull(js: JetStreamContext, stream: str, count: int) -> None:
    """Fetch and ack ``count`` messages on a new durable pull consumer."""
    name = f"raw-{uuid.uuid4().hex[:8]}"
    config = ConsumerConfig(durable_name=name, ack_policy=AckPolicy.EXPLICIT)
    await js.add_consumer(stream, config)
    pull = await js.pull_subscribe_bind(consumer=name, stream=stream)
    received = 0
    while received < count:
        for msg in await pull.fetch(BATCH, timeout=5):
            await msg.ack()
            received += 1
    await pull.unsubscribe()


def report(name: str, ours: list[float], raw: list[float], what: tuple[str, str]) -> float:
    best, best_raw = max(ours), max(raw)
    print(f"{what[0]:<18} {best:10.0f} msg/s")
    print(f"{what[1]:<18} {best_raw:10.0f} msg/s")
    ratio = best / best_raw
    print(f"ratio {name}: {ratio:.2f}")
    return ratio


async def publish_part(broker: JetStreamBroker, js: JetStreamContext, count: int) -> float:
    stream = broker.settings.stream
    ours, encoding, raw = [], [], []
    for round_ in range(ROUNDS):
        messages = [
            outbox_message(Subjects(), "bench", stored) for stored in fresh_outbox(count).messages
        ]
        runs = [
            (ours, functools.partial(relay_publish, broker, fresh_outbox(count))),
            (raw, functools.partial(raw_publish, js, messages)),
            (
                encoding,
                functools.partial(relay_publish, broker, fresh_outbox(count, stored_bodies=False)),
            ),
        ]
        for rates, run in runs if round_ % 2 == 0 else reversed(runs):
            await js.purge_stream(stream)
            rates.append(await rate(count, run))
            assert (await js.stream_info(stream)).state.messages == count
    print(f"{'relay, encoding:':<18} {max(encoding):10.0f} msg/s")
    print(f"ratio relay encoding payloads/raw publish: {max(encoding) / max(raw):.2f}")
    return report(
        "relay/raw publish (target >= 0.90)",
        ours,
        raw,
        ("relay publish:", "raw publish_async:"),
    )


async def consume_part(broker: JetStreamBroker, js: JetStreamContext, count: int) -> float:
    stream = broker.settings.stream
    ours, raw = [], []
    for round_ in range(ROUNDS):
        runs = [
            (ours, functools.partial(subscribe, broker, count)),
            (raw, functools.partial(raw_pull, js, stream, count)),
        ]
        for rates, run in runs if round_ % 2 == 0 else reversed(runs):
            rates.append(await rate(count, run))
    return report(
        "subscriber/raw consume",
        ours,
        raw,
        ("subscriber:", f"raw fetch+ack({BATCH}):"),
    )


PROJECTOR_BATCH = 1000  # a catch-up: fewer, larger transactions


def thing_projection() -> Projection:
    table = Table(
        "things",
        MetaData(),
        Column("tenant_id", Text(), primary_key=True),
        Column("thing_id", Text(), primary_key=True),
        Column("n", Integer(), nullable=False),
    )
    projection = Projection("things", table)
    projection.on(
        "ThingHappened",
        upsert(lambda event: {"thing_id": event.stream_id, "n": event.stream_version}),
    )
    return projection


async def project(broker: JetStreamBroker, count: int) -> None:
    """Catch up a new projection (new durable, new SQLite file) on ``count`` events."""
    with tempfile.TemporaryDirectory() as directory:
        store = SqlProjectionStore.open(f"sqlite+aiosqlite:///{directory}/read.db")
        projector = Projector(thing_projection(), store)
        durable = f"proj-{uuid.uuid4().hex[:8]}"
        source = JetStreamSource(projector, broker, durable=durable, batch_size=PROJECTOR_BATCH)
        try:
            await source.start()
            handled = 0
            while handled < count:
                handled += await source.run_once(timeout=5)
        finally:
            await source.close()
            await store.close()


async def projector_part(broker: JetStreamBroker, js: JetStreamContext, count: int) -> float:
    stream = broker.settings.stream
    await js.purge_stream(stream)
    await OutboxRelay(fresh_outbox(count), broker, service="bench").drain()
    ours, raw = [], []
    for round_ in range(ROUNDS):
        runs = [
            (ours, functools.partial(project, broker, count)),
            (raw, functools.partial(raw_pull, js, stream, count)),
        ]
        for rates, run in runs if round_ % 2 == 0 else reversed(runs):
            rates.append(await rate(count, run))
    return report(
        "projector/raw catch-up (target >= 0.80)",
        ours,
        raw,
        (f"projector({PROJECTOR_BATCH}):", f"raw fetch+ack({BATCH}):"),
    )


async def main(count: int) -> None:
    async with EmbeddedNats() as server:
        settings = MessagingSettings(url=server.url, publish_timeout=30.0)
        async with await JetStreamBroker.connect(settings) as broker:
            raw_client = await nats.connect(server.url)
            js = raw_client.jetstream()
            try:
                print(f"{count} messages, best of {ROUNDS} interleaved rounds")
                publish = await publish_part(broker, js, count)
                consume = await consume_part(broker, js, count)
                catchup = await projector_part(broker, js, count)
            finally:
                await raw_client.close()
    print(
        f"ratios: relay_publish={publish:.2f} subscriber_consume={consume:.2f}"
        f" projector_catchup={catchup:.2f}"
    )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000))
