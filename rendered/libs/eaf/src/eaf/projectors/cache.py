"""A bounded LRU cache of hot read-model rows, invalidated by the projector."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from eaf.projectors.ports import CacheKey

Row = dict[str, Any] | None


class ReadModelCache:
    """Rows (or their absence) keyed by ``(tenant, key)``, at most ``max_entries``.

    The projector drops the keys a batch wrote once the batch commits. A read that
    raced with a write is not cached: every invalidation bumps a generation, and a
    loaded row is kept only if no invalidation happened while it was loading."""

    def __init__(self, max_entries: int = 1024) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self.max_entries = max_entries
        self._rows: OrderedDict[CacheKey, Row] = OrderedDict()
        self._generation = 0
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, key: CacheKey) -> bool:
        return key in self._rows

    async def get_or_load(
        self, key: CacheKey, load: Callable[[], Awaitable[Row]]
    ) -> Row:
        if key in self._rows:
            self.hits += 1
            self._rows.move_to_end(key)
            return _copy(self._rows[key])
        self.misses += 1
        generation = self._generation
        row = await load()
        if generation == self._generation:
            self._rows[key] = _copy(row)
            if len(self._rows) > self.max_entries:
                self._rows.popitem(last=False)
        return row

    def invalidate(self, keys: Iterable[CacheKey]) -> None:
        self._generation += 1
        for key in keys:
            self._rows.pop(key, None)

    def clear(self) -> None:
        self._generation += 1
        self._rows.clear()


def _copy(row: Row) -> Row:
    return None if row is None else dict(row)
