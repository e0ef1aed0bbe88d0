from __future__ import annotations

from eaf.context import current
from eaf.messaging import Delivery, EventHandlers, JetStreamBroker
from eaf.messaging.testing import event, eventually


async def test_decorated_handlers_run_as_consumer_groups(
    nats_broker: JetStreamBroker,
) -> None:
    handlers = EventHandlers()
    billed: list[str] = []
    audited: list[tuple[str | None, str]] = []

    @handlers.on("billing", event_types=["OrderPlaced"])
    async def bill(delivery: Delivery) -> None:
        billed.append(delivery.message.event_id)

    @handlers.on("audit", tenants=["acme"])
    async def audit(delivery: Delivery) -> None:
        audited.append((current().tenant_id, delivery.event_type))

    async with handlers.running(nats_broker, instances=2) as workers:
        assert len(workers) == 4
        placed = event("acme", "OrderPlaced")
        for message in (placed, event("acme", "OrderShipped"), event("other")):
            await nats_broker.publish(message)
        last = event("other", "OrderPlaced")
        await nats_broker.publish(last)
        await eventually(lambda: len(billed) == 2 and len(audited) == 2)

    assert billed == [placed.event_id, last.event_id]
    assert audited == [("acme", "OrderPlaced"), ("acme", "OrderShipped")]
