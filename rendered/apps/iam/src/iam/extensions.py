# Created by `generate` from spec iam; this file is yours: it is never re-rendered.
"""Hand-written additions to the application.

``routers`` are served after the generated routes (put their modules in
``infrastructure``, where the layer rules apply); ``running`` runs inside the application's
lifespan, after the generated wiring (``services``) and before the first request, and
its code after ``yield`` at shutdown."""

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from functools import cache
from pathlib import Path

from eaf.eventsourcing import EventStore
from eaf.security import (
    KeyRing,
    KeyRingJwks,
    LoginThrottle,
    PasswordHasher,
    SecretBox,
    TokenIssuer,
    TokenVerifier,
)
from fastapi import APIRouter, FastAPI

from iam.application.access import AccessControl
from iam.application.brokering import Brokering, OidcProviderListing
from iam.application.clients import ClientRegistrations
from iam.application.directory import Directory, platform_admin_email
from iam.application.federation import Federation
from iam.application.ldap import LdapProviders
from iam.application.ldap_client import Ldap3Directory
from iam.application.ports.federation import ExternalPasswords
from iam.application.ports.outbound import Clock
from iam.application.ports.signin import ExternalProviders
from iam.application.saml_login import SamlLogins
from iam.application.saml_providers import SamlProviders
from iam.application.saml_signin import SamlExternalProviders, SamlSignIn
from iam.application.signin import SignIn
from iam.application.tokens import TokenService
from iam.bootstrap import Services
from iam.infrastructure import (
    api_access,
    api_clients,
    api_ldap,
    api_oidc_providers,
    api_saml_providers,
    api_service_accounts,
    api_tenants,
    api_tokens,
    oidc_broker_http,
    oidc_http,
    saml_http,
    saml_signin_http,
)
from iam.infrastructure.access_rules import StoredAccessRules
from iam.infrastructure.api_saml_providers import SamlFederation
from iam.infrastructure.broker_store import EventSourcedOidcProviders
from iam.infrastructure.client_registry import StoredClientRegistry
from iam.infrastructure.client_store import EventSourcedRegisteredClientRepository
from iam.infrastructure.config import Settings
from iam.infrastructure.federation_store import (
    EventSourcedFederatedIdentities,
    EventSourcedLdapProviderRepository,
)
from iam.infrastructure.http import Identity
from iam.infrastructure.openid_client import UrllibOpenIdProviderClient
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
from iam.infrastructure.projections import ReadModelUserListing
from iam.infrastructure.saml_keys import SamlKeyPair
from iam.infrastructure.saml_protocol import Pysaml2Protocol
from iam.infrastructure.saml_provider_listing import StoredSamlProviderListing
from iam.infrastructure.service_account_listing import StoredServiceAccountListing
from iam.infrastructure.signin_state import (
    ExternalProviderSources,
    MemoryExpiring,
    NoExternalProviders,
)
from iam.infrastructure.tenant_catalog import StoredTenantCatalog

logger = logging.getLogger(__name__)

DEFAULT_ISSUER = "http://127.0.0.1:8081"

routers: list[APIRouter] = [
    api_tokens.router,
    api_tenants.router,
    api_service_accounts.router,
    api_access.router,
    api_saml_providers.router,
    saml_http.router,
    saml_signin_http.router,
    api_ldap.router,
    api_clients.router,
    oidc_http.router,
    api_oidc_providers.router,
    oidc_broker_http.router,
]


@asynccontextmanager
async def running(
    app: FastAPI, services: Services, settings: Settings
) -> AsyncIterator[None]:
    """Wire the identity use cases, then make sure the platform administrator exists."""
    ldap = wire_ldap(services, settings)
    oidc_providers = EventSourcedOidcProviders(services.store)
    identity = wire_identity(
        services,
        settings,
        external_passwords=ldap,
        providers=ExternalProviderSources(
            [
                OidcProviderListing(oidc_providers),
                SamlExternalProviders(StoredSamlProviderListing(services.store)),
            ]
        ),
    )
    app.state.identity = identity
    app.state.saml = wire_saml(services, settings, identity)
    app.state.saml_completion = saml_signin_http.continue_in_browser
    app.state.ldap = ldap
    app.state.brokering = wire_brokering(services, settings, identity, oidc_providers)
    await ensure_platform_admin(identity.directory, settings)
    yield


