"""The runtime's Prometheus metrics beyond HTTP, observed through a service's ``/metrics``:
append latency, the outbox backlog while the broker is away and after, consumer lag, and
messages handled and dead-lettered per consumer group (a real nats-server)."""

from __future__ import annotations

import httpx
from fastapi import FastAPI
from prometheus_client.parser import text_string_to_metric_families

from eaf.context import SecurityContext, use
from eaf.eventsourcing import NewEvent, SqlEventStore
from eaf.messaging import (
    Delivery,
    EventHandlers,
    JetStreamBroker,
    Message,
    OutboxRelay,
    Poison,
    PublishError,
)
from eaf.messaging.testing import eventually, unique
from eaf.metrics import REGISTRY
from eaf.observability import install


async def scrape() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample a service's ``/metrics`` shows, by name and labels."""
    app = FastAPI()
    install(app, service="metrics-svc")
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://svc") as http:
        text = (await http.get("/metrics")).text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float],
    name: str,
    **labels: str,
) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def append(store: SqlEventStore, stream: str, count: int) -> None:
    with use(SecurityContext(tenant_id="acme")):
        for index in range(count):
            await store.append(
                "Order",
                f"{stream}-{index}",
                [NewEvent("OrderPlaced", {})],
                expected_version=0,
            )


async def test_appends_are_timed_and_counted(sqlite_store: SqlEventStore) -> None:
    before = await scrape()
    await append(sqlite_store, unique("o"), 3)
    after = await scrape()

    for name in (
        "eaf_event_store_append_seconds_count",
        "eaf_event_store_appended_events_total",
    ):
        assert (
            value(after, name, backend="sqlite") - value(before, name, backend="sqlite")
            == 3
        )
    assert value(after, "eaf_event_store_append_seconds_sum", backend="sqlite") > value(
        before, "eaf_event_store_append_seconds_sum", backend="sqlite"
    )


class Unreachable:
    """A broker that is down."""

    async def publish(self, message: Message) -> None:
        raise PublishError("broker down")

    async def publish_batch(self, messages: object) -> list[Exception | None]:
        raise PublishError("broker down")


async def test_the_outbox_backlog_grows_while_the_broker_is_away_then_drains(
    sqlite_store: SqlEventStore, nats_broker: JetStreamBroker
) -> None:
    service = unique("orders")
    await append(sqlite_store, unique("o"), 4)
    away = OutboxRelay(
        sqlite_store.outbox, Unreachable(), service=service, backoff_initial=0.01
    )
    await away._measure_backlog(every=0)
    assert value(await scrape(), "eaf_outbox_backlog", service=service) == 4

    relay = OutboxRelay(sqlite_store.outbox, nats_broker, service=service)
    assert await relay.drain() == 4
    await relay._measure_backlog(every=0)
    samples = await scrape()
    assert value(samples, "eaf_outbox_backlog", service=service) == 0
    assert value(samples, "eaf_outbox_published_total", service=service) == 4


async def test_consumer_lag_handled_and_dead_letters_per_group(
    sqlite_store: SqlEventStore, nats_broker: JetStreamBroker
) -> None:
    service = unique("orders")
    await append(sqlite_store, unique("o"), 5)
    await OutboxRelay(sqlite_store.outbox, nats_broker, service=service).drain()
    group = unique("billing")
    handlers = EventHandlers()
    seen: list[int] = []
    lag_while_busy: list[float] = []

    @handlers.on(group, services=[service], max_deliver=1)
    async def bill(delivery: Delivery) -> None:
        seen.append(delivery.sequence)
        if len(seen) == 2:
            # The first message's settlement left the rest of the stream as lag.
            lag_while_busy.append(
                REGISTRY.get_sample_value("eaf_consumer_lag", {"consumer": group}) or 0
            )
            raise Poison("unreadable order")

    async with handlers.running(nats_broker):
        await eventually(lambda: len(seen) == 5)
        samples: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}

        async def settled() -> bool:
            samples.update(await scrape())
            acked = value(
                samples, "eaf_messages_handled_total", consumer=group, outcome="acked"
            )
            return acked == 4

        await eventually(settled)
    assert (
        value(
            samples,
            "eaf_messages_handled_total",
            consumer=group,
            outcome="dead_lettered",
        )
        == 1
    )
    assert value(samples, "eaf_dead_letters_total", consumer=group) == 1
    assert lag_while_busy == [4]
    assert value(samples, "eaf_consumer_lag", consumer=group) == 0
