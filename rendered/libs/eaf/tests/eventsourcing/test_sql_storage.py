"""How the SQL event store lays out an append: the append's metadata and time are
stored once, on its first event, and every read joins them back to each event."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from eaf.context import SecurityContext, platform_context, use
from eaf.eventsourcing import NewEvent, SqlEventStore


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
