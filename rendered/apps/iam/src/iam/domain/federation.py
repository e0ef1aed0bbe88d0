"""Identity sources outside the IAM (hand-written: the spec does not carry them yet): a
tenant's LDAP provider and the links of external identities to the tenant's users."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Self, TypeAlias
from uuid import UUID

from eaf.domain import AggregateRoot, Violation, is_blank

OTHER, ACTIVE_DIRECTORY = "other", "ad"
VENDORS = (OTHER, ACTIVE_DIRECTORY)
CREATE, LINK_BY_EMAIL = "create", "link-by-email"
FIRST_SIGN_IN_POLICIES = (CREATE, LINK_BY_EMAIL)
MAX_TIMEOUT_SECONDS = 60.0
ATTRIBUTE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]{0,63}")
LDAP_URL = re.compile(r"ldaps?://[A-Za-z0-9._\[\]:-]+/?")


@dataclass(frozen=True, kw_only=True)
class SealedSecret:
    """A secret encrypted at rest: the ciphertext and the id of the key that sealed it."""

    ciphertext: str
    key_id: str


@dataclass(frozen=True, kw_only=True)
class LdapSettings:
    """How the IAM reaches a tenant's directory and reads its users and groups."""

    urls: list[str]
    start_tls: bool
    ca_certificate: str
    bind_dn: str
    bind_credential: SealedSecret
    users_dn: str
    user_object_class: str
    username_attribute: str
    login_attributes: list[str]
    uuid_attribute: str
    email_attribute: str
    name_attribute: str
    groups_dn: str
    group_object_class: str
    membership_attribute: str
    vendor: str
    group_roles: dict[str, list[str]]
    connect_timeout_seconds: float
    read_timeout_seconds: float
    first_sign_in: str

    def problems(self) -> list[Violation]:
        """Every field whose value breaks a rule."""
        found: list[Violation] = []
        if not self.urls:
            found.append(Violation("urls", "At least one ldap:// or ldaps:// URL"))
        for index, url in enumerate(self.urls):
            if LDAP_URL.fullmatch(url) is None:
                found.append(
                    Violation(f"urls.{index}", "An ldap://host[:port] or ldaps:// URL")
                )
            elif self.start_tls and url.startswith("ldaps://"):
                found.append(
                    Violation(f"urls.{index}", "StartTLS is for ldap:// URLs only")
                )
        if self.ca_certificate and "-----BEGIN CERTIFICATE-----" not in (
            self.ca_certificate
        ):
            found.append(
                Violation("caCertificate", "A PEM certificate (BEGIN CERTIFICATE)")
            )
        for path, value in (("bindDn", self.bind_dn), ("usersDn", self.users_dn)):
            if is_blank(value):
                found.append(Violation(path, "A distinguished name is required"))
        for path, name in (
            ("userObjectClass", self.user_object_class),
            ("usernameAttribute", self.username_attribute),
            ("uuidAttribute", self.uuid_attribute),
            ("emailAttribute", self.email_attribute),
            ("nameAttribute", self.name_attribute),
            ("groupObjectClass", self.group_object_class),
            ("membershipAttribute", self.membership_attribute),
            *(
                (f"loginAttributes.{index}", name)
                for index, name in enumerate(self.login_attributes)
            ),
        ):
            if ATTRIBUTE_NAME.fullmatch(name) is None:
                found.append(Violation(path, "An LDAP attribute or class name"))
        if self.vendor not in VENDORS:
            found.append(Violation("vendor", f"Vendor is one of {', '.join(VENDORS)}"))
        if self.first_sign_in not in FIRST_SIGN_IN_POLICIES:
            found.append(
                Violation(
                    "firstSignIn",
                    f"First sign-in is one of {', '.join(FIRST_SIGN_IN_POLICIES)}",
                )
            )
        for path, seconds in (
            ("connectTimeoutSeconds", self.connect_timeout_seconds),
            ("readTimeoutSeconds", self.read_timeout_seconds),
        ):
            if not 0 < seconds <= MAX_TIMEOUT_SECONDS:
                found.append(
                    Violation(path, f"Seconds above 0, at most {MAX_TIMEOUT_SECONDS:g}")
                )
        for group in self.group_roles:
            if is_blank(group):
                found.append(Violation("groupRoles", "A group name cannot be blank"))
        return found

    @property
    def managed_roles(self) -> set[str]:
        """The roles the group mappers grant and take away."""
        return {role for roles in self.group_roles.values() for role in roles}

    def roles_of(self, groups: list[str]) -> list[str]:
        """The roles the mappers give a member of ``groups`` (names, any case)."""
        names = {group.casefold() for group in groups}
        return sorted(
            {
                role
                for group, roles in self.group_roles.items()
                if group.casefold() in names
                for role in roles
            }
        )


