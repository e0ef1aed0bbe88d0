"""Opening, probing and closing a service's event store."""

from __future__ import annotations

from eaf.context import platform_context, use
from eaf.eventsourcing.memory import InMemoryEventStore
from eaf.eventsourcing.ports import EventStore
from eaf.eventsourcing.sql import create_event_store


async def open_event_store(url: str | None) -> EventStore:
    """The event store at ``url`` (``sqlite+aiosqlite://...``, ``postgresql+asyncpg://...``),
    or an in-memory one when ``url`` is None."""
    if url is None:
        return InMemoryEventStore()
    return await create_event_store(url)


async def close_event_store(store: EventStore) -> None:
    """Release what ``store`` holds (its connections), where it holds any."""
    close = getattr(store, "close", None)
    if close is not None:
        await close()


async def event_store_ready(store: EventStore) -> bool:
    """True when the event store answers a read and, after an append failed for a
    storage fault (a read-only or full disk...), when it can write again (a probe
    write tells; once one succeeds the store is ready without a restart)."""
    try:
        with use(platform_context()):
            await store.read_all(limit=1)
        if getattr(store, "write_fault", None) is not None:
            probe = getattr(store, "probe_write", None)
            return probe is not None and bool(await probe())
    except Exception:
        return False
    return True
