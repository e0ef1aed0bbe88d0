"""Status and rebuild by name of the projections of a SQLite or PostgreSQL database,
and read models made before fingerprints were remembered."""

from __future__ import annotations

import pytest
from sqlalchemy import JSON, Column, MetaData, Table, text

from eaf.eventsourcing import NewEvent, SqlEventStore
from eaf.projectors import (
    Projection,
    Projector,
    SqlProjectionStore,
    StoreFollower,
    UnknownProjection,
    projection_status,
    rebuild_projection,
)
from eaf.projectors.tables import JsonColumn
from eaf.projectors.testing import (
    ORDER_COLUMNS,
    ORDERS,
    all_rows,
    as_tenant,
    order_projection,
    place,
)

TENANTS = ["acme", "globex"]


async def _projected(events: SqlEventStore) -> StoreFollower:
    """The orders placed and an unrelated event appended; a follower of the orders,
    not run yet."""
    projector = Projector(order_projection(), SqlProjectionStore(events.database))
    await projector.start()
    await place(events, "acme", ORDERS)
    await place(events, "globex", {"g1": ORDERS["o1"]})
    with as_tenant("acme"):
        opened = [NewEvent("Opened", {})]
        await events.append("Account", "a-1", opened, expected_version=0)
    return StoreFollower(projector, events, batch_size=2)


async def _last_placed(events: SqlEventStore) -> int:
    async with events.database.transaction(platform=True) as connection:
        position = await connection.scalar(
            text("SELECT max(position) FROM eaf_events WHERE event_type = 'Placed'")
        )
    return int(position)


async def test_status_reports_checkpoint_head_lag_and_dead_letters(
    sql_events: SqlEventStore,
) -> None:
    follower = await _projected(sql_events)
    database = sql_events.database
    head = await _last_placed(sql_events)
    [status] = await projection_status(database)
    assert (status.name, status.checkpoint, status.head, status.lag) == (
        "orders",
        0,
        head,
        head,
    )
    assert (status.dead_letters, status.fingerprint_ok, status.percent) == (
        0,
        None,
        0,
    )

    await follower.run_once()  # progress is visible while it catches up
    [status] = await projection_status(database)
    assert 0 < status.checkpoint < head
    assert status.lag == head - status.checkpoint
    assert status.percent is not None and 0 < status.percent < 100

    await follower.run_until_idle()
    [status] = await projection_status(database)
    assert (status.checkpoint, status.lag, status.caught_up) == (head, 0, True)
    assert status.progress == f"{head}/{head} (100%)"

    invoices = order_projection("invoices")
    statuses = await projection_status(
        database, [invoices, order_projection(version="3")]
    )
    assert [(s.name, s.checkpoint, s.fingerprint_ok) for s in statuses] == [
        ("invoices", 0, False),  # given, not stored yet
        ("orders", head, False),
    ]
    assert statuses[0].head == head
    [ok] = await projection_status(database, [order_projection()], name="orders")
    assert ok.fingerprint_ok is True


async def test_rebuild_by_name_resets_and_the_follower_replays(
    sql_events: SqlEventStore,
) -> None:
    follower = await _projected(sql_events)
    await follower.run_until_idle()
    store, projection = follower.projector.store, follower.projector.projection
    before = await all_rows(store, projection, TENANTS)
    checkpoint = await store.checkpoint("orders")

    assert await rebuild_projection(sql_events.database, "orders") == checkpoint
    [status] = await projection_status(sql_events.database)
    assert (status.checkpoint, status.lag) == (0, status.head)
    assert await all_rows(store, projection, TENANTS) == []

    await follower.run_until_idle()
    assert await all_rows(store, projection, TENANTS) == before
    [status] = await projection_status(sql_events.database)
    assert status.caught_up


async def test_unknown_projections(sql_events: SqlEventStore) -> None:
    assert await projection_status(sql_events.database) == []
    with pytest.raises(UnknownProjection, match="no projection 'orders'"):
        await rebuild_projection(sql_events.database, "orders")
    await _projected(sql_events)
    with pytest.raises(UnknownProjection, match="no projection 'nope'"):
        await rebuild_projection(sql_events.database, "nope")


async def test_a_schema_change_rebuild_shows_its_progress(
    sql_events: SqlEventStore,
) -> None:
    follower = await _projected(sql_events)
    await follower.run_until_idle()
    changed = Projector(order_projection(version="2"), follower.projector.store)
    assert await changed.start() == "version changed: '' -> '2'"
    [status] = await projection_status(sql_events.database, [changed.projection])
    assert (status.checkpoint, status.lag, status.fingerprint_ok) == (
        0,
        status.head,
        True,
    )
    rebuilding = StoreFollower(changed, sql_events, batch_size=2)
    await rebuilding.run_once()
    [status] = await projection_status(sql_events.database)
    assert 0 < status.checkpoint < (status.head or 0)
    await rebuilding.run_until_idle()
    [status] = await projection_status(sql_events.database)
    assert status.caught_up


async def _forget_fingerprints(events: SqlEventStore) -> None:
    """Back to a database written before fingerprints were remembered."""
    async with events.database.transaction(platform=True, write=True) as connection:
        await connection.execute(text("DROP TABLE eaf_projection_schemas"))


