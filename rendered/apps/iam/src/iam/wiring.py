"""Factories of the IAM's hand-written services. The composition root (``bootstrap``)
calls them in the order ``specs/iam.yaml`` lists its ``components``, each with the
parts it names under ``needs``, and returns what they build as fields of ``Services``;
a test overrides any of them with a keyword of ``bootstrap`` or ``create_app``."""

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

from iam.application.access import AccessControl
from iam.application.brokering import Brokering, OidcProviderListing
from iam.application.directory import Directory
from iam.application.federation import Federation
from iam.application.ldap import LdapProviders
from iam.application.ports.inbound import RegisteredClientUseCases
from iam.application.ports.outbound import Clock
from iam.application.saml_login import SamlLogins
from iam.application.saml_providers import SamlProviders
from iam.application.saml_signin import SamlExternalProviders, SamlSignIn
from iam.application.signin import SignIn
from iam.application.tokens import TokenService
from iam.infrastructure.api_saml_providers import SamlFederation
from iam.infrastructure.broker_store import EventSourcedOidcProviders
from iam.infrastructure.client_registry import StoredClientRegistry
from iam.infrastructure.config import Settings
from iam.infrastructure.http import Identity
from iam.infrastructure.openid_client import UrllibOpenIdProviderClient
from iam.infrastructure.persistence import (
    EventSourcedAccessTokenRevocationRepository,
    EventSourcedRefreshTokenFamilyRepository,
    EventSourcedSamlAssertionUseRepository,
    EventSourcedSamlIdentityProviderRepository,
    EventSourcedSamlLoginRequestRepository,
    EventSourcedServiceAccountRepository,
    EventSourcedTenantRepository,
    EventSourcedUserRepository,
)
from iam.infrastructure.saml_keys import SamlKeyPair
from iam.infrastructure.saml_protocol import Pysaml2Protocol
from iam.infrastructure.saml_provider_listing import StoredSamlProviderListing
from iam.infrastructure.signin_state import ExternalProviderSources, MemoryExpiring

DEFAULT_ISSUER = "http://127.0.0.1:8081"


def identity(
    settings: Settings,
    store: EventStore,
    clock: Clock,
    access: AccessControl,
    directory: Directory,
    ldap: LdapProviders,
    oidc_providers: EventSourcedOidcProviders,
    registered_client: RegisteredClientUseCases,
) -> Identity:
    """Tokens, registered clients and browser sign-in with the key ring of
    ``settings``; users no local password knows are checked by the tenant's LDAP
    providers, and the sign-in page offers its OpenID and SAML providers."""
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
    hasher = PasswordHasher.from_settings(settings)
    throttle = LoginThrottle(
        max_failures=int(settings.get("security.login_throttle.max_failures", 5)),
        base_delay=float(
            settings.get("security.login_throttle.base_delay_seconds", 1.0)
        ),
        max_delay=float(
            settings.get("security.login_throttle.max_delay_seconds", 900.0)
        ),
    )
    registry = StoredClientRegistry(store)

    @cache
    def issuer_at(url: str) -> TokenIssuer:
        return TokenIssuer(
            keys, issuer=url, default_audience=audience, access_ttl=access_ttl
        )

    tokens = TokenService(
        keys=keys,
        issuer=issuer_at(issuer_url),
        issuer_at=issuer_at,
        registrations=registered_client,
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
        external_passwords=ldap,
    )
    signin = SignIn(
        tokens=tokens,
        registrations=registered_client,
        tenants=EventSourcedTenantRepository(store),
        keys=keys,
        codes=MemoryExpiring(),
        sessions=MemoryExpiring(),
        forms=MemoryExpiring(),
        providers=ExternalProviderSources(
            [
                OidcProviderListing(oidc_providers),
                SamlExternalProviders(StoredSamlProviderListing(store)),
            ]
        ),
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
        clients=registered_client,
        signin=signin,
    )


def saml(
    settings: Settings,
    store: EventStore,
    clock: Clock,
    identity: Identity,
    federation: Federation,
) -> SamlFederation:
    """The tenants' SAML identity providers and logins, with the service provider's key
    pair beside the token keys (``security.saml.*`` settings)."""
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
        clock=clock,
    )
    logins = SamlLogins(
        providers=providers,
        requests=EventSourcedSamlLoginRequestRepository(store),
        assertion_uses=EventSourcedSamlAssertionUseRepository(store),
        tenants=EventSourcedTenantRepository(store),
        protocol=protocol,
        clock=clock,
        public_url=str(settings.get("security.saml.public_url") or identity.issuer),
        request_ttl=request_ttl,
    )
    signin = SamlSignIn(
        logins=logins,
        providers=providers,
        federation=federation,
        continuations=MemoryExpiring(),
        arrivals=MemoryExpiring(),
        request_ttl=request_ttl,
    )
    return SamlFederation(providers=providers, logins=logins, signin=signin)


def brokering(
    clock: Clock,
    identity: Identity,
    federation: Federation,
    oidc_providers: EventSourcedOidcProviders,
    secret_box: SecretBox,
) -> Brokering:
    """Sign-in through the tenants' external OpenID providers, their client secrets
    sealed with ``secret_box``."""
    return Brokering(
        providers=oidc_providers,
        client=UrllibOpenIdProviderClient(),
        logins=MemoryExpiring(),
        signin=identity.signin,
        federation=federation,
        access=identity.access,
        secrets=secret_box,
        clock=clock,
    )


def secret_box(settings: Settings) -> SecretBox:
    """The key ring sealing stored provider secrets (``security.secrets_file``)."""
    secrets_file = Path(str(settings.get("security.secrets_file", "data/secrets.json")))
    return SecretBox.load_or_create(
        secrets_file
        if secrets_file.is_absolute()
        else settings.service_dir / secrets_file
    )


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
