"""Opening, probing and closing a service's event store."""

from pathlib import Path
from typing import Any

from eaf.eventsourcing import (
    InMemoryEventStore,
    SqlEventStore,
    close_event_store,
    event_store_ready,
    open_event_store,
)


async def test_no_url_is_an_in_memory_store_that_is_ready() -> None:
    store = await open_event_store(None)
    assert isinstance(store, InMemoryEventStore)
    assert await event_store_ready(store)
    await close_event_store(store)  # nothing to release


async def test_a_sqlite_store_is_opened_with_its_schema(tmp_path: Path) -> None:
    store = await open_event_store(f"sqlite+aiosqlite:///{tmp_path / 'events.db'}")
    assert isinstance(store, SqlEventStore)
    assert (tmp_path / "events.db").is_file()
    assert await event_store_ready(store)
    await close_event_store(store)


class UnreadableStore(InMemoryEventStore):
    """A store whose database went away: every read fails."""

    async def read_all(self, *args: Any, **kwargs: Any) -> Any:
        raise OSError("disk I/O error")


async def test_a_store_that_cannot_read_is_not_ready() -> None:
    assert not await event_store_ready(UnreadableStore())
