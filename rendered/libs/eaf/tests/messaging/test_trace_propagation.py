"""One trace from a request in one service to the consumer of its event in another, across
a real nats-server: the event's metadata keeps the request's W3C trace context, the relay
sends it as headers, and the consumer's span continues the trace (an in-memory exporter
records the spans)."""

from __future__ import annotations

from typing import Any

from eaf.context import SecurityContext, use
from eaf.eventsourcing import NewEvent, SqlEventStore
from eaf.messaging import Delivery, EventHandlers, JetStreamBroker, OutboxRelay
from eaf.messaging.testing import eventually


async def test_a_trace_crosses_the_broker_from_a_request_to_a_consumer(
    sqlite_store: SqlEventStore, nats_broker: JetStreamBroker, spans: Any
) -> None:
    from opentelemetry import trace

    tracer = trace.get_tracer("orders.http")
    with (
        tracer.start_as_current_span("POST /api/v1/orders") as request,
        use(SecurityContext(tenant_id="acme", correlation_id="corr-1")),
    ):
        await sqlite_store.append(
            "Order",
            "o-1",
            [NewEvent("OrderPlaced", {"total": "9.50"})],
            expected_version=0,
        )
    requested = request.get_span_context()

    relay = OutboxRelay(sqlite_store.outbox, nats_broker, service="orders")
    assert await relay.drain() == 1

    handlers = EventHandlers()
    seen: list[Any] = []

    @handlers.on("billing", services=["orders"], event_types=["OrderPlaced"])
    async def bill(delivery: Delivery) -> None:
        assert delivery.message.headers["traceparent"].split("-")[1] == format(
            requested.trace_id, "032x"
        )
        seen.append(trace.get_current_span().get_span_context())

    async with handlers.running(nats_broker):
        await eventually(lambda: bool(seen))

    finished = {s.name: s for s in spans.get_finished_spans()}
    append = finished["event_store.append"]
    publish = finished["events.acme.orders.OrderPlaced publish"]
    consumer = finished["events.acme.orders.OrderPlaced process"]
    assert (publish.kind, consumer.kind) == (
        trace.SpanKind.PRODUCER,
        trace.SpanKind.CONSUMER,
    )
    # request -> append -> publish (the relay) -> process (the consumer): one trace.
    assert {append.context.trace_id, publish.context.trace_id} == {requested.trace_id}
    assert consumer.context.trace_id == requested.trace_id
    assert append.parent is not None and append.parent.span_id == requested.span_id
    assert publish.parent is not None
    assert publish.parent.span_id == append.context.span_id
    assert consumer.parent is not None
    assert consumer.parent.span_id == publish.context.span_id
    assert seen[0].trace_id == requested.trace_id  # the handler runs inside that span


async def test_an_event_written_outside_a_trace_starts_one_at_its_append(
    sqlite_store: SqlEventStore, nats_broker: JetStreamBroker, spans: Any
) -> None:
    with use(SecurityContext(tenant_id="acme")):
        await sqlite_store.append(
            "Order", "o-2", [NewEvent("OrderPlaced", {})], expected_version=0
        )
    relay = OutboxRelay(sqlite_store.outbox, nats_broker, service="orders")
    assert await relay.drain() == 1
    handlers = EventHandlers()
    headers: list[dict[str, str]] = []

    @handlers.on("billing", services=["orders"], event_types=["OrderPlaced"])
    async def bill(delivery: Delivery) -> None:
        headers.append(dict(delivery.message.headers))

    async with handlers.running(nats_broker):
        await eventually(lambda: bool(headers))
    finished = {s.name: s for s in spans.get_finished_spans()}
    append = finished["event_store.append"]
    consumer = finished["events.acme.orders.OrderPlaced process"]
    assert append.parent is None  # a batch job, a CLI: the append is the root
    assert consumer.context.trace_id == append.context.trace_id
    assert headers[0]["traceparent"].split("-")[1] == format(
        append.context.trace_id, "032x"
    )
