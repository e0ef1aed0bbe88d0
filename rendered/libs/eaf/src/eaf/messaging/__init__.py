"""Event messaging over NATS JetStream: publishing with retries, an outbox relay,
durable consumer groups with tenant filters, and a dead letter queue."""

from eaf.messaging.background import EventRelay
from eaf.messaging.handlers import EventHandlers
from eaf.messaging.jetstream import JetStreamBroker, run_connected
from eaf.messaging.memory import InMemoryBroker
from eaf.messaging.message import (
    Delivery,
    Header,
    Message,
    event_message,
    outbox_message,
)
from eaf.messaging.ports import (
    Broker,
    DeadLetter,
    DeadLetters,
    Handler,
    Poison,
    Publisher,
    PublishError,
    Subscriber,
    Subscription,
    Worker,
)
from eaf.messaging.relay import OutboxRelay
from eaf.messaging.settings import MessagingSettings
from eaf.messaging.subjects import PLATFORM_TENANT, Subjects

__all__ = [
    "PLATFORM_TENANT",
    "Broker",
    "DeadLetter",
    "DeadLetters",
    "Delivery",
    "EventHandlers",
    "EventRelay",
    "Handler",
    "Header",
    "InMemoryBroker",
    "JetStreamBroker",
    "Message",
    "MessagingSettings",
    "OutboxRelay",
    "Poison",
    "PublishError",
    "Publisher",
    "Subjects",
    "Subscriber",
    "Subscription",
    "Worker",
    "event_message",
    "outbox_message",
    "run_connected",
]
