# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Unit tests of the domain: rules, guards, invariants, and the events commands emit."""

from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest

from licensing.domain.errors import (
    CommandNotAllowedError,
    DomainValidationError,
    LicenseNotActive,
    LicenseNotSuspended,
    LicenseRevoked,
    NotRenewable,
    TooManyMachines,
    Violation,
)
from licensing.domain.events import (
    LicenseCreated,
    LicenseReinstated,
    LicenseRenewed,
    LicenseRevokedEvent,
    LicenseSuspended,
    LicenseUpdated,
    MachineActivated,
    MachineClaimed,
    MachineDeactivated,
    MachineHeartbeat,
    MachineReleased,
    PolicyCreated,
    PolicyRemoved,
    PolicyUpdated,
    ProductCreated,
    ProductRemoved,
    ProductUpdated,
)
from licensing.domain.model import License, Machine, Policy, Product

# Now: the spec's examples are checked against the current date (a due date in 2099).
NOW = datetime.now(UTC).replace(microsecond=0)
LATER = NOW + timedelta(minutes=5)


def new_product() -> Product:
    return Product.create(
        code="desktop-app", name="name", url="url", metadata={}, now=NOW
    ).committed()


def test_create_product_sets_fields_and_records_product_created() -> None:
    product = Product.create(
        code="desktop-app", name="name", url="url", metadata={}, now=NOW
    )
    assert product.code == "desktop-app"
    assert product.name == "name"
    assert product.url == "url"
    assert product.metadata == {}
    assert product.created_at == product.updated_at == NOW
    assert [type(event) for event in product.changes] == [ProductCreated]
    assert product.committed().version == 1


def test_replaying_the_events_of_a_product_rebuilds_it() -> None:
    product = Product.create(
        code="desktop-app", name="name", url="url", metadata={}, now=NOW
    )
    product = product.update(
        name="name", url="url", metadata={}, now=LATER + timedelta(seconds=1)
    )
    assert Product.from_history(product.changes) == product.committed()


def test_create_product_rejects_name_breaking_not_blank() -> None:
    with pytest.raises(DomainValidationError) as error:
        Product.create(code="desktop-app", name="   ", url="url", metadata={}, now=NOW)
    assert Violation("name", "Name must not be blank") in error.value.violations


def test_create_product_rejects_name_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        Product.create(
            code="desktop-app", name="x" * 201, url="url", metadata={}, now=NOW
        )
    assert "name" in {violation.field for violation in error.value.violations}


def test_create_product_rejects_url_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        Product.create(
            code="desktop-app", name="name", url="x" * 2001, metadata={}, now=NOW
        )
    assert (
        Violation("url", "Url allows at most 2000 characters") in error.value.violations
    )


def test_update_product_rejects_name_breaking_not_blank() -> None:
    original = new_product()
    with pytest.raises(DomainValidationError) as error:
        original.update(name="   ", url="url", metadata={}, now=NOW)
    assert Violation("name", "Name must not be blank") in error.value.violations


def test_update_product_rejects_name_breaking_max_length() -> None:
    original = new_product()
    with pytest.raises(DomainValidationError) as error:
        original.update(name="x" * 201, url="url", metadata={}, now=NOW)
    assert "name" in {violation.field for violation in error.value.violations}


def test_update_product_rejects_url_breaking_max_length() -> None:
    original = new_product()
    with pytest.raises(DomainValidationError) as error:
        original.update(name="name", url="x" * 2001, metadata={}, now=NOW)
    assert (
        Violation("url", "Url allows at most 2000 characters") in error.value.violations
    )


