"""The SQL projection store (SQLite or PostgreSQL, on :class:`Database`).

A batch runs in one write transaction: the checkpoint row is locked first (``FOR
UPDATE`` on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` holds its single write lock), so
two projector instances of one projection cannot both apply the same events. Upserts
are buffered and sent as one ``executemany`` before anything else touches the table
(a read, an update, a custom handler) and before the commit: a batch of inserts costs
a round trip, not one per event.

Projection tables carry no row-level security: a batch writes rows of many tenants.
Reads go through :class:`eaf.projectors.ReadModel`, which filters by tenant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Integer,
    MetaData,
    Table,
    Text,
    and_,
    delete,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection

from eaf.eventsourcing.records import StoredEvent, as_utc
from eaf.eventsourcing.sql.database import Database
from eaf.projectors.ports import (
    Applied,
    CacheKey,
    DeadLetterRecord,
    Dedup,
    HandlerError,
)
from eaf.projectors.projection import (
    TENANT_COLUMN,
    Projection,
    RowHandler,
    scoped_row,
)

__all__ = ["SqlProjectionStore", "is_transient"]

_metadata = MetaData()
checkpoints = Table(
    "eaf_projection_checkpoints",
    _metadata,
    Column("projection", Text(), primary_key=True),
    Column("position", BigInteger(), nullable=False),
)
processed = Table(
    "eaf_projection_processed",
    _metadata,
    Column("projection", Text(), primary_key=True),
    Column("event_id", Text(), primary_key=True),
)
dead_letters = Table(
    "eaf_projection_dead_letters",
    _metadata,
    Column("projection", Text(), primary_key=True),
    Column("event_id", Text(), primary_key=True),
    Column("position", BigInteger(), nullable=False),
    Column("event_type", Text(), nullable=False),
    Column("tenant_id", Text(), nullable=False),
    Column("reason", Text(), nullable=False),
    Column("attempts", Integer(), nullable=False),
    Column("failed_at", DateTime(timezone=True), nullable=False),
)


def is_transient(error: BaseException) -> bool:
    """Whether ``error`` is the database's trouble rather than the handler's: a lost
    connection or a lock timeout is retried, never dead-lettered."""
    if isinstance(error, DBAPIError):
        if error.connection_invalidated or isinstance(error, InterfaceError):
            return True
        # SQLite reports bad SQL as an OperationalError too: only a busy database is
        # the database's trouble.
        message = str(error.orig).lower()
        return isinstance(error, OperationalError) and any(
            word in message for word in _TRANSIENT_WORDS
        )
    return isinstance(error, (OSError, TimeoutError))


_TRANSIENT_WORDS = ("locked", "busy", "connection", "timeout", "timed out")


class _SqlWriter:
    """The writer of one event; upserts go to the batch's shared buffer."""

    def __init__(self, batch: _Batch, tenant_id: str) -> None:
        self._batch = batch
        self._tenant_id = tenant_id

    @property
    def tenant_id(self) -> str:
        return self._tenant_id

    @property
    def connection(self) -> AsyncConnection:
        return self._batch.connection

    def invalidate(self, key: Mapping[str, Any]) -> None:
        self._batch.touched.add(self._key(key))

    def _key(self, key: Mapping[str, Any]) -> CacheKey:
        row = scoped_row(self._tenant_id, key)
        return (self._tenant_id, self._batch.projection.key_of(row))

    def _match(self, key: Mapping[str, Any]) -> Any:
        table = self._batch.projection.table
        values = self._batch.projection.key_of(key)
        return and_(
            table.c[TENANT_COLUMN] == self._tenant_id,
            *(
                table.c[column] == value
                for column, value in zip(
                    self._batch.projection.key_columns, values, strict=True
                )
            ),
        )

    async def get(self, key: Mapping[str, Any]) -> dict[str, Any] | None:
        await self._batch.flush()
        table = self._batch.projection.table
        result = await self._batch.connection.execute(
            select(table).where(self._match(key))
        )
        row = result.mappings().one_or_none()
        return None if row is None else dict(row)

    async def upsert(self, row: Mapping[str, Any]) -> None:
        full = scoped_row(self._tenant_id, row)
        self._batch.touched.add(self._key(full))
        await self._batch.buffer(full)

    async def update(self, key: Mapping[str, Any], values: Mapping[str, Any]) -> bool:
        await self._batch.flush()
        self._batch.touched.add(self._key(key))
        table = self._batch.projection.table
        result = await self._batch.connection.execute(
            update(table).where(self._match(key)).values(**values)
        )
        return bool(result.rowcount)

    async def delete(self, key: Mapping[str, Any]) -> bool:
        await self._batch.flush()
        self._batch.touched.add(self._key(key))
        table = self._batch.projection.table
        result = await self._batch.connection.execute(
            delete(table).where(self._match(key))
        )
        return bool(result.rowcount)


