# Generated from spec iam by `generate`; edits are merged on re-render.

"""Use cases against event-sourced repositories on the in-memory and SQLite event stores."""

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from eaf.context import SecurityContext, use
from eaf.eventsourcing import EventStore

from iam.application.services import (
    AccessTokenRevocationService,
    PolicyService,
    RefreshTokenFamilyService,
    RoleService,
    ServiceAccountService,
    TenantService,
    UserService,
)
from iam.domain.errors import ConcurrencyError, NotFoundError
from iam.domain.model import (
    Policy,
    RefreshTokenFamily,
    Role,
    ServiceAccount,
    Tenant,
    User,
)
from iam.infrastructure.persistence import (
    EventSourcedAccessTokenRevocationRepository,
    EventSourcedPolicyRepository,
    EventSourcedRefreshTokenFamilyRepository,
    EventSourcedRoleRepository,
    EventSourcedServiceAccountRepository,
    EventSourcedTenantRepository,
    EventSourcedUserRepository,
    close_event_store,
    open_event_store,
)
from iam.infrastructure.projections import (
    ReadModelPolicyListing,
    ReadModelRoleListing,
    ReadModelServiceAccountListing,
    ReadModelTenantListing,
    ReadModelUserListing,
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


def tenant_service(store: EventStore) -> TenantService:
    return TenantService(
        EventSourcedTenantRepository(store),
        FixedClock(),
        ReadModelTenantListing(projection_store(store)),
    )


async def test_tenant_is_stored_and_found(store: EventStore) -> None:
    service = tenant_service(store)
    with use(TENANT_A):
        created = await service.create(
            name="sample", admin_user_id="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10"
        )
        assert await service.get(created.id) == created
        assert await service.get("no-such-id") is None


async def test_tenant_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    service = tenant_service(store)
    with use(TENANT_A):
        created = await service.create(
            name="sample", admin_user_id="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10"
        )
    with use(TENANT_B):
        assert await service.get(created.id) is None


async def test_change_status_of_a_missing_tenant_is_not_found(
    store: EventStore,
) -> None:
    service = tenant_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="Tenant not found"):
        await service.change_status("no-such-id", status="ACTIVE")


async def test_change_status_of_a_tenant_is_stored_as_an_event(
    store: EventStore,
) -> None:
    service = tenant_service(store)
    with use(TENANT_A):
        created = await service.create(
            name="sample", admin_user_id="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10"
        )
        changed = await service.change_status(created.id, status="ACTIVE")
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(
            EventSourcedTenantRepository.STREAM, created.id
        )
    assert [event.event_type for event in stream] == [
        "TenantCreatedEvent",
        "TenantStatusChanged",
    ]


async def test_a_stale_tenant_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    repository = EventSourcedTenantRepository(store)
    now = FixedClock().now()
    with use(TENANT_A):
        created = await repository.save(
            Tenant.create(
                name="sample",
                admin_user_id="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
                now=now,
            )
        )
        await repository.save(created.change_status(status="ACTIVE", now=now))
        with pytest.raises(ConcurrencyError):
            await repository.save(created.change_status(status="ACTIVE", now=now))


def user_service(store: EventStore) -> UserService:
    return UserService(
        EventSourcedUserRepository(store),
        FixedClock(),
        ReadModelUserListing(projection_store(store)),
    )


async def test_user_is_stored_and_found(store: EventStore) -> None:
    service = user_service(store)
    with use(TENANT_A):
        created = await service.create(
            username="alice",
            email="email@example.org",
            password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            roles=["user"],
            attributes={"department": "sales"},
        )
        assert await service.get(created.id) == created
        assert await service.get("no-such-id") is None


async def test_user_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    service = user_service(store)
    with use(TENANT_A):
        created = await service.create(
            username="alice",
            email="email@example.org",
            password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            roles=["user"],
            attributes={"department": "sales"},
        )
    with use(TENANT_B):
        assert await service.get(created.id) is None


