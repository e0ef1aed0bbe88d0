"""The NATS JetStream adapter: connection, streams and publishing."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Self, TypeVar

import nats
import nats.errors
import nats.js.errors
import stamina
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.api import StreamConfig

from eaf.messaging.jetstream_consumers import (
    JetStreamWorker,
    message_stream,
    start_worker,
)
from eaf.messaging.jetstream_dlq import JetStreamDeadLetters
from eaf.messaging.jetstream_publish import AcknowledgedPublisher
from eaf.messaging.message import Delivery, Message
from eaf.messaging.ports import Handler, PublishError, Subscription
from eaf.messaging.retry import retrying
from eaf.messaging.settings import MessagingSettings

T = TypeVar("T")
log = logging.getLogger("eaf.messaging")


class _ConnectionLog:
    """Logs connection trouble, but not the disconnect of a deliberate close."""

    def __init__(self) -> None:
        self.closing = False

    async def error(self, error: Exception) -> None:
        log.warning("nats: %s", error)

    async def disconnected(self) -> None:
        if not self.closing:
            log.warning("nats: disconnected, reconnecting")

    async def reconnected(self) -> None:
        log.warning("nats: reconnected")


class JetStreamBroker:
    """Publisher, subscriber and dead letters over one NATS connection."""

    def __init__(
        self,
        client: Client,
        settings: MessagingSettings,
        connection_log: _ConnectionLog | None = None,
    ) -> None:
        self._connection_log = connection_log or _ConnectionLog()
        self.settings = settings
        self.subjects = settings.subjects
        self.client = client
        self.js: JetStreamContext = client.jetstream(timeout=settings.publish_timeout)
        self._dead_letters = JetStreamDeadLetters(self.js, settings)
        self._acknowledging = AcknowledgedPublisher(client)

    @classmethod
    async def connect(
        cls,
        settings: MessagingSettings | None = None,
        *,
        name: str | None = None,
        ensure_streams: bool = True,
    ) -> JetStreamBroker:
        """Connect (retrying while the broker is unreachable) and create the streams.
        It reconnects for ever: publishing resumes once the broker is back."""
        settings = settings or MessagingSettings.from_env()
        client: Client | None = None
        connection_log = _ConnectionLog()
        async for attempt in stamina.retry_context(
            on=(OSError, nats.errors.Error, TimeoutError),
            attempts=settings.publish_attempts,
            wait_max=2.0,
        ):
            with attempt:
                client = await nats.connect(
                    settings.servers,
                    name=name,
                    connect_timeout=2,
                    reconnect_time_wait=0.25,
                    max_reconnect_attempts=-1,
                    error_cb=connection_log.error,
                    disconnected_cb=connection_log.disconnected,
                    reconnected_cb=connection_log.reconnected,
                )
        assert client is not None
        broker = cls(client, settings, connection_log)
        if ensure_streams:
            try:
                await broker.ensure_streams()
            except BaseException:
                await client.close()
                raise
        return broker

    async def close(self) -> None:
        self._connection_log.closing = True
        await self.client.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        error_type: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def dead_letters(self) -> JetStreamDeadLetters:
        return self._dead_letters

    async def ensure_streams(self) -> None:
        """Create the events and DLQ streams, or update them to these settings."""
        settings = self.settings
        for name, subject in (
            (settings.stream, self.subjects.all),
            (settings.dlq_stream, f"{settings.dlq_prefix}.>"),
        ):
            config = StreamConfig(
                name=name,
                subjects=[subject],
                num_replicas=settings.replicas,
                duplicate_window=settings.duplicate_window,
            )
            await self.retrying(functools.partial(self._create_or_update, config))

    async def _create_or_update(self, config: StreamConfig) -> None:
        try:
            await self.js.add_stream(config)
        except nats.js.errors.BadRequestError as error:
            if (
                error.err_code != 10058
            ):  # a stream of that name exists, configured differently
                raise
            await self.js.update_stream(config)

    async def publish(self, message: Message) -> None:
        try:
            await self.retrying(
                lambda: self.js.publish(
                    message.subject,
                    message.data,
                    stream=self.settings.stream,
                    headers=dict(message.headers),
                )
            )
        except Exception as error:
            raise PublishError(f"{message.subject}: {error}") from error

    async def publish_batch(
        self, messages: Sequence[Message]
    ) -> list[Exception | None]:
        """Pipelined publishing: everything goes out, then the acks are awaited together
        (bounded by the publish timeout); a message without an ack gets its error."""
        outcomes: list[Exception | None] = [None] * len(messages)
        pending: list[tuple[str, asyncio.Future[None], int]] = []
        publish = self._acknowledging.publish
        try:
            for index, message in enumerate(messages):
                try:
                    token, future = await publish(
                        message.subject, message.data, message.headers
                    )
                except Exception as error:
                    outcomes[index] = error
                    continue
                pending.append((token, future, index))
            await self._acknowledged([future for _, future, _ in pending])
        finally:
            for token, future, index in pending:
                if not future.done():
                    future.cancel()
                    self._acknowledging.forget(token)
                    outcomes[index] = PublishError("no acknowledgement in time")
                elif future.cancelled():
                    outcomes[index] = PublishError("cancelled")
                elif (failure := future.exception()) is not None:
                    outcomes[index] = _exception(failure)
        return outcomes

    async def _acknowledged(self, futures: list[asyncio.Future[None]]) -> None:
        """Wait for ``futures`` until the publish timeout. Acks come in order, so wait
        for the last one, then for any stragglers (errors come out of order)."""
        if not futures:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.publish_timeout
        await asyncio.wait(futures[-1:], timeout=self.settings.publish_timeout)
        stragglers = [future for future in futures if not future.done()]
        if stragglers:
            await asyncio.wait(stragglers, timeout=max(0.0, deadline - loop.time()))

    async def start(
        self, subscription: Subscription, handler: Handler
    ) -> JetStreamWorker:
        return await start_worker(self, subscription, handler)

    def stream(
        self, subscription: Subscription
    ) -> AbstractAsyncContextManager[AsyncIterator[Delivery]]:
        return message_stream(self, subscription)

    async def retrying(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call()``, retried with backoff while it fails transiently."""
        return await retrying(call, attempts=self.settings.publish_attempts)


def _exception(error: BaseException) -> Exception:
    return error if isinstance(error, Exception) else PublishError(repr(error))


async def run_connected(
    url: Callable[[], str],
    work: Callable[[JetStreamBroker], Awaitable[None]],
    *,
    name: str | None = None,
    retry_delay: float = 1.0,
    replicas: int = 1,
) -> None:
    """Run ``work`` on a broker connection until cancelled: connecting again while the
    broker at ``url()`` is unreachable, and after ``work`` ends or fails (logged), so a
    background relay or consumer never stops quietly. The streams are kept on
    ``replicas`` servers of a cluster."""
    while True:
        address = url()
        try:
            broker = await JetStreamBroker.connect(
                MessagingSettings(url=address, replicas=replicas), name=name
            )
        except Exception as error:
            log.warning("broker %s unreachable (%s); trying again", address, error)
            await asyncio.sleep(retry_delay)
            continue
        try:
            await work(broker)
        except (nats.errors.Error, TimeoutError, OSError) as error:
            # The broker's trouble (a timeout, a lost connection): expected, retried.
            log.warning(
                "%s lost broker %s (%s: %s); connecting again",
                name,
                address,
                type(error).__name__,
                error,
            )
        except Exception:
            log.exception("%s failed on broker %s; connecting again", name, address)
        finally:
            await broker.close()
        await asyncio.sleep(retry_delay)
