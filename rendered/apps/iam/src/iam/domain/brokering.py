"""A tenant's external OpenID providers (identity brokering; hand-written: the spec does
not carry them yet): the providers a user may sign in with instead of a password."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Self, TypeAlias
from uuid import UUID

from eaf.domain import AggregateRoot, Violation, is_blank

from iam.domain.federation import FIRST_SIGN_IN_POLICIES, SealedSecret

ALIAS = re.compile(r"[a-z][a-z0-9-]{0,39}")
CLAIM_NAME = re.compile(r"[A-Za-z0-9_:./-]{1,100}")
ATTRIBUTE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
SCOPE_TOKEN = re.compile(r"[\x21\x23-\x5B\x5D-\x7E]{1,100}")
#: https (http on a loopback address only), no query, fragment or user information
#: (OpenID Connect Discovery §3).
ISSUER_URL = re.compile(
    r"(?:https://(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])"
    r"|http://(?:127\.0\.0\.1|localhost|\[::1\]))"
    r"(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*)?"
)
ISSUER_RULE = (
    "An https:// URL without query or fragment (http:// on a loopback address)"
)
MAX_DISPLAY_NAME = 100


def issuer_problem(url: str) -> str | None:
    """Why ``url`` cannot be an issuer; None if it can."""
    if ISSUER_URL.fullmatch(url) is None:
        return ISSUER_RULE
    return None


@dataclass(frozen=True, kw_only=True)
class RoleMapper:
    """Grants ``roles`` to a user whose ``claim`` equals ``value`` or, for a list claim
    (groups), holds it."""

    claim: str
    value: str
    roles: list[str]

    def matches(self, claims: dict[str, object]) -> bool:
        found = claims.get(self.claim)
        if isinstance(found, list):
            return self.value in [str(item) for item in found]
        return found is not None and str(found) == self.value


@dataclass(frozen=True, kw_only=True)
class OidcProviderSettings:
    """How the IAM reaches an external OpenID provider and reads its ID tokens."""

    alias: str
    display_name: str
    issuer: str
    client_id: str
    client_secret: SealedSecret
    scopes: list[str]
    username_claim: str
    claim_attributes: dict[str, str]
    role_mappers: list[RoleMapper]
    first_sign_in: str
    enabled: bool

    def problems(self) -> list[Violation]:
        """Every field whose value breaks a rule."""
        found: list[Violation] = []
        if ALIAS.fullmatch(self.alias) is None:
            found.append(
                Violation("alias", "1 to 40 of a-z, 0-9 and -, starting with a letter")
            )
        if is_blank(self.display_name) or len(self.display_name) > MAX_DISPLAY_NAME:
            found.append(
                Violation(
                    "displayName", f"1 to {MAX_DISPLAY_NAME} characters, not blank"
                )
            )
        problem = issuer_problem(self.issuer)
        if problem is not None:
            found.append(Violation("issuer", problem))
        if is_blank(self.client_id):
            found.append(Violation("clientId", "A client id is required"))
        if "openid" not in self.scopes:
            found.append(Violation("scopes", "The scopes include openid"))
        for index, scope in enumerate(self.scopes):
            if SCOPE_TOKEN.fullmatch(scope) is None:
                found.append(Violation(f"scopes.{index}", "A scope token (RFC 6749)"))
        if CLAIM_NAME.fullmatch(self.username_claim) is None:
            found.append(Violation("usernameClaim", "A claim name"))
        for claim, attribute in self.claim_attributes.items():
            if CLAIM_NAME.fullmatch(claim) is None:
                found.append(Violation("claimAttributes", f"Not a claim name: {claim}"))
            if ATTRIBUTE.fullmatch(attribute) is None:
                found.append(Violation(f"claimAttributes.{claim}", "An attribute name"))
        for index, mapper in enumerate(self.role_mappers):
            if CLAIM_NAME.fullmatch(mapper.claim) is None:
                found.append(Violation(f"roleMappers.{index}.claim", "A claim name"))
            if not mapper.roles:
                found.append(
                    Violation(f"roleMappers.{index}.roles", "At least one role")
                )
        if self.first_sign_in not in FIRST_SIGN_IN_POLICIES:
            found.append(
                Violation(
                    "firstSignIn",
                    f"First sign-in is one of {', '.join(FIRST_SIGN_IN_POLICIES)}",
                )
            )
        return found

    @property
    def managed_roles(self) -> frozenset[str]:
        """The roles the mappers grant and take away."""
        return frozenset(role for mapper in self.role_mappers for role in mapper.roles)

    def roles_of(self, claims: dict[str, object]) -> list[str]:
        """The roles the mappers give a user with ``claims``."""
        return sorted(
            {
                role
                for mapper in self.role_mappers
                if mapper.matches(claims)
                for role in mapper.roles
            }
        )


@dataclass(frozen=True, kw_only=True)
class OidcProviderConfigured:
    """External OpenID provider configured (v1): added, or its settings replaced."""

    providers_id: UUID
    settings: OidcProviderSettings
    occurred_at: datetime


@dataclass(frozen=True, kw_only=True)
class OidcProviderRemoved:
    """External OpenID provider removed (v1)."""

    providers_id: UUID
    alias: str
    occurred_at: datetime


BrokeringEvent: TypeAlias = OidcProviderConfigured | OidcProviderRemoved
BROKERING_EVENTS: tuple[type[BrokeringEvent], ...] = (
    OidcProviderConfigured,
    OidcProviderRemoved,
)


@dataclass(frozen=True, kw_only=True)
class OidcProviders(AggregateRoot[BrokeringEvent]):
    """A tenant's external OpenID providers, by alias (one stream per tenant)."""

    providers: dict[str, OidcProviderSettings] = field(default_factory=dict)

    @classmethod
    def started_by(cls, event: BrokeringEvent) -> Self:
        match event:
            case OidcProviderConfigured():
                return cls(
                    id=str(event.providers_id),
                    providers={event.settings.alias: event.settings},
                    created_at=event.occurred_at,
                    updated_at=event.occurred_at,
                )
        raise ValueError(f"{type(event).__name__} does not start OidcProviders")

    def apply(self, event: BrokeringEvent) -> Self:
        match event:
            case OidcProviderConfigured():
                providers = {**self.providers, event.settings.alias: event.settings}
                return replace(self, providers=providers, updated_at=event.occurred_at)
            case OidcProviderRemoved():
                providers = {
                    alias: settings
                    for alias, settings in self.providers.items()
                    if alias != event.alias
                }
                return replace(self, providers=providers, updated_at=event.occurred_at)
        raise ValueError(f"{type(event).__name__} does not apply to OidcProviders")

    def problems(self, now: datetime) -> list[Violation]:
        return [
            problem
            for settings in self.providers.values()
            for problem in settings.problems()
        ]

    @classmethod
    def configure_first(
        cls, *, id: str, settings: OidcProviderSettings, now: datetime
    ) -> Self:
        event = OidcProviderConfigured(
            providers_id=UUID(id), settings=settings, occurred_at=now
        )
        return cls.started_by(event).checked(now).record(event)

    def configure(self, *, settings: OidcProviderSettings, now: datetime) -> Self:
        event = OidcProviderConfigured(
            providers_id=UUID(self.id), settings=settings, occurred_at=now
        )
        return self.apply(event).checked(now).record(event)

    def remove(self, *, alias: str, now: datetime) -> Self:
        event = OidcProviderRemoved(
            providers_id=UUID(self.id), alias=alias, occurred_at=now
        )
        return self.apply(event).record(event)
