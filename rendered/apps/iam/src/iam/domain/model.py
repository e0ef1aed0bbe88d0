# Generated from spec iam by `generate`; edits are merged on re-render.

"""Iam aggregates: event-sourced state, rules, and the events their
commands emit (the state is the fold of those events)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Self
from uuid import UUID, uuid4

from eaf.domain import AggregateRoot

from iam.domain.errors import (
    DomainValidationError,
    ServiceAccountDisabled,
    UserStatusRefused,
    Violation,
    is_blank,
    matches,
    with_value,
)
from iam.domain.events import (
    AccessTokenRevoked,
    ClientRegistered,
    ClientStatusChanged,
    DomainEvent,
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
from iam.domain.types import (
    ClientType,
    GrantType,
    PolicyCondition,
    PolicyEffect,
    TenantStatus,
)


@dataclass(frozen=True, kw_only=True)
class Tenant(AggregateRoot[DomainEvent]):
    """A tenant."""

    name: str
    admin_user_id: str
    status: TenantStatus = TenantStatus.ACTIVE

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case TenantCreatedEvent():
                return cls(
                    id=str(event.tenant_id),
                    name=event.name,
                    admin_user_id=event.admin_user_id,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a Tenant")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case TenantStatusChanged():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started Tenant")

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_name(self.name))
        return found

    @classmethod
    def create(
        cls, *, name: str, admin_user_id: str, now: datetime, id: str | None = None
    ) -> Self:
        """create a new tenant; fails when a value breaks a rule."""
        event = TenantCreatedEvent(
            tenant_id=UUID(id) if id is not None else uuid4(),
            name=name,
            admin_user_id=admin_user_id,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def change_status(self, *, status: TenantStatus, now: datetime) -> Self:
        """Apply changeStatus to this tenant; fails when a value breaks a rule or its guard."""
        event = TenantStatusChanged(
            tenant_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_name(value: str, path: str = "name") -> list[Violation]:
        """The rules of ``name`` that ``value`` breaks."""
        found: list[Violation] = []
        if is_blank(value):
            found.append(Violation(path, "Tenant name cannot be blank"))
        if len(value) > 100:
            found.append(Violation(path, "Tenant name is at most 100 characters"))
        return found


@dataclass(frozen=True, kw_only=True)
class User(AggregateRoot[DomainEvent]):
    """A user."""

    username: str
    email: str
    password: str
    roles: list[str] = field(default_factory=lambda: ["user"])
    attributes: dict[str, str] = field(default_factory=dict)
    status: str = "ACTIVE"

    def __post_init__(self) -> None:
        # gone_when: status == 'DELETED' (then it counts as deleted, and stays so)
        if self.status == "DELETED":
            object.__setattr__(self, "archived", True)

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case UserCreated():
                return cls(
                    id=str(event.user_id),
                    username=event.username,
                    email=event.email,
                    password=event.password,
                    roles=event.roles,
                    attributes=event.attributes,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a User")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case UserStatusChanged():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
            case UserRolesChanged():
                return replace(
                    self,
                    roles=event.roles,
                    updated_at=event.occurred_at,
                )
            case UserAttributesChanged():
                return replace(
                    self,
                    attributes=event.attributes,
                    updated_at=event.occurred_at,
                )
            case UserPasswordChanged():
                return replace(
                    self,
                    password=event.password,
                    updated_at=event.occurred_at,
                )
            case UserChanged():
                return replace(
                    self,
                    password=event.password,
                    roles=event.roles,
                    attributes=event.attributes,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started User")

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_username(self.username))
        found.extend(self.check_email(self.email))
        found.extend(self.check_roles(self.roles))
        return found

    @classmethod
    def create(
        cls,
        *,
        username: str,
        email: str,
        password: str,
        roles: list[str],
        attributes: dict[str, str],
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """create a new user; fails when a value breaks a rule."""
        event = UserCreated(
            user_id=UUID(id) if id is not None else uuid4(),
            username=username,
            email=email,
            password=password,
            roles=roles,
            attributes=attributes,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def change_status(self, *, status: str, now: datetime) -> Self:
        """Apply changeStatus to this user; fails when a value breaks a rule or its guard."""
        event = UserStatusChanged(
            user_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def change_roles(self, *, roles: list[str], now: datetime) -> Self:
        """Apply changeRoles to this user; fails when a value breaks a rule or its guard."""
        event = UserRolesChanged(
            user_id=UUID(self.id),
            roles=roles,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def change_attributes(self, *, attributes: dict[str, str], now: datetime) -> Self:
        """Apply changeAttributes to this user; fails when a value breaks a rule or its guard."""
        event = UserAttributesChanged(
            user_id=UUID(self.id),
            attributes=attributes,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def change_password(self, *, password: str, now: datetime) -> Self:
        """Apply changePassword to this user; fails when a value breaks a rule or its guard."""
        event = UserPasswordChanged(
            user_id=UUID(self.id),
            password=password,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def change(
        self,
        *,
        status: str,
        roles: list[str],
        attributes: dict[str, str],
        password: str,
        now: datetime,
    ) -> Self:
        """Apply change to this user; fails when a value breaks a rule or its guard."""
        DomainValidationError.raise_for(
            [
                *self.check_roles(roles),
            ]
        )
        if status not in ["ACTIVE", "DISABLED"]:
            raise UserStatusRefused()
        event = UserChanged(
            user_id=UUID(self.id),
            status=status,
            roles=roles,
            attributes=attributes,
            password=password,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def remove(self, *, now: datetime) -> Self:
        """Apply remove to this user; fails when a value breaks a rule or its guard."""
        status = "DELETED"
        event = UserStatusChanged(
            user_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_username(value: str, path: str = "username") -> list[Violation]:
        """The rules of ``username`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[A-Za-z0-9._@-]{1,64})$", value):
            found.append(Violation(path, "Username is 1-64 letters, digits or . _ @ -"))
        return found

    @staticmethod
    def check_email(value: str, path: str = "email") -> list[Violation]:
        """The rules of ``email`` that ``value`` breaks."""
        found: list[Violation] = []
        if "@" not in value:
            found.append(Violation(path, "Email must be valid"))
        return found

    @staticmethod
    def check_password(value: str, path: str = "password") -> list[Violation]:
        """The rules of ``password`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) < 8:
            found.append(Violation(path, "Password is at least 8 characters"))
        return found

    @staticmethod
    def check_roles(value: list[str], path: str = "roles") -> list[Violation]:
        """The rules of ``roles`` that ``value`` breaks."""
        found: list[Violation] = []
        for index, item in enumerate(value):
            found.extend(User.check_roles_item(item, f"{path}.{index}"))
        return found

    @staticmethod
    def check_roles_item(value: str, path: str) -> list[Violation]:
        """The rules of each item of ``roles`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[ -~]{1,64})$", value):
            found.append(
                Violation(path, "Role name is 1-64 printable ASCII characters")
            )
        return found


@dataclass(frozen=True, kw_only=True)
class Role(AggregateRoot[DomainEvent]):
    """A role."""

    name: str
    permissions: list[str]
    description: str = ""

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case RoleCreated():
                return cls(
                    id=str(event.role_id),
                    name=event.name,
                    permissions=event.permissions,
                    description=event.description,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a Role")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case RoleChanged():
                return replace(
                    self,
                    permissions=event.permissions,
                    description=event.description,
                    updated_at=event.occurred_at,
                )
            case RolePermissionsChanged():
                return replace(
                    self,
                    permissions=event.permissions,
                    updated_at=event.occurred_at,
                )
            case RoleDescribed():
                return replace(
                    self,
                    description=event.description,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started Role")

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_name(self.name))
        found.extend(self.check_permissions(self.permissions))
        return found

    @classmethod
    def create(
        cls,
        *,
        name: str,
        permissions: list[str],
        description: str,
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """create a new role; fails when a value breaks a rule."""
        event = RoleCreated(
            role_id=UUID(id) if id is not None else uuid4(),
            name=name,
            permissions=permissions,
            description=description,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def change(
        self, *, permissions: list[str], description: str, now: datetime
    ) -> Self:
        """Apply change to this role; fails when a value breaks a rule or its guard."""
        event = RoleChanged(
            role_id=UUID(self.id),
            permissions=permissions,
            description=description,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def change_permissions(self, *, permissions: list[str], now: datetime) -> Self:
        """Apply changePermissions to this role; fails when a value breaks a rule or its guard."""
        event = RolePermissionsChanged(
            role_id=UUID(self.id),
            permissions=permissions,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def describe(self, *, description: str, now: datetime) -> Self:
        """Apply describe to this role; fails when a value breaks a rule or its guard."""
        event = RoleDescribed(
            role_id=UUID(self.id),
            description=description,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_name(value: str, path: str = "name") -> list[Violation]:
        """The rules of ``name`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[ -~]{1,64})$", value):
            found.append(
                Violation(path, "Role name is 1-64 printable ASCII characters")
            )
        return found

    @staticmethod
    def check_permissions(
        value: list[str], path: str = "permissions"
    ) -> list[Violation]:
        """The rules of ``permissions`` that ``value`` breaks."""
        found: list[Violation] = []
        for index, item in enumerate(value):
            found.extend(Role.check_permissions_item(item, f"{path}.{index}"))
        return found

    @staticmethod
    def check_permissions_item(value: str, path: str) -> list[Violation]:
        """The rules of each item of ``permissions`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches(
            "^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
            value,
        ):
            found.append(
                Violation(
                    path,
                    with_value(
                        "Permission {value} is not <resource>:<action> (either part may be *; letters, digits, _ . -)",
                        value,
                    ),
                )
            )
        return found


