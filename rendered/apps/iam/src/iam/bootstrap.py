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
import iam.application.saml_login
import iam.application.saml_providers
import iam.application.saml_signin
import iam.application.signin
import iam.application.tokens
import iam.infrastructure.api_saml_providers
import iam.infrastructure.bearer
import iam.infrastructure.broker_store
import iam.infrastructure.client_registry
import iam.infrastructure.federation_store
import iam.infrastructure.openid_client
import iam.infrastructure.projections
import iam.infrastructure.saml_keys
import iam.infrastructure.saml_protocol
import iam.infrastructure.saml_provider_listing
import iam.infrastructure.signin_state
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
    ServiceAccountService,
    TenantService,
    UserService,
)
from iam.infrastructure.clock import SystemClock
from iam.infrastructure.config import SERVICE_DIR, Settings
from iam.infrastructure.persistence import (
    EventSourcedAccessTokenRevocationRepository,
    EventSourcedPolicyRepository,
    EventSourcedRefreshTokenFamilyRepository,
    EventSourcedRoleRepository,
    EventSourcedSamlAssertionUseRepository,
    EventSourcedSamlIdentityProviderRepository,
    EventSourcedSamlLoginRequestRepository,
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
    access: iam.application.access.AccessControl
    """Roles, ABAC policies and access decisions"""
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
    """The key ring sealing stored provider secrets"""
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
    key_ring: eaf.security.KeyRing
    """The keys signing the tokens, rotated and published (JWKS)"""
    token_issuer: eaf.security.TokenIssuer
    """Signs access tokens (and, at a realm's URL, its tokens)"""
    published_keys: eaf.security.KeyRingJwks
    """The key ring's public keys, as the IAM checks its own tokens"""
    token_verifier: eaf.security.TokenVerifier
    """Verifies the tokens the IAM issued, at its URL or a realm's"""
    login_throttle: eaf.security.LoginThrottle
    """Backs off consecutive failed logins"""
    client_registry: iam.infrastructure.client_registry.StoredClientRegistry
    """The tenants that have a client id (service account or registered client)"""
    tokens: iam.application.tokens.TokenService
    """The token lifecycle (grants, refresh, revocation, introspection)"""
    oidc_provider_listing: iam.application.brokering.OidcProviderListing
    """The tenant's enabled OpenID providers, as sign-in page buttons"""
    saml_provider_listing: (
        iam.infrastructure.saml_provider_listing.StoredSamlProviderListing
    )
    """The tenant's SAML identity providers, read from the event store"""
    saml_external_providers: iam.application.saml_signin.SamlExternalProviders
    """The tenant's enabled SAML providers, as sign-in page buttons"""
    external_providers: iam.infrastructure.signin_state.ExternalProviderSources
    """Every external provider of the sign-in page"""
    sign_in_codes: iam.infrastructure.signin_state.MemoryExpiring[Any]
    """The authorization codes issued and not yet redeemed"""
    browser_sessions: iam.infrastructure.signin_state.MemoryExpiring[Any]
    """The sign-in page's sessions"""
    sign_in_forms: iam.infrastructure.signin_state.MemoryExpiring[Any]
    """The sign-in forms shown and not yet posted (CSRF)"""
    signin: iam.application.signin.SignIn
    """The realms' OpenID provider and sign-in page"""
    saml_key_pair: iam.infrastructure.saml_keys.SamlKeyPair
    """The SAML service provider's key and certificate"""
    saml_protocol: iam.infrastructure.saml_protocol.Pysaml2Protocol
    """SAML 2.0 messages (pysaml2, xmlsec1)"""
    saml_providers: iam.application.saml_providers.SamlProviders
    """The tenants' SAML identity providers"""
    saml_logins: iam.application.saml_login.SamlLogins
    """SAML logins started and their responses accepted"""
    saml_continuations: iam.infrastructure.signin_state.MemoryExpiring[Any]
    """The sign-ins waiting for their SAML response"""
    saml_arrivals: iam.infrastructure.signin_state.MemoryExpiring[Any]
    """The SAML responses accepted and not yet taken by the browser"""
    saml_signin: iam.application.saml_signin.SamlSignIn
    """Sign-in through the tenants' SAML identity providers"""
    saml: iam.infrastructure.api_saml_providers.SamlFederation
    """The tenants' SAML identity providers and logins"""
    bearer_tokens: iam.infrastructure.bearer.OwnBearerTokens
    """The bearer tokens of the generated endpoints (the tokens the IAM issued)"""
    openid_client: iam.infrastructure.openid_client.UrllibOpenIdProviderClient
    """Discovery, code exchange and keys of the tenants' external OpenID providers"""
    oidc_logins: iam.infrastructure.signin_state.MemoryExpiring[Any]
    """The sign-ins waiting for their external OpenID provider"""
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
    access: iam.application.access.AccessControl | None = None,
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
    key_ring: eaf.security.KeyRing | None = None,
    token_issuer: eaf.security.TokenIssuer | None = None,
    published_keys: eaf.security.KeyRingJwks | None = None,
    token_verifier: eaf.security.TokenVerifier | None = None,
    login_throttle: eaf.security.LoginThrottle | None = None,
    client_registry: iam.infrastructure.client_registry.StoredClientRegistry
    | None = None,
    tokens: iam.application.tokens.TokenService | None = None,
    oidc_provider_listing: iam.application.brokering.OidcProviderListing | None = None,
    saml_provider_listing: iam.infrastructure.saml_provider_listing.StoredSamlProviderListing
    | None = None,
    saml_external_providers: iam.application.saml_signin.SamlExternalProviders
    | None = None,
    external_providers: iam.infrastructure.signin_state.ExternalProviderSources
    | None = None,
    sign_in_codes: iam.infrastructure.signin_state.MemoryExpiring[Any] | None = None,
    browser_sessions: iam.infrastructure.signin_state.MemoryExpiring[Any] | None = None,
    sign_in_forms: iam.infrastructure.signin_state.MemoryExpiring[Any] | None = None,
    signin: iam.application.signin.SignIn | None = None,
    saml_key_pair: iam.infrastructure.saml_keys.SamlKeyPair | None = None,
    saml_protocol: iam.infrastructure.saml_protocol.Pysaml2Protocol | None = None,
    saml_providers: iam.application.saml_providers.SamlProviders | None = None,
    saml_logins: iam.application.saml_login.SamlLogins | None = None,
    saml_continuations: iam.infrastructure.signin_state.MemoryExpiring[Any]
    | None = None,
    saml_arrivals: iam.infrastructure.signin_state.MemoryExpiring[Any] | None = None,
    saml_signin: iam.application.saml_signin.SamlSignIn | None = None,
    saml: iam.infrastructure.api_saml_providers.SamlFederation | None = None,
    bearer_tokens: iam.infrastructure.bearer.OwnBearerTokens | None = None,
    openid_client: iam.infrastructure.openid_client.UrllibOpenIdProviderClient
    | None = None,
    oidc_logins: iam.infrastructure.signin_state.MemoryExpiring[Any] | None = None,
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
        records=EventSourcedTenantRepository(store),
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
    service_account = service_account or ServiceAccountService(
        transactions,
        clock,
        queries["ServiceAccounts"],
        hasher=_hasher,
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
    if access is None:
        access = iam.application.access.AccessControl(
            users=EventSourcedUserRepository(store),
            service_accounts=EventSourcedServiceAccountRepository(store),
            roles=EventSourcedRoleRepository(store),
            policies=EventSourcedPolicyRepository(store),
            clock=clock,
        )
    if directory is None:
        directory = iam.application.directory.Directory(
            tenants=EventSourcedTenantRepository(store),
            users=user,
            roles=role,
            clock=clock,
            admin_username=settings.text("iam.platform_admin.username"),
            admin_password=settings.text("iam.platform_admin.password"),
            admin_email=settings.text("iam.platform_admin.email"),
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
        secret_box = eaf.security.SecretBox.load_or_create(
            path=settings.path("security.secrets_file")
        )
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
    if key_ring is None:
        key_ring = eaf.security.KeyRing.load_or_create(
            path=settings.path("security.keys_file"),
            max_token_lifetime=settings.seconds("security.access_token_ttl_seconds"),
        )
    if token_issuer is None:
        token_issuer = eaf.security.TokenIssuer(
            key_ring=key_ring,
            issuer=settings.text("security.issuer"),
            default_audience=settings.text("security.audience"),
            access_ttl=settings.seconds("security.access_token_ttl_seconds"),
        )
    if published_keys is None:
        published_keys = eaf.security.KeyRingJwks(key_ring=key_ring)
    if token_verifier is None:
        token_verifier = eaf.security.TokenVerifier(
            keys=published_keys,
            issuer=settings.text("security.issuer"),
            audience=settings.text("security.audience"),
            realms=True,
        )
    if login_throttle is None:
        login_throttle = eaf.security.LoginThrottle(
            max_failures=settings.integer("security.login_throttle.max_failures"),
            base_delay=settings.number("security.login_throttle.base_delay_seconds"),
            max_delay=settings.number("security.login_throttle.max_delay_seconds"),
        )
    if client_registry is None:
        client_registry = iam.infrastructure.client_registry.StoredClientRegistry(
            store=store
        )
    if tokens is None:
        tokens = iam.application.tokens.TokenService(
            keys=key_ring,
            issuer=token_issuer,
            registrations=registered_client,
            verifier=token_verifier,
            hasher=_hasher,
            throttle=login_throttle,
            access=access,
            tenants=EventSourcedTenantRepository(store),
            users=EventSourcedUserRepository(store),
            service_accounts=EventSourcedServiceAccountRepository(store),
            families=EventSourcedRefreshTokenFamilyRepository(store),
            revocations=EventSourcedAccessTokenRevocationRepository(store),
            clock=clock,
            clients=client_registry,
            external_passwords=ldap,
            refresh_ttl=settings.seconds("security.refresh_token_ttl_seconds"),
        )
    if oidc_provider_listing is None:
        oidc_provider_listing = iam.application.brokering.OidcProviderListing(
            providers=oidc_providers
        )
    if saml_provider_listing is None:
        saml_provider_listing = (
            iam.infrastructure.saml_provider_listing.StoredSamlProviderListing(
                store=store
            )
        )
    if saml_external_providers is None:
        saml_external_providers = iam.application.saml_signin.SamlExternalProviders(
            listing=saml_provider_listing
        )
    if external_providers is None:
        external_providers = iam.infrastructure.signin_state.ExternalProviderSources(
            sources=[oidc_provider_listing, saml_external_providers]
        )
    if sign_in_codes is None:
        sign_in_codes = iam.infrastructure.signin_state.MemoryExpiring()
    if browser_sessions is None:
        browser_sessions = iam.infrastructure.signin_state.MemoryExpiring()
    if sign_in_forms is None:
        sign_in_forms = iam.infrastructure.signin_state.MemoryExpiring()
    if signin is None:
        signin = iam.application.signin.SignIn(
            tokens=tokens,
            registrations=registered_client,
            tenants=EventSourcedTenantRepository(store),
            keys=key_ring,
            codes=sign_in_codes,
            sessions=browser_sessions,
            forms=sign_in_forms,
            providers=external_providers,
            base_issuer=settings.text("security.issuer"),
            session_ttl=settings.seconds("security.browser_session_ttl_seconds"),
        )
    if saml_key_pair is None:
        saml_key_pair = iam.infrastructure.saml_keys.SamlKeyPair.from_settings(
            settings=settings
        )
    if saml_protocol is None:
        saml_protocol = iam.infrastructure.saml_protocol.Pysaml2Protocol(
            keys=saml_key_pair,
            clock_skew_seconds=settings.integer("security.saml.clock_skew_seconds"),
        )
    if saml_providers is None:
        saml_providers = iam.application.saml_providers.SamlProviders(
            providers=EventSourcedSamlIdentityProviderRepository(store),
            listing=saml_provider_listing,
            protocol=saml_protocol,
            access=access,
            clock=clock,
        )
    if saml_logins is None:
        saml_logins = iam.application.saml_login.SamlLogins(
            providers=saml_providers,
            requests=EventSourcedSamlLoginRequestRepository(store),
            assertion_uses=EventSourcedSamlAssertionUseRepository(store),
            tenants=EventSourcedTenantRepository(store),
            protocol=saml_protocol,
            clock=clock,
            public_url=settings.text("security.saml.public_url"),
            issuer=settings.text("security.issuer"),
            request_ttl=settings.seconds("security.saml.request_ttl_seconds"),
        )
    if saml_continuations is None:
        saml_continuations = iam.infrastructure.signin_state.MemoryExpiring()
    if saml_arrivals is None:
        saml_arrivals = iam.infrastructure.signin_state.MemoryExpiring()
    if saml_signin is None:
        saml_signin = iam.application.saml_signin.SamlSignIn(
            logins=saml_logins,
            providers=saml_providers,
            federation=federation,
            continuations=saml_continuations,
            arrivals=saml_arrivals,
            request_ttl=settings.seconds("security.saml.request_ttl_seconds"),
        )
    if saml is None:
        saml = iam.infrastructure.api_saml_providers.SamlFederation(
            providers=saml_providers, logins=saml_logins, signin=saml_signin
        )
    if bearer_tokens is None:
        bearer_tokens = iam.infrastructure.bearer.OwnBearerTokens(
            tokens=tokens, directory=directory
        )
    if openid_client is None:
        openid_client = iam.infrastructure.openid_client.UrllibOpenIdProviderClient()
    if oidc_logins is None:
        oidc_logins = iam.infrastructure.signin_state.MemoryExpiring()
    if brokering is None:
        brokering = iam.application.brokering.Brokering(
            providers=oidc_providers,
            client=openid_client,
            logins=oidc_logins,
            signin=signin,
            federation=federation,
            access=access,
            secrets=secret_box,
            clock=clock,
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
        access=access,
        directory=directory,
        user_listing=user_listing,
        federated_identities=federated_identities,
        federation=federation,
        secret_box=secret_box,
        ldap_directories=ldap_directories,
        ldap_provider_store=ldap_provider_store,
        ldap=ldap,
        oidc_providers=oidc_providers,
        key_ring=key_ring,
        token_issuer=token_issuer,
        published_keys=published_keys,
        token_verifier=token_verifier,
        login_throttle=login_throttle,
        client_registry=client_registry,
        tokens=tokens,
        oidc_provider_listing=oidc_provider_listing,
        saml_provider_listing=saml_provider_listing,
        saml_external_providers=saml_external_providers,
        external_providers=external_providers,
        sign_in_codes=sign_in_codes,
        browser_sessions=browser_sessions,
        sign_in_forms=sign_in_forms,
        signin=signin,
        saml_key_pair=saml_key_pair,
        saml_protocol=saml_protocol,
        saml_providers=saml_providers,
        saml_logins=saml_logins,
        saml_continuations=saml_continuations,
        saml_arrivals=saml_arrivals,
        saml_signin=saml_signin,
        saml=saml,
        bearer_tokens=bearer_tokens,
        openid_client=openid_client,
        oidc_logins=oidc_logins,
        brokering=brokering,
    )
