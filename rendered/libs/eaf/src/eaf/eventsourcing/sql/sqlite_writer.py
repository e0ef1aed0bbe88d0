"""The SQLite writer: appends group-committed on one thread (see ``writers``)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable, Sequence
from contextlib import suppress
from datetime import datetime
from functools import partial
from queue import SimpleQueue
from typing import Any, TypeVar

from eaf.eventsourcing.errors import DuplicateEventError
from eaf.eventsourcing.records import NewEvent, utc_now
from eaf.eventsourcing.sql.batching import fail_all, resolve_all
from eaf.eventsourcing.sql.database import Database
from eaf.eventsourcing.sql.writers import Appended, AppendRequest, Unit, encode_json

__all__ = ["SqliteWriter"]


# The next position, the stream's key (NULL for a new stream) and its version.
_STATE = (
    "SELECT (SELECT coalesce(max(position), 0) + 1 FROM eaf_event_log), s.stream_key,"
    " (SELECT coalesce(max(stream_version), 0) FROM eaf_event_log"
    " WHERE stream_key = s.stream_key)"
    " FROM (SELECT 1) LEFT JOIN eaf_streams AS s"
    " ON s.tenant_id = ?1 AND s.stream_type = ?2 AND s.stream_id = ?3"
)
_NEW_STREAM = (
    "INSERT INTO eaf_streams (tenant_id, stream_type, stream_id) VALUES (?, ?, ?)"
)
_COLUMNS = (
    "position, stream_key, stream_version, event_id, event_type, schema_version,"
    " payload, metadata, recorded_at, commit_position"
)
# Parameters: 1 first position, 2 stream key, 3 first version, 4 the event ids, 5
# metadata, 6 recorded at, 7 the events (both as encode_events makes them). One
# statement per append, the rows split from the JSON array by SQLite; a lone event
# without json_each's table. Metadata and time go on the append's first event only; the
# others point at it.
_INSERT_ONE = (
    f"INSERT INTO eaf_event_log ({_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?7 ->> '$[0][0]',"
    " ?7 ->> '$[0][1]', ?7 -> '$[0][2]', ?5, ?6, NULL)"
)
_INSERT_MANY = (
    f"INSERT INTO eaf_event_log ({_COLUMNS}) SELECT ?1 + e.key, ?2, ?3 + e.key,"
    " substr(?4, e.key * 16 + 1, 16), e.value ->> 0, e.value ->> 1, e.value -> '$[2]',"
    " iif(e.key = 0, ?5, NULL), iif(e.key = 0, ?6, NULL), nullif(?1, ?1 + e.key)"
    " FROM json_each(?7) AS e"
)


def encode_events(events: Sequence[NewEvent]) -> tuple[str, bytes]:
    """The events of an append for SQLite: one JSON array of ``[type, schema version,
    payload]`` arrays (split into rows by ``json_each``), and their ids apart, 16 bytes
    each, in order (as they are stored)."""
    return (
        encode_json([[e.event_type, e.schema_version, e.payload] for e in events]),
        b"".join([event.event_id.bytes for event in events]),
    )


class SqliteWriter:
    """Appends in ``BEGIN IMMEDIATE`` transactions, each run whole on one thread.

    SQLite has a single writer: positions are max + 1 under its write lock, so the
    global order is the commit order. A transaction is one synchronous function run on
    the writer's thread (one thread handoff per transaction, not one per statement),
    on the writer's own connection to the database file, or for an in-memory database
    on the pooled aiosqlite connection's thread. Units (an append, or the appends of a
    multi-stream append) that arrive while a transaction is in flight are
    group-committed in the next one, each in its own savepoint so that one refused unit
    (a version conflict, a duplicate event id) fails alone and whole. Writers in this
    process queue on an asyncio lock; other processes wait in SQLite's busy handler.
    """

    encode_events = staticmethod(encode_events)

    def __init__(self, database: Database, *, max_batch: int = 64) -> None:
        self._database = database
        dialect = database.engine.dialect
        events = database.tables.events
        # Times stored exactly as SQLAlchemy stores them, so its reads understand them;
        # JSON columns hold the JSON text, as SQLAlchemy writes them too.
        self._recorded_at = _processor(
            events.c.recorded_at.type.bind_processor(dialect)
        )
        # Group commit: while a transaction is in flight, appends queue for the next.
        self._max_batch = max_batch
        self._busy = False
        self._queue: list[tuple[Unit, asyncio.Future[Appended | Exception]]] = []
        self._flushers: set[asyncio.Task[None]] = set()
        self._thread: _Thread | None = None
        self._connection: sqlite3.Connection | None = None

    async def append(
        self, unit: Unit, meanwhile: Callable[[], object] | None = None
    ) -> Appended:
        """Append ``unit``; ``meanwhile`` (if given) is called once the unit is on its
        way, so that the caller's own work overlaps the transaction (and its fsync,
        during which the writer's thread does not hold the GIL)."""
        if self._busy:  # a transaction is in flight: join the next one
            future: asyncio.Future[Appended | Exception] = (
                asyncio.get_running_loop().create_future()
            )
            self._queue.append((unit, future))
            if meanwhile is not None:
                meanwhile()
            result = await future
        else:  # none is: this one leaves at once, from the caller's task
            self._busy = True
            try:
                result = (await self._send([unit], meanwhile))[0]
            finally:
                self._hand_over()
        if isinstance(result, Exception):
            raise result
        return result

    def _hand_over(self) -> None:
        """The transaction in flight is over: the queued appends leave together."""
        if not self._queue:
            self._busy = False
            return
        flusher = asyncio.get_running_loop().create_task(self._drain())
        self._flushers.add(flusher)
        flusher.add_done_callback(self._flushers.discard)

    async def _drain(self) -> None:
        try:
            while self._queue:
                waiting = self._queue[: self._max_batch]
                del self._queue[: self._max_batch]
                try:
                    results = await self._send([item for item, _ in waiting])
                except BaseException as error:  # the batch shares the failure
                    fail_all(waiting, error)
                    if not isinstance(error, Exception):
                        raise
                    continue
                resolve_all(waiting, results)
        finally:
            self._busy = False
            if self._queue:  # cancelled (say, at shutdown) with appends queued
                waiting, self._queue = self._queue, []
                for _, future in waiting:
                    future.cancel()

    async def close(self) -> None:
        """Close the writer's own connection and thread (appends must be over)."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        connection, self._connection = self._connection, None
        if connection is not None:
            await thread.run(connection.close)
        thread.stop()

    async def open(self) -> None:
        """Start the thread and open the connection of a file's writer now, so that the
        first append does not wait for them; should the file not open yet, the first
        append tries again (and reports why it cannot write)."""
        if self._database.sqlite_file is None or self._thread is not None:
            return
        self._thread = _Thread()
        with suppress(sqlite3.Error, OSError):
            await self._thread.run(self._connect)

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            self._connection = self._database.connect_sqlite()
        return self._connection

    async def _send(
        self, batch: list[Unit], meanwhile: Callable[[], object] | None = None
    ) -> list[Appended | Exception]:
        async with self._database.sqlite_writer():
            recorded_at = utc_now()
            if self._database.sqlite_file is None:
                if meanwhile is not None:
                    meanwhile()
                return await self._send_on_pool(batch, recorded_at)
            if self._thread is None:
                self._thread = _Thread()
            return await self._thread.run(
                self._commit_on_own_connection,
                batch,
                recorded_at,
                meanwhile=meanwhile,
            )

    async def _send_on_pool(
        self, batch: list[Unit], recorded_at: datetime
    ) -> list[Appended | Exception]:
        # In-memory: the pool's one connection is the database; run on its thread, through
        # aiosqlite's (private) _execute, which takes the function to run there.
        async with self._database.engine.connect() as connection:
            raw = await connection.get_raw_connection()
            driver: Any = raw.driver_connection
            results: list[Appended | Exception] = await driver._execute(
                self._commit, driver._conn, batch, recorded_at
            )
            return results

    def _commit_on_own_connection(
        self, batch: list[Unit], recorded_at: datetime
    ) -> list[Appended | Exception]:
        return self._commit(self._connect(), batch, recorded_at)

    def _commit(
        self,
        connection: sqlite3.Connection,
        batch: list[Unit],
        recorded_at: datetime,
    ) -> list[Appended | Exception]:
        """One transaction for the batch, on the connection's thread."""
        stored_at = self._recorded_at(recorded_at)
        if isinstance(stored_at, datetime):
            # What sqlite3's default adapter would make of it, once rather than per row.
            stored_at = stored_at.isoformat(" ")
        connection.execute("BEGIN IMMEDIATE")
        try:
            if len(batch) == 1:  # no savepoint: a refusal rolls the transaction back
                try:
                    firsts = [
                        self._write(connection, request, stored_at)
                        for request in batch[0]
                    ]
                except Exception as error:
                    connection.execute("ROLLBACK")
                    return [error]
                connection.execute("COMMIT")
                return [Appended(firsts, recorded_at)]
            results: list[Appended | Exception] = []
            for unit in batch:
                connection.execute("SAVEPOINT eaf_append")
                try:
                    firsts = [
                        self._write(connection, request, stored_at) for request in unit
                    ]
                except Exception as error:
                    connection.execute("ROLLBACK TO eaf_append")
                    results.append(error)
                else:
                    results.append(Appended(firsts, recorded_at))
                connection.execute("RELEASE eaf_append")
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        return results

    def _write(
        self,
        connection: sqlite3.Connection,
        request: AppendRequest,
        stored_at: Any,
    ) -> int:
        first, stream, actual = connection.execute(
            _STATE, (request.tenant, request.stream_type, request.stream_id)
        ).fetchone()
        if actual != request.expected:
            raise request.conflict(actual)
        if request.count == 0:
            return int(first)
        if stream is None:
            stream = connection.execute(
                _NEW_STREAM, (request.tenant, request.stream_type, request.stream_id)
            ).lastrowid
        try:
            connection.execute(
                _INSERT_ONE if request.count == 1 else _INSERT_MANY,
                (
                    first,
                    stream,
                    request.expected + 1,
                    request.event_ids,
                    request.metadata_json,
                    stored_at,
                    request.events_json,
                ),
            )
        except sqlite3.IntegrityError as error:
            if ".event_id" in str(error):
                raise DuplicateEventError(
                    f"an event id of this batch is already stored: {error}"
                ) from error
            raise request.conflict(None) from error
        return int(first)


