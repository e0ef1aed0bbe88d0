# Generated from spec iam by `generate`; edits are merged on re-render.

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
    DuplicateKeyError,
    EventStore,
    Idempotency,
    PreconditionFailedError,
    close_event_store,
    open_event_store,
)
from eaf.projectors import projection_store

from iam.application.services import (
    PolicyService,
    RegisteredClientService,
    RoleService,
    ServiceAccountService,
    TenantService,
    UserService,
)
from iam.domain.errors import (
    ConcurrencyError,
    DomainValidationError,
    NotFoundError,
    ServiceAccountDisabled,
)
from iam.domain.model import (
    Policy,
    RegisteredClient,
    Role,
    ServiceAccount,
    Tenant,
    User,
)
from iam.domain.types import (
    ClientType,
    ConditionOperator,
    GrantType,
    PolicyCondition,
    PolicyEffect,
    TenantStatus,
)
from iam.infrastructure.persistence import (
    EventSourcedPolicyRepository,
    EventSourcedRegisteredClientRepository,
    EventSourcedRoleRepository,
    EventSourcedServiceAccountRepository,
    EventSourcedTenantRepository,
    EventSourcedUserRepository,
    transactions,
)
from iam.infrastructure.projections import (
    ReadModelPolicyListing,
    ReadModelRegisteredClientListing,
    ReadModelRoleListing,
    ReadModelServiceAccountListing,
    ReadModelUserListing,
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

    tenant: TenantService
    user: UserService
    role: RoleService
    policy: PolicyService
    service_account: ServiceAccountService
    registered_client: RegisteredClientService
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
        tenant=TenantService(
            wired,
            clock,
            records=EventSourcedTenantRepository(store),
        ),
        user=UserService(
            wired,
            clock,
            ReadModelUserListing(projection_store(store)),
        ),
        role=RoleService(
            wired,
            clock,
            ReadModelRoleListing(projection_store(store)),
        ),
        policy=PolicyService(
            wired,
            clock,
            ReadModelPolicyListing(projection_store(store)),
        ),
        service_account=ServiceAccountService(
            wired,
            clock,
            ReadModelServiceAccountListing(projection_store(store)),
        ),
        registered_client=RegisteredClientService(
            wired,
            clock,
            ReadModelRegisteredClientListing(projection_store(store)),
        ),
    )


async def tenant_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of Tenant.create (the aggregates they reference made)."""
    return dict(
        name="name",
        admin_user_id="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
    )


async def new_tenant(cases: Cases, **overrides: Any) -> Tenant:
    """A new tenant from the examples."""
    arguments = {**await tenant_arguments(cases), **overrides}
    return await cases.tenant.create(**arguments)


async def test_tenant_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_tenant(cases)
        assert await cases.tenant.get(created.id) == created
        assert await cases.tenant.get("no-such-id") is None


async def test_tenant_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_tenant(cases)
    with use(TENANT_B):
        assert await cases.tenant.get(created.id) is None


async def test_an_idempotency_key_makes_one_tenant(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await tenant_arguments(cases)
        create = cases.tenant.create
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_change_status_of_a_missing_tenant_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.tenant.change_status(
            "no-such-id",
            status=TenantStatus.ACTIVE,
        )


async def test_change_status_of_a_tenant_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        tenant_ = await new_tenant(cases)
        changed = await cases.tenant.change_status(
            tenant_.id,
            status=TenantStatus.ACTIVE,
        )
        assert changed.version == tenant_.version + 1
        assert await cases.tenant.get(tenant_.id) == changed
        stream = await store.read_stream("Tenant", tenant_.id)
    assert stream[-1].event_type == "TenantStatusChanged"


async def test_change_status_of_a_tenant_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        tenant_ = await new_tenant(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.tenant.change_status(
                tenant_.id,
                status=TenantStatus.ACTIVE,
                expected_version=tenant_.version + 1,
            )


async def test_a_stale_tenant_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedTenantRepository(store)
    with use(TENANT_A):
        created = await new_tenant(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(
            created.change_status(status=TenantStatus.ACTIVE, now=now)
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.change_status(status=TenantStatus.ACTIVE, now=now)
            )


async def user_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of User.create (the aggregates they reference made)."""
    return dict(
        username=cases.next_of(
            "User.username",
            [
                "alice",
                "alic0",
                "alic1",
                "alic2",
                "alic3",
                "alic4",
                "alic5",
                "alic6",
                "alic7",
                "alic8",
                "alic9",
                "alica",
            ],
        ),
        email="email@x",
        password="correct-horse-1",
        roles=[(await new_role(cases)).name],
        attributes={"department": "sales"},
    )


