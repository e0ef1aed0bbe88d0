# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Use cases against the in-memory and SQLite repositories."""

from datetime import UTC, datetime
from pathlib import Path

import pytest

from user_profile.application.services import SampleUserProfileService
from user_profile.domain.errors import ConcurrencyError, NotFoundError
from user_profile.infrastructure.database import Database
from user_profile.infrastructure.persistence import (
    InMemorySampleUserProfileRepository,
    SqliteSampleUserProfileRepository,
)


class FixedClock:
    def now(self) -> datetime:
        return datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture(params=["memory", "sqlite"])
def sample_user_profile_service(
    request: pytest.FixtureRequest, tmp_path: Path
) -> SampleUserProfileService:
    if request.param == "memory":
        return SampleUserProfileService(
            InMemorySampleUserProfileRepository(), FixedClock()
        )
    repository = SqliteSampleUserProfileRepository(Database(tmp_path / "test.db"))
    return SampleUserProfileService(repository, FixedClock())


def test_sample_user_profile_is_stored_and_found(
    sample_user_profile_service: SampleUserProfileService,
) -> None:
    created = sample_user_profile_service.create(
        name="sample", email="email@example.org"
    )
    assert sample_user_profile_service.get(created.id) == created
    assert sample_user_profile_service.get("no-such-id") is None


def test_update_profile_of_a_missing_sample_user_profile_is_not_found(
    sample_user_profile_service: SampleUserProfileService,
) -> None:
    with pytest.raises(NotFoundError, match="Profile not found"):
        sample_user_profile_service.update_profile(
            "no-such-id", name="sample", email="email@example.org"
        )


def test_update_profile_is_stored(
    sample_user_profile_service: SampleUserProfileService,
) -> None:
    created = sample_user_profile_service.create(
        name="sample", email="email@example.org"
    )
    changed = sample_user_profile_service.update_profile(
        created.id, name="sample", email="email@example.org"
    )
    assert sample_user_profile_service.get(created.id) == changed
    assert changed.version == created.version + 1


def test_a_stale_sample_user_profile_is_not_saved_over_a_newer_one(
    tmp_path: Path,
) -> None:
    service = SampleUserProfileService(
        SqliteSampleUserProfileRepository(Database(tmp_path / "test.db")), FixedClock()
    )
    created = service.create(name="sample", email="email@example.org")
    repository = SqliteSampleUserProfileRepository(Database(tmp_path / "test.db"))
    repository.save(
        created.update_profile(
            name="sample", email="email@example.org", now=FixedClock().now()
        )
    )
    with pytest.raises(ConcurrencyError):
        repository.save(
            created.update_profile(
                name="sample", email="email@example.org", now=FixedClock().now()
            )
        )