_T = TypeVar("_T")
_Call = tuple["asyncio.Future[Any]", Callable[[], Any]]


class _Thread:
    """One thread that runs functions for the event loop, one at a time.

    Leaner than ``run_in_executor`` (which wraps a concurrent future in an asyncio one):
    the thread hands the result straight to the loop, as aiosqlite's thread does.
    """

    def __init__(self) -> None:
        self._calls: SimpleQueue[_Call | None] = SimpleQueue()
        # A daemon: a store never closed must not keep the process alive; a commit cut
        # off at exit is rolled back by SQLite, as after a crash.
        threading.Thread(
            target=self._serve, name="eaf-sqlite-writer", daemon=True
        ).start()

    async def run(
        self,
        function: Callable[..., _T],
        *args: Any,
        meanwhile: Callable[[], object] | None = None,
    ) -> _T:
        """``function(*args)`` on the thread; ``meanwhile()`` on the caller's, while
        the thread runs it."""
        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._calls.put((future, partial(function, *args)))
        if meanwhile is not None:
            meanwhile()
        return await future

    def stop(self) -> None:
        self._calls.put(None)

    def _serve(self) -> None:
        while (call := self._calls.get()) is not None:
            future, function = call
            try:
                result = function()
            except BaseException as error:
                _settle(future, None, error)
            else:
                _settle(future, result, None)


def _settle(
    future: asyncio.Future[Any], result: Any, error: BaseException | None
) -> None:
    def settle() -> None:
        if future.done():  # its caller was cancelled
            return
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)

    with suppress(RuntimeError):  # a closed loop: no one is waiting
        future.get_loop().call_soon_threadsafe(settle)


def _processor(process: Callable[[Any], Any] | None) -> Callable[[Any], Any]:
    return process if process is not None else (lambda value: value)
