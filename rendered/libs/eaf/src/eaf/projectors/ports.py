"""The ports of the projectors: where read models and checkpoints are kept, and what a
handler may do to its read model while an event is applied."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

from eaf.eventsourcing.records import StoredEvent

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from eaf.projectors.paging import Condition, OrderBy, Page
    from eaf.projectors.projection import Projection

Dedup = Literal["position", "event_id"]
"""How a batch skips what was applied before: by the checkpoint (events arrive in
global order, as from the event store) or by remembered event ids (any order, as
from a broker that redelivers)."""

CacheKey = tuple[str, tuple[Any, ...]]
"""A read-model row as ``(tenant, primary key values without the tenant)``."""


class HandlerError(Exception):
    """A projection handler failed on ``events[index]``; the batch was rolled back."""

    def __init__(self, index: int, event: StoredEvent, cause: Exception) -> None:
        super().__init__(f"{type(cause).__name__}: {cause}")
        self.index = index
        self.event = event
        self.cause = cause


class Rewound(Exception):
    """The projection was reset after the caller read the events it passed (its
    checkpoint is below ``after``): nothing was applied; read again from the
    checkpoint."""

    def __init__(self, projection: str, checkpoint: int, after: int) -> None:
        super().__init__(
            f"{projection}: the checkpoint went back to {checkpoint} (events were read "
            f"after {after})"
        )
        self.projection = projection
        self.checkpoint = checkpoint
        self.after = after


@dataclass(frozen=True)
class Applied:
    """What one committed batch did: events applied, events skipped as already
    applied, and the read-model rows it wrote (for cache invalidation)."""

    applied: int
    skipped: int
    touched: frozenset[CacheKey] = field(default_factory=frozenset)


@dataclass(frozen=True)
class DeadLetterRecord:
    """An event a projection gave up on, skipped so the projection keeps going.
    ``position`` is the global position (the stream sequence for a NATS source)."""

    projection: str
    position: int
    event_id: str
    event_type: str
    tenant_id: str
    reason: str
    attempts: int
    failed_at: datetime


class ReadModelWriter(Protocol):
    """A projection's table as seen by the handler of one event: every key and row
    belongs to that event's tenant (``tenant_id`` is filled in)."""

    @property
    def tenant_id(self) -> str: ...

    async def get(self, key: Mapping[str, Any]) -> dict[str, Any] | None:
        """The row with primary key ``key`` (without ``tenant_id``), if any."""
        ...

    async def upsert(self, row: Mapping[str, Any]) -> None:
        """Insert ``row``, or replace the non-key columns of the row with its key."""
        ...

    async def update(self, key: Mapping[str, Any], values: Mapping[str, Any]) -> bool:
        """Change ``values`` of the row with ``key``; whether there was one."""
        ...

    async def delete(self, key: Mapping[str, Any]) -> bool:
        """Remove the row with ``key``; whether there was one."""
        ...

    @property
    def connection(self) -> AsyncConnection:
        """The batch's SQL connection, for custom statements (SQL stores only). Filter
        by ``tenant_id`` yourself and call :meth:`invalidate` for each key written."""
        ...

    def invalidate(self, key: Mapping[str, Any]) -> None:
        """Mark ``key`` as written, so cached reads of it are dropped after commit."""
        ...


class ProjectionStore(Protocol):
    """Read-model tables, checkpoints, remembered event ids and dead letters, changed
    together in one transaction per batch."""

    async def create(self, projection: Projection) -> str | None:
        """Create the projection's table and bookkeeping if missing, and remember its
        fingerprint. When the remembered one differs (or, with none remembered, the
        table's columns do), drop the table and reset the checkpoint, event ids and
        dead letters so the projection is rebuilt from position 0; returns why (e.g.
        ``"columns changed: +overdue -legacy"``), or None when nothing was dropped."""
        ...

    async def checkpoint(self, projection: str) -> int:
        """The last position the projection committed (0 at first)."""
        ...

    async def apply(
        self,
        projection: Projection,
        events: Sequence[StoredEvent],
        *,
        dedup: Dedup,
        after: int | None = None,
    ) -> Applied:
        """Run the handlers of ``events`` not applied before and advance the
        checkpoint, all in one transaction. A failing handler rolls it all back and
        raises :class:`HandlerError`; other errors (the database) propagate as is.
        ``after`` is the checkpoint the events were read after: a checkpoint below it
        (a reset meanwhile) raises :class:`Rewound` and applies nothing."""
        ...

    async def dead_letter(
        self,
        projection: Projection,
        letter: DeadLetterRecord,
        *,
        dedup: Dedup,
        after: int | None = None,
    ) -> None:
        """Record ``letter`` and, for ``dedup="position"``, move the checkpoint past
        it, in one transaction; ``after`` as for :meth:`apply`."""
        ...

    async def dead_letters(self, projection: str) -> list[DeadLetterRecord]:
        """The projection's dead letters, by position."""
        ...

    async def reset(self, projection: Projection) -> None:
        """Delete the read model's rows, checkpoint, event ids and dead letters."""
        ...

    async def find(
        self,
        projection: Projection,
        tenant_id: str,
        where: Mapping[str, Any],
        *,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """The tenant's rows whose columns equal ``where``, by primary key."""
        ...

    async def page(
        self,
        projection: Projection,
        tenant_id: str,
        *,
        where: Sequence[Condition] = (),
        order_by: Sequence[OrderBy] = (),
        limit: int,
        offset: int = 0,
    ) -> Page:
        """The tenant's rows matching every condition of ``where``, sorted by
        ``order_by`` then the primary key, ``limit`` of them from ``offset``, with the
        count of all matching rows (see :mod:`eaf.projectors.paging`). A query no
        store may run (an unknown column, a value of the wrong type) is a ValueError."""
        ...
