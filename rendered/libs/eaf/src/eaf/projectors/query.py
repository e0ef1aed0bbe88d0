"""Reading a read model, always for the current context's tenant."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Collection, Sequence
from typing import Any, Generic, TypeVar

from eaf.context import platform_context, require_tenant, use
from eaf.eventsourcing.errors import NotYetProjected
from eaf.eventsourcing.ports import EventStore
from eaf.eventsourcing.serialization import encode_value, from_dict
from eaf.projectors.cache import ReadModelCache
from eaf.projectors.paging import Condition, OrderBy, Page, equal_to
from eaf.projectors.ports import ProjectionStore
from eaf.projectors.projection import TENANT_COLUMN, Projection

PENDING_LIMIT = 10_000
"""How far behind (the tenant's events) a read model may be for a consistent read to wait."""


class ReadModel:
    """Tenant-scoped queries of one projection's table: the tenant comes from the
    security context, never from an argument. ``get`` goes through ``cache`` when one
    is given (pass the projector the same cache so that it drops what it writes)."""

    def __init__(
        self,
        store: ProjectionStore,
        projection: Projection,
        *,
        cache: ReadModelCache | None = None,
    ) -> None:
        self._store = store
        self._projection = projection
        self._cache = cache

    async def get(self, **key: Any) -> dict[str, Any] | None:
        """The current tenant's row with primary key ``key`` (tenant left out)."""
        tenant = require_tenant()
        values = self._projection.key_of(key)
        if len(key) != len(values):
            raise TypeError(f"a key has exactly {list(self._projection.key_columns)}")

        async def load() -> dict[str, Any] | None:
            rows = await self._store.find(self._projection, tenant, key, limit=1)
            return rows[0] if rows else None

        if self._cache is None:
            return await load()
        return await self._cache.get_or_load((tenant, values), load)

    async def caught_up_with(
        self, events: EventStore, *, timeout: float = 5.0, interval: float = 0.02
    ) -> None:
        """Return once the read model holds every event of the current tenant that
        ``events`` held when called (the caller's own writes among them: read your
        writes), whichever process projects it; :class:`NotYetProjected` after
        ``timeout`` seconds, or at once when more than ``PENDING_LIMIT`` are pending."""
        types = self._projection.event_types
        deadline = time.monotonic() + timeout
        checkpoint = await self._checkpoint()
        target = checkpoint
        while True:  # the last pending event of the tenant, page by page
            pending = await events.read_all(
                after=target, limit=1_000, event_types=types
            )
            if not pending:
                break
            target = pending[-1].position
            if target - checkpoint > PENDING_LIMIT and len(pending) == 1_000:
                raise NotYetProjected(f"{self._projection.name}: too far behind")
        while checkpoint < target:
            if time.monotonic() >= deadline:
                raise NotYetProjected(
                    f"{self._projection.name}: at {checkpoint}, not yet at {target}"
                )
            await asyncio.sleep(interval)
            checkpoint = await self._checkpoint()

    async def _checkpoint(self) -> int:
        # the projection's own position, over every tenant's events
        with use(platform_context()):
            return await self._store.checkpoint(self._projection.name)

    async def find(
        self, *, limit: int | None = None, **where: Any
    ) -> list[dict[str, Any]]:
        """The current tenant's rows whose columns equal ``where``, by primary key."""
        if TENANT_COLUMN in where:
            raise TypeError("the tenant comes from the security context")
        return await self._store.find(
            self._projection, require_tenant(), where, limit=limit
        )

    async def page(
        self,
        *,
        where: Sequence[Condition] = (),
        order_by: Sequence[OrderBy] = (),
        limit: int,
        offset: int = 0,
    ) -> Page:
        """The current tenant's rows matching all of ``where``, sorted by
        ``order_by`` (``(column, descending)`` pairs; NULLs last) then the primary
        key, ``limit`` of them from ``offset``, and how many match in all. An
        unknown column or a value of the wrong type is a ValueError."""
        return await self._store.page(
            self._projection,
            require_tenant(),
            where=where,
            order_by=order_by,
            limit=limit,
            offset=offset,
        )


R = TypeVar("R")


class RowQueries(Generic[R]):
    """Typed reads of one read model for the current tenant: each row as an instance of
    ``row`` (a dataclass whose fields are the table's columns)."""

    def __init__(
        self, store: ProjectionStore, projection: Projection, row: type[R]
    ) -> None:
        self._rows = ReadModel(store, projection)
        self._row = row

    async def page(
        self,
        *,
        where: Sequence[Condition] = (),
        order_by: Sequence[OrderBy] = (),
        limit: int,
        offset: int = 0,
    ) -> tuple[list[R], int]:
        """The rows matching ``where`` from ``offset`` (at most ``limit``), and how many
        match in all."""
        page = await self._rows.page(
            where=where, order_by=order_by, limit=limit, offset=offset
        )
        return [from_dict(self._row, row) for row in page.rows], page.total

    async def get(
        self, ignoring_case: Collection[str] = (), /, **key: object
    ) -> R | None:
        """The row with this key (its values as the domain has them: ids, dates...); the
        columns ``ignoring_case`` names hold a key that ignores case, and match in any
        case (one row at most holds each value, as the key it copies is taken once)."""
        if ignoring_case:
            where = [
                condition
                for name, value in key.items()
                for condition in equal_to(
                    name, [value], ignore_case=name in ignoring_case
                )
            ]
            rows, _ = await self.page(where=where, limit=1)
            return rows[0] if rows else None
        row = await self._rows.get(
            **{name: str(encode_value(v)) for name, v in key.items()}
        )
        return None if row is None else from_dict(self._row, row)

    async def caught_up_with(self, events: EventStore, *, timeout: float = 5.0) -> None:
        """See :meth:`ReadModel.caught_up_with`: once the rows hold every event of the
        tenant that ``events`` held when called."""
        await self._rows.caught_up_with(events, timeout=timeout)

    async def list(self) -> list[R]:
        """Every row of the tenant, by key."""
        return [from_dict(self._row, row) for row in await self._rows.find()]
