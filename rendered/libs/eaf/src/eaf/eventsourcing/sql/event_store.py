"""The event store on SQLAlchemy Core: SQLite by default, PostgreSQL for scale."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncConnection

from eaf.context import current, span
from eaf.eventsourcing.errors import StoreUnavailableError
from eaf.eventsourcing.records import (
    EventMetadata,
    NewEvent,
    StoredEvent,
    StreamAppend,
    check_distinct_streams,
)
from eaf.eventsourcing.scope import read_scope, write_tenant
from eaf.eventsourcing.sql import postgres, sqlite_reads
from eaf.eventsourcing.sql.database import Database
from eaf.eventsourcing.sql.faults import is_storage_fault
from eaf.eventsourcing.sql.outbox import SqlOutbox
from eaf.eventsourcing.sql.sagas import SqlSagaStore
from eaf.eventsourcing.sql.schema import row_to_event, select_events
from eaf.eventsourcing.sql.snapshots import SqlSnapshotStore
from eaf.eventsourcing.sql.sqlite_writer import SqliteWriter
from eaf.eventsourcing.sql.writers import (
    Appended,
    AppendRequest,
    PostgresWriter,
)
from eaf.metrics import APPEND_SECONDS, APPENDED_EVENTS

__all__ = ["SqlEventStore", "create_event_store"]

_new = object.__new__


async def create_event_store(
    url: str, *, create_schema: bool = True, **options: Any
) -> SqlEventStore:
    """An event store for ``sqlite+aiosqlite:///path.db`` or ``postgresql+asyncpg://...``.

    ``options`` go to :meth:`Database.open` (``busy_timeout``, ``sqlite_synchronous``,
    SQLAlchemy engine options such as ``pool_size``). Close it with ``await store.close()``.
    """
    store = SqlEventStore(Database.open(url, **options))
    try:
        if create_schema:
            await store.database.create_schema()
        await store.open()
    except BaseException:
        await store.close()
        raise
    return store


_PROBE_TABLE = (
    "CREATE TABLE IF NOT EXISTS eaf_write_probe "
    "(id INTEGER PRIMARY KEY, probed_at VARCHAR(40) NOT NULL)"
)


class SqlEventStore:
    """The SQL event store, with the outbox, snapshot and saga stores on the same database."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.outbox = SqlOutbox(database)
        self.snapshots = SqlSnapshotStore(database)
        self.sagas = SqlSagaStore(database)
        self._writer = (
            PostgresWriter(database) if database.postgres else SqliteWriter(database)
        )
        backend = "postgresql" if database.postgres else "sqlite"
        self._append_seconds = APPEND_SECONDS.labels(backend)
        self._appended_events = APPENDED_EVENTS.labels(backend)
        self.write_fault: str | None = None
        """Why the last append failed for a storage fault (None once one succeeded, or
        a probe wrote): readiness is down meanwhile."""

    async def open(self) -> None:
        """Ready the writer before the first append (on SQLite: its thread and
        connection); appends open it themselves otherwise."""
        if isinstance(self._writer, SqliteWriter):
            await self._writer.open()

    async def close(self) -> None:
        if isinstance(self._writer, SqliteWriter):
            await self._writer.close()
        await self.database.close()

    async def __aenter__(self) -> SqlEventStore:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    async def append(
        self,
        stream_type: str,
        stream_id: str,
        events: Sequence[NewEvent],
        *,
        expected_version: int,
    ) -> list[StoredEvent]:
        tenant = write_tenant()
        with span("event_store.append", {"eaf.events": len(events)}):
            metadata = EventMetadata.from_context(current(), tenant)
            request = AppendRequest(
                tenant,
                stream_type,
                stream_id,
                expected_version,
                len(events),
                *self._writer.encode_events(events),
                json.dumps(metadata.as_dict()),
            )
            stored = _Stored()
            appended = await self._append(
                (request,), lambda: stored.prepare(request, events, metadata)
            )
        return stored.finish(0, appended)

    async def append_streams(
        self, appends: Sequence[StreamAppend]
    ) -> list[list[StoredEvent]]:
        check_distinct_streams(appends)
        tenant = write_tenant()
        if not appends:
            return []
        count = sum(len(entry.events) for entry in appends)
        with span("event_store.append", {"eaf.events": count}):
            metadata = EventMetadata.from_context(current(), tenant)
            metadata_json = json.dumps(metadata.as_dict())
            encode = self._writer.encode_events
            unit = [
                AppendRequest(
                    tenant,
                    entry.stream_type,
                    entry.stream_id,
                    entry.expected_version,
                    len(entry.events),
                    *encode(entry.events),
                    metadata_json,
                )
                for entry in appends
            ]
            stored = [_Stored() for _ in unit]

            def prepare() -> None:
                for part, request, entry in zip(stored, unit, appends, strict=True):
                    part.prepare(request, entry.events, metadata)

            appended = await self._append(unit, prepare)
        return [part.finish(index, appended) for index, part in enumerate(stored)]

    async def _append(
        self, unit: Sequence[AppendRequest], meanwhile: Callable[[], None]
    ) -> Appended:
        """Append ``unit`` through the writer, calling ``meanwhile`` while it writes; a
        storage fault is a :class:`StoreUnavailableError` (nothing was stored)."""
        started = time.perf_counter()
        try:
            appended = await self._writer.append(unit, meanwhile)
        except Exception as error:
            if not is_storage_fault(error):
                raise
            self.write_fault = f"{type(error).__name__}: {error}"
            raise StoreUnavailableError(
                f"the event store cannot write now ({error})"
            ) from error
        self.write_fault = None
        self._append_seconds.observe(time.perf_counter() - started)
        self._appended_events.inc(sum(request.count for request in unit))
        return appended

    async def probe_write(self) -> bool:
        """Whether the store can write now: one row of its probe table, committed (only
        called while a write fault is known, so healthy stores write nothing)."""
        try:
            async with self.database.engine.begin() as connection:
                await connection.execute(text(_PROBE_TABLE))
                await connection.execute(text("DELETE FROM eaf_write_probe"))
                await connection.execute(
                    text("INSERT INTO eaf_write_probe (id, probed_at) VALUES (1, :at)"),
                    {"at": datetime.now(UTC).isoformat()},
                )
        except Exception as error:
            if not is_storage_fault(error):
                raise
            self.write_fault = f"{type(error).__name__}: {error}"
            return False
        self.write_fault = None
        return True

    async def read_stream(
        self, stream_type: str, stream_id: str, *, after_version: int = 0
    ) -> list[StoredEvent]:
        tenant = write_tenant()
        if "\x00" in stream_id:
            return []  # no stream has one: no stored text may hold a NUL character
        if not self.database.postgres:
            return await sqlite_reads.read_stream(
                self.database, tenant, stream_type, stream_id, after_version
            )
        events = self.database.tables.events
        query = (
            select_events(self.database.tables)
            .where(
                events.c.tenant_id == tenant,
                events.c.stream_type == stream_type,
                events.c.stream_id == stream_id,
                events.c.stream_version > after_version,
            )
            .order_by(events.c.stream_version)
        )
        async with self.database.transaction(tenant=tenant) as connection:
            rows = (await connection.execute(query)).all()
        return [row_to_event(row) for row in rows]

    async def stream_version(self, stream_type: str, stream_id: str) -> int:
        tenant = write_tenant()
        if "\x00" in stream_id:
            return 0  # as read_stream: no such stream
        async with self.database.transaction(tenant=tenant) as connection:
            return await self._version(connection, tenant, stream_type, stream_id)

    async def _version(
        self, connection: AsyncConnection, tenant: str, stream_type: str, stream_id: str
    ) -> int:
        events = self.database.tables.events
        version = await connection.scalar(
            select(func.coalesce(func.max(events.c.stream_version), 0)).where(
                events.c.tenant_id == tenant,
                events.c.stream_type == stream_type,
                events.c.stream_id == stream_id,
            )
        )
        return int(version or 0)

    async def read_all(
        self,
        *,
        after: int = 0,
        limit: int = 500,
        event_types: Collection[str] | None = None,
    ) -> list[StoredEvent]:
        scope = read_scope()
        if not self.database.postgres:
            return await sqlite_reads.read_all(
                self.database,
                after=after,
                limit=limit,
                tenant=scope.tenant_id,
                event_types=event_types,
            )
        events = self.database.tables.events
        query = (
            select_events(self.database.tables)
            .where(events.c.position > after)
            .order_by(events.c.position)
            .limit(limit)
        )
        if scope.tenant_id is not None:
            query = query.where(events.c.tenant_id == scope.tenant_id)
        if event_types is not None:
            query = query.where(events.c.event_type.in_(list(event_types)))
        if self.database.postgres:
            query = query.where(text(postgres.VISIBLE_HORIZON))
        async with self.database.transaction(
            tenant=scope.tenant_id, platform=scope.platform
        ) as connection:
            rows = (await connection.execute(query)).all()
        return [row_to_event(row) for row in rows]


