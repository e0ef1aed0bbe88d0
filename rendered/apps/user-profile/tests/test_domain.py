# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Unit tests of the domain: rules, guards, invariants, and the events commands emit."""

from datetime import UTC, datetime, timedelta

import pytest

from user_profile.domain.errors import (
    DomainValidationError,
    Violation,
)
from user_profile.domain.events import (
    SampleUserProfileCreated,
    SampleUserProfileRemoved,
    SampleUserProfileUpdated,
)
from user_profile.domain.model import SampleUserProfile

# Now: the spec's examples are checked against the current date (a due date in 2099).
NOW = datetime.now(UTC).replace(microsecond=0)
LATER = NOW + timedelta(minutes=5)


def new_sample_user_profile() -> SampleUserProfile:
    return SampleUserProfile.create(name="name", email="email@x", now=NOW).committed()


def test_create_sample_user_profile_sets_fields_and_records_sample_user_profile_created() -> (
    None
):
    profile = SampleUserProfile.create(name="name", email="email@x", now=NOW)
    assert profile.name == "name"
    assert profile.email == "email@x"
    assert profile.created_at == profile.updated_at == NOW
    assert [type(event) for event in profile.changes] == [SampleUserProfileCreated]
    assert profile.committed().version == 1


def test_replaying_the_events_of_a_sample_user_profile_rebuilds_it() -> None:
    profile = SampleUserProfile.create(name="name", email="email@x", now=NOW)
    profile = profile.update_profile(
        name="name", email="email@x", now=LATER + timedelta(seconds=1)
    )
    assert SampleUserProfile.from_history(profile.changes) == profile.committed()


def test_create_sample_user_profile_rejects_name_breaking_not_blank() -> None:
    with pytest.raises(DomainValidationError) as error:
        SampleUserProfile.create(name="   ", email="email@x", now=NOW)
    assert Violation("name", "Name cannot be blank") in error.value.violations


def test_create_sample_user_profile_rejects_email_breaking_contains() -> None:
    with pytest.raises(DomainValidationError) as error:
        SampleUserProfile.create(name="name", email="xxxxxxx", now=NOW)
    assert Violation("email", "Email must be valid") in error.value.violations


def test_update_profile_sample_user_profile_rejects_name_breaking_not_blank() -> None:
    original = new_sample_user_profile()
    with pytest.raises(DomainValidationError) as error:
        original.update_profile(name="   ", email="email@x", now=NOW)
    assert Violation("name", "Name cannot be blank") in error.value.violations


def test_update_profile_sample_user_profile_rejects_email_breaking_contains() -> None:
    original = new_sample_user_profile()
    with pytest.raises(DomainValidationError) as error:
        original.update_profile(name="name", email="xxxxxxx", now=NOW)
    assert Violation("email", "Email must be valid") in error.value.violations


def test_update_profile_sample_user_profile_returns_a_changed_copy_with_its_event() -> (
    None
):
    original = new_sample_user_profile()
    changed = original.update_profile(name="name", email="email@x", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [SampleUserProfileUpdated]


def test_remove_sample_user_profile_returns_a_changed_copy_with_its_event() -> None:
    original = new_sample_user_profile()
    changed = original.remove(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [SampleUserProfileRemoved]
    assert changed.archived
