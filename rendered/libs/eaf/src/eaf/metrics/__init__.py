"""The runtime's Prometheus metrics, beyond HTTP: event-store appends, the outbox backlog,
consumer lag, handled messages and dead letters.

They live in one process-wide registry (:data:`REGISTRY`), which a service's
``/metrics`` endpoint serves next to its HTTP metrics; labels name the service or the
consumer group, so a process running several of them keeps them apart.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

__all__ = [
    "APPENDED_EVENTS",
    "APPEND_SECONDS",
    "CONSUMER_LAG",
    "DEAD_LETTERS",
    "HANDLED_MESSAGES",
    "OUTBOX_BACKLOG",
    "PUBLISHED_EVENTS",
    "REGISTRY",
]

REGISTRY = CollectorRegistry(auto_describe=True)

APPEND_SECONDS = Histogram(
    "eaf_event_store_append_seconds",
    "Time to append one unit of work to the event store (committed), by backend.",
    ("backend",),
    registry=REGISTRY,
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
APPENDED_EVENTS = Counter(
    "eaf_event_store_appended_events_total",
    "Events appended to the event store, by backend.",
    ("backend",),
    registry=REGISTRY,
)
OUTBOX_BACKLOG = Gauge(
    "eaf_outbox_backlog",
    "Stored events the broker has not acknowledged yet, by publishing service.",
    ("service",),
    registry=REGISTRY,
)
PUBLISHED_EVENTS = Counter(
    "eaf_outbox_published_total",
    "Events the outbox relay published and the broker acknowledged, by service.",
    ("service",),
    registry=REGISTRY,
)
CONSUMER_LAG = Gauge(
    "eaf_consumer_lag",
    "Messages of the stream the consumer group has not been delivered yet.",
    ("consumer",),
    registry=REGISTRY,
)
HANDLED_MESSAGES = Counter(
    "eaf_messages_handled_total",
    "Deliveries settled by a consumer group, by outcome (acked, retried, dead_lettered).",
    ("consumer", "outcome"),
    registry=REGISTRY,
)
DEAD_LETTERS = Counter(
    "eaf_dead_letters_total",
    "Messages a consumer group gave up on and stored as dead letters.",
    ("consumer",),
    registry=REGISTRY,
)
