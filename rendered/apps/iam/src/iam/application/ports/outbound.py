# Generated from spec iam by `generate`; edits are merged on re-render.

"""Output ports: what the iam use cases need from the outside. The
transactions over the event store are the runtime's (the same for every service)."""

from datetime import datetime
from typing import Protocol

from eaf.eventsourcing import Idempotency, Transaction, Transactions

from iam.domain.model import (
    Policy,
    RegisteredClient,
    Role,
    ServiceAccount,
    User,
)
from iam.domain.ports import (
    AccessTokenRevocationRepository,
    PolicyRepository,
    RefreshTokenFamilyRepository,
    RegisteredClientRepository,
    RoleRepository,
    SamlAssertionUseRepository,
    SamlIdentityProviderRepository,
    SamlLoginRequestRepository,
    ServiceAccountRepository,
    TenantRepository,
    UserRepository,
)

__all__ = [
    "Clock",
    "Idempotency",
    "Transaction",
    "Transactions",
    "TenantRepository",
    "UserRepository",
    "UserListing",
    "RoleRepository",
    "RoleListing",
    "PolicyRepository",
    "PolicyListing",
    "ServiceAccountRepository",
    "ServiceAccountListing",
    "RegisteredClientRepository",
    "RegisteredClientListing",
    "RefreshTokenFamilyRepository",
    "AccessTokenRevocationRepository",
    "SamlIdentityProviderRepository",
    "SamlLoginRequestRepository",
    "SamlAssertionUseRepository",
]


class Clock(Protocol):
    """Tells the current time (UTC)."""

    def now(self) -> datetime:
        """The current instant, timezone-aware."""
        ...


class UserListing(Protocol):
    """The read side of User: a projection of its events, for the current tenant."""

    async def list(self) -> list[User]:
        """Every user of the tenant, as of the projection's last batch."""
        ...


class RoleListing(Protocol):
    """The read side of Role: a projection of its events, for the current tenant."""

    async def list(self) -> list[Role]:
        """Every role of the tenant, as of the projection's last batch."""
        ...


class PolicyListing(Protocol):
    """The read side of Policy: a projection of its events, for the current tenant."""

    async def list(self) -> list[Policy]:
        """Every policy of the tenant, as of the projection's last batch."""
        ...


class ServiceAccountListing(Protocol):
    """The read side of ServiceAccount: a projection of its events, for the current tenant."""

    async def list(self) -> list[ServiceAccount]:
        """Every service account of the tenant, as of the projection's last batch."""
        ...


class RegisteredClientListing(Protocol):
    """The read side of RegisteredClient: a projection of its events, for the current tenant."""

    async def list(self) -> list[RegisteredClient]:
        """Every registered client of the tenant, as of the projection's last batch."""
        ...
