# Generated from spec iam by `generate`; edits are merged on re-render.

"""The composition root: wires adapters to the ports (override any with a keyword)."""

from dataclasses import dataclass, field
from typing import Any

from eaf.eventsourcing import EventStore, Transactions
from eaf.projectors import ProjectionStore

from iam.application.ports.inbound import (
    AccessTokenRevocationUseCases,
    PolicyUseCases,
    RefreshTokenFamilyUseCases,
    RoleUseCases,
    ServiceAccountUseCases,
    TenantUseCases,
    UserUseCases,
)
from iam.application.ports.outbound import Clock
from iam.application.services import (
    AccessTokenRevocationService,
    PolicyService,
    RefreshTokenFamilyService,
    RoleService,
    ServiceAccountService,
    TenantService,
    UserService,
)
from iam.infrastructure.clock import SystemClock
from iam.infrastructure.config import Settings, event_store_url
from iam.infrastructure.persistence import open_event_store
from iam.infrastructure.persistence import transactions as store_transactions
from iam.infrastructure.projections import (
    ReadModelPolicyListing,
    ReadModelRoleListing,
    ReadModelServiceAccountListing,
    ReadModelTenantListing,
    ReadModelUserListing,
    projection_store,
)


@dataclass(frozen=True)
class Services:
    """The wired use cases, the read models' queries, and the event store they share."""

    store: EventStore
    transactions: Transactions
    read_models: ProjectionStore
    tenant: TenantUseCases
    user: UserUseCases
    role: RoleUseCases
    policy: PolicyUseCases
    service_account: ServiceAccountUseCases
    refresh_token_family: RefreshTokenFamilyUseCases
    access_token_revocation: AccessTokenRevocationUseCases
    queries: dict[str, Any] = field(default_factory=dict)


async def bootstrap(
    settings: Settings,
    *,
    store: EventStore | None = None,
    clock: Clock | None = None,
    transactions: Transactions | None = None,
    tenant: TenantUseCases | None = None,
    user: UserUseCases | None = None,
    role: RoleUseCases | None = None,
    policy: PolicyUseCases | None = None,
    service_account: ServiceAccountUseCases | None = None,
    refresh_token_family: RefreshTokenFamilyUseCases | None = None,
    access_token_revocation: AccessTokenRevocationUseCases | None = None,
) -> Services:
    """Build the use cases from real adapters, or from the ones given."""
    store = store or await open_event_store(event_store_url(settings))
    clock = clock or SystemClock()
    transactions = transactions or store_transactions(store)
    read_models = projection_store(store)
    queries: dict[str, Any] = {
        "TenantList": ReadModelTenantListing(read_models),
        "UserList": ReadModelUserListing(read_models),
        "RoleList": ReadModelRoleListing(read_models),
        "PolicyList": ReadModelPolicyListing(read_models),
        "ServiceAccountList": ReadModelServiceAccountListing(read_models),
    }
    tenant = tenant or TenantService(
        transactions,
        clock,
        queries["TenantList"],
    )
    user = user or UserService(
        transactions,
        clock,
        queries["UserList"],
    )
    role = role or RoleService(
        transactions,
        clock,
        queries["RoleList"],
    )
    policy = policy or PolicyService(
        transactions,
        clock,
        queries["PolicyList"],
    )
    service_account = service_account or ServiceAccountService(
        transactions,
        clock,
        queries["ServiceAccountList"],
    )
    refresh_token_family = refresh_token_family or RefreshTokenFamilyService(
        transactions,
        clock,
    )
    access_token_revocation = access_token_revocation or AccessTokenRevocationService(
        transactions,
        clock,
    )
    return Services(
        store=store,
        transactions=transactions,
        read_models=read_models,
        queries=queries,
        tenant=tenant,
        user=user,
        role=role,
        policy=policy,
        service_account=service_account,
        refresh_token_family=refresh_token_family,
        access_token_revocation=access_token_revocation,
    )
