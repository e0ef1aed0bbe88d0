"""IAM's revocation events from NATS JetStream into a :class:`RevocationList`.

Every instance of a service must see every revocation, so each follows the events on its
own ephemeral consumer (no durable group to share), starting one token lifetime back: a
token that validates now cannot predate that, so the list is complete after the replay.
After a broker outage it starts over the same way; re-applying an event changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime

import nats.errors
from eaf.messaging import JetStreamBroker, run_connected
from eaf.messaging.subjects import PLATFORM_TENANT
from nats.aio.msg import Msg
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

from iam_client.revocation import EVENT_TYPES, RevocationList

log = logging.getLogger(__name__)

IDLE_WAIT = 1.0
"""How long one pull waits for events; also how often an idle feed checks its consumer."""

CONSUMER_INACTIVE_THRESHOLD = 30.0
"""After how long without pulls the broker deletes the consumer of a vanished instance."""


class RevocationFeed:
    """Keeps ``revocations`` filled from the broker at ``url()`` in a background task,
    connecting again while the broker is unreachable; ``revocations.current`` is true
    while the feed has caught up. Without a list (``None``) it does nothing."""

    def __init__(
        self,
        revocations: RevocationList | None,
        *,
        url: Callable[[], str],
        name: str | None = None,
        issuer_service: str = "iam",
        batch_size: int = 256,
        retry_delay: float = 1.0,
        clock: Callable[[], float] = time.time,
        replicas: int = 1,
    ) -> None:
        self.revocations = revocations
        self._url = url
        self._name = name
        self._issuer_service = issuer_service
        self._batch_size = batch_size
        self._retry_delay = retry_delay
        self._clock = clock
        self._replicas = replicas
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Follow the events in the background until :meth:`stop`."""
        if self.revocations is None or self._task is not None:
            return
        self._task = asyncio.create_task(
            run_connected(
                self._url,
                self.follow,
                name=self._name,
                retry_delay=self._retry_delay,
                replicas=self._replicas,
            ),
            name="revocation-feed",
        )

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def follow(self, broker: JetStreamBroker) -> None:
        """Follow the events on ``broker`` until cancelled, with a new consumer after
        each interruption (a reconnect, a lost consumer)."""
        while True:
            try:
                await self._consume(broker)
            except (nats.errors.Error, TimeoutError) as error:
                log.warning("revocation feed interrupted (%s); following again", error)
            await asyncio.sleep(self._retry_delay)

    async def _consume(self, broker: JetStreamBroker) -> None:
        """One consumer: replay the window, then follow; returns after a reconnect,
        since the broker may have lost the consumer (it is kept in memory)."""
        revocations = self.revocations
        assert revocations is not None
        js, stream = broker.js, broker.settings.stream
        reconnects = broker.client.stats["reconnects"]
        since = datetime.fromtimestamp(self._clock() - revocations.window, UTC)
        name = f"revocations-{uuid.uuid4().hex}"
        config = ConsumerConfig(
            name=name,
            filter_subjects=broker.subjects.filters(
                services=[self._issuer_service], event_types=EVENT_TYPES
            ),
            deliver_policy=DeliverPolicy.BY_START_TIME,
            opt_start_time=since,
            ack_policy=AckPolicy.NONE,
            inactive_threshold=CONSUMER_INACTIVE_THRESHOLD,
            mem_storage=True,
            num_replicas=1,
        )
        info = await js.add_consumer(stream, config)
        try:
            pull = await js.pull_subscribe_bind(consumer=name, stream=stream)
            revocations.current = info.num_pending == 0
            while broker.client.stats["reconnects"] == reconnects:
                try:
                    messages = await pull.fetch(self._batch_size, timeout=IDLE_WAIT)
                except TimeoutError:
                    revocations.current = await self._caught_up(broker, name)
                    continue
                for message in messages:
                    self._apply(message)
                revocations.current = bool(messages[-1].metadata.num_pending == 0)
        finally:
            revocations.current = False
            # Cut off, it would only time out; the broker drops it when inactive anyway.
            if broker.client.is_connected:
                with contextlib.suppress(nats.errors.Error, TimeoutError):
                    await js.delete_consumer(stream, name)

    async def _caught_up(self, broker: JetStreamBroker, name: str) -> bool:
        """Whether nothing is pending on the consumer ``name``. A pull on a consumer the
        broker lost just times out, so an idle feed asks for it (NotFoundError if gone)."""
        if not broker.client.is_connected:
            return False
        info = await broker.js.consumer_info(broker.settings.stream, name)
        return bool(info.num_pending == 0)

    def _apply(self, message: Msg) -> None:
        revocations = self.revocations
        assert revocations is not None
        try:
            # events.<tenant>.<service>.<EventType>: IAM publishes in the token's scope.
            _, scope, _, event_type = message.subject.split(".")
            if scope == PLATFORM_TENANT:
                raise ValueError("the event has no tenant")
            revocations.apply(event_type, scope, _payload(message.data))
        except ValueError as error:
            # Nothing to retry: the same bytes stay unreadable. Loud, and on with the rest.
            log.error("unreadable %s ignored: %s", message.subject, error)


def _payload(data: bytes) -> dict[str, object]:
    payload = json.loads(data)
    if not isinstance(payload, dict):
        raise ValueError("the payload is not a JSON object")
    return payload
