"""Instants given with any UTC offset are stored in UTC, so a read model's datetime
column sorts and filters by the instant (the columns hold text), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from eaf.eventsourcing import NewEvent, SqlEventStore, StoredEvent
from eaf.eventsourcing.serialization import encode_value
from eaf.projectors import (
    Projection,
    Projector,
    ReadModelWriter,
    SqlProjectionStore,
    StoreFollower,
)
from eaf.projectors.paging import Condition, in_range, order_by
from eaf.projectors.query import ReadModel
from eaf.projectors.tables import read_model_table
from eaf.projectors.testing import FAST_RETRY, as_tenant

# Given as a client would: 05:00Z, 07:00Z and 06:30Z, each with another offset.
SLOTS = {
    "a": datetime.fromisoformat("2099-01-01T10:00:00+05:00"),
    "b": datetime.fromisoformat("2099-01-01T07:00:00Z"),
    "c": datetime.fromisoformat("2099-01-01T01:30:00-05:00"),
}


def test_an_instant_is_encoded_in_utc_whatever_its_offset() -> None:
    assert encode_value(SLOTS["a"]) == "2099-01-01T05:00:00+00:00"
    assert encode_value(SLOTS["c"]) == "2099-01-01T06:30:00+00:00"
    assert encode_value(datetime(2099, 1, 1, 7, tzinfo=UTC)) == encode_value(SLOTS["b"])
    # a naive value has no offset to convert: kept as given
    assert encode_value(datetime(2099, 1, 1, 7)) == "2099-01-01T07:00:00"


def _slots() -> Projection:
    table = read_model_table("slots", {"id": "str", "at": "str"}, key=("id",))
    projection = Projection("slots", table)

    @projection.handles("SlotMade")
    async def made(writer: ReadModelWriter, event: StoredEvent) -> None:
        at = datetime.fromisoformat(event.payload["at"])
        await writer.upsert({"id": event.stream_id, "at": encode_value(at)})

    return projection


@pytest.mark.asyncio
async def test_a_datetime_column_sorts_and_filters_by_the_instant_on_sqlite(
    sqlite_store: SqlEventStore,
) -> None:
    await _sorts_and_filters_by_the_instant(sqlite_store)


@pytest.mark.asyncio
async def test_a_datetime_column_sorts_and_filters_by_the_instant_on_postgres(
    postgres_store: SqlEventStore,
) -> None:
    await _sorts_and_filters_by_the_instant(postgres_store)


async def _sorts_and_filters_by_the_instant(store: SqlEventStore) -> None:
    projections = SqlProjectionStore(store.database)
    projection = _slots()
    projector = Projector(projection, projections, retry=FAST_RETRY)
    await projector.start()
    with as_tenant("acme"):
        for slot, at in SLOTS.items():
            # as a rendered service stores an event: its payload encoded
            payload = {"at": encode_value(at)}
            await store.append(
                "Slot", slot, [NewEvent("SlotMade", payload)], expected_version=0
            )
    await StoreFollower(projector, store).run_until_idle()
    model = ReadModel(projections, projection)

    async def ids(*where: Condition, sort: list[str] | None = None) -> list[str]:
        with as_tenant("acme"):
            page = await model.page(
                where=list(where),
                order_by=order_by(sort, {"at": "at"}),
                limit=10,
                offset=0,
            )
        return [row["id"] for row in page.rows]

    assert await ids(sort=["at"]) == ["a", "c", "b"]
    assert await ids(sort=["-at"]) == ["b", "c", "a"]
    before_six = in_range("at", lt=datetime.fromisoformat("2099-01-01T06:00:00Z"))
    assert await ids(*before_six) == ["a"]
    after = in_range("at", gte=datetime.fromisoformat("2099-01-01T08:30:00+02:00"))
    assert await ids(*after, sort=["at"]) == ["c", "b"]
