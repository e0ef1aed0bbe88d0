# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Read models: projections of the stored events, one row per aggregate, kept up to date
by projectors that follow the event store (each batch and its checkpoint in one
transaction, so a restart neither skips nor repeats an event)."""

import asyncio
from datetime import datetime
from typing import Any

from eaf.eventsourcing import EventStore, StoredEvent
from eaf.projectors import (
    InMemoryProjectionStore,
    Projection,
    ProjectionStore,
    Projector,
    ReadModel,
    SqlProjectionStore,
    StoreFollower,
    read_model_table,
    update,
    upsert,
)

from user_profile.domain.model import SampleUserProfile

SAMPLE_USER_PROFILE_TABLE = read_model_table(
    "sample_user_profile_list",
    {
        "id": "str",
        "name": "str",
        "email": "str",
        "created_at": "str",
        "updated_at": "str",
    },
)
SAMPLE_USER_PROFILE_PROJECTION = Projection(
    "SampleUserProfileList", SAMPLE_USER_PROFILE_TABLE
)


def _sample_user_profile_key(event: StoredEvent) -> dict[str, Any]:
    return {"id": str(event.payload["profile_id"])}


def _sample_user_profile_created_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "id": str(payload["profile_id"]),
        "created_at": payload["occurred_at"],
        "name": payload["name"],
        "email": payload["email"],
        "updated_at": payload["occurred_at"],
    }


def _sample_user_profile_updated_row(event: StoredEvent) -> dict[str, Any]:
    payload = event.payload
    return {
        "name": payload["name"],
        "email": payload["email"],
        "updated_at": payload["occurred_at"],
    }


SAMPLE_USER_PROFILE_PROJECTION.on(
    "SampleUserProfileCreated",
    upsert(_sample_user_profile_created_row),
)
SAMPLE_USER_PROFILE_PROJECTION.on(
    "SampleUserProfileUpdated",
    update(_sample_user_profile_key, _sample_user_profile_updated_row),
)


class ReadModelSampleUserProfileListing:
    """Lists the tenant's sample user profile rows of the read model."""

    def __init__(self, store: ProjectionStore) -> None:
        self._rows = ReadModel(store, SAMPLE_USER_PROFILE_PROJECTION)

    async def list(self) -> list[SampleUserProfile]:
        return [_sample_user_profile_of(row) for row in await self._rows.find()]


def _sample_user_profile_of(row: dict[str, Any]) -> SampleUserProfile:
    return SampleUserProfile(
        id=str(row["id"]),
        name=str(row["name"]),
        email=str(row["email"]),
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
    )


PROJECTIONS = [SAMPLE_USER_PROFILE_PROJECTION]


def projection_store(events: EventStore) -> ProjectionStore:
    """Read models live in the event store's database (in memory beside a memory store)."""
    database = getattr(events, "database", None)
    return (
        InMemoryProjectionStore() if database is None else SqlProjectionStore(database)
    )


class Projectors:
    """Runs one projector per read model, following the event store until stopped."""

    def __init__(self, events: EventStore, store: ProjectionStore) -> None:
        self._followers = [
            StoreFollower(Projector(projection, store), events, poll_interval=0.1)
            for projection in PROJECTIONS
        ]
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        for follower in self._followers:
            await follower.projector.start()
            self._tasks.append(asyncio.create_task(follower.run(self._stop)))

    async def stop(self) -> None:
        self._stop.set()
        await asyncio.gather(*self._tasks, return_exceptions=True)