async def test_change_status_of_a_missing_user_is_not_found(store: EventStore) -> None:
    service = user_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="User not found"):
        await service.change_status("no-such-id", status="ACTIVE")


async def test_change_status_of_a_user_is_stored_as_an_event(store: EventStore) -> None:
    service = user_service(store)
    with use(TENANT_A):
        created = await service.create(
            username="alice",
            email="email@example.org",
            password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            roles=["user"],
            attributes={"department": "sales"},
        )
        changed = await service.change_status(created.id, status="ACTIVE")
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(EventSourcedUserRepository.STREAM, created.id)
    assert [event.event_type for event in stream] == [
        "UserCreated",
        "UserStatusChanged",
    ]


async def test_change_roles_of_a_missing_user_is_not_found(store: EventStore) -> None:
    service = user_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="User not found"):
        await service.change_roles("no-such-id", roles=["user"])


async def test_change_roles_of_a_user_is_stored_as_an_event(store: EventStore) -> None:
    service = user_service(store)
    with use(TENANT_A):
        created = await service.create(
            username="alice",
            email="email@example.org",
            password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            roles=["user"],
            attributes={"department": "sales"},
        )
        changed = await service.change_roles(created.id, roles=["user"])
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(EventSourcedUserRepository.STREAM, created.id)
    assert [event.event_type for event in stream] == ["UserCreated", "UserRolesChanged"]


async def test_change_attributes_of_a_missing_user_is_not_found(
    store: EventStore,
) -> None:
    service = user_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="User not found"):
        await service.change_attributes(
            "no-such-id", attributes={"department": "sales"}
        )


async def test_change_attributes_of_a_user_is_stored_as_an_event(
    store: EventStore,
) -> None:
    service = user_service(store)
    with use(TENANT_A):
        created = await service.create(
            username="alice",
            email="email@example.org",
            password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            roles=["user"],
            attributes={"department": "sales"},
        )
        changed = await service.change_attributes(
            created.id, attributes={"department": "sales"}
        )
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(EventSourcedUserRepository.STREAM, created.id)
    assert [event.event_type for event in stream] == [
        "UserCreated",
        "UserAttributesChanged",
    ]


async def test_change_password_of_a_missing_user_is_not_found(
    store: EventStore,
) -> None:
    service = user_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="User not found"):
        await service.change_password(
            "no-such-id", password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"
        )


async def test_change_password_of_a_user_is_stored_as_an_event(
    store: EventStore,
) -> None:
    service = user_service(store)
    with use(TENANT_A):
        created = await service.create(
            username="alice",
            email="email@example.org",
            password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            roles=["user"],
            attributes={"department": "sales"},
        )
        changed = await service.change_password(
            created.id, password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"
        )
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(EventSourcedUserRepository.STREAM, created.id)
    assert [event.event_type for event in stream] == [
        "UserCreated",
        "UserPasswordChanged",
    ]


async def test_a_stale_user_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    repository = EventSourcedUserRepository(store)
    now = FixedClock().now()
    with use(TENANT_A):
        created = await repository.save(
            User.create(
                username="alice",
                email="email@example.org",
                password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
                roles=["user"],
                attributes={"department": "sales"},
                now=now,
            )
        )
        await repository.save(created.change_status(status="ACTIVE", now=now))
        with pytest.raises(ConcurrencyError):
            await repository.save(created.change_status(status="ACTIVE", now=now))


def role_service(store: EventStore) -> RoleService:
    return RoleService(
        EventSourcedRoleRepository(store),
        FixedClock(),
        ReadModelRoleListing(projection_store(store)),
    )


async def test_role_is_stored_and_found(store: EventStore) -> None:
    service = role_service(store)
    with use(TENANT_A):
        created = await service.create(name="editor", permissions=["user-profile:read"])
        assert await service.get(created.id) == created
        assert await service.get("no-such-id") is None


async def test_role_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    service = role_service(store)
    with use(TENANT_A):
        created = await service.create(name="editor", permissions=["user-profile:read"])
    with use(TENANT_B):
        assert await service.get(created.id) is None


