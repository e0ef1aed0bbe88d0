"""A SQLite file of the first layout (``eaf_events`` a table with every column, an index
per key and one on tenant and position) is migrated when a store opens it: every event,
version, position, id, the outbox cursor and the other tables' rows are kept, and the
store reads and appends as on a new file."""

from __future__ import annotations

import json
import sqlite3
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from eaf.context import platform_context, use
from eaf.eventsourcing import (
    ConcurrencyError,
    DuplicateEventError,
    NewEvent,
    create_event_store,
)
from eaf.eventsourcing.sql.sqlite_schema import LAYOUT, NewerLayoutError
from eaf.eventsourcing.testing import as_tenant

# What the first layout's store created (SQLAlchemy's DDL for its tables).
_LAYOUT_1 = """
CREATE TABLE eaf_events (
    position INTEGER NOT NULL,
    event_id CHAR(32) NOT NULL,
    tenant_id TEXT NOT NULL,
    stream_type TEXT NOT NULL,
    stream_id TEXT NOT NULL,
    stream_version BIGINT NOT NULL,
    event_type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    payload JSON NOT NULL,
    metadata JSON,
    recorded_at DATETIME,
    commit_position INTEGER,
    PRIMARY KEY (position),
    CONSTRAINT eaf_events_stream_version_key
        UNIQUE (tenant_id, stream_type, stream_id, stream_version),
    CONSTRAINT eaf_events_event_id_key UNIQUE (event_id)
);
CREATE INDEX eaf_events_tenant_position ON eaf_events (tenant_id, position);
CREATE TABLE eaf_outbox_cursors (
    relay TEXT NOT NULL,
    position BIGINT NOT NULL,
    PRIMARY KEY (relay)
);
CREATE TABLE eaf_snapshots (
    tenant_id TEXT NOT NULL,
    stream_type TEXT NOT NULL,
    stream_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    state_version INTEGER NOT NULL,
    state JSON NOT NULL,
    recorded_at DATETIME NOT NULL,
    PRIMARY KEY (tenant_id, stream_type, stream_id)
);
CREATE TABLE eaf_sagas (
    tenant_id TEXT NOT NULL,
    saga_type TEXT NOT NULL,
    association TEXT NOT NULL,
    state JSON NOT NULL,
    ended BOOLEAN NOT NULL,
    last_position BIGINT NOT NULL,
    revision BIGINT NOT NULL,
    updated_at DATETIME NOT NULL,
    PRIMARY KEY (tenant_id, saga_type, association)
);
CREATE TABLE eaf_saga_positions (
    runner TEXT NOT NULL,
    position BIGINT NOT NULL,
    PRIMARY KEY (runner)
);
"""

# The first layout's writer: parameters 1 first position, 2 tenant, 3 stream type,
# 4 stream id, 5 first version, 6 metadata, 7 recorded at, 8 the events as
# [[hex id, type, schema version, payload], ...].
_COLUMNS = (
    "position, event_id, tenant_id, stream_type, stream_id, stream_version, event_type,"
    " schema_version, payload, metadata, recorded_at, commit_position"
)
_INSERT_MANY = (
    f"INSERT INTO eaf_events ({_COLUMNS}) SELECT ?1 + e.key, e.value ->> 0, ?2,"
    " ?3, ?4, ?5 + e.key, e.value ->> 1, e.value ->> 2, e.value -> '$[3]',"
    " iif(e.key = 0, ?6, NULL), iif(e.key = 0, ?7, NULL), nullif(?1, ?1 + e.key)"
    " FROM json_each(?8) AS e"
)

_AT = datetime(2026, 11, 20, 8, 30, tzinfo=UTC)


def _old_append(
    database: sqlite3.Connection,
    tenant: str,
    stream_id: str,
    first_version: int,
    payloads: list[dict[str, int]],
) -> list[uuid.UUID]:
    (last,) = database.execute(
        "SELECT coalesce(max(position), 0) FROM eaf_events"
    ).fetchone()
    ids = [uuid.uuid4() for _ in payloads]
    events = [[i.hex, "Deposited", 1, p] for i, p in zip(ids, payloads, strict=True)]
    metadata = {"tenant_id": tenant, "user_id": "ann", "correlation_id": stream_id}
    database.execute(
        _INSERT_MANY,
        (
            last + 1,
            tenant,
            "Account",
            stream_id,
            first_version,
            json.dumps(metadata),
            _AT.isoformat(" "),
            json.dumps(events),
        ),
    )
    return ids