class _Batch:
    """The state of one batch's transaction."""

    def __init__(
        self, database: Database, projection: Projection, connection: AsyncConnection
    ) -> None:
        self.database = database
        self.projection = projection
        self.connection = connection
        self.touched: set[CacheKey] = set()
        self.current: tuple[int, StoredEvent] | None = None
        self._first: tuple[int, StoredEvent] | None = None
        self._pending: list[dict[str, Any]] = []

    async def buffer(self, row: dict[str, Any]) -> None:
        if self._pending and set(self._pending[0]) != set(row):
            await self.flush()
        if not self._pending:
            self._first = self.current
        self._pending.append(row)

    async def flush(self) -> None:
        """Send the buffered upserts. A row the database refuses is blamed on the
        first event in the buffer: the projector then commits the events before it
        and retries it alone, where the blame is exact."""
        if not self._pending:
            return
        rows, self._pending = self._pending, []
        try:
            await self._send(rows)
        except Exception as error:
            if is_transient(error) or self._first is None:
                raise
            raise HandlerError(*self._first, error) from error

    async def _send(self, rows: list[dict[str, Any]]) -> None:
        table = self.projection.table
        statement = self.database.upsert(table)
        keys = [column for column in table.primary_key.columns]
        others = [name for name in rows[0] if name not in {c.name for c in keys}]
        if others:
            statement = statement.on_conflict_do_update(
                index_elements=keys,
                set_={name: statement.excluded[name] for name in others},
            )
        else:
            statement = statement.on_conflict_do_nothing(index_elements=keys)
        await self.connection.execute(statement, rows)