def test_update_product_returns_a_changed_copy_with_its_event() -> None:
    original = new_product()
    changed = original.update(name="name", url="url", metadata={}, now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [ProductUpdated]


def test_remove_product_returns_a_changed_copy_with_its_event() -> None:
    original = new_product()
    changed = original.remove(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [ProductRemoved]
    assert changed.archived


def new_policy() -> Policy:
    return Policy.create(
        product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
        name="name",
        duration_days=365,
        max_machines=1,
        floating=True,
        entitlements=[],
        grace_period_days=1,
        heartbeat_interval_seconds=600,
        now=NOW,
    ).committed()


def test_create_policy_sets_fields_and_records_policy_created() -> None:
    policy = Policy.create(
        product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
        name="name",
        duration_days=365,
        max_machines=1,
        floating=True,
        entitlements=[],
        grace_period_days=1,
        heartbeat_interval_seconds=600,
        now=NOW,
    )
    assert policy.product_id == UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb")
    assert policy.name == "name"
    assert policy.duration_days == 365
    assert policy.max_machines == 1
    assert policy.floating is True
    assert policy.entitlements == []
    assert policy.grace_period_days == 1
    assert policy.heartbeat_interval_seconds == 600
    assert policy.created_at == policy.updated_at == NOW
    assert [type(event) for event in policy.changes] == [PolicyCreated]
    assert policy.committed().version == 1


def test_replaying_the_events_of_a_policy_rebuilds_it() -> None:
    policy = Policy.create(
        product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
        name="name",
        duration_days=365,
        max_machines=1,
        floating=True,
        entitlements=[],
        grace_period_days=1,
        heartbeat_interval_seconds=600,
        now=NOW,
    )
    policy = policy.update(
        name="name",
        duration_days=365,
        max_machines=1,
        floating=True,
        entitlements=[],
        grace_period_days=1,
        heartbeat_interval_seconds=600,
        now=LATER + timedelta(seconds=1),
    )
    assert Policy.from_history(policy.changes) == policy.committed()


def test_create_policy_rejects_name_breaking_not_blank() -> None:
    with pytest.raises(DomainValidationError) as error:
        Policy.create(
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="   ",
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert Violation("name", "Name must not be blank") in error.value.violations


def test_create_policy_rejects_name_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        Policy.create(
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="x" * 201,
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert "name" in {violation.field for violation in error.value.violations}


def test_create_policy_rejects_duration_days_breaking_min() -> None:
    with pytest.raises(DomainValidationError) as error:
        Policy.create(
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="name",
            duration_days=0,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert (
        Violation("durationDays", "Duration days must be at least 1")
        in error.value.violations
    )


def test_create_policy_rejects_duration_days_breaking_max() -> None:
    with pytest.raises(DomainValidationError) as error:
        Policy.create(
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="name",
            duration_days=36501,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert (
        Violation("durationDays", "Duration days must be at most 36500")
        in error.value.violations
    )


def test_create_policy_rejects_max_machines_breaking_min() -> None:
    with pytest.raises(DomainValidationError) as error:
        Policy.create(
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="name",
            duration_days=365,
            max_machines=0,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert (
        Violation("maxMachines", "Max machines must be at least 1")
        in error.value.violations
    )


def test_create_policy_rejects_max_machines_breaking_max() -> None:
    with pytest.raises(DomainValidationError) as error:
        Policy.create(
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="name",
            duration_days=365,
            max_machines=100001,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert (
        Violation("maxMachines", "Max machines must be at most 100000")
        in error.value.violations
    )


def test_create_policy_rejects_grace_period_days_breaking_min() -> None:
    with pytest.raises(DomainValidationError) as error:
        Policy.create(
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="name",
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=-1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert (
        Violation("gracePeriodDays", "Grace period days must be at least 0")
        in error.value.violations
    )


def test_create_policy_rejects_grace_period_days_breaking_max() -> None:
    with pytest.raises(DomainValidationError) as error:
        Policy.create(
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="name",
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=366,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert (
        Violation("gracePeriodDays", "Grace period days must be at most 365")
        in error.value.violations
    )


def test_create_policy_rejects_heartbeat_interval_seconds_breaking_min() -> None:
    with pytest.raises(DomainValidationError) as error:
        Policy.create(
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="name",
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=59,
            now=NOW,
        )
    assert (
        Violation(
            "heartbeatIntervalSeconds", "Heartbeat interval seconds must be at least 60"
        )
        in error.value.violations
    )


def test_create_policy_rejects_heartbeat_interval_seconds_breaking_max() -> None:
    with pytest.raises(DomainValidationError) as error:
        Policy.create(
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="name",
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=31536001,
            now=NOW,
        )
    assert (
        Violation(
            "heartbeatIntervalSeconds",
            "Heartbeat interval seconds must be at most 31536000",
        )
        in error.value.violations
    )


def test_update_policy_rejects_name_breaking_not_blank() -> None:
    original = new_policy()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="   ",
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert Violation("name", "Name must not be blank") in error.value.violations


def test_update_policy_rejects_name_breaking_max_length() -> None:
    original = new_policy()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="x" * 201,
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert "name" in {violation.field for violation in error.value.violations}


def test_update_policy_rejects_duration_days_breaking_min() -> None:
    original = new_policy()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="name",
            duration_days=0,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert (
        Violation("durationDays", "Duration days must be at least 1")
        in error.value.violations
    )


def test_update_policy_rejects_duration_days_breaking_max() -> None:
    original = new_policy()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="name",
            duration_days=36501,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert (
        Violation("durationDays", "Duration days must be at most 36500")
        in error.value.violations
    )


def test_update_policy_rejects_max_machines_breaking_min() -> None:
    original = new_policy()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="name",
            duration_days=365,
            max_machines=0,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert (
        Violation("maxMachines", "Max machines must be at least 1")
        in error.value.violations
    )


def test_update_policy_rejects_max_machines_breaking_max() -> None:
    original = new_policy()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="name",
            duration_days=365,
            max_machines=100001,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert (
        Violation("maxMachines", "Max machines must be at most 100000")
        in error.value.violations
    )


def test_update_policy_rejects_grace_period_days_breaking_min() -> None:
    original = new_policy()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="name",
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=-1,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert (
        Violation("gracePeriodDays", "Grace period days must be at least 0")
        in error.value.violations
    )


def test_update_policy_rejects_grace_period_days_breaking_max() -> None:
    original = new_policy()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="name",
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=366,
            heartbeat_interval_seconds=600,
            now=NOW,
        )
    assert (
        Violation("gracePeriodDays", "Grace period days must be at most 365")
        in error.value.violations
    )


def test_update_policy_rejects_heartbeat_interval_seconds_breaking_min() -> None:
    original = new_policy()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="name",
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=59,
            now=NOW,
        )
    assert (
        Violation(
            "heartbeatIntervalSeconds", "Heartbeat interval seconds must be at least 60"
        )
        in error.value.violations
    )


def test_update_policy_rejects_heartbeat_interval_seconds_breaking_max() -> None:
    original = new_policy()
    with pytest.raises(DomainValidationError) as error:
        original.update(
            name="name",
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=31536001,
            now=NOW,
        )
    assert (
        Violation(
            "heartbeatIntervalSeconds",
            "Heartbeat interval seconds must be at most 31536000",
        )
        in error.value.violations
    )


def test_update_policy_returns_a_changed_copy_with_its_event() -> None:
    original = new_policy()
    changed = original.update(
        name="name",
        duration_days=365,
        max_machines=1,
        floating=True,
        entitlements=[],
        grace_period_days=1,
        heartbeat_interval_seconds=600,
        now=LATER,
    )
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [PolicyUpdated]


def test_remove_policy_returns_a_changed_copy_with_its_event() -> None:
    original = new_policy()
    changed = original.remove(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [PolicyRemoved]
    assert changed.archived


def new_license() -> License:
    return License.create(
        key_="A1B2C3-D4E5F6-A7B8C9-D0E1F2",
        policy_id=UUID("17cfd893-2c87-52ad-a1e6-d3b3b662a35b"),
        product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
        name="name",
        owner="owner",
        expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        duration_days=365,
        max_machines=1,
        metadata={},
        now=NOW,
    ).committed()


def test_create_license_sets_fields_and_records_license_created() -> None:
    license_ = License.create(
        key_="A1B2C3-D4E5F6-A7B8C9-D0E1F2",
        policy_id=UUID("17cfd893-2c87-52ad-a1e6-d3b3b662a35b"),
        product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
        name="name",
        owner="owner",
        expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        duration_days=365,
        max_machines=1,
        metadata={},
        now=NOW,
    )
    assert license_.key_ == "A1B2C3-D4E5F6-A7B8C9-D0E1F2"
    assert license_.policy_id == UUID("17cfd893-2c87-52ad-a1e6-d3b3b662a35b")
    assert license_.product_id == UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb")
    assert license_.name == "name"
    assert license_.owner == "owner"
    assert license_.expires_at == datetime.fromisoformat("2030-01-02T03:04:05Z")
    assert license_.duration_days == 365
    assert license_.max_machines == 1
    assert license_.metadata == {}
    assert license_.created_at == license_.updated_at == NOW
    assert [type(event) for event in license_.changes] == [LicenseCreated]
    assert license_.committed().version == 1


def test_replaying_the_events_of_a_license_rebuilds_it() -> None:
    license_ = License.create(
        key_="A1B2C3-D4E5F6-A7B8C9-D0E1F2",
        policy_id=UUID("17cfd893-2c87-52ad-a1e6-d3b3b662a35b"),
        product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
        name="name",
        owner="owner",
        expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        duration_days=365,
        max_machines=1,
        metadata={},
        now=NOW,
    )
    license_ = license_.update(
        name="name", owner="owner", metadata={}, now=LATER + timedelta(seconds=1)
    )
    license_ = license_.suspend(now=LATER + timedelta(seconds=2))
    license_ = license_.reinstate(now=LATER + timedelta(seconds=3))
    license_ = license_.revoke(now=LATER + timedelta(seconds=4))
    license_ = license_.claim_machine(now=LATER + timedelta(seconds=5))
    license_ = license_.release_machine(now=LATER + timedelta(seconds=6))
    assert License.from_history(license_.changes) == license_.committed()


def test_create_license_rejects_name_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        License.create(
            key_="A1B2C3-D4E5F6-A7B8C9-D0E1F2",
            policy_id=UUID("17cfd893-2c87-52ad-a1e6-d3b3b662a35b"),
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="x" * 201,
            owner="owner",
            expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            duration_days=365,
            max_machines=1,
            metadata={},
            now=NOW,
        )
    assert (
        Violation("name", "Name allows at most 200 characters")
        in error.value.violations
    )


def test_create_license_rejects_owner_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        License.create(
            key_="A1B2C3-D4E5F6-A7B8C9-D0E1F2",
            policy_id=UUID("17cfd893-2c87-52ad-a1e6-d3b3b662a35b"),
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="name",
            owner="x" * 321,
            expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            duration_days=365,
            max_machines=1,
            metadata={},
            now=NOW,
        )
    assert (
        Violation("owner", "Owner allows at most 320 characters")
        in error.value.violations
    )


def test_create_license_rejects_duration_days_breaking_min() -> None:
    with pytest.raises(DomainValidationError) as error:
        License.create(
            key_="A1B2C3-D4E5F6-A7B8C9-D0E1F2",
            policy_id=UUID("17cfd893-2c87-52ad-a1e6-d3b3b662a35b"),
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="name",
            owner="owner",
            expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            duration_days=-1,
            max_machines=1,
            metadata={},
            now=NOW,
        )
    assert (
        Violation("durationDays", "Duration days must be at least 0")
        in error.value.violations
    )


def test_create_license_rejects_duration_days_breaking_max() -> None:
    with pytest.raises(DomainValidationError) as error:
        License.create(
            key_="A1B2C3-D4E5F6-A7B8C9-D0E1F2",
            policy_id=UUID("17cfd893-2c87-52ad-a1e6-d3b3b662a35b"),
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="name",
            owner="owner",
            expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            duration_days=36501,
            max_machines=1,
            metadata={},
            now=NOW,
        )
    assert (
        Violation("durationDays", "Duration days must be at most 36500")
        in error.value.violations
    )


def test_create_license_rejects_max_machines_breaking_min() -> None:
    with pytest.raises(DomainValidationError) as error:
        License.create(
            key_="A1B2C3-D4E5F6-A7B8C9-D0E1F2",
            policy_id=UUID("17cfd893-2c87-52ad-a1e6-d3b3b662a35b"),
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="name",
            owner="owner",
            expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            duration_days=365,
            max_machines=0,
            metadata={},
            now=NOW,
        )
    assert (
        Violation("maxMachines", "Max machines must be at least 1")
        in error.value.violations
    )


def test_create_license_rejects_max_machines_breaking_max() -> None:
    with pytest.raises(DomainValidationError) as error:
        License.create(
            key_="A1B2C3-D4E5F6-A7B8C9-D0E1F2",
            policy_id=UUID("17cfd893-2c87-52ad-a1e6-d3b3b662a35b"),
            product_id=UUID("bc8330a5-58e8-5ff6-b4b1-d562485bb9bb"),
            name="name",
            owner="owner",
            expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
            duration_days=365,
            max_machines=100001,
            metadata={},
            now=NOW,
        )
    assert (
        Violation("maxMachines", "Max machines must be at most 100000")
        in error.value.violations
    )


def test_update_license_rejects_name_breaking_max_length() -> None:
    original = new_license()
    with pytest.raises(DomainValidationError) as error:
        original.update(name="x" * 201, owner="owner", metadata={}, now=NOW)
    assert (
        Violation("name", "Name allows at most 200 characters")
        in error.value.violations
    )


def test_update_license_rejects_owner_breaking_max_length() -> None:
    original = new_license()
    with pytest.raises(DomainValidationError) as error:
        original.update(name="name", owner="x" * 321, metadata={}, now=NOW)
    assert (
        Violation("owner", "Owner allows at most 320 characters")
        in error.value.violations
    )


def test_update_license_returns_a_changed_copy_with_its_event() -> None:
    original = new_license()
    changed = original.update(name="name", owner="owner", metadata={}, now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [LicenseUpdated]


def test_suspend_license_returns_a_changed_copy_with_its_event() -> None:
    original = new_license()
    changed = original.suspend(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [LicenseSuspended]


def test_suspend_license_is_refused_by_its_guard() -> None:
    license_ = new_license()
    license_ = license_.suspend(now=NOW + timedelta(seconds=1)).committed()
    with pytest.raises(LicenseNotActive):
        license_.suspend(now=LATER)


def test_reinstate_license_returns_a_changed_copy_with_its_event() -> None:
    original = new_license()
    original = original.suspend(now=NOW + timedelta(seconds=1)).committed()
    changed = original.reinstate(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [LicenseReinstated]


def test_reinstate_license_is_refused_by_its_guard() -> None:
    license_ = new_license()
    with pytest.raises(LicenseNotSuspended):
        license_.reinstate(now=LATER)


def test_revoke_license_returns_a_changed_copy_with_its_event() -> None:
    original = new_license()
    changed = original.revoke(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [LicenseRevokedEvent]


def test_revoke_license_is_refused_by_its_guard() -> None:
    license_ = new_license()
    license_ = license_.revoke(now=NOW + timedelta(seconds=1)).committed()
    with pytest.raises(LicenseRevoked):
        license_.revoke(now=LATER)


def test_renew_license_returns_a_changed_copy_with_its_event() -> None:
    original = new_license()
    changed = original.renew(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [LicenseRenewed]


def test_renew_license_is_refused_by_its_guard() -> None:
    license_ = new_license()
    license_ = license_.revoke(now=NOW + timedelta(seconds=1)).committed()
    with pytest.raises(NotRenewable):
        license_.renew(now=LATER)


def test_claim_machine_license_returns_a_changed_copy_with_its_event() -> None:
    original = new_license()
    changed = original.claim_machine(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [MachineClaimed]


def test_claim_machine_license_is_refused_by_its_guard() -> None:
    license_ = new_license()
    license_ = license_.claim_machine(now=NOW + timedelta(seconds=1)).committed()
    with pytest.raises(TooManyMachines):
        license_.claim_machine(now=LATER)


def test_release_machine_license_returns_a_changed_copy_with_its_event() -> None:
    original = new_license()
    original = original.claim_machine(now=NOW + timedelta(seconds=1)).committed()
    changed = original.release_machine(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [MachineReleased]


def test_release_machine_license_is_refused_by_its_guard() -> None:
    license_ = new_license()
    with pytest.raises(CommandNotAllowedError):
        license_.release_machine(now=LATER)


def new_machine() -> Machine:
    return Machine.activate(
        license_id=UUID("2b9cdfb2-5eae-598b-a1ac-b8bbcda2622e"),
        fingerprint="4a:9c:07:e1",
        name="name",
        platform="platform",
        now=NOW,
    ).committed()


def test_activate_machine_sets_fields_and_records_machine_activated() -> None:
    machine = Machine.activate(
        license_id=UUID("2b9cdfb2-5eae-598b-a1ac-b8bbcda2622e"),
        fingerprint="4a:9c:07:e1",
        name="name",
        platform="platform",
        now=NOW,
    )
    assert machine.license_id == UUID("2b9cdfb2-5eae-598b-a1ac-b8bbcda2622e")
    assert machine.fingerprint == "4a:9c:07:e1"
    assert machine.name == "name"
    assert machine.platform == "platform"
    assert machine.created_at == machine.updated_at == NOW
    assert [type(event) for event in machine.changes] == [MachineActivated]
    assert machine.committed().version == 1


def test_replaying_the_events_of_a_machine_rebuilds_it() -> None:
    machine = Machine.activate(
        license_id=UUID("2b9cdfb2-5eae-598b-a1ac-b8bbcda2622e"),
        fingerprint="4a:9c:07:e1",
        name="name",
        platform="platform",
        now=NOW,
    )
    machine = machine.heartbeat(now=LATER + timedelta(seconds=1))
    assert Machine.from_history(machine.changes) == machine.committed()


def test_activate_machine_rejects_name_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        Machine.activate(
            license_id=UUID("2b9cdfb2-5eae-598b-a1ac-b8bbcda2622e"),
            fingerprint="4a:9c:07:e1",
            name="x" * 201,
            platform="platform",
            now=NOW,
        )
    assert (
        Violation("name", "Name allows at most 200 characters")
        in error.value.violations
    )


def test_activate_machine_rejects_platform_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        Machine.activate(
            license_id=UUID("2b9cdfb2-5eae-598b-a1ac-b8bbcda2622e"),
            fingerprint="4a:9c:07:e1",
            name="name",
            platform="x" * 101,
            now=NOW,
        )
    assert (
        Violation("platform", "Platform allows at most 100 characters")
        in error.value.violations
    )


def test_heartbeat_machine_returns_a_changed_copy_with_its_event() -> None:
    original = new_machine()
    changed = original.heartbeat(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [MachineHeartbeat]


def test_deactivate_machine_returns_a_changed_copy_with_its_event() -> None:
    original = new_machine()
    changed = original.deactivate(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [MachineDeactivated]
    assert changed.archived
