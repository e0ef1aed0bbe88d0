"""Wake-ups for watching callers (hand-written): a change in a tenant's configuration,
seen on the broker or written here, wakes every request waiting on that tenant."""

from __future__ import annotations

import asyncio

__all__ = ["Changes"]


class Changes:
    """One ``asyncio.Event`` per tenant, replaced at every change: a waiter takes its
    ticket *before* reading the configuration, so a change in between still wakes it."""

    def __init__(self) -> None:
        self._events: dict[str, asyncio.Event] = {}

    def ticket(self, tenant: str) -> asyncio.Event:
        """What a change of ``tenant`` from now on sets."""
        return self._events.setdefault(tenant, asyncio.Event())

    def notify(self, tenant: str) -> None:
        """Wake everything waiting on ``tenant``."""
        event = self._events.pop(tenant, None)
        if event is not None:
            event.set()

    async def wait(self, ticket: asyncio.Event, timeout: float) -> bool:
        """Whether a change came within ``timeout`` seconds."""
        try:
            await asyncio.wait_for(ticket.wait(), timeout)
        except TimeoutError:
            return False
        return True
