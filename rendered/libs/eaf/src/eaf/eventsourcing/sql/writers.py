"""How the SQL event store writes an append on each database.

Both write the events and their outbox rows in one transaction, and both talk to the
driver under SQLAlchemy's pooled connection: an append is a handful of fixed statements,
and SQLAlchemy's per-statement work would cost more than the database's.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert

from eaf.eventsourcing.errors import ConcurrencyError, DuplicateEventError
from eaf.eventsourcing.records import utc_now
from eaf.eventsourcing.sql import postgres
from eaf.eventsourcing.sql.batching import Batcher
from eaf.eventsourcing.sql.database import Database

__all__ = ["AppendRequest", "PostgresWriter", "SqliteWriter"]


@dataclass(frozen=True)
class EncodedEvent:
    """A new event with its payload already serialised."""

    event_id: uuid.UUID
    event_type: str
    schema_version: int
    payload_json: str

    def as_json(self) -> str:
        return (
            f'{{"event_id":"{self.event_id}","event_type":{json.dumps(self.event_type)},'
            f'"schema_version":{self.schema_version},"payload":{self.payload_json}}}'
        )


@dataclass(frozen=True)
class AppendRequest:
    """One append to one stream, for the current tenant."""

    tenant: str
    stream_type: str
    stream_id: str
    expected: int
    events: list[EncodedEvent]
    metadata_json: str

    def conflict(self, actual: int | None) -> ConcurrencyError:
        return ConcurrencyError(self.stream_type, self.stream_id, self.expected, actual)

    def as_json(self) -> str:
        events = ",".join(event.as_json() for event in self.events)
        return (
            f'{{"tenant":{json.dumps(self.tenant)},'
            f'"stream_type":{json.dumps(self.stream_type)},'
            f'"stream_id":{json.dumps(self.stream_id)},'
            f'"expected":{self.expected},'
            f'"metadata":{self.metadata_json},'
            f'"events":[{events}]}}'
        )


@dataclass(frozen=True)
class Appended:
    first_position: int
    recorded_at: datetime


_Outcome = tuple[int, str, int | None, datetime]


class PostgresWriter:
    """Appends through ``eaf_append_many``, group-committing concurrent appends."""

    def __init__(
        self, database: Database, *, max_batch: int = 32, parallel: int = 4
    ) -> None:
        # max_batch stays below 64: each append is a subtransaction, and PostgreSQL's
        # snapshots slow down once a transaction has more than 64 of them.
        self._database = database
        self._batcher: Batcher[AppendRequest, _Outcome | Exception] = Batcher(
            self._send, max_batch=max_batch, parallel=parallel
        )

    async def append(self, request: AppendRequest) -> Appended:
        result = await self._batcher.submit(request)
        if isinstance(result, Exception):
            raise result
        first, outcome, actual, recorded_at = result
        if outcome == "conflict":
            raise request.conflict(actual)
        if outcome == "duplicate":
            raise DuplicateEventError("an event id of this batch is already stored")
        return Appended(first, recorded_at)

    async def _send(self, requests: list[AppendRequest]) -> list[_Outcome | Exception]:
        try:
            return list(await self._call(requests))
        except Exception as error:
            if len(requests) == 1:
                return [error]
        # The batch's transaction rolled back: retry each append on its own, so that one
        # append the database refuses (say, a payload jsonb cannot hold) fails alone.
        results: list[_Outcome | Exception] = []
        for request in requests:
            try:
                results.extend(await self._call([request]))
            except Exception as error:
                results.append(error)
        return results

    async def _call(self, requests: list[AppendRequest]) -> list[_Outcome]:
        recorded_at = utc_now()
        batch = "[" + ",".join(request.as_json() for request in requests) + "]"
        async with self._database.engine.connect() as connection:
            raw = await connection.get_raw_connection()
            driver: Any = raw.driver_connection
            rows = await driver.fetch(postgres.APPEND_MANY_CALL, batch, recorded_at)
        return [(row[0], row[1], row[2], recorded_at) for row in rows]


_SQLITE_STATE = (
    "SELECT (SELECT coalesce(max(stream_version), 0) FROM eaf_events"
    " WHERE tenant_id = ? AND stream_type = ? AND stream_id = ?),"
    " (SELECT coalesce(max(position), 0) FROM eaf_events)"
)
_SQLITE_OUTBOX = "INSERT INTO eaf_outbox (position) SELECT position FROM eaf_events WHERE position >= ?"


class SqliteWriter:
    """Appends in one ``BEGIN IMMEDIATE`` transaction on the aiosqlite connection.

    SQLite has a single writer: positions are max + 1 under its write lock, so the
    global order is the commit order. Writers in this process queue on an asyncio lock;
    other processes wait in SQLite's busy handler.
    """

    _COLUMNS = (
        "position",
        "event_id",
        "tenant_id",
        "stream_type",
        "stream_id",
        "stream_version",
        "event_type",
        "schema_version",
        "payload",
        "metadata",
        "recorded_at",
    )

    def __init__(self, database: Database) -> None:
        self._database = database
        dialect = database.engine.dialect
        events = database.tables.events
        compiled = insert(events).compile(
            dialect=dialect, column_keys=list(self._COLUMNS)
        )
        self._insert = str(compiled)
        order = compiled.positiontup or []
        assert list(order) == list(self._COLUMNS), order
        # Ids and times stored exactly as SQLAlchemy stores them, so its reads understand
        # them; JSON columns hold the JSON text, as SQLAlchemy writes them too.
        self._event_id = _processor(events.c.event_id.type.bind_processor(dialect))
        self._recorded_at = _processor(
            events.c.recorded_at.type.bind_processor(dialect)
        )

    async def append(self, request: AppendRequest) -> Appended:
        async with (
            self._database.sqlite_writer(),
            self._database.engine.connect() as connection,
        ):
            raw = await connection.get_raw_connection()
            driver: Any = raw.driver_connection
            await driver.execute("BEGIN IMMEDIATE")
            try:
                appended = await self._write(driver, request)
                await driver.commit()
            except BaseException:
                await driver.rollback()
                raise
            return appended

    async def _write(self, driver: Any, request: AppendRequest) -> Appended:
        state = await driver.execute_fetchall(
            _SQLITE_STATE, (request.tenant, request.stream_type, request.stream_id)
        )
        actual, last = next(iter(state))
        if actual != request.expected:
            raise request.conflict(actual)
        first, recorded_at = last + 1, utc_now()
        if not request.events:
            return Appended(first, recorded_at)
        stored_at = self._recorded_at(recorded_at)
        rows = [
            (
                first + offset,
                self._event_id(event.event_id),
                request.tenant,
                request.stream_type,
                request.stream_id,
                request.expected + offset + 1,
                event.event_type,
                event.schema_version,
                event.payload_json,
                request.metadata_json,
                stored_at,
            )
            for offset, event in enumerate(request.events)
        ]
        try:
            await driver.executemany(self._insert, rows)
        except sqlite3.IntegrityError as error:
            if ".event_id" in str(error):
                raise DuplicateEventError(
                    f"an event id of this batch is already stored: {error}"
                ) from error
            raise request.conflict(None) from error
        await driver.execute(_SQLITE_OUTBOX, (first,))
        return Appended(first, recorded_at)


def _processor(process: Callable[[Any], Any] | None) -> Callable[[Any], Any]:
    return process if process is not None else (lambda value: value)