@pytest.fixture
def layout_1_file(tmp_path: Path) -> tuple[str, list[uuid.UUID]]:
    """A file as the first layout's store left it: five events of two tenants, the
    relay's cursor at 2, a snapshot, a saga and a saga runner's position."""
    path = tmp_path / "events.db"
    with sqlite3.connect(path) as database:
        database.execute("PRAGMA journal_mode=WAL")
        database.executescript(_LAYOUT_1)
        ids = _old_append(database, "acme", "a", 1, [{"n": 1}, {"n": 2}, {"n": 3}])
        ids += _old_append(database, "globex", "a", 1, [{"n": 10}])
        ids += _old_append(database, "acme", "a", 4, [{"n": 4}])
        database.execute("INSERT INTO eaf_outbox_cursors VALUES ('default', 2)")
        database.execute(
            "INSERT INTO eaf_snapshots VALUES ('acme', 'Account', 'a', 3, 1,"
            " '{\"balance\": 6}', '2026-11-20 08:30:00.000000')"
        )
        database.execute(
            "INSERT INTO eaf_sagas VALUES ('acme', 'Transfer', 't-1', '{}', 0, 4, 1,"
            " '2026-11-20 08:30:00.000000')"
        )
        database.execute("INSERT INTO eaf_saga_positions VALUES ('transfers', 4)")
    database.close()
    return f"sqlite+aiosqlite:///{path}", ids


async def test_a_first_layout_file_is_migrated_whole_on_open(
    layout_1_file: tuple[str, list[uuid.UUID]],
) -> None:
    url, ids = layout_1_file
    store = await create_event_store(url)
    try:
        with as_tenant("acme"):
            stream = await store.read_stream("Account", "a")
            assert await store.stream_version("Account", "a") == 4
            snapshot = await store.snapshots.latest("Account", "a")
        assert [(e.position, e.stream_version, e.payload) for e in stream] == [
            (1, 1, {"n": 1}),
            (2, 2, {"n": 2}),
            (3, 3, {"n": 3}),
            (5, 4, {"n": 4}),
        ]
        assert [e.event_id for e in stream] == [*ids[:3], ids[4]]
        assert {(e.tenant_id, e.event_type, e.schema_version) for e in stream} == {
            ("acme", "Deposited", 1)
        }
        assert {e.recorded_at for e in stream} == {_AT}
        assert {e.metadata.correlation_id for e in stream} == {"a"}
        assert snapshot is not None
        assert (snapshot.version, snapshot.state) == (3, {"balance": 6})

        with as_tenant("globex"):
            (other,) = await store.read_stream("Account", "a")
            assert (other.position, other.event_id) == (4, ids[3])
            assert await store.read_all() == [other]
        with use(platform_context()):
            everything = await store.read_all()
            assert await store.sagas.tracking_position("transfers") == 4
        assert [e.position for e in everything] == [1, 2, 3, 4, 5]
        relayed = await store.outbox.pending(10)
        assert [m.position for m in relayed] == [3, 4, 5]

        with as_tenant("acme"):
            with pytest.raises(ConcurrencyError):
                await store.append(
                    "Account", "a", [NewEvent("X", {})], expected_version=3
                )
            with pytest.raises(DuplicateEventError):
                await store.append(
                    "Account", "b", [NewEvent("X", {}, event_id=ids[0])],
                    expected_version=0,
                )  # fmt: skip
            more = await store.append(
                "Account", "a", [NewEvent("Deposited", {"n": 5})], expected_version=4
            )
            fresh = await store.append(
                "Account", "c", [NewEvent("Opened", {}), NewEvent("Deposited", {})],
                expected_version=0,
            )  # fmt: skip
            assert (await store.read_stream("Account", "a"))[-1] == more[0]
        assert [(e.position, e.stream_version) for e in more + fresh] == [
            (6, 5),
            (7, 1),
            (8, 2),
        ]
    finally:
        await store.close()

    again = await create_event_store(url)  # a second open finds the layout current
    try:
        with use(platform_context()):
            assert [e.position for e in await again.read_all()] == [*range(1, 9)]
    finally:
        await again.close()
    path = url.removeprefix("sqlite+aiosqlite:///")
    with sqlite3.connect(path) as database:
        assert database.execute("PRAGMA user_version").fetchone() == (LAYOUT,)
        assert database.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        objects = dict(
            database.execute(
                "SELECT name, type FROM sqlite_master WHERE name LIKE 'eaf_event%'"
            )
        )
    database.close()
    assert objects == {"eaf_events": "view", "eaf_event_log": "table"}


async def test_a_file_of_a_newer_layout_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "events.db"
    with sqlite3.connect(path) as database:
        database.execute(f"PRAGMA user_version = {LAYOUT + 1}")
    database.close()
    with pytest.raises(NewerLayoutError):
        await create_event_store(f"sqlite+aiosqlite:///{path}")
