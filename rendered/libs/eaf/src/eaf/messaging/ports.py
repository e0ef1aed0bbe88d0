"""The messaging ports: publish events, consume them in groups, inspect dead letters."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from eaf.messaging.message import Delivery, Message
from eaf.messaging.subjects import check_name

Handler = Callable[[Delivery], Awaitable[None]]
"""Returning acknowledges it, raising retries or dead-letters it."""


class Poison(Exception):
    """Raised by a handler for a message that can never succeed: dead-letter it now."""


class PublishError(RuntimeError):
    """A message was not acknowledged by the broker."""


@dataclass(frozen=True)
class Subscription:
    """What a consumer receives and how failures are retried.

    ``durable`` names the consumer group: every running instance with the same name
    shares one position and the work. Empty filter choices mean "any"."""

    durable: str | None = None
    tenants: Sequence[str] = ()
    services: Sequence[str] = ()
    event_types: Sequence[str] = ()
    max_deliver: int = 5
    retry_delays: Sequence[float] = (0.5, 2.0, 10.0)
    deliver_new: bool = False
    batch_size: int = 64

    def __post_init__(self) -> None:
        if self.durable is not None:
            check_name(self.durable, "durable name")
        if self.max_deliver < 1:
            raise ValueError("max_deliver must be at least 1")

    def retry_delay(self, attempt: int) -> float:
        """How long to wait before delivering again after failed attempt ``attempt``."""
        if not self.retry_delays:
            return 0.0
        return self.retry_delays[min(attempt, len(self.retry_delays)) - 1]


@dataclass(frozen=True)
class DeadLetter:
    """A message a consumer gave up on, with why and after how many attempts."""

    sequence: int
    durable: str
    reason: str
    attempts: int
    failed_at: datetime
    message: Message

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description (the body as JSON when it is JSON)."""
        try:
            payload: Any = self.message.json()
        except ValueError:
            payload = self.message.data.decode(errors="replace")
        return {
            "sequence": self.sequence,
            "durable": self.durable,
            "reason": self.reason,
            "attempts": self.attempts,
            "failed_at": self.failed_at.isoformat(),
            "subject": self.message.subject,
            "event_id": self.message.event_id,
            "event_type": self.message.event_type,
            "tenant_id": self.message.tenant_id,
            "headers": dict(self.message.headers),
            "payload": payload,
        }


class Worker(Protocol):
    """One running consumer instance."""

    async def stop(self) -> None:
        """Finish the delivery in hand, then stop fetching."""
        ...


class Publisher(Protocol):
    async def publish(self, message: Message) -> None:
        """Publish and wait for the broker's acknowledgement, retrying with backoff;
        raises :class:`PublishError` when it gives up."""
        ...

    async def publish_batch(
        self, messages: Sequence[Message]
    ) -> list[Exception | None]:
        """Publish many at once (pipelined), one attempt each; per message, ``None`` if
        acknowledged or the error that prevented it, in the order given."""
        ...


class Subscriber(Protocol):
    async def start(self, subscription: Subscription, handler: Handler) -> Worker:
        """Run ``handler`` for every message of ``subscription`` (which must be durable)
        until the returned worker is stopped. Start it again to add group members."""
        ...

    def stream(
        self, subscription: Subscription
    ) -> AbstractAsyncContextManager[AsyncIterator[Delivery]]:
        """Messages as an async iterator, for real-time processing; each is
        acknowledged when the next is requested."""
        ...


class DeadLetters(Protocol):
    async def find(
        self, durable: str | None = None, limit: int = 100
    ) -> list[DeadLetter]:
        """Dead letters, oldest first, optionally of one consumer only."""
        ...

    async def get(self, sequence: int) -> DeadLetter:
        """One dead letter; ``KeyError`` if there is none with that sequence."""
        ...

    async def replay(self, sequence: int) -> None:
        """Deliver the original message again to the consumer that gave up on it
        (only to that one) and remove it from the dead letters."""
        ...

    async def purge(self, durable: str | None = None) -> int:
        """Remove dead letters (all, or of one consumer); how many were removed."""
        ...


class Broker(Publisher, Subscriber, Protocol):
    """A publisher and subscriber over one event stream, with its dead letters."""

    @property
    def dead_letters(self) -> DeadLetters: ...


__all__ = [
    "Broker",
    "DeadLetter",
    "DeadLetters",
    "Handler",
    "Poison",
    "PublishError",
    "Publisher",
    "Subscriber",
    "Subscription",
    "Worker",
]
