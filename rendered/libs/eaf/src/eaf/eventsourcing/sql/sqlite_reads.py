"""Reading events from SQLite's layout (see ``sqlite_schema``) straight from its tables.

SQLAlchemy's result processing (a UUID parsed from 32 hex digits, two JSON columns and a
time string per row, through its type processors) costs ten times what SQLite takes to
find the rows, and its async adapter hands each cursor call to the connection's thread
apart. Here one fixed statement runs with its fetch and the decoding in one call on that
thread (:meth:`Database.sqlite_call`), ids come as their 16 stored bytes, and an
append's metadata and time, which all its events share, are decoded once per append
rather than once per event. PostgreSQL reads keep SQLAlchemy's statements (asyncpg
decodes in C).
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Collection, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from eaf.eventsourcing.records import EventMetadata, StoredEvent, as_utc
from eaf.eventsourcing.sql.database import Database

__all__ = ["read_all", "read_stream"]

_SELECT = (
    "SELECT e.position, e.event_id, s.tenant_id, s.stream_type, s.stream_id,"
    " e.stream_version, e.event_type, e.schema_version, e.payload,"
    " coalesce(e.metadata, h.metadata), coalesce(e.recorded_at, h.recorded_at)"
    " FROM eaf_event_log AS e JOIN eaf_streams AS s ON s.stream_key = e.stream_key"
    " LEFT JOIN eaf_event_log AS h ON h.position = e.commit_position"
)
# The stream's key first (its unique index), then its events by (key, version).
_STREAM = (
    f"{_SELECT} WHERE e.stream_key = (SELECT stream_key FROM eaf_streams"
    " WHERE tenant_id = ? AND stream_type = ? AND stream_id = ?)"
    " AND e.stream_version > ? ORDER BY e.stream_version"
)

_decode = json.JSONDecoder().decode
_new = object.__new__


async def read_stream(
    database: Database,
    tenant: str,
    stream_type: str,
    stream_id: str,
    after_version: int,
) -> list[StoredEvent]:
    parameters = (tenant, stream_type, stream_id, after_version)
    return _events(await database.sqlite_call(partial(_fetch, _STREAM, parameters)))


async def read_all(
    database: Database,
    *,
    after: int,
    limit: int,
    tenant: str | None,
    event_types: Collection[str] | None,
) -> list[StoredEvent]:
    where = ["e.position > ?"]
    parameters: list[Any] = [after]
    if tenant is not None:
        where.append("s.tenant_id = ?")
        parameters.append(tenant)
    if event_types is not None:
        types = list(event_types)
        if not types:
            return []
        where.append(f"e.event_type IN ({', '.join('?' * len(types))})")
        parameters += types
    parameters.append(limit)
    statement = f"{_SELECT} WHERE {' AND '.join(where)} ORDER BY e.position LIMIT ?"
    rows = await database.sqlite_call(partial(_fetch, statement, tuple(parameters)))
    return _events(rows)


def _fetch(
    statement: str, parameters: tuple[Any, ...], connection: sqlite3.Connection
) -> list[Any]:
    return connection.execute(statement, parameters).fetchall()


def _events(rows: Sequence[Any]) -> list[StoredEvent]:
    # One append's events share their metadata and time: each text decoded once.
    metadata: dict[str, EventMetadata] = {}
    times: dict[str, datetime] = {}
    events: list[StoredEvent] = []
    for (
        position,
        event_id,
        tenant,
        stream_type,
        stream_id,
        version,
        event_type,
        schema_version,
        payload,
        metadata_text,
        recorded_text,
    ) in rows:
        context = metadata.get(metadata_text)
        if context is None:
            context = metadata[metadata_text] = EventMetadata.from_dict(
                _decode(metadata_text)
            )
        recorded_at = times.get(recorded_text)
        if recorded_at is None:
            recorded_at = times[recorded_text] = _moment(recorded_text)
        # What StoredEvent(...) makes, without its frozen __init__'s setattr per field.
        event = _new(StoredEvent)
        event.__dict__.update(
            position=position,
            event_id=uuid.UUID(bytes=event_id),
            tenant_id=tenant,
            stream_type=stream_type,
            stream_id=stream_id,
            stream_version=version,
            event_type=event_type,
            schema_version=schema_version,
            payload=_decode(payload),
            metadata=context,
            recorded_at=recorded_at,
        )
        events.append(event)
    return events


def _moment(text: str | datetime) -> datetime:
    """A stored time (as SQLAlchemy writes one on SQLite: ISO 8601, UTC, often
    without an offset) as an aware UTC datetime."""
    if isinstance(text, datetime):
        return as_utc(text)
    return as_utc(datetime.fromisoformat(text))
