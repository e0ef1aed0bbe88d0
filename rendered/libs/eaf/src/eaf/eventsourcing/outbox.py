"""The transactional outbox: events written with the append, relayed to the broker later."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol


@dataclass(frozen=True)
class OutboxMessage:
    """One stored event waiting to be published (``position`` orders the outbox)."""

    position: int
    event_id: str
    tenant_id: str
    stream_type: str
    stream_id: str
    stream_version: int
    event_type: str
    schema_version: int
    payload: dict[str, Any]
    metadata: dict[str, str]
    recorded_at: datetime
    body: bytes | None = field(default=None, compare=False, repr=False)
    """The payload as the outbox stores it (JSON), if it does: relayed as it is."""


class Outbox(Protocol):
    """What a relay needs from an outbox: the unpublished messages, in order, and a way
    to mark them published. Platform-level: it spans every tenant."""

    async def pending(self, limit: int) -> list[OutboxMessage]: ...

    async def mark_published(self, positions: Sequence[int]) -> None: ...

    async def backlog(self) -> int:
        """How many messages wait to be published (for the backlog metric)."""
        ...


@dataclass
class InMemoryOutbox:
    """An outbox held in a list, for unit tests and the in-memory event store."""

    messages: list[OutboxMessage] = field(default_factory=list)
    published: set[int] = field(default_factory=set)
    _skip: int = field(default=0, init=False, repr=False)
    """How many leading messages are known to be published: a relay reads from there."""

    def add(self, message: OutboxMessage) -> None:
        self.messages.append(message)

    async def pending(self, limit: int) -> list[OutboxMessage]:
        messages, published = self.messages, self.published
        skip = min(self._skip, len(messages))
        while skip < len(messages) and messages[skip].position in published:
            skip += 1
        self._skip = skip
        waiting: list[OutboxMessage] = []
        for message in itertools.islice(messages, skip, None):
            if len(waiting) >= limit:
                break
            if message.position not in published:
                waiting.append(message)
        return waiting

    async def mark_published(self, positions: Sequence[int]) -> None:
        self.published.update(positions)

    async def backlog(self) -> int:
        return sum(1 for m in self.messages if m.position not in self.published)
