"""A consistent read of a read model (read your writes): it waits until the projection
holds every event the tenant had stored when it asked, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from eaf.eventsourcing import SqlEventStore
from eaf.projectors import (
    NotYetProjected,
    Projector,
    ReadModel,
    SqlProjectionStore,
    StoreFollower,
)
from eaf.projectors.testing import ORDERS, as_tenant, order_projection, place


async def _orders(events: SqlEventStore) -> tuple[ReadModel, StoreFollower]:
    projection = order_projection()
    store = SqlProjectionStore(events.database)
    projector = Projector(projection, store)
    await projector.start()
    return ReadModel(store, projection), StoreFollower(projector, events)


async def test_a_consistent_read_waits_for_the_tenant_s_own_writes(
    sql_events: SqlEventStore,
) -> None:
    orders, follower = await _orders(sql_events)
    await place(sql_events, "acme", {"o1": ORDERS["o1"]})
    with as_tenant("acme"):
        waiting = asyncio.create_task(orders.caught_up_with(sql_events, timeout=10))
        await asyncio.sleep(0.1)
        assert not waiting.done()  # o1 is stored, not yet projected
        await follower.run_until_idle()
        await asyncio.wait_for(waiting, 5)
        assert [row["id"] for row in await orders.find()] == ["o1"]


async def test_another_tenant_s_pending_events_keep_no_one_waiting(
    sql_events: SqlEventStore,
) -> None:
    orders, follower = await _orders(sql_events)
    await place(sql_events, "acme", {"o1": ORDERS["o1"]})
    await follower.run_until_idle()
    await place(sql_events, "globex", {"g1": ORDERS["o2"]})  # not projected
    with as_tenant("acme"):
        await asyncio.wait_for(orders.caught_up_with(sql_events, timeout=10), 1)
    with as_tenant("globex"), pytest.raises(NotYetProjected, match="not yet at"):
        await orders.caught_up_with(sql_events, timeout=0.2)
