# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The consumers deliver other services' events to the reactions, typed and in the
security context they were written in; unreadable payloads go to the dead letters."""

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime

from eaf.context import SecurityContext, current
from eaf.eventsourcing.serialization import to_dict
from eaf.messaging import DeadLetter, InMemoryBroker, Message, event_message

from user_profile.application.consumed import TenantCreatedEvent
from user_profile.infrastructure.consumers import EventConsumers

CONTEXT = SecurityContext(
    tenant_id="tenant-a", user_id="user-1", correlation_id="corr-1"
)


class RecordingReactions:
    """Records each reaction with the context it ran in."""

    def __init__(self) -> None:
        self.seen: list[tuple[object, SecurityContext]] = []

    async def prepare_tenant(self, event: TenantCreatedEvent) -> None:
        self.seen.append((event, current()))


async def until(condition: Callable[[], Awaitable[bool]], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not await condition():
            await asyncio.sleep(0.01)


async def dead_letter_of(
    make: Callable[[InMemoryBroker], Message],
    durable: str,
    reactions: RecordingReactions,
) -> DeadLetter:
    """Publish what ``make`` builds, run the consumers until ``durable`` gives up on it,
    and return its dead letter."""
    broker = InMemoryBroker()
    await broker.publish(make(broker))
    consumers = EventConsumers(reactions, service="test", subscriber=broker)
    await consumers.start()
    try:

        async def dead_lettered() -> bool:
            return bool(await broker.dead_letters.find(durable))

        await until(dead_lettered)
    finally:
        await consumers.stop()
    [letter] = await broker.dead_letters.find(durable)
    return letter


async def test_prepare_tenant_receives_tenant_created_event_in_its_context() -> None:
    broker = InMemoryBroker()
    reactions = RecordingReactions()
    event = TenantCreatedEvent(
        tenant_id="tenantId",
        name="name",
        admin_user_id="adminUserId",
        occurred_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
    )
    await broker.publish(
        event_message(
            broker.subjects,
            service="iam",
            event_type="TenantCreatedEvent",
            payload={**to_dict(event), "addedLater": "ignored"},
            context=CONTEXT,
        )
    )
    consumers = EventConsumers(reactions, service="test", subscriber=broker)
    await consumers.start()
    try:

        async def reacted() -> bool:
            return len(reactions.seen) == 1

        await until(reacted)
    finally:
        await consumers.stop()
    received, context = reactions.seen[0]
    assert received == event
    assert (context.tenant_id, context.user_id, context.correlation_id) == (
        "tenant-a",
        "user-1",
        "corr-1",
    )


async def test_unreadable_tenant_created_event_goes_to_the_dead_letters() -> None:
    reactions = RecordingReactions()
    letter = await dead_letter_of(
        lambda broker: event_message(
            broker.subjects,
            service="iam",
            event_type="TenantCreatedEvent",
            payload={"unexpected": True},
            context=CONTEXT,
        ),
        "user-profile-iam-tenant-created-event",
        reactions,
    )
    assert "unreadable" in letter.reason
    assert reactions.seen == []


async def test_tenant_created_event_nested_too_deep_goes_to_the_dead_letters_at_once() -> (
    None
):
    reactions = RecordingReactions()
    letter = await dead_letter_of(
        lambda broker: replace(
            event_message(
                broker.subjects,
                service="iam",
                event_type="TenantCreatedEvent",
                payload={},
                context=CONTEXT,
            ),
            data=b"[" * 100_000 + b"]" * 100_000,
        ),
        "user-profile-iam-tenant-created-event",
        reactions,
    )
    assert letter.attempts == 1, letter.reason
    assert "nests too deep" in letter.reason
    assert reactions.seen == []
