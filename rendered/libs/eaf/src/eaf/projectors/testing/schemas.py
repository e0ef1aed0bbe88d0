"""The schema contract: a projection whose shape changed is rebuilt from position 0,
an unchanged one never is, and a reset made while a batch was read is noticed."""

from __future__ import annotations

import logging
from typing import Any, cast

import pytest

from eaf.context import platform_context, use
from eaf.eventsourcing.ports import EventStore
from eaf.eventsourcing.records import StoredEvent, utc_now
from eaf.projectors.follow import StoreFollower
from eaf.projectors.ports import DeadLetterRecord, ProjectionStore, Rewound
from eaf.projectors.projection import Projection
from eaf.projectors.projector import Projector
from eaf.projectors.testing.helpers import (
    FAST_RETRY,
    ORDER_COLUMNS,
    ORDERS,
    all_rows,
    order_projection,
    place,
)

TENANTS = ["acme", "globex"]


async def _read_all(events: EventStore, after: int = 0) -> list[StoredEvent]:
    with use(platform_context()):
        return await events.read_all(after=after, limit=10_000)


def _letter(projection: Projection, position: int) -> DeadLetterRecord:
    return DeadLetterRecord(
        projection=projection.name,
        position=position,
        event_id=f"poison-{position}",
        event_type="Placed",
        tenant_id="acme",
        reason="ValueError: poison",
        attempts=3,
        failed_at=utc_now(),
    )


def _rebuild_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if "rebuilding from position 0" in record.getMessage()
    ]


class _ResetAfterRead:
    """An event store that resets the projection once, just after a read past 0:
    as if an operator rebuilt it while the follower held a batch."""

    def __init__(self, events: EventStore, projector: Projector) -> None:
        self._events = events
        self._projector = projector
        self.resets = 0

    async def read_all(self, **options: Any) -> list[StoredEvent]:
        batch = await self._events.read_all(**options)
        if batch and options["after"] > 0 and not self.resets:
            self.resets += 1
            await self._projector.store.reset(self._projector.projection)
        return batch


