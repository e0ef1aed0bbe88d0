"""The token lifecycle: RFC 6749 grants, rotating refresh tokens, RFC 7009 revocation and
RFC 7662 introspection of the access tokens this service signs."""

import hmac
import secrets
from contextlib import suppress
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from eaf.context import in_tenant
from eaf.security import (
    AccessClaims,
    InvalidTokenError,
    KeyRing,
    LoginThrottle,
    PasswordHasher,
    TokenIssuer,
    TokenVerifier,
    has_permission,
)

from iam.application.access import AccessControl, checked_permissions
from iam.application.clients import active_client, is_public
from iam.application.federation import EXTERNAL_PASSWORD
from iam.application.identity import (
    ACTIVE,
    PLATFORM,
    PLATFORM_PERMISSIONS,
    PUBLIC_CLIENT_ID,
    revocation_id_for,
    service_account_id_for,
    tenant_reference,
    user_id_for,
)
from iam.application.oauth import (
    OIDC_SCOPES,
    Client,
    ClientCredentials,
    InactiveTokenError,
    IssuedTokens,
    OAuthError,
    Realm,
    RefreshToken,
    TokenResponse,
    TooManyAttemptsError,
)
from iam.application.ports.access import ClientRegistry
from iam.application.ports.federation import (
    ExternalPasswords,
    IdentitySourceUnavailableError,
)
from iam.application.ports.inbound import RegisteredClientUseCases
from iam.application.ports.outbound import (
    AccessTokenRevocationRepository,
    Clock,
    RefreshTokenFamilyRepository,
    ServiceAccountRepository,
    TenantRepository,
    UserRepository,
)
from iam.domain.errors import ConcurrencyError, DomainValidationError
from iam.domain.model import (
    AccessTokenRevocation,
    RefreshTokenFamily,
    RegisteredClient,
    User,
)
from iam.domain.types import GrantType, RotatedKeys

REVOKED = "REVOKED"
# How many spent refresh tokens a family remembers for reuse detection: an older spent
# token is still refused (it is not the current one), without revoking the family. The
# bound keeps each rotation event, and so every later replay of the family, small.
REUSE_WINDOW = 64


def _invalid_grant(description: str) -> OAuthError:
    return OAuthError("invalid_grant", description)


def granted_scope(requested: list[str], held: set[str]) -> tuple[list[str], set[str]]:
    """The scope granted to a registered client and its token's permissions: the OpenID
    scopes asked for, and the permissions asked for that the user holds (none asked
    for, none granted: such a token only identifies its user)."""
    oidc = [word for word in requested if word in OIDC_SCOPES]
    permissions = [
        word
        for word in requested
        if word not in OIDC_SCOPES and has_permission(held, word)
    ]
    return list(dict.fromkeys(oidc + permissions)), set(permissions)