class SqlProjectionStore:
    """Implements :class:`eaf.projectors.ports.ProjectionStore` on a database, which
    may be the event store's (``SqlProjectionStore(event_store.database)``)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    @classmethod
    def open(cls, url: str, **options: Any) -> SqlProjectionStore:
        """A store on its own engine; ``options`` as for :meth:`Database.open`."""
        return cls(Database.open(url, **options))

    async def close(self) -> None:
        await self.database.close()

    async def create(self, projection: Projection) -> None:
        async with self.database.transaction(platform=True, write=True) as connection:
            await connection.run_sync(_metadata.create_all)
            await connection.run_sync(
                lambda sync: projection.table.create(sync, checkfirst=True)
            )
            await self._ensure_checkpoint(connection, projection.name)

    async def _ensure_checkpoint(self, connection: AsyncConnection, name: str) -> None:
        statement = self.database.upsert(checkpoints).values(
            projection=name, position=0
        )
        await connection.execute(statement.on_conflict_do_nothing())

    async def checkpoint(self, projection: str) -> int:
        async with self.database.transaction(platform=True) as connection:
            position = await connection.scalar(
                select(checkpoints.c.position).where(
                    checkpoints.c.projection == projection
                )
            )
        return int(position or 0)

    async def apply(
        self, projection: Projection, events: Sequence[StoredEvent], *, dedup: Dedup
    ) -> Applied:
        async with self.database.transaction(platform=True, write=True) as connection:
            checkpoint = await self._lock_checkpoint(connection, projection.name)
            seen: set[str] = set()
            if dedup == "event_id":
                seen = await self._processed(connection, projection.name, events)
            batch = _Batch(self.database, projection, connection)
            applied: list[str] = []
            skipped = 0
            for index, event in enumerate(events):
                event_id = str(event.event_id)
                if (dedup == "position" and event.position <= checkpoint) or (
                    dedup == "event_id" and event_id in seen
                ):
                    skipped += 1
                    continue
                seen.add(event_id)
                await self._handle(batch, index, event)
                applied.append(event_id)
                checkpoint = max(checkpoint, event.position)
            await batch.flush()
            if applied:
                if dedup == "event_id":
                    await connection.execute(
                        processed.insert(),
                        [
                            {"projection": projection.name, "event_id": event_id}
                            for event_id in applied
                        ],
                    )
                await self._save_checkpoint(connection, projection.name, checkpoint)
        return Applied(len(applied), skipped, frozenset(batch.touched))

    async def _handle(self, batch: _Batch, index: int, event: StoredEvent) -> None:
        handler = batch.projection.handlers.get(event.event_type)
        if handler is None:
            return
        if not isinstance(handler, RowHandler):
            # A custom handler may read the table through its own SQL: let it see
            # the rows buffered so far.
            await batch.flush()
        batch.current = (index, event)
        try:
            await handler(_SqlWriter(batch, event.tenant_id), event)
        except HandlerError:
            raise
        except Exception as error:
            if is_transient(error):
                raise
            raise HandlerError(index, event, error) from error

    async def _lock_checkpoint(self, connection: AsyncConnection, name: str) -> int:
        query = select(checkpoints.c.position).where(checkpoints.c.projection == name)
        if self.database.postgres:
            query = query.with_for_update()
        position = await connection.scalar(query)
        if position is None:
            await self._ensure_checkpoint(connection, name)
            position = await connection.scalar(query)
        return int(position or 0)

    async def _save_checkpoint(
        self, connection: AsyncConnection, name: str, position: int
    ) -> None:
        await connection.execute(
            update(checkpoints)
            .where(checkpoints.c.projection == name)
            .values(position=position)
        )

    async def _processed(
        self, connection: AsyncConnection, name: str, events: Sequence[StoredEvent]
    ) -> set[str]:
        ids = list({str(event.event_id) for event in events})
        if not ids:
            return set()
        result = await connection.scalars(
            select(processed.c.event_id).where(
                processed.c.projection == name, processed.c.event_id.in_(ids)
            )
        )
        return set(result)

    async def dead_letter(
        self, projection: Projection, letter: DeadLetterRecord, *, dedup: Dedup
    ) -> None:
        async with self.database.transaction(platform=True, write=True) as connection:
            checkpoint = await self._lock_checkpoint(connection, projection.name)
            statement = self.database.upsert(dead_letters).values(
                projection=letter.projection,
                event_id=letter.event_id,
                position=letter.position,
                event_type=letter.event_type,
                tenant_id=letter.tenant_id,
                reason=letter.reason,
                attempts=letter.attempts,
                failed_at=letter.failed_at,
            )
            await connection.execute(
                statement.on_conflict_do_update(
                    index_elements=[dead_letters.c.projection, dead_letters.c.event_id],
                    set_={
                        "reason": statement.excluded.reason,
                        "attempts": statement.excluded.attempts,
                        "failed_at": statement.excluded.failed_at,
                    },
                )
            )
            if dedup == "position" and letter.position > checkpoint:
                await self._save_checkpoint(
                    connection, projection.name, letter.position
                )

    async def dead_letters(self, projection: str) -> list[DeadLetterRecord]:
        async with self.database.transaction(platform=True) as connection:
            result = await connection.execute(
                select(dead_letters)
                .where(dead_letters.c.projection == projection)
                .order_by(dead_letters.c.position)
            )
            rows = result.mappings().all()
        return [
            DeadLetterRecord(
                projection=row["projection"],
                position=row["position"],
                event_id=row["event_id"],
                event_type=row["event_type"],
                tenant_id=row["tenant_id"],
                reason=row["reason"],
                attempts=row["attempts"],
                failed_at=as_utc(row["failed_at"]),
            )
            for row in rows
        ]

    async def reset(self, projection: Projection) -> None:
        name = projection.name
        async with self.database.transaction(platform=True, write=True) as connection:
            await self._lock_checkpoint(connection, name)
            await connection.execute(delete(projection.table))
            await connection.execute(
                delete(processed).where(processed.c.projection == name)
            )
            await connection.execute(
                delete(dead_letters).where(dead_letters.c.projection == name)
            )
            await self._save_checkpoint(connection, name, 0)

    async def find(
        self,
        projection: Projection,
        tenant_id: str,
        where: Mapping[str, Any],
        *,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        table = projection.table
        query = (
            select(table)
            .where(
                table.c[TENANT_COLUMN] == tenant_id,
                *(table.c[column] == value for column, value in where.items()),
            )
            .order_by(*table.primary_key.columns)
            .limit(limit)
        )
        async with self.database.transaction(tenant=tenant_id) as connection:
            result = await connection.execute(query)
            return [dict(row) for row in result.mappings().all()]