@pytest.mark.asyncio
class SchemaContract:
    async def test_an_unchanged_projection_is_not_rebuilt_on_restart(
        self,
        event_store: EventStore,
        projection_store: ProjectionStore,
        caplog: pytest.LogCaptureFixture,
    ) -> None:
        first = Projector(order_projection(), projection_store)
        assert await first.start() is None
        await place(event_store, "acme", ORDERS)
        await StoreFollower(first, event_store).run_until_idle()
        await projection_store.dead_letter(
            first.projection, _letter(first.projection, 1), dedup="event_id"
        )
        rows = await all_rows(projection_store, first.projection, TENANTS)
        checkpoint = await projection_store.checkpoint("orders")
        caplog.set_level(logging.INFO, "eaf.projectors")
        restarted = Projector(order_projection(), projection_store)
        assert await restarted.start() is None
        assert await all_rows(projection_store, restarted.projection, TENANTS) == rows
        assert await projection_store.checkpoint("orders") == checkpoint > 0
        assert len(await projection_store.dead_letters("orders")) == 1
        assert _rebuild_lines(caplog) == []

    async def test_changed_columns_drop_the_read_model_to_rebuild_it(
        self,
        event_store: EventStore,
        projection_store: ProjectionStore,
        caplog: pytest.LogCaptureFixture,
    ) -> None:
        old = order_projection(columns={**ORDER_COLUMNS, "legacy": "str"})
        first = Projector(old, projection_store, retry=FAST_RETRY)
        await first.start()
        await place(event_store, "acme", {"o1": {**ORDERS["o1"], "legacy": "l"}})
        events = await _read_all(event_store)
        await first.project(events, dedup="event_id")
        await projection_store.dead_letter(old, _letter(old, 9), dedup="event_id")
        assert len(await all_rows(projection_store, old, TENANTS)) == 1

        caplog.set_level(logging.INFO, "eaf.projectors")
        new = order_projection(columns={**ORDER_COLUMNS, "overdue": "bool"})
        restarted = Projector(new, projection_store, retry=FAST_RETRY)
        reason = await restarted.start()
        assert reason == "columns changed: +overdue -legacy"
        [line] = _rebuild_lines(caplog)
        assert "orders" in line
        assert "columns changed: +overdue -legacy" in line
        assert await projection_store.checkpoint("orders") == 0
        assert await projection_store.dead_letters("orders") == []
        assert await all_rows(projection_store, new, TENANTS) == []
        # The remembered event ids went too: the same events apply again.
        await restarted.project(events, dedup="event_id")
        [row] = await all_rows(projection_store, new, TENANTS)
        assert (row["id"], row["overdue"], "legacy" in row) == ("o1", None, False)
        assert await Projector(new, projection_store).start() is None

    async def test_a_new_version_or_event_type_rebuilds(
        self, event_store: EventStore, projection_store: ProjectionStore
    ) -> None:
        projector = Projector(order_projection(), projection_store)
        await projector.start()
        await place(event_store, "acme", ORDERS)
        follower = StoreFollower(projector, event_store)
        await follower.run_until_idle()
        versioned = Projector(order_projection(version="2"), projection_store)
        assert await versioned.start() == "version changed: '' -> '2'"
        assert await projection_store.checkpoint("orders") == 0
        shipping = order_projection(version="2")
        shipping.on("Shipped", shipping.handlers["Placed"])
        assert (
            await Projector(shipping, projection_store).start()
            == "event types changed: +Shipped"
        )
        rebuilt = StoreFollower(Projector(shipping, projection_store), event_store)
        assert await rebuilt.run_until_idle() == len(ORDERS)
        rows = await all_rows(projection_store, shipping, TENANTS)
        assert [row["id"] for row in rows] == sorted(ORDERS)

    async def test_a_reset_after_the_events_were_read_applies_nothing(
        self, event_store: EventStore, projection_store: ProjectionStore
    ) -> None:
        projector = Projector(order_projection(), projection_store)
        await projector.start()
        await place(event_store, "acme", {"o1": ORDERS["o1"]})
        await StoreFollower(projector, event_store).run_until_idle()
        checkpoint = await projection_store.checkpoint("orders")
        await place(event_store, "acme", {"o2": ORDERS["o2"]})
        batch = await _read_all(event_store, after=checkpoint)
        await projector.reset()
        with pytest.raises(Rewound):
            await projector.project(batch, dedup="position", after=checkpoint)
        with pytest.raises(Rewound):
            await projection_store.dead_letter(
                projector.projection,
                _letter(projector.projection, batch[0].position),
                dedup="position",
                after=checkpoint,
            )
        assert await all_rows(projection_store, projector.projection, TENANTS) == []
        assert await projection_store.checkpoint("orders") == 0
        assert await projection_store.dead_letters("orders") == []

    async def test_the_follower_replays_after_a_reset_while_it_read(
        self,
        event_store: EventStore,
        projection_store: ProjectionStore,
        caplog: pytest.LogCaptureFixture,
    ) -> None:
        projector = Projector(order_projection(), projection_store)
        await projector.start()
        await place(event_store, "acme", ORDERS)
        resetting = _ResetAfterRead(event_store, projector)
        follower = StoreFollower(projector, cast(EventStore, resetting), batch_size=2)
        caplog.set_level(logging.INFO, "eaf.projectors")
        await follower.run_until_idle()
        assert resetting.resets == 1
        assert any("was reset" in record.getMessage() for record in caplog.records)
        rows = await all_rows(projection_store, projector.projection, TENANTS)
        assert [row["id"] for row in rows] == sorted(ORDERS)
        assert [row["total"] for row in rows] == [
            ORDERS[order]["total"] for order in sorted(ORDERS)
        ]