def wire_identity(
    services: Services,
    settings: Settings,
    external_passwords: ExternalPasswords | None = None,
    providers: ExternalProviders | None = None,
) -> Identity:
    """The identity use cases on the event store, with the key ring of ``settings``;
    users no local password knows are checked by ``external_passwords``."""
    store: EventStore = services.store
    clock = services.clock
    access_ttl = timedelta(
        seconds=int(settings.get("security.access_token_ttl_seconds", 900))
    )
    keys_file = Path(str(settings.get("security.keys_file", "data/keys.json")))
    keys = KeyRing.load_or_create(
        keys_file if keys_file.is_absolute() else settings.service_dir / keys_file,
        max_token_lifetime=access_ttl,
    )
    issuer_url = str(settings.get("security.issuer") or DEFAULT_ISSUER)
    audience = str(settings.get("security.audience") or "eaf")
    hasher = password_hasher(settings)
    throttle = LoginThrottle(
        max_failures=int(settings.get("security.login_throttle.max_failures", 5)),
        base_delay=float(
            settings.get("security.login_throttle.base_delay_seconds", 1.0)
        ),
        max_delay=float(
            settings.get("security.login_throttle.max_delay_seconds", 900.0)
        ),
    )
    access = access_control(store, clock)
    directory = wire_directory(services, access, hasher, clock)
    registry = StoredClientRegistry(store)
    clients = ClientRegistrations(
        clients=EventSourcedRegisteredClientRepository(store),
        registry=registry,
        tenants=EventSourcedTenantRepository(store),
        service_accounts=EventSourcedServiceAccountRepository(store),
        hasher=hasher,
        clock=clock,
    )

    @cache
    def issuer_at(url: str) -> TokenIssuer:
        return TokenIssuer(
            keys, issuer=url, default_audience=audience, access_ttl=access_ttl
        )

    tokens = TokenService(
        keys=keys,
        issuer=issuer_at(issuer_url),
        issuer_at=issuer_at,
        registrations=clients,
        verifier=TokenVerifier(
            KeyRingJwks(keys), issuer=issuer_url, audience=audience, realms=True
        ),
        hasher=hasher,
        throttle=throttle,
        access=access,
        tenants=EventSourcedTenantRepository(store),
        users=EventSourcedUserRepository(store),
        service_accounts=EventSourcedServiceAccountRepository(store),
        families=EventSourcedRefreshTokenFamilyRepository(store),
        revocations=EventSourcedAccessTokenRevocationRepository(store),
        clock=clock,
        clients=registry,
        refresh_ttl=timedelta(
            seconds=int(settings.get("security.refresh_token_ttl_seconds", 2592000))
        ),
        external_passwords=external_passwords,
    )
    signin = SignIn(
        tokens=tokens,
        registrations=clients,
        tenants=EventSourcedTenantRepository(store),
        keys=keys,
        codes=MemoryExpiring(),
        sessions=MemoryExpiring(),
        forms=MemoryExpiring(),
        providers=providers or NoExternalProviders(),
        base_issuer=issuer_url,
        session_ttl=timedelta(
            seconds=int(settings.get("security.browser_session_ttl_seconds", 28800))
        ),
    )
    return Identity(
        directory=directory,
        access=access,
        tokens=tokens,
        issuer=issuer_url,
        clients=clients,
        signin=signin,
    )


def wire_brokering(
    services: Services,
    settings: Settings,
    identity: Identity,
    providers: EventSourcedOidcProviders,
) -> Brokering:
    """Sign-in through the tenants' external OpenID providers, their client secrets
    sealed with the key ring of ``security.secrets_file``."""
    store = services.store
    secrets_file = Path(str(settings.get("security.secrets_file", "data/secrets.json")))
    return Brokering(
        providers=providers,
        client=UrllibOpenIdProviderClient(),
        logins=MemoryExpiring(),
        signin=identity.signin,
        federation=Federation(
            users=EventSourcedUserRepository(store),
            user_listing=ReadModelUserListing(services.read_models),
            identities=EventSourcedFederatedIdentities(store),
            access=identity.access,
            clock=services.clock,
        ),
        access=identity.access,
        secrets=SecretBox.load_or_create(
            secrets_file
            if secrets_file.is_absolute()
            else settings.service_dir / secrets_file
        ),
        clock=services.clock,
    )


def wire_ldap(services: Services, settings: Settings) -> LdapProviders:
    """The tenants' LDAP providers, their bind credentials sealed with the key ring of
    ``security.secrets_file``."""
    store = services.store
    secrets_file = Path(str(settings.get("security.secrets_file", "data/secrets.json")))
    access = access_control(store, services.clock)
    return LdapProviders(
        providers=EventSourcedLdapProviderRepository(store),
        directory=Ldap3Directory(),
        federation=federation(services, access),
        access=access,
        secrets=SecretBox.load_or_create(
            secrets_file
            if secrets_file.is_absolute()
            else settings.service_dir / secrets_file
        ),
        clock=services.clock,
    )


