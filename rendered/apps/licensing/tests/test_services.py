# Generated from spec licensing by `generate`; edits are merged on re-render.

"""Use cases on the in-memory and SQLite event stores: transactions, references, unique
values, idempotency keys, guards and tenant isolation."""

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID, uuid4

import pytest
from eaf.context import SecurityContext, use
from eaf.eventsourcing import (
    DuplicateKeyError,
    EventStore,
    Idempotency,
    PreconditionFailedError,
    close_event_store,
    open_event_store,
)
from eaf.projectors import projection_store

from licensing.application.services import (
    LicenseService,
    MachineService,
    PolicyService,
    ProductService,
)
from licensing.domain.errors import (
    CommandNotAllowedError,
    ConcurrencyError,
    DomainValidationError,
    LicenseNotActive,
    LicenseNotSuspended,
    LicenseRevoked,
    NotFoundError,
    NotRenewable,
    TooManyMachines,
)
from licensing.domain.model import License, Machine, Policy, Product
from licensing.infrastructure.persistence import (
    EventSourcedLicenseRepository,
    EventSourcedMachineRepository,
    EventSourcedPolicyRepository,
    EventSourcedProductRepository,
    transactions,
)
from licensing.infrastructure.projections import (
    ReadModelLicenseListing,
    ReadModelMachineListing,
    ReadModelPolicyListing,
    ReadModelProductListing,
)

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

    product: ProductService
    policy: PolicyService
    license: LicenseService
    machine: MachineService
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
        product=ProductService(
            wired,
            clock,
            ReadModelProductListing(projection_store(store)),
        ),
        policy=PolicyService(
            wired,
            clock,
            ReadModelPolicyListing(projection_store(store)),
        ),
        license=LicenseService(
            wired,
            clock,
            ReadModelLicenseListing(projection_store(store)),
        ),
        machine=MachineService(
            wired,
            clock,
            ReadModelMachineListing(projection_store(store)),
        ),
    )


async def product_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of Product.create (the aggregates they reference made)."""
    return dict(
        code=cases.next_of(
            "Product.code",
            [
                "desktop-app",
                "desktop-ap0",
                "desktop-ap1",
                "desktop-ap2",
                "desktop-ap3",
                "desktop-ap4",
                "desktop-ap5",
                "desktop-ap6",
                "desktop-ap7",
                "desktop-ap8",
                "desktop-ap9",
                "desktop-apa",
            ],
        ),
        name="name",
        url="url",
        metadata={},
    )


async def new_product(cases: Cases, **overrides: Any) -> Product:
    """A new product from the examples."""
    arguments = {**await product_arguments(cases), **overrides}
    return await cases.product.create(**arguments)


async def test_product_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_product(cases)
        assert await cases.product.get(created.id) == created
        assert await cases.product.get("no-such-id") is None


async def test_product_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_product(cases)
    with use(TENANT_B):
        assert await cases.product.get(created.id) is None


async def test_code_of_a_product_is_unique_in_the_tenant(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_product(cases)
        with pytest.raises(DuplicateKeyError):
            await new_product(cases, code=first.code)
        assert await cases.product.get_by_code(first.code) == first
    with use(TENANT_B):
        await new_product(cases, code=first.code)


async def test_an_idempotency_key_makes_one_product(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await product_arguments(cases)
        create = cases.product.create
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_update_of_a_missing_product_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.product.update(
            "no-such-id",
            name="name",
            url="url",
            metadata={},
        )


async def test_update_of_a_product_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        product = await new_product(cases)
        changed = await cases.product.update(
            product.id,
            name="name",
            url="url",
            metadata={},
        )
        assert changed.version == product.version + 1
        assert await cases.product.get(product.id) == changed
        stream = await store.read_stream("Product", product.id)
    assert stream[-1].event_type == "ProductUpdated"


async def test_update_of_a_product_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        product = await new_product(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.product.update(
                product.id,
                name="name",
                url="url",
                metadata={},
                expected_version=product.version + 1,
            )


async def test_remove_of_a_missing_product_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.product.remove(
            "no-such-id",
        )


async def test_remove_of_a_product_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        product = await new_product(cases)
        changed = await cases.product.remove(
            product.id,
        )
        assert changed.version == product.version + 1
        assert await cases.product.get(product.id) is None
        stream = await store.read_stream("Product", product.id)
    assert stream[-1].event_type == "ProductRemoved"


async def test_remove_of_a_product_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        product = await new_product(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.product.remove(product.id, expected_version=product.version + 1)


async def test_a_stale_product_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedProductRepository(store)
    with use(TENANT_A):
        created = await new_product(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(
            created.update(name="name", url="url", metadata={}, now=now)
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.update(name="name", url="url", metadata={}, now=now)
            )


async def policy_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of Policy.create (the aggregates they reference made)."""
    return dict(
        product_id=UUID((await new_product(cases)).id),
        name="name",
        duration_days=365,
        max_machines=1,
        floating=True,
        entitlements=[],
        grace_period_days=1,
        heartbeat_interval_seconds=600,
    )


