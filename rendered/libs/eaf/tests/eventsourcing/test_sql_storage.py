"""How the SQL event store lays out an append: the append's metadata and time are
stored once, on its first event, and every read joins them back to each event."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from eaf.context import SecurityContext, platform_context, use
from eaf.eventsourcing import (
    ConcurrencyError,
    DuplicateEventError,
    NewEvent,
    SqlEventStore,
)


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> SqlEventStore:
    found: SqlEventStore = request.getfixturevalue(f"{request.param}_store")
    return found


async def test_metadata_is_stored_once_per_append_and_read_with_every_event(
    store: SqlEventStore,
) -> None:
    context = SecurityContext(tenant_id="acme", user_id="ann", causation_id="cmd-1")
    with use(context):
        stored = await store.append(
            "Account", "a", [NewEvent("E", {"n": n}) for n in range(3)],
            expected_version=0,
        )  # fmt: skip
        single = await store.append(
            "Account", "a", [NewEvent("E", {"n": 3})], expected_version=3
        )
    async with store.database.transaction(tenant="acme") as connection:
        rows = (
            await connection.execute(
                text(
                    "SELECT metadata IS NULL, recorded_at IS NULL, commit_position"
                    " FROM eaf_events ORDER BY position"
                )
            )
        ).all()
    first = stored[0].position
    assert [tuple(row) for row in rows] == [
        (False, False, None),
        (True, True, first),
        (True, True, first),
        (False, False, None),
    ]
    with use(context):
        assert await store.read_stream("Account", "a") == stored + single
        assert await store.read_stream("Account", "a", after_version=2) == [
            stored[2],
            *single,
        ]
    with use(platform_context()):  # a read that starts inside the append
        assert await store.read_all(after=first) == stored[1:] + single
    relayed = await store.outbox.pending(10)
    # Each append is its own span: the same context, its own trace context.
    assert [m.metadata for m in relayed] == [stored[0].metadata.as_dict()] * 3 + [
        single[0].metadata.as_dict()
    ]
    assert {m.recorded_at for m in relayed[:3]} == {stored[0].recorded_at}


async def test_large_appends_are_stored_whole_or_refused_whole(
    store: SqlEventStore,
) -> None:
    """Appends of many events (one statement on SQLite, its rows split from a JSON
    array) store all their rows, or none when refused; concurrent ones commit together."""
    many = [NewEvent("E", {"n": n}) for n in range(20)]
    with use(SecurityContext(tenant_id="acme")):
        stored = await store.append("Account", "a", many, expected_version=0)
        with pytest.raises(ConcurrencyError):
            await store.append(
                "Account", "a", [NewEvent("E", {}) for _ in range(20)],
                expected_version=5,
            )  # fmt: skip
        with pytest.raises(DuplicateEventError):
            await store.append(
                "Account", "b", [*many[3:4], *(NewEvent("E", {}) for _ in range(20))],
                expected_version=0,
            )  # fmt: skip
        together = await asyncio.gather(
            *(
                store.append(
                    "Account",
                    f"c{n}",
                    [NewEvent("E", {}) for _ in range(20)],
                    expected_version=0,
                )  # fmt: skip
                for n in range(4)
            )
        )
        assert await store.read_stream("Account", "a") == stored
        assert await store.read_stream("Account", "b") == []
        for appended in together:
            assert await store.read_stream("Account", appended[0].stream_id) == appended
    assert [e.payload for e in stored] == [{"n": n} for n in range(20)]
    with use(platform_context()):
        everything = await store.read_all(limit=1000)
    assert [e.position for e in everything] == sorted(e.position for e in everything)
    assert len(everything) == 20 * 5
