"""Change notifications from the broker (hand-written): every event this service's relay
publishes (``events.<tenant>.configuration.<EventType>``), from any instance, wakes the
watchers of its tenant, so a watch answers within the relay's delay wherever the change
was written."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from eaf.messaging import JetStreamBroker, Subjects, run_connected

from configuration.application.watch import Changes

SERVICE = "configuration"


class ChangeFeed:
    """A core NATS subscription (no consumer state: a missed message only delays a
    watcher until its timeout) feeding :class:`Changes`."""

    def __init__(
        self, changes: Changes, *, url: Callable[[], str], replicas: int = 1
    ) -> None:
        self._changes = changes
        self._url = url
        self._replicas = replicas
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(
            run_connected(
                self._url,
                self.follow,
                name="configuration-watch",
                replicas=self._replicas,
            ),
            name="configuration-watch",
        )

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def follow(self, broker: JetStreamBroker) -> None:
        async def woken(message: Any) -> None:
            tokens = str(message.subject).split(".")
            if len(tokens) == 4:
                self._changes.notify(tokens[1])

        subject = f"{Subjects(broker.subjects.prefix).prefix}.*.{SERVICE}.*"
        subscription = await broker.client.subscribe(subject, cb=woken)
        try:
            await asyncio.Event().wait()
        finally:
            with contextlib.suppress(Exception):
                await subscription.unsubscribe()
