"""The in-memory projection store, for unit tests and the zero-set-up default."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from eaf.eventsourcing.records import StoredEvent
from eaf.projectors.ports import (
    Applied,
    CacheKey,
    DeadLetterRecord,
    Dedup,
    HandlerError,
)
from eaf.projectors.projection import TENANT_COLUMN, Projection, scoped_row

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

_Rows = dict[CacheKey, dict[str, Any]]


class _MemoryWriter:
    def __init__(self, projection: Projection, rows: _Rows, tenant_id: str) -> None:
        self._projection = projection
        self._rows = rows
        self._tenant_id = tenant_id
        self.touched: set[CacheKey] = set()

    @property
    def tenant_id(self) -> str:
        return self._tenant_id

    @property
    def connection(self) -> AsyncConnection:
        raise TypeError("the in-memory projection store has no SQL connection")

    def _key(self, key: Mapping[str, Any]) -> CacheKey:
        return (
            self._tenant_id,
            self._projection.key_of(scoped_row(self._tenant_id, key)),
        )

    def invalidate(self, key: Mapping[str, Any]) -> None:
        self.touched.add(self._key(key))

    async def get(self, key: Mapping[str, Any]) -> dict[str, Any] | None:
        row = self._rows.get(self._key(key))
        return None if row is None else dict(row)

    async def upsert(self, row: Mapping[str, Any]) -> None:
        full = scoped_row(self._tenant_id, copy.deepcopy(dict(row)))
        key = self._key(full)
        columns = {column.name for column in self._projection.table.columns}
        unknown = set(full) - columns
        if unknown:
            raise KeyError(f"{self._projection.table.name} has no column {unknown}")
        stored = {name: None for name in columns} | full
        self._rows[key] = stored
        self.touched.add(key)

    async def update(self, key: Mapping[str, Any], values: Mapping[str, Any]) -> bool:
        cache_key = self._key(key)
        row = self._rows.get(cache_key)
        if row is None:
            return False
        self._rows[cache_key] = {**row, **copy.deepcopy(dict(values))}
        self.touched.add(cache_key)
        return True

    async def delete(self, key: Mapping[str, Any]) -> bool:
        cache_key = self._key(key)
        self.touched.add(cache_key)
        return self._rows.pop(cache_key, None) is not None


@dataclass
class InMemoryProjectionStore:
    """Read models in dicts; a batch works on a copy that replaces the original only
    when every handler succeeded, as a transaction would."""

    _tables: dict[str, _Rows] = field(default_factory=dict)
    _checkpoints: dict[str, int] = field(default_factory=dict)
    _processed: dict[str, set[str]] = field(default_factory=dict)
    _dead_letters: dict[str, dict[str, DeadLetterRecord]] = field(default_factory=dict)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def create(self, projection: Projection) -> None:
        self._tables.setdefault(projection.name, {})

    async def checkpoint(self, projection: str) -> int:
        return self._checkpoints.get(projection, 0)

    async def apply(
        self, projection: Projection, events: Sequence[StoredEvent], *, dedup: Dedup
    ) -> Applied:
        async with self._lock:  # one batch at a time, as the SQL stores' row lock
            return await self._apply(projection, events, dedup)

    async def _apply(
        self, projection: Projection, events: Sequence[StoredEvent], dedup: Dedup
    ) -> Applied:
        name = projection.name
        rows = dict(self._tables.setdefault(name, {}))
        checkpoint = self._checkpoints.get(name, 0)
        processed = set(self._processed.get(name, set()))
        touched: set[CacheKey] = set()
        applied = skipped = 0
        for index, event in enumerate(events):
            event_id = str(event.event_id)
            if (dedup == "position" and event.position <= checkpoint) or (
                dedup == "event_id" and event_id in processed
            ):
                skipped += 1
                continue
            handler = projection.handlers.get(event.event_type)
            if handler is not None:
                writer = _MemoryWriter(projection, rows, event.tenant_id)
                try:
                    await handler(writer, event)
                except Exception as error:
                    raise HandlerError(index, event, error) from error
                touched |= writer.touched
            applied += 1
            checkpoint = max(checkpoint, event.position)
            if dedup == "event_id":
                processed.add(event_id)
        self._tables[name] = rows
        self._checkpoints[name] = checkpoint
        self._processed[name] = processed
        return Applied(applied, skipped, frozenset(touched))

    async def dead_letter(
        self, projection: Projection, letter: DeadLetterRecord, *, dedup: Dedup
    ) -> None:
        self._dead_letters.setdefault(projection.name, {})[letter.event_id] = letter
        if dedup == "position":
            checkpoint = self._checkpoints.get(projection.name, 0)
            self._checkpoints[projection.name] = max(checkpoint, letter.position)

    async def dead_letters(self, projection: str) -> list[DeadLetterRecord]:
        letters = self._dead_letters.get(projection, {}).values()
        return sorted(letters, key=lambda letter: letter.position)

    async def reset(self, projection: Projection) -> None:
        name = projection.name
        self._tables[name] = {}
        self._checkpoints.pop(name, None)
        self._processed.pop(name, None)
        self._dead_letters.pop(name, None)

    async def find(
        self,
        projection: Projection,
        tenant_id: str,
        where: Mapping[str, Any],
        *,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        rows = self._tables.get(projection.name, {})
        found = [
            copy.deepcopy(row)
            for (tenant, _), row in sorted(rows.items(), key=lambda item: item[0][1])
            if tenant == tenant_id
            and row[TENANT_COLUMN] == tenant_id
            and all(row.get(column) == value for column, value in where.items())
        ]
        return found if limit is None else found[:limit]
