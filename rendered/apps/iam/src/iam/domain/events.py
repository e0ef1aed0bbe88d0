# Generated from spec iam by `generate`; edits are merged on re-render.

"""Events of the iam domain, with their schema versions. A field with a
default is filled with it when a stored event predates the field."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeAlias
from uuid import UUID

from iam.domain.types import (
    ClientType,
    GrantType,
    PolicyCondition,
    PolicyEffect,
    TenantStatus,
)


@dataclass(frozen=True, kw_only=True)
class TenantCreatedEvent:
    """Tenant created event (v1)."""

    tenant_id: UUID
    name: str
    admin_user_id: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class TenantStatusChanged:
    """Tenant status changed (v2)."""

    tenant_id: UUID
    status: TenantStatus
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class UserCreated:
    """User created (v2)."""

    user_id: UUID
    username: str
    email: str
    password: str
    roles: list[str]
    attributes: dict[str, str]
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class UserStatusChanged:
    """User status changed (v1)."""

    user_id: UUID
    status: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class UserRolesChanged:
    """User roles changed (v1)."""

    user_id: UUID
    roles: list[str]
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class UserAttributesChanged:
    """User attributes changed (v1)."""

    user_id: UUID
    attributes: dict[str, str]
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class UserPasswordChanged:
    """User password changed (v2)."""

    user_id: UUID
    password: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class RoleCreated:
    """Role created (v2)."""

    role_id: UUID
    name: str
    permissions: list[str]
    description: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class RoleChanged:
    """Role changed (v1)."""

    role_id: UUID
    permissions: list[str]
    description: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class RolePermissionsChanged:
    """Role permissions changed (v1)."""

    role_id: UUID
    permissions: list[str]
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class RoleDescribed:
    """Role described (v1)."""

    role_id: UUID
    description: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class PolicyCreated:
    """Policy created (v2)."""

    policy_id: UUID
    name: str
    effect: PolicyEffect
    permissions: list[str]
    conditions: list[PolicyCondition]
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class PolicyChanged:
    """Policy changed (v2)."""

    policy_id: UUID
    effect: PolicyEffect
    permissions: list[str]
    conditions: list[PolicyCondition]
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class PolicyStatusChanged:
    """Policy status changed (v1)."""

    policy_id: UUID
    status: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class ServiceAccountCreated:
    """Service account created (v2)."""

    service_account_id: UUID
    client_id: str
    client_secret: str
    roles: list[str]
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class ServiceAccountStatusChanged:
    """Service account status changed (v1)."""

    service_account_id: UUID
    status: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class ServiceAccountSecretChanged:
    """Service account secret changed (v2)."""

    service_account_id: UUID
    client_secret: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class ClientRegistered:
    """Client registered (v2)."""

    client_uuid: UUID
    client_id: str
    name: str
    client_type: ClientType
    client_secret: str | None = None
    grant_types: list[GrantType]
    redirect_uris: list[str]
    post_logout_redirect_uris: list[str]
    scopes: list[str]
    first_party: bool
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class ClientStatusChanged:
    """Client status changed (v1)."""

    client_uuid: UUID
    status: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class RefreshTokenIssued:
    """Refresh token issued (v1)."""

    family_id: UUID
    subject: str
    client_id: str
    scope: str
    current_hash: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class RefreshTokenRotated:
    """Refresh token rotated (v1)."""

    family_id: UUID
    current_hash: str
    used_hashes: list[str]
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class RefreshTokenFamilyRevoked:
    """Refresh token family revoked (v1)."""

    family_id: UUID
    status: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class AccessTokenRevoked:
    """Access token revoked (v1)."""

    revocation_id: UUID
    jti: str
    expires_at: datetime
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SamlIdentityProviderCreated:
    """Saml identity provider created (v1)."""

    provider_id: UUID
    alias: str
    metadata_xml: str
    entity_id: str
    sso_url: str
    signing_certificate: str
    binding: str
    sign_requests: bool
    name_id_format: str
    attribute_mappers: str
    role_mappers: str
    first_sign_in: str
    trust_email: bool
    enabled: bool
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SamlIdentityProviderChanged:
    """Saml identity provider changed (v1)."""

    provider_id: UUID
    metadata_xml: str
    entity_id: str
    sso_url: str
    signing_certificate: str
    binding: str
    sign_requests: bool
    name_id_format: str
    attribute_mappers: str
    role_mappers: str
    first_sign_in: str
    trust_email: bool
    enabled: bool
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SamlIdentityProviderStatusChanged:
    """Saml identity provider status changed (v1)."""

    provider_id: UUID
    status: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SamlLoginStarted:
    """Saml login started (v1)."""

    login_request_id: UUID
    request_id: str
    provider_alias: str
    relay_state: str
    expires_at: datetime
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SamlLoginCompleted:
    """Saml login completed (v1)."""

    login_request_id: UUID
    status: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class SamlAssertionConsumed:
    """Saml assertion consumed (v1)."""

    assertion_use_id: UUID
    assertion_id: str
    issuer: str
    expires_at: datetime
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class UserChanged:
    """User changed (v1)."""

    user_id: UUID
    status: str = "ACTIVE"
    roles: list[str] = field(default_factory=lambda: ["user"])
    attributes: dict[str, str] = field(default_factory=dict)
    password: str
    occurred_at: datetime


DomainEvent: TypeAlias = (
    TenantCreatedEvent
    | TenantStatusChanged
    | UserCreated
    | UserStatusChanged
    | UserRolesChanged
    | UserAttributesChanged
    | UserPasswordChanged
    | RoleCreated
    | RoleChanged
    | RolePermissionsChanged
    | RoleDescribed
    | PolicyCreated
    | PolicyChanged
    | PolicyStatusChanged
    | ServiceAccountCreated
    | ServiceAccountStatusChanged
    | ServiceAccountSecretChanged
    | ClientRegistered
    | ClientStatusChanged
    | RefreshTokenIssued
    | RefreshTokenRotated
    | RefreshTokenFamilyRevoked
    | AccessTokenRevoked
    | SamlIdentityProviderCreated
    | SamlIdentityProviderChanged
    | SamlIdentityProviderStatusChanged
    | SamlLoginStarted
    | SamlLoginCompleted
    | SamlAssertionConsumed
    | UserChanged
)

SCHEMA_VERSIONS: dict[str, int] = {
    "TenantCreatedEvent": 1,
    "TenantStatusChanged": 2,
    "UserCreated": 2,
    "UserStatusChanged": 1,
    "UserRolesChanged": 1,
    "UserAttributesChanged": 1,
    "UserPasswordChanged": 2,
    "RoleCreated": 2,
    "RoleChanged": 1,
    "RolePermissionsChanged": 1,
    "RoleDescribed": 1,
    "PolicyCreated": 2,
    "PolicyChanged": 2,
    "PolicyStatusChanged": 1,
    "ServiceAccountCreated": 2,
    "ServiceAccountStatusChanged": 1,
    "ServiceAccountSecretChanged": 2,
    "ClientRegistered": 2,
    "ClientStatusChanged": 1,
    "RefreshTokenIssued": 1,
    "RefreshTokenRotated": 1,
    "RefreshTokenFamilyRevoked": 1,
    "AccessTokenRevoked": 1,
    "SamlIdentityProviderCreated": 1,
    "SamlIdentityProviderChanged": 1,
    "SamlIdentityProviderStatusChanged": 1,
    "SamlLoginStarted": 1,
    "SamlLoginCompleted": 1,
    "SamlAssertionConsumed": 1,
    "UserChanged": 1,
}
