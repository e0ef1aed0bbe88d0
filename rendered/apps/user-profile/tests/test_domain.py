# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Unit tests of the domain: rules, commands and the events they emit."""

from datetime import UTC, datetime, timedelta

import pytest

from user_profile.domain.errors import DomainValidationError
from user_profile.domain.events import (
    SampleUserProfileCreated,
    SampleUserProfileUpdated,
)
from user_profile.domain.model import SampleUserProfile

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
LATER = NOW + timedelta(minutes=5)


def new_sample_user_profile() -> SampleUserProfile:
    return SampleUserProfile.create(name="sample", email="email@example.org", now=NOW)


def test_create_sample_user_profile_sets_fields_and_records_sample_user_profile_created() -> (
    None
):
    profile = new_sample_user_profile()
    assert profile.name == "sample"
    assert profile.email == "email@example.org"
    assert profile.created_at == profile.updated_at == NOW
    assert [type(event) for event in profile.changes] == [SampleUserProfileCreated]
    assert profile.committed().version == 1


def test_replaying_the_events_of_a_sample_user_profile_rebuilds_it() -> None:
    profile = new_sample_user_profile()
    profile = profile.update_profile(
        name="sample", email="email@example.org", now=LATER
    )
    assert SampleUserProfile.from_history(profile.changes) == profile.committed()


def test_create_sample_user_profile_rejects_name_breaking_not_blank() -> None:
    with pytest.raises(DomainValidationError, match="Name cannot be blank") as error:
        SampleUserProfile.create(name="   ", email="email@example.org", now=NOW)
    assert error.value.field == "name"


def test_create_sample_user_profile_rejects_email_breaking_contains() -> None:
    with pytest.raises(DomainValidationError, match="Email must be valid") as error:
        SampleUserProfile.create(name="sample", email="x", now=NOW)
    assert error.value.field == "email"


def test_update_profile_sample_user_profile_returns_a_changed_copy_with_fresh_updated_at() -> (
    None
):
    original = new_sample_user_profile().committed()
    changed = original.update_profile(
        name="sample", email="email@example.org", now=LATER
    )
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [SampleUserProfileUpdated]


def test_update_profile_sample_user_profile_rejects_name_breaking_not_blank() -> None:
    original = new_sample_user_profile().committed()
    with pytest.raises(DomainValidationError, match="Name cannot be blank"):
        original.update_profile(name="   ", email="email@example.org", now=LATER)


def test_update_profile_sample_user_profile_rejects_email_breaking_contains() -> None:
    original = new_sample_user_profile().committed()
    with pytest.raises(DomainValidationError, match="Email must be valid"):
        original.update_profile(name="sample", email="x", now=LATER)
