"""The NATS source: a durable JetStream pull consumer feeding a projector.

Messages are applied a fetched batch at a time. Redelivered messages are recognised by
their event id, remembered in the same transaction as the read-model change, so they
are acknowledged without being applied again; acknowledgements go out only after the
commit. An event the projector dead-letters is recorded in its dead-letter table and
also stored in the messaging layer's DLQ (from where ``eaf dlq replay`` can send it
back: dead-lettered ids are not remembered, so a replay is applied).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import nats.errors
import nats.js.errors
from nats.aio.msg import Msg

from eaf.eventsourcing.records import EventMetadata, StoredEvent, utc_now
from eaf.messaging.jetstream import JetStreamBroker
from eaf.messaging.jetstream_consumers import consumer_config
from eaf.messaging.jetstream_pull import PullConsumer, delivered
from eaf.messaging.message import Delivery, Header, received
from eaf.messaging.ports import Subscription
from eaf.messaging.subjects import PLATFORM_TENANT
from eaf.projectors.ports import DeadLetterRecord
from eaf.projectors.projector import Projector

log = logging.getLogger("eaf.projectors")

TOP_UP_WAIT = 0.01
"""How long a pull that tops up a partly filled batch waits for more."""


_decode = json.JSONDecoder().decode
"""Bodies are UTF-8 (RFC 8259 on the wire): no encoding detection per message."""


class NotAnEvent(ValueError):
    """A message whose body is not a JSON object: it can never be projected."""


def stored_event(msg: Msg) -> StoredEvent:
    """The event a JetStream message carries; ``position`` is its stream sequence."""
    headers = msg.headers or {}
    try:
        payload = _decode(msg.data.decode())
    except ValueError as error:
        raise NotAnEvent(f"the body is not JSON: {error}") from error
    except RecursionError:
        raise NotAnEvent("the body is not JSON: it nests too deep to be read") from None
    if not isinstance(payload, dict):
        raise NotAnEvent("the body is not a JSON object")
    position = delivered(msg)
    sequence = position.stream_sequence
    raw_id = (
        headers.get(Header.EVENT_ID)
        or headers.get(Header.MSG_ID)
        or f"sequence-{sequence}"
    )
    try:
        event_id = uuid.UUID(raw_id)
    except ValueError:
        event_id = uuid.uuid5(uuid.NAMESPACE_URL, raw_id)
    tenant = headers.get(Header.TENANT) or PLATFORM_TENANT
    return StoredEvent(
        position=sequence,
        event_id=event_id,
        tenant_id=tenant,
        stream_type=headers.get(Header.STREAM_TYPE, ""),
        stream_id=headers.get(Header.STREAM_ID, ""),
        stream_version=int(headers.get(Header.STREAM_VERSION, "0")),
        event_type=headers.get(Header.EVENT_TYPE, ""),
        schema_version=int(headers.get(Header.SCHEMA_VERSION, "1")),
        payload=payload,
        metadata=EventMetadata(
            tenant_id=tenant,
            correlation_id=headers.get(Header.CORRELATION, raw_id),
            user_id=headers.get(Header.USER),
            causation_id=headers.get(Header.CAUSATION),
        ),
        recorded_at=datetime.fromtimestamp(position.timestamp_ns / 1e9, UTC),
    )


@dataclass(frozen=True)
class Fetched:
    """A fetched batch: the events, and the messages that carry no event."""

    messages: list[Msg]
    events: list[StoredEvent]
    poison: list[tuple[Msg, str]]


class JetStreamSource:
    """Feeds a projector from the durable consumer ``durable`` (one per projection;
    run one instance, or several sharing the work without an order guarantee).

    Filters default to the projection's event types. Each step is public so a test
    can stop between commit and acknowledgement, as a crash would."""

    def __init__(
        self,
        projector: Projector,
        broker: JetStreamBroker,
        *,
        durable: str | None = None,
        tenants: Sequence[str] = (),
        services: Sequence[str] = (),
        event_types: Sequence[str] | None = None,
        batch_size: int = 256,
        fetch_timeout: float = 1.0,
        backoff_max: float = 5.0,
    ) -> None:
        self.projector = projector
        self.broker = broker
        self.subscription = Subscription(
            durable=durable or projector.name,
            tenants=tuple(tenants),
            services=tuple(services),
            event_types=tuple(
                projector.projection.event_types if event_types is None else event_types
            ),
            batch_size=batch_size,
        )
        self.fetch_timeout = fetch_timeout
        self.backoff_max = backoff_max
        self.dead_letters: list[DeadLetterRecord] = []
        self._pull: PullConsumer | None = None
        self._ahead: asyncio.Task[Fetched] | None = None

    @property
    def durable(self) -> str:
        assert self.subscription.durable is not None
        return self.subscription.durable

    async def start(self) -> None:
        """Create the projection's tables and bind to (or create) the consumer. When
        the projection's fingerprint changed and its read model was dropped, the
        consumer is made anew: it delivers the stream again from its first message
        (as much as the stream still holds)."""
        rebuilt = await self.projector.start()
        config = consumer_config(self.broker, self.subscription, self.durable)
        stream = self.broker.settings.stream
        js = self.broker.js
        if rebuilt is not None:
            with contextlib.suppress(nats.js.errors.NotFoundError):
                await js.delete_consumer(stream, self.durable)
        await self.broker.retrying(lambda: js.add_consumer(stream, config))
        self._pull = await PullConsumer.bind(self.broker.client, stream, self.durable)

    async def close(self) -> None:
        # A batch fetched ahead, and what arrived for it, go back to the consumer now
        # (not after the acknowledgement wait).
        unapplied: list[Msg] = []
        ahead, self._ahead = self._ahead, None
        if ahead is not None:
            ahead.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                unapplied += (await ahead).messages
        if self._pull is not None:
            pull, self._pull = self._pull, None
            with contextlib.suppress(nats.errors.Error):
                await pull.unsubscribe()
            unapplied += pull.take_received()
        for msg in unapplied:
            with contextlib.suppress(nats.errors.Error):
                await msg.nak()

    async def fetch(self, timeout: float | None = None) -> Fetched:
        """The next batch (empty when nothing arrived within ``timeout``)."""
        if self._pull is None:
            raise RuntimeError("start the source first")
        size = self.subscription.batch_size
        try:
            messages = await self._pull.fetch(
                size, timeout=self.fetch_timeout if timeout is None else timeout
            )
        except TimeoutError:
            return Fetched([], [], [])
        # A pull returns what the server has at hand; in a backlog, top the batch up
        # (a round trip costs far less than the transaction a fuller batch saves).
        while len(messages) < size:
            try:
                more = await self._pull.fetch(size - len(messages), timeout=TOP_UP_WAIT)
            except TimeoutError:
                break
            if not more:
                break
            messages += more
        events: list[StoredEvent] = []
        poison: list[tuple[Msg, str]] = []
        for msg in messages:
            try:
                events.append(stored_event(msg))
            except NotAnEvent as error:
                poison.append((msg, f"Poison: {error}"))
        return Fetched(messages, events, poison)

    async def apply(self, fetched: Fetched) -> list[DeadLetterRecord]:
        """Commit the batch (skipping what was applied before); nothing is acked."""
        dead: list[DeadLetterRecord] = []
        for msg, reason in fetched.poison:
            letter = _poison_letter(self.projector.name, msg, reason)
            await self.projector.store.dead_letter(
                self.projector.projection, letter, dedup="event_id"
            )
            dead.append(letter)
        if fetched.events:
            dead += await self.projector.project(fetched.events, dedup="event_id")
        return dead

    async def settle(self, fetched: Fetched, dead: list[DeadLetterRecord]) -> None:
        """After the commit: dead letters go to the DLQ and are terminated, the rest
        is acknowledged."""
        reasons = {letter.position: letter.reason for letter in dead}
        for msg in fetched.messages:
            if not reasons:
                await msg.ack()
                continue
            position = delivered(msg)
            reason = reasons.get(position.stream_sequence)
            if reason is None:
                await msg.ack()
                continue
            delivery = Delivery(
                message=received(msg.subject, msg.data, msg.headers or {}),
                attempt=position.attempt,
                sequence=position.stream_sequence,
            )
            await self.broker.dead_letters.add(self.durable, reason, delivery)
            await msg.term()

    async def run_once(self, timeout: float | None = None) -> int:
        """Fetch, apply and settle one batch; how many messages it held. While a batch
        commits, the next one is fetched (the consumer allows two batches in flight), so
        a backlog drains at the pace of the commits rather than commits plus round
        trips."""
        ahead, self._ahead = self._ahead, None
        fetched = await (ahead if ahead is not None else self.fetch(timeout))
        if fetched.messages:
            self._ahead = asyncio.get_running_loop().create_task(self.fetch(timeout))
        try:
            dead = await self.apply(fetched)
        except Exception:
            for msg in fetched.messages:
                with contextlib.suppress(nats.errors.Error):
                    await msg.nak(delay=1.0)
            raise
        self.dead_letters += dead
        await self.settle(fetched, dead)
        return len(fetched.messages)

    async def run(self, stop: asyncio.Event) -> None:
        """Consume until ``stop`` is set; failures back off and the batch is
        redelivered (applied parts are recognised then)."""
        delay = 0.1
        while not stop.is_set():
            try:
                await self.run_once()
            except Exception as error:
                log.warning("%s: %s; retrying in %.2fs", self.durable, error, delay)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=delay)
                delay = min(delay * 2, self.backoff_max)
                continue
            delay = 0.1


def _poison_letter(projection: str, msg: Msg, reason: str) -> DeadLetterRecord:
    headers = msg.headers or {}
    position = delivered(msg)
    sequence = position.stream_sequence
    return DeadLetterRecord(
        projection=projection,
        position=sequence,
        event_id=headers.get(Header.EVENT_ID) or f"sequence-{sequence}",
        event_type=headers.get(Header.EVENT_TYPE, ""),
        tenant_id=headers.get(Header.TENANT, PLATFORM_TENANT),
        reason=reason,
        attempts=position.attempt or 1,
        failed_at=utc_now(),
    )
