"""A store that cannot write (SQLite refusing with SQLITE_READONLY, a full disk, a lost
PostgreSQL) fails its appends with StoreUnavailableError, storing nothing; readiness is
down until a probe write succeeds again, with no restart. tests/test_sample_e2e.py fills a
real disk under the running sample service."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import exc as sa

from eaf.context import SecurityContext, use
from eaf.eventsourcing import (
    ConcurrencyError,
    NewEvent,
    StoreUnavailableError,
    create_event_store,
    event_store_ready,
)
from eaf.eventsourcing.sql.faults import is_storage_fault
from eaf.eventsourcing.sql.sqlite_writer import SqliteWriter

READ_ONLY = "PRAGMA query_only = ON"


async def test_a_read_only_database_is_unavailable_until_it_can_write_again(
    tmp_path: Path,
) -> None:
    store = await create_event_store(f"sqlite+aiosqlite:///{tmp_path / 'events.db'}")
    pragmas = store.database._sqlite_pragmas
    try:
        with use(SecurityContext(tenant_id="acme")):
            pragmas.append(READ_ONLY)  # every connection opened from now on
            await store.database.engine.dispose()  # the pool opens its connections anew
            writer = store._writer
            assert isinstance(writer, SqliteWriter)
            await writer.close()  # and so does the writer (opened with the store)
            with pytest.raises(StoreUnavailableError) as refused:
                await store.append(
                    "Account", "a", [NewEvent("E", {})], expected_version=0
                )
            assert isinstance(refused.value.__cause__, sqlite3.OperationalError)
            assert "readonly" in str(refused.value.__cause__)
            assert store.write_fault is not None
            assert not await event_store_ready(store)
            assert await store.read_stream("Account", "a") == []  # nothing half-written

            pragmas.remove(READ_ONLY)
            await (
                store.database.engine.dispose()
            )  # the pool's connections, as after a fault
            await writer.close()  # the writer reconnects on its next append
            assert await event_store_ready(store)  # the probe wrote: ready, no restart
            assert store.write_fault is None
            await store.append("Account", "a", [NewEvent("E", {})], expected_version=0)
            assert len(await store.read_stream("Account", "a")) == 1
    finally:
        await store.close()


async def test_a_conflict_is_no_storage_fault(tmp_path: Path) -> None:
    store = await create_event_store(f"sqlite+aiosqlite:///{tmp_path / 'events.db'}")
    try:
        with use(SecurityContext(tenant_id="acme")):
            await store.append("Account", "a", [NewEvent("E", {})], expected_version=0)
            with pytest.raises(ConcurrencyError):
                await store.append(
                    "Account", "a", [NewEvent("E", {})], expected_version=0
                )
        assert store.write_fault is None
        assert await event_store_ready(store)
    finally:
        await store.close()


class _PostgresError(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


@pytest.mark.parametrize(
    ("error", "fault"),
    [
        (sqlite3.OperationalError("attempt to write a readonly database"), True),
        (sqlite3.OperationalError("database or disk is full"), True),
        (sqlite3.DatabaseError("database disk image is malformed"), True),
        (sqlite3.IntegrityError("UNIQUE constraint failed"), False),
        (OSError(28, "No space left on device"), True),
        (_PostgresError("53100"), True),  # disk full
        (_PostgresError("08006"), True),  # connection failure
        (_PostgresError("57P01"), True),  # admin shutdown
        (_PostgresError("25006"), True),  # read-only transaction (a standby)
        (_PostgresError("23505"), False),  # unique violation: the request's fault
        (_PostgresError("40001"), False),  # serialization failure: a conflict
        (sa.OperationalError("SELECT 1", {}, sqlite3.OperationalError("locked")), True),
        (ValueError("a bug"), False),
    ],
)
def test_what_counts_as_a_storage_fault(error: BaseException, fault: bool) -> None:
    assert is_storage_fault(error) is fault
