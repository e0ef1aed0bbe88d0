"""The NATS source on a real nats-server: events relayed from an outbox, projected
into SQLite exactly once under redelivery, poison messages dead-lettered."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from pathlib import Path

from eaf.eventsourcing import InMemoryEventStore, NewEvent, StoredEvent
from eaf.messaging import (
    Header,
    JetStreamBroker,
    Message,
    MessagingSettings,
    OutboxRelay,
    outbox_message,
)
from eaf.projectors import (
    JetStreamSource,
    Projector,
    ReadModelWriter,
    SqlProjectionStore,
)
from eaf.projectors.testing import FAST_RETRY, account_projection, all_rows, as_tenant

TENANTS = ["acme", "globex"]


async def _events(store: InMemoryEventStore, deposits: list[object]) -> None:
    for tenant in TENANTS:
        with as_tenant(tenant):
            events = [NewEvent("Opened", {"owner": tenant})]
            events += [NewEvent("Deposited", {"amount": amount}) for amount in deposits]
            await store.append("Account", "a-1", events, expected_version=0)


async def _source(
    broker: JetStreamBroker, tmp_path: Path, version: str = ""
) -> tuple[JetStreamSource, SqlProjectionStore]:
    store = SqlProjectionStore.open(f"sqlite+aiosqlite:///{tmp_path}/read.db")
    projection = account_projection()
    projection.version = version
    projector = Projector(projection, store, retry=FAST_RETRY)
    source = JetStreamSource(projector, broker, batch_size=16, fetch_timeout=0.3)
    await source.start()
    return source, store


async def _drain(source: JetStreamSource, timeout: float = 15.0) -> None:
    """Run until the consumer has nothing pending or unacknowledged."""
    deadline = time.monotonic() + timeout
    js, stream = source.broker.js, source.broker.settings.stream
    while time.monotonic() < deadline:
        await source.run_once(timeout=0.3)
        info = await js.consumer_info(stream, source.durable)
        if info.num_pending == 0 and info.num_ack_pending == 0:
            return
    raise AssertionError("the consumer did not drain")


async def _balances(
    store: SqlProjectionStore, source: JetStreamSource
) -> dict[str, tuple[int, int]]:
    rows = await all_rows(store, source.projector.projection, TENANTS)
    return {row["tenant_id"]: (row["balance"], row["deposits"]) for row in rows}


async def test_relayed_events_are_projected_once_despite_a_crash_before_ack(
    nats_broker: JetStreamBroker, nats_settings: MessagingSettings, tmp_path: Path
) -> None:
    events = InMemoryEventStore()
    await _events(events, [1, 2, 3, 4, 5])
    assert await OutboxRelay(events.outbox, nats_broker, service="bank").drain() == 12

    source, store = await _source(nats_broker, tmp_path)
    fetched = await source.fetch()
    assert len(fetched.events) == 12
    assert await source.apply(fetched) == []  # committed, then "crashed": no acks
    committed = await _balances(store, source)
    await source.close()
    await store.close()

    await asyncio.sleep(nats_settings.ack_wait + 0.3)  # the broker redelivers
    async with await JetStreamBroker.connect(nats_settings) as broker:
        source, store = await _source(broker, tmp_path)
        try:
            redelivered = await source.fetch(timeout=3.0)
            assert len(redelivered.messages) == 12
            assert {m.metadata.num_delivered for m in redelivered.messages} == {2}
            await source.apply(redelivered)
            await source.settle(redelivered, [])
            await _drain(source)
            assert (
                await _balances(store, source)
                == committed
                == {
                    "acme": (15, 5),
                    "globex": (15, 5),
                }
            )
        finally:
            await source.close()
            await store.close()


async def test_the_same_event_published_again_is_applied_once(
    nats_broker: JetStreamBroker, tmp_path: Path
) -> None:
    events = InMemoryEventStore()
    await _events(events, [10, 20])
    await OutboxRelay(events.outbox, nats_broker, service="bank").drain()
    # Past the duplicate window the broker keeps a re-publication: a new Nats-Msg-Id,
    # the same event id.
    again = [
        outbox_message(nats_broker.subjects, "bank", m) for m in events.outbox.messages
    ]
    republished = [
        Message(m.subject, m.data, {**m.headers, Header.MSG_ID: f"again-{m.event_id}"})
        for m in again
    ]
    assert await nats_broker.publish_batch(republished) == [None] * len(republished)

    source, store = await _source(nats_broker, tmp_path)
    try:
        await _drain(source)
        assert await _balances(store, source) == {"acme": (30, 2), "globex": (30, 2)}
        assert await store.checkpoint("accounts") == 6  # duplicates do not move it
    finally:
        await source.close()
        await store.close()


async def test_poison_messages_are_dead_lettered_and_the_projection_continues(
    nats_broker: JetStreamBroker, tmp_path: Path
) -> None:
    events = InMemoryEventStore()
    await _events(events, [5, "boom", 7])
    await OutboxRelay(events.outbox, nats_broker, service="bank").drain()
    garbage = Message(
        "events.acme.bank.Deposited",
        b"not json",
        {Header.EVENT_TYPE: "Deposited", Header.TENANT: "acme", Header.MSG_ID: "junk"},
    )
    await nats_broker.publish(garbage)

    source, store = await _source(nats_broker, tmp_path)
    try:
        await _drain(source)
        assert await _balances(store, source) == {"acme": (12, 2), "globex": (12, 2)}
        letters = await store.dead_letters("accounts")
        assert sorted(letter.reason.split(":")[0] for letter in letters) == [
            "Poison",
            "ValueError",
            "ValueError",
        ]
        assert {letter.attempts for letter in letters if letter.event_type} >= {3}
        in_dlq = await nats_broker.dead_letters.find("accounts")
        assert len(in_dlq) == 3
        assert {letter.message.data for letter in in_dlq} >= {b"not json"}
    finally:
        await source.close()
        await store.close()


async def test_a_redelivered_batch_with_poison_in_the_middle_keeps_its_effects_once(
    nats_broker: JetStreamBroker, tmp_path: Path
) -> None:
    events = InMemoryEventStore()
    await _events(events, [5, "boom", 7])
    await OutboxRelay(events.outbox, nats_broker, service="bank").drain()
    source, store = await _source(nats_broker, tmp_path)
    try:
        fetched = await source.fetch(timeout=1.0)
        assert len(fetched.messages) == 8  # one batch, a poison event in each half
        await source.apply(fetched)
        # Committed but never acknowledged, as after a crash: all of it comes back.
        for msg in fetched.messages:
            await msg.nak()
        await _drain(source)

        assert await _balances(store, source) == {"acme": (12, 2), "globex": (12, 2)}
        letters = await store.dead_letters("accounts")
        assert sorted(letter.tenant_id for letter in letters) == ["acme", "globex"]
        assert len(await nats_broker.dead_letters.find("accounts")) == 2
    finally:
        await source.close()
        await store.close()


async def test_a_dead_letter_replayed_from_the_dlq_is_applied(
    nats_broker: JetStreamBroker, tmp_path: Path
) -> None:
    events = InMemoryEventStore()
    await _events(events, [5])
    await OutboxRelay(events.outbox, nats_broker, service="bank").drain()
    store = SqlProjectionStore.open(f"sqlite+aiosqlite:///{tmp_path}/read.db")
    projection = account_projection()
    deposited = projection.handlers["Deposited"]
    broken = True

    async def until_fixed(writer: ReadModelWriter, event: StoredEvent) -> None:
        if broken and event.tenant_id == "acme":
            raise RuntimeError("bug")
        await deposited(writer, event)

    projection.handlers["Deposited"] = until_fixed
    projector = Projector(projection, store, retry=FAST_RETRY)
    source = JetStreamSource(projector, nats_broker, fetch_timeout=0.3)
    await source.start()
    try:
        await _drain(source)
        assert await _balances(store, source) == {"acme": (0, 0), "globex": (5, 1)}
        [letter] = await nats_broker.dead_letters.find("accounts")
        broken = False  # the fix is deployed
        await nats_broker.dead_letters.replay(letter.sequence)
        await _drain(source)
        assert await _balances(store, source) == {"acme": (5, 1), "globex": (5, 1)}
    finally:
        await source.close()
        await store.close()


async def test_a_changed_projection_replays_the_stream_from_its_start(
    nats_broker: JetStreamBroker, tmp_path: Path
) -> None:
    events = InMemoryEventStore()
    await _events(events, [1, 2, 3])
    await OutboxRelay(events.outbox, nats_broker, service="bank").drain()
    source, store = await _source(nats_broker, tmp_path)
    await _drain(source)
    before = await _balances(store, source)
    await source.close()
    await store.close()

    restarted, store = await _source(nats_broker, tmp_path)
    await _drain(restarted)  # unchanged: nothing is delivered again
    assert await _balances(store, restarted) == before
    await restarted.close()
    await store.close()

    changed, store = await _source(nats_broker, tmp_path, version="2")
    try:
        assert await _balances(store, changed) == {}
        await _drain(changed)
        assert (
            await _balances(store, changed)
            == before
            == {
                "acme": (6, 3),
                "globex": (6, 3),
            }
        )
    finally:
        await changed.close()
        await store.close()


async def test_the_next_batch_is_fetched_while_one_commits_and_handed_back_on_close(
    nats_settings: MessagingSettings, tmp_path: Path
) -> None:
    events = InMemoryEventStore()
    await _events(events, list(range(1, 20)))  # 20 events a tenant: 40, batches of 16
    # A long acknowledgement wait: only a hand-back redelivers before it.
    settings = replace(nats_settings, ack_wait=60.0)
    async with await JetStreamBroker.connect(settings) as broker:
        await OutboxRelay(events.outbox, broker, service="bank").drain()
        js, stream = broker.js, broker.settings.stream
        source, store = await _source(broker, tmp_path)
        assert await source.run_once(timeout=3.0) == 16
        await asyncio.sleep(0.5)  # the fetch ahead has its answer
        info = await js.consumer_info(stream, source.durable)
        assert info.config.max_ack_pending >= 32
        assert (info.num_ack_pending, info.num_pending) == (16, 8)  # fetched ahead
        await source.close()  # ... and handed back, not kept until the ack wait
        await store.close()

        source, store = await _source(broker, tmp_path)
        try:
            again = await source.fetch(timeout=3.0)
            assert len(again.messages) == 16
            assert {m.metadata.num_delivered for m in again.messages} == {2}
            await source.apply(again)
            await source.settle(again, [])
            await _drain(source)
            expected = sum(range(1, 20))
            assert await _balances(store, source) == {
                "acme": (expected, 19),
                "globex": (expected, 19),
            }
        finally:
            await source.close()
            await store.close()
