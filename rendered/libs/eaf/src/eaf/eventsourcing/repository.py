"""Loading and saving event-sourced aggregates: snapshot + later events, upcast on read."""

from __future__ import annotations

import logging
from typing import Generic, TypeVar

from eaf.eventsourcing.aggregate import Aggregate
from eaf.eventsourcing.errors import AggregateNotFoundError
from eaf.eventsourcing.ports import EventStore, Snapshot, SnapshotStore
from eaf.eventsourcing.records import StoredEvent
from eaf.eventsourcing.registry import EventRegistry

A = TypeVar("A", bound=Aggregate)

__all__ = ["EventSourcedRepository"]

_log = logging.getLogger(__name__)


class EventSourcedRepository(Generic[A]):
    """Aggregates of one type in an event store, for the current tenant.

    With a snapshot store and ``snapshot_interval=N``, a snapshot is taken each time a
    save crosses a multiple of N events, and loading starts from the latest snapshot.
    """

    def __init__(
        self,
        aggregate_type: type[A],
        events: EventStore,
        registry: EventRegistry,
        *,
        snapshots: SnapshotStore | None = None,
        snapshot_interval: int | None = None,
    ) -> None:
        if snapshot_interval is not None and snapshot_interval < 1:
            raise ValueError("snapshot_interval must be positive")
        self._type = aggregate_type
        self._events = events
        self._registry = registry
        self._snapshots = snapshots
        self._interval = snapshot_interval if snapshots is not None else None

    async def get(self, aggregate_id: str) -> A | None:
        """The aggregate, or None when it has no events."""
        aggregate = self._type(aggregate_id)
        snapshot = await self._latest_snapshot(aggregate_id)
        if snapshot is not None:
            aggregate.restore_snapshot_state(snapshot.state)
            aggregate.version = snapshot.version
        stored = await self._events.read_stream(
            self._type.stream_type, aggregate_id, after_version=aggregate.version
        )
        for event in stored:
            aggregate.apply(self._registry.decode(event))
        return aggregate if aggregate.version > 0 else None

    async def load(self, aggregate_id: str) -> A:
        """The aggregate; raises AggregateNotFoundError when it has no events."""
        aggregate = await self.get(aggregate_id)
        if aggregate is None:
            raise AggregateNotFoundError(
                f"{self._type.stream_type} {aggregate_id} not found"
            )
        return aggregate

    async def save(self, aggregate: A) -> list[StoredEvent]:
        """Append the pending events, expecting the version the aggregate was loaded at."""
        pending = aggregate.pending_events
        if not pending:
            return []
        expected = aggregate.version - len(pending)
        stored = await self._events.append(
            aggregate.stream_type,
            aggregate.id,
            [self._registry.encode(event) for event in pending],
            expected_version=expected,
        )
        aggregate.mark_saved()
        if (
            self._interval is not None
            and aggregate.version // self._interval > expected // self._interval
        ):
            await self._take_snapshot(aggregate)
        return stored

    async def _latest_snapshot(self, aggregate_id: str) -> Snapshot | None:
        if self._snapshots is None:
            return None
        snapshot = await self._snapshots.latest(self._type.stream_type, aggregate_id)
        if snapshot is None or snapshot.state_version != self._type.snapshot_version:
            return None
        return snapshot

    async def _take_snapshot(self, aggregate: A) -> None:
        assert self._snapshots is not None
        snapshot = Snapshot(
            stream_type=aggregate.stream_type,
            stream_id=aggregate.id,
            version=aggregate.version,
            state=aggregate.snapshot_state(),
            state_version=aggregate.snapshot_version,
        )
        try:
            await self._snapshots.save(snapshot)
        except (
            Exception
        ):  # the events are committed; a missing snapshot only costs replay
            _log.exception(
                "could not save a snapshot of %s %s",
                aggregate.stream_type,
                aggregate.id,
            )
