"""Declaring event handlers with a decorator, and running them as consumer groups."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field

from eaf.messaging.ports import Handler, Subscriber, Subscription, Worker


@dataclass
class EventHandlers:
    """A registry of handlers, each bound to a durable subscription::

    handlers = EventHandlers()

    @handlers.on("billing", event_types=["OrderPlaced"], max_deliver=5)
    async def bill(delivery: Delivery) -> None: ...

    async with handlers.running(broker, instances=2):
        ...
    """

    registrations: list[tuple[Subscription, Handler]] = field(default_factory=list)

    def on(
        self,
        durable: str,
        *,
        tenants: Sequence[str] = (),
        services: Sequence[str] = (),
        event_types: Sequence[str] = (),
        max_deliver: int = 5,
        retry_delays: Sequence[float] = (0.5, 2.0, 10.0),
        deliver_new: bool = False,
        batch_size: int = 64,
    ) -> Callable[[Handler], Handler]:
        """Register the decorated coroutine as the handler of group ``durable``."""
        subscription = Subscription(
            durable=durable,
            tenants=tuple(tenants),
            services=tuple(services),
            event_types=tuple(event_types),
            max_deliver=max_deliver,
            retry_delays=tuple(retry_delays),
            deliver_new=deliver_new,
            batch_size=batch_size,
        )

        def register(handler: Handler) -> Handler:
            self.registrations.append((subscription, handler))
            return handler

        return register

    @contextlib.asynccontextmanager
    async def running(
        self, subscriber: Subscriber, *, instances: int = 1
    ) -> AsyncIterator[list[Worker]]:
        """Run ``instances`` workers per handler until the block exits."""
        workers: list[Worker] = []
        try:
            for subscription, handler in self.registrations:
                for _ in range(instances):
                    workers.append(await subscriber.start(subscription, handler))
            yield workers
        finally:
            for worker in workers:
                await worker.stop()
