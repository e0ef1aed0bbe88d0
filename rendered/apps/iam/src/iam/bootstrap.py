# Generated from spec iam by `generate`; edits are merged on re-render.

"""The composition root: wires adapters to the ports (override any with a keyword)."""

from dataclasses import dataclass

from eaf.eventsourcing import EventStore
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
from iam.application.ports.outbound import (
    AccessTokenRevocationRepository,
    Clock,
    PolicyRepository,
    RefreshTokenFamilyRepository,
    RoleRepository,
    ServiceAccountRepository,
    TenantRepository,
    UserRepository,
)
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
from iam.infrastructure.persistence import (
    EventSourcedAccessTokenRevocationRepository,
    EventSourcedPolicyRepository,
    EventSourcedRefreshTokenFamilyRepository,
    EventSourcedRoleRepository,
    EventSourcedServiceAccountRepository,
    EventSourcedTenantRepository,
    EventSourcedUserRepository,
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


@dataclass(frozen=True)
class Services:
    """The wired use cases, and the event store they share."""

    store: EventStore
    read_models: ProjectionStore
    tenant: TenantUseCases
    user: UserUseCases
    role: RoleUseCases
    policy: PolicyUseCases
    service_account: ServiceAccountUseCases
    refresh_token_family: RefreshTokenFamilyUseCases
    access_token_revocation: AccessTokenRevocationUseCases


async def bootstrap(
    settings: Settings,
    *,
    store: EventStore | None = None,
    clock: Clock | None = None,
    tenant_repository: TenantRepository | None = None,
    user_repository: UserRepository | None = None,
    role_repository: RoleRepository | None = None,
    policy_repository: PolicyRepository | None = None,
    service_account_repository: ServiceAccountRepository | None = None,
    refresh_token_family_repository: RefreshTokenFamilyRepository | None = None,
    access_token_revocation_repository: AccessTokenRevocationRepository | None = None,
) -> Services:
    """Build the use cases from real adapters, or from the ones given."""
    store = store or await open_event_store(event_store_url(settings))
    clock = clock or SystemClock()
    read_models = projection_store(store)
    tenant = TenantService(
        tenant_repository or EventSourcedTenantRepository(store),
        clock,
        ReadModelTenantListing(read_models),
    )
    user = UserService(
        user_repository or EventSourcedUserRepository(store),
        clock,
        ReadModelUserListing(read_models),
    )
    role = RoleService(
        role_repository or EventSourcedRoleRepository(store),
        clock,
        ReadModelRoleListing(read_models),
    )
    policy = PolicyService(
        policy_repository or EventSourcedPolicyRepository(store),
        clock,
        ReadModelPolicyListing(read_models),
    )
    service_account = ServiceAccountService(
        service_account_repository or EventSourcedServiceAccountRepository(store),
        clock,
        ReadModelServiceAccountListing(read_models),
    )
    refresh_token_family = RefreshTokenFamilyService(
        refresh_token_family_repository
        or EventSourcedRefreshTokenFamilyRepository(store),
        clock,
    )
    access_token_revocation = AccessTokenRevocationService(
        access_token_revocation_repository
        or EventSourcedAccessTokenRevocationRepository(store),
        clock,
    )
    return Services(
        store=store,
        read_models=read_models,
        tenant=tenant,
        user=user,
        role=role,
        policy=policy,
        service_account=service_account,
        refresh_token_family=refresh_token_family,
        access_token_revocation=access_token_revocation,
    )
