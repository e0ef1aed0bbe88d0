"""Group commit: concurrent appends coalesced into a few transactions.

While a batch is in flight, appends that arrive queue up and leave together in the next
one, so under load many appends share one round trip and one commit; a lone append
leaves at once. Up to ``parallel`` batches are in flight, so one append stuck behind a
row lock (another process writing the same stream) holds up only its own batch.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Generic, TypeVar

R = TypeVar("R")
T = TypeVar("T")

__all__ = ["Batcher"]


def fail_all(
    batch: Sequence[tuple[Any, asyncio.Future[Any]]], error: BaseException
) -> None:
    """Every still-pending future of ``batch`` shares ``error`` (cancellation cancels)."""
    for _, future in batch:
        if future.done():
            continue
        if isinstance(error, asyncio.CancelledError):
            future.cancel()
        else:
            future.set_exception(error)


def resolve_all(
    batch: Sequence[tuple[Any, asyncio.Future[Any]]], results: Sequence[Any]
) -> None:
    """Each still-pending future of ``batch`` gets its result."""
    for (_, future), result in zip(batch, results, strict=True):
        if not future.done():
            future.set_result(result)


class Batcher(Generic[R, T]):
    """Sends requests in batches through ``send``, which returns one result per request."""

    def __init__(
        self,
        send: Callable[[list[R]], Awaitable[list[T]]],
        *,
        max_batch: int,
        parallel: int,
    ) -> None:
        self._send = send
        self._max_batch = max_batch
        self._parallel = parallel
        self._waiting: list[tuple[R, asyncio.Future[T]]] = []
        self._flushers: set[asyncio.Task[None]] = set()

    async def submit(self, request: R) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._waiting.append((request, future))
        if len(self._flushers) < self._parallel:
            flusher = loop.create_task(self._flush())
            self._flushers.add(flusher)
            flusher.add_done_callback(self._flusher_done)
        return await future

    def _flusher_done(self, flusher: asyncio.Task[None]) -> None:
        self._flushers.discard(flusher)
        if flusher.cancelled() and not self._flushers:
            # Cancelled (say, at shutdown) before it could take the waiting requests.
            waiting, self._waiting = self._waiting, []
            for _, future in waiting:
                future.cancel()

    async def _flush(self) -> None:
        try:
            await self._drain()
        finally:
            # Leave the set as the queue is found empty, not later in the done callback:
            # a request queued in between must start a flusher of its own.
            task = asyncio.current_task()
            if task is not None:
                self._flushers.discard(task)

    async def _drain(self) -> None:
        while self._waiting:
            batch = self._waiting[: self._max_batch]
            del self._waiting[: self._max_batch]
            try:
                results = await self._send([request for request, _ in batch])
            except (
                BaseException
            ) as error:  # every request of the batch shares the failure
                fail_all(batch, error)
                if not isinstance(error, Exception):
                    raise
                continue
            resolve_all(batch, results)
