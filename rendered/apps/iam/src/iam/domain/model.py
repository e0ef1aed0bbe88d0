# Generated from spec iam by `generate`; edits are merged on re-render.

"""Iam aggregates: event-sourced state, rules, and the events
their commands emit (the state is the fold of those events)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from uuid import UUID, uuid4

from iam.domain.errors import DomainValidationError
from iam.domain.events import (
    AccessTokenRevoked,
    DomainEvent,
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


@dataclass(frozen=True, kw_only=True)
class Tenant:
    """A tenant."""

    id: str
    name: str
    admin_user_id: str
    status: str = "ACTIVE"
    created_at: datetime
    updated_at: datetime
    version: int = 0
    changes: tuple[DomainEvent, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_history(cls, events: Sequence[DomainEvent]) -> Tenant:
        """Rebuild the aggregate by replaying its stored events, oldest first."""
        state: Tenant | None = None
        for event in events:
            state = cls._started_by(event) if state is None else state.apply(event)
        if state is None:
            raise ValueError("a Tenant needs at least its creating event")
        return replace(state, version=len(events))

    @classmethod
    def _started_by(cls, event: DomainEvent) -> Tenant:
        match event:
            case TenantCreatedEvent():
                return cls(
                    id=str(event.tenant_id),
                    name=event.name,
                    admin_user_id=event.admin_user_id,
                    status="ACTIVE",
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a Tenant")

    def apply(self, event: DomainEvent) -> Tenant:
        """This state with ``event`` folded in."""
        match event:
            case TenantStatusChanged():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started Tenant")

    @classmethod
    def create(
        cls, *, name: str, admin_user_id: str, now: datetime, id: str | None = None
    ) -> Tenant:
        """Create a tenant; fails when a value breaks a rule."""
        cls.validate_name(name)
        event = TenantCreatedEvent(
            tenant_id=UUID(id) if id is not None else uuid4(),
            name=name,
            admin_user_id=admin_user_id,
            occurred_at=now,
        )
        return cls._started_by(event).record(event)

    def change_status(self, *, status: str, now: datetime) -> Tenant:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        event = TenantStatusChanged(
            tenant_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).record(event)

    def record(self, event: DomainEvent) -> Tenant:
        """This state with ``event`` pending for the next save."""
        return replace(self, changes=(*self.changes, event))

    def committed(self) -> Tenant:
        """This state once its pending events are stored."""
        return replace(self, version=self.version + len(self.changes), changes=())

    @staticmethod
    def validate_name(name: str) -> None:
        """Enforce the rules of ``name``."""
        if not name.strip():
            raise DomainValidationError("name", "Tenant name cannot be blank")
        if len(name) > 100:
            raise DomainValidationError("name", "Tenant name is at most 100 characters")


@dataclass(frozen=True, kw_only=True)
class User:
    """A user."""

    id: str
    username: str
    email: str
    password_hash: str
    roles: list[str]
    attributes: dict[str, str]
    status: str = "ACTIVE"
    created_at: datetime
    updated_at: datetime
    version: int = 0
    changes: tuple[DomainEvent, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_history(cls, events: Sequence[DomainEvent]) -> User:
        """Rebuild the aggregate by replaying its stored events, oldest first."""
        state: User | None = None
        for event in events:
            state = cls._started_by(event) if state is None else state.apply(event)
        if state is None:
            raise ValueError("a User needs at least its creating event")
        return replace(state, version=len(events))

    @classmethod
    def _started_by(cls, event: DomainEvent) -> User:
        match event:
            case UserCreated():
                return cls(
                    id=str(event.user_id),
                    username=event.username,
                    email=event.email,
                    password_hash=event.password_hash,
                    roles=event.roles,
                    attributes=event.attributes,
                    status="ACTIVE",
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a User")

    def apply(self, event: DomainEvent) -> User:
        """This state with ``event`` folded in."""
        match event:
            case UserAttributesChanged():
                return replace(
                    self,
                    attributes=event.attributes,
                    updated_at=event.occurred_at,
                )
            case UserPasswordChanged():
                return replace(
                    self,
                    password_hash=event.password_hash,
                    updated_at=event.occurred_at,
                )
            case UserRolesChanged():
                return replace(
                    self,
                    roles=event.roles,
                    updated_at=event.occurred_at,
                )
            case UserStatusChanged():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started User")

    @classmethod
    def create(
        cls,
        *,
        username: str,
        email: str,
        password_hash: str,
        roles: list[str],
        attributes: dict[str, str],
        now: datetime,
        id: str | None = None,
    ) -> User:
        """Create a user; fails when a value breaks a rule."""
        cls.validate_username(username)
        cls.validate_email(email)
        event = UserCreated(
            user_id=UUID(id) if id is not None else uuid4(),
            username=username,
            email=email,
            password_hash=password_hash,
            roles=roles,
            attributes=attributes,
            occurred_at=now,
        )
        return cls._started_by(event).record(event)

    def change_status(self, *, status: str, now: datetime) -> User:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        event = UserStatusChanged(
            user_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).record(event)

    def change_roles(self, *, roles: list[str], now: datetime) -> User:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        event = UserRolesChanged(
            user_id=UUID(self.id),
            roles=roles,
            occurred_at=now,
        )
        return self.apply(event).record(event)

    def change_attributes(self, *, attributes: dict[str, str], now: datetime) -> User:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        event = UserAttributesChanged(
            user_id=UUID(self.id),
            attributes=attributes,
            occurred_at=now,
        )
        return self.apply(event).record(event)

    def change_password(self, *, password_hash: str, now: datetime) -> User:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        event = UserPasswordChanged(
            user_id=UUID(self.id),
            password_hash=password_hash,
            occurred_at=now,
        )
        return self.apply(event).record(event)

    def record(self, event: DomainEvent) -> User:
        """This state with ``event`` pending for the next save."""
        return replace(self, changes=(*self.changes, event))

    def committed(self) -> User:
        """This state once its pending events are stored."""
        return replace(self, version=self.version + len(self.changes), changes=())

    @staticmethod
    def validate_username(username: str) -> None:
        """Enforce the rules of ``username``."""
        if re.fullmatch("^[A-Za-z0-9._@-]{1,64}$", username) is None:
            raise DomainValidationError(
                "username", "Username is 1-64 letters, digits or . _ @ -"
            )

    @staticmethod
    def validate_email(email: str) -> None:
        """Enforce the rules of ``email``."""
        if "@" not in email:
            raise DomainValidationError("email", "Email must be valid")


@dataclass(frozen=True, kw_only=True)
class Role:
    """A role."""

    id: str
    name: str
    permissions: list[str]
    description: str = ""
    created_at: datetime
    updated_at: datetime
    version: int = 0
    changes: tuple[DomainEvent, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_history(cls, events: Sequence[DomainEvent]) -> Role:
        """Rebuild the aggregate by replaying its stored events, oldest first."""
        state: Role | None = None
        for event in events:
            state = cls._started_by(event) if state is None else state.apply(event)
        if state is None:
            raise ValueError("a Role needs at least its creating event")
        return replace(state, version=len(events))

    @classmethod
    def _started_by(cls, event: DomainEvent) -> Role:
        match event:
            case RoleCreated():
                return cls(
                    id=str(event.role_id),
                    name=event.name,
                    permissions=event.permissions,
                    description="",
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a Role")

    def apply(self, event: DomainEvent) -> Role:
        """This state with ``event`` folded in."""
        match event:
            case RoleDescribed():
                return replace(
                    self,
                    description=event.description,
                    updated_at=event.occurred_at,
                )
            case RolePermissionsChanged():
                return replace(
                    self,
                    permissions=event.permissions,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not apply to a started Role")

    @classmethod
    def create(
        cls, *, name: str, permissions: list[str], now: datetime, id: str | None = None
    ) -> Role:
        """Create a role; fails when a value breaks a rule."""
        event = RoleCreated(
            role_id=UUID(id) if id is not None else uuid4(),
            name=name,
            permissions=permissions,
            occurred_at=now,
        )
        return cls._started_by(event).record(event)

    def change_permissions(self, *, permissions: list[str], now: datetime) -> Role:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        event = RolePermissionsChanged(
            role_id=UUID(self.id),
            permissions=permissions,
            occurred_at=now,
        )
        return self.apply(event).record(event)

    def describe(self, *, description: str, now: datetime) -> Role:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        event = RoleDescribed(
            role_id=UUID(self.id),
            description=description,
            occurred_at=now,
        )
        return self.apply(event).record(event)

    def record(self, event: DomainEvent) -> Role:
        """This state with ``event`` pending for the next save."""
        return replace(self, changes=(*self.changes, event))

    def committed(self) -> Role:
        """This state once its pending events are stored."""
        return replace(self, version=self.version + len(self.changes), changes=())


@dataclass(frozen=True, kw_only=True)
class Policy:
    """A policy."""

    id: str
    name: str
    effect: str
    permissions: list[str]
    conditions: str
    status: str = "ACTIVE"
    created_at: datetime
    updated_at: datetime
    version: int = 0
    changes: tuple[DomainEvent, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_history(cls, events: Sequence[DomainEvent]) -> Policy:
        """Rebuild the aggregate by replaying its stored events, oldest first."""
        state: Policy | None = None
        for event in events:
            state = cls._started_by(event) if state is None else state.apply(event)
        if state is None:
            raise ValueError("a Policy needs at least its creating event")
        return replace(state, version=len(events))

    @classmethod
    def _started_by(cls, event: DomainEvent) -> Policy:
        match event:
            case PolicyCreated():
                return cls(
                    id=str(event.policy_id),
                    name=event.name,
                    effect=event.effect,
                    permissions=event.permissions,
                    conditions=event.conditions,
                    status="ACTIVE",
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a Policy")

    def apply(self, event: DomainEvent) -> Policy:
        """This state with ``event`` folded in."""
        match event:
            case PolicyChanged():
                return replace(
                    self,
                    name=event.name,
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

    @classmethod
    def create(
        cls,
        *,
        name: str,
        effect: str,
        permissions: list[str],
        conditions: str,
        now: datetime,
        id: str | None = None,
    ) -> Policy:
        """Create a policy; fails when a value breaks a rule."""
        cls.validate_effect(effect)
        event = PolicyCreated(
            policy_id=UUID(id) if id is not None else uuid4(),
            name=name,
            effect=effect,
            permissions=permissions,
            conditions=conditions,
            occurred_at=now,
        )
        return cls._started_by(event).record(event)

    def change(
        self,
        *,
        name: str,
        effect: str,
        permissions: list[str],
        conditions: str,
        now: datetime,
    ) -> Policy:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        self.validate_effect(effect)
        event = PolicyChanged(
            policy_id=UUID(self.id),
            name=name,
            effect=effect,
            permissions=permissions,
            conditions=conditions,
            occurred_at=now,
        )
        return self.apply(event).record(event)

    def change_status(self, *, status: str, now: datetime) -> Policy:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        event = PolicyStatusChanged(
            policy_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).record(event)

    def record(self, event: DomainEvent) -> Policy:
        """This state with ``event`` pending for the next save."""
        return replace(self, changes=(*self.changes, event))

    def committed(self) -> Policy:
        """This state once its pending events are stored."""
        return replace(self, version=self.version + len(self.changes), changes=())

    @staticmethod
    def validate_effect(effect: str) -> None:
        """Enforce the rules of ``effect``."""
        if re.fullmatch("^(allow|deny)$", effect) is None:
            raise DomainValidationError("effect", "Effect is allow or deny")


@dataclass(frozen=True, kw_only=True)
class ServiceAccount:
    """A service account."""

    id: str
    client_id: str
    secret_hash: str
    roles: list[str]
    status: str = "ACTIVE"
    created_at: datetime
    updated_at: datetime
    version: int = 0
    changes: tuple[DomainEvent, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_history(cls, events: Sequence[DomainEvent]) -> ServiceAccount:
        """Rebuild the aggregate by replaying its stored events, oldest first."""
        state: ServiceAccount | None = None
        for event in events:
            state = cls._started_by(event) if state is None else state.apply(event)
        if state is None:
            raise ValueError("a ServiceAccount needs at least its creating event")
        return replace(state, version=len(events))

    @classmethod
    def _started_by(cls, event: DomainEvent) -> ServiceAccount:
        match event:
            case ServiceAccountCreated():
                return cls(
                    id=str(event.service_account_id),
                    client_id=event.client_id,
                    secret_hash=event.secret_hash,
                    roles=event.roles,
                    status="ACTIVE",
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a ServiceAccount")

    def apply(self, event: DomainEvent) -> ServiceAccount:
        """This state with ``event`` folded in."""
        match event:
            case ServiceAccountSecretChanged():
                return replace(
                    self,
                    secret_hash=event.secret_hash,
                    updated_at=event.occurred_at,
                )
            case ServiceAccountStatusChanged():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
        raise ValueError(
            f"{type(event).__name__} does not apply to a started ServiceAccount"
        )

    @classmethod
    def create(
        cls,
        *,
        client_id: str,
        secret_hash: str,
        roles: list[str],
        now: datetime,
        id: str | None = None,
    ) -> ServiceAccount:
        """Create a service account; fails when a value breaks a rule."""
        event = ServiceAccountCreated(
            service_account_id=UUID(id) if id is not None else uuid4(),
            client_id=client_id,
            secret_hash=secret_hash,
            roles=roles,
            occurred_at=now,
        )
        return cls._started_by(event).record(event)

    def change_status(self, *, status: str, now: datetime) -> ServiceAccount:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        event = ServiceAccountStatusChanged(
            service_account_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).record(event)

    def change_secret(self, *, secret_hash: str, now: datetime) -> ServiceAccount:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        event = ServiceAccountSecretChanged(
            service_account_id=UUID(self.id),
            secret_hash=secret_hash,
            occurred_at=now,
        )
        return self.apply(event).record(event)

    def record(self, event: DomainEvent) -> ServiceAccount:
        """This state with ``event`` pending for the next save."""
        return replace(self, changes=(*self.changes, event))

    def committed(self) -> ServiceAccount:
        """This state once its pending events are stored."""
        return replace(self, version=self.version + len(self.changes), changes=())


@dataclass(frozen=True, kw_only=True)
class RefreshTokenFamily:
    """A refresh token family."""

    id: str
    subject: str
    client_id: str
    scope: str = ""
    current_hash: str
    used_hashes: list[str] = field(default_factory=lambda: [])
    status: str = "ACTIVE"
    created_at: datetime
    updated_at: datetime
    version: int = 0
    changes: tuple[DomainEvent, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_history(cls, events: Sequence[DomainEvent]) -> RefreshTokenFamily:
        """Rebuild the aggregate by replaying its stored events, oldest first."""
        state: RefreshTokenFamily | None = None
        for event in events:
            state = cls._started_by(event) if state is None else state.apply(event)
        if state is None:
            raise ValueError("a RefreshTokenFamily needs at least its creating event")
        return replace(state, version=len(events))

    @classmethod
    def _started_by(cls, event: DomainEvent) -> RefreshTokenFamily:
        match event:
            case RefreshTokenIssued():
                return cls(
                    id=str(event.family_id),
                    subject=event.subject,
                    client_id=event.client_id,
                    scope=event.scope,
                    current_hash=event.current_hash,
                    used_hashes=[],
                    status="ACTIVE",
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a RefreshTokenFamily")

    def apply(self, event: DomainEvent) -> RefreshTokenFamily:
        """This state with ``event`` folded in."""
        match event:
            case RefreshTokenFamilyRevoked():
                return replace(
                    self,
                    status=event.status,
                    updated_at=event.occurred_at,
                )
            case RefreshTokenRotated():
                return replace(
                    self,
                    current_hash=event.current_hash,
                    used_hashes=event.used_hashes,
                    updated_at=event.occurred_at,
                )
        raise ValueError(
            f"{type(event).__name__} does not apply to a started RefreshTokenFamily"
        )

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
    ) -> RefreshTokenFamily:
        """Create a refresh token family; fails when a value breaks a rule."""
        event = RefreshTokenIssued(
            family_id=UUID(id) if id is not None else uuid4(),
            subject=subject,
            client_id=client_id,
            scope=scope,
            current_hash=current_hash,
            occurred_at=now,
        )
        return cls._started_by(event).record(event)

    def rotate(
        self, *, current_hash: str, used_hashes: list[str], now: datetime
    ) -> RefreshTokenFamily:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        event = RefreshTokenRotated(
            family_id=UUID(self.id),
            current_hash=current_hash,
            used_hashes=used_hashes,
            occurred_at=now,
        )
        return self.apply(event).record(event)

    def revoke(self, *, status: str, now: datetime) -> RefreshTokenFamily:
        """Return a copy with the new values and a fresh updated_at; fails when a value breaks a rule."""
        event = RefreshTokenFamilyRevoked(
            family_id=UUID(self.id),
            status=status,
            occurred_at=now,
        )
        return self.apply(event).record(event)

    def record(self, event: DomainEvent) -> RefreshTokenFamily:
        """This state with ``event`` pending for the next save."""
        return replace(self, changes=(*self.changes, event))

    def committed(self) -> RefreshTokenFamily:
        """This state once its pending events are stored."""
        return replace(self, version=self.version + len(self.changes), changes=())


@dataclass(frozen=True, kw_only=True)
class AccessTokenRevocation:
    """A access token revocation."""

    id: str
    jti: str
    expires_at: datetime
    created_at: datetime
    updated_at: datetime
    version: int = 0
    changes: tuple[DomainEvent, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_history(cls, events: Sequence[DomainEvent]) -> AccessTokenRevocation:
        """Rebuild the aggregate by replaying its stored events, oldest first."""
        state: AccessTokenRevocation | None = None
        for event in events:
            state = cls._started_by(event) if state is None else state.apply(event)
        if state is None:
            raise ValueError(
                "a AccessTokenRevocation needs at least its creating event"
            )
        return replace(state, version=len(events))

    @classmethod
    def _started_by(cls, event: DomainEvent) -> AccessTokenRevocation:
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

    def apply(self, event: DomainEvent) -> AccessTokenRevocation:
        """This state with ``event`` folded in."""
        raise ValueError(
            f"{type(event).__name__} does not apply to a started AccessTokenRevocation"
        )

    @classmethod
    def create(
        cls, *, jti: str, expires_at: datetime, now: datetime, id: str | None = None
    ) -> AccessTokenRevocation:
        """Create a access token revocation; fails when a value breaks a rule."""
        event = AccessTokenRevoked(
            revocation_id=UUID(id) if id is not None else uuid4(),
            jti=jti,
            expires_at=expires_at,
            occurred_at=now,
        )
        return cls._started_by(event).record(event)

    def record(self, event: DomainEvent) -> AccessTokenRevocation:
        """This state with ``event`` pending for the next save."""
        return replace(self, changes=(*self.changes, event))

    def committed(self) -> AccessTokenRevocation:
        """This state once its pending events are stored."""
        return replace(self, version=self.version + len(self.changes), changes=())
