# Generated from spec iam by `generate`; edits are merged on re-render.

"""Use cases on the in-memory and SQLite event stores: transactions, references, unique
values, idempotency keys, guards and tenant isolation."""

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest
from eaf.context import SecurityContext, use
from eaf.eventsourcing import (
    EventStore,
    Idempotency,
    PreconditionFailedError,
)

from iam.application.services import (
    AccessTokenRevocationService,
    PolicyService,
    RefreshTokenFamilyService,
    RoleService,
    ServiceAccountService,
    TenantService,
    UserService,
)
from iam.domain.errors import (
    ConcurrencyError,
    NotFoundError,
)
from iam.domain.model import (
    AccessTokenRevocation,
    Policy,
    RefreshTokenFamily,
    Role,
    ServiceAccount,
    Tenant,
    User,
)
from iam.infrastructure.persistence import (
    EventSourcedPolicyRepository,
    EventSourcedRefreshTokenFamilyRepository,
    EventSourcedRoleRepository,
    EventSourcedServiceAccountRepository,
    EventSourcedTenantRepository,
    EventSourcedUserRepository,
    close_event_store,
    open_event_store,
    transactions,
)
from iam.infrastructure.projections import (
    ReadModelPolicyListing,
    ReadModelRoleListing,
    ReadModelServiceAccountListing,
    ReadModelTenantListing,
    ReadModelUserListing,
    projection_store,
)

T = TypeVar("T")
TENANT_A = SecurityContext(tenant_id="tenant-a")
TENANT_B = SecurityContext(tenant_id="tenant-b")


class FixedClock:
    def now(self) -> datetime:
        return datetime.now(UTC).replace(microsecond=0)


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
    refresh_token_family: RefreshTokenFamilyService
    access_token_revocation: AccessTokenRevocationService
    used: dict[str, int] = field(default_factory=dict)

    def next_of(self, key: str, values: list[T]) -> T:
        """The next of ``values`` not used yet for ``key`` (unique values stay unique)."""
        index = self.used.get(key, 0)
        self.used[key] = index + 1
        return values[index % len(values)]


