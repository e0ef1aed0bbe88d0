"""Contract tests every broker adapter passes, and the fakes they use.

Subclass :class:`BrokerContract` in a test module and give it a ``broker`` fixture
(a fresh, empty broker per test with the default ``events`` prefix)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from eaf.context import SecurityContext, current
from eaf.eventsourcing.outbox import OutboxMessage
from eaf.messaging.message import Delivery, Message, event_message
from eaf.messaging.ports import Broker, DeadLetter, Poison, Subscription
from eaf.messaging.subjects import Subjects

WAIT = 20.0
"""Upper bound of every wait in these tests: nothing hangs."""


def event(
    tenant: str = "acme",
    event_type: str = "ThingHappened",
    *,
    service: str = "things",
    user: str = "alice",
    payload: dict[str, Any] | None = None,
    correlation_id: str | None = None,
) -> Message:
    """An event as ``user`` of ``tenant`` would publish it."""
    context = SecurityContext(tenant_id=tenant, user_id=user)
    if correlation_id is not None:
        context = SecurityContext(
            tenant_id=tenant, user_id=user, correlation_id=correlation_id
        )
    return event_message(
        Subjects(),
        service=service,
        event_type=event_type,
        payload=payload if payload is not None else {"n": 0},
        context=context,
    )


def stored_event(
    position: int, tenant: str = "acme", event_type: str = "ThingHappened"
) -> OutboxMessage:
    """An event as an event store writes it to its outbox."""
    return OutboxMessage(
        position=position,
        event_id=str(uuid.uuid4()),
        tenant_id=tenant,
        stream_type="Thing",
        stream_id=f"thing-{position % 10}",
        stream_version=position // 10 + 1,
        event_type=event_type,
        schema_version=1,
        payload={"position": position, "text": "x" * 64},
        metadata={"user_id": "alice", "correlation_id": f"corr-{position}"},
        recorded_at=datetime.now(UTC),
    )


async def eventually(
    condition: Callable[[], bool | Awaitable[bool]], within: float = WAIT
) -> None:
    """Wait until ``condition()`` holds, polling; fail after ``within`` seconds."""
    async with asyncio.timeout(within):
        while True:
            outcome = condition()
            if not isinstance(outcome, bool):
                outcome = await outcome
            if outcome:
                return
            await asyncio.sleep(0.02)


class Recorder:
    """A handler that records what it handled, in which context; it can be told to
    fail, to raise :class:`Poison`, or to take its time."""

    def __init__(self, *, fail: bool = False, poison: bool = False) -> None:
        self.fail = fail
        self.poison = poison
        self.delay = 0.0
        self.attempts = 0
        self.handled: list[Delivery] = []
        self.contexts: list[SecurityContext] = []

    async def __call__(self, delivery: Delivery) -> None:
        self.attempts += 1
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.poison:
            raise Poison("cannot be handled")
        if self.fail:
            raise RuntimeError("handler is broken")
        self.contexts.append(current())
        self.handled.append(delivery)

    @property
    def event_ids(self) -> list[str]:
        return [delivery.message.event_id for delivery in self.handled]

    async def wait_for(self, count: int, within: float = WAIT) -> None:
        await eventually(lambda: len(self.handled) >= count, within)


def unique(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:8]}"


async def dead_letters_of(broker: Broker, durable: str, count: int) -> list[DeadLetter]:
    """Wait until ``durable`` has ``count`` dead letters; return them."""
    letters: list[DeadLetter] = []

    async def enough() -> bool:
        letters[:] = await broker.dead_letters.find(durable)
        return len(letters) >= count

    await eventually(enough)
    return letters


class BrokerContract:
    """Publisher, subscriber and dead-letter behaviour every adapter must show."""

    async def test_handler_receives_payload_and_headers(self, broker: Broker) -> None:
        recorder = Recorder()
        sent = event(payload={"n": 42})
        worker = await broker.start(Subscription(durable=unique("reader")), recorder)
        try:
            await broker.publish(sent)
            await recorder.wait_for(1)
        finally:
            await worker.stop()
        [delivery] = recorder.handled
        assert delivery.json() == {"n": 42}
        assert delivery.message.subject == "events.acme.things.ThingHappened"
        assert delivery.message.event_id == sent.event_id
        assert delivery.event_type == "ThingHappened"
        assert delivery.tenant_id == "acme"
        assert delivery.attempt == 1

    async def test_security_context_is_restored_in_handlers(
        self, broker: Broker
    ) -> None:
        recorder = Recorder()
        sent = event(tenant="acme", user="bob", correlation_id="corr-1")
        worker = await broker.start(Subscription(durable=unique("ctx")), recorder)
        try:
            await broker.publish(sent)
            await recorder.wait_for(1)
        finally:
            await worker.stop()
        [context] = recorder.contexts
        assert (context.tenant_id, context.user_id) == ("acme", "bob")
        assert context.correlation_id == "corr-1"
        assert context.causation_id == sent.event_id

    async def test_same_event_id_is_stored_once(self, broker: Broker) -> None:
        recorder = Recorder()
        duplicate, last = event(), event()
        for message in (duplicate, duplicate, last):
            await broker.publish(message)
        assert await broker.publish_batch([duplicate, last]) == [None, None]
        worker = await broker.start(Subscription(durable=unique("dedup")), recorder)
        try:
            await eventually(lambda: last.event_id in recorder.event_ids)
        finally:
            await worker.stop()
        assert recorder.event_ids == [duplicate.event_id, last.event_id]

    async def test_a_group_splits_the_work_and_another_group_gets_all(
        self, broker: Broker
    ) -> None:
        sent = [event(payload={"n": n}) for n in range(40)]
        group, other = unique("group"), unique("other")
        first, second, everything = Recorder(), Recorder(), Recorder()
        first.delay = second.delay = 0.01
        workers = [
            await broker.start(Subscription(durable=group, batch_size=4), first),
            await broker.start(Subscription(durable=group, batch_size=4), second),
            await broker.start(Subscription(durable=other), everything),
        ]
        try:
            await broker.publish_batch(sent)
            await eventually(lambda: len(first.handled) + len(second.handled) >= 40)
            await everything.wait_for(40)
            await asyncio.sleep(0.2)  # room for a duplicate to show up
        finally:
            for worker in workers:
                await worker.stop()
        ids = {message.event_id for message in sent}
        assert set(first.event_ids).isdisjoint(second.event_ids)
        assert sorted(first.event_ids + second.event_ids) == sorted(ids)
        assert first.handled and second.handled
        assert sorted(everything.event_ids) == sorted(ids)

    async def test_tenant_filter_excludes_other_tenants(self, broker: Broker) -> None:
        recorder = Recorder()
        subscription = Subscription(durable=unique("tenant-a"), tenants=["tenant-a"])
        worker = await broker.start(subscription, recorder)
        last = event("tenant-a", payload={"last": True})
        try:
            for n in range(10):
                await broker.publish(event("tenant-b", payload={"n": n}))
                await broker.publish(event("tenant-a", payload={"n": n}))
            await broker.publish(last)
            await eventually(lambda: last.event_id in recorder.event_ids)
        finally:
            await worker.stop()
        assert len(recorder.handled) == 11
        assert {delivery.tenant_id for delivery in recorder.handled} == {"tenant-a"}
        assert {context.tenant_id for context in recorder.contexts} == {"tenant-a"}

    async def test_failing_handler_is_dead_lettered_then_replayed(
        self, broker: Broker
    ) -> None:
        durable, bystander = unique("failing"), unique("bystander")
        failing, other = Recorder(fail=True), Recorder()
        subscription = Subscription(durable=durable, max_deliver=3, retry_delays=[0.05])
        workers = [
            await broker.start(subscription, failing),
            await broker.start(Subscription(durable=bystander), other),
        ]
        sent = event(payload={"n": 7})
        try:
            await broker.publish(sent)
            [letter] = await dead_letters_of(broker, durable, 1)
            assert failing.attempts == 3
            assert letter.attempts == 3
            assert letter.durable == durable
            assert "RuntimeError: handler is broken" in letter.reason
            assert letter.message.event_id == sent.event_id
            assert letter.message.subject == sent.subject
            assert letter.message.json() == {"n": 7}
            assert (
                await broker.dead_letters.get(letter.sequence)
            ).reason == letter.reason

            failing.fail = False
            await broker.dead_letters.replay(letter.sequence)
            await failing.wait_for(1)
            assert await broker.dead_letters.find(durable) == []
            [replayed] = failing.handled
            assert replayed.message.event_id == sent.event_id
            assert replayed.message.subject == sent.subject
            assert failing.contexts[0].tenant_id == "acme"

            later = event()
            await broker.publish(later)
            await eventually(lambda: later.event_id in other.event_ids)
        finally:
            for worker in workers:
                await worker.stop()
        assert other.event_ids == [sent.event_id, later.event_id]

    async def test_poison_is_dead_lettered_at_once(self, broker: Broker) -> None:
        durable = unique("poisoned")
        recorder = Recorder(poison=True)
        worker = await broker.start(Subscription(durable=durable), recorder)
        try:
            await broker.publish(event())
            [letter] = await dead_letters_of(broker, durable, 1)
        finally:
            await worker.stop()
        assert letter.attempts == 1
        assert recorder.attempts == 1
        assert letter.reason == "Poison: cannot be handled"

    async def test_tenant_header_not_matching_the_subject_is_dead_lettered(
        self, broker: Broker
    ) -> None:
        durable = unique("guarded")
        recorder = Recorder()
        sent = event("tenant-b")
        forged = Message(
            subject=Subjects().event("tenant-a", "things", "ThingHappened"),
            data=sent.data,
            headers=sent.headers,
        )
        subscription = Subscription(durable=durable, tenants=["tenant-a"])
        worker = await broker.start(subscription, recorder)
        try:
            await broker.publish(forged)
            [letter] = await dead_letters_of(broker, durable, 1)
        finally:
            await worker.stop()
        assert recorder.attempts == 0
        assert letter.reason == "Poison: tenant header does not match the subject"

    async def test_purge_removes_dead_letters_of_one_consumer(
        self, broker: Broker
    ) -> None:
        first, second = unique("first"), unique("second")
        workers = [
            await broker.start(Subscription(durable=first), Recorder(poison=True)),
            await broker.start(Subscription(durable=second), Recorder(poison=True)),
        ]
        try:
            await broker.publish(event())
            await broker.publish(event())
            await dead_letters_of(broker, first, 2)
            await dead_letters_of(broker, second, 2)
        finally:
            for worker in workers:
                await worker.stop()
        assert await broker.dead_letters.purge(first) == 2
        assert await broker.dead_letters.find(first) == []
        assert len(await broker.dead_letters.find(second)) == 2
        assert len(await broker.dead_letters.find(limit=1)) == 1
        assert await broker.dead_letters.purge() == 2

    async def test_stream_delivers_new_messages_as_they_come(
        self, broker: Broker
    ) -> None:
        await broker.publish(event("tenant-a", payload={"old": True}))
        subscription = Subscription(tenants=["tenant-a"], deliver_new=True)
        async with broker.stream(subscription) as messages:
            async with asyncio.timeout(WAIT):
                for n in range(3):
                    await broker.publish(event("tenant-b", payload={"n": n}))
                    await broker.publish(event("tenant-a", payload={"n": n}))
                received = [await anext(messages) for _ in range(3)]
        assert [delivery.json() for delivery in received] == [
            {"n": n} for n in range(3)
        ]
        assert {delivery.tenant_id for delivery in received} == {"tenant-a"}
