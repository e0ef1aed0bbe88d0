"""The SQL projection store (SQLite or PostgreSQL, on :class:`Database`).

A batch runs in one write transaction: the checkpoint row is locked first (``FOR
UPDATE`` on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` holds its single write lock), so
two projector instances of one projection cannot both apply the same events. Upserts
are buffered and sent as one ``executemany`` before anything else touches the table
(a read, an update, a custom handler) and before the commit: a batch of inserts costs
a round trip, not one per event.

Projection tables carry no row-level security: a batch writes rows of many tenants.
Reads go through :class:`eaf.projectors.ReadModel`, which filters by tenant; pages
are one statement (rows with a window count), so rows and total agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncConnection

from eaf.eventsourcing.records import StoredEvent, as_utc
from eaf.eventsourcing.sql.database import Database
from eaf.projectors.paging import Condition, OrderBy, Page, checked_query
from eaf.projectors.ports import (
    Applied,
    DeadLetterRecord,
    Dedup,
    HandlerError,
    Rewound,
)
from eaf.projectors.projection import TENANT_COLUMN, Projection, RowHandler
from eaf.projectors.sql_batch import Batch, SqlWriter, is_transient
from eaf.projectors.sql_query import TOTAL, count_query, key_order, page_query
from eaf.projectors.sql_schema import prepare_table
from eaf.projectors.sql_tables import (
    checkpoints,
    dead_letters,
    locked_checkpoint,
    metadata,
    processed,
    reset_bookkeeping,
    save_checkpoint,
    sqlite_checkpoint,
    sqlite_checkpoint_saver,
)

__all__ = ["SqlProjectionStore", "is_transient"]


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

    async def create(self, projection: Projection) -> str | None:
        async with self.database.transaction(platform=True, write=True) as connection:
            await connection.run_sync(metadata.create_all)
            checkpoint = await self._lock_checkpoint(connection, projection.name)
            return await prepare_table(
                self.database, connection, projection, checkpoint
            )

    async def _ensure_checkpoint(self, connection: AsyncConnection, name: str) -> None:
        statement = self.database.upsert(checkpoints).values(
            projection=name, position=0
        )
        await connection.execute(statement.on_conflict_do_nothing())

    async def checkpoint(self, projection: str) -> int:
        if not self.database.postgres:  # asked before every batch: one thread hand-off
            position = await self.database.sqlite_call(
                partial(sqlite_checkpoint, name=projection)
            )
            return position or 0
        async with self.database.transaction(platform=True) as connection:
            position = await connection.scalar(
                select(checkpoints.c.position).where(
                    checkpoints.c.projection == projection
                )
            )
        return int(position or 0)

    async def apply(
        self,
        projection: Projection,
        events: Sequence[StoredEvent],
        *,
        dedup: Dedup,
        after: int | None = None,
    ) -> Applied:
        async with self.database.transaction(platform=True, write=True) as connection:
            checkpoint = await self._lock_checkpoint(connection, projection.name, after)
            seen: set[str] = set()
            if dedup == "event_id":
                seen = await self._processed(connection, projection.name, events)
            batch = Batch(self.database, projection, connection)
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
            if applied and dedup == "event_id":
                await connection.execute(
                    processed.insert(),
                    [
                        {"projection": projection.name, "event_id": event_id}
                        for event_id in applied
                    ],
                )
            if applied and not self.database.postgres:
                # The batch's last rows and its checkpoint in one thread hand-off.
                await batch.flush(
                    then=sqlite_checkpoint_saver(projection.name, checkpoint)
                )
            else:
                await batch.flush()
                if applied:
                    await save_checkpoint(connection, projection.name, checkpoint)
        return Applied(len(applied), skipped, frozenset(batch.touched))

    async def _handle(self, batch: Batch, index: int, event: StoredEvent) -> None:
        handler = batch.projection.handlers.get(event.event_type)
        if handler is None:
            return
        if not isinstance(handler, RowHandler) and (
            event.event_type not in batch.projection.writer_only
        ):
            # A custom handler may read the table through its own SQL: let it see
            # the rows buffered so far.
            await batch.flush()
        batch.current = (index, event)
        try:
            await handler(SqlWriter(batch, event.tenant_id), event)
        except HandlerError:
            raise
        except Exception as error:
            if is_transient(error):
                raise
            raise HandlerError(index, event, error) from error

    async def _lock_checkpoint(
        self, connection: AsyncConnection, name: str, after: int | None = None
    ) -> int:
        position = await locked_checkpoint(self.database, connection, name)
        if position is None:
            await self._ensure_checkpoint(connection, name)
            position = await locked_checkpoint(self.database, connection, name) or 0
        if after is not None and position < after:
            raise Rewound(name, position, after)
        return position

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
        self,
        projection: Projection,
        letter: DeadLetterRecord,
        *,
        dedup: Dedup,
        after: int | None = None,
    ) -> None:
        async with self.database.transaction(platform=True, write=True) as connection:
            checkpoint = await self._lock_checkpoint(connection, projection.name, after)
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
                await save_checkpoint(connection, projection.name, letter.position)

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
            await reset_bookkeeping(connection, name)

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
            .order_by(*key_order(projection, self.database.postgres))
            .limit(limit)
        )
        async with self.database.transaction(tenant=tenant_id) as connection:
            result = await connection.execute(query)
            return [dict(row) for row in result.mappings().all()]

    async def page(
        self,
        projection: Projection,
        tenant_id: str,
        *,
        where: Sequence[Condition] = (),
        order_by: Sequence[OrderBy] = (),
        limit: int,
        offset: int = 0,
    ) -> Page:
        checked_query(projection, where, order_by, limit, offset)
        postgres = self.database.postgres
        query = page_query(
            projection, tenant_id, where, order_by, limit, offset, postgres
        )
        async with self.database.transaction(tenant=tenant_id) as connection:
            found = (await connection.execute(query)).mappings().all()
            if found:
                total = int(found[0][TOTAL])
            else:  # past the last row (or no rows): no row carries the total
                count = count_query(projection, tenant_id, where, postgres)
                total = int(await connection.scalar(count) or 0)
        rows = [{k: v for k, v in row.items() if k != TOTAL} for row in found]
        return Page(rows, total)
