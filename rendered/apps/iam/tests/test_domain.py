# Generated from spec iam by `generate`; edits are merged on re-render.

"""Unit tests of the domain: rules, guards, invariants, and the events commands emit."""

from datetime import UTC, datetime, timedelta

import pytest
from eaf.eventsourcing.serialization import from_dict

from iam.domain.errors import (
    DomainValidationError,
    ServiceAccountDisabled,
    Violation,
)
from iam.domain.events import (
    AccessTokenRevoked,
    ClientRegistered,
    ClientStatusChanged,
    PolicyChanged,
    PolicyCreated,
    PolicyStatusChanged,
    RefreshTokenFamilyRevoked,
    RefreshTokenIssued,
    RefreshTokenRotated,
    RoleChanged,
    RoleCreated,
    RoleDescribed,
    RolePermissionsChanged,
    SamlAssertionConsumed,
    SamlIdentityProviderChanged,
    SamlIdentityProviderCreated,
    SamlIdentityProviderStatusChanged,
    SamlLoginCompleted,
    SamlLoginStarted,
    ServiceAccountCreated,
    ServiceAccountSecretChanged,
    ServiceAccountStatusChanged,
    TenantCreatedEvent,
    TenantStatusChanged,
    UserAttributesChanged,
    UserChanged,
    UserCreated,
    UserPasswordChanged,
    UserRolesChanged,
    UserStatusChanged,
)
from iam.domain.model import (
    AccessTokenRevocation,
    Policy,
    RefreshTokenFamily,
    RegisteredClient,
    Role,
    SamlAssertionUse,
    SamlIdentityProvider,
    SamlLoginRequest,
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
from iam.infrastructure.persistence import EVENTS

# Now: the spec's examples are checked against the current date (a due date in 2099).
NOW = datetime.now(UTC).replace(microsecond=0)
LATER = NOW + timedelta(minutes=5)


def new_tenant() -> Tenant:
    return Tenant.create(
        name="name", admin_user_id="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10", now=NOW
    ).committed()


def test_create_tenant_sets_fields_and_records_tenant_created_event() -> None:
    tenant_ = Tenant.create(
        name="name", admin_user_id="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10", now=NOW
    )
    assert tenant_.name == "name"
    assert tenant_.admin_user_id == "9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10"
    assert tenant_.created_at == tenant_.updated_at == NOW
    assert [type(event) for event in tenant_.changes] == [TenantCreatedEvent]
    assert tenant_.committed().version == 1


def test_replaying_the_events_of_a_tenant_rebuilds_it() -> None:
    tenant_ = Tenant.create(
        name="name", admin_user_id="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10", now=NOW
    )
    tenant_ = tenant_.change_status(
        status=TenantStatus.ACTIVE, now=LATER + timedelta(seconds=1)
    )
    assert Tenant.from_history(tenant_.changes) == tenant_.committed()


def test_create_tenant_rejects_name_breaking_not_blank() -> None:
    with pytest.raises(DomainValidationError) as error:
        Tenant.create(
            name="   ", admin_user_id="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10", now=NOW
        )
    assert Violation("name", "Tenant name cannot be blank") in error.value.violations


def test_create_tenant_rejects_name_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        Tenant.create(
            name="x" * 101,
            admin_user_id="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
            now=NOW,
        )
    assert "name" in {violation.field for violation in error.value.violations}


def test_change_status_tenant_returns_a_changed_copy_with_its_event() -> None:
    original = new_tenant()
    changed = original.change_status(status=TenantStatus.ACTIVE, now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [TenantStatusChanged]


def new_user() -> User:
    return User.create(
        username="alice",
        email="email@x",
        password="correct-horse-1",
        roles=[" "],
        attributes={"department": "sales"},
        now=NOW,
    ).committed()


def test_create_user_sets_fields_and_records_user_created() -> None:
    user = User.create(
        username="alice",
        email="email@x",
        password="correct-horse-1",
        roles=[" "],
        attributes={"department": "sales"},
        now=NOW,
    )
    assert user.username == "alice"
    assert user.email == "email@x"
    assert user.password == "correct-horse-1"
    assert user.roles == [" "]
    assert user.attributes == {"department": "sales"}
    assert user.created_at == user.updated_at == NOW
    assert [type(event) for event in user.changes] == [UserCreated]
    assert user.committed().version == 1


def test_replaying_the_events_of_a_user_rebuilds_it() -> None:
    user = User.create(
        username="alice",
        email="email@x",
        password="correct-horse-1",
        roles=[" "],
        attributes={"department": "sales"},
        now=NOW,
    )
    user = user.change_status(status="ACTIVE", now=LATER + timedelta(seconds=1))
    user = user.change_roles(roles=[" "], now=LATER + timedelta(seconds=2))
    user = user.change_attributes(
        attributes={"department": "sales"}, now=LATER + timedelta(seconds=3)
    )
    user = user.change_password(
        password="correct-horse-1", now=LATER + timedelta(seconds=4)
    )
    user = user.change(
        status="ACTIVE",
        roles=[" "],
        attributes={"department": "sales"},
        password="correct-horse-1",
        now=LATER + timedelta(seconds=5),
    )
    assert User.from_history(user.changes) == user.committed()


def test_create_user_rejects_email_breaking_contains() -> None:
    with pytest.raises(DomainValidationError) as error:
        User.create(
            username="alice",
            email="xxxxxxx",
            password="correct-horse-1",
            roles=[" "],
            attributes={"department": "sales"},
            now=NOW,
        )
    assert Violation("email", "Email must be valid") in error.value.violations


def test_change_status_user_returns_a_changed_copy_with_its_event() -> None:
    original = new_user()
    changed = original.change_status(status="ACTIVE", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [UserStatusChanged]


def test_change_roles_user_returns_a_changed_copy_with_its_event() -> None:
    original = new_user()
    changed = original.change_roles(roles=[" "], now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [UserRolesChanged]


def test_change_attributes_user_returns_a_changed_copy_with_its_event() -> None:
    original = new_user()
    changed = original.change_attributes(attributes={"department": "sales"}, now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [UserAttributesChanged]


def test_change_password_user_returns_a_changed_copy_with_its_event() -> None:
    original = new_user()
    changed = original.change_password(password="correct-horse-1", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [UserPasswordChanged]


def test_change_user_returns_a_changed_copy_with_its_event() -> None:
    original = new_user()
    changed = original.change(
        status="ACTIVE",
        roles=[" "],
        attributes={"department": "sales"},
        password="correct-horse-1",
        now=LATER,
    )
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [UserChanged]


def test_remove_user_returns_a_changed_copy_with_its_event() -> None:
    original = new_user()
    changed = original.remove(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [UserStatusChanged]
    assert changed.archived


def new_role() -> Role:
    return Role.create(
        name="editor",
        permissions=["user-profile:read"],
        description="description",
        now=NOW,
    ).committed()


def test_create_role_sets_fields_and_records_role_created() -> None:
    role = Role.create(
        name="editor",
        permissions=["user-profile:read"],
        description="description",
        now=NOW,
    )
    assert role.name == "editor"
    assert role.permissions == ["user-profile:read"]
    assert role.description == "description"
    assert role.created_at == role.updated_at == NOW
    assert [type(event) for event in role.changes] == [RoleCreated]
    assert role.committed().version == 1


def test_replaying_the_events_of_a_role_rebuilds_it() -> None:
    role = Role.create(
        name="editor",
        permissions=["user-profile:read"],
        description="description",
        now=NOW,
    )
    role = role.change(
        permissions=["user-profile:read"],
        description="description",
        now=LATER + timedelta(seconds=1),
    )
    role = role.change_permissions(
        permissions=["user-profile:read"], now=LATER + timedelta(seconds=2)
    )
    role = role.describe(description="description", now=LATER + timedelta(seconds=3))
    assert Role.from_history(role.changes) == role.committed()


def test_change_role_returns_a_changed_copy_with_its_event() -> None:
    original = new_role()
    changed = original.change(
        permissions=["user-profile:read"], description="description", now=LATER
    )
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [RoleChanged]


def test_change_permissions_role_returns_a_changed_copy_with_its_event() -> None:
    original = new_role()
    changed = original.change_permissions(permissions=["user-profile:read"], now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [RolePermissionsChanged]


def test_describe_role_returns_a_changed_copy_with_its_event() -> None:
    original = new_role()
    changed = original.describe(description="description", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [RoleDescribed]


def new_policy() -> Policy:
    return Policy.create(
        name="sales-only",
        effect=PolicyEffect.DENY,
        permissions=["license:*"],
        conditions=[
            PolicyCondition(
                attribute="user.department", op=ConditionOperator.NE, value_="sales"
            )
        ],
        now=NOW,
    ).committed()


def test_create_policy_sets_fields_and_records_policy_created() -> None:
    policy = Policy.create(
        name="sales-only",
        effect=PolicyEffect.DENY,
        permissions=["license:*"],
        conditions=[
            PolicyCondition(
                attribute="user.department", op=ConditionOperator.NE, value_="sales"
            )
        ],
        now=NOW,
    )
    assert policy.name == "sales-only"
    assert policy.effect == PolicyEffect.DENY
    assert policy.permissions == ["license:*"]
    assert policy.conditions == [
        PolicyCondition(
            attribute="user.department", op=ConditionOperator.NE, value_="sales"
        )
    ]
    assert policy.created_at == policy.updated_at == NOW
    assert [type(event) for event in policy.changes] == [PolicyCreated]
    assert policy.committed().version == 1


def test_replaying_the_events_of_a_policy_rebuilds_it() -> None:
    policy = Policy.create(
        name="sales-only",
        effect=PolicyEffect.DENY,
        permissions=["license:*"],
        conditions=[
            PolicyCondition(
                attribute="user.department", op=ConditionOperator.NE, value_="sales"
            )
        ],
        now=NOW,
    )
    policy = policy.change(
        effect=PolicyEffect.DENY,
        permissions=["license:*"],
        conditions=[
            PolicyCondition(
                attribute="user.department", op=ConditionOperator.NE, value_="sales"
            )
        ],
        now=LATER + timedelta(seconds=1),
    )
    policy = policy.disable(now=LATER + timedelta(seconds=2))
    assert Policy.from_history(policy.changes) == policy.committed()


def test_create_policy_rejects_permissions_breaking_min_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        Policy.create(
            name="sales-only",
            effect=PolicyEffect.DENY,
            permissions=[],
            conditions=[
                PolicyCondition(
                    attribute="user.department", op=ConditionOperator.NE, value_="sales"
                )
            ],
            now=NOW,
        )
    assert (
        Violation("permissions", "A policy names permissions") in error.value.violations
    )


def test_change_policy_rejects_permissions_breaking_min_length() -> None:
    original = new_policy()
    with pytest.raises(DomainValidationError) as error:
        original.change(
            effect=PolicyEffect.DENY,
            permissions=[],
            conditions=[
                PolicyCondition(
                    attribute="user.department", op=ConditionOperator.NE, value_="sales"
                )
            ],
            now=NOW,
        )
    assert (
        Violation("permissions", "A policy names permissions") in error.value.violations
    )


def test_change_policy_returns_a_changed_copy_with_its_event() -> None:
    original = new_policy()
    changed = original.change(
        effect=PolicyEffect.DENY,
        permissions=["license:*"],
        conditions=[
            PolicyCondition(
                attribute="user.department", op=ConditionOperator.NE, value_="sales"
            )
        ],
        now=LATER,
    )
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [PolicyChanged]


def test_disable_policy_returns_a_changed_copy_with_its_event() -> None:
    original = new_policy()
    changed = original.disable(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [PolicyStatusChanged]


def new_service_account() -> ServiceAccount:
    return ServiceAccount.create(
        client_id="billing-worker",
        client_secret="clientSecret",
        roles=["user"],
        now=NOW,
    ).committed()


def test_create_service_account_sets_fields_and_records_service_account_created() -> (
    None
):
    account = ServiceAccount.create(
        client_id="billing-worker",
        client_secret="clientSecret",
        roles=["user"],
        now=NOW,
    )
    assert account.client_id == "billing-worker"
    assert account.client_secret == "clientSecret"
    assert account.roles == ["user"]
    assert account.created_at == account.updated_at == NOW
    assert [type(event) for event in account.changes] == [ServiceAccountCreated]
    assert account.committed().version == 1


def test_replaying_the_events_of_a_service_account_rebuilds_it() -> None:
    account = ServiceAccount.create(
        client_id="billing-worker",
        client_secret="clientSecret",
        roles=["user"],
        now=NOW,
    )
    account = account.change_status(status="ACTIVE", now=LATER + timedelta(seconds=1))
    account = account.change_secret(
        client_secret="clientSecret", now=LATER + timedelta(seconds=2)
    )
    account = account.disable(now=LATER + timedelta(seconds=3))
    assert ServiceAccount.from_history(account.changes) == account.committed()


def test_change_status_service_account_returns_a_changed_copy_with_its_event() -> None:
    original = new_service_account()
    changed = original.change_status(status="ACTIVE", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [ServiceAccountStatusChanged]


def test_change_secret_service_account_returns_a_changed_copy_with_its_event() -> None:
    original = new_service_account()
    changed = original.change_secret(client_secret="clientSecret", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [ServiceAccountSecretChanged]


def test_change_secret_service_account_is_refused_by_its_guard() -> None:
    account = new_service_account()
    account = account.disable(now=NOW + timedelta(seconds=1)).committed()
    with pytest.raises(ServiceAccountDisabled):
        account.change_secret(client_secret="clientSecret", now=LATER)


def test_disable_service_account_returns_a_changed_copy_with_its_event() -> None:
    original = new_service_account()
    changed = original.disable(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [ServiceAccountStatusChanged]


def new_registered_client() -> RegisteredClient:
    return RegisteredClient.register(
        client_id="portac",
        name="name",
        client_type=ClientType.CONFIDENTIAL,
        client_secret="clientSecret",
        grant_types=[GrantType.AUTHORIZATION_CODE],
        redirect_uris=["https://portal.example.com/callback"],
        post_logout_redirect_uris=["https://portal.example.com/"],
        scopes=["openid"],
        first_party=True,
        now=NOW,
    ).committed()


def test_register_registered_client_sets_fields_and_records_client_registered() -> None:
    client = RegisteredClient.register(
        client_id="portac",
        name="name",
        client_type=ClientType.CONFIDENTIAL,
        client_secret="clientSecret",
        grant_types=[GrantType.AUTHORIZATION_CODE],
        redirect_uris=["https://portal.example.com/callback"],
        post_logout_redirect_uris=["https://portal.example.com/"],
        scopes=["openid"],
        first_party=True,
        now=NOW,
    )
    assert client.client_id == "portac"
    assert client.name == "name"
    assert client.client_type == ClientType.CONFIDENTIAL
    assert client.client_secret == "clientSecret"
    assert client.grant_types == [GrantType.AUTHORIZATION_CODE]
    assert client.redirect_uris == ["https://portal.example.com/callback"]
    assert client.post_logout_redirect_uris == ["https://portal.example.com/"]
    assert client.scopes == ["openid"]
    assert client.first_party is True
    assert client.created_at == client.updated_at == NOW
    assert [type(event) for event in client.changes] == [ClientRegistered]
    assert client.committed().version == 1


def test_replaying_the_events_of_a_registered_client_rebuilds_it() -> None:
    client = RegisteredClient.register(
        client_id="portac",
        name="name",
        client_type=ClientType.CONFIDENTIAL,
        client_secret="clientSecret",
        grant_types=[GrantType.AUTHORIZATION_CODE],
        redirect_uris=["https://portal.example.com/callback"],
        post_logout_redirect_uris=["https://portal.example.com/"],
        scopes=["openid"],
        first_party=True,
        now=NOW,
    )
    client = client.disable(now=LATER + timedelta(seconds=1))
    assert RegisteredClient.from_history(client.changes) == client.committed()


def test_register_registered_client_rejects_name_breaking_max_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        RegisteredClient.register(
            client_id="portac",
            name="x" * 101,
            client_type=ClientType.CONFIDENTIAL,
            client_secret="clientSecret",
            grant_types=[GrantType.AUTHORIZATION_CODE],
            redirect_uris=["https://portal.example.com/callback"],
            post_logout_redirect_uris=["https://portal.example.com/"],
            scopes=["openid"],
            first_party=True,
            now=NOW,
        )
    assert (
        Violation("name", "A client name is at most 100 characters")
        in error.value.violations
    )


def test_register_registered_client_rejects_grant_types_breaking_min_length() -> None:
    with pytest.raises(DomainValidationError) as error:
        RegisteredClient.register(
            client_id="portac",
            name="name",
            client_type=ClientType.CONFIDENTIAL,
            client_secret="clientSecret",
            grant_types=[],
            redirect_uris=["https://portal.example.com/callback"],
            post_logout_redirect_uris=["https://portal.example.com/"],
            scopes=["openid"],
            first_party=True,
            now=NOW,
        )
    assert (
        Violation("grantTypes", "At least one grant type is needed")
        in error.value.violations
    )


def test_register_registered_client_rejects_redirect_uris_breaking_item_max_length() -> (
    None
):
    with pytest.raises(DomainValidationError) as error:
        RegisteredClient.register(
            client_id="portac",
            name="name",
            client_type=ClientType.CONFIDENTIAL,
            client_secret="clientSecret",
            grant_types=[GrantType.AUTHORIZATION_CODE],
            redirect_uris=["x" * 2001],
            post_logout_redirect_uris=["https://portal.example.com/"],
            scopes=["openid"],
            first_party=True,
            now=NOW,
        )
    assert "redirectUris.0" in {violation.field for violation in error.value.violations}


def test_register_registered_client_rejects_post_logout_redirect_uris_breaking_item_max_length() -> (
    None
):
    with pytest.raises(DomainValidationError) as error:
        RegisteredClient.register(
            client_id="portac",
            name="name",
            client_type=ClientType.CONFIDENTIAL,
            client_secret="clientSecret",
            grant_types=[GrantType.AUTHORIZATION_CODE],
            redirect_uris=["https://portal.example.com/callback"],
            post_logout_redirect_uris=["x" * 2001],
            scopes=["openid"],
            first_party=True,
            now=NOW,
        )
    assert "postLogoutRedirectUris.0" in {
        violation.field for violation in error.value.violations
    }


def test_disable_registered_client_returns_a_changed_copy_with_its_event() -> None:
    original = new_registered_client()
    changed = original.disable(now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [ClientStatusChanged]


def new_refresh_token_family() -> RefreshTokenFamily:
    return RefreshTokenFamily.issue(
        subject="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
        client_id="web",
        scope="scope",
        current_hash="c2hhMjU2",
        now=NOW,
    ).committed()


def test_issue_refresh_token_family_sets_fields_and_records_refresh_token_issued() -> (
    None
):
    family = RefreshTokenFamily.issue(
        subject="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
        client_id="web",
        scope="scope",
        current_hash="c2hhMjU2",
        now=NOW,
    )
    assert family.subject == "9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10"
    assert family.client_id == "web"
    assert family.scope == "scope"
    assert family.current_hash == "c2hhMjU2"
    assert family.created_at == family.updated_at == NOW
    assert [type(event) for event in family.changes] == [RefreshTokenIssued]
    assert family.committed().version == 1


def test_replaying_the_events_of_a_refresh_token_family_rebuilds_it() -> None:
    family = RefreshTokenFamily.issue(
        subject="9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10",
        client_id="web",
        scope="scope",
        current_hash="c2hhMjU2",
        now=NOW,
    )
    family = family.rotate(
        current_hash="c2hhMjU2", used_hashes=[], now=LATER + timedelta(seconds=1)
    )
    family = family.revoke(status="ACTIVE", now=LATER + timedelta(seconds=2))
    assert RefreshTokenFamily.from_history(family.changes) == family.committed()


def test_rotate_refresh_token_family_returns_a_changed_copy_with_its_event() -> None:
    original = new_refresh_token_family()
    changed = original.rotate(current_hash="c2hhMjU2", used_hashes=[], now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [RefreshTokenRotated]


def test_revoke_refresh_token_family_returns_a_changed_copy_with_its_event() -> None:
    original = new_refresh_token_family()
    changed = original.revoke(status="ACTIVE", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [RefreshTokenFamilyRevoked]


def new_access_token_revocation() -> AccessTokenRevocation:
    return AccessTokenRevocation.create(
        jti="q8Xy2w", expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"), now=NOW
    ).committed()


def test_create_access_token_revocation_sets_fields_and_records_access_token_revoked() -> (
    None
):
    revocation = AccessTokenRevocation.create(
        jti="q8Xy2w", expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"), now=NOW
    )
    assert revocation.jti == "q8Xy2w"
    assert revocation.expires_at == datetime.fromisoformat("2030-01-02T03:04:05Z")
    assert revocation.created_at == revocation.updated_at == NOW
    assert [type(event) for event in revocation.changes] == [AccessTokenRevoked]
    assert revocation.committed().version == 1


def test_replaying_the_events_of_a_access_token_revocation_rebuilds_it() -> None:
    revocation = AccessTokenRevocation.create(
        jti="q8Xy2w", expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"), now=NOW
    )
    assert (
        AccessTokenRevocation.from_history(revocation.changes) == revocation.committed()
    )


def new_saml_identity_provider() -> SamlIdentityProvider:
    return SamlIdentityProvider.create(
        alias="corporate-idp",
        metadata_xml="metadataXml",
        entity_id="https://idp.example.com/saml",
        sso_url="https://idp.example.com/saml/sso",
        signing_certificate="signingCertificate",
        binding="HTTP-Redirect",
        sign_requests=True,
        name_id_format="nameIdFormat",
        attribute_mappers="attributeMappers",
        role_mappers="roleMappers",
        first_sign_in="link-by-email",
        trust_email=True,
        enabled=True,
        now=NOW,
    ).committed()


def test_create_saml_identity_provider_sets_fields_and_records_saml_identity_provider_created() -> (
    None
):
    provider = SamlIdentityProvider.create(
        alias="corporate-idp",
        metadata_xml="metadataXml",
        entity_id="https://idp.example.com/saml",
        sso_url="https://idp.example.com/saml/sso",
        signing_certificate="signingCertificate",
        binding="HTTP-Redirect",
        sign_requests=True,
        name_id_format="nameIdFormat",
        attribute_mappers="attributeMappers",
        role_mappers="roleMappers",
        first_sign_in="link-by-email",
        trust_email=True,
        enabled=True,
        now=NOW,
    )
    assert provider.alias == "corporate-idp"
    assert provider.metadata_xml == "metadataXml"
    assert provider.entity_id == "https://idp.example.com/saml"
    assert provider.sso_url == "https://idp.example.com/saml/sso"
    assert provider.signing_certificate == "signingCertificate"
    assert provider.binding == "HTTP-Redirect"
    assert provider.sign_requests is True
    assert provider.name_id_format == "nameIdFormat"
    assert provider.attribute_mappers == "attributeMappers"
    assert provider.role_mappers == "roleMappers"
    assert provider.first_sign_in == "link-by-email"
    assert provider.trust_email is True
    assert provider.enabled is True
    assert provider.created_at == provider.updated_at == NOW
    assert [type(event) for event in provider.changes] == [SamlIdentityProviderCreated]
    assert provider.committed().version == 1


def test_replaying_the_events_of_a_saml_identity_provider_rebuilds_it() -> None:
    provider = SamlIdentityProvider.create(
        alias="corporate-idp",
        metadata_xml="metadataXml",
        entity_id="https://idp.example.com/saml",
        sso_url="https://idp.example.com/saml/sso",
        signing_certificate="signingCertificate",
        binding="HTTP-Redirect",
        sign_requests=True,
        name_id_format="nameIdFormat",
        attribute_mappers="attributeMappers",
        role_mappers="roleMappers",
        first_sign_in="link-by-email",
        trust_email=True,
        enabled=True,
        now=NOW,
    )
    provider = provider.change(
        metadata_xml="metadataXml",
        entity_id="https://idp.example.com/saml",
        sso_url="https://idp.example.com/saml/sso",
        signing_certificate="signingCertificate",
        binding="HTTP-Redirect",
        sign_requests=True,
        name_id_format="nameIdFormat",
        attribute_mappers="attributeMappers",
        role_mappers="roleMappers",
        first_sign_in="link-by-email",
        trust_email=True,
        enabled=True,
        now=LATER + timedelta(seconds=1),
    )
    provider = provider.change_status(status="ACTIVE", now=LATER + timedelta(seconds=2))
    assert SamlIdentityProvider.from_history(provider.changes) == provider.committed()


def test_change_saml_identity_provider_returns_a_changed_copy_with_its_event() -> None:
    original = new_saml_identity_provider()
    changed = original.change(
        metadata_xml="metadataXml",
        entity_id="https://idp.example.com/saml",
        sso_url="https://idp.example.com/saml/sso",
        signing_certificate="signingCertificate",
        binding="HTTP-Redirect",
        sign_requests=True,
        name_id_format="nameIdFormat",
        attribute_mappers="attributeMappers",
        role_mappers="roleMappers",
        first_sign_in="link-by-email",
        trust_email=True,
        enabled=True,
        now=LATER,
    )
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [SamlIdentityProviderChanged]


def test_change_status_saml_identity_provider_returns_a_changed_copy_with_its_event() -> (
    None
):
    original = new_saml_identity_provider()
    changed = original.change_status(status="ACTIVE", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [
        SamlIdentityProviderStatusChanged
    ]


def new_saml_login_request() -> SamlLoginRequest:
    return SamlLoginRequest.start(
        request_id="id-4f1c2a9e",
        provider_alias="corporate-idp",
        relay_state="relayState",
        expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        now=NOW,
    ).committed()


def test_start_saml_login_request_sets_fields_and_records_saml_login_started() -> None:
    request_ = SamlLoginRequest.start(
        request_id="id-4f1c2a9e",
        provider_alias="corporate-idp",
        relay_state="relayState",
        expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        now=NOW,
    )
    assert request_.request_id == "id-4f1c2a9e"
    assert request_.provider_alias == "corporate-idp"
    assert request_.relay_state == "relayState"
    assert request_.expires_at == datetime.fromisoformat("2030-01-02T03:04:05Z")
    assert request_.created_at == request_.updated_at == NOW
    assert [type(event) for event in request_.changes] == [SamlLoginStarted]
    assert request_.committed().version == 1


def test_replaying_the_events_of_a_saml_login_request_rebuilds_it() -> None:
    request_ = SamlLoginRequest.start(
        request_id="id-4f1c2a9e",
        provider_alias="corporate-idp",
        relay_state="relayState",
        expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        now=NOW,
    )
    request_ = request_.complete(status="PENDING", now=LATER + timedelta(seconds=1))
    assert SamlLoginRequest.from_history(request_.changes) == request_.committed()


def test_complete_saml_login_request_returns_a_changed_copy_with_its_event() -> None:
    original = new_saml_login_request()
    changed = original.complete(status="PENDING", now=LATER)
    assert changed is not original
    assert changed.updated_at == LATER
    assert changed.created_at == original.created_at == NOW
    assert [type(event) for event in changed.changes] == [SamlLoginCompleted]


def new_saml_assertion_use() -> SamlAssertionUse:
    return SamlAssertionUse.create(
        assertion_id="id-9d8e7f",
        issuer="https://idp.example.com/saml",
        expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        now=NOW,
    ).committed()


def test_create_saml_assertion_use_sets_fields_and_records_saml_assertion_consumed() -> (
    None
):
    use = SamlAssertionUse.create(
        assertion_id="id-9d8e7f",
        issuer="https://idp.example.com/saml",
        expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        now=NOW,
    )
    assert use.assertion_id == "id-9d8e7f"
    assert use.issuer == "https://idp.example.com/saml"
    assert use.expires_at == datetime.fromisoformat("2030-01-02T03:04:05Z")
    assert use.created_at == use.updated_at == NOW
    assert [type(event) for event in use.changes] == [SamlAssertionConsumed]
    assert use.committed().version == 1


def test_replaying_the_events_of_a_saml_assertion_use_rebuilds_it() -> None:
    use = SamlAssertionUse.create(
        assertion_id="id-9d8e7f",
        issuer="https://idp.example.com/saml",
        expires_at=datetime.fromisoformat("2030-01-02T03:04:05Z"),
        now=NOW,
    )
    assert SamlAssertionUse.from_history(use.changes) == use.committed()


def test_a_stored_tenant_status_changed_of_version_1_is_read_as_version_2() -> None:
    payload = EVENTS.upcast(
        "TenantStatusChanged",
        1,
        {
            "tenant_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
            "status": "ACTIVE",
            "occurred_at": "2030-01-02T03:04:05Z",
        },
    )
    assert sorted(payload) == ["occurred_at", "status", "tenant_id"]
    assert payload == {
        "tenant_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
        "status": "ACTIVE",
        "occurred_at": "2030-01-02T03:04:05Z",
    }
    assert isinstance(from_dict(TenantStatusChanged, payload), TenantStatusChanged)


def test_a_stored_user_created_of_version_1_is_read_as_version_2() -> None:
    payload = EVENTS.upcast(
        "UserCreated",
        1,
        {
            "user_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
            "username": "username",
            "email": "email",
            "roles": [],
            "attributes": {},
            "occurred_at": "2030-01-02T03:04:05Z",
            "password_hash": "password",
        },
    )
    assert sorted(payload) == [
        "attributes",
        "email",
        "occurred_at",
        "password",
        "roles",
        "user_id",
        "username",
    ]
    assert payload == {
        "user_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
        "username": "username",
        "email": "email",
        "password": "password",
        "roles": [],
        "attributes": {},
        "occurred_at": "2030-01-02T03:04:05Z",
    }
    assert isinstance(from_dict(UserCreated, payload), UserCreated)


def test_a_stored_user_password_changed_of_version_1_is_read_as_version_2() -> None:
    payload = EVENTS.upcast(
        "UserPasswordChanged",
        1,
        {
            "user_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
            "occurred_at": "2030-01-02T03:04:05Z",
            "password_hash": "password",
        },
    )
    assert sorted(payload) == ["occurred_at", "password", "user_id"]
    assert payload == {
        "user_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
        "password": "password",
        "occurred_at": "2030-01-02T03:04:05Z",
    }
    assert isinstance(from_dict(UserPasswordChanged, payload), UserPasswordChanged)


def test_a_stored_role_created_of_version_1_is_read_as_version_2() -> None:
    payload = EVENTS.upcast(
        "RoleCreated",
        1,
        {
            "role_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
            "name": "name",
            "permissions": [],
            "occurred_at": "2030-01-02T03:04:05Z",
        },
    )
    assert sorted(payload) == [
        "description",
        "name",
        "occurred_at",
        "permissions",
        "role_id",
    ]
    assert payload == {
        "role_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
        "name": "name",
        "permissions": [],
        "description": "",
        "occurred_at": "2030-01-02T03:04:05Z",
    }
    assert isinstance(from_dict(RoleCreated, payload), RoleCreated)


def test_a_stored_policy_created_of_version_1_is_read_as_version_2() -> None:
    payload = EVENTS.upcast(
        "PolicyCreated",
        1,
        {
            "policy_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
            "name": "name",
            "effect": "allow",
            "permissions": [],
            "conditions": "[]",
            "occurred_at": "2030-01-02T03:04:05Z",
        },
    )
    assert sorted(payload) == [
        "conditions",
        "effect",
        "name",
        "occurred_at",
        "permissions",
        "policy_id",
    ]
    assert payload == {
        "policy_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
        "name": "name",
        "effect": "allow",
        "permissions": [],
        "conditions": [],
        "occurred_at": "2030-01-02T03:04:05Z",
    }
    assert isinstance(from_dict(PolicyCreated, payload), PolicyCreated)


def test_a_stored_policy_changed_of_version_1_is_read_as_version_2() -> None:
    payload = EVENTS.upcast(
        "PolicyChanged",
        1,
        {
            "policy_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
            "effect": "allow",
            "permissions": [],
            "conditions": "[]",
            "occurred_at": "2030-01-02T03:04:05Z",
            "name": "a value the next version dropped",
        },
    )
    assert sorted(payload) == [
        "conditions",
        "effect",
        "occurred_at",
        "permissions",
        "policy_id",
    ]
    assert payload == {
        "policy_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
        "effect": "allow",
        "permissions": [],
        "conditions": [],
        "occurred_at": "2030-01-02T03:04:05Z",
    }
    assert isinstance(from_dict(PolicyChanged, payload), PolicyChanged)


def test_a_stored_service_account_created_of_version_1_is_read_as_version_2() -> None:
    payload = EVENTS.upcast(
        "ServiceAccountCreated",
        1,
        {
            "service_account_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
            "client_id": "clientId",
            "roles": [],
            "occurred_at": "2030-01-02T03:04:05Z",
            "secret_hash": "clientSecret",
        },
    )
    assert sorted(payload) == [
        "client_id",
        "client_secret",
        "occurred_at",
        "roles",
        "service_account_id",
    ]
    assert payload == {
        "service_account_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
        "client_id": "clientId",
        "client_secret": "clientSecret",
        "roles": [],
        "occurred_at": "2030-01-02T03:04:05Z",
    }
    assert isinstance(from_dict(ServiceAccountCreated, payload), ServiceAccountCreated)


def test_a_stored_service_account_secret_changed_of_version_1_is_read_as_version_2() -> (
    None
):
    payload = EVENTS.upcast(
        "ServiceAccountSecretChanged",
        1,
        {
            "service_account_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
            "occurred_at": "2030-01-02T03:04:05Z",
            "secret_hash": "clientSecret",
        },
    )
    assert sorted(payload) == ["client_secret", "occurred_at", "service_account_id"]
    assert payload == {
        "service_account_id": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
        "client_secret": "clientSecret",
        "occurred_at": "2030-01-02T03:04:05Z",
    }
    assert isinstance(
        from_dict(ServiceAccountSecretChanged, payload), ServiceAccountSecretChanged
    )


def test_a_stored_client_registered_of_version_1_is_read_as_version_2() -> None:
    payload = EVENTS.upcast(
        "ClientRegistered",
        1,
        {
            "client_uuid": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
            "client_id": "clientId",
            "name": "name",
            "client_type": "confidential",
            "grant_types": [],
            "redirect_uris": [],
            "post_logout_redirect_uris": [],
            "scopes": [],
            "first_party": True,
            "occurred_at": "2030-01-02T03:04:05Z",
            "secret_hash": "clientSecret",
        },
    )
    assert sorted(payload) == [
        "client_id",
        "client_secret",
        "client_type",
        "client_uuid",
        "first_party",
        "grant_types",
        "name",
        "occurred_at",
        "post_logout_redirect_uris",
        "redirect_uris",
        "scopes",
    ]
    assert payload == {
        "client_uuid": "3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f",
        "client_id": "clientId",
        "name": "name",
        "client_type": "confidential",
        "client_secret": "clientSecret",
        "grant_types": [],
        "redirect_uris": [],
        "post_logout_redirect_uris": [],
        "scopes": [],
        "first_party": True,
        "occurred_at": "2030-01-02T03:04:05Z",
    }
    assert isinstance(from_dict(ClientRegistered, payload), ClientRegistered)
