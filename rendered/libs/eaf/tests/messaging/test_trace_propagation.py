"""One trace from a request in one service to the consumer of its event in another, across
a real nats-server: the event's metadata keeps the request's W3C trace context, the relay
sends it as headers, and the consumer's span continues the trace (an in-memory exporter
records the spans)."""

from __future__ import annotations

from typing import Any

import pytest

from eaf.context import SecurityContext, use
from eaf.eventsourcing import NewEvent, SqlEventStore
from eaf.messaging import Delivery, EventHandlers, JetStreamBroker, OutboxRelay
from eaf.messaging.testing import eventually
from eaf.observability._tracing import _ensure_tracer_provider


@pytest.fixture
def spans() -> Any:
    trace = pytest.importorskip("opentelemetry.trace")
    export = pytest.importorskip("opentelemetry.sdk.trace.export")
    in_memory = pytest.importorskip(
        "opentelemetry.sdk.trace.export.in_memory_span_exporter"
    )
    # The SDK's provider, unless one is set already (a process has one: the name is the
    # one tests/observability sets up too, whichever runs first).
    _ensure_tracer_provider("traced-svc")
    exporter = in_memory.InMemorySpanExporter()
    trace.get_tracer_provider().add_span_processor(export.SimpleSpanProcessor(exporter))
    return exporter


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

    [consumer] = [
        s for s in spans.get_finished_spans() if s.kind == trace.SpanKind.CONSUMER
    ]
    assert consumer.name == "events.acme.orders.OrderPlaced process"
    assert consumer.context.trace_id == requested.trace_id
    assert consumer.parent is not None and consumer.parent.span_id == requested.span_id
    assert seen[0].trace_id == requested.trace_id  # the handler runs inside that span


async def test_an_event_written_outside_a_trace_starts_a_new_one_at_the_consumer(
    sqlite_store: SqlEventStore, nats_broker: JetStreamBroker, spans: Any
) -> None:
    from opentelemetry import trace

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
    assert "traceparent" not in headers[0]
    [consumer] = [
        s for s in spans.get_finished_spans() if s.kind == trace.SpanKind.CONSUMER
    ]
    assert consumer.parent is None