async def test_change_permissions_of_a_missing_role_is_not_found(
    store: EventStore,
) -> None:
    service = role_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="Role not found"):
        await service.change_permissions(
            "no-such-id", permissions=["user-profile:read"]
        )


async def test_change_permissions_of_a_role_is_stored_as_an_event(
    store: EventStore,
) -> None:
    service = role_service(store)
    with use(TENANT_A):
        created = await service.create(name="editor", permissions=["user-profile:read"])
        changed = await service.change_permissions(
            created.id, permissions=["user-profile:read"]
        )
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(EventSourcedRoleRepository.STREAM, created.id)
    assert [event.event_type for event in stream] == [
        "RoleCreated",
        "RolePermissionsChanged",
    ]


async def test_describe_of_a_missing_role_is_not_found(store: EventStore) -> None:
    service = role_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="Role not found"):
        await service.describe("no-such-id", description="sample")


async def test_describe_of_a_role_is_stored_as_an_event(store: EventStore) -> None:
    service = role_service(store)
    with use(TENANT_A):
        created = await service.create(name="editor", permissions=["user-profile:read"])
        changed = await service.describe(created.id, description="sample")
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(EventSourcedRoleRepository.STREAM, created.id)
    assert [event.event_type for event in stream] == ["RoleCreated", "RoleDescribed"]


async def test_a_stale_role_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    repository = EventSourcedRoleRepository(store)
    now = FixedClock().now()
    with use(TENANT_A):
        created = await repository.save(
            Role.create(name="editor", permissions=["user-profile:read"], now=now)
        )
        await repository.save(
            created.change_permissions(permissions=["user-profile:read"], now=now)
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.change_permissions(permissions=["user-profile:read"], now=now)
            )


def policy_service(store: EventStore) -> PolicyService:
    return PolicyService(
        EventSourcedPolicyRepository(store),
        FixedClock(),
        ReadModelPolicyListing(projection_store(store)),
    )


async def test_policy_is_stored_and_found(store: EventStore) -> None:
    service = policy_service(store)
    with use(TENANT_A):
        created = await service.create(
            name="sales-only", effect="deny", permissions=["license:*"], conditions="[]"
        )
        assert await service.get(created.id) == created
        assert await service.get("no-such-id") is None


async def test_policy_of_one_tenant_is_invisible_to_another(store: EventStore) -> None:
    service = policy_service(store)
    with use(TENANT_A):
        created = await service.create(
            name="sales-only", effect="deny", permissions=["license:*"], conditions="[]"
        )
    with use(TENANT_B):
        assert await service.get(created.id) is None


async def test_change_of_a_missing_policy_is_not_found(store: EventStore) -> None:
    service = policy_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="Policy not found"):
        await service.change(
            "no-such-id",
            name="sales-only",
            effect="deny",
            permissions=["license:*"],
            conditions="[]",
        )


async def test_change_of_a_policy_is_stored_as_an_event(store: EventStore) -> None:
    service = policy_service(store)
    with use(TENANT_A):
        created = await service.create(
            name="sales-only", effect="deny", permissions=["license:*"], conditions="[]"
        )
        changed = await service.change(
            created.id,
            name="sales-only",
            effect="deny",
            permissions=["license:*"],
            conditions="[]",
        )
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(
            EventSourcedPolicyRepository.STREAM, created.id
        )
    assert [event.event_type for event in stream] == ["PolicyCreated", "PolicyChanged"]


async def test_change_status_of_a_missing_policy_is_not_found(
    store: EventStore,
) -> None:
    service = policy_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="Policy not found"):
        await service.change_status("no-such-id", status="ACTIVE")


async def test_change_status_of_a_policy_is_stored_as_an_event(
    store: EventStore,
) -> None:
    service = policy_service(store)
    with use(TENANT_A):
        created = await service.create(
            name="sales-only", effect="deny", permissions=["license:*"], conditions="[]"
        )
        changed = await service.change_status(created.id, status="ACTIVE")
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(
            EventSourcedPolicyRepository.STREAM, created.id
        )
    assert [event.event_type for event in stream] == [
        "PolicyCreated",
        "PolicyStatusChanged",
    ]


