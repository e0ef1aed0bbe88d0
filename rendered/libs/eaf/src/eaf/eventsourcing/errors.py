"""The errors the event-sourcing runtime raises."""

from __future__ import annotations


class EventSourcingError(Exception):
    """Base class of every error raised by :mod:`eaf.eventsourcing`."""


class ConcurrencyError(EventSourcingError):
    """Another writer appended to the stream first: reload and retry the command."""

    def __init__(
        self, stream_type: str, stream_id: str, expected: int, actual: int | None
    ) -> None:
        self.stream_type = stream_type
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual
        found = "a concurrent write" if actual is None else f"version {actual}"
        super().__init__(
            f"stream {stream_type}/{stream_id}: expected version {expected}, found {found}"
        )


class DuplicateEventError(EventSourcingError):
    """An event with the same event id is already stored."""


class AggregateNotFoundError(EventSourcingError):
    """No events are stored for this aggregate (in the current tenant)."""


class UnknownEventTypeError(EventSourcingError):
    """An event type name or class that is not in the event registry."""


class UpcastError(EventSourcingError):
    """A stored event cannot be brought to the schema version the code expects."""


class DuplicateKeyError(EventSourcingError):
    """Another aggregate of the tenant already has this value of a unique field; ``holder``
    the kind that has it, when another kind's key shares the values of ``kind``'s."""

    def __init__(self, kind: str, field: str, *, holder: str | None = None) -> None:
        self.kind = kind
        self.field = field
        self.holder = holder
        super().__init__(f"{holder_phrase(kind, holder)} has this {field}")


def holder_phrase(kind: str, holder: str | None) -> str:
    """Who has a value: ``another Room``, or ``an Organization`` (another kind)."""
    if holder is None or holder == kind:
        return f"another {kind}"
    return f"{'an' if holder[:1] in 'AEIOU' else 'a'} {holder}"


class PreconditionFailedError(EventSourcingError):
    """The aggregate is not at the version the caller read (HTTP If-Match)."""

    def __init__(self, expected: int, actual: int, detail: str | None = None) -> None:
        self.expected = expected
        self.actual = actual
        self.detail = detail
        """What the answer says (default: the resource changed since it was read)."""
        super().__init__(f"expected version {expected}, the aggregate is at {actual}")


class IdempotencyKeyReusedError(EventSourcingError):
    """An idempotency key already used by a different request."""

    def __init__(self) -> None:
        super().__init__("this Idempotency-Key was used for a different request")


class StoreUnavailableError(EventSourcingError):
    """The event store cannot write now (a read-only or full disk, an I/O error, a lost
    database connection): nothing was stored; the same request may succeed later."""


class NotYetProjected(TimeoutError):
    """A read model did not take in the tenant's stored events in time (a consistent
    read, ``ReadModel.caught_up_with``): the same request may succeed a moment later."""
