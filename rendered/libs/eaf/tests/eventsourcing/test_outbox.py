"""The SQL outbox is the events table read from a relay's cursor: the cursor moves over
the published prefix only, survives a restart, and is kept per relay."""

from __future__ import annotations

import pytest

from eaf.eventsourcing import SqlEventStore
from eaf.eventsourcing.sql import SqlOutbox
from eaf.eventsourcing.testing import as_tenant, new_events


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> SqlEventStore:
    found: SqlEventStore = request.getfixturevalue(f"{request.param}_store")
    return found


async def test_cursor_moves_over_the_published_prefix_and_survives_a_restart(
    store: SqlEventStore,
) -> None:
    with as_tenant("acme"):
        stored = await store.append("Account", "a", new_events(4), expected_version=0)
    p1, p2, p3, p4 = (event.position for event in stored)
    outbox = store.outbox
    assert [m.position for m in await outbox.pending(10)] == [p1, p2, p3, p4]

    await outbox.mark_published([p3])  # out of order: the cursor stays
    assert await outbox.cursor() == 0
    assert [m.position for m in await outbox.pending(10)] == [p1, p2, p4]
    await outbox.mark_published([p1])
    assert await outbox.cursor() == p1
    assert [m.position for m in await outbox.pending(2)] == [p2, p4]

    restarted = SqlOutbox(store.database)  # forgets p3: at least once, not at most
    assert [m.position for m in await restarted.pending(10)] == [p2, p3, p4]
    await restarted.mark_published([p2, p3, p4])
    assert await restarted.cursor() == p4
    assert await SqlOutbox(store.database).pending(10) == []

    other = SqlOutbox(store.database, relay="audit")  # another relay, its own cursor
    assert len(await other.pending(10)) == 4
    with as_tenant("globex"):
        late = await store.append("Account", "a", new_events(1), expected_version=0)
    assert [m.position for m in await restarted.pending(10)] == [late[0].position]


async def test_a_stale_cursor_never_moves_the_stored_one_back(
    store: SqlEventStore,
) -> None:
    with as_tenant("acme"):
        stored = await store.append("Account", "a", new_events(2), expected_version=0)
    stale, current = SqlOutbox(store.database), SqlOutbox(store.database)
    await stale.pending(10)
    await current.pending(10)
    await current.mark_published([e.position for e in stored])
    await stale.mark_published([stored[0].position])
    assert await current.cursor() == stored[1].position
