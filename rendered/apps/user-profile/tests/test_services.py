# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Use cases on the in-memory and SQLite event stores: transactions, references, unique
values, idempotency keys, guards and tenant isolation."""

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest
from eaf.context import SecurityContext, use
from eaf.eventsourcing import (
    EventStore,
    Idempotency,
    PreconditionFailedError,
    close_event_store,
    open_event_store,
)
from eaf.projectors import projection_store

from user_profile.application.services import SampleUserProfileService
from user_profile.domain.errors import (
    ConcurrencyError,
    NotFoundError,
)
from user_profile.domain.model import SampleUserProfile
from user_profile.infrastructure.persistence import (
    EventSourcedSampleUserProfileRepository,
    transactions,
)
from user_profile.infrastructure.projections import ReadModelSampleUserProfileListing

T = TypeVar("T")
TENANT_A = SecurityContext(tenant_id="tenant-a")
TENANT_B = SecurityContext(tenant_id="tenant-b")


class TickingClock:
    """A clock that moves on by a millisecond each time it is read: every command of a
    test happens after the one before it, as on a real clock."""

    def __init__(self) -> None:
        self.start = datetime.now(UTC).replace(microsecond=0)
        self.ticks = 0

    def now(self) -> datetime:
        self.ticks += 1
        return self.start + timedelta(milliseconds=self.ticks)


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


@dataclass
class Cases:
    """The use cases of one store, and the examples of unique fields used so far."""

    sample_user_profile: SampleUserProfileService
    used: dict[str, int] = field(default_factory=dict)

    def next_of(self, key: str, values: list[T]) -> T:
        """The next of ``values`` not used yet for ``key`` (unique values stay unique)."""
        index = self.used.get(key, 0)
        self.used[key] = index + 1
        return values[index % len(values)]


def use_cases(store: EventStore) -> Cases:
    wired = transactions(store)
    clock = TickingClock()
    return Cases(
        sample_user_profile=SampleUserProfileService(
            wired,
            clock,
            ReadModelSampleUserProfileListing(projection_store(store)),
        ),
    )


async def sample_user_profile_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of SampleUserProfile.create (the aggregates they reference made)."""
    return dict(
        name="name",
        email="email@x",
    )


async def new_sample_user_profile(cases: Cases, **overrides: Any) -> SampleUserProfile:
    """A new sample user profile from the examples."""
    arguments = {**await sample_user_profile_arguments(cases), **overrides}
    return await cases.sample_user_profile.create(**arguments)


async def test_sample_user_profile_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_sample_user_profile(cases)
        assert await cases.sample_user_profile.get(created.id) == created
        assert await cases.sample_user_profile.get("no-such-id") is None


async def test_sample_user_profile_of_one_tenant_is_invisible_to_another(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_sample_user_profile(cases)
    with use(TENANT_B):
        assert await cases.sample_user_profile.get(created.id) is None


async def test_an_idempotency_key_makes_one_sample_user_profile(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await sample_user_profile_arguments(cases)
        create = cases.sample_user_profile.create
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_update_profile_of_a_missing_sample_user_profile_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.sample_user_profile.update_profile(
            "no-such-id",
            name="name",
            email="email@x",
        )


async def test_update_profile_of_a_sample_user_profile_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        profile = await new_sample_user_profile(cases)
        changed = await cases.sample_user_profile.update_profile(
            profile.id,
            name="name",
            email="email@x",
        )
        assert changed.version == profile.version + 1
        assert await cases.sample_user_profile.get(profile.id) == changed
        stream = await store.read_stream("SampleUserProfile", profile.id)
    assert stream[-1].event_type == "SampleUserProfileUpdated"


async def test_update_profile_of_a_sample_user_profile_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        profile = await new_sample_user_profile(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.sample_user_profile.update_profile(
                profile.id,
                name="name",
                email="email@x",
                expected_version=profile.version + 1,
            )


async def test_remove_of_a_missing_sample_user_profile_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.sample_user_profile.remove(
            "no-such-id",
        )


async def test_remove_of_a_sample_user_profile_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        profile = await new_sample_user_profile(cases)
        changed = await cases.sample_user_profile.remove(
            profile.id,
        )
        assert changed.version == profile.version + 1
        assert await cases.sample_user_profile.get(profile.id) is None
        stream = await store.read_stream("SampleUserProfile", profile.id)
    assert stream[-1].event_type == "SampleUserProfileRemoved"


async def test_remove_of_a_sample_user_profile_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        profile = await new_sample_user_profile(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.sample_user_profile.remove(
                profile.id, expected_version=profile.version + 1
            )


async def test_a_stale_sample_user_profile_is_not_saved_over_a_newer_one(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    repository = EventSourcedSampleUserProfileRepository(store)
    with use(TENANT_A):
        created = await new_sample_user_profile(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(
            created.update_profile(name="name", email="email@x", now=now)
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.update_profile(name="name", email="email@x", now=now)
            )
