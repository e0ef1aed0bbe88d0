"""How the SQL event store writes an append on each database: what both writers take
(units of appends), and the PostgreSQL writer (the SQLite one is in ``sqlite_writer``).

Both write the events (which are the outbox too) in one transaction, and both talk to the
driver directly: an append is a handful of fixed statements, and SQLAlchemy's
per-statement work would cost more than the database's. Both group-commit concurrent
appends. PostgreSQL gets each batch in one round trip (a function call); SQLite gets each
transaction as one synchronous function on the writer's thread, so a transaction costs
one thread handoff rather than one per statement (as awaiting aiosqlite would).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from eaf.eventsourcing.errors import ConcurrencyError, DuplicateEventError
from eaf.eventsourcing.records import NewEvent, utc_now
from eaf.eventsourcing.sql import postgres
from eaf.eventsourcing.sql.batching import Batcher
from eaf.eventsourcing.sql.database import Database

__all__ = [
    "AppendRequest",
    "Appended",
    "PostgresWriter",
    "Unit",
    "encode_events",
    "encode_json",
]


encode_json = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
"""JSON text in one encoder call; NaN and infinities are refused, as JSON has none."""


def encode_events(events: Sequence[NewEvent]) -> tuple[str, bytes]:
    """The events of an append for PostgreSQL: one JSON array of ``[id, type, schema
    version, payload]`` arrays, ids as 32 hex digits (one encoder call for the lot,
    split into rows by ``jsonb_array_elements``), and no ids apart."""
    return encode_json(
        [
            [event.event_id.hex, event.event_type, event.schema_version, event.payload]
            for event in events
        ]
    ), b""


@dataclass(frozen=True, slots=True)
class AppendRequest:
    """One append to one stream, for the current tenant; ``events_json`` and
    ``event_ids`` as the writer's ``encode_events`` makes them (a JSON array with a row
    per event, its payload last)."""

    tenant: str
    stream_type: str
    stream_id: str
    expected: int
    count: int
    events_json: str
    event_ids: bytes
    metadata_json: str

    def conflict(self, actual: int | None) -> ConcurrencyError:
        return ConcurrencyError(self.stream_type, self.stream_id, self.expected, actual)

    def as_json(self) -> str:
        return (
            f'{{"tenant":{json.dumps(self.tenant)},'
            f'"stream_type":{json.dumps(self.stream_type)},'
            f'"stream_id":{json.dumps(self.stream_id)},'
            f'"expected":{self.expected},'
            f'"metadata":{self.metadata_json},'
            f'"events":{self.events_json}}}'
        )


# Appends that are stored together or not at all: one, or a multi-stream append.
Unit = Sequence[AppendRequest]


@dataclass(frozen=True)
class Appended:
    """Where a unit's appends landed: each one's first position, in order."""

    first_positions: list[int]
    recorded_at: datetime


def _unit_json(unit: Unit) -> str:
    return "[" + ",".join(request.as_json() for request in unit) + "]"


# Per unit: one (first position, outcome, actual version) row per append, and the time.
_Outcome = tuple[list[Any], datetime]
_DEADLOCK_DETECTED = "40P01"
_DEADLOCK_RETRIES = 3


class PostgresWriter:
    """Appends through ``eaf_append_many``, group-committing concurrent units."""

    encode_events = staticmethod(encode_events)

    def __init__(
        self, database: Database, *, max_batch: int = 32, parallel: int = 4
    ) -> None:
        # max_batch stays below 64: each unit is a subtransaction, and PostgreSQL's
        # snapshots slow down once a transaction has more than 64 of them.
        self._database = database
        self._batcher: Batcher[Unit, _Outcome | Exception] = Batcher(
            self._send, max_batch=max_batch, parallel=parallel
        )

    async def append(
        self, unit: Unit, meanwhile: Callable[[], object] | None = None
    ) -> Appended:
        """Append ``unit``; ``meanwhile`` (if given) is called once, before the result
        (the round trip is on this loop: there is no thread to overlap)."""
        if meanwhile is not None:
            meanwhile()
        result = await self._batcher.submit(unit)
        if isinstance(result, Exception):
            raise result
        rows, recorded_at = result
        firsts: list[int] = []
        for request, (first, outcome, actual) in zip(unit, rows, strict=True):
            if outcome == "ok":
                firsts.append(first)
            elif outcome == "conflict":
                raise request.conflict(actual)
            elif outcome == "duplicate":
                raise DuplicateEventError("an event id of this batch is already stored")
            # else "aborted": another append of the unit failed, and its row says why
        return Appended(firsts, recorded_at)

    async def _send(self, units: list[Unit]) -> list[_Outcome | Exception]:
        # Should a batch's transaction roll back, each unit goes again on its own, so
        # that one the database refuses (say, a payload jsonb cannot hold) fails alone.
        if len(units) > 1:
            with suppress(Exception):
                return list(await self._call(units))
        results: list[_Outcome | Exception] = []
        for unit in units:
            try:
                results.extend(await self._call_alone(unit))
            except Exception as error:
                results.append(error)
        return results

    async def _call_alone(self, unit: Unit) -> list[_Outcome]:
        for _ in range(_DEADLOCK_RETRIES):
            try:
                return await self._call([unit])
            except Exception as error:
                # Chosen to break a deadlock (rows two batches were both waiting for):
                # its transaction rolled back, nothing of it is stored; go again.
                if getattr(error, "sqlstate", None) != _DEADLOCK_DETECTED:
                    raise
        return await self._call([unit])

    async def _call(self, units: list[Unit]) -> list[_Outcome]:
        recorded_at = utc_now()
        batch = "[" + ",".join(_unit_json(unit) for unit in units) + "]"
        async with self._database.engine.connect() as connection:
            raw = await connection.get_raw_connection()
            driver: Any = raw.driver_connection
            rows = await driver.fetch(postgres.APPEND_MANY_CALL, batch, recorded_at)
        if len(units) == 1:
            return [(rows, recorded_at)]
        outcomes: list[_Outcome] = []
        start = 0
        for unit in units:
            outcomes.append((rows[start : start + len(unit)], recorded_at))
            start += len(unit)
        return outcomes