class TokenService:
    """Issues, refreshes, revokes and introspects tokens."""

    def __init__(
        self,
        *,
        keys: KeyRing,
        issuer: TokenIssuer,
        verifier: TokenVerifier,
        hasher: PasswordHasher,
        throttle: LoginThrottle,
        access: AccessControl,
        tenants: TenantRepository,
        users: UserRepository,
        service_accounts: ServiceAccountRepository,
        families: RefreshTokenFamilyRepository,
        revocations: AccessTokenRevocationRepository,
        clock: Clock,
        clients: ClientRegistry,
        refresh_ttl: timedelta,
        registrations: RegisteredClientUseCases,
        external_passwords: ExternalPasswords | None = None,
    ) -> None:
        self._keys = keys
        self._issuer = issuer
        self._verifier = verifier
        self._hasher = hasher
        self._throttle = throttle
        self._access = access
        self._tenants = tenants
        self._users = users
        self._service_accounts = service_accounts
        self._families = families
        self._revocations = revocations
        self._clock = clock
        self._clients = clients
        self._refresh_ttl = refresh_ttl
        self._external_passwords = external_passwords
        self._registrations = registrations

    async def password_grant(
        self,
        *,
        tenant: str,
        username: str,
        password: str,
        scope: str | None,
        client: ClientCredentials,
    ) -> TokenResponse:
        tenant_id = tenant_reference(tenant)
        # ``tenant`` names the client's tenant too: a client of another is unknown here
        authenticated = await self.authenticate_client(replace(client, tenant=tenant))
        if authenticated.registered is not None:
            raise OAuthError("unauthorized_client", "the client may not use this grant")
        user = await self.authenticate_user(tenant_id, username, password)
        granted, permissions = self._narrow(
            scope, await self._permissions(tenant_id, user.roles)
        )
        refresh = await self._new_family(
            tenant_id, user.id, authenticated.client_id, granted
        )
        return self._respond(
            tenant_id, user, authenticated.client_id, granted, permissions, str(refresh)
        )

    async def authenticate_user(
        self, tenant_id: str, username: str, password: str
    ) -> User:
        """The active user ``username`` of the tenant if ``password`` is theirs: the one
        password check, of the password grant and of the sign-in page alike (throttled
        per account: :class:`TooManyAttemptsError`; ``invalid_grant`` otherwise)."""
        key = ("user", tenant_id, username.casefold())
        self._ensure_not_throttled(key)
        user = await self.verify_password(tenant_id, username, password)
        if user is None:
            self._throttle.failed(key)
            raise _invalid_grant("invalid tenant, username or password")
        self._throttle.succeeded(key)
        return user

    async def verify_password(
        self, tenant_id: str, username: str, password: str
    ) -> User | None:
        """The active user ``username`` of ``tenant_id`` whose password this is, else
        None: a local user by its hash, any other through the tenant's external
        password source, if it has one (its first sign-in creates or links the user).
        ``OAuthError`` ``temporarily_unavailable`` (503) when that source cannot answer."""
        user = await self._active_user(tenant_id, user_id_for(tenant_id, username))
        external = user is None or user.password == EXTERNAL_PASSWORD
        if not external or self._external_passwords is None:
            if not self._hasher.verify(user.password if user else None, password):
                return None
            assert user is not None
            await self._rehash(tenant_id, user, password)
            return user
        if not password or not await self._tenant_active(tenant_id):
            return None
        try:
            return await self._external_passwords.sign_in(tenant_id, username, password)
        except IdentitySourceUnavailableError as error:
            raise OAuthError("temporarily_unavailable", str(error), 503) from error

    async def client_credentials_grant(
        self, *, client: ClientCredentials, scope: str | None
    ) -> TokenResponse:
        """A token for a service account, without refresh token (RFC 6749 §4.4.3)."""
        if client.secret is None:
            raise OAuthError("invalid_client", "client authentication failed", 401)
        authenticated = await self.authenticate_client(client)
        tenant_id = authenticated.tenant_id
        if tenant_id is None or authenticated.registered is not None:
            raise OAuthError(
                "unauthorized_client", "the client has no client credentials grant"
            )
        with in_tenant(tenant_id):
            account = await self._service_accounts.get(
                service_account_id_for(tenant_id, authenticated.client_id)
            )
        assert account is not None
        granted, permissions = self._narrow(
            scope, await self._permissions(tenant_id, account.roles)
        )
        issued = self._issuer.issue(
            subject=account.id,
            client_id=account.client_id,
            tenant_id=tenant_id,
            roles=account.roles,
            permissions=permissions,
            scope=granted,
        )
        return TokenResponse(issued.token, issued.expires_in, " ".join(granted))

    async def refresh_grant(
        self,
        *,
        refresh_token: str,
        scope: str | None,
        client: ClientCredentials,
        realm: Realm | None = None,
    ) -> TokenResponse:
        """A new access and refresh token for the client it was issued to; the presented
        one is spent. Presenting a spent token again revokes its whole family (a stolen
        token was used). A registered client's refresh token is refreshed at its
        tenant's ``realm`` only."""
        presented = RefreshToken.parse(refresh_token)
        authenticated = await self.authenticate_client(
            client, tenant_hint=presented.tenant_id if presented else None
        )
        if presented is None:
            raise _invalid_grant("unknown refresh token")
        tenant_id = presented.tenant_id
        with in_tenant(tenant_id):
            family = await self._families.get(presented.family_id)
        if family is None or family.status != ACTIVE:
            raise _invalid_grant("unknown or revoked refresh token")
        spent = presented.hash in family.used_hashes
        if not spent and not hmac.compare_digest(presented.hash, family.current_hash):
            raise _invalid_grant("unknown refresh token")
        # Checked before reuse, so that only the family's own client can revoke it.
        if not authenticated.issued(tenant_id, family.client_id):
            if client.secret is None and family.client_id != PUBLIC_CLIENT_ID:
                # RFC 6749 §6: a confidential client must authenticate
                raise OAuthError(
                    "invalid_client", "client authentication required", 401
                )
            raise _invalid_grant("refresh token issued to another client")
        registered = authenticated.registered
        if (realm is None) != (registered is None) or (
            realm is not None and realm.tenant_id != tenant_id
        ):
            raise _invalid_grant("refresh token of another issuer")
        if (
            registered is not None
            and GrantType.REFRESH_TOKEN not in registered.grant_types
        ):
            raise OAuthError("unauthorized_client", "the client may not refresh")
        if spent:
            await self._revoke_family(tenant_id, family)
            raise _invalid_grant("refresh token reused: its family is revoked")
        if self._clock.now() - family.created_at > self._refresh_ttl:
            raise _invalid_grant("refresh token expired")
        if not await self._tenant_active(tenant_id):
            # not spent nor revoked: the family works again if the tenant is reactivated
            raise _invalid_grant("the tenant is not active")
        with in_tenant(tenant_id):
            user = await self._users.get(family.subject)
        if user is None or user.status != ACTIVE:
            await self._revoke_family(tenant_id, family)
            raise _invalid_grant("the user is no longer active")
        # Every check that can refuse comes before the token is spent, so a refused
        # request leaves the presented token usable (a retry is no reuse).
        family_scope = family.scope.split()
        if scope and family_scope and not set(scope.split()) <= set(family_scope):
            raise OAuthError("invalid_scope", "scope exceeds the one first granted")
        held = await self._permissions(tenant_id, user.roles)
        if realm is None:
            granted, permissions = self._narrow(scope or family.scope, held)
        else:
            granted, permissions = granted_scope((scope or family.scope).split(), held)
        renewed = RefreshToken(tenant_id, family.id, secrets.token_urlsafe(32))
        rotated = family.rotate(
            current_hash=renewed.hash,
            used_hashes=[*family.used_hashes[-(REUSE_WINDOW - 1) :], presented.hash],
            now=self._clock.now(),
        )
        with in_tenant(tenant_id):
            try:
                await self._families.save(rotated)
            except ConcurrencyError:
                # a concurrent refresh with the same token won: this one is a reuse
                await self._revoke_family(tenant_id, family)
                raise _invalid_grant(
                    "refresh token reused: its family is revoked"
                ) from None
        return self._respond(
            tenant_id,
            user,
            family.client_id,
            granted,
            permissions,
            str(renewed),
            realm=realm,
        )

    async def authenticate_client(
        self, client: ClientCredentials, *, tenant_hint: str | None = None
    ) -> Client:
        """The client a request authenticates as (RFC 6749 §2.3): without a secret the
        public client, else the active service account with these credentials, in the
        tenant the request names, else the one tenant whose client has this id (the
        hint, a token's tenant, breaks a tie); 401 ``invalid_client`` otherwise."""
        if client.secret is None:
            if client.client_id in (None, PUBLIC_CLIENT_ID):
                return Client(PUBLIC_CLIENT_ID)
            return await self._public_client(client, tenant_hint)
        client_id = client.client_id or ""
        tenant_id = await self._client_tenant(client_id, client.tenant, tenant_hint)
        key = ("client", tenant_id or "", client_id)
        self._ensure_not_throttled(key)
        account = None
        if tenant_id is not None:
            with in_tenant(tenant_id):
                account = await self._service_accounts.get(
                    service_account_id_for(tenant_id, client_id)
                )
            if account is not None and (
                account.status != ACTIVE or not await self._tenant_active(tenant_id)
            ):
                account = None
        registered = None
        if account is None and tenant_id is not None:
            registered = await self._registered(tenant_id, client_id)
            if registered is not None and is_public(registered):
                registered = None
        secret_hash = account.client_secret if account else None
        if registered is not None:
            secret_hash = registered.client_secret
        if not self._hasher.verify(secret_hash, client.secret):
            self._throttle.failed(key)
            raise OAuthError("invalid_client", "client authentication failed", 401)
        assert tenant_id is not None and (account or registered)
        self._throttle.succeeded(key)
        return Client(client_id, tenant_id, registered)

    async def _public_client(
        self, client: ClientCredentials, tenant_hint: str | None
    ) -> Client:
        """A registered public client (RFC 6749 §2.1), which presents no secret."""
        client_id = client.client_id or ""
        tenant_id = await self._client_tenant(client_id, client.tenant, tenant_hint)
        registered = await self._registered(tenant_id, client_id) if tenant_id else None
        if registered is None or not is_public(registered):
            raise OAuthError("invalid_client", "client authentication failed", 401)
        assert tenant_id is not None
        return Client(client_id, tenant_id, registered)

    async def _registered(
        self, tenant_id: str, client_id: str
    ) -> RegisteredClient | None:
        if not await self._tenant_active(tenant_id):
            return None
        return await active_client(self._registrations, tenant_id, client_id)

    async def _client_tenant(
        self, client_id: str, named: str | None, hint: str | None
    ) -> str | None:
        if named:
            return tenant_reference(named)
        tenants = await self._clients.tenants_of(client_id)
        if hint in tenants:
            return hint
        if len(tenants) > 1:
            raise OAuthError(
                "invalid_client",
                "several tenants have this client id: name the tenant",
                401,
            )
        return tenants[0] if tenants else None

    async def authenticate(self, token: str) -> AccessClaims:
        """The claims of a valid access token that is not revoked, of an active tenant,
        and whose subject is still active; :class:`InactiveTokenError` otherwise."""
        try:
            claims = await self._verifier.verify(token)
        except InvalidTokenError as error:
            raise InactiveTokenError(error.reason) from error
        tenant_id = claims.tenant_id or PLATFORM
        with in_tenant(tenant_id):
            revoked = await self._revocations.get(revocation_id_for(claims.jti))
        if revoked is not None:
            raise InactiveTokenError("token revoked")
        if not await self._tenant_active(tenant_id):
            raise InactiveTokenError("the token's tenant is not active")
        if await self._access.subject(tenant_id, claims.subject) is None:
            raise InactiveTokenError("the token's subject is not active")
        return claims

    async def tenant_of(self, token: str) -> str | None:
        """The tenant scope of a correctly signed access token, even a revoked one."""
        try:
            claims = await self._verifier.verify(token)
        except InvalidTokenError:
            return None
        return claims.tenant_id or PLATFORM

    async def introspect(self, token: str, *, caller_tenant: str) -> dict[str, Any]:
        """RFC 7662: exactly ``{"active": false}`` unless ``token`` is an active access
        token of the caller's tenant (a platform caller sees every tenant's)."""
        try:
            claims = await self.authenticate(token)
        except InactiveTokenError:
            return {"active": False}
        if caller_tenant not in (PLATFORM, claims.tenant_id):
            return {"active": False}
        answer: dict[str, Any] = {
            "active": True,
            "sub": claims.subject,
            "client_id": claims.client_id,
            "tenant_id": claims.tenant_id,
            "scope": " ".join(sorted(claims.scope)),
            "exp": claims.exp,
            "iat": claims.iat,
            "iss": claims.issuer,
            "aud": claims.raw["aud"],
            "jti": claims.jti,
            "token_type": "Bearer",
            "username": claims.username,
            "roles": sorted(claims.roles),
            "permissions": sorted(claims.permissions),
        }
        if claims.platform:
            answer["platform"] = True
        return {name: value for name, value in answer.items() if value is not None}

    async def revoke(self, token: str, client: ClientCredentials) -> None:
        """RFC 7009: a refresh token revokes its family, an access token its jti, if it
        was issued to the authenticated client; any other token is ignored."""
        refresh = RefreshToken.parse(token)
        claims = None
        if refresh is None:
            with suppress(InvalidTokenError):
                claims = await self._verifier.verify(token)
        hint = refresh.tenant_id if refresh else None
        if claims is not None:
            hint = claims.tenant_id or PLATFORM
        authenticated = await self.authenticate_client(client, tenant_hint=hint)
        if refresh is not None:
            with in_tenant(refresh.tenant_id):
                family = await self._families.get(refresh.family_id)
            known = family is not None and (
                refresh.hash == family.current_hash
                or refresh.hash in family.used_hashes
            )
            if (
                family is not None
                and known
                and authenticated.issued(refresh.tenant_id, family.client_id)
            ):
                await self._revoke_family(refresh.tenant_id, family)
            return
        if claims is None or not authenticated.issued(
            claims.tenant_id or PLATFORM, claims.client_id
        ):
            return
        await self._revoke_access(claims.tenant_id or PLATFORM, claims.jti, claims.exp)

    async def code_tokens(
        self, *, realm: Realm, user_id: str, client: RegisteredClient, scope: list[str]
    ) -> tuple[TokenResponse, IssuedTokens]:
        """The tokens an authorization code is exchanged for, of the realm's issuer:
        a refresh token too if the client may refresh."""
        tenant_id = realm.tenant_id
        user = await self.active_user(tenant_id, user_id)
        if user is None:
            raise _invalid_grant("the user is no longer active")
        granted, permissions = granted_scope(
            scope, await self._permissions(tenant_id, user.roles)
        )
        refresh: RefreshToken | None = None
        if GrantType.REFRESH_TOKEN in client.grant_types:
            refresh = await self._new_family(
                tenant_id, user.id, client.client_id, granted
            )
        issued = self._issuer.at(realm.issuer).issue(
            subject=user.id,
            client_id=client.client_id,
            tenant_id=tenant_id,
            roles=user.roles,
            permissions=permissions,
            scope=granted,
            username=user.username,
            email=user.email,
        )
        response = TokenResponse(
            issued.token,
            issued.expires_in,
            " ".join(granted),
            str(refresh) if refresh else None,
        )
        return response, IssuedTokens(
            tenant_id,
            issued.claims["jti"],
            int(issued.claims["exp"]),
            refresh.family_id if refresh else None,
        )

    async def revoke_issued(self, issued: IssuedTokens) -> None:
        """Revoke the access token and the refresh token family of ``issued``."""
        await self._revoke_access(issued.tenant_id, issued.jti, issued.exp)
        if issued.family_id is not None:
            with in_tenant(issued.tenant_id):
                family = await self._families.get(issued.family_id)
            if family is not None:
                await self._revoke_family(issued.tenant_id, family)

    async def active_user(self, tenant_id: str, user_id: str) -> User | None:
        """The user, if it and its tenant are active."""
        return await self._active_user(tenant_id, user_id)

    def jwks(self) -> dict[str, Any]:
        """The public keys of every published signing key."""
        return self._keys.jwks()

    async def rotate(self) -> RotatedKeys:
        """Sign with a new key from now on: its kid, and those of every published key
        (the old ones stay published until their tokens expire)."""
        kid = self._keys.rotate().kid
        return RotatedKeys(
            kid=kid, published=[key["kid"] for key in self.jwks()["keys"]]
        )

    def _ensure_not_throttled(self, key: tuple[str, str, str]) -> None:
        wait = self._throttle.check(key)
        if wait > 0:
            raise TooManyAttemptsError(wait)

    async def _tenant_active(self, tenant_id: str) -> bool:
        """Whether ``tenant_id`` exists and is not suspended (the platform always is)."""
        if tenant_id == PLATFORM:
            return True
        with in_tenant(tenant_id):
            tenant = await self._tenants.get(tenant_id)
        return tenant is not None and tenant.status == ACTIVE

    async def _active_user(self, tenant_id: str, user_id: str) -> User | None:
        if not await self._tenant_active(tenant_id):
            return None
        with in_tenant(tenant_id):
            user = await self._users.get(user_id)
        return user if user is not None and user.status == ACTIVE else None

    async def _rehash(self, tenant_id: str, user: User, password: str) -> None:
        if not self._hasher.needs_rehash(user.password):
            return
        changed = user.change_password(
            password=self._hasher.hash(password), now=self._clock.now()
        )
        # a ConcurrencyError: changed meanwhile, the next login rehashes
        with in_tenant(tenant_id), suppress(ConcurrencyError):
            await self._users.save(changed)

    async def _permissions(self, tenant_id: str, roles: list[str]) -> set[str]:
        if tenant_id == PLATFORM:
            return set(PLATFORM_PERMISSIONS)
        return await self._access.permissions_of(tenant_id, roles)

    @staticmethod
    def _narrow(scope: str | None, permissions: set[str]) -> tuple[list[str], set[str]]:
        """The granted scope and the token's permissions: a requested scope is a list of
        permissions the subject holds, and the token then carries only those."""
        requested = (scope or "").split()
        if not requested:
            return [], permissions
        try:
            checked = checked_permissions(requested)
        except DomainValidationError as error:
            raise OAuthError("invalid_scope", error.message) from None
        missing = [item for item in checked if not has_permission(permissions, item)]
        if missing:
            raise OAuthError("invalid_scope", f"not granted: {' '.join(missing)}")
        return checked, set(checked)

    def _respond(
        self,
        tenant_id: str,
        user: User,
        client_id: str,
        scope: list[str],
        permissions: set[str],
        refresh_token: str,
        realm: Realm | None = None,
    ) -> TokenResponse:
        platform = tenant_id == PLATFORM
        issuer = self._issuer if realm is None else self._issuer.at(realm.issuer)
        issued = issuer.issue(
            subject=user.id,
            client_id=client_id,
            tenant_id=None if platform else tenant_id,
            platform=platform,
            roles=user.roles,
            permissions=permissions,
            scope=scope,
            username=user.username,
            email=user.email,
        )
        return TokenResponse(
            issued.token, issued.expires_in, " ".join(scope), refresh_token
        )

    async def _new_family(
        self, tenant_id: str, subject: str, client_id: str, scope: list[str]
    ) -> RefreshToken:
        """The first refresh token of a new family, stored in ``tenant_id``."""
        refresh = RefreshToken.new(tenant_id)
        family = RefreshTokenFamily.issue(
            subject=subject,
            client_id=client_id,
            scope=" ".join(scope),
            current_hash=refresh.hash,
            now=self._clock.now(),
            id=refresh.family_id,
        )
        with in_tenant(tenant_id):
            await self._families.save(family)
        return refresh

    async def _revoke_access(self, tenant_id: str, jti: str, exp: int) -> None:
        """Revoke the access token ``jti`` until it expires (at ``exp``)."""
        revocation = AccessTokenRevocation.create(
            jti=jti,
            expires_at=datetime.fromtimestamp(exp, UTC),
            now=self._clock.now(),
            id=revocation_id_for(jti),
        )
        # a ConcurrencyError: revoked already
        with in_tenant(tenant_id), suppress(ConcurrencyError):
            await self._revocations.save(revocation)

    async def _revoke_family(self, tenant_id: str, family: RefreshTokenFamily) -> None:
        current: RefreshTokenFamily | None = family
        with in_tenant(tenant_id):
            for _ in range(5):
                if current is None or current.status != ACTIVE:
                    return
                try:
                    await self._families.save(
                        current.revoke(status=REVOKED, now=self._clock.now())
                    )
                    return
                except ConcurrencyError:
                    current = await self._families.get(family.id)
