"""PostgreSQL specifics: catch-up readers never skip a late commit, and row-level
security hides other tenants' rows even from raw SQL run by the table owner."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest

from eaf.context import platform_context, use
from eaf.eventsourcing import ConcurrencyError, NewEvent, SqlEventStore, StreamAppend
from eaf.eventsourcing.ports import SagaState, Snapshot
from eaf.eventsourcing.testing import as_tenant, new_events

PAUSE_LOCK = 4242


async def _pause_slow_streams(connection: asyncpg.Connection) -> None:
    """Make appends to 'Slow' streams wait, after their positions are reserved and
    before they commit, until the test lets go of an advisory lock. The lock is held
    at session level by a connection with no transaction id, so it does not hold back
    the readers' horizon itself: only the paused append does."""
    await connection.execute(
        f"""
        CREATE FUNCTION test_pause() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_advisory_xact_lock({PAUSE_LOCK});
            RETURN NEW;
        END $$;
        CREATE TRIGGER test_pause BEFORE INSERT ON eaf_events
            FOR EACH ROW WHEN (NEW.stream_type = 'Slow') EXECUTE FUNCTION test_pause();
        """
    )


async def _wait_for_lock_waiter(
    connection: asyncpg.Connection, *, locktype: str = "advisory"
) -> None:
    for _ in range(500):
        waiting = await connection.fetchval(
            "SELECT count(*) FROM pg_locks WHERE locktype = $1 AND NOT granted",
            locktype,
        )
        if waiting:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"no append is waiting for a lock ({locktype})")


async def test_catch_up_reader_does_not_skip_a_late_commit(
    postgres_store: SqlEventStore, postgres_connection: asyncpg.Connection
) -> None:
    admin = postgres_connection
    await _pause_slow_streams(admin)
    await admin.execute("SELECT pg_advisory_lock($1)", PAUSE_LOCK)
    with as_tenant("acme"):
        slow = asyncio.ensure_future(
            postgres_store.append("Slow", "s-1", new_events(2), expected_version=0)
        )
        await _wait_for_lock_waiter(admin)
        fast = await postgres_store.append(
            "Fast", "f-1", new_events(1), expected_version=0
        )

        # What a BIGSERIAL-style reader would see now: the later position only.
        await admin.execute("SELECT set_config('eaf.tenant_id', 'acme', false)")
        naive = await admin.fetch("SELECT position FROM eaf_events ORDER BY position")
        assert [row["position"] for row in naive] == [fast[0].position]

        # Our reader waits: the paused transaction is below every later position.
        assert await postgres_store.read_all(after=0) == []
        # So does the outbox relay, which reads the events from its cursor.
        assert await postgres_store.outbox.pending(10) == []

        await admin.execute("SELECT pg_advisory_unlock($1)", PAUSE_LOCK)
        slow_events = await slow
        caught_up = await postgres_store.read_all(after=0)
    assert slow_events[-1].position < fast[0].position  # the slow one committed last
    assert [e.event_id for e in caught_up] == [e.event_id for e in slow_events + fast]
    relayed = await postgres_store.outbox.pending(10)
    assert [m.event_id for m in relayed] == [str(e.event_id) for e in caught_up]


async def _fill_two_tenants(store: SqlEventStore) -> None:
    for tenant in ("acme", "globex"):
        with as_tenant(tenant):
            await store.append("Account", "a", new_events(3), expected_version=0)
            await store.snapshots.save(Snapshot("Account", "a", 3, {"t": tenant}))
            await store.sagas.save(SagaState("Fulfilment", "o-1", {"t": tenant}))


@pytest.mark.parametrize("table", ["eaf_events", "eaf_snapshots", "eaf_sagas"])
async def test_row_level_security_blocks_raw_sql_without_a_tenant(
    postgres_store: SqlEventStore, postgres_connection: asyncpg.Connection, table: str
) -> None:
    await _fill_two_tenants(postgres_store)
    raw = postgres_connection
    role = await raw.fetchrow(
        "SELECT rolsuper, rolbypassrls, current_user AS name FROM pg_roles "
        "WHERE rolname = current_user"
    )
    owner = await raw.fetchval(
        "SELECT tableowner FROM pg_tables WHERE tablename = $1", table
    )
    forced = await raw.fetchval(
        "SELECT relrowsecurity AND relforcerowsecurity FROM pg_class WHERE relname = $1",
        table,
    )
    assert (role["rolsuper"], role["rolbypassrls"], owner, forced) == (
        False,
        False,
        role["name"],
        True,
    )

    assert await raw.fetchval(f"SELECT count(*) FROM {table}") == 0
    async with raw.transaction():
        await raw.execute("SELECT set_config('eaf.tenant_id', 'acme', true)")
        tenants = await raw.fetch(f"SELECT DISTINCT tenant_id FROM {table}")
        assert [row["tenant_id"] for row in tenants] == ["acme"]
    assert await raw.fetchval(f"SELECT count(*) FROM {table}") == 0
    async with raw.transaction():
        await raw.execute("SELECT set_config('eaf.platform', 'on', true)")
        assert await raw.fetchval(f"SELECT count(DISTINCT tenant_id) FROM {table}") == 2


