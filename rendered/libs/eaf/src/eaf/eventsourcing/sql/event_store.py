"""The event store on SQLAlchemy Core: SQLite by default, PostgreSQL for scale."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from eaf.context import current
from eaf.eventsourcing.errors import ConcurrencyError, DuplicateEventError
from eaf.eventsourcing.records import EventMetadata, NewEvent, StoredEvent, utc_now
from eaf.eventsourcing.scope import read_scope, write_tenant
from eaf.eventsourcing.sql import postgres
from eaf.eventsourcing.sql.database import Database
from eaf.eventsourcing.sql.outbox import SqlOutbox
from eaf.eventsourcing.sql.sagas import SqlSagaStore
from eaf.eventsourcing.sql.schema import EVENT_ID_KEY, event_columns, row_to_event
from eaf.eventsourcing.sql.snapshots import SqlSnapshotStore

__all__ = ["SqlEventStore", "create_event_store"]

_ACTUAL_VERSION = re.compile(r"actual=(\d+)")


async def create_event_store(
    url: str, *, create_schema: bool = True, **options: Any
) -> SqlEventStore:
    """An event store for ``sqlite+aiosqlite:///path.db`` or ``postgresql+asyncpg://...``.

    ``options`` go to :meth:`Database.open` (``busy_timeout``, ``sqlite_synchronous``,
    SQLAlchemy engine options such as ``pool_size``). Close it with ``await store.close()``.
    """
    store = SqlEventStore(Database.open(url, **options))
    if create_schema:
        await store.database.create_schema()
    return store


class SqlEventStore:
    """The SQL event store, with the outbox, snapshot and saga stores on the same database."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.outbox = SqlOutbox(database)
        self.snapshots = SqlSnapshotStore(database)
        self.sagas = SqlSagaStore(database)

    async def close(self) -> None:
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
        metadata = EventMetadata.from_context(current(), tenant)
        recorded_at = utc_now()
        encoded = json.dumps(
            [
                {
                    "event_id": str(event.event_id),
                    "event_type": event.event_type,
                    "schema_version": event.schema_version,
                    "payload": event.payload,
                }
                for event in events
            ]
        )
        try:
            if self.database.postgres:
                first = await self._append_postgres(
                    tenant, stream_type, stream_id, expected_version, encoded, metadata, recorded_at
                )
            else:
                first = await self._append_sqlite(
                    tenant, stream_type, stream_id, expected_version, encoded, metadata, recorded_at
                )
        except IntegrityError as error:  # SQLite; PostgreSQL errors are mapped above
            if ".event_id" in str(error.orig):
                raise DuplicateEventError(
                    f"an event id of this batch is already stored: {error.orig}"
                ) from error
            actual = await self.stream_version(stream_type, stream_id)
            raise ConcurrencyError(stream_type, stream_id, expected_version, actual) from error
        return [
            StoredEvent(
                position=first + offset,
                event_id=event.event_id,
                tenant_id=tenant,
                stream_type=stream_type,
                stream_id=stream_id,
                stream_version=expected_version + offset + 1,
                event_type=event.event_type,
                schema_version=event.schema_version,
                payload=item["payload"],
                metadata=metadata,
                recorded_at=recorded_at,
            )
            for offset, (event, item) in enumerate(zip(events, json.loads(encoded), strict=True))
        ]

    async def _append_postgres(
        self,
        tenant: str,
        stream_type: str,
        stream_id: str,
        expected: int,
        encoded: str,
        metadata: EventMetadata,
        recorded_at: datetime,
    ) -> int:
        # One statement in its own implicit transaction (see eaf.eventsourcing.sql.postgres),
        # sent on the pooled connection's driver: SQLAlchemy has nothing to add to a
        # function call, and its per-statement overhead would halve throughput here.
        async with self.database.engine.connect() as connection:
            raw = await connection.get_raw_connection()
            driver: Any = raw.driver_connection
            try:
                first: int = await driver.fetchval(
                    postgres.APPEND_CALL,
                    tenant,
                    stream_type,
                    stream_id,
                    expected,
                    encoded,
                    json.dumps(metadata.as_dict()),
                    recorded_at,
                )
            except Exception as error:
                mapped = await self._postgres_append_error(error, stream_type, stream_id, expected)
                if mapped is None:
                    raise
                raise mapped from error
            return first

    async def _postgres_append_error(
        self, error: Exception, stream_type: str, stream_id: str, expected: int
    ) -> Exception | None:
        """The event-sourcing error a driver error means, if it means one."""
        sqlstate = getattr(error, "sqlstate", None)
        if sqlstate == postgres.CONCURRENCY_SQLSTATE:
            match = _ACTUAL_VERSION.search(str(error))
            actual = int(match[1]) if match else None
            return ConcurrencyError(stream_type, stream_id, expected, actual)
        if sqlstate == postgres.UNIQUE_VIOLATION:
            if getattr(error, "constraint_name", None) == EVENT_ID_KEY:
                return DuplicateEventError(f"an event id of this batch is already stored: {error}")
            actual = await self.stream_version(stream_type, stream_id)
            return ConcurrencyError(stream_type, stream_id, expected, actual)
        return None

    async def _append_sqlite(
        self,
        tenant: str,
        stream_type: str,
        stream_id: str,
        expected: int,
        encoded: str,
        metadata: EventMetadata,
        recorded_at: datetime,
    ) -> int:
        events, outbox = self.database.tables.events, self.database.tables.outbox
        async with self.database.transaction(tenant=tenant, write=True) as connection:
            actual = await self._version(connection, tenant, stream_type, stream_id)
            if actual != expected:
                raise ConcurrencyError(stream_type, stream_id, expected, actual)
            last = await connection.scalar(select(func.coalesce(func.max(events.c.position), 0)))
            first = int(last or 0) + 1
            items = json.loads(encoded)
            if not items:
                return first
            rows = [
                {
                    "position": first + offset,
                    "event_id": uuid.UUID(item["event_id"]),
                    "tenant_id": tenant,
                    "stream_type": stream_type,
                    "stream_id": stream_id,
                    "stream_version": expected + offset + 1,
                    "event_type": item["event_type"],
                    "schema_version": item["schema_version"],
                    "payload": item["payload"],
                    "metadata": metadata.as_dict(),
                    "recorded_at": recorded_at,
                }
                for offset, item in enumerate(items)
            ]
            await connection.execute(insert(events), rows)
            await connection.execute(
                insert(outbox), [{"position": row["position"]} for row in rows]
            )
            return first

    async def read_stream(
        self, stream_type: str, stream_id: str, *, after_version: int = 0
    ) -> list[StoredEvent]:
        tenant = write_tenant()
        events = self.database.tables.events
        query = (
            select(*event_columns(events))
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
        events = self.database.tables.events
        query = (
            select(*event_columns(events))
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
