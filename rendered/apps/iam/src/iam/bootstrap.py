# Generated from spec iam by `generate`; edits are merged on re-render.

"""The composition root: wires adapters to the ports (override any with a keyword)."""

from dataclasses import dataclass, field
from typing import Any, Protocol

import eaf.security
from eaf.eventsourcing import EventStore, Transactions, open_event_store
from eaf.messaging import EventRelay
from eaf.projectors import ProjectionStore, Projectors, projection_store
from eaf.security import PasswordHasher

import iam.application.access
import iam.application.brokering
import iam.application.clients
import iam.application.directory
import iam.application.federation
import iam.application.ldap
import iam.application.ldap_client
import iam.application.policies
import iam.application.service_accounts
import iam.infrastructure.access_rules
import iam.infrastructure.api_saml_providers
import iam.infrastructure.bearer
import iam.infrastructure.broker_store
import iam.infrastructure.federation_store
import iam.infrastructure.http
import iam.infrastructure.projections
import iam.infrastructure.tenant_catalog
import iam.wiring
from iam.application.ports.inbound import (
    PolicyUseCases,
    RegisteredClientUseCases,
    RoleUseCases,
    ServiceAccountUseCases,
    TenantUseCases,
    UserUseCases,
)
from iam.application.ports.outbound import Clock
from iam.application.services import (
    RoleService,
    TenantService,
    UserService,
)
from iam.infrastructure.clock import SystemClock
from iam.infrastructure.config import SERVICE_DIR, Settings
from iam.infrastructure.persistence import (
    EventSourcedServiceAccountRepository,
    EventSourcedTenantRepository,
    EventSourcedUserRepository,
)
from iam.infrastructure.persistence import transactions as store_transactions
from iam.infrastructure.projections import (
    PROJECTIONS,
    ReadModelPolicyListing,
    ReadModelRegisteredClientListing,
    ReadModelRoleListing,
    ReadModelServiceAccountListing,
    ReadModelUserListing,
)