def federation(services: Services, access: AccessControl) -> Federation:
    """The first sign-in of external identities (LDAP, SAML), on the event store."""
    return Federation(
        users=EventSourcedUserRepository(services.store),
        user_listing=ReadModelUserListing(services.read_models),
        identities=EventSourcedFederatedIdentities(services.store),
        access=access,
        clock=services.clock,
    )


def wire_saml(
    services: Services, settings: Settings, identity: Identity
) -> SamlFederation:
    """The tenants' SAML identity providers and logins, with the service provider's key
    pair beside the token keys (``security.saml.*`` settings)."""
    store = services.store
    protocol = Pysaml2Protocol(
        SamlKeyPair.load_or_create(
            saml_keys_dir(settings),
            common_name=f"{settings.name} SAML service provider",
        ),
        clock_skew_seconds=int(settings.get("security.saml.clock_skew_seconds", 60)),
    )
    request_ttl = timedelta(
        seconds=int(settings.get("security.saml.request_ttl_seconds", 600))
    )
    providers = SamlProviders(
        providers=EventSourcedSamlIdentityProviderRepository(store),
        listing=StoredSamlProviderListing(store),
        protocol=protocol,
        access=identity.access,
        clock=services.clock,
    )
    logins = SamlLogins(
        providers=providers,
        requests=EventSourcedSamlLoginRequestRepository(store),
        assertion_uses=EventSourcedSamlAssertionUseRepository(store),
        tenants=EventSourcedTenantRepository(store),
        protocol=protocol,
        clock=services.clock,
        public_url=str(settings.get("security.saml.public_url") or identity.issuer),
        request_ttl=request_ttl,
    )
    signin = SamlSignIn(
        logins=logins,
        providers=providers,
        federation=federation(services, identity.access),
        continuations=MemoryExpiring(),
        arrivals=MemoryExpiring(),
        request_ttl=request_ttl,
    )
    return SamlFederation(providers=providers, logins=logins, signin=signin)


def saml_keys_dir(settings: Settings) -> Path:
    """``security.saml.keys_dir``, else the directory of the token key ring's file."""
    configured = settings.get("security.saml.keys_dir")
    path = Path(
        str(
            configured
            or Path(str(settings.get("security.keys_file", "data/keys.json"))).parent
        )
    )
    return path if path.is_absolute() else settings.service_dir / path


def password_hasher(settings: Settings) -> PasswordHasher:
    """The argon2id hasher with the costs of ``security.password_hashing``."""
    return PasswordHasher(
        time_cost=int(settings.get("security.password_hashing.time_cost", 3)),
        memory_cost=int(settings.get("security.password_hashing.memory_cost", 65536)),
        parallelism=int(settings.get("security.password_hashing.parallelism", 4)),
    )


def access_control(store: EventStore, clock: Clock) -> AccessControl:
    """Roles, policies and decisions on the event store."""
    return AccessControl(
        roles=EventSourcedRoleRepository(store),
        policies=EventSourcedPolicyRepository(store),
        users=EventSourcedUserRepository(store),
        service_accounts=EventSourcedServiceAccountRepository(store),
        rules=StoredAccessRules(store),
        clock=clock,
    )


def wire_directory(
    services: Services,
    access: AccessControl,
    hasher: PasswordHasher,
    clock: Clock,
) -> Directory:
    """Tenants, users and service accounts on the event store and its read models."""
    store = services.store
    return Directory(
        tenants=EventSourcedTenantRepository(store),
        tenant_catalog=StoredTenantCatalog(store),
        users=EventSourcedUserRepository(store),
        user_listing=ReadModelUserListing(services.read_models),
        service_accounts=EventSourcedServiceAccountRepository(store),
        service_account_listing=StoredServiceAccountListing(store),
        access=access,
        hasher=hasher,
        clock=clock,
    )


async def ensure_platform_admin(directory: Directory, settings: Settings) -> None:
    """Create the first platform administrator from ``IAM_PLATFORM_ADMIN_USERNAME`` and
    ``IAM_PLATFORM_ADMIN_PASSWORD`` unless it exists; there is no default password."""
    username = str(settings.get("iam.platform_admin.username") or "")
    password = str(settings.get("iam.platform_admin.password") or "")
    if not username or not password:
        logger.warning(
            "no platform administrator configured: set IAM_PLATFORM_ADMIN_USERNAME"
            " and IAM_PLATFORM_ADMIN_PASSWORD to create one"
        )
        return
    email = str(settings.get("iam.platform_admin.email") or "")
    created = await directory.ensure_platform_admin(
        username=username,
        password=password,
        email=email or platform_admin_email(username),
    )
    if created is not None:
        logger.info("created platform administrator %s", username)
