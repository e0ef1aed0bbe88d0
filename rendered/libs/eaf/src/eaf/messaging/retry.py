"""Retrying broker calls that fail transiently, with exponential backoff and jitter."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import nats.errors
import nats.js.errors
import stamina

T = TypeVar("T")

_TRANSIENT = (
    nats.errors.TimeoutError,
    nats.errors.NoRespondersError,
    nats.errors.ConnectionReconnectingError,
    nats.errors.OutboundBufferLimitError,
    nats.errors.StaleConnectionError,
    nats.js.errors.NoStreamResponseError,
    nats.js.errors.TooManyStalledMsgsError,
    asyncio.TimeoutError,
)


def is_transient(error: Exception) -> bool:
    """Whether retrying later may succeed: timeouts, reconnects, leader elections."""
    if isinstance(error, nats.js.errors.APIError):
        return (error.code or 0) >= 500
    return isinstance(error, _TRANSIENT)


async def retrying(
    call: Callable[[], Awaitable[T]],
    *,
    attempts: int | None = 10,
    wait_max: float = 2.0,
) -> T:
    """``call()``, retried while it fails transiently (``attempts=None``: for ever)."""
    async for attempt in stamina.retry_context(
        on=is_transient,
        attempts=attempts,
        timeout=None,
        wait_initial=0.1,
        wait_max=wait_max,
    ):
        with attempt:
            return await call()
    raise AssertionError("unreachable: stamina re-raises the last error")
