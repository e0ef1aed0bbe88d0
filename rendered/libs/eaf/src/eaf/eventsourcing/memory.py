"""In-memory adapters of every port, for unit tests and the zero-set-up default."""

from __future__ import annotations

import copy
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace

from eaf.context import current
from eaf.eventsourcing.errors import ConcurrencyError, DuplicateEventError
from eaf.eventsourcing.outbox import InMemoryOutbox
from eaf.eventsourcing.ports import SagaState, Snapshot
from eaf.eventsourcing.records import (
    EventMetadata,
    NewEvent,
    StoredEvent,
    StreamAppend,
    check_distinct_streams,
    json_copy,
    utc_now,
)
from eaf.eventsourcing.scope import read_scope, write_tenant

_StreamKey = tuple[str, str, str]


def _stream(entry: StreamAppend) -> tuple[str, str]:
    return entry.stream_type, entry.stream_id


@dataclass
class InMemoryEventStore:
    """An event store in lists; ``outbox`` receives every appended event."""

    outbox: InMemoryOutbox = field(default_factory=InMemoryOutbox)
    _events: list[StoredEvent] = field(default_factory=list)
    _streams: dict[_StreamKey, list[StoredEvent]] = field(default_factory=dict)
    _event_ids: set[str] = field(default_factory=set)

    async def append(
        self,
        stream_type: str,
        stream_id: str,
        events: Sequence[NewEvent],
        *,
        expected_version: int,
    ) -> list[StoredEvent]:
        entry = StreamAppend(stream_type, stream_id, events, expected_version)
        (stored,) = await self.append_streams([entry])
        return stored

    async def append_streams(
        self, appends: Sequence[StreamAppend]
    ) -> list[list[StoredEvent]]:
        check_distinct_streams(appends)
        tenant = write_tenant()
        metadata = EventMetadata.from_context(current(), tenant)
        # Every check before any write: a refused entry leaves every stream untouched.
        for entry in appends:
            actual = len(self._streams.get((tenant, *_stream(entry)), []))
            if actual != entry.expected_version:
                raise ConcurrencyError(
                    entry.stream_type, entry.stream_id, entry.expected_version, actual
                )
        ids = [str(event.event_id) for entry in appends for event in entry.events]
        if len(set(ids)) != len(ids) or self._event_ids.intersection(ids):
            raise DuplicateEventError(f"an event id in {ids} is already stored")
        recorded_at = utc_now()
        appended: list[list[StoredEvent]] = []
        last = len(self._events)
        for entry in appends:
            stored = [
                StoredEvent(
                    position=last + offset,
                    event_id=event.event_id,
                    tenant_id=tenant,
                    stream_type=entry.stream_type,
                    stream_id=entry.stream_id,
                    stream_version=entry.expected_version + offset,
                    event_type=event.event_type,
                    schema_version=event.schema_version,
                    payload=json_copy(event.payload),
                    metadata=metadata,
                    recorded_at=recorded_at,
                )
                for offset, event in enumerate(entry.events, start=1)
            ]
            appended.append(stored)
            last += len(stored)
        # Only now, with every payload copied (json_copy refuses what JSON cannot hold).
        for entry, stored in zip(appends, appended, strict=True):
            key = (tenant, *_stream(entry))
            self._streams[key] = self._streams.get(key, []) + stored
            self._events.extend(stored)
            for event in stored:
                self.outbox.add(event.to_outbox_message())
        self._event_ids.update(ids)
        return [[copy.deepcopy(event) for event in stored] for stored in appended]

    async def read_stream(
        self, stream_type: str, stream_id: str, *, after_version: int = 0
    ) -> list[StoredEvent]:
        stream = self._streams.get((write_tenant(), stream_type, stream_id), [])
        return [copy.deepcopy(e) for e in stream[after_version:]]

    async def stream_version(self, stream_type: str, stream_id: str) -> int:
        return len(self._streams.get((write_tenant(), stream_type, stream_id), []))

    async def read_all(
        self,
        *,
        after: int = 0,
        limit: int = 500,
        event_types: Collection[str] | None = None,
    ) -> list[StoredEvent]:
        scope = read_scope()
        types = None if event_types is None else set(event_types)
        found: list[StoredEvent] = []
        for event in self._events[max(after, 0) :]:
            if len(found) >= limit:
                break
            if scope.allows(event.tenant_id) and (
                types is None or event.event_type in types
            ):
                found.append(copy.deepcopy(event))
        return found


@dataclass
class InMemorySnapshotStore:
    """Latest snapshots in a dict keyed by (tenant, stream type, stream id)."""

    _snapshots: dict[_StreamKey, Snapshot] = field(default_factory=dict)

    async def save(self, snapshot: Snapshot) -> None:
        key = (write_tenant(), snapshot.stream_type, snapshot.stream_id)
        stored = self._snapshots.get(key)
        if stored is None or stored.version < snapshot.version:
            self._snapshots[key] = replace(snapshot, state=json_copy(snapshot.state))

    async def latest(self, stream_type: str, stream_id: str) -> Snapshot | None:
        stored = self._snapshots.get((write_tenant(), stream_type, stream_id))
        return (
            None if stored is None else replace(stored, state=json_copy(stored.state))
        )


@dataclass
class InMemorySagaStore:
    """Saga instances and runner positions in dicts."""

    _sagas: dict[_StreamKey, SagaState] = field(default_factory=dict)
    _positions: dict[str, int] = field(default_factory=dict)

    async def load(self, saga_type: str, association: str) -> SagaState | None:
        stored = self._sagas.get((write_tenant(), saga_type, association))
        return (
            None if stored is None else replace(stored, state=json_copy(stored.state))
        )

    async def save(self, saga: SagaState) -> SagaState:
        key = (write_tenant(), saga.saga_type, saga.association)
        stored = self._sagas.get(key)
        actual = 0 if stored is None else stored.revision
        if actual != saga.revision:
            raise ConcurrencyError(
                "saga:" + saga.saga_type, saga.association, saga.revision, actual
            )
        saved = replace(saga, state=json_copy(saga.state), revision=saga.revision + 1)
        self._sagas[key] = saved
        return replace(saved, state=json_copy(saved.state))

    async def tracking_position(self, runner: str) -> int:
        return self._positions.get(runner, 0)

    async def save_tracking_position(self, runner: str, position: int) -> None:
        self._positions[runner] = position
