"""The outbox relay of a service, run in the background: stored events go to NATS
JetStream (subjects ``events.<tenant>.<service>.<EventType>``, stream ``EVENTS``), to the
broker at a URL or to an embedded nats-server. Writes never wait for the broker: the
outbox keeps events until they are acknowledged."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from eaf.messaging.embedded import EmbeddedNats
from eaf.messaging.jetstream import JetStreamBroker, run_connected
from eaf.messaging.relay import OutboxRelay

if TYPE_CHECKING:
    from eaf.eventsourcing import EventStore, Outbox

log = logging.getLogger("eaf.messaging.background")


class EventRelay:
    """Publishes ``store``'s outbox for ``service`` to the broker at ``url``, or to an
    embedded nats-server (started here, data under ``data_dir``) when ``embedded``; on a
    cluster, the streams are kept on ``replicas`` servers."""

    def __init__(
        self,
        store: EventStore,
        *,
        service: str,
        url: str,
        embedded: bool,
        data_dir: Path,
        replicas: int = 1,
    ) -> None:
        self._store = store
        self._service = service
        self._url = url
        self._embedded = embedded
        self._data_dir = data_dir
        self._replicas = replicas
        self._server: EmbeddedNats | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        """The broker's URL: the embedded server's once it runs."""
        return self._server.url if self._server is not None else self._url

    async def start(self) -> None:
        """Start the embedded broker if asked, then relay in a background task (nothing
        when the store keeps no outbox, as the in-memory one)."""
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
        await run_connected(
            lambda: self.url, relay, name=self._service, replicas=self._replicas
        )

    async def stop(self) -> None:
        """Stop relaying, then the embedded broker."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._server is not None:
            await self._server.stop()
