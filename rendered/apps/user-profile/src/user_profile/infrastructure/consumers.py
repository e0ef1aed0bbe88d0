# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The broker adapter for consumed events: one durable consumer group per event type
(instances of user-profile share the work), the event's security context restored around
each reaction, retries with backoff, then the dead letter queue."""

import asyncio
import contextlib
from collections.abc import Callable

from eaf.eventsourcing.serialization import from_dict
from eaf.messaging import Delivery, EventHandlers, Poison, Subscriber, run_connected

from user_profile.application.consumed import TenantCreatedEvent
from user_profile.application.ports.inbound import EventReactions


def event_handlers(reactions: EventReactions) -> EventHandlers:
    """The consumer groups of user-profile, each bound to its reaction."""
    handlers = EventHandlers()

    @handlers.on(
        "user-profile-iam-tenant-created-event",
        services=["iam"],
        event_types=["TenantCreatedEvent"],
        max_deliver=5,
    )
    async def prepare_tenant(delivery: Delivery) -> None:
        try:
            event = from_dict(TenantCreatedEvent, delivery.json())
        except (KeyError, TypeError, ValueError) as error:
            raise Poison(
                f"iam.TenantCreatedEvent payload unreadable: {error}"
            ) from error
        await reactions.prepare_tenant(event)

    return handlers


class EventConsumers:
    """Runs the consumer groups against ``subscriber``, or against the broker at ``url()``
    (connecting again while it is unreachable or after a failure, its streams kept on
    ``replicas`` servers of a cluster), until stopped."""

    def __init__(
        self,
        reactions: EventReactions,
        *,
        service: str,
        url: Callable[[], str] | None = None,
        subscriber: Subscriber | None = None,
        instances: int = 1,
        replicas: int = 1,
    ) -> None:
        self._handlers = event_handlers(reactions)
        self._service = service
        if url is None and subscriber is None:
            raise ValueError("EventConsumers needs a broker url or a subscriber")
        self._url = url
        self._subscriber = subscriber
        self._instances = instances
        self._replicas = replicas
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="event-consumers")

    async def _run(self) -> None:
        if self._subscriber is not None:
            await self._consume(self._subscriber)
            return
        assert self._url is not None
        await run_connected(
            self._url, self._consume, name=self._service, replicas=self._replicas
        )

    async def _consume(self, subscriber: Subscriber) -> None:
        async with self._handlers.running(subscriber, instances=self._instances):
            await asyncio.Event().wait()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
