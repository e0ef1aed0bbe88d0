"""The ports of the event-sourcing runtime: event store, snapshot store, saga store.

Every port is tenant-scoped through :mod:`eaf.context`: the tenant comes from the current
security context, never from an argument, so no call can reach another tenant's data.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from eaf.eventsourcing.records import NewEvent, StoredEvent, StreamAppend


class EventStore(Protocol):
    """Streams of events with optimistic concurrency and one global order."""

    async def append(
        self,
        stream_type: str,
        stream_id: str,
        events: Sequence[NewEvent],
        *,
        expected_version: int,
    ) -> list[StoredEvent]:
        """Append ``events`` atomically after ``expected_version`` (0: a new stream),
        writing them to the outbox in the same transaction. Raises ConcurrencyError when
        the stream is at another version."""
        ...

    async def append_streams(
        self, appends: Sequence[StreamAppend]
    ) -> list[list[StoredEvent]]:
        """Append to several streams of the current tenant atomically: every entry is
        stored or none is. An entry without events writes nothing and asserts that its
        stream is at ``expected_version`` up to the commit. Returns each entry's stored
        events, in ``appends`` order, positions increasing in that order. Raises
        ValueError when a stream appears twice, ConcurrencyError naming the first entry
        whose stream is at another version, DuplicateEventError when an event id is
        already stored."""
        ...

    async def read_stream(
        self, stream_type: str, stream_id: str, *, after_version: int = 0
    ) -> list[StoredEvent]:
        """The stream's events with a version above ``after_version``, in order."""
        ...

    async def stream_version(self, stream_type: str, stream_id: str) -> int:
        """The version of the stream's last event; 0 for a stream with no events."""
        ...

    async def read_all(
        self,
        *,
        after: int = 0,
        limit: int = 500,
        event_types: Collection[str] | None = None,
    ) -> list[StoredEvent]:
        """Events with a position above ``after`` in global order: the current tenant's,
        or every tenant's in a platform context. A reader that passes the last position
        it saw as ``after`` sees every committed event exactly once."""
        ...


@dataclass(frozen=True)
class Snapshot:
    """An aggregate's state at ``version``; ``state_version`` is the shape of ``state``."""

    stream_type: str
    stream_id: str
    version: int
    state: dict[str, Any]
    state_version: int = 1


class SnapshotStore(Protocol):
    """The latest snapshot per stream of the current tenant (a cache: losing it is safe)."""

    async def save(self, snapshot: Snapshot) -> None:
        """Keep ``snapshot`` unless a snapshot at a higher version is already stored."""
        ...

    async def latest(self, stream_type: str, stream_id: str) -> Snapshot | None: ...


@dataclass(frozen=True)
class SagaState:
    """A saga instance's persisted state. ``revision`` guards against two runners
    updating the same instance; ``last_position`` makes redelivered events no-ops."""

    saga_type: str
    association: str
    state: dict[str, Any] = field(default_factory=dict)
    ended: bool = False
    last_position: int = 0
    revision: int = 0


class SagaStore(Protocol):
    """Saga instances of the current tenant, keyed by (saga type, association value),
    and the platform-level tracking positions of saga runners."""

    async def load(self, saga_type: str, association: str) -> SagaState | None: ...

    async def save(self, saga: SagaState) -> SagaState:
        """Store ``saga`` if the stored revision still equals ``saga.revision`` (0: new);
        returns it with the next revision. Raises ConcurrencyError otherwise."""
        ...

    async def tracking_position(self, runner: str) -> int:
        """The last global position ``runner`` processed (0 at first)."""
        ...

    async def save_tracking_position(self, runner: str, position: int) -> None: ...
