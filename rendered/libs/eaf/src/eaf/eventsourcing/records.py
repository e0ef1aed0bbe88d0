"""What the event store writes and reads: new events, stored events and their metadata."""

from __future__ import annotations

import json
import os
import random
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from eaf.context import TRACE_HEADERS, SecurityContext, trace_headers
from eaf.eventsourcing.outbox import OutboxMessage


@dataclass(frozen=True)
class EventMetadata:
    """Who caused an event, for which tenant, within which correlation."""

    tenant_id: str
    correlation_id: str
    user_id: str | None = None
    causation_id: str | None = None
    trace: tuple[tuple[str, str], ...] = ()
    """The W3C trace context (``traceparent``, ``tracestate``) the event was written in:
    the relay sends it as message headers, so consumers continue the trace."""

    @classmethod
    def from_context(cls, context: SecurityContext, tenant_id: str) -> EventMetadata:
        return cls(
            tenant_id=tenant_id,
            correlation_id=context.correlation_id,
            user_id=context.user_id,
            causation_id=context.causation_id,
            trace=tuple(trace_headers().items()),
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, str]) -> EventMetadata:
        return cls(
            tenant_id=data["tenant_id"],
            correlation_id=data["correlation_id"],
            user_id=data.get("user_id"),
            causation_id=data.get("causation_id"),
            trace=tuple((name, data[name]) for name in TRACE_HEADERS if name in data),
        )

    def as_dict(self) -> dict[str, str]:
        data = {"tenant_id": self.tenant_id, "correlation_id": self.correlation_id}
        if self.user_id is not None:
            data["user_id"] = self.user_id
        if self.causation_id is not None:
            data["causation_id"] = self.causation_id
        data.update(self.trace)
        return data


_UUID7_VERSION_AND_VARIANT = (0x7 << 76) | (0b10 << 62)
_UUID7_RAND_A = 0xFFF << 64
_UUID7_RAND_B = (1 << 62) - 1
# The random bits of ids: a generator of our own, seeded from os.urandom (a syscall per
# id costs more than the rest of uuid7), reseeded in a forked child so that parent and
# child never share a sequence, and untouched by random.seed() in application code.
_random = random.Random()
os.register_at_fork(after_in_child=_random.seed)
_new_uuid = object.__new__
_set = object.__setattr__
_SAFE_UNKNOWN = uuid.SafeUUID.unknown


def uuid7() -> uuid.UUID:
    """A time-ordered UUID (RFC 9562 version 7): 48 bits of Unix milliseconds, then 74
    random bits. Ids made in order land at the right edge of an index on them, rather
    than on a random page of it as random (version 4) ids do."""
    rand = _random.getrandbits(74)
    value = (
        (time.time_ns() // 1_000_000) << 80
        | _UUID7_VERSION_AND_VARIANT
        | ((rand << 2) & _UUID7_RAND_A)
        | (rand & _UUID7_RAND_B)
    )
    # What uuid.UUID(int=value) makes, without re-checking a value built in range.
    made: uuid.UUID = _new_uuid(uuid.UUID)
    _set(made, "int", value)
    _set(made, "is_safe", _SAFE_UNKNOWN)
    return made


@dataclass(frozen=True)
class NewEvent:
    """An event about to be appended; the store adds position, version and metadata."""

    event_type: str
    payload: Mapping[str, Any]
    schema_version: int = 1
    event_id: uuid.UUID = field(default_factory=uuid7)


@dataclass(frozen=True)
class StreamAppend:
    """One stream's part of a multi-stream append: ``events`` after ``expected_version``
    (0: a new stream); with no events, an assertion that the stream is at that version."""

    stream_type: str
    stream_id: str
    events: Sequence[NewEvent]
    expected_version: int


def check_distinct_streams(appends: Sequence[StreamAppend]) -> None:
    """Raise ValueError when two entries of one multi-stream append name the same stream."""
    seen: set[tuple[str, str]] = set()
    for entry in appends:
        key = (entry.stream_type, entry.stream_id)
        if key in seen:
            raise ValueError(
                f"stream {entry.stream_type}/{entry.stream_id} appears twice in one append"
            )
        seen.add(key)


@dataclass(frozen=True)
class StoredEvent:
    """An event as recorded: ``position`` is its place in the global order (the tracking
    token), ``stream_version`` its place in its stream (1, 2, 3, ...)."""

    position: int
    event_id: uuid.UUID
    tenant_id: str
    stream_type: str
    stream_id: str
    stream_version: int
    event_type: str
    schema_version: int
    payload: dict[str, Any]
    metadata: EventMetadata
    recorded_at: datetime

    def reaction_context(self) -> SecurityContext:
        """The context for work this event causes: same tenant, user and correlation,
        with this event as the cause."""
        return SecurityContext(
            tenant_id=self.metadata.tenant_id,
            user_id=self.metadata.user_id,
            correlation_id=self.metadata.correlation_id,
            causation_id=str(self.event_id),
        )

    def to_outbox_message(self, body: bytes | None = None) -> OutboxMessage:
        """The outbox entry of this event; ``body``: its payload as stored (JSON)."""
        return OutboxMessage(
            position=self.position,
            event_id=str(self.event_id),
            tenant_id=self.tenant_id,
            stream_type=self.stream_type,
            stream_id=self.stream_id,
            stream_version=self.stream_version,
            event_type=self.event_type,
            schema_version=self.schema_version,
            payload=self.payload,
            metadata=self.metadata.as_dict(),
            recorded_at=self.recorded_at,
            body=body,
        )


def utc_now() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """``moment`` in UTC; naive values (SQLite returns those) are taken to be UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def json_copy(payload: Mapping[str, Any]) -> dict[str, Any]:
    """A deep copy through JSON: rejects what a database could not store, as they would."""
    copied: dict[str, Any] = json.loads(json.dumps(payload))
    return copied
