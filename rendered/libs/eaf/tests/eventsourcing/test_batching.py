"""Group commit: concurrent requests are coalesced, results and failures go back to
the right callers."""

from __future__ import annotations

import asyncio

import pytest

from eaf.eventsourcing.sql.batching import Batcher


class FakeDatabase:
    """Answers each batch after a round trip, remembering the batches it saw."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []

    async def send(self, requests: list[int]) -> list[int]:
        self.batches.append(requests)
        await asyncio.sleep(0.01)
        if -1 in requests:
            raise ConnectionError("lost the connection")
        return [request * 10 for request in requests]


async def test_a_lone_request_leaves_at_once() -> None:
    database = FakeDatabase()
    batcher = Batcher(database.send, max_batch=8, parallel=2)
    assert await batcher.submit(1) == 10
    assert database.batches == [[1]]


async def test_concurrent_requests_share_batches_and_get_their_own_results() -> None:
    database = FakeDatabase()
    batcher = Batcher(database.send, max_batch=8, parallel=2)
    results = await asyncio.gather(*(batcher.submit(n) for n in range(20)))
    assert results == [n * 10 for n in range(20)]
    assert sorted(n for batch in database.batches for n in batch) == list(range(20))
    assert len(database.batches) < 20
    assert max(len(batch) for batch in database.batches) <= 8


async def test_a_failed_batch_fails_its_callers_only() -> None:
    database = FakeDatabase()
    batcher = Batcher(database.send, max_batch=1, parallel=2)
    ok, failed = await asyncio.gather(
        batcher.submit(3), batcher.submit(-1), return_exceptions=True
    )
    assert ok == 30
    assert isinstance(failed, ConnectionError)
    assert await batcher.submit(4) == 40


@pytest.mark.parametrize("started", [False, True])
async def test_a_cancelled_flush_cancels_its_callers(started: bool) -> None:
    async def never(requests: list[int]) -> list[int]:
        await asyncio.Event().wait()
        return requests

    batcher = Batcher(never, max_batch=4, parallel=1)
    waiting = asyncio.ensure_future(batcher.submit(1))
    await asyncio.sleep(0)  # the request is queued and a flusher created
    if started:
        await asyncio.sleep(0.01)  # the flusher is inside send
    for flusher in list(batcher._flushers):
        flusher.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