@dataclass(frozen=True, kw_only=True)
class Policy(AggregateRoot[DomainEvent]):
    """A policy."""

    name: str
    effect: PolicyEffect
    permissions: list[str]
    conditions: list[PolicyCondition] = field(default_factory=list)
    status: str = "ACTIVE"

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case PolicyCreated():
                return cls(
                    id=str(event.policy_id),
                    name=event.name,
                    effect=event.effect,
                    permissions=event.permissions,
                    conditions=event.conditions,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a Policy")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case PolicyChanged():
                return replace(
                    self,
                    effect=event.effect,
                    permissions=event.permissions,
                    conditions=event.conditions,
                    updated_at=event.occurred_at,
                )
            case PolicyStatusChanged():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started Policy")

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_permissions(self.permissions))
        found.extend(self.check_conditions(self.conditions))
        return found

    @classmethod
    def create(
        cls,
        *,
        name: str,
        effect: PolicyEffect,
        permissions: list[str],
        conditions: list[PolicyCondition],
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """create a new policy; fails when a value breaks a rule."""
        event = PolicyCreated(
            policy_id=UUID(id) if id is not None else uuid4(),
            name=name,
            effect=effect,
            permissions=permissions,
            conditions=conditions,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def change(
        self,
        *,
        effect: PolicyEffect,
        permissions: list[str],
        conditions: list[PolicyCondition],
        now: datetime,
    ) -> Self:
        """Apply change to this policy; fails when a value breaks a rule or its guard."""
        event = PolicyChanged(
            policy_id=UUID(self.id),
            effect=effect,
            permissions=permissions,
            conditions=conditions,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def disable(self, *, now: datetime) -> Self:
        """Apply disable to this policy; fails when a value breaks a rule or its guard."""
        status = "DISABLED"
        event = PolicyStatusChanged(
            policy_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_permissions(
        value: list[str], path: str = "permissions"
    ) -> list[Violation]:
        """The rules of ``permissions`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) < 1:
            found.append(Violation(path, "A policy names permissions"))
        for index, item in enumerate(value):
            found.extend(Policy.check_permissions_item(item, f"{path}.{index}"))
        return found

    @staticmethod
    def check_permissions_item(value: str, path: str) -> list[Violation]:
        """The rules of each item of ``permissions`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches(
            "^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
            value,
        ):
            found.append(
                Violation(
                    path,
                    with_value(
                        "Permission {value} is not <resource>:<action> (either part may be *; letters, digits, _ . -)",
                        value,
                    ),
                )
            )
        return found

    @staticmethod
    def check_conditions(
        value: list[PolicyCondition], path: str = "conditions", *, nested: bool = True
    ) -> list[Violation]:
        """The rules of ``conditions`` that ``value`` breaks (``nested``: its values' own too)."""
        found: list[Violation] = []
        for index, item in enumerate(value if nested else []):
            found.extend(item.problems(f"{path}.{index}."))
        return found


@dataclass(frozen=True, kw_only=True)
class ServiceAccount(AggregateRoot[DomainEvent]):
    """A service account."""

    client_id: str
    client_secret: str
    roles: list[str] = field(default_factory=list)
    status: str = "ACTIVE"

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case ServiceAccountCreated():
                return cls(
                    id=str(event.service_account_id),
                    client_id=event.client_id,
                    client_secret=event.client_secret,
                    roles=event.roles,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a ServiceAccount")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case ServiceAccountStatusChanged():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
            case ServiceAccountSecretChanged():
                return replace(
                    self,
                    client_secret=event.client_secret,
                    updated_at=event.occurred_at,
                )
        raise ValueError(
            f"{type(event).__name__} does not apply to a started ServiceAccount"
        )

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_client_id(self.client_id))
        found.extend(self.check_roles(self.roles))
        if found:
            return found
        if self.client_id == "iam":
            found.append(Violation("clientId", "iam is the public client's id"))
        return found

    @classmethod
    def create(
        cls,
        *,
        client_id: str,
        client_secret: str,
        roles: list[str],
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """create a new service account; fails when a value breaks a rule."""
        event = ServiceAccountCreated(
            service_account_id=UUID(id) if id is not None else uuid4(),
            client_id=client_id,
            client_secret=client_secret,
            roles=roles,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def change_status(self, *, status: str, now: datetime) -> Self:
        """Apply changeStatus to this service account; fails when a value breaks a rule or its guard."""
        event = ServiceAccountStatusChanged(
            service_account_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def change_secret(self, *, client_secret: str, now: datetime) -> Self:
        """Apply changeSecret to this service account; fails when a value breaks a rule or its guard."""
        if self.status != "ACTIVE":
            raise ServiceAccountDisabled()
        event = ServiceAccountSecretChanged(
            service_account_id=UUID(self.id),
            client_secret=client_secret,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def disable(self, *, now: datetime) -> Self:
        """Apply disable to this service account; fails when a value breaks a rule or its guard."""
        status = "DISABLED"
        event = ServiceAccountStatusChanged(
            service_account_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def check_client_id(value: str, path: str = "clientId") -> list[Violation]:
        """The rules of ``clientId`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[A-Za-z0-9._@-]{1,64})$", value):
            found.append(
                Violation(path, "A client id is 1-64 letters, digits or . _ @ -")
            )
        return found

    @staticmethod
    def check_roles(value: list[str], path: str = "roles") -> list[Violation]:
        """The rules of ``roles`` that ``value`` breaks."""
        found: list[Violation] = []
        for index, item in enumerate(value):
            found.extend(ServiceAccount.check_roles_item(item, f"{path}.{index}"))
        return found

    @staticmethod
    def check_roles_item(value: str, path: str) -> list[Violation]:
        """The rules of each item of ``roles`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[ -~]{1,64})$", value):
            found.append(
                Violation(path, "Role name is 1-64 printable ASCII characters")
            )
        return found


@dataclass(frozen=True, kw_only=True)
class RegisteredClient(AggregateRoot[DomainEvent]):
    """A registered client."""

    client_id: str
    name: str = ""
    client_type: ClientType
    client_secret: str | None = None
    grant_types: list[GrantType] = field(
        default_factory=lambda: [GrantType.AUTHORIZATION_CODE]
    )
    redirect_uris: list[str] = field(default_factory=list)
    post_logout_redirect_uris: list[str] = field(default_factory=list)
    scopes: list[str] = field(default_factory=lambda: ["openid", "profile", "email"])
    first_party: bool = False
    status: str = "ACTIVE"

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case ClientRegistered():
                return cls(
                    id=str(event.client_uuid),
                    client_id=event.client_id,
                    name=event.name,
                    client_type=event.client_type,
                    client_secret=event.client_secret,
                    grant_types=event.grant_types,
                    redirect_uris=event.redirect_uris,
                    post_logout_redirect_uris=event.post_logout_redirect_uris,
                    scopes=event.scopes,
                    first_party=event.first_party,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a RegisteredClient")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case ClientStatusChanged():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
        raise ValueError(
            f"{type(event).__name__} does not apply to a started RegisteredClient"
        )

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        found.extend(self.check_client_id(self.client_id))
        found.extend(self.check_name(self.name))
        found.extend(self.check_grant_types(self.grant_types))
        found.extend(self.check_redirect_uris(self.redirect_uris))
        found.extend(
            self.check_post_logout_redirect_uris(self.post_logout_redirect_uris)
        )
        found.extend(self.check_scopes(self.scopes))
        if found:
            return found
        if self.client_id == "iam":
            found.append(Violation("clientId", "iam is the public client's id"))
        if not (
            (GrantType.REFRESH_TOKEN not in self.grant_types)
            or (GrantType.AUTHORIZATION_CODE in self.grant_types)
        ):
            found.append(
                Violation("grantTypes", "refresh_token needs authorization_code")
            )
        if not (
            (GrantType.AUTHORIZATION_CODE not in self.grant_types)
            or (len(self.redirect_uris) > 0)
        ):
            found.append(
                Violation("redirectUris", "authorization_code needs a redirect URI")
            )
        if not (
            all(
                (
                    len([item_v for item_v in self.redirect_uris if (item_v == item_u)])
                    == 1
                )
                for item_u in self.redirect_uris
            )
        ):
            found.append(Violation("redirectUris", "A URI is listed twice"))
        if not (
            all(
                (
                    len(
                        [
                            item_v
                            for item_v in self.post_logout_redirect_uris
                            if (item_v == item_u)
                        ]
                    )
                    == 1
                )
                for item_u in self.post_logout_redirect_uris
            )
        ):
            found.append(Violation("postLogoutRedirectUris", "A URI is listed twice"))
        return found

    @classmethod
    def register(
        cls,
        *,
        client_id: str,
        name: str,
        client_type: ClientType,
        client_secret: str | None,
        grant_types: list[GrantType],
        redirect_uris: list[str],
        post_logout_redirect_uris: list[str],
        scopes: list[str],
        first_party: bool,
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """register a new registered client; fails when a value breaks a rule."""
        event = ClientRegistered(
            client_uuid=UUID(id) if id is not None else uuid4(),
            client_id=client_id,
            name=name,
            client_type=client_type,
            client_secret=client_secret,
            grant_types=grant_types,
            redirect_uris=redirect_uris,
            post_logout_redirect_uris=post_logout_redirect_uris,
            scopes=scopes,
            first_party=first_party,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def disable(self, *, now: datetime) -> Self:
        """Apply disable to this registered client; fails when a value breaks a rule or its guard."""
        status = "DISABLED"
        event = ClientStatusChanged(
            client_uuid=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    @staticmethod
    def makes_client_secret(
        *,
        client_type: ClientType,
    ) -> bool:
        """Whether the service makes the secret clientSecret for these values: clientType == 'confidential' (else it is null)."""
        return client_type == ClientType.CONFIDENTIAL

    @staticmethod
    def check_client_id(value: str, path: str = "clientId") -> list[Violation]:
        """The rules of ``clientId`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches("^(?:[A-Za-z0-9._@-]{1,64})$", value):
            found.append(
                Violation(path, "A client id is 1-64 letters, digits or . _ @ -")
            )
        return found

    @staticmethod
    def check_name(value: str, path: str = "name") -> list[Violation]:
        """The rules of ``name`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 100:
            found.append(Violation(path, "A client name is at most 100 characters"))
        return found

    @staticmethod
    def check_grant_types(
        value: list[GrantType], path: str = "grantTypes"
    ) -> list[Violation]:
        """The rules of ``grantTypes`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) < 1:
            found.append(Violation(path, "At least one grant type is needed"))
        return found

    @staticmethod
    def check_redirect_uris(
        value: list[str], path: str = "redirectUris"
    ) -> list[Violation]:
        """The rules of ``redirectUris`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 20:
            found.append(Violation(path, "At most 20 URIs"))
        for index, item in enumerate(value):
            found.extend(
                RegisteredClient.check_redirect_uris_item(item, f"{path}.{index}")
            )
        return found

    @staticmethod
    def check_redirect_uris_item(value: str, path: str) -> list[Violation]:
        """The rules of each item of ``redirectUris`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches(
            "^(?:(?:https://[^\\x00-\\x20\\x7f#/?@]+|http://(?:localhost|127\\.0\\.0\\.1|\\[::1\\])(?::[0-9]{1,5})?)(?:[/?][^\\x00-\\x20\\x7f#]*)?)$",
            value,
        ):
            found.append(
                Violation(
                    path,
                    with_value(
                        "URI {value} is not https, or http to a loopback host (localhost, 127.0.0.1, ::1), without a fragment",
                        value,
                    ),
                )
            )
        if len(value) > 2000:
            found.append(Violation(path, "A URI is at most 2000 characters"))
        return found

    @staticmethod
    def check_post_logout_redirect_uris(
        value: list[str], path: str = "postLogoutRedirectUris"
    ) -> list[Violation]:
        """The rules of ``postLogoutRedirectUris`` that ``value`` breaks."""
        found: list[Violation] = []
        if len(value) > 20:
            found.append(Violation(path, "At most 20 URIs"))
        for index, item in enumerate(value):
            found.extend(
                RegisteredClient.check_post_logout_redirect_uris_item(
                    item, f"{path}.{index}"
                )
            )
        return found

    @staticmethod
    def check_post_logout_redirect_uris_item(value: str, path: str) -> list[Violation]:
        """The rules of each item of ``postLogoutRedirectUris`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches(
            "^(?:(?:https://[^\\x00-\\x20\\x7f#/?@]+|http://(?:localhost|127\\.0\\.0\\.1|\\[::1\\])(?::[0-9]{1,5})?)(?:[/?][^\\x00-\\x20\\x7f#]*)?)$",
            value,
        ):
            found.append(
                Violation(
                    path,
                    with_value(
                        "URI {value} is not https, or http to a loopback host (localhost, 127.0.0.1, ::1), without a fragment",
                        value,
                    ),
                )
            )
        if len(value) > 2000:
            found.append(Violation(path, "A URI is at most 2000 characters"))
        return found

    @staticmethod
    def check_scopes(value: list[str], path: str = "scopes") -> list[Violation]:
        """The rules of ``scopes`` that ``value`` breaks."""
        found: list[Violation] = []
        for index, item in enumerate(value):
            found.extend(RegisteredClient.check_scopes_item(item, f"{path}.{index}"))
        return found

    @staticmethod
    def check_scopes_item(value: str, path: str) -> list[Violation]:
        """The rules of each item of ``scopes`` that ``value`` breaks."""
        found: list[Violation] = []
        if not matches(
            "^(?:openid|profile|email|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
            value,
        ):
            found.append(
                Violation(
                    path,
                    "A scope is openid, profile, email or a permission <resource>:<action>",
                )
            )
        return found


@dataclass(frozen=True, kw_only=True)
class RefreshTokenFamily(AggregateRoot[DomainEvent]):
    """A refresh token family."""

    subject: str
    client_id: str
    scope: str = ""
    current_hash: str
    used_hashes: list[str] = field(default_factory=list)
    status: str = "ACTIVE"

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case RefreshTokenIssued():
                return cls(
                    id=str(event.family_id),
                    subject=event.subject,
                    client_id=event.client_id,
                    scope=event.scope,
                    current_hash=event.current_hash,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a RefreshTokenFamily")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case RefreshTokenRotated():
                return replace(
                    self,
                    current_hash=event.current_hash,
                    used_hashes=event.used_hashes,
                    updated_at=event.occurred_at,
                )
            case RefreshTokenFamilyRevoked():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
        raise ValueError(
            f"{type(event).__name__} does not apply to a started RefreshTokenFamily"
        )

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        return found

    @classmethod
    def issue(
        cls,
        *,
        subject: str,
        client_id: str,
        scope: str,
        current_hash: str,
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """issue a new refresh token family; fails when a value breaks a rule."""
        event = RefreshTokenIssued(
            family_id=UUID(id) if id is not None else uuid4(),
            subject=subject,
            client_id=client_id,
            scope=scope,
            current_hash=current_hash,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def rotate(
        self, *, current_hash: str, used_hashes: list[str], now: datetime
    ) -> Self:
        """Apply rotate to this refresh token family; fails when a value breaks a rule or its guard."""
        event = RefreshTokenRotated(
            family_id=UUID(self.id),
            current_hash=current_hash,
            used_hashes=used_hashes,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def revoke(self, *, status: str, now: datetime) -> Self:
        """Apply revoke to this refresh token family; fails when a value breaks a rule or its guard."""
        event = RefreshTokenFamilyRevoked(
            family_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)


@dataclass(frozen=True, kw_only=True)
class AccessTokenRevocation(AggregateRoot[DomainEvent]):
    """An access token revocation."""

    jti: str
    expires_at: datetime

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case AccessTokenRevoked():
                return cls(
                    id=str(event.revocation_id),
                    jti=event.jti,
                    expires_at=event.expires_at,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(
            f"{type(event).__name__} does not start a AccessTokenRevocation"
        )

    def apply(self, event: DomainEvent) -> Self:
        raise ValueError(
            f"{type(event).__name__} does not apply to a started AccessTokenRevocation"
        )

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        return found

    @classmethod
    def create(
        cls, *, jti: str, expires_at: datetime, now: datetime, id: str | None = None
    ) -> Self:
        """create a new access token revocation; fails when a value breaks a rule."""
        event = AccessTokenRevoked(
            revocation_id=UUID(id) if id is not None else uuid4(),
            jti=jti,
            expires_at=expires_at,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)


@dataclass(frozen=True, kw_only=True)
class SamlIdentityProvider(AggregateRoot[DomainEvent]):
    """A saml identity provider."""

    alias: str
    metadata_xml: str = ""
    entity_id: str
    sso_url: str
    signing_certificate: str = ""
    binding: str = "HTTP-Redirect"
    sign_requests: bool = True
    name_id_format: str = "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"
    attribute_mappers: str = "[]"
    role_mappers: str = "[]"
    first_sign_in: str = "create"
    trust_email: bool = False
    enabled: bool = True
    status: str = "ACTIVE"

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case SamlIdentityProviderCreated():
                return cls(
                    id=str(event.provider_id),
                    alias=event.alias,
                    metadata_xml=event.metadata_xml,
                    entity_id=event.entity_id,
                    sso_url=event.sso_url,
                    signing_certificate=event.signing_certificate,
                    binding=event.binding,
                    sign_requests=event.sign_requests,
                    name_id_format=event.name_id_format,
                    attribute_mappers=event.attribute_mappers,
                    role_mappers=event.role_mappers,
                    first_sign_in=event.first_sign_in,
                    trust_email=event.trust_email,
                    enabled=event.enabled,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(
            f"{type(event).__name__} does not start a SamlIdentityProvider"
        )

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case SamlIdentityProviderChanged():
                return replace(
                    self,
                    metadata_xml=event.metadata_xml,
                    entity_id=event.entity_id,
                    sso_url=event.sso_url,
                    signing_certificate=event.signing_certificate,
                    binding=event.binding,
                    sign_requests=event.sign_requests,
                    name_id_format=event.name_id_format,
                    attribute_mappers=event.attribute_mappers,
                    role_mappers=event.role_mappers,
                    first_sign_in=event.first_sign_in,
                    trust_email=event.trust_email,
                    enabled=event.enabled,
                    updated_at=event.occurred_at,
                )
            case SamlIdentityProviderStatusChanged():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
        raise ValueError(
            f"{type(event).__name__} does not apply to a started SamlIdentityProvider"
        )

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        return found

    @classmethod
    def create(
        cls,
        *,
        alias: str,
        metadata_xml: str,
        entity_id: str,
        sso_url: str,
        signing_certificate: str,
        binding: str,
        sign_requests: bool,
        name_id_format: str,
        attribute_mappers: str,
        role_mappers: str,
        first_sign_in: str,
        trust_email: bool,
        enabled: bool,
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """create a new saml identity provider; fails when a value breaks a rule."""
        event = SamlIdentityProviderCreated(
            provider_id=UUID(id) if id is not None else uuid4(),
            alias=alias,
            metadata_xml=metadata_xml,
            entity_id=entity_id,
            sso_url=sso_url,
            signing_certificate=signing_certificate,
            binding=binding,
            sign_requests=sign_requests,
            name_id_format=name_id_format,
            attribute_mappers=attribute_mappers,
            role_mappers=role_mappers,
            first_sign_in=first_sign_in,
            trust_email=trust_email,
            enabled=enabled,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def change(
        self,
        *,
        metadata_xml: str,
        entity_id: str,
        sso_url: str,
        signing_certificate: str,
        binding: str,
        sign_requests: bool,
        name_id_format: str,
        attribute_mappers: str,
        role_mappers: str,
        first_sign_in: str,
        trust_email: bool,
        enabled: bool,
        now: datetime,
    ) -> Self:
        """Apply change to this saml identity provider; fails when a value breaks a rule or its guard."""
        event = SamlIdentityProviderChanged(
            provider_id=UUID(self.id),
            metadata_xml=metadata_xml,
            entity_id=entity_id,
            sso_url=sso_url,
            signing_certificate=signing_certificate,
            binding=binding,
            sign_requests=sign_requests,
            name_id_format=name_id_format,
            attribute_mappers=attribute_mappers,
            role_mappers=role_mappers,
            first_sign_in=first_sign_in,
            trust_email=trust_email,
            enabled=enabled,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)

    def change_status(self, *, status: str, now: datetime) -> Self:
        """Apply changeStatus to this saml identity provider; fails when a value breaks a rule or its guard."""
        event = SamlIdentityProviderStatusChanged(
            provider_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)


@dataclass(frozen=True, kw_only=True)
class SamlLoginRequest(AggregateRoot[DomainEvent]):
    """A saml login request."""

    request_id: str
    provider_alias: str
    relay_state: str = ""
    expires_at: datetime
    status: str = "PENDING"

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case SamlLoginStarted():
                return cls(
                    id=str(event.login_request_id),
                    request_id=event.request_id,
                    provider_alias=event.provider_alias,
                    relay_state=event.relay_state,
                    expires_at=event.expires_at,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a SamlLoginRequest")

    def apply(self, event: DomainEvent) -> Self:
        match event:
            case SamlLoginCompleted():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
        raise ValueError(
            f"{type(event).__name__} does not apply to a started SamlLoginRequest"
        )

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        return found

    @classmethod
    def start(
        cls,
        *,
        request_id: str,
        provider_alias: str,
        relay_state: str,
        expires_at: datetime,
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """start a new saml login request; fails when a value breaks a rule."""
        event = SamlLoginStarted(
            login_request_id=UUID(id) if id is not None else uuid4(),
            request_id=request_id,
            provider_alias=provider_alias,
            relay_state=relay_state,
            expires_at=expires_at,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)

    def complete(self, *, status: str, now: datetime) -> Self:
        """Apply complete to this saml login request; fails when a value breaks a rule or its guard."""
        event = SamlLoginCompleted(
            login_request_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).checked(now).record(event)


@dataclass(frozen=True, kw_only=True)
class SamlAssertionUse(AggregateRoot[DomainEvent]):
    """A saml assertion use."""

    assertion_id: str
    issuer: str
    expires_at: datetime

    @classmethod
    def started_by(cls, event: DomainEvent) -> Self:
        match event:
            case SamlAssertionConsumed():
                return cls(
                    id=str(event.assertion_use_id),
                    assertion_id=event.assertion_id,
                    issuer=event.issuer,
                    expires_at=event.expires_at,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a SamlAssertionUse")

    def apply(self, event: DomainEvent) -> Self:
        raise ValueError(
            f"{type(event).__name__} does not apply to a started SamlAssertionUse"
        )

    def problems(self, now: datetime) -> list[Violation]:
        found: list[Violation] = []
        return found

    @classmethod
    def create(
        cls,
        *,
        assertion_id: str,
        issuer: str,
        expires_at: datetime,
        now: datetime,
        id: str | None = None,
    ) -> Self:
        """create a new saml assertion use; fails when a value breaks a rule."""
        event = SamlAssertionConsumed(
            assertion_use_id=UUID(id) if id is not None else uuid4(),
            assertion_id=assertion_id,
            issuer=issuer,
            expires_at=expires_at,
            occurred_at=now,
        )
        return cls.started_by(event).checked(now).record(event)


def check_call_directory_create_tenant_name(
    value: str, path: str = "name"
) -> list[Violation]:
    """The rules of ``name`` (an input of directory.create_tenant, like Tenant.name) that ``value`` breaks."""
    return Tenant.check_name(value, path)


def check_call_directory_create_tenant_admin_username(
    value: str, path: str = "adminUsername"
) -> list[Violation]:
    """The rules of ``adminUsername`` (an input of directory.create_tenant, like User.username) that ``value`` breaks."""
    return User.check_username(value, path)


def check_call_directory_create_tenant_admin_email(
    value: str, path: str = "adminEmail"
) -> list[Violation]:
    """The rules of ``adminEmail`` (an input of directory.create_tenant, like User.email) that ``value`` breaks."""
    return User.check_email(value, path)


def check_call_directory_create_tenant_admin_password(
    value: str, path: str = "adminPassword"
) -> list[Violation]:
    """The rules of ``adminPassword`` (an input of directory.create_tenant, like User.password) that ``value`` breaks."""
    return User.check_password(value, path)


def check_call_access_decide_permission(
    value: str, path: str = "permission"
) -> list[Violation]:
    """The rules of ``permission`` (an input of access.decide) that ``value`` breaks."""
    found: list[Violation] = []
    if not matches(
        "^(?:\\*|(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*):(?:\\*|[A-Za-z0-9][A-Za-z0-9_.-]*))$",
        value,
    ):
        found.append(
            Violation(
                path,
                with_value(
                    "Permission {value} is not <resource>:<action> (either part may be *; letters, digits, _ . -)",
                    value,
                ),
            )
        )
    return found


def check_cli_create_platform_admin_username(
    value: str, path: str = "username"
) -> list[Violation]:
    """The rules of ``username`` (an option of iam-admin create-platform-admin, like User.username) that ``value`` breaks."""
    return User.check_username(value, path)


def check_cli_create_platform_admin_email(
    value: str | None, path: str = "email"
) -> list[Violation]:
    """The rules of ``email`` (an option of iam-admin create-platform-admin, like User.email) that ``value`` breaks."""
    if value is None:
        return []
    return User.check_email(value, path)


def check_cli_create_platform_admin_password(
    value: str, path: str = "password"
) -> list[Violation]:
    """The rules of ``password`` (an option of iam-admin create-platform-admin, like User.password) that ``value`` breaks."""
    return User.check_password(value, path)