def use_cases(store: EventStore) -> Cases:
    wired = transactions(store)
    clock = FixedClock()
    return Cases(
        tenant=TenantService(
            wired,
            clock,
            ReadModelTenantListing(projection_store(store)),
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
        refresh_token_family=RefreshTokenFamilyService(
            wired,
            clock,
        ),
        access_token_revocation=AccessTokenRevocationService(
            wired,
            clock,
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
            status="ACTIVE",
        )


async def test_change_status_of_a_tenant_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        tenant_ = await new_tenant(cases)
        changed = await cases.tenant.change_status(
            tenant_.id,
            status="ACTIVE",
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
                tenant_.id, status="ACTIVE", expected_version=tenant_.version + 1
            )


async def test_a_stale_tenant_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedTenantRepository(store)
    with use(TENANT_A):
        created = await new_tenant(cases)
        now = FixedClock().now()
        await repository.save(created.change_status(status="ACTIVE", now=now))
        with pytest.raises(ConcurrencyError):
            await repository.save(created.change_status(status="ACTIVE", now=now))


async def user_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of User.create (the aggregates they reference made)."""
    return dict(
        username="alice",
        email="email@x",
        password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
        roles=["user"],
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
            roles=["user"],
        )


async def test_change_roles_of_a_user_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        changed = await cases.user.change_roles(
            user.id,
            roles=["user"],
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
                user.id, roles=["user"], expected_version=user.version + 1
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
            password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
        )


async def test_change_password_of_a_user_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        user = await new_user(cases)
        changed = await cases.user.change_password(
            user.id,
            password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
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
                user.id,
                password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
                expected_version=user.version + 1,
            )


async def test_a_stale_user_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedUserRepository(store)
    with use(TENANT_A):
        created = await new_user(cases)
        now = FixedClock().now()
        await repository.save(created.change_status(status="ACTIVE", now=now))
        with pytest.raises(ConcurrencyError):
            await repository.save(created.change_status(status="ACTIVE", now=now))


async def role_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of Role.create (the aggregates they reference made)."""
    return dict(
        name="editor",
        permissions=["user-profile:read"],
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
        now = FixedClock().now()
        await repository.save(
            created.change_permissions(permissions=["user-profile:read"], now=now)
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.change_permissions(permissions=["user-profile:read"], now=now)
            )


async def policy_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of Policy.create (the aggregates they reference made)."""
    return dict(
        name="sales-only",
        effect="deny",
        permissions=["license:*"],
        conditions="[]",
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
            name="sales-only",
            effect="deny",
            permissions=["license:*"],
            conditions="[]",
        )


async def test_change_of_a_policy_is_stored_as_an_event(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        policy = await new_policy(cases)
        changed = await cases.policy.change(
            policy.id,
            name="sales-only",
            effect="deny",
            permissions=["license:*"],
            conditions="[]",
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
                name="sales-only",
                effect="deny",
                permissions=["license:*"],
                conditions="[]",
                expected_version=policy.version + 1,
            )


async def test_change_status_of_a_missing_policy_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.policy.change_status(
            "no-such-id",
            status="ACTIVE",
        )


async def test_change_status_of_a_policy_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        policy = await new_policy(cases)
        changed = await cases.policy.change_status(
            policy.id,
            status="ACTIVE",
        )
        assert changed.version == policy.version + 1
        assert await cases.policy.get(policy.id) == changed
        stream = await store.read_stream("Policy", policy.id)
    assert stream[-1].event_type == "PolicyStatusChanged"


async def test_change_status_of_a_policy_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        policy = await new_policy(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.policy.change_status(
                policy.id, status="ACTIVE", expected_version=policy.version + 1
            )


async def test_a_stale_policy_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    cases = use_cases(store)
    repository = EventSourcedPolicyRepository(store)
    with use(TENANT_A):
        created = await new_policy(cases)
        now = FixedClock().now()
        await repository.save(
            created.change(
                name="sales-only",
                effect="deny",
                permissions=["license:*"],
                conditions="[]",
                now=now,
            )
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.change(
                    name="sales-only",
                    effect="deny",
                    permissions=["license:*"],
                    conditions="[]",
                    now=now,
                )
            )


async def service_account_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of ServiceAccount.create (the aggregates they reference made)."""
    return dict(
        client_id="billing-worker",
        secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
        roles=["service"],
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
            secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
        )


async def test_change_secret_of_a_service_account_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        account = await new_service_account(cases)
        changed = await cases.service_account.change_secret(
            account.id,
            secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
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
                secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
                expected_version=account.version + 1,
            )


async def test_a_stale_service_account_is_not_saved_over_a_newer_one(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    repository = EventSourcedServiceAccountRepository(store)
    with use(TENANT_A):
        created = await new_service_account(cases)
        now = FixedClock().now()
        await repository.save(created.change_status(status="ACTIVE", now=now))
        with pytest.raises(ConcurrencyError):
            await repository.save(created.change_status(status="ACTIVE", now=now))


async def refresh_token_family_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of RefreshTokenFamily.issue (the aggregates they reference made)."""
    return dict(
        subject="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
        client_id="web",
        scope="scope",
        current_hash="c2hhMjU2",
    )


async def new_refresh_token_family(
    cases: Cases, **overrides: Any
) -> RefreshTokenFamily:
    """A new refresh token family from the examples."""
    arguments = {**await refresh_token_family_arguments(cases), **overrides}
    return await cases.refresh_token_family.issue(**arguments)


async def test_refresh_token_family_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_refresh_token_family(cases)
        assert await cases.refresh_token_family.get(created.id) == created
        assert await cases.refresh_token_family.get("no-such-id") is None


async def test_refresh_token_family_of_one_tenant_is_invisible_to_another(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_refresh_token_family(cases)
    with use(TENANT_B):
        assert await cases.refresh_token_family.get(created.id) is None


async def test_an_idempotency_key_makes_one_refresh_token_family(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await refresh_token_family_arguments(cases)
        create = cases.refresh_token_family.issue
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first


async def test_rotate_of_a_missing_refresh_token_family_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.refresh_token_family.rotate(
            "no-such-id",
            current_hash="c2hhMjU2",
            used_hashes=[],
        )


async def test_rotate_of_a_refresh_token_family_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        family = await new_refresh_token_family(cases)
        changed = await cases.refresh_token_family.rotate(
            family.id,
            current_hash="c2hhMjU2",
            used_hashes=[],
        )
        assert changed.version == family.version + 1
        assert await cases.refresh_token_family.get(family.id) == changed
        stream = await store.read_stream("RefreshTokenFamily", family.id)
    assert stream[-1].event_type == "RefreshTokenRotated"


async def test_rotate_of_a_refresh_token_family_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        family = await new_refresh_token_family(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.refresh_token_family.rotate(
                family.id,
                current_hash="c2hhMjU2",
                used_hashes=[],
                expected_version=family.version + 1,
            )


async def test_revoke_of_a_missing_refresh_token_family_is_not_found(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A), pytest.raises(NotFoundError):
        await cases.refresh_token_family.revoke(
            "no-such-id",
            status="ACTIVE",
        )


async def test_revoke_of_a_refresh_token_family_is_stored_as_an_event(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        family = await new_refresh_token_family(cases)
        changed = await cases.refresh_token_family.revoke(
            family.id,
            status="ACTIVE",
        )
        assert changed.version == family.version + 1
        assert await cases.refresh_token_family.get(family.id) == changed
        stream = await store.read_stream("RefreshTokenFamily", family.id)
    assert stream[-1].event_type == "RefreshTokenFamilyRevoked"


async def test_revoke_of_a_refresh_token_family_read_at_another_version_fails(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        family = await new_refresh_token_family(cases)
        with pytest.raises(PreconditionFailedError):
            await cases.refresh_token_family.revoke(
                family.id, status="ACTIVE", expected_version=family.version + 1
            )


async def test_a_stale_refresh_token_family_is_not_saved_over_a_newer_one(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    repository = EventSourcedRefreshTokenFamilyRepository(store)
    with use(TENANT_A):
        created = await new_refresh_token_family(cases)
        now = FixedClock().now()
        await repository.save(
            created.rotate(current_hash="c2hhMjU2", used_hashes=[], now=now)
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.rotate(current_hash="c2hhMjU2", used_hashes=[], now=now)
            )


async def access_token_revocation_arguments(cases: Cases) -> dict[str, Any]:
    """The examples' arguments of AccessTokenRevocation.create (the aggregates they reference made)."""
    return dict(
        jti="q8Xy2w",
        expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
    )


async def new_access_token_revocation(
    cases: Cases, **overrides: Any
) -> AccessTokenRevocation:
    """A new access token revocation from the examples."""
    arguments = {**await access_token_revocation_arguments(cases), **overrides}
    return await cases.access_token_revocation.create(**arguments)


async def test_access_token_revocation_is_stored_and_found(store: EventStore) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_access_token_revocation(cases)
        assert await cases.access_token_revocation.get(created.id) == created
        assert await cases.access_token_revocation.get("no-such-id") is None


async def test_access_token_revocation_of_one_tenant_is_invisible_to_another(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        created = await new_access_token_revocation(cases)
    with use(TENANT_B):
        assert await cases.access_token_revocation.get(created.id) is None


async def test_an_idempotency_key_makes_one_access_token_revocation(
    store: EventStore,
) -> None:
    cases = use_cases(store)
    with use(TENANT_A):
        arguments = await access_token_revocation_arguments(cases)
        create = cases.access_token_revocation.create
        first = await create(**arguments, idempotency=Idempotency("key-1"))
        again = Idempotency("key-1")
        repeated = await create(**arguments, idempotency=again)
        assert again.replayed
        assert repeated == first
