"""One batch's transaction on SQL: the writer each handler gets, and the buffer that
sends a batch's upserts as one ``executemany``."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping
from functools import lru_cache, partial
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Enum,
    Float,
    Integer,
    String,
    Table,
    and_,
    delete,
    select,
    update,
)
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection

from eaf.eventsourcing.records import StoredEvent
from eaf.eventsourcing.sql.database import Database, run_on_driver
from eaf.projectors.ports import CacheKey, HandlerError
from eaf.projectors.projection import TENANT_COLUMN, Projection, scoped_row


def is_transient(error: BaseException) -> bool:
    """Whether ``error`` is the database's trouble rather than the handler's: a lost
    connection or a lock timeout is retried, never dead-lettered."""
    if isinstance(error, DBAPIError):
        if error.connection_invalidated or isinstance(error, InterfaceError):
            return True
        # SQLite reports bad SQL as an OperationalError too: only a busy database is
        # the database's trouble.
        return isinstance(error, OperationalError) and _busy(error.orig)
    if isinstance(error, sqlite3.OperationalError):  # from the driver itself
        return _busy(error)
    return isinstance(error, (OSError, TimeoutError))


def _busy(error: object) -> bool:
    message = str(error).lower()
    return any(word in message for word in _TRANSIENT_WORDS)


_TRANSIENT_WORDS = ("locked", "busy", "connection", "timeout", "timed out")


class SqlWriter:
    """The writer of one event; upserts go to the batch's shared buffer."""

    def __init__(self, batch: Batch, tenant_id: str) -> None:
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


class Batch:
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
        if self._pending and self._pending[0].keys() != row.keys():
            await self.flush()
        if not self._pending:
            self._first = self.current
        self._pending.append(row)

    async def flush(self, then: _RawStep | None = None) -> None:
        """Send the buffered upserts (and on SQLite run ``then`` after them in the same
        thread hand-off). A row the database refuses is blamed on the first event in
        the buffer: the projector then commits the events before it and retries it
        alone, where the blame is exact; what ``then`` fails at is no event's fault."""
        rows, self._pending = self._pending, []
        upsert = _sqlite_upsert(self.database, self.projection.table, rows)
        try:
            if rows and upsert is None:
                await self._send(rows)
            if upsert is not None or then is not None:
                await run_on_driver(self.connection, partial(_run, upsert, then))
        except _AfterRows as failure:
            raise failure.error from None
        except Exception as error:
            if is_transient(error) or self._first is None or not rows:
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


_RawStep = Callable[[sqlite3.Connection], None]
_PLAIN_TYPES = (String, Integer, Float, Boolean)


class _AfterRows(Exception):
    """What a step run after the rows failed at (not the rows' fault)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def _run(
    upsert: tuple[str, list[tuple[Any, ...]]] | None,
    then: _RawStep | None,
    raw: sqlite3.Connection,
) -> None:
    if upsert is not None:
        raw.executemany(*upsert)
    if then is not None:
        try:
            then(raw)
        except Exception as error:
            raise _AfterRows(error) from error


def _sqlite_upsert(
    database: Database, table: Table, rows: list[dict[str, Any]]
) -> tuple[str, list[tuple[Any, ...]]] | None:
    """The buffered rows as one statement for SQLite's driver, with the values as
    SQLAlchemy would bind them, when the table's columns are plain (text, numbers,
    booleans, JSON) and have no Python-side defaults; else None (SQLAlchemy sends
    them). Through SQLAlchemy's adapter the statement takes four thread hand-offs."""
    if database.postgres or not rows:
        return None
    plan = _sqlite_statement(table, tuple(rows[0]))
    if plan is None:
        return None
    statement, as_json = plan
    names = tuple(rows[0])
    if not any(as_json):
        return statement, [tuple(row[name] for name in names) for row in rows]
    # JSON as SQLAlchemy writes it: json.dumps of the value (None too: "null").
    return statement, [
        tuple(
            json.dumps(row[name]) if encode else row[name]
            for name, encode in zip(names, as_json, strict=True)
        )
        for row in rows
    ]


@lru_cache(maxsize=256)
def _sqlite_statement(
    table: Table, names: tuple[str, ...]
) -> tuple[str, tuple[bool, ...]] | None:
    """The upsert of ``names`` into ``table`` and which of them are JSON, worked out once
    per table and row shape; None when a column needs SQLAlchemy's own binding."""
    if any(
        column.default is not None
        or column.onupdate is not None
        or not isinstance(column.type, (*_PLAIN_TYPES, JSON))
        or isinstance(column.type, Enum)  # a String with checks of its own
        for column in table.columns
    ):
        return None
    quote = _SQLITE_QUOTE
    keys = [column.name for column in table.primary_key.columns]
    others = [name for name in names if name not in keys]
    conflict = (
        "DO UPDATE SET "
        + ", ".join(f"{quote(n)} = excluded.{quote(n)}" for n in others)
        if others
        else "DO NOTHING"
    )
    statement = (
        f"INSERT INTO {quote(table.name)} ({', '.join(quote(n) for n in names)})"
        f" VALUES ({', '.join('?' * len(names))})"
        f" ON CONFLICT ({', '.join(quote(k) for k in keys)}) {conflict}"
    )
    return statement, tuple(isinstance(table.c[name].type, JSON) for name in names)


_SQLITE_QUOTE = sqlite_dialect().identifier_preparer.quote
