"""The SQLite layout of the event store, and its migration from earlier layouts.

Events live in ``eaf_event_log``, keyed by position (the rowid), with two unique indexes:
(stream key, version) and the event id. A stream's tenant, type and id are stored once,
in ``eaf_streams``, under an integer stream key; event ids are their 16 bytes. An append
writes three B-trees (five when it begins a stream): its rows at the end of the log,
its ids (time-ordered, version 7) at the end of theirs, its versions after the stream's
last. The first layout wrote four B-trees, each row about twice the bytes.

``eaf_events`` is a view with the columns of the PostgreSQL table (ids as 32 hex digits,
as SQLAlchemy stores a ``Uuid`` on SQLite), so the readers query either database alike.
Reads join the stream of each event by its primary key; tenant-scoped reads of every
stream (``read_all`` with a tenant) filter the global order by tenant, which no index
serves on its own any more: followers and relays read as the platform.

The layout's version is SQLite's ``user_version``: 0 for a new file or one written
before versions were kept (layout 1: ``eaf_events`` a table holding every column, with
an index per key and one on (tenant, position)), 2 for this one. Opening a store
migrates an older file in one transaction that keeps every position, version, id and
payload.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from eaf.eventsourcing.sql.schema import Tables

__all__ = ["LAYOUT", "NewerLayoutError", "install"]

LAYOUT = 2

_STREAMS = """
CREATE TABLE IF NOT EXISTS eaf_streams (
    stream_key INTEGER PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    stream_type TEXT NOT NULL,
    stream_id TEXT NOT NULL,
    CONSTRAINT eaf_streams_key UNIQUE (tenant_id, stream_type, stream_id)
)
"""

# Metadata and time once per append, on its first event; the others point at it
# (commit_position) and hold NULL there.
_EVENT_LOG = """
CREATE TABLE IF NOT EXISTS eaf_event_log (
    position INTEGER PRIMARY KEY,
    stream_key INTEGER NOT NULL REFERENCES eaf_streams (stream_key),
    stream_version INTEGER NOT NULL,
    event_id BLOB NOT NULL,
    event_type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    payload JSON NOT NULL,
    metadata JSON,
    recorded_at DATETIME,
    commit_position INTEGER,
    CONSTRAINT eaf_event_log_stream_version UNIQUE (stream_key, stream_version),
    CONSTRAINT eaf_event_log_event_id UNIQUE (event_id)
)
"""

_EVENTS_VIEW = """
CREATE VIEW IF NOT EXISTS eaf_events AS
SELECT e.position, lower(hex(e.event_id)) AS event_id, s.tenant_id, s.stream_type,
       s.stream_id, e.stream_version, e.event_type, e.schema_version, e.payload,
       e.metadata, e.recorded_at, e.commit_position
  FROM eaf_event_log AS e JOIN eaf_streams AS s ON s.stream_key = e.stream_key
"""

# From layout 1: streams numbered in the order they began, then every row as it was.
_FROM_LAYOUT_1 = (
    "ALTER TABLE eaf_events RENAME TO eaf_events_layout_1",
    _STREAMS,
    _EVENT_LOG,
    """
    INSERT INTO eaf_streams (tenant_id, stream_type, stream_id)
    SELECT tenant_id, stream_type, stream_id FROM eaf_events_layout_1
     GROUP BY tenant_id, stream_type, stream_id ORDER BY min(position)
    """,
    """
    INSERT INTO eaf_event_log (position, stream_key, stream_version, event_id,
                               event_type, schema_version, payload, metadata,
                               recorded_at, commit_position)
    SELECT e.position, s.stream_key, e.stream_version, eaf_unhex(e.event_id),
           e.event_type, e.schema_version, e.payload, e.metadata, e.recorded_at,
           e.commit_position
      FROM eaf_events_layout_1 AS e
      JOIN eaf_streams AS s USING (tenant_id, stream_type, stream_id)
     ORDER BY e.position
    """,
    "DROP TABLE eaf_events_layout_1",
    _EVENTS_VIEW,
)


class NewerLayoutError(RuntimeError):
    """The database file was written by a newer eaf, whose layout this one cannot read."""


def install(connection: Connection, tables: Tables) -> None:
    """Create the tables in a new file, or bring an existing one to this layout (in a
    transaction that holds the write lock)."""
    found = connection.exec_driver_sql("PRAGMA user_version").scalar_one()
    if found > LAYOUT:
        raise NewerLayoutError(
            f"the database has event store layout {found}; this eaf knows up to {LAYOUT}"
        )
    if found < LAYOUT:
        kind = connection.exec_driver_sql(
            "SELECT type FROM sqlite_master WHERE name = 'eaf_events'"
        ).scalar()
        if kind == "table":
            _unhex_on(connection)
            for statement in _FROM_LAYOUT_1:
                connection.exec_driver_sql(statement)
        for statement in (_STREAMS, _EVENT_LOG, _EVENTS_VIEW):
            connection.exec_driver_sql(statement)
        connection.exec_driver_sql(f"PRAGMA user_version = {LAYOUT}")
    tables.metadata.create_all(connection, tables=tables.created_by_metadata())


def _unhex_on(connection: Connection) -> None:
    """``eaf_unhex(text)``, the bytes of hex digits, for this transaction's connection
    (SQLite's own ``unhex`` came with 3.41)."""
    driver: Any = connection.connection.dbapi_connection
    driver.create_function("eaf_unhex", 1, bytes.fromhex, deterministic=True)