async def new_policy(cases: Cases, **overrides: Any) -> Policy:
    """A new policy from the examples."""
    arguments = {**await policy_arguments(cases), **overrides}
    return await cases.policy.create(**arguments)


async def test_policy_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_policy(cases)
        assert await cases.policy.get(created.id) == created
        assert await cases.policy.get("no-such-id") is None


async def test_policy_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_policy(cases)
    with use(TENANT_B):
        assert await cases.policy.get(created.id) is None


async def test_create_policy_needs_an_existing_product(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(DomainValidationError) as error:
        await new_policy(cases, product_id=UUID(str(uuid4())))
    assert "productId" in {violation.field for violation in error.value.violations}


async def test_an_idempotency_key_makes_one_policy(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await policy_arguments(cases)
        create = cases.policy.create
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_update_of_a_missing_policy_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.policy.update(
            "no-such-id",
            name="name",
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
        )


async def test_update_of_a_policy_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        policy = await new_policy(cases)
        changed = await cases.policy.update(
            policy.id,
            name="name",
            duration_days=365,
            max_machines=1,
            floating=True,
            entitlements=[],
            grace_period_days=1,
            heartbeat_interval_seconds=600,
        )
        assert changed.version == policy.version + 1
        assert await cases.policy.get(policy.id) == changed
        stream = await store.read_stream("Policy", policy.id)
    assert stream[-1].event_type == "PolicyUpdated"


async def test_update_of_a_policy_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        policy = await new_policy(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.policy.update(
                policy.id,
                name="name",
                duration_days=365,
                max_machines=1,
                floating=True,
                entitlements=[],
                grace_period_days=1,
                heartbeat_interval_seconds=600,
                expected_version=policy.version + 1,
            )


async def test_remove_of_a_missing_policy_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.policy.remove(
            "no-such-id",
        )


async def test_remove_of_a_policy_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        policy = await new_policy(cases)
        changed = await cases.policy.remove(
            policy.id,
        )
        assert changed.version == policy.version + 1
        assert await cases.policy.get(policy.id) is None
        stream = await store.read_stream("Policy", policy.id)
    assert stream[-1].event_type == "PolicyRemoved"


async def test_remove_of_a_policy_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        policy = await new_policy(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.policy.remove(policy.id, expected_version=policy.version + 1)


async def test_a_stale_policy_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedPolicyRepository(store)
    with use(TENANT_A):
        created = await new_policy(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(
            created.update(
                name="name",
                duration_days=365,
                max_machines=1,
                floating=True,
                entitlements=[],
                grace_period_days=1,
                heartbeat_interval_seconds=600,
                now=now,
            )
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.update(
                    name="name",
                    duration_days=365,
                    max_machines=1,
                    floating=True,
                    entitlements=[],
                    grace_period_days=1,
                    heartbeat_interval_seconds=600,
                    now=now,
                )
            )


async def license_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of License.create (the aggregates they reference made)."""
    return dict(
        key_=cases.next_of(
            "License.key",
            [
                "A1B2C3-D4E5F6-A7B8C9-D0E1F2",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F0",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F1",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F3",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F4",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F5",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F6",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F7",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F8",
                "A1B2C3-D4E5F6-A7B8C9-D0E1F9",
                "A1B2C3-D4E5F6-A7B8C9-D0E1FA",
                "A1B2C3-D4E5F6-A7B8C9-D0E1FB",
            ],
        ),
        policy_id=UUID((await new_policy(cases)).id),
        product_id=UUID((await new_product(cases)).id),
        name="name",
        owner="owner",
        expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        duration_days=365,
        max_machines=1,
        metadata={},
    )


async def new_license(cases: Cases, **overrides: Any) -> License:
    """A new license from the examples."""
    arguments = {**await license_arguments(cases), **overrides}
    return await cases.license.create(**arguments)


async def test_license_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_license(cases)
        assert await cases.license.get(created.id) == created
        assert await cases.license.get("no-such-id") is None


async def test_license_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_license(cases)
    with use(TENANT_B):
        assert await cases.license.get(created.id) is None


async def test_create_license_needs_an_existing_policy(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(DomainValidationError) as error:
        await new_license(cases, policy_id=UUID(str(uuid4())))
    assert "policyId" in {violation.field for violation in error.value.violations}


async def test_create_license_needs_an_existing_product(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(DomainValidationError) as error:
        await new_license(cases, product_id=UUID(str(uuid4())))
    assert "productId" in {violation.field for violation in error.value.violations}


async def test_key__of_a_license_is_unique_in_the_tenant(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_license(cases)
        with pytest.raises(DuplicateKeyError):
            await new_license(cases, key_=first.key_)
        assert await cases.license.get_by_key(first.key_) == first
    with use(TENANT_B):
        await new_license(cases, key_=first.key_)


async def test_an_idempotency_key_makes_one_license(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await license_arguments(cases)
        create = cases.license.create
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_update_of_a_missing_license_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.license.update(
            "no-such-id",
            name="name",
            owner="owner",
            metadata={},
        )


async def test_update_of_a_license_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        changed = await cases.license.update(
            license_.id,
            name="name",
            owner="owner",
            metadata={},
        )
        assert changed.version == license_.version + 1
        assert await cases.license.get(license_.id) == changed
        stream = await store.read_stream("License", license_.id)
    assert stream[-1].event_type == "LicenseUpdated"


async def test_update_of_a_license_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.license.update(
                license_.id,
                name="name",
                owner="owner",
                metadata={},
                expected_version=license_.version + 1,
            )


async def test_suspend_of_a_missing_license_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.license.suspend(
            "no-such-id",
        )


async def test_suspend_of_a_license_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        changed = await cases.license.suspend(
            license_.id,
        )
        assert changed.version == license_.version + 1
        assert await cases.license.get(license_.id) == changed
        stream = await store.read_stream("License", license_.id)
    assert stream[-1].event_type == "LicenseSuspended"


async def test_suspend_of_a_license_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.license.suspend(
                license_.id, expected_version=license_.version + 1
            )


async def test_suspend_of_a_license_is_refused_by_its_guard(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        license_ = await cases.license.suspend(
            license_.id,
        )
        with pytest.raises(LicenseNotActive):
            await cases.license.suspend(
                license_.id,
            )


async def test_reinstate_of_a_missing_license_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.license.reinstate(
            "no-such-id",
        )


async def test_reinstate_of_a_license_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        license_ = await cases.license.suspend(
            license_.id,
        )
        changed = await cases.license.reinstate(
            license_.id,
        )
        assert changed.version == license_.version + 1
        assert await cases.license.get(license_.id) == changed
        stream = await store.read_stream("License", license_.id)
    assert stream[-1].event_type == "LicenseReinstated"


async def test_reinstate_of_a_license_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        license_ = await cases.license.suspend(
            license_.id,
        )
        with pytest.raises(PreconditionFailedError):
            await cases.license.reinstate(
                license_.id, expected_version=license_.version + 1
            )


async def test_reinstate_of_a_license_is_refused_by_its_guard(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        with pytest.raises(LicenseNotSuspended):
            await cases.license.reinstate(
                license_.id,
            )


async def test_revoke_of_a_missing_license_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.license.revoke(
            "no-such-id",
        )


async def test_revoke_of_a_license_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        changed = await cases.license.revoke(
            license_.id,
        )
        assert changed.version == license_.version + 1
        assert await cases.license.get(license_.id) == changed
        stream = await store.read_stream("License", license_.id)
    assert stream[-1].event_type == "LicenseRevokedEvent"


async def test_revoke_of_a_license_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.license.revoke(
                license_.id, expected_version=license_.version + 1
            )


async def test_revoke_of_a_license_is_refused_by_its_guard(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        license_ = await cases.license.revoke(
            license_.id,
        )
        with pytest.raises(LicenseRevoked):
            await cases.license.revoke(
                license_.id,
            )


async def test_renew_of_a_missing_license_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.license.renew(
            "no-such-id",
        )


async def test_renew_of_a_license_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        changed = await cases.license.renew(
            license_.id,
        )
        assert changed.version == license_.version + 1
        assert await cases.license.get(license_.id) == changed
        stream = await store.read_stream("License", license_.id)
    assert stream[-1].event_type == "LicenseRenewed"


async def test_renew_of_a_license_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.license.renew(
                license_.id, expected_version=license_.version + 1
            )


async def test_renew_of_a_license_is_refused_by_its_guard(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        license_ = await cases.license.revoke(
            license_.id,
        )
        with pytest.raises(NotRenewable):
            await cases.license.renew(
                license_.id,
            )


async def test_claim_machine_of_a_missing_license_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.license.claim_machine(
            "no-such-id",
        )


async def test_claim_machine_of_a_license_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        changed = await cases.license.claim_machine(
            license_.id,
        )
        assert changed.version == license_.version + 1
        assert await cases.license.get(license_.id) == changed
        stream = await store.read_stream("License", license_.id)
    assert stream[-1].event_type == "MachineClaimed"


async def test_claim_machine_of_a_license_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.license.claim_machine(
                license_.id, expected_version=license_.version + 1
            )


async def test_claim_machine_of_a_license_is_refused_by_its_guard(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        license_ = await cases.license.claim_machine(
            license_.id,
        )
        with pytest.raises(TooManyMachines):
            await cases.license.claim_machine(
                license_.id,
            )


async def test_release_machine_of_a_missing_license_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.license.release_machine(
            "no-such-id",
        )


async def test_release_machine_of_a_license_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        license_ = await cases.license.claim_machine(
            license_.id,
        )
        changed = await cases.license.release_machine(
            license_.id,
        )
        assert changed.version == license_.version + 1
        assert await cases.license.get(license_.id) == changed
        stream = await store.read_stream("License", license_.id)
    assert stream[-1].event_type == "MachineReleased"


async def test_release_machine_of_a_license_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        license_ = await cases.license.claim_machine(
            license_.id,
        )
        with pytest.raises(PreconditionFailedError):
            await cases.license.release_machine(
                license_.id, expected_version=license_.version + 1
            )


async def test_release_machine_of_a_license_is_refused_by_its_guard(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        license_ = await new_license(cases)
        with pytest.raises(CommandNotAllowedError):
            await cases.license.release_machine(
                license_.id,
            )


async def test_a_stale_license_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedLicenseRepository(store)
    with use(TENANT_A):
        created = await new_license(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(
            created.update(name="name", owner="owner", metadata={}, now=now)
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.update(name="name", owner="owner", metadata={}, now=now)
            )


async def machine_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of Machine.activate (the aggregates they reference made)."""
    return dict(
        license_id=UUID((await new_license(cases)).id),
        fingerprint=cases.next_of(
            "Machine.fingerprint",
            [
                "4a:9c:07:e1",
                "4a:9c:07:e0",
                "4a:9c:07:e2",
                "4a:9c:07:e3",
                "4a:9c:07:e4",
                "4a:9c:07:e5",
                "4a:9c:07:e6",
                "4a:9c:07:e7",
                "4a:9c:07:e8",
                "4a:9c:07:e9",
                "4a:9c:07:ea",
                "4a:9c:07:eb",
            ],
        ),
        name="name",
        platform="platform",
    )


async def new_machine(cases: Cases, **overrides: Any) -> Machine:
    """A new machine from the examples."""
    arguments = {**await machine_arguments(cases), **overrides}
    return await cases.machine.activate(**arguments)


async def test_machine_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_machine(cases)
        assert await cases.machine.get(created.id) == created
        assert await cases.machine.get("no-such-id") is None


async def test_machine_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_machine(cases)
    with use(TENANT_B):
        assert await cases.machine.get(created.id) is None


async def test_activate_machine_needs_an_existing_license(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(DomainValidationError) as error:
        await new_machine(cases, license_id=UUID(str(uuid4())))
    assert "licenseId" in {violation.field for violation in error.value.violations}


async def test_fingerprint_of_a_machine_is_unique_in_the_tenant(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_machine(cases)
        with pytest.raises(DuplicateKeyError):
            await new_machine(cases, fingerprint=first.fingerprint)
        assert await cases.machine.get_by_fingerprint(first.fingerprint) == first
    with use(TENANT_B):
        await new_machine(cases, fingerprint=first.fingerprint)


async def test_an_idempotency_key_makes_one_machine(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await machine_arguments(cases)
        create = cases.machine.activate
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_heartbeat_of_a_missing_machine_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.machine.heartbeat(
            "no-such-id",
        )


async def test_heartbeat_of_a_machine_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        machine = await new_machine(cases)
        changed = await cases.machine.heartbeat(
            machine.id,
        )
        assert changed.version == machine.version + 1
        assert await cases.machine.get(machine.id) == changed
        stream = await store.read_stream("Machine", machine.id)
    assert stream[-1].event_type == "MachineHeartbeat"


async def test_heartbeat_of_a_machine_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        machine = await new_machine(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.machine.heartbeat(
                machine.id, expected_version=machine.version + 1
            )


async def test_deactivate_of_a_missing_machine_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.machine.deactivate(
            "no-such-id",
        )


async def test_deactivate_of_a_machine_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        machine = await new_machine(cases)
        changed = await cases.machine.deactivate(
            machine.id,
        )
        assert changed.version == machine.version + 1
        assert await cases.machine.get(machine.id) is None
        stream = await store.read_stream("Machine", machine.id)
    assert stream[-1].event_type == "MachineDeactivated"


async def test_deactivate_of_a_machine_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        machine = await new_machine(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.machine.deactivate(
                machine.id, expected_version=machine.version + 1
            )


async def test_a_stale_machine_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedMachineRepository(store)
    with use(TENANT_A):
        created = await new_machine(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(created.heartbeat(now=now))
        with pytest.raises(ConcurrencyError):
            await repository.save(created.heartbeat(now=now))
