"""A saga across two aggregates (Order, Shipment), with the security context of each
triggering event carried into the saga's handlers and the commands they issue."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from eaf.context import SecurityContext, current, platform_context, use
from eaf.eventsourcing import (
    Aggregate,
    EventRegistry,
    EventSourcedRepository,
    NewEvent,
    Saga,
    SagaRunner,
    applies,
    handles,
    starts,
)
from eaf.eventsourcing.testing import Backend


@dataclass(frozen=True)
class OrderPlaced:
    order_id: str
    amount: Decimal


@dataclass(frozen=True)
class OrderShipped:
    order_id: str
    shipment_id: str


@dataclass(frozen=True)
class ShipmentCreated:
    shipment_id: str
    order_id: str


class Order(Aggregate):
    status: str

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.status = "new"

    @classmethod
    def place(cls, order_id: str, amount: Decimal) -> Order:
        order = cls(order_id)
        order._record(OrderPlaced(order_id, amount))
        return order

    def mark_shipped(self, shipment_id: str) -> None:
        if self.status != "shipped":
            self._record(OrderShipped(self.id, shipment_id))

    @applies(OrderPlaced)
    def _placed(self, event: OrderPlaced) -> None:
        self.status = "placed"

    @applies(OrderShipped)
    def _shipped(self, event: OrderShipped) -> None:
        self.status = "shipped"


class Shipment(Aggregate):
    order_id: str

    @classmethod
    def create(cls, shipment_id: str, order_id: str) -> Shipment:
        shipment = cls(shipment_id)
        shipment._record(ShipmentCreated(shipment_id, order_id))
        return shipment

    @applies(ShipmentCreated)
    def _created(self, event: ShipmentCreated) -> None:
        self.order_id = event.order_id


@dataclass(frozen=True)
class CreateShipment:
    order_id: str


@dataclass(frozen=True)
class MarkOrderShipped:
    order_id: str
    shipment_id: str


class Fulfilment(Saga):
    association_property = "order_id"
    shipment_id: str | None = None

    @starts(OrderPlaced)
    async def placed(self, event: OrderPlaced) -> None:
        await self.dispatch(CreateShipment(event.order_id))

    @handles(ShipmentCreated)
    async def shipment_created(self, event: ShipmentCreated) -> None:
        self.shipment_id = event.shipment_id
        await self.dispatch(MarkOrderShipped(event.order_id, event.shipment_id))

    @handles(OrderShipped)
    async def shipped(self, event: OrderShipped) -> None:
        self.end()


REGISTRY = EventRegistry()
for event_class in (OrderPlaced, OrderShipped, ShipmentCreated):
    REGISTRY.register(event_class)


class Application:
    """The command side: two repositories and a dispatcher that remembers, per command,
    the security context it ran in."""

    def __init__(self, backend: Backend) -> None:
        self.orders = EventSourcedRepository(Order, backend.events, REGISTRY)
        self.shipments = EventSourcedRepository(Shipment, backend.events, REGISTRY)
        self.handled: list[tuple[object, SecurityContext]] = []

    async def dispatch(self, command: object) -> None:
        self.handled.append((command, current()))
        if isinstance(command, CreateShipment):
            await self.shipments.save(
                Shipment.create(f"ship-{command.order_id}", command.order_id)
            )
        elif isinstance(command, MarkOrderShipped):
            order = await self.orders.load(command.order_id)
            order.mark_shipped(command.shipment_id)
            await self.orders.save(order)


def runner(backend: Backend, app: Application) -> SagaRunner:
    return SagaRunner(
        events=backend.events,
        registry=REGISTRY,
        store=backend.sagas,
        sagas=[Fulfilment],
        dispatch=app.dispatch,
        batch_size=2,
    )


async def test_saga_drives_two_aggregates_in_the_triggering_context(
    backend: Backend,
) -> None:
    app = Application(backend)
    ann = SecurityContext(tenant_id="acme", user_id="ann")
    gus = SecurityContext(tenant_id="globex", user_id="gus")
    with use(ann):
        await app.orders.save(Order.place("o-1", Decimal("9.99")))
    with use(gus):  # same order id, other tenant: its own saga instance
        await app.orders.save(Order.place("o-1", Decimal(5)))

    await runner(backend, app).run_until_idle()

    for context in (ann, gus):
        with use(context):
            assert (await app.orders.load("o-1")).status == "shipped"
            assert (await app.shipments.load("ship-o-1")).order_id == "o-1"
            saga = await backend.sagas.load("Fulfilment", "o-1")
            assert saga is not None
            assert saga.ended
            assert saga.state == {"shipment_id": "ship-o-1"}
            events = {e.event_type: e for e in await backend.events.read_all()}
        placed, created, shipped = (
            events["OrderPlaced"],
            events["ShipmentCreated"],
            events["OrderShipped"],
        )
        for event in (placed, created, shipped):
            assert event.metadata.tenant_id == context.tenant_id
            assert event.metadata.user_id == context.user_id
            assert event.metadata.correlation_id == context.correlation_id
        assert created.metadata.causation_id == str(placed.event_id)
        assert shipped.metadata.causation_id == str(created.event_id)

    commands = [
        (type(c).__name__, ctx.tenant_id, ctx.correlation_id) for c, ctx in app.handled
    ]
    assert sorted(commands) == sorted(
        [
            ("CreateShipment", "acme", ann.correlation_id),
            ("MarkOrderShipped", "acme", ann.correlation_id),
            ("CreateShipment", "globex", gus.correlation_id),
            ("MarkOrderShipped", "globex", gus.correlation_id),
        ]
    )


async def test_ended_sagas_ignore_later_events_and_redelivery_is_harmless(
    backend: Backend,
) -> None:
    app = Application(backend)
    saga_runner = runner(backend, app)
    with use(SecurityContext(tenant_id="acme", user_id="ann")):
        await app.orders.save(Order.place("o-1", Decimal(1)))
    await saga_runner.run_until_idle()
    assert len(app.handled) == 2

    with use(SecurityContext(tenant_id="acme", user_id="ann")):
        await backend.events.append(
            "Shipment",
            "ship-late",
            [
                NewEvent(
                    "ShipmentCreated", {"shipment_id": "ship-late", "order_id": "o-1"}
                )
            ],
            expected_version=0,
        )
    await saga_runner.run_until_idle()
    assert len(app.handled) == 2  # the saga had ended

    with use(platform_context()):
        await backend.sagas.save_tracking_position("sagas", 0)
    await saga_runner.run_until_idle()
    assert len(app.handled) == 2  # replaying from the start changes nothing


async def test_events_without_a_running_saga_are_ignored(backend: Backend) -> None:
    app = Application(backend)
    with use(SecurityContext(tenant_id="acme")):
        await app.shipments.save(Shipment.create("ship-x", "o-unknown"))
    await runner(backend, app).run_until_idle()
    assert app.handled == []
    with use(SecurityContext(tenant_id="acme")):
        assert await backend.sagas.load("Fulfilment", "o-unknown") is None
