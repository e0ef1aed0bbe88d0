"""The pull loop against a real nats-server: batches, waiting, the end of a request."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from nats.js.api import AckPolicy, ConsumerConfig

from eaf.messaging import JetStreamBroker
from eaf.messaging.embedded import EmbeddedNats
from eaf.messaging.jetstream_pull import PullConsumer

SUBJECT = "events.t1.svc.Happened"


@pytest.fixture
async def pull(nats_broker: JetStreamBroker) -> AsyncIterator[PullConsumer]:
    stream = nats_broker.settings.stream
    config = ConsumerConfig(durable_name="puller", ack_policy=AckPolicy.EXPLICIT)
    await nats_broker.js.add_consumer(stream, config)
    consumer = await PullConsumer.bind(nats_broker.client, stream, "puller")
    yield consumer
    await consumer.unsubscribe()


async def publish(broker: JetStreamBroker, *bodies: bytes) -> None:
    for body in bodies:
        await broker.js.publish(SUBJECT, body)


async def test_batches_take_what_is_at_hand_in_order(
    nats_broker: JetStreamBroker, pull: PullConsumer
) -> None:
    await publish(nats_broker, *(b"%d" % n for n in range(10)))
    started = time.monotonic()
    batches = [await pull.fetch(4, timeout=5.0) for _ in range(3)]
    assert time.monotonic() - started < 1.0  # a short batch does not wait for more
    assert [[msg.data for msg in batch] for batch in batches] == [
        [b"0", b"1", b"2", b"3"],
        [b"4", b"5", b"6", b"7"],
        [b"8", b"9"],
    ]
    assert [msg.metadata.sequence.stream for msg in batches[2]] == [9, 10]


async def test_a_fetch_waits_for_the_first_message_then_times_out(
    nats_broker: JetStreamBroker, pull: PullConsumer
) -> None:
    async def later() -> None:
        await asyncio.sleep(0.2)
        await publish(nats_broker, b"late")

    publishing = asyncio.create_task(later())
    assert [msg.data for msg in await pull.fetch(10, timeout=5.0)] == [b"late"]
    await publishing

    started = time.monotonic()
    with pytest.raises(TimeoutError):
        await pull.fetch(10, timeout=0.3)
    assert 0.25 < time.monotonic() - started < 2.0


async def test_unacknowledged_messages_come_again_and_acknowledged_ones_do_not(
    nats_broker: JetStreamBroker,
) -> None:
    stream = nats_broker.settings.stream
    config = ConsumerConfig(
        durable_name="redelivering", ack_policy=AckPolicy.EXPLICIT, ack_wait=0.5
    )
    await nats_broker.js.add_consumer(stream, config)
    pull = await PullConsumer.bind(nats_broker.client, stream, "redelivering")
    try:
        await publish(nats_broker, b"a", b"b")
        first = await pull.fetch(2, timeout=5.0)
        await first[0].ack()
        again = await pull.fetch(2, timeout=5.0)
        assert [(msg.data, msg.metadata.num_delivered) for msg in again] == [(b"b", 2)]
    finally:
        await pull.unsubscribe()


async def test_a_deleted_consumer_ends_the_waiting_request_at_once(
    nats_broker: JetStreamBroker, pull: PullConsumer
) -> None:
    waiting = asyncio.create_task(pull.fetch(10, timeout=10.0))
    await asyncio.sleep(0.2)
    started = time.monotonic()
    await nats_broker.js.delete_consumer(nats_broker.settings.stream, "puller")
    with pytest.raises(TimeoutError):
        await waiting
    assert time.monotonic() - started < 2.0  # the server's 409 ended it


async def test_fetching_goes_on_after_the_broker_restarts(
    nats_server: EmbeddedNats, nats_broker: JetStreamBroker, pull: PullConsumer
) -> None:
    await publish(nats_broker, b"before")
    for msg in await pull.fetch(10, timeout=5.0):
        await msg.ack()
    await nats_server.restart()
    async with asyncio.timeout(20):
        while True:
            try:
                await publish(nats_broker, b"after")
                break
            except Exception:
                await asyncio.sleep(0.1)
        received: list[bytes] = []
        while not received:
            try:
                received = [msg.data for msg in await pull.fetch(10, timeout=1.0)]
            except TimeoutError:
                continue
    assert received == [b"after"]