@dataclass(frozen=True, kw_only=True)
class LdapProviderConfigured:
    """LDAP provider configured (v1): created, or its settings replaced."""

    provider_id: UUID
    settings: LdapSettings
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class LdapProviderRemoved:
    """LDAP provider removed (v1)."""

    provider_id: UUID
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class LdapUsersSynced:
    """LDAP users synchronised (v1): what a sync did, and the watermark the next
    incremental sync starts from (the newest ``modifyTimestamp`` it saw)."""

    provider_id: UUID
    mode: str
    watermark: str
    created: int
    updated: int
    disabled: int
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class UserFederated:
    """User federated (v1): an external identity's first sign-in created the user."""

    identity_id: UUID
    source: str
    external_id: str
    user_id: str
    username: str
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class UserLinked:
    """User linked (v1): an external identity was linked to an existing user by a
    verified ``attribute``."""

    identity_id: UUID
    source: str
    external_id: str
    user_id: str
    username: str
    attribute: str
    occurred_at: datetime


FederationEvent: TypeAlias = (
    LdapProviderConfigured
    | LdapProviderRemoved
    | LdapUsersSynced
    | UserFederated
    | UserLinked
)
FEDERATION_EVENTS: tuple[type[FederationEvent], ...] = (
    LdapProviderConfigured,
    LdapProviderRemoved,
    LdapUsersSynced,
    UserFederated,
    UserLinked,
)


@dataclass(frozen=True, kw_only=True)
class LdapProvider(AggregateRoot[FederationEvent]):
    """A tenant's LDAP or Active Directory user store (one per tenant)."""

    settings: LdapSettings
    removed: bool = False
    watermark: str = ""

    @classmethod
    def started_by(cls, event: FederationEvent) -> Self:
        match event:
            case LdapProviderConfigured():
                return cls(
                    id=str(event.provider_id),
                    settings=event.settings,
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start an LdapProvider")

    def apply(self, event: FederationEvent) -> Self:
        match event:
            case LdapProviderConfigured():
                # configured again after a removal: a new provider, synced from scratch
                return replace(
                    self,
                    settings=event.settings,
                    removed=False,
                    watermark="" if self.removed else self.watermark,
                    updated_at=event.occurred_at,
                )
            case LdapProviderRemoved():
                return replace(self, removed=True, updated_at=event.occurred_at)
            case LdapUsersSynced():
                return replace(
                    self, watermark=event.watermark, updated_at=event.occurred_at
                )
        raise ValueError(f"{type(event).__name__} does not apply to an LdapProvider")

    def problems(self, now: datetime) -> list[Violation]:
        return self.settings.problems()

    @classmethod
    def configure_new(cls, *, id: str, settings: LdapSettings, now: datetime) -> Self:
        event = LdapProviderConfigured(
            provider_id=UUID(id), settings=settings, occurred_at=now
        )
        return cls.started_by(event).checked(now).record(event)

    def configure(self, *, settings: LdapSettings, now: datetime) -> Self:
        event = LdapProviderConfigured(
            provider_id=UUID(self.id), settings=settings, occurred_at=now
        )
        return self.apply(event).checked(now).record(event)

    def remove(self, *, now: datetime) -> Self:
        event = LdapProviderRemoved(provider_id=UUID(self.id), occurred_at=now)
        return self.apply(event).record(event)

    def synced(
        self,
        *,
        mode: str,
        watermark: str,
        created: int,
        updated: int,
        disabled: int,
        now: datetime,
    ) -> Self:
        event = LdapUsersSynced(
            provider_id=UUID(self.id),
            mode=mode,
            watermark=watermark,
            created=created,
            updated=updated,
            disabled=disabled,
            occurred_at=now,
        )
        return self.apply(event).record(event)


@dataclass(frozen=True, kw_only=True)
class FederatedIdentity(AggregateRoot[FederationEvent]):
    """An identity of an external source (``source``, ``external_id``) and the user it
    signs in as; ``created_user`` when its first sign-in created that user."""

    source: str
    external_id: str
    user_id: str
    created_user: bool
    linked_by: str = ""
    usernames: list[str] = field(default_factory=list)

    @classmethod
    def started_by(cls, event: FederationEvent) -> Self:
        match event:
            case UserFederated():
                return cls(
                    id=str(event.identity_id),
                    source=event.source,
                    external_id=event.external_id,
                    user_id=event.user_id,
                    created_user=True,
                    usernames=[event.username],
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
            case UserLinked():
                return cls(
                    id=str(event.identity_id),
                    source=event.source,
                    external_id=event.external_id,
                    user_id=event.user_id,
                    created_user=False,
                    linked_by=event.attribute,
                    usernames=[event.username],
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start a FederatedIdentity")

    def apply(self, event: FederationEvent) -> Self:
        raise ValueError(
            f"{type(event).__name__} does not apply to a started FederatedIdentity"
        )

    @classmethod
    def federate(
        cls,
        *,
        id: str,
        source: str,
        external_id: str,
        user_id: str,
        username: str,
        now: datetime,
    ) -> Self:
        event = UserFederated(
            identity_id=UUID(id),
            source=source,
            external_id=external_id,
            user_id=user_id,
            username=username,
            occurred_at=now,
        )
        return cls.started_by(event).record(event)

    @classmethod
    def link(
        cls,
        *,
        id: str,
        source: str,
        external_id: str,
        user_id: str,
        username: str,
        attribute: str,
        now: datetime,
    ) -> Self:
        event = UserLinked(
            identity_id=UUID(id),
            source=source,
            external_id=external_id,
            user_id=user_id,
            username=username,
            attribute=attribute,
            occurred_at=now,
        )
        return cls.started_by(event).record(event)
