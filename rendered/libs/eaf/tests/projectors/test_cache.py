"""The read-model cache: bounded, least recently used out, and never keeps a row
loaded while that row was being written."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from eaf.projectors import ReadModelCache


def _loader(row: dict[str, Any] | None) -> Any:
    async def load() -> dict[str, Any] | None:
        return row

    return load


async def test_keeps_at_most_max_entries_dropping_the_least_recently_used() -> None:
    cache = ReadModelCache(max_entries=2)
    await cache.get_or_load(("acme", ("a",)), _loader({"v": 1}))
    await cache.get_or_load(("acme", ("b",)), _loader({"v": 2}))
    await cache.get_or_load(("acme", ("a",)), _loader({"v": 0}))  # a hit: a is fresh
    await cache.get_or_load(("acme", ("c",)), _loader({"v": 3}))
    assert ("acme", ("a",)) in cache
    assert ("acme", ("b",)) not in cache
    assert len(cache) == 2
    assert (cache.hits, cache.misses) == (1, 3)


async def test_keys_are_per_tenant_and_rows_are_copies() -> None:
    cache = ReadModelCache()
    row = await cache.get_or_load(("acme", ("a",)), _loader({"v": 1}))
    assert row is not None
    row["v"] = 99
    assert await cache.get_or_load(("acme", ("a",)), _loader(None)) == {"v": 1}
    assert await cache.get_or_load(("globex", ("a",)), _loader(None)) is None


async def test_a_row_loaded_during_an_invalidation_is_not_kept() -> None:
    cache = ReadModelCache()
    loading = asyncio.Event()
    written = asyncio.Event()

    async def slow_load() -> dict[str, Any] | None:
        loading.set()
        await written.wait()
        return {"v": "stale"}

    reader = asyncio.create_task(cache.get_or_load(("acme", ("a",)), slow_load))
    await loading.wait()
    cache.invalidate([("acme", ("a",))])  # the projector committed a new row meanwhile
    written.set()
    assert await reader == {"v": "stale"}  # this read may be stale ...
    assert ("acme", ("a",)) not in cache  # ... but it is not cached


def test_max_entries_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_entries"):
        ReadModelCache(max_entries=0)