async def new_user(cases: Cases, **overrides: Any) -> User:
    """A new user from the examples."""
    arguments = {**await user_arguments(cases), **overrides}
    return await cases.user.create(**arguments)


async def test_user_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_user(cases)
        assert await cases.user.get(created.id) == created
        assert await cases.user.get("no-such-id") is None


async def test_user_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_user(cases)
    with use(TENANT_B):
        assert await cases.user.get(created.id) is None


async def test_create_user_checks_the_plain_password_breaking_min_length(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(DomainValidationError) as error:
        await new_user(cases, password="correct")
    assert ("password", "Password is at least 8 characters") in {
        (v.field, v.message) for v in error.value.violations
    }


async def test_the_key_of_a_user_makes_its_id_once_in_the_tenant(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_user(cases)
        with pytest.raises(DuplicateKeyError):
            await new_user(cases, username=first.username)
        assert await cases.user.get(first.id) == first
    with use(TENANT_B):
        elsewhere = await new_user(cases, username=first.username)
    assert elsewhere.id != first.id


async def test_an_idempotency_key_makes_one_user(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await user_arguments(cases)
        create = cases.user.create
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_change_status_of_a_missing_user_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.user.change_status(
            "no-such-id",
            status="ACTIVE",
        )


async def test_change_status_of_a_user_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        changed = await cases.user.change_status(
            user.id,
            status="ACTIVE",
        )
        assert changed.version == user.version + 1
        assert await cases.user.get(user.id) == changed
        stream = await store.read_stream("User", user.id)
    assert stream[-1].event_type == "UserStatusChanged"


async def test_change_status_of_a_user_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.user.change_status(
                user.id, status="ACTIVE", expected_version=user.version + 1
            )


async def test_change_roles_of_a_missing_user_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.user.change_roles(
            "no-such-id",
            roles=[(await new_role(cases)).name],
        )


async def test_change_roles_of_a_user_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        changed = await cases.user.change_roles(
            user.id,
            roles=[(await new_role(cases)).name],
        )
        assert changed.version == user.version + 1
        assert await cases.user.get(user.id) == changed
        stream = await store.read_stream("User", user.id)
    assert stream[-1].event_type == "UserRolesChanged"


async def test_change_roles_of_a_user_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.user.change_roles(
                user.id,
                roles=[(await new_role(cases)).name],
                expected_version=user.version + 1,
            )


async def test_change_attributes_of_a_missing_user_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.user.change_attributes(
            "no-such-id",
            attributes={"department": "sales"},
        )


async def test_change_attributes_of_a_user_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        changed = await cases.user.change_attributes(
            user.id,
            attributes={"department": "sales"},
        )
        assert changed.version == user.version + 1
        assert await cases.user.get(user.id) == changed
        stream = await store.read_stream("User", user.id)
    assert stream[-1].event_type == "UserAttributesChanged"


async def test_change_attributes_of_a_user_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.user.change_attributes(
                user.id,
                attributes={"department": "sales"},
                expected_version=user.version + 1,
            )


async def test_change_password_of_a_missing_user_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.user.change_password(
            "no-such-id",
            password="correct-horse-1",
        )


async def test_change_password_of_a_user_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        changed = await cases.user.change_password(
            user.id,
            password="correct-horse-1",
        )
        assert changed.version == user.version + 1
        assert await cases.user.get(user.id) == changed
        stream = await store.read_stream("User", user.id)
    assert stream[-1].event_type == "UserPasswordChanged"


async def test_change_password_of_a_user_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.user.change_password(
                user.id, password="correct-horse-1", expected_version=user.version + 1
            )


async def test_change_of_a_missing_user_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.user.change(
            "no-such-id",
            status="ACTIVE",
            roles=[(await new_role(cases)).name],
            attributes={"department": "sales"},
            password="correct-horse-1",
        )


async def test_change_of_a_user_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        changed = await cases.user.change(
            user.id,
            status="ACTIVE",
            roles=[(await new_role(cases)).name],
            attributes={"department": "sales"},
            password="correct-horse-1",
        )
        assert changed.version == user.version + 1
        assert await cases.user.get(user.id) == changed
        stream = await store.read_stream("User", user.id)
    assert stream[-1].event_type == "UserChanged"


async def test_change_of_a_user_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.user.change(
                user.id,
                status="ACTIVE",
                roles=[(await new_role(cases)).name],
                attributes={"department": "sales"},
                password="correct-horse-1",
                expected_version=user.version + 1,
            )


async def test_remove_of_a_missing_user_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.user.remove(
            "no-such-id",
        )


async def test_remove_of_a_user_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        changed = await cases.user.remove(
            user.id,
        )
        assert changed.version == user.version + 1
        assert await cases.user.get(user.id) is None
        stream = await store.read_stream("User", user.id)
    assert stream[-1].event_type == "UserStatusChanged"


async def test_remove_of_a_user_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.user.remove(user.id, expected_version=user.version + 1)


async def test_a_stale_user_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedUserRepository(store)
    with use(TENANT_A):
        created = await new_user(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(created.change_status(status="ACTIVE", now=now))
        with pytest.raises(ConcurrencyError):
            await repository.save(created.change_status(status="ACTIVE", now=now))


async def role_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of Role.create (the aggregates they reference made)."""
    return dict(
        name=cases.next_of(
            "Role.name",
            [
                "editor",
                "edito0",
                "edito1",
                "edito2",
                "edito3",
                "edito4",
                "edito5",
                "edito6",
                "edito7",
                "edito8",
                "edito9",
                "editoa",
            ],
        ),
        permissions=["user-profile:read"],
        description="description",
    )


async def new_role(cases: Cases, **overrides: Any) -> Role:
    """A new role from the examples."""
    arguments = {**await role_arguments(cases), **overrides}
    return await cases.role.create(**arguments)


async def test_role_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_role(cases)
        assert await cases.role.get(created.id) == created
        assert await cases.role.get("no-such-id") is None


async def test_role_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_role(cases)
    with use(TENANT_B):
        assert await cases.role.get(created.id) is None


async def test_the_key_of_a_role_makes_its_id_once_in_the_tenant(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_role(cases)
        with pytest.raises(DuplicateKeyError):
            await new_role(cases, name=first.name)
        assert await cases.role.get(first.id) == first
    with use(TENANT_B):
        elsewhere = await new_role(cases, name=first.name)
    assert elsewhere.id != first.id


async def test_an_idempotency_key_makes_one_role(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await role_arguments(cases)
        create = cases.role.create
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_change_of_a_missing_role_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.role.change(
            "no-such-id",
            permissions=["user-profile:read"],
            description="description",
        )


async def test_change_of_a_role_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        role = await new_role(cases)
        changed = await cases.role.change(
            role.id,
            permissions=["user-profile:read"],
            description="description",
        )
        assert changed.version == role.version + 1
        assert await cases.role.get(role.id) == changed
        stream = await store.read_stream("Role", role.id)
    assert stream[-1].event_type == "RoleChanged"


async def test_change_of_a_role_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        role = await new_role(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.role.change(
                role.id,
                permissions=["user-profile:read"],
                description="description",
                expected_version=role.version + 1,
            )


async def test_change_permissions_of_a_missing_role_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.role.change_permissions(
            "no-such-id",
            permissions=["user-profile:read"],
        )


async def test_change_permissions_of_a_role_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        role = await new_role(cases)
        changed = await cases.role.change_permissions(
            role.id,
            permissions=["user-profile:read"],
        )
        assert changed.version == role.version + 1
        assert await cases.role.get(role.id) == changed
        stream = await store.read_stream("Role", role.id)
    assert stream[-1].event_type == "RolePermissionsChanged"


async def test_change_permissions_of_a_role_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        role = await new_role(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.role.change_permissions(
                role.id,
                permissions=["user-profile:read"],
                expected_version=role.version + 1,
            )


async def test_describe_of_a_missing_role_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.role.describe(
            "no-such-id",
            description="description",
        )


async def test_describe_of_a_role_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        role = await new_role(cases)
        changed = await cases.role.describe(
            role.id,
            description="description",
        )
        assert changed.version == role.version + 1
        assert await cases.role.get(role.id) == changed
        stream = await store.read_stream("Role", role.id)
    assert stream[-1].event_type == "RoleDescribed"


async def test_describe_of_a_role_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        role = await new_role(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.role.describe(
                role.id, description="description", expected_version=role.version + 1
            )


async def test_a_stale_role_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedRoleRepository(store)
    with use(TENANT_A):
        created = await new_role(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(
            created.change(
                permissions=["user-profile:read"], description="description", now=now
            )
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.change(
                    permissions=["user-profile:read"],
                    description="description",
                    now=now,
                )
            )


async def policy_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of Policy.create (the aggregates they reference made)."""
    return dict(
        name=cases.next_of(
            "Policy.name",
            [
                "sales-only",
                "sales-onl0",
                "sales-onl1",
                "sales-onl2",
                "sales-onl3",
                "sales-onl4",
                "sales-onl5",
                "sales-onl6",
                "sales-onl7",
                "sales-onl8",
                "sales-onl9",
                "sales-onla",
            ],
        ),
        effect=PolicyEffect.DENY,
        permissions=["license:*"],
        conditions=[
            PolicyCondition(
                attribute="user.department", op=ConditionOperator.NE, value_="sales"
            )
        ],
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


async def test_the_key_of_a_policy_makes_its_id_once_in_the_tenant(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_policy(cases)
        with pytest.raises(DuplicateKeyError):
            await new_policy(cases, name=first.name)
        assert await cases.policy.get(first.id) == first
    with use(TENANT_B):
        elsewhere = await new_policy(cases, name=first.name)
    assert elsewhere.id != first.id


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


async def test_change_of_a_missing_policy_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.policy.change(
            "no-such-id",
            effect=PolicyEffect.DENY,
            permissions=["license:*"],
            conditions=[
                PolicyCondition(
                    attribute="user.department", op=ConditionOperator.NE, value_="sales"
                )
            ],
        )


async def test_change_of_a_policy_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        policy = await new_policy(cases)
        changed = await cases.policy.change(
            policy.id,
            effect=PolicyEffect.DENY,
            permissions=["license:*"],
            conditions=[
                PolicyCondition(
                    attribute="user.department", op=ConditionOperator.NE, value_="sales"
                )
            ],
        )
        assert changed.version == policy.version + 1
        assert await cases.policy.get(policy.id) == changed
        stream = await store.read_stream("Policy", policy.id)
    assert stream[-1].event_type == "PolicyChanged"


async def test_change_of_a_policy_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        policy = await new_policy(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.policy.change(
                policy.id,
                effect=PolicyEffect.DENY,
                permissions=["license:*"],
                conditions=[
                    PolicyCondition(
                        attribute="user.department",
                        op=ConditionOperator.NE,
                        value_="sales",
                    )
                ],
                expected_version=policy.version + 1,
            )


async def test_disable_of_a_missing_policy_is_not_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.policy.disable(
            "no-such-id",
        )


async def test_disable_of_a_policy_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        policy = await new_policy(cases)
        changed = await cases.policy.disable(
            policy.id,
        )
        assert changed.version == policy.version + 1
        assert await cases.policy.get(policy.id) == changed
        stream = await store.read_stream("Policy", policy.id)
    assert stream[-1].event_type == "PolicyStatusChanged"


async def test_disable_of_a_policy_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        policy = await new_policy(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.policy.disable(policy.id, expected_version=policy.version + 1)


async def test_a_stale_policy_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedPolicyRepository(store)
    with use(TENANT_A):
        created = await new_policy(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(
            created.change(
                effect=PolicyEffect.DENY,
                permissions=["license:*"],
                conditions=[
                    PolicyCondition(
                        attribute="user.department",
                        op=ConditionOperator.NE,
                        value_="sales",
                    )
                ],
                now=now,
            )
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.change(
                    effect=PolicyEffect.DENY,
                    permissions=["license:*"],
                    conditions=[
                        PolicyCondition(
                            attribute="user.department",
                            op=ConditionOperator.NE,
                            value_="sales",
                        )
                    ],
                    now=now,
                )
            )


async def service_account_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of ServiceAccount.create (the aggregates they reference made)."""
    return dict(
        client_id=cases.next_of(
            "ServiceAccount.clientId",
            [
                "billing-worker",
                "billing-worke0",
                "billing-worke1",
                "billing-worke2",
                "billing-worke3",
                "billing-worke4",
                "billing-worke5",
                "billing-worke6",
                "billing-worke7",
                "billing-worke8",
                "billing-worke9",
                "billing-workea",
            ],
        ),
        client_secret="clientSecret",
        roles=[(await new_role(cases)).name],
    )


async def new_service_account(cases: Cases, **overrides: Any) -> ServiceAccount:
    """A new service account from the examples."""
    arguments = {**await service_account_arguments(cases), **overrides}
    return await cases.service_account.create(**arguments)


async def test_service_account_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_service_account(cases)
        assert await cases.service_account.get(created.id) == created
        assert await cases.service_account.get("no-such-id") is None


async def test_service_account_of_one_tenant_is_invisible_to_another(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_service_account(cases)
    with use(TENANT_B):
        assert await cases.service_account.get(created.id) is None


async def test_the_key_of_a_service_account_makes_its_id_once_in_the_tenant(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_service_account(cases)
        with pytest.raises(DuplicateKeyError):
            await new_service_account(cases, client_id=first.client_id)
        assert await cases.service_account.get(first.id) == first
    with use(TENANT_B):
        elsewhere = await new_service_account(cases, client_id=first.client_id)
    assert elsewhere.id != first.id


async def test_the_key_of_a_service_account_is_free_only_if_no_registered_client_has_it(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_registered_client(cases)
        with pytest.raises(DuplicateKeyError):
            await new_service_account(cases, client_id=first.client_id)
    with use(TENANT_B):
        await new_service_account(cases, client_id=first.client_id)


async def test_an_idempotency_key_makes_one_service_account(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await service_account_arguments(cases)
        create = cases.service_account.create
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_change_status_of_a_missing_service_account_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.service_account.change_status(
            "no-such-id",
            status="ACTIVE",
        )


async def test_change_status_of_a_service_account_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        account = await new_service_account(cases)
        changed = await cases.service_account.change_status(
            account.id,
            status="ACTIVE",
        )
        assert changed.version == account.version + 1
        assert await cases.service_account.get(account.id) == changed
        stream = await store.read_stream("ServiceAccount", account.id)
    assert stream[-1].event_type == "ServiceAccountStatusChanged"


async def test_change_status_of_a_service_account_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        account = await new_service_account(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.service_account.change_status(
                account.id, status="ACTIVE", expected_version=account.version + 1
            )


async def test_change_secret_of_a_missing_service_account_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.service_account.change_secret(
            "no-such-id",
            client_secret="clientSecret",
        )


async def test_change_secret_of_a_service_account_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        account = await new_service_account(cases)
        changed = await cases.service_account.change_secret(
            account.id,
            client_secret="clientSecret",
        )
        assert changed.version == account.version + 1
        assert await cases.service_account.get(account.id) == changed
        stream = await store.read_stream("ServiceAccount", account.id)
    assert stream[-1].event_type == "ServiceAccountSecretChanged"


async def test_change_secret_of_a_service_account_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        account = await new_service_account(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.service_account.change_secret(
                account.id,
                client_secret="clientSecret",
                expected_version=account.version + 1,
            )


async def test_change_secret_of_a_service_account_is_refused_by_its_guard(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        account = await new_service_account(cases)
        account = await cases.service_account.disable(
            account.id,
        )
        with pytest.raises(ServiceAccountDisabled):
            await cases.service_account.change_secret(
                account.id,
                client_secret="clientSecret",
            )


async def test_disable_of_a_missing_service_account_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.service_account.disable(
            "no-such-id",
        )


async def test_disable_of_a_service_account_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        account = await new_service_account(cases)
        changed = await cases.service_account.disable(
            account.id,
        )
        assert changed.version == account.version + 1
        assert await cases.service_account.get(account.id) == changed
        stream = await store.read_stream("ServiceAccount", account.id)
    assert stream[-1].event_type == "ServiceAccountStatusChanged"


async def test_disable_of_a_service_account_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        account = await new_service_account(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.service_account.disable(
                account.id, expected_version=account.version + 1
            )


async def test_a_stale_service_account_is_not_saved_over_a_newer_one(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    repository = EventSourcedServiceAccountRepository(store)
    with use(TENANT_A):
        created = await new_service_account(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(created.change_status(status="ACTIVE", now=now))
        with pytest.raises(ConcurrencyError):
            await repository.save(created.change_status(status="ACTIVE", now=now))


async def registered_client_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of RegisteredClient.register (the aggregates they reference made)."""
    return dict(
        client_id=cases.next_of(
            "RegisteredClient.clientId",
            [
                "portac",
                "portad",
                "portae",
                "portaf",
                "portag",
                "portah",
                "portai",
                "portaj",
                "portak",
                "portam",
                "portan",
                "portao",
            ],
        ),
        name="name",
        client_type=ClientType.CONFIDENTIAL,
        client_secret="clientSecret",
        grant_types=[GrantType.AUTHORIZATION_CODE],
        redirect_uris=["https://portal.example.com/callback"],
        post_logout_redirect_uris=["https://portal.example.com/"],
        scopes=["openid"],
        first_party=True,
    )


async def new_registered_client(cases: Cases, **overrides: Any) -> RegisteredClient:
    """A new registered client from the examples."""
    arguments = {**await registered_client_arguments(cases), **overrides}
    return await cases.registered_client.register(**arguments)


async def test_registered_client_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_registered_client(cases)
        assert await cases.registered_client.get(created.id) == created
        assert await cases.registered_client.get("no-such-id") is None


async def test_registered_client_of_one_tenant_is_invisible_to_another(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_registered_client(cases)
    with use(TENANT_B):
        assert await cases.registered_client.get(created.id) is None


async def test_the_key_of_a_registered_client_makes_its_id_once_in_the_tenant(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_registered_client(cases)
        with pytest.raises(DuplicateKeyError):
            await new_registered_client(cases, client_id=first.client_id)
        assert await cases.registered_client.get(first.id) == first
    with use(TENANT_B):
        elsewhere = await new_registered_client(cases, client_id=first.client_id)
    assert elsewhere.id != first.id


async def test_the_key_of_a_registered_client_is_free_only_if_no_service_account_has_it(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        first = await new_service_account(cases)
        with pytest.raises(DuplicateKeyError):
            await new_registered_client(cases, client_id=first.client_id)
    with use(TENANT_B):
        await new_registered_client(cases, client_id=first.client_id)


async def test_an_idempotency_key_makes_one_registered_client(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await registered_client_arguments(cases)
        create = cases.registered_client.register
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_disable_of_a_missing_registered_client_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.registered_client.disable(
            "no-such-id",
        )


async def test_disable_of_a_registered_client_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        client = await new_registered_client(cases)
        changed = await cases.registered_client.disable(
            client.id,
        )
        assert changed.version == client.version + 1
        assert await cases.registered_client.get(client.id) == changed
        stream = await store.read_stream("RegisteredClient", client.id)
    assert stream[-1].event_type == "ClientStatusChanged"


async def test_disable_of_a_registered_client_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        client = await new_registered_client(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.registered_client.disable(
                client.id, expected_version=client.version + 1
            )


async def test_a_stale_registered_client_is_not_saved_over_a_newer_one(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    repository = EventSourcedRegisteredClientRepository(store)
    with use(TENANT_A):
        created = await new_registered_client(cases)
        now = datetime.now(UTC) + timedelta(
            seconds=1
        )  # after every tick of the cases' clock
        await repository.save(created.disable(now=now))
        with pytest.raises(ConcurrencyError):
            await repository.save(created.disable(now=now))
