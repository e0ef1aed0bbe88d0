"""The tables of the SQL adapters (SQLite and PostgreSQL share them; PostgreSQL adds
``tx_id``, the writing transaction's id, which its readers use for the global order).
On SQLite ``eaf_events`` is a view of the same columns over a more compact layout
(see ``sqlite_schema``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Index,
    Integer,
    MetaData,
    Row,
    Select,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
    func,
    select,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.types import UserDefinedType

from eaf.eventsourcing.records import EventMetadata, StoredEvent, as_utc

STREAM_VERSION_KEY = "eaf_events_stream_version_key"
EVENT_ID_KEY = "eaf_events_event_id_key"

_Json = JSON().with_variant(JSONB(), "postgresql")
# INTEGER PRIMARY KEY is SQLite's rowid: the cheapest key it has.
_Position = BigInteger().with_variant(Integer(), "sqlite")


class Xid8(UserDefinedType[Any]):
    """PostgreSQL's 64-bit transaction id type."""

    cache_ok = True

    def get_col_spec(self, **kw: Any) -> str:
        return "xid8"


@dataclass(frozen=True)
class Tables:
    metadata: MetaData
    events: Table
    outbox_cursors: Table
    snapshots: Table
    sagas: Table
    saga_positions: Table
    heads: Table
    """Where an append's first event holds its metadata and time, by position: the
    events table, or on SQLite the table under the ``eaf_events`` view."""

    def created_by_metadata(self) -> list[Table]:
        """The tables ``metadata.create_all`` makes (on SQLite, all but the events)."""
        return [
            table
            for table in self.metadata.sorted_tables
            if table is not self.events or self.heads is self.events
        ]


def build_tables(*, postgres: bool) -> Tables:
    metadata = MetaData()
    events = Table(
        "eaf_events",
        metadata,
        Column("position", _Position, primary_key=True, autoincrement=False),
        Column("event_id", Uuid(), nullable=False),
        Column("tenant_id", Text(), nullable=False),
        Column("stream_type", Text(), nullable=False),
        Column("stream_id", Text(), nullable=False),
        Column("stream_version", BigInteger(), nullable=False),
        Column("event_type", Text(), nullable=False),
        Column("schema_version", Integer(), nullable=False),
        Column("payload", _Json, nullable=False),
        # Who and when, once per append: on its first event (commit_position NULL);
        # its other events point at that one (commit_position) and hold NULL here.
        Column("metadata", _Json, nullable=True),
        Column("recorded_at", DateTime(timezone=True), nullable=True),
        Column("commit_position", _Position, nullable=True),
        UniqueConstraint(
            "tenant_id",
            "stream_type",
            "stream_id",
            "stream_version",
            name=STREAM_VERSION_KEY,
        ),
        UniqueConstraint("event_id", name=EVENT_ID_KEY),
        Index("eaf_events_tenant_position", "tenant_id", "position"),
    )
    if postgres:
        events.append_column(
            Column(
                "tx_id",
                Xid8(),
                nullable=False,
                server_default=text("pg_current_xact_id()"),
            )
        )
    # The outbox is the events table: a relay's cursor is the position it has
    # published up to (see sql/outbox.py).
    outbox_cursors = Table(
        "eaf_outbox_cursors",
        metadata,
        Column("relay", Text(), primary_key=True),
        Column("position", BigInteger(), nullable=False),
    )
    snapshots = Table(
        "eaf_snapshots",
        metadata,
        Column("tenant_id", Text(), primary_key=True),
        Column("stream_type", Text(), primary_key=True),
        Column("stream_id", Text(), primary_key=True),
        Column("version", BigInteger(), nullable=False),
        Column("state_version", Integer(), nullable=False),
        Column("state", _Json, nullable=False),
        Column("recorded_at", DateTime(timezone=True), nullable=False),
    )
    sagas = Table(
        "eaf_sagas",
        metadata,
        Column("tenant_id", Text(), primary_key=True),
        Column("saga_type", Text(), primary_key=True),
        Column("association", Text(), primary_key=True),
        Column("state", _Json, nullable=False),
        Column("ended", Boolean(), nullable=False),
        Column("last_position", BigInteger(), nullable=False),
        Column("revision", BigInteger(), nullable=False),
        Column("updated_at", DateTime(timezone=True), nullable=False),
    )
    saga_positions = Table(
        "eaf_saga_positions",
        metadata,
        Column("runner", Text(), primary_key=True),
        Column("position", BigInteger(), nullable=False),
    )
    heads = events
    if not postgres:
        heads = Table(
            "eaf_event_log",
            MetaData(),
            Column("position", Integer(), primary_key=True),
            Column("metadata", _Json, nullable=True),
            Column("recorded_at", DateTime(timezone=True), nullable=True),
        )
    return Tables(
        metadata, events, outbox_cursors, snapshots, sagas, saga_positions, heads
    )


_PER_APPEND = ("metadata", "recorded_at")


def select_events(tables: Tables) -> Select[Any]:
    """The stored events, each with its append's metadata and time (joined from the
    append's first event, by primary key, when the event does not hold them itself)."""
    events = tables.events
    head = tables.heads.alias("eaf_head")
    columns = [
        column
        for column in events.columns
        if column.name not in ("tx_id", "commit_position", *_PER_APPEND)
    ]
    shared = [
        func.coalesce(events.c[name], head.c[name]).label(name) for name in _PER_APPEND
    ]
    return select(*columns, *shared).select_from(
        events.outerjoin(head, head.c.position == events.c.commit_position)
    )


def row_to_event(row: Row[Any]) -> StoredEvent:
    return StoredEvent(
        position=row.position,
        event_id=row.event_id,
        tenant_id=row.tenant_id,
        stream_type=row.stream_type,
        stream_id=row.stream_id,
        stream_version=row.stream_version,
        event_type=row.event_type,
        schema_version=row.schema_version,
        payload=row.payload,
        metadata=EventMetadata.from_dict(row.metadata),
        recorded_at=as_utc(row.recorded_at),
    )
