"""Messages on the wire: an event's subject, JSON body and headers."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from eaf.context import SecurityContext, current_or_none
from eaf.messaging.subjects import PLATFORM_TENANT, Subjects

if TYPE_CHECKING:
    from eaf.eventsourcing.outbox import OutboxMessage


class Header:
    """Header names (context headers as in ``SecurityContext.to_headers``)."""

    MSG_ID = "Nats-Msg-Id"
    EVENT_ID = "Eaf-Event-Id"
    EVENT_TYPE = "Eaf-Event-Type"
    SCHEMA_VERSION = "Eaf-Schema-Version"
    SERVICE = "Eaf-Service"
    STREAM_TYPE = "Eaf-Stream-Type"
    STREAM_ID = "Eaf-Stream-Id"
    STREAM_VERSION = "Eaf-Stream-Version"
    TENANT = "X-Tenant-Id"
    USER = "X-User-Id"
    CORRELATION = "X-Correlation-Id"
    CAUSATION = "X-Causation-Id"
    ORIGINAL_SUBJECT = "Eaf-Original-Subject"
    DLQ_REASON = "Eaf-Dlq-Reason"
    DLQ_ATTEMPTS = "Eaf-Dlq-Attempts"
    DLQ_DURABLE = "Eaf-Dlq-Durable"
    DLQ_SEQUENCE = "Eaf-Dlq-Stream-Sequence"
    DLQ_FAILED_AT = "Eaf-Dlq-Failed-At"


DLQ_HEADERS = frozenset(
    {
        Header.DLQ_REASON,
        Header.DLQ_ATTEMPTS,
        Header.DLQ_DURABLE,
        Header.DLQ_SEQUENCE,
        Header.DLQ_FAILED_AT,
    }
)

# Outbox metadata keys (``EventMetadata.as_dict``) as headers; others pass unchanged.
_METADATA_HEADERS = {
    "tenant_id": Header.TENANT,
    "user_id": Header.USER,
    "correlation_id": Header.CORRELATION,
    "causation_id": Header.CAUSATION,
}


@dataclass(frozen=True, slots=True)
class Message:
    """An event as the broker carries it."""

    subject: str
    data: bytes
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def event_id(self) -> str:
        return self.headers.get(Header.EVENT_ID) or self.headers.get(Header.MSG_ID, "")

    @property
    def event_type(self) -> str:
        return self.headers.get(Header.EVENT_TYPE, "")

    @property
    def tenant_id(self) -> str | None:
        return self.headers.get(Header.TENANT)

    @property
    def schema_version(self) -> int:
        return int(self.headers.get(Header.SCHEMA_VERSION, "1"))

    @property
    def tenant_matches_subject(self) -> bool:
        """Whether an event subject's tenant token is the tenant in the headers."""
        tokens = self.subject.split(".")
        if len(tokens) != 4:
            return True
        subject_tenant = None if tokens[1] == PLATFORM_TENANT else tokens[1]
        return subject_tenant == self.tenant_id

    def json(self) -> Any:
        """The body decoded from JSON; ``ValueError`` when it is no JSON or nests deeper
        than the parser can follow (either way no retry can read it)."""
        try:
            return json.loads(self.data)
        except RecursionError:
            raise ValueError("the JSON body nests too deep to be read") from None

    def context(self) -> SecurityContext:
        """The security context the event was written in, one causal step later:
        work done while handling it is caused by this event."""
        event_id = self.event_id
        if not event_id:
            return SecurityContext.from_headers(self.headers)
        return SecurityContext.from_headers(
            {**self.headers, Header.CAUSATION: event_id}
        )


@dataclass(frozen=True, slots=True)
class Delivery:
    """One delivery of a message to a consumer."""

    message: Message
    attempt: int
    sequence: int

    @property
    def event_type(self) -> str:
        return self.message.event_type

    @property
    def tenant_id(self) -> str | None:
        return self.message.tenant_id

    def json(self) -> Any:
        return self.message.json()


def received(subject: str, data: bytes, headers: Mapping[str, str]) -> Message:
    """A message as a consumer sees it: a replayed one shows its original subject."""
    return Message(
        subject=headers.get(Header.ORIGINAL_SUBJECT, subject),
        data=data,
        headers=headers,
    )


def original(message: Message) -> Message:
    """``message`` without the headers added when it was dead-lettered or replayed."""
    headers = {
        key: value
        for key, value in message.headers.items()
        if key not in DLQ_HEADERS and key != Header.ORIGINAL_SUBJECT
    }
    if Header.EVENT_ID in headers:
        headers[Header.MSG_ID] = headers[Header.EVENT_ID]
    return Message(subject=message.subject, data=message.data, headers=headers)


_ENCODER = json.JSONEncoder(separators=(",", ":"), default=str)
"""One encoder for every body: ``json.dumps`` with options builds a new one per call."""


def encode(payload: Mapping[str, Any]) -> bytes:
    return _ENCODER.encode(payload).encode()


def event_message(
    subjects: Subjects,
    *,
    service: str,
    event_type: str,
    payload: Mapping[str, Any],
    context: SecurityContext | None = None,
    event_id: str | None = None,
    schema_version: int = 1,
) -> Message:
    """A message for an event published outside the outbox, in ``context`` (by default
    the current one); platform events carry no tenant."""
    context = context if context is not None else current_or_none()
    headers = context.to_headers() if context is not None else {}
    tenant = context.tenant_id if context is not None else None
    event_id = event_id or str(uuid.uuid4())
    headers.update(
        {
            Header.MSG_ID: event_id,
            Header.EVENT_ID: event_id,
            Header.EVENT_TYPE: event_type,
            Header.SCHEMA_VERSION: str(schema_version),
            Header.SERVICE: service,
        }
    )
    return Message(
        subject=subjects.event(tenant, service, event_type),
        data=encode(payload),
        headers=headers,
    )


def outbox_message(subjects: Subjects, service: str, stored: OutboxMessage) -> Message:
    """The message relaying ``stored``; its event id becomes ``Nats-Msg-Id`` so that a
    relay retrying after a crash cannot publish it twice within the duplicate window."""
    tenant = None if stored.tenant_id == PLATFORM_TENANT else stored.tenant_id
    event_id = stored.event_id
    headers = {Header.CORRELATION: event_id}
    for key, value in stored.metadata.items():
        headers[_METADATA_HEADERS.get(key, key)] = value
    if tenant is None:
        headers.pop(Header.TENANT, None)
    else:
        headers[Header.TENANT] = tenant
    headers[Header.MSG_ID] = event_id
    headers[Header.EVENT_ID] = event_id
    headers[Header.EVENT_TYPE] = stored.event_type
    headers[Header.SCHEMA_VERSION] = str(stored.schema_version)
    headers[Header.SERVICE] = service
    headers[Header.STREAM_TYPE] = stored.stream_type
    headers[Header.STREAM_ID] = stored.stream_id
    headers[Header.STREAM_VERSION] = str(stored.stream_version)
    return Message(
        subject=subjects.event(tenant, service, stored.event_type),
        data=encode(stored.payload) if stored.body is None else stored.body,
        headers=headers,
    )
