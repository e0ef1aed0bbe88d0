"""A service's read models at run time: where they live, and the projectors that keep
them up to date in the background."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from eaf.eventsourcing import EventStore
from eaf.projectors.follow import StoreFollower
from eaf.projectors.memory import InMemoryProjectionStore
from eaf.projectors.ports import ProjectionStore
from eaf.projectors.projection import Projection
from eaf.projectors.projector import Projector
from eaf.projectors.sql import SqlProjectionStore


def projection_store(events: EventStore) -> ProjectionStore:
    """Read models live in the event store's database (in memory beside a memory store)."""
    database = getattr(events, "database", None)
    return (
        InMemoryProjectionStore() if database is None else SqlProjectionStore(database)
    )


class Projectors:
    """Runs one projector per projection, following the event store until stopped."""

    def __init__(
        self,
        events: EventStore,
        store: ProjectionStore,
        projections: Sequence[Projection],
        *,
        poll_interval: float = 0.1,
    ) -> None:
        self._followers = [
            StoreFollower(
                Projector(projection, store), events, poll_interval=poll_interval
            )
            for projection in projections
        ]
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Start each projector (a changed read model is rebuilt first), then follow."""
        for follower in self._followers:
            await follower.projector.start()
            self._tasks.append(asyncio.create_task(follower.run(self._stop)))

    async def catch_up(self) -> None:
        """Bring each read model up to date once (a changed one rebuilt first, a new one
        made), without following: for a run that ends, such as an operator's command."""
        for follower in self._followers:
            await follower.projector.start()
            await follower.run_until_idle()

    async def stop(self) -> None:
        """Stop following once the batches in hand are done."""
        self._stop.set()
        await asyncio.gather(*self._tasks, return_exceptions=True)
