# Generated from spec iam by `generate`; edits are merged on re-render.

"""The broker adapter: relays the event store's outbox to NATS JetStream in the
background (subjects ``events.<tenant>.iam.<EventType>``, stream ``EVENTS``).
Writes never wait for the broker: the outbox keeps events until they are acknowledged."""

import asyncio
import contextlib
import logging
from pathlib import Path

from eaf.eventsourcing import EventStore, Outbox
from eaf.messaging import JetStreamBroker, OutboxRelay, run_connected
from eaf.messaging.embedded import EmbeddedNats

log = logging.getLogger(__name__)


class EventRelay:
    """Publishes stored events to the broker at ``url``, or to an embedded nats-server
    (started here, data under ``data_dir``) when ``embedded``."""

    def __init__(
        self,
        store: EventStore,
        *,
        service: str,
        url: str,
        embedded: bool,
        data_dir: Path,
    ) -> None:
        self._store = store
        self._service = service
        self._url = url
        self._embedded = embedded
        self._data_dir = data_dir
        self._server: EmbeddedNats | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return self._server.url if self._server is not None else self._url

    async def start(self) -> None:
        """Start the embedded broker if asked, then relay in a background task."""
        outbox: Outbox | None = getattr(self._store, "outbox", None)
        if outbox is None:
            return
        if self._embedded:
            self._server = EmbeddedNats(self._data_dir / "nats")
            await self._server.start()
            log.info("embedded nats-server with JetStream on %s", self._server.url)
        self._task = asyncio.create_task(self._relay(outbox), name="outbox-relay")

    async def _relay(self, outbox: Outbox) -> None:
        async def relay(broker: JetStreamBroker) -> None:
            await OutboxRelay(outbox, broker, service=self._service).run()

        # While the broker is unreachable, events wait in the outbox.
        await run_connected(lambda: self.url, relay, name=self._service)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._server is not None:
            await self._server.stop()
