from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import replace

from eaf.context import platform_context, use
from eaf.eventsourcing import SqlEventStore
from eaf.eventsourcing.outbox import InMemoryOutbox
from eaf.eventsourcing.sql import SqlOutbox
from eaf.eventsourcing.testing import as_tenant, new_events
from eaf.messaging import (
    InMemoryBroker,
    JetStreamBroker,
    Message,
    MessagingSettings,
    OutboxRelay,
    Subscription,
)
from eaf.messaging.embedded import EmbeddedNats
from eaf.messaging.testing import eventually, stored_event


class FlakyPublisher:
    """Acknowledges every other message, like a broker losing acks."""

    def __init__(self) -> None:
        self.broker = InMemoryBroker()
        self.calls = 0

    async def publish(self, message: Message) -> None:
        await self.broker.publish(message)

    async def publish_batch(
        self, messages: Sequence[Message]
    ) -> list[Exception | None]:
        self.calls += 1
        await self.broker.publish_batch(messages)
        if self.calls > 1:
            return [None] * len(messages)
        return [None if n % 2 else TimeoutError("no ack") for n in range(len(messages))]


async def test_relay_publishes_outbox_to_tenant_subjects_with_headers() -> None:
    outbox, broker = InMemoryOutbox(), InMemoryBroker()
    stored = stored_event(1, tenant="acme", event_type="OrderPlaced")
    outbox.add(stored)
    relay = OutboxRelay(outbox, broker, service="orders")

    assert await relay.drain() == 1

    [message] = broker.messages
    assert message.subject == "events.acme.orders.OrderPlaced"
    assert message.json() == stored.payload
    assert message.headers["Nats-Msg-Id"] == stored.event_id
    assert message.headers["X-Tenant-Id"] == "acme"
    assert message.headers["X-User-Id"] == "alice"
    assert message.headers["X-Correlation-Id"] == "corr-1"
    assert message.headers["Eaf-Event-Type"] == "OrderPlaced"
    assert message.headers["Eaf-Schema-Version"] == "1"
    assert message.headers["Eaf-Stream-Id"] == stored.stream_id
    assert message.headers["Eaf-Stream-Version"] == str(stored.stream_version)
    assert outbox.published == {1}


async def test_in_memory_outbox_pends_the_unpublished_in_order_past_gaps() -> None:
    outbox = InMemoryOutbox()
    for position in range(1, 6):
        outbox.add(stored_event(position))
    await outbox.mark_published([1, 3])
    assert [m.position for m in await outbox.pending(2)] == [2, 4]
    await outbox.mark_published([2])
    assert [m.position for m in await outbox.pending(10)] == [4, 5]
    assert await outbox.pending(0) == []
    assert await outbox.backlog() == 2


async def test_relay_marks_only_acknowledged_messages_and_retries_the_rest() -> None:
    outbox, publisher = InMemoryOutbox(), FlakyPublisher()
    for position in range(1, 11):
        outbox.add(stored_event(position))
    relay = OutboxRelay(outbox, publisher, service="orders", backoff_initial=0.01)
    task = asyncio.create_task(relay.run())
    try:
        await eventually(lambda: len(outbox.published) == 10)
    finally:
        task.cancel()
    assert relay.stats.failed_batches == 1
    # The messages published twice were absorbed by their Nats-Msg-Id.
    assert len(publisher.broker.messages) == 10


async def test_broker_killed_while_relaying_loses_and_duplicates_nothing(
    nats_server: EmbeddedNats, settings: MessagingSettings
) -> None:
    outbox = InMemoryOutbox()
    total = 600

    async def write() -> None:
        for position in range(1, total + 1):
            outbox.add(stored_event(position, tenant=f"t{position % 3}"))
            relay.notify()
            await asyncio.sleep(0.003)

    # Acks are awaited for less time than the outage lasts: batches fail, are retried.
    settings = replace(settings, publish_timeout=0.5)
    async with await JetStreamBroker.connect(settings) as broker:
        relay = OutboxRelay(
            outbox, broker, service="orders", batch_size=50, poll_interval=0.05,
            backoff_max=0.5,
        )  # fmt: skip
        relaying = asyncio.create_task(relay.run())
        writing = asyncio.create_task(write())
        try:
            await eventually(lambda: len(outbox.published) >= 100)
            await nats_server.kill()
            published_before_outage = len(outbox.published)
            await asyncio.sleep(1.5)
            written_during_outage = len(outbox.messages)
            await nats_server.start()
            async with asyncio.timeout(30):
                await writing
            await eventually(lambda: len(outbox.published) == total, within=60)
        finally:
            relaying.cancel()
            writing.cancel()

        assert published_before_outage < written_during_outage < total
        assert relay.stats.failed_batches > 0
        info = await broker.js.stream_info(settings.stream)
        assert info.state.messages == total
        expected = {message.event_id for message in outbox.messages}
        seen: list[str] = []
        async with broker.stream(Subscription()) as deliveries:
            async with asyncio.timeout(30):
                while len(seen) < total:
                    seen.append((await anext(deliveries)).message.event_id)
        assert len(set(seen)) == total
        assert set(seen) == expected


async def test_relay_from_the_sql_outbox_loses_nothing_when_acks_are_lost(
    sqlite_store: SqlEventStore,
) -> None:
    with as_tenant("acme"):
        for n in range(10):
            await sqlite_store.append(
                "Order", f"o-{n}", new_events(3), expected_version=0
            )
    publisher = FlakyPublisher()
    relay = OutboxRelay(
        sqlite_store.outbox, publisher, service="orders", batch_size=7,
        backoff_initial=0.01,
    )  # fmt: skip
    task = asyncio.create_task(relay.run())
    try:
        await eventually(lambda: relay.stats.published == 30)
    finally:
        task.cancel()
    assert relay.stats.failed_batches == 1
    assert len(publisher.broker.messages) == 30  # re-sent ones absorbed by Nats-Msg-Id
    with use(platform_context()):
        last = (await sqlite_store.read_all())[-1].position
    assert await sqlite_store.outbox.cursor() == last
    assert await SqlOutbox(sqlite_store.database).pending(100) == []


async def test_the_sql_outbox_hands_out_bodies_as_stored_and_they_go_out_as_they_are(
    sqlite_store: SqlEventStore,
) -> None:
    with as_tenant("acme"):
        await sqlite_store.append("Order", "o-1", new_events(2), expected_version=0)
    pending = await SqlOutbox(sqlite_store.database).pending(10)
    assert [json.loads(m.body or b"") for m in pending] == [m.payload for m in pending]

    outbox, broker = InMemoryOutbox(), InMemoryBroker()
    spaced = replace(stored_event(1), body=b'{"text": "as stored"}')
    outbox.add(spaced)
    await OutboxRelay(outbox, broker, service="orders").drain()
    assert [message.data for message in broker.messages] == [b'{"text": "as stored"}']
