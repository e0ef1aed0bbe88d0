"""Identity brokering: a tenant's users sign in through an external OpenID provider (the
code flow with PKCE, a confidential client), whose ID token the first-sign-in service
turns into the user the IAM's own browser session then stands for."""

import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode
from uuid import uuid5

from eaf.context import in_tenant
from eaf.domain import Violation
from eaf.security import SecretBox, SecretError

from iam.application.access import AccessControl
from iam.application.broker_id_tokens import InvalidIdTokenError, verify_id_token
from iam.application.federation import ExternalIdentity, Federation
from iam.application.identity import ACTIVE, NAMESPACE, ConflictError
from iam.application.oauth import Realm
from iam.application.ports.brokering import (
    OidcProvidersRepository,
    OpenIdProviderClient,
    ProviderMetadata,
    ProviderRefusedError,
    ProviderUnavailableError,
)
from iam.application.ports.outbound import Clock
from iam.application.ports.signin import Expiring, ExternalProvider
from iam.application.signin import SignedIn, SignIn, SignInFormError, digest, s256
from iam.domain.brokering import OidcProviders, OidcProviderSettings, RoleMapper
from iam.domain.errors import DomainValidationError, NotFoundError
from iam.domain.federation import CREATE, SealedSecret

LOGIN_TTL = timedelta(minutes=10)
DEFAULT_SCOPES = ["openid", "email", "profile"]
DEFAULT_CLAIM_ATTRIBUTES = {"email": "email", "name": "name"}


def providers_id_for(tenant_id: str) -> str:
    return str(uuid5(NAMESPACE, f"{tenant_id}/oidc-providers"))


def secret_place(tenant_id: str, alias: str) -> bytes:
    """The associated data of a provider's client secret: it opens there only."""
    return f"{tenant_id}\x1foidc\x1f{alias}\x1fclientSecret".encode()


def source_of(alias: str) -> str:
    """The federation source of a provider's identities."""
    return f"oidc:{alias}"


def login_path(alias: str) -> str:
    """Where a provider's button leads, relative to the realm's issuer."""
    return f"broker/{alias}/login"


class BrokerError(Exception):
    """A brokered sign-in that cannot go on: an error page with ``status``, nothing
    created, never a redirect to the client."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


@dataclass(frozen=True)
class OidcProviderRequest:
    """A provider's settings as asked for; ``None`` takes the default."""

    display_name: str
    issuer: str
    client_id: str
    client_secret: str
    scopes: list[str] | None = None
    username_claim: str | None = None
    claim_attributes: dict[str, str] | None = None
    role_mappers: list[RoleMapper] | None = None
    first_sign_in: str | None = None
    enabled: bool = True


@dataclass(frozen=True)
class BrokerLogin:
    """A login sent to a provider, waiting for its answer (kept under its ``state``)."""

    tenant_id: str
    alias: str
    form_id: str
    browser: str
    nonce: str
    verifier: str
    redirect_uri: str


class OidcProviderListing:
    """The enabled providers of a tenant, as sign-in page buttons (an
    :class:`~iam.application.ports.signin.ExternalProviders`)."""

    def __init__(self, providers: OidcProvidersRepository) -> None:
        self._providers = providers

    async def providers(self, tenant_id: str) -> list[ExternalProvider]:
        with in_tenant(tenant_id):
            stored = await self._providers.get(providers_id_for(tenant_id))
        if stored is None:
            return []
        return [
            ExternalProvider(settings.display_name, login_path(alias))
            for alias, settings in sorted(stored.providers.items())
            if settings.enabled
        ]