async def test_row_level_security_rejects_writes_for_another_tenant(
    postgres_store: SqlEventStore, postgres_connection: asyncpg.Connection
) -> None:
    raw = postgres_connection
    async with raw.transaction():
        await raw.execute("SELECT set_config('eaf.tenant_id', 'acme', true)")
        with pytest.raises(
            asyncpg.InsufficientPrivilegeError, match="row-level security"
        ):
            await raw.execute(
                "INSERT INTO eaf_snapshots VALUES ('globex', 'A', 'a', 1, 1, '{}', now())"
            )


async def test_outbox_relay_sees_every_tenant_in_order(
    postgres_store: SqlEventStore,
) -> None:
    await _fill_two_tenants(postgres_store)
    pending = await postgres_store.outbox.pending(100)
    assert [m.tenant_id for m in pending] == ["acme"] * 3 + ["globex"] * 3
    assert [m.position for m in pending] == sorted(m.position for m in pending)
    with use(platform_context()):
        assert len(await postgres_store.read_all()) == 6


async def test_a_refused_append_fails_alone_in_its_group_commit(
    postgres_store: SqlEventStore,
) -> None:
    def append(n: int) -> Any:
        text = "nul \u0000 jsonb cannot store" if n == 5 else "fine"
        return postgres_store.append(
            "Doc", f"d-{n}", [NewEvent("Written", {"text": text})], expected_version=0
        )

    with as_tenant("acme"):
        results = await asyncio.gather(
            *(append(n) for n in range(12)), return_exceptions=True
        )
        stored = await postgres_store.read_all()
    failed = [
        n for n, result in enumerate(results) if isinstance(result, BaseException)
    ]
    assert failed == [5]
    assert sorted(e.stream_id for e in stored) == sorted(
        f"d-{n}" for n in range(12) if n != 5
    )


async def test_a_version_assertion_holds_until_its_commit(
    postgres_store: SqlEventStore, postgres_connection: asyncpg.Connection
) -> None:
    """A writer of the asserted stream that is under way when the assertion runs (its
    row inserted, not yet committed) makes the assertion wait and then fail, rather
    than both committing as if the other had not happened."""
    admin = postgres_connection
    await admin.execute(
        f"""
        CREATE FUNCTION test_pause() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_advisory_xact_lock({PAUSE_LOCK});
            RETURN NULL;
        END $$;
        CREATE TRIGGER test_pause AFTER INSERT ON eaf_events
            FOR EACH ROW WHEN (NEW.event_type = 'Slow') EXECUTE FUNCTION test_pause();
        """
    )
    with as_tenant("acme"):
        await postgres_store.append("Book", "1", new_events(1), expected_version=0)
        await admin.execute("SELECT pg_advisory_lock($1)", PAUSE_LOCK)
        removal = asyncio.ensure_future(
            postgres_store.append(
                "Book", "1", [NewEvent("Slow", {})], expected_version=1
            )
        )
        await _wait_for_lock_waiter(admin)
        loan = asyncio.ensure_future(
            postgres_store.append_streams(
                [
                    StreamAppend("Book", "1", [], 1),
                    StreamAppend("Loan", "l-1", new_events(1), 0),
                ]
            )
        )
        await _wait_for_lock_waiter(admin, locktype="transactionid")
        await admin.execute("SELECT pg_advisory_unlock($1)", PAUSE_LOCK)
        await removal
        with pytest.raises(ConcurrencyError) as raised:
            await loan
        assert await postgres_store.stream_version("Loan", "l-1") == 0
        assert await postgres_store.stream_version("Book", "1") == 2
    assert (raised.value.stream_type, raised.value.stream_id) == ("Book", "1")


async def test_a_refused_multi_stream_append_fails_whole_and_alone(
    postgres_store: SqlEventStore,
) -> None:
    def append(n: int) -> Any:
        text = "nul \u0000 jsonb cannot store" if n == 5 else "fine"
        return postgres_store.append_streams(
            [
                StreamAppend("Doc", f"d-{n}", [NewEvent("Written", {})], 0),
                StreamAppend(
                    "Note", f"n-{n}", [NewEvent("Written", {"text": text})], 0
                ),
            ]
        )

    with as_tenant("acme"):
        results = await asyncio.gather(
            *(append(n) for n in range(12)), return_exceptions=True
        )
        stored = await postgres_store.read_all()
    failed = [
        n for n, result in enumerate(results) if isinstance(result, BaseException)
    ]
    assert failed == [5]
    assert sorted(e.stream_id for e in stored) == sorted(
        f"{kind}-{n}" for n in range(12) if n != 5 for kind in "dn"
    )
