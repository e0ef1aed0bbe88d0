"""Every aggregate of one kind as of the last stored event (read your writes), kept in
memory and brought up to date from the events stored since the last read."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from eaf import context
from eaf.eventsourcing.ports import EventStore
from eaf.eventsourcing.registry import EventRegistry

T = TypeVar("T")

PAGE = 500
EVERY_TENANT = "*"


@dataclass
class _Scope(Generic[T]):
    # one catch-up at a time per scope; scopes never wait for each other
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    position: int = 0
    events: dict[tuple[str, str], list[Any]] = field(default_factory=dict)
    current: dict[tuple[str, str], T] = field(default_factory=dict)


class CurrentAggregates(Generic[T]):
    """The aggregates of the streams of ``stream_type``, each folded by ``fold`` from its
    events (``event_types``: the only ones read from the store; none: all), per tenant or across
    every tenant. Each read folds in only the events stored since the one before, so a
    write is seen by the next read, in any process."""

    def __init__(
        self,
        store: EventStore,
        events: EventRegistry,
        stream_type: str,
        fold: Callable[[Sequence[Any]], T],
        event_types: Collection[str],
    ) -> None:
        self._store = store
        self._events = events
        self._stream_type = stream_type
        self._fold = fold
        self._event_types = tuple(event_types) or None
        self._scopes: dict[str, _Scope[T]] = {}

    async def of_tenant(self) -> list[T]:
        """The caller's tenant's aggregates."""
        return await self._read(context.require_tenant())

    async def of_every_tenant(self) -> list[T]:
        """Every tenant's aggregates: a platform read, whatever the caller's context (its
        correlation id kept)."""
        outer = context.current_or_none()
        correlation = {"correlation_id": outer.correlation_id} if outer else {}
        with context.use(context.platform_context(**correlation)):
            return await self._read(EVERY_TENANT)

    async def _read(self, scope_key: str) -> list[T]:
        scope = self._scopes.setdefault(scope_key, _Scope())
        async with scope.lock:
            while True:
                stored = await self._store.read_all(
                    after=scope.position, limit=PAGE, event_types=self._event_types
                )
                changed: set[tuple[str, str]] = set()
                for event in stored:
                    scope.position = event.position
                    if event.stream_type != self._stream_type:
                        continue
                    stream = (event.tenant_id, event.stream_id)
                    scope.events.setdefault(stream, []).append(
                        self._events.decode(event)
                    )
                    changed.add(stream)
                for stream in changed:
                    scope.current[stream] = self._fold(scope.events[stream])
                if len(stored) < PAGE:
                    return list(scope.current.values())