async def test_a_stale_policy_is_not_saved_over_a_newer_one(store: EventStore) -> None:
    repository = EventSourcedPolicyRepository(store)
    now = FixedClock().now()
    with use(TENANT_A):
        created = await repository.save(
            Policy.create(
                name="sales-only",
                effect="deny",
                permissions=["license:*"],
                conditions="[]",
                now=now,
            )
        )
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


def service_account_service(store: EventStore) -> ServiceAccountService:
    return ServiceAccountService(
        EventSourcedServiceAccountRepository(store),
        FixedClock(),
        ReadModelServiceAccountListing(projection_store(store)),
    )


async def test_service_account_is_stored_and_found(store: EventStore) -> None:
    service = service_account_service(store)
    with use(TENANT_A):
        created = await service.create(
            client_id="billing-worker",
            secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            roles=["service"],
        )
        assert await service.get(created.id) == created
        assert await service.get("no-such-id") is None


async def test_service_account_of_one_tenant_is_invisible_to_another(
    store: EventStore,
) -> None:
    service = service_account_service(store)
    with use(TENANT_A):
        created = await service.create(
            client_id="billing-worker",
            secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            roles=["service"],
        )
    with use(TENANT_B):
        assert await service.get(created.id) is None


async def test_change_status_of_a_missing_service_account_is_not_found(
    store: EventStore,
) -> None:
    service = service_account_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="Service account not found"):
        await service.change_status("no-such-id", status="ACTIVE")


async def test_change_status_of_a_service_account_is_stored_as_an_event(
    store: EventStore,
) -> None:
    service = service_account_service(store)
    with use(TENANT_A):
        created = await service.create(
            client_id="billing-worker",
            secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            roles=["service"],
        )
        changed = await service.change_status(created.id, status="ACTIVE")
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(
            EventSourcedServiceAccountRepository.STREAM, created.id
        )
    assert [event.event_type for event in stream] == [
        "ServiceAccountCreated",
        "ServiceAccountStatusChanged",
    ]


async def test_change_secret_of_a_missing_service_account_is_not_found(
    store: EventStore,
) -> None:
    service = service_account_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="Service account not found"):
        await service.change_secret(
            "no-such-id", secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"
        )


async def test_change_secret_of_a_service_account_is_stored_as_an_event(
    store: EventStore,
) -> None:
    service = service_account_service(store)
    with use(TENANT_A):
        created = await service.create(
            client_id="billing-worker",
            secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            roles=["service"],
        )
        changed = await service.change_secret(
            created.id, secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"
        )
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(
            EventSourcedServiceAccountRepository.STREAM, created.id
        )
    assert [event.event_type for event in stream] == [
        "ServiceAccountCreated",
        "ServiceAccountSecretChanged",
    ]


async def test_a_stale_service_account_is_not_saved_over_a_newer_one(
    store: EventStore,
) -> None:
    repository = EventSourcedServiceAccountRepository(store)
    now = FixedClock().now()
    with use(TENANT_A):
        created = await repository.save(
            ServiceAccount.create(
                client_id="billing-worker",
                secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
                roles=["service"],
                now=now,
            )
        )
        await repository.save(created.change_status(status="ACTIVE", now=now))
        with pytest.raises(ConcurrencyError):
            await repository.save(created.change_status(status="ACTIVE", now=now))


def refresh_token_family_service(store: EventStore) -> RefreshTokenFamilyService:
    return RefreshTokenFamilyService(
        EventSourcedRefreshTokenFamilyRepository(store),
        FixedClock(),
    )


async def test_refresh_token_family_is_stored_and_found(store: EventStore) -> None:
    service = refresh_token_family_service(store)
    with use(TENANT_A):
        created = await service.issue(
            subject="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
            client_id="web",
            scope="sample",
            current_hash="c2hhMjU2",
        )
        assert await service.get(created.id) == created
        assert await service.get("no-such-id") is None


