# Generated from spec iam by `generate`; edits are merged on re-render.

"""Unit tests of the domain: rules, commands and the events they emit."""

from datetime import UTC, datetime, timedelta

import pytest

from iam.domain.errors import DomainValidationError
from iam.domain.events import (
    AccessTokenRevoked,
    PolicyChanged,
    PolicyCreated,
    PolicyStatusChanged,
    RefreshTokenFamilyRevoked,
    RefreshTokenIssued,
    RefreshTokenRotated,
    RoleCreated,
    RoleDescribed,
    RolePermissionsChanged,
    ServiceAccountCreated,
    ServiceAccountSecretChanged,
    ServiceAccountStatusChanged,
    TenantCreatedEvent,
    TenantStatusChanged,
    UserAttributesChanged,
    UserCreated,
    UserPasswordChanged,
    UserRolesChanged,
    UserStatusChanged,
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

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
LATER = NOW + timedelta(minutes=5)


def new_tenant() -> Tenant:
    return Tenant.create(
        name="sample", admin_user_id="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10", now=NOW
    )


def test_create_tenant_sets_fields_and_records_tenant_created_event() -> None:
    tenant = new_tenant()
    assert tenant.name == "sample"
    assert tenant.admin_user_id == "9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10"
    assert tenant.created_at == tenant.updated_at == NOW
    assert [type(event) for event in tenant.changes] == [TenantCreatedEvent]
    assert tenant.committed().version == 1


def test_replaying_the_events_of_a_tenant_rebuilds_it() -> None:
    tenant = new_tenant()
    tenant = tenant.change_status(status="ACTIVE", now=LATER)
    assert Tenant.from_history(tenant.changes) == tenant.committed()


def test_create_tenant_rejects_name_breaking_not_blank() -> None:
    with pytest.raises(
        DomainValidationError, match="Tenant name cannot be blank"
    ) as error:
        Tenant.create(
            name="   ", admin_user_id="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10", now=NOW
        )
    assert error.value.field == "name"


def test_create_tenant_rejects_name_breaking_max_length() -> None:
    with pytest.raises(
        DomainValidationError, match="Tenant name is at most 100 characters"
    ) as error:
        Tenant.create(
            name="xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            admin_user_id="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
            now=NOW,
        )
    assert error.value.field == "name"


def test_change_status_tenant_returns_a_changed_copy_with_fresh_updated_at() -> None:
    original = new_tenant().committed()
    changed = original.change_status(status="ACTIVE", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [TenantStatusChanged]


def new_user() -> User:
    return User.create(
        username="alice",
        email="email@example.org",
        password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
        roles=["user"],
        attributes={"department": "sales"},
        now=NOW,
    )


def test_create_user_sets_fields_and_records_user_created() -> None:
    user = new_user()
    assert user.username == "alice"
    assert user.email == "email@example.org"
    assert user.password_hash == "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"
    assert user.roles == ["user"]
    assert user.attributes == {"department": "sales"}
    assert user.created_at == user.updated_at == NOW
    assert [type(event) for event in user.changes] == [UserCreated]
    assert user.committed().version == 1


def test_replaying_the_events_of_a_user_rebuilds_it() -> None:
    user = new_user()
    user = user.change_status(status="ACTIVE", now=LATER)
    user = user.change_roles(roles=["user"], now=LATER)
    user = user.change_attributes(attributes={"department": "sales"}, now=LATER)
    user = user.change_password(
        password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA", now=LATER
    )
    assert User.from_history(user.changes) == user.committed()


def test_create_user_rejects_email_breaking_contains() -> None:
    with pytest.raises(DomainValidationError, match="Email must be valid") as error:
        User.create(
            username="alice",
            email="x",
            password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            roles=["user"],
            attributes={"department": "sales"},
            now=NOW,
        )
    assert error.value.field == "email"


def test_change_status_user_returns_a_changed_copy_with_fresh_updated_at() -> None:
    original = new_user().committed()
    changed = original.change_status(status="ACTIVE", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [UserStatusChanged]


def test_change_roles_user_returns_a_changed_copy_with_fresh_updated_at() -> None:
    original = new_user().committed()
    changed = original.change_roles(roles=["user"], now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [UserRolesChanged]


def test_change_attributes_user_returns_a_changed_copy_with_fresh_updated_at() -> None:
    original = new_user().committed()
    changed = original.change_attributes(attributes={"department": "sales"}, now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [UserAttributesChanged]


def test_change_password_user_returns_a_changed_copy_with_fresh_updated_at() -> None:
    original = new_user().committed()
    changed = original.change_password(
        password_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA", now=LATER
    )
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [UserPasswordChanged]


def new_role() -> Role:
    return Role.create(name="editor", permissions=["user-profile:read"], now=NOW)


def test_create_role_sets_fields_and_records_role_created() -> None:
    role = new_role()
    assert role.name == "editor"
    assert role.permissions == ["user-profile:read"]
    assert role.created_at == role.updated_at == NOW
    assert [type(event) for event in role.changes] == [RoleCreated]
    assert role.committed().version == 1


def test_replaying_the_events_of_a_role_rebuilds_it() -> None:
    role = new_role()
    role = role.change_permissions(permissions=["user-profile:read"], now=LATER)
    role = role.describe(description="sample", now=LATER)
    assert Role.from_history(role.changes) == role.committed()


def test_change_permissions_role_returns_a_changed_copy_with_fresh_updated_at() -> None:
    original = new_role().committed()
    changed = original.change_permissions(permissions=["user-profile:read"], now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [RolePermissionsChanged]


def test_describe_role_returns_a_changed_copy_with_fresh_updated_at() -> None:
    original = new_role().committed()
    changed = original.describe(description="sample", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [RoleDescribed]


def new_policy() -> Policy:
    return Policy.create(
        name="sales-only",
        effect="deny",
        permissions=["license:*"],
        conditions="[]",
        now=NOW,
    )


def test_create_policy_sets_fields_and_records_policy_created() -> None:
    policy = new_policy()
    assert policy.name == "sales-only"
    assert policy.effect == "deny"
    assert policy.permissions == ["license:*"]
    assert policy.conditions == "[]"
    assert policy.created_at == policy.updated_at == NOW
    assert [type(event) for event in policy.changes] == [PolicyCreated]
    assert policy.committed().version == 1


def test_replaying_the_events_of_a_policy_rebuilds_it() -> None:
    policy = new_policy()
    policy = policy.change(
        name="sales-only",
        effect="deny",
        permissions=["license:*"],
        conditions="[]",
        now=LATER,
    )
    policy = policy.change_status(status="ACTIVE", now=LATER)
    assert Policy.from_history(policy.changes) == policy.committed()


def test_change_policy_returns_a_changed_copy_with_fresh_updated_at() -> None:
    original = new_policy().committed()
    changed = original.change(
        name="sales-only",
        effect="deny",
        permissions=["license:*"],
        conditions="[]",
        now=LATER,
    )
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [PolicyChanged]


def test_change_status_policy_returns_a_changed_copy_with_fresh_updated_at() -> None:
    original = new_policy().committed()
    changed = original.change_status(status="ACTIVE", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [PolicyStatusChanged]


def new_service_account() -> ServiceAccount:
    return ServiceAccount.create(
        client_id="billing-worker",
        secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
        roles=["service"],
        now=NOW,
    )


def test_create_service_account_sets_fields_and_records_service_account_created() -> (
    None
):
    account = new_service_account()
    assert account.client_id == "billing-worker"
    assert account.secret_hash == "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"
    assert account.roles == ["service"]
    assert account.created_at == account.updated_at == NOW
    assert [type(event) for event in account.changes] == [ServiceAccountCreated]
    assert account.committed().version == 1


def test_replaying_the_events_of_a_service_account_rebuilds_it() -> None:
    account = new_service_account()
    account = account.change_status(status="ACTIVE", now=LATER)
    account = account.change_secret(
        secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA", now=LATER
    )
    assert ServiceAccount.from_history(account.changes) == account.committed()


def test_change_status_service_account_returns_a_changed_copy_with_fresh_updated_at() -> (
    None
):
    original = new_service_account().committed()
    changed = original.change_status(status="ACTIVE", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [ServiceAccountStatusChanged]


def test_change_secret_service_account_returns_a_changed_copy_with_fresh_updated_at() -> (
    None
):
    original = new_service_account().committed()
    changed = original.change_secret(
        secret_hash="$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA", now=LATER
    )
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [ServiceAccountSecretChanged]


def new_refresh_token_family() -> RefreshTokenFamily:
    return RefreshTokenFamily.issue(
        subject="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
        client_id="web",
        scope="sample",
        current_hash="c2hhMjU2",
        now=NOW,
    )


def test_issue_refresh_token_family_sets_fields_and_records_refresh_token_issued() -> (
    None
):
    family = new_refresh_token_family()
    assert family.subject == "9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10"
    assert family.client_id == "web"
    assert family.scope == "sample"
    assert family.current_hash == "c2hhMjU2"
    assert family.created_at == family.updated_at == NOW
    assert [type(event) for event in family.changes] == [RefreshTokenIssued]
    assert family.committed().version == 1


def test_replaying_the_events_of_a_refresh_token_family_rebuilds_it() -> None:
    family = new_refresh_token_family()
    family = family.rotate(current_hash="c2hhMjU2", used_hashes=[], now=LATER)
    family = family.revoke(status="ACTIVE", now=LATER)
    assert RefreshTokenFamily.from_history(family.changes) == family.committed()


def test_rotate_refresh_token_family_returns_a_changed_copy_with_fresh_updated_at() -> (
    None
):
    original = new_refresh_token_family().committed()
    changed = original.rotate(current_hash="c2hhMjU2", used_hashes=[], now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [RefreshTokenRotated]


def test_revoke_refresh_token_family_returns_a_changed_copy_with_fresh_updated_at() -> (
    None
):
    original = new_refresh_token_family().committed()
    changed = original.revoke(status="ACTIVE", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert original.changes == ()
    assert [type(event) for event in changed.changes] == [RefreshTokenFamilyRevoked]


def new_access_token_revocation() -> AccessTokenRevocation:
    return AccessTokenRevocation.create(
        jti="q8Xy2w",
        expires_at=datetime.fromisoformat("2026-01-02T03:04:05+00:00"),
        now=NOW,
    )


def test_create_access_token_revocation_sets_fields_and_records_access_token_revoked() -> (
    None
):
    revocation = new_access_token_revocation()
    assert revocation.jti == "q8Xy2w"
    assert revocation.expires_at == datetime.fromisoformat("2026-01-02T03:04:05+00:00")
    assert revocation.created_at == revocation.updated_at == NOW
    assert [type(event) for event in revocation.changes] == [AccessTokenRevoked]
    assert revocation.committed().version == 1


def test_replaying_the_events_of_a_access_token_revocation_rebuilds_it() -> None:
    revocation = new_access_token_revocation()
    assert (
        AccessTokenRevocation.from_history(revocation.changes) == revocation.committed()
    )
