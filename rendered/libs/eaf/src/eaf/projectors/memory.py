"""The in-memory projection store, for unit tests and the zero-set-up default."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from eaf.eventsourcing.records import StoredEvent
from eaf.projectors.paging import Condition, OrderBy, Page, checked_query
from eaf.projectors.ports import (
    Applied,
    CacheKey,
    DeadLetterRecord,
    Dedup,
    HandlerError,
    Rewound,
)
from eaf.projectors.projection import TENANT_COLUMN, Projection, scoped_row
from eaf.projectors.schema import ProjectionSchema

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
    _schemas: dict[str, ProjectionSchema] = field(default_factory=dict)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def create(self, projection: Projection) -> str | None:
        async with self._lock:
            schema = projection.schema
            known = self._schemas.get(projection.name)
            self._schemas[projection.name] = schema
            if known is None or known.fingerprint == schema.fingerprint:
                self._tables.setdefault(projection.name, {})
                return None
            await self._reset(projection.name)
            return schema.changes_since(known)

    async def checkpoint(self, projection: str) -> int:
        return self._checkpoints.get(projection, 0)

    async def apply(
        self,
        projection: Projection,
        events: Sequence[StoredEvent],
        *,
        dedup: Dedup,
        after: int | None = None,
    ) -> Applied:
        async with self._lock:  # one batch at a time, as the SQL stores' row lock
            self._check_not_rewound(projection.name, after)
            return await self._apply(projection, events, dedup)

    def _check_not_rewound(self, name: str, after: int | None) -> None:
        checkpoint = self._checkpoints.get(name, 0)
        if after is not None and checkpoint < after:
            raise Rewound(name, checkpoint, after)

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
        self,
        projection: Projection,
        letter: DeadLetterRecord,
        *,
        dedup: Dedup,
        after: int | None = None,
    ) -> None:
        self._check_not_rewound(projection.name, after)
        self._dead_letters.setdefault(projection.name, {})[letter.event_id] = letter
        if dedup == "position":
            checkpoint = self._checkpoints.get(projection.name, 0)
            self._checkpoints[projection.name] = max(checkpoint, letter.position)

    async def dead_letters(self, projection: str) -> list[DeadLetterRecord]:
        letters = self._dead_letters.get(projection, {}).values()
        return sorted(letters, key=lambda letter: letter.position)

    async def reset(self, projection: Projection) -> None:
        await self._reset(projection.name)

    async def _reset(self, name: str) -> None:
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
        checked_query(projection, where, order_by, limit, offset)
        rows = [
            row
            for (tenant, _), row in self._tables.get(projection.name, {}).items()
            if tenant == tenant_id and all(_holds(row, c) for c in where)
        ]
        rows.sort(key=projection.key_of)
        # Stable sorts from the last column to the first give the combined order.
        for column, descending in reversed(order_by):
            present = [row for row in rows if row[column] is not None]
            present.sort(key=lambda row: row[column], reverse=descending)
            rows = present + [row for row in rows if row[column] is None]
        window = rows[offset : offset + limit]
        return Page([copy.deepcopy(row) for row in window], len(rows))


def _holds(row: Mapping[str, Any], condition: Condition) -> bool:
    value = row[condition.column]
    if condition.op == "is_null":
        return (value is None) is condition.value
    if value is None:
        return False
    if condition.ignore_case:
        return str(value).casefold() in {str(v).casefold() for v in condition.values}
    if condition.op == "in":
        return any(value == candidate for candidate in condition.values)
    other = condition.value
    match condition.op:
        case "eq":
            return bool(value == other)
        case "gt":
            return bool(value > other)
        case "gte":
            return bool(value >= other)
        case "lt":
            return bool(value < other)
        case _:
            return bool(value <= other)