async def test_refresh_token_family_of_one_tenant_is_invisible_to_another(
    store: EventStore,
) -> None:
    service = refresh_token_family_service(store)
    with use(TENANT_A):
        created = await service.issue(
            subject="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
            client_id="web",
            scope="sample",
            current_hash="c2hhMjU2",
        )
    with use(TENANT_B):
        assert await service.get(created.id) is None


async def test_rotate_of_a_missing_refresh_token_family_is_not_found(
    store: EventStore,
) -> None:
    service = refresh_token_family_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="Refresh token not found"):
        await service.rotate("no-such-id", current_hash="c2hhMjU2", used_hashes=[])


async def test_rotate_of_a_refresh_token_family_is_stored_as_an_event(
    store: EventStore,
) -> None:
    service = refresh_token_family_service(store)
    with use(TENANT_A):
        created = await service.issue(
            subject="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
            client_id="web",
            scope="sample",
            current_hash="c2hhMjU2",
        )
        changed = await service.rotate(
            created.id, current_hash="c2hhMjU2", used_hashes=[]
        )
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(
            EventSourcedRefreshTokenFamilyRepository.STREAM, created.id
        )
    assert [event.event_type for event in stream] == [
        "RefreshTokenIssued",
        "RefreshTokenRotated",
    ]


async def test_revoke_of_a_missing_refresh_token_family_is_not_found(
    store: EventStore,
) -> None:
    service = refresh_token_family_service(store)
    with use(TENANT_A), pytest.raises(NotFoundError, match="Refresh token not found"):
        await service.revoke("no-such-id", status="ACTIVE")


async def test_revoke_of_a_refresh_token_family_is_stored_as_an_event(
    store: EventStore,
) -> None:
    service = refresh_token_family_service(store)
    with use(TENANT_A):
        created = await service.issue(
            subject="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
            client_id="web",
            scope="sample",
            current_hash="c2hhMjU2",
        )
        changed = await service.revoke(created.id, status="ACTIVE")
        assert await service.get(created.id) == changed
        assert changed.version == created.version + 1
        stream = await store.read_stream(
            EventSourcedRefreshTokenFamilyRepository.STREAM, created.id
        )
    assert [event.event_type for event in stream] == [
        "RefreshTokenIssued",
        "RefreshTokenFamilyRevoked",
    ]


async def test_a_stale_refresh_token_family_is_not_saved_over_a_newer_one(
    store: EventStore,
) -> None:
    repository = EventSourcedRefreshTokenFamilyRepository(store)
    now = FixedClock().now()
    with use(TENANT_A):
        created = await repository.save(
            RefreshTokenFamily.issue(
                subject="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
                client_id="web",
                scope="sample",
                current_hash="c2hhMjU2",
                now=now,
            )
        )
        await repository.save(
            created.rotate(current_hash="c2hhMjU2", used_hashes=[], now=now)
        )
        with pytest.raises(ConcurrencyError):
            await repository.save(
                created.rotate(current_hash="c2hhMjU2", used_hashes=[], now=now)
            )


def access_token_revocation_service(store: EventStore) -> AccessTokenRevocationService:
    return AccessTokenRevocationService(
        EventSourcedAccessTokenRevocationRepository(store),
        FixedClock(),
    )


async def test_access_token_revocation_is_stored_and_found(store: EventStore) -> None:
    service = access_token_revocation_service(store)
    with use(TENANT_A):
        created = await service.create(
            jti="q8Xy2w", expires_at=datetime.fromisoformat("2026-01-02T03:04:05+00:00")
        )
        assert await service.get(created.id) == created
        assert await service.get("no-such-id") is None


async def test_access_token_revocation_of_one_tenant_is_invisible_to_another(
    store: EventStore,
) -> None:
    service = access_token_revocation_service(store)
    with use(TENANT_A):
        created = await service.create(
            jti="q8Xy2w", expires_at=datetime.fromisoformat("2026-01-02T03:04:05+00:00")
        )
    with use(TENANT_B):
        assert await service.get(created.id) is None