async def test_a_table_made_before_fingerprints_is_kept_when_its_columns_match(
    sql_events: SqlEventStore,
) -> None:
    follower = await _projected(sql_events)
    await follower.run_until_idle()
    store, projection = follower.projector.store, follower.projector.projection
    rows = await all_rows(store, projection, TENANTS)
    checkpoint = await store.checkpoint("orders")
    await _forget_fingerprints(sql_events)
    assert await projection_status(sql_events.database) != []
    with pytest.raises(UnknownProjection, match="not recorded yet"):
        await rebuild_projection(sql_events.database, "orders")

    restarted = Projector(order_projection(), store)
    assert await restarted.start() is None
    assert await all_rows(store, projection, TENANTS) == rows
    assert await store.checkpoint("orders") == checkpoint
    [status] = await projection_status(sql_events.database, [restarted.projection])
    assert status.fingerprint_ok is True


async def test_a_table_made_before_fingerprints_is_rebuilt_when_its_columns_differ(
    sql_events: SqlEventStore,
) -> None:
    store = SqlProjectionStore(sql_events.database)
    old = Projector(order_projection(columns={**ORDER_COLUMNS, "legacy": "str"}), store)
    await old.start()
    await place(sql_events, "acme", ORDERS)
    await StoreFollower(old, sql_events).run_until_idle()
    await _forget_fingerprints(sql_events)

    new = Projector(
        order_projection(columns={**ORDER_COLUMNS, "overdue": "int"}), store
    )
    assert await new.start() == (
        "columns changed: +overdue -legacy (no fingerprint recorded)"
    )
    assert await store.checkpoint("orders") == 0
    assert await all_rows(store, new.projection, TENANTS) == []
    await StoreFollower(new, sql_events).run_until_idle()
    rows = await all_rows(store, new.projection, TENANTS)
    assert [(row["id"], row["overdue"]) for row in rows] == [
        (order, None) for order in sorted(ORDERS)
    ]


async def test_a_missing_table_with_a_checkpoint_is_rebuilt(
    sql_events: SqlEventStore,
) -> None:
    follower = await _projected(sql_events)
    await follower.run_until_idle()
    async with sql_events.database.transaction(platform=True, write=True) as conn:
        await conn.execute(text("DROP TABLE orders_read_model"))
    restarted = Projector(order_projection(), follower.projector.store)
    assert await restarted.start() == "table missing"
    assert await follower.projector.store.checkpoint("orders") == 0


#: JSON values a number-typed column would change: a lone integer past 64 bits, a
#: float with no fraction, a string of digits.
LONE_NUMBERS = {
    "big": 12345678901234567890123,
    "round": 100.0,
    "digits": "12",
}


def _with_tags(tags: dict[str, object]) -> dict[str, dict[str, object]]:
    return {order: {**ORDERS["o1"], "tags": value} for order, value in tags.items()}


async def _tags(store: SqlProjectionStore, projection: Projection) -> dict[str, object]:
    return {
        row["id"]: row["tags"] for row in await all_rows(store, projection, TENANTS)
    }


async def test_a_json_column_answers_a_lone_number_as_it_was_written(
    sql_events: SqlEventStore,
) -> None:
    store = SqlProjectionStore(sql_events.database)
    projector = Projector(order_projection(), store)
    await projector.start()
    await place(sql_events, "acme", _with_tags(LONE_NUMBERS))
    await StoreFollower(projector, sql_events).run_until_idle()

    tags = await _tags(store, projector.projection)
    assert tags == LONE_NUMBERS
    assert {order: type(value) for order, value in tags.items()} == {
        "big": int,
        "round": float,
        "digits": str,
    }


async def test_a_sqlite_table_whose_json_columns_have_numeric_affinity_is_rebuilt(
    sqlite_store: SqlEventStore,
) -> None:
    """A read model made when a JSON column was declared ``JSON`` on SQLite (numeric
    affinity: a lone number is stored as a number) is rebuilt from the events once."""
    store = SqlProjectionStore(sqlite_store.database)
    projection = order_projection()
    await Projector(projection, store).start()
    declared_json = Table(
        "orders_read_model",
        MetaData(),
        *(
            Column(
                column.name,
                JSON() if isinstance(column.type, JsonColumn) else column.type,
                primary_key=column.primary_key,
            )
            for column in projection.table.columns
        ),
    )
    async with sqlite_store.database.transaction(platform=True, write=True) as conn:
        await conn.run_sync(lambda sync: projection.table.drop(sync))
        await conn.run_sync(lambda sync: declared_json.create(sync))
    await place(sqlite_store, "acme", _with_tags(LONE_NUMBERS))
    await StoreFollower(Projector(projection, store), sqlite_store).run_until_idle()
    assert await _tags(store, projection) == {
        "big": 1.2345678901234568e22,
        "round": 100,
        "digits": "12",
    }

    restarted = Projector(order_projection(), store)
    assert await restarted.start() == "JSON columns stored as text on SQLite: tags"
    assert await store.checkpoint("orders") == 0
    await StoreFollower(restarted, sqlite_store).run_until_idle()
    assert await _tags(store, projection) == LONE_NUMBERS
    assert await Projector(order_projection(), store).start() is None