class Worker(Protocol):
    """A background part of the service: started before the first request, stopped at
    shutdown."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


@dataclass(frozen=True)
class Services:
    """The wired use cases, the read models' queries, the clock, and the event store they
    share."""

    store: EventStore
    transactions: Transactions
    clock: Clock
    read_models: ProjectionStore
    tenant: TenantUseCases
    user: UserUseCases
    role: RoleUseCases
    policy: PolicyUseCases
    service_account: ServiceAccountUseCases
    registered_client: RegisteredClientUseCases
    relay: EventRelay
    """Publishes stored events to the broker (its ``url`` is the broker's, embedded or not)."""
    access_rules: iam.infrastructure.access_rules.StoredAccessRules
    """The tenant's roles and ABAC policies, as the access decisions read them"""
    access: iam.application.access.AccessControl
    """Roles, ABAC policies and access decisions"""
    tenant_catalog: iam.infrastructure.tenant_catalog.StoredTenantCatalog
    """Every tenant, folded from the tenant events of all tenants (platform reads)"""
    directory: iam.application.directory.Directory
    """Tenants with their first administrator, and platform administrators"""
    user_listing: iam.infrastructure.projections.ReadModelUserListing
    """The tenant's users, as the first sign-in of an identity looks them up"""
    federated_identities: (
        iam.infrastructure.federation_store.EventSourcedFederatedIdentities
    )
    """The links of external identities to the tenant's users"""
    federation: iam.application.federation.Federation
    """The first sign-in of an external identity (created or linked)"""
    secret_box: eaf.security.SecretBox
    """The key ring sealing stored provider secrets (security.secrets_file)"""
    ldap_directories: iam.application.ldap_client.Ldap3Directory
    """Binds to and searches LDAP / Active Directory servers (ldap3)"""
    ldap_provider_store: (
        iam.infrastructure.federation_store.EventSourcedLdapProviderRepository
    )
    """The tenants' LDAP provider configurations, on the event store"""
    ldap: iam.application.ldap.LdapProviders
    """The tenants' LDAP / Active Directory providers"""
    oidc_providers: iam.infrastructure.broker_store.EventSourcedOidcProviders
    """The tenants' external OpenID providers"""
    identity: iam.infrastructure.http.Identity
    """Tokens, registered clients and the realms' browser sign-in"""
    saml: iam.infrastructure.api_saml_providers.SamlFederation
    """The tenants' SAML identity providers and logins"""
    bearer_tokens: iam.infrastructure.bearer.OwnBearerTokens
    """The bearer tokens of the generated endpoints (the tokens the IAM issued)"""
    brokering: iam.application.brokering.Brokering
    """Sign-in through the tenants' external OpenID providers"""
    workers: tuple[Worker, ...] = ()
    """What runs in the background, in start order (the relay first): stopped in reverse."""
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
    registered_client: RegisteredClientUseCases | None = None,
    relay: EventRelay | None = None,
    projectors: Worker | None = None,
    access_rules: iam.infrastructure.access_rules.StoredAccessRules | None = None,
    access: iam.application.access.AccessControl | None = None,
    tenant_catalog: iam.infrastructure.tenant_catalog.StoredTenantCatalog | None = None,
    directory: iam.application.directory.Directory | None = None,
    user_listing: iam.infrastructure.projections.ReadModelUserListing | None = None,
    federated_identities: iam.infrastructure.federation_store.EventSourcedFederatedIdentities
    | None = None,
    federation: iam.application.federation.Federation | None = None,
    secret_box: eaf.security.SecretBox | None = None,
    ldap_directories: iam.application.ldap_client.Ldap3Directory | None = None,
    ldap_provider_store: iam.infrastructure.federation_store.EventSourcedLdapProviderRepository
    | None = None,
    ldap: iam.application.ldap.LdapProviders | None = None,
    oidc_providers: iam.infrastructure.broker_store.EventSourcedOidcProviders
    | None = None,
    identity: iam.infrastructure.http.Identity | None = None,
    saml: iam.infrastructure.api_saml_providers.SamlFederation | None = None,
    bearer_tokens: iam.infrastructure.bearer.OwnBearerTokens | None = None,
    brokering: iam.application.brokering.Brokering | None = None,
) -> Services:
    """Build the use cases, the hand-written components (each by its factory or type,
    given the parts it needs) and the background workers from real adapters, or from
    the ones given; a worker its setting turns off (``broker.relay``,
    ``broker.consume``, ``policies.run``) is built but not started."""
    store = store or await open_event_store(settings.event_store_url())
    clock = clock or SystemClock()
    transactions = transactions or store_transactions(store)
    read_models = projection_store(store)
    queries: dict[str, Any] = {
        "UserList": ReadModelUserListing(read_models),
        "Roles": ReadModelRoleListing(read_models),
        "ServiceAccounts": ReadModelServiceAccountListing(read_models),
        "Policies": ReadModelPolicyListing(read_models),
        "RegisteredClients": ReadModelRegisteredClientListing(read_models),
    }
    # the secrets' argon2id costs: security.password_hashing (a name no parameter has)
    _hasher = PasswordHasher.from_settings(settings)
    tenant = tenant or TenantService(
        transactions,
        clock,
    )
    user = user or UserService(
        transactions,
        clock,
        queries["UserList"],
        hasher=_hasher,
    )
    role = role or RoleService(
        transactions,
        clock,
        queries["Roles"],
    )
    policy = policy or iam.application.policies.Policies(
        transactions,
        clock,
        queries["Policies"],
    )
    service_account = (
        service_account
        or iam.application.service_accounts.ServiceAccounts(
            transactions,
            clock,
            queries["ServiceAccounts"],
            hasher=_hasher,
        )
    )
    registered_client = registered_client or iam.application.clients.RegisteredClients(
        transactions,
        clock,
        queries["RegisteredClients"],
        hasher=_hasher,
    )
    publisher = relay or EventRelay(
        store,
        service=settings.name,
        url=settings.broker_url,
        embedded=bool(settings.get("broker.embedded", False)),
        data_dir=SERVICE_DIR / "data",
        replicas=settings.broker_replicas,
    )
    workers: list[Worker] = []
    if settings.get("broker.relay", True):
        workers.append(publisher)
    workers.append(projectors or Projectors(store, read_models, PROJECTIONS))
    if access_rules is None:
        access_rules = iam.infrastructure.access_rules.StoredAccessRules(store=store)
    if access is None:
        access = iam.application.access.AccessControl(
            users=EventSourcedUserRepository(store),
            service_accounts=EventSourcedServiceAccountRepository(store),
            rules=access_rules,
            clock=clock,
        )
    if tenant_catalog is None:
        tenant_catalog = iam.infrastructure.tenant_catalog.StoredTenantCatalog(
            store=store
        )
    if directory is None:
        directory = iam.application.directory.Directory(
            tenants=EventSourcedTenantRepository(store),
            tenant_catalog=tenant_catalog,
            users=EventSourcedUserRepository(store),
            roles=role,
            hasher=_hasher,
            clock=clock,
        )
    if user_listing is None:
        user_listing = iam.infrastructure.projections.ReadModelUserListing(
            store=read_models
        )
    if federated_identities is None:
        federated_identities = (
            iam.infrastructure.federation_store.EventSourcedFederatedIdentities(
                store=store
            )
        )
    if federation is None:
        federation = iam.application.federation.Federation(
            users=EventSourcedUserRepository(store),
            user_listing=user_listing,
            identities=federated_identities,
            access=access,
            clock=clock,
        )
    if secret_box is None:
        secret_box = iam.wiring.secret_box(settings=settings)
    if ldap_directories is None:
        ldap_directories = iam.application.ldap_client.Ldap3Directory()
    if ldap_provider_store is None:
        ldap_provider_store = (
            iam.infrastructure.federation_store.EventSourcedLdapProviderRepository(
                store=store
            )
        )
    if ldap is None:
        ldap = iam.application.ldap.LdapProviders(
            providers=ldap_provider_store,
            directory=ldap_directories,
            federation=federation,
            access=access,
            secrets=secret_box,
            clock=clock,
        )
    if oidc_providers is None:
        oidc_providers = iam.infrastructure.broker_store.EventSourcedOidcProviders(
            store=store
        )
    if identity is None:
        identity = iam.wiring.identity(
            settings=settings,
            store=store,
            clock=clock,
            access=access,
            directory=directory,
            ldap=ldap,
            oidc_providers=oidc_providers,
            registered_client=registered_client,
        )
    if saml is None:
        saml = iam.wiring.saml(
            settings=settings,
            store=store,
            clock=clock,
            identity=identity,
            federation=federation,
        )
    if bearer_tokens is None:
        bearer_tokens = iam.infrastructure.bearer.OwnBearerTokens(
            tokens=identity.tokens, directory=directory
        )
    if brokering is None:
        brokering = iam.wiring.brokering(
            clock=clock,
            identity=identity,
            federation=federation,
            oidc_providers=oidc_providers,
            secret_box=secret_box,
        )
    return Services(
        store=store,
        transactions=transactions,
        clock=clock,
        relay=publisher,
        workers=tuple(workers),
        read_models=read_models,
        queries=queries,
        tenant=tenant,
        user=user,
        role=role,
        policy=policy,
        service_account=service_account,
        registered_client=registered_client,
        access_rules=access_rules,
        access=access,
        tenant_catalog=tenant_catalog,
        directory=directory,
        user_listing=user_listing,
        federated_identities=federated_identities,
        federation=federation,
        secret_box=secret_box,
        ldap_directories=ldap_directories,
        ldap_provider_store=ldap_provider_store,
        ldap=ldap,
        oidc_providers=oidc_providers,
        identity=identity,
        saml=saml,
        bearer_tokens=bearer_tokens,
        brokering=brokering,
    )