class _Stored:
    """The stored events of one append, made while the writer writes it (payloads
    decoded from what is stored: the caller's own copies), then given the positions
    and the time the writer gives back."""

    def __init__(self) -> None:
        self.events: list[StoredEvent] = []

    def prepare(
        self,
        request: AppendRequest,
        events: Sequence[NewEvent],
        metadata: EventMetadata,
    ) -> None:
        if not events:
            return
        # The payloads decoded in one call (not one per event).
        decoded = json.loads(request.events_json)
        made_events = self.events
        for offset, (event, row) in enumerate(zip(events, decoded, strict=True)):
            # What StoredEvent(...) makes, at a third of the cost of its frozen
            # dataclass __init__ (one object.__setattr__ per field).
            made = _new(StoredEvent)
            made.__dict__.update(
                event_id=event.event_id,
                tenant_id=request.tenant,
                stream_type=request.stream_type,
                stream_id=request.stream_id,
                stream_version=request.expected + offset + 1,
                event_type=event.event_type,
                schema_version=event.schema_version,
                payload=row[-1],
                metadata=metadata,
            )
            made_events.append(made)

    def finish(self, index: int, appended: Appended) -> list[StoredEvent]:
        """The events, at the positions ``appended`` gives the unit's ``index``-th
        append."""
        if not self.events:
            return []
        position = appended.first_positions[index]
        recorded_at = appended.recorded_at
        for event in self.events:
            fields = event.__dict__
            fields["position"] = position
            fields["recorded_at"] = recorded_at
            position += 1
        return self.events
