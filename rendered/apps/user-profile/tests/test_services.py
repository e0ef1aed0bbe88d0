# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Use cases against event-sourced repositories on the in-memory and SQLite event stores."""

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from eaf.context import SecurityContext, use
from eaf.eventsourcing import EventStore

from user_profile.application.services import SampleUserProfileService
from user_profile.domain.errors import ConcurrencyError, NotFoundError
from user_profile.domain.model import SampleUserProfile
from user_profile.infrastructure.persistence import (
    EventSourcedSampleUserProfileRepository,
    close_event_store,
    open_event_store,
)
from user_profile.infrastructure.projections import (
    ReadModelSampleUserProfileListing,
    projection_store,
)

TENANT_A = SecurityContext(tenant_id="tenant-a")
TENANT_B = SecurityContext(tenant_id="tenant-b")


class FixedClock:
    def now(self) -> datetime:
        return datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture(params=["memory", "sqlite"])
async def store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[EventStore]:
    url = (
        None
        if request.param == "memory"
        else f"sqlite+aiosqlite:///{tmp_path / 'events.db'}"
    )
    opened = await open_event_store(url)
    yield opened
    await close_event_store(opened)


def sample_user_profile_service(store: EventStore) -> SampleUserProfileService:
    return SampleUserProfileService(
        EventSourcedSampleUserProfileRepository(store),
        FixedClock(),
        ReadModelSampleUserProfileListing(projection_store(store)),
    )


async def test_sample_user_profile_is_stored_and_found(store: EventStore) -> None:
    service = sample_user_profile_service(store)
    with use(TENANT_A):
        created = await service.create(name="sample", email="email@example.org")
        assert await service.get(created.id) == created
        assert await service.get("no-such-id") is None


async def test_sample_user_profile_of_one_tenant_is_invisible_to_another(
    store: EventStore,
) -> None:
    service = sample_user_profile_service(store)
    with use(TENANT_A):
        created = await service.create(name="sample", email="email@example.org")
    with use(TENANT_B):
        assert await service.get(created.id) is None


async def test_update_profile_of_a_missing_sample_user_profile_is_not_found(
    store: EventStore,
) -> None:
    service = sample_user_profile_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="Profile not found"):
        await service.update_profile(
            "no-such-id", name="sample", email="email@example.org"
        )


async def test_update_profile_of_a_sample_user_profile_is_stored_as_an_event(
    store: EventStore,
) -> None:
    service = sample_user_profile_service(store)
    with use(TENANT_A):
        created = await service.create(name="sample", email="email@example.org")
        changed = await service.update_profile(
            created.id, name="sample", email="email@example.org"
        )
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(
            EventSourcedSampleUserProfileRepository.STREAM, created.id
        )
    assert [event.event_type for event in stream] == [
        "SampleUserProfileCreated",
        "SampleUserProfileUpdated",
    ]


async def test_a_stale_sample_user_profile_is_not_saved_over_a_newer_one(
    store: EventStore,
) -> None:
    repository = EventSourcedSampleUserProfileRepository(store)
    now = FixedClock().now()
    with use(TENANT_A):
        created = await repository.save(
            SampleUserProfile.create(name="sample", email="email@example.org", now=now)
        )
        await repository.save(
            created.update_profile(name="sample", email="email@example.org", now=now)
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.update_profile(
                    name="sample", email="email@example.org", now=now
                )
            )