class Brokering:
    """Configures a tenant's external OpenID providers and signs users in through them."""

    def __init__(
        self,
        *,
        providers: OidcProvidersRepository,
        client: OpenIdProviderClient,
        logins: Expiring[BrokerLogin],
        signin: SignIn,
        federation: Federation,
        access: AccessControl,
        secrets: SecretBox,
        clock: Clock,
    ) -> None:
        self._providers = providers
        self._client = client
        self._logins = logins
        self._signin = signin
        self._federation = federation
        self._access = access
        self._secrets = secrets
        self._clock = clock

    async def configure(
        self, tenant_id: str, alias: str, request: OidcProviderRequest
    ) -> tuple[OidcProviderSettings, bool]:
        """Add or replace the provider ``alias``; whether it was added."""
        stored = await self._stored(tenant_id)
        current = stored.providers.get(alias) if stored else None
        problems: list[Violation] = []
        if not request.client_secret:
            problems.append(Violation("clientSecret", "A client secret is required"))
        sealed, key_id = self._secrets.seal(
            request.client_secret, secret_place(tenant_id, alias)
        )
        settings = OidcProviderSettings(
            alias=alias,
            display_name=request.display_name,
            issuer=request.issuer.rstrip("/"),
            client_id=request.client_id,
            client_secret=SealedSecret(ciphertext=sealed, key_id=key_id),
            scopes=request.scopes
            if request.scopes is not None
            else list(DEFAULT_SCOPES),
            username_claim=(
                request.username_claim
                if request.username_claim is not None
                else "preferred_username"
            ),
            claim_attributes=(
                request.claim_attributes
                if request.claim_attributes is not None
                else dict(DEFAULT_CLAIM_ATTRIBUTES)
            ),
            role_mappers=request.role_mappers or [],
            first_sign_in=(
                request.first_sign_in if request.first_sign_in is not None else CREATE
            ),
            enabled=request.enabled,
        )
        unknown = await self._access.unknown_roles(
            tenant_id, sorted(settings.managed_roles)
        )
        if unknown:
            problems.append(
                Violation("roleMappers", f"Unknown roles: {', '.join(unknown)}")
            )
        DomainValidationError.raise_for([*settings.problems(), *problems])
        now = self._clock.now()
        with in_tenant(tenant_id):
            if stored is None:
                changed = OidcProviders.configure_first(
                    id=providers_id_for(tenant_id), settings=settings, now=now
                )
            else:
                changed = stored.configure(settings=settings, now=now)
            await self._providers.save(changed)
        return settings, current is None

    async def provider(self, tenant_id: str, alias: str) -> OidcProviderSettings:
        stored = await self._stored(tenant_id)
        settings = stored.providers.get(alias) if stored else None
        if settings is None:
            raise NotFoundError(f"No OpenID provider {alias} is configured")
        return settings

    async def all(self, tenant_id: str) -> list[OidcProviderSettings]:
        stored = await self._stored(tenant_id)
        return [stored.providers[a] for a in sorted(stored.providers)] if stored else []

    async def remove(self, tenant_id: str, alias: str) -> None:
        stored = await self._stored(tenant_id)
        if stored is None or alias not in stored.providers:
            raise NotFoundError(f"No OpenID provider {alias} is configured")
        with in_tenant(tenant_id):
            await self._providers.save(
                stored.remove(alias=alias, now=self._clock.now())
            )

    async def start(
        self, realm: Realm, alias: str, form_id: str, browser: str, redirect_uri: str
    ) -> str:
        """The provider's authorization URL for the sign-in form ``form_id`` shown to
        ``browser``: code flow, PKCE S256, ``state`` and ``nonce`` kept here."""
        try:
            await self._signin.pending(realm, form_id, browser)
        except SignInFormError as error:
            raise BrokerError(400, str(error)) from None
        settings = await self._enabled(realm, alias)
        metadata = await self._metadata(settings)
        state, nonce = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        verifier = secrets.token_urlsafe(48)
        await self._logins.put(
            digest(state),
            BrokerLogin(
                realm.tenant_id, alias, form_id, browser, nonce, verifier, redirect_uri
            ),
            LOGIN_TTL,
        )
        query = {
            "response_type": "code",
            "client_id": settings.client_id,
            "redirect_uri": redirect_uri,
            "scope": " ".join(settings.scopes),
            "state": state,
            "nonce": nonce,
            "code_challenge": s256(verifier),
            "code_challenge_method": "S256",
        }
        separator = "&" if "?" in metadata.authorization_endpoint else "?"
        return f"{metadata.authorization_endpoint}{separator}{urlencode(query)}"

    async def finish(
        self, realm: Realm, alias: str, params: dict[str, str], browser: str
    ) -> SignedIn:
        """The provider's answer at the callback: the state checked (once), the code
        redeemed, the ID token verified, the user found, created or linked, and a
        browser session for the pending authorization request."""
        state = params.get("state", "")
        login = await self._logins.pop(digest(state)) if state else None
        if (
            login is None
            or login.tenant_id != realm.tenant_id
            or login.alias != alias
            or not browser
            or not hmac.compare_digest(login.browser, browser)
        ):
            raise BrokerError(400, "unknown, expired or used state: sign in again")
        if "error" in params:
            described = params.get("error_description")
            text = f"{params['error']}: {described}" if described else params["error"]
            raise BrokerError(403, f"the provider refused the sign-in: {text}")
        code = params.get("code")
        if not code:
            raise BrokerError(400, "the provider sent no code")
        try:
            await self._signin.pending(realm, login.form_id, browser)
        except SignInFormError as error:
            raise BrokerError(400, str(error)) from None
        settings = await self._enabled(realm, alias)
        metadata = await self._metadata(settings)
        if params.get("iss", metadata.issuer) != metadata.issuer:
            # RFC 9207: an answer from another provider (a mix-up attack)
            raise BrokerError(400, "the answer names another issuer")
        try:
            answer = await self._client.redeem_code(
                metadata,
                client_id=settings.client_id,
                client_secret=self._secret(realm.tenant_id, settings),
                code=code,
                redirect_uri=login.redirect_uri,
                verifier=login.verifier,
            )
            id_token = answer.get("id_token")
            if not isinstance(id_token, str):
                raise BrokerError(502, "the provider's token response has no ID token")
            keys = await self._client.jwks(metadata)
        except ProviderUnavailableError as error:
            raise BrokerError(502, f"the provider cannot be reached: {error}") from None
        except ProviderRefusedError as error:
            raise BrokerError(502, f"the provider refused the code: {error}") from None
        try:
            claims = verify_id_token(
                id_token,
                keys,
                issuer=metadata.issuer,
                client_id=settings.client_id,
                nonce=login.nonce,
                algorithms=metadata.id_token_signing_algorithms,
            )
        except InvalidIdTokenError as error:
            raise BrokerError(502, str(error)) from None
        identity = identity_of(settings, claims)
        try:
            outcome = await self._federation.sign_in(
                realm.tenant_id, identity, first_sign_in=settings.first_sign_in
            )
        except (DomainValidationError, ConflictError) as error:
            raise BrokerError(409, f"this account cannot sign in: {error}") from None
        if outcome.user.status != ACTIVE:
            raise BrokerError(403, "this account is disabled")
        try:
            return await self._signin.signed_in_as(
                realm, login.form_id, browser, outcome.user.id
            )
        except SignInFormError as error:
            raise BrokerError(400, str(error)) from None

    async def _stored(self, tenant_id: str) -> OidcProviders | None:
        with in_tenant(tenant_id):
            return await self._providers.get(providers_id_for(tenant_id))

    async def _enabled(self, realm: Realm, alias: str) -> OidcProviderSettings:
        stored = await self._stored(realm.tenant_id)
        settings = stored.providers.get(alias) if stored else None
        if settings is None or not settings.enabled:
            raise BrokerError(404, f"no enabled identity provider {alias}")
        return settings

    async def _metadata(self, settings: OidcProviderSettings) -> ProviderMetadata:
        try:
            metadata = await self._client.metadata(settings.issuer)
        except ProviderUnavailableError as error:
            raise BrokerError(502, f"the provider cannot be reached: {error}") from None
        if metadata.issuer.rstrip("/") != settings.issuer:
            raise BrokerError(502, "the provider's discovery names another issuer")
        return metadata

    def _secret(self, tenant_id: str, settings: OidcProviderSettings) -> str:
        sealed = settings.client_secret
        try:
            return self._secrets.open(
                sealed.ciphertext,
                sealed.key_id,
                secret_place(tenant_id, settings.alias),
            )
        except SecretError as error:
            raise BrokerError(
                502, "the provider's client secret does not open with this key ring"
            ) from error


def identity_of(
    settings: OidcProviderSettings, claims: dict[str, Any]
) -> ExternalIdentity:
    """What an ID token asserts: the email counts as verified only when the provider
    says ``email_verified: true``."""
    subject = str(claims["sub"])
    username = claims.get(settings.username_claim)
    username = username if isinstance(username, str) and username else subject
    email = claims.get("email")
    email = email if isinstance(email, str) and email else ""
    attributes = {
        attribute: claims[claim]
        for claim, attribute in settings.claim_attributes.items()
        if isinstance(claims.get(claim), str) and claims[claim]
    }
    return ExternalIdentity(
        source=source_of(settings.alias),
        external_id=subject,
        username=username,
        email=email or f"{username}@{settings.alias}.invalid",
        email_verified=bool(email) and claims.get("email_verified") is True,
        attributes=attributes,
        roles=settings.roles_of(claims),
        managed_roles=settings.managed_roles,
    )
