"""Browser sign-in at a tenant's realm, as an OpenID provider: the authorization code
flow with PKCE (RFC 6749 §4.1, RFC 7636), ID tokens, userinfo and RP-initiated logout
(OpenID Connect Core and RP-Initiated Logout 1.0)."""

import base64
import hashlib
import hmac
import re
import secrets
import time
from dataclasses import dataclass, replace
from datetime import timedelta
from urllib.parse import quote, urlencode

from eaf.context import in_tenant
from eaf.security import SIGNING_ALGORITHM, KeyRing
from joserfc import jws, jwt
from joserfc.errors import JoseError

from iam.application.clients import active_client, is_public
from iam.application.identity import ACTIVE, PLATFORM, tenant_reference
from iam.application.oauth import (
    Client,
    InactiveTokenError,
    IssuedTokens,
    OAuthError,
    Realm,
    TokenResponse,
)
from iam.application.ports.inbound import RegisteredClientUseCases
from iam.application.ports.outbound import TenantRepository
from iam.application.ports.signin import Expiring, ExternalProvider, ExternalProviders
from iam.application.tokens import TokenService
from iam.domain.model import RegisteredClient, User
from iam.domain.types import GrantType

CODE_TTL = timedelta(seconds=60)
SPENT_CODE_TTL = timedelta(minutes=15)
FORM_TTL = timedelta(minutes=15)
ID_TOKEN_TTL = timedelta(minutes=15)
# RFC 7636 §4.1: a verifier is 43 to 128 unreserved characters; an S256 challenge is
# the base64url of a sha256 (43 characters).
PKCE_VERIFIER = re.compile(r"[A-Za-z0-9._~-]{43,128}")
S256_CHALLENGE = re.compile(r"[A-Za-z0-9_-]{43}")
MAX_PARAMETER_LENGTH = 2000


class UnknownRealmError(Exception):
    """No active tenant has this name or id."""


class InvalidAuthorizationRequestError(Exception):
    """An authorization request whose client or redirect URI is not trusted: answered
    with an error page, never redirected (RFC 6749 §4.1.2.1)."""


class AuthorizationError(Exception):
    """An authorization request refused by redirecting back to the client."""

    def __init__(self, request: "AuthorizationRequest", error: str, text: str) -> None:
        super().__init__(text)
        self.location = request.redirect(error=error, error_description=text)


class SignInFormError(Exception):
    """A sign-in form that is unknown, expired or not this browser's (CSRF)."""


@dataclass(frozen=True)
class AuthorizationRequest:
    """A checked authorization request: its client and redirect URI are registered."""

    realm: Realm
    client: RegisteredClient
    redirect_uri: str
    scope: list[str]
    state: str | None
    nonce: str | None
    code_challenge: str | None
    prompt: frozenset[str]

    def redirect(self, **parameters: str) -> str:
        """The redirect URI with ``parameters``, ``state`` and ``iss`` (RFC 9207)."""
        answer = dict(parameters)
        if self.state is not None:
            answer["state"] = self.state
        answer["iss"] = self.realm.issuer
        separator = "&" if "?" in self.redirect_uri else "?"
        return f"{self.redirect_uri}{separator}{urlencode(answer)}"


@dataclass(frozen=True)
class BrowserSession:
    """A user signed in at a realm, in one browser."""

    tenant_id: str
    user_id: str
    auth_time: int


@dataclass(frozen=True)
class PendingSignIn:
    """A sign-in form shown to a browser, for an authorization request."""

    request: AuthorizationRequest
    browser: str
    session: "BrowserSession | None" = None
    """Set once signed in: the form asks for consent."""


@dataclass(frozen=True)
class CodeGrant:
    """What an authorization code stands for."""

    request: AuthorizationRequest
    session: BrowserSession


@dataclass(frozen=True)
class SpentCode:
    """A code exchanged (or refused) already, with the tokens it gave, if any."""

    issued: IssuedTokens | None


@dataclass(frozen=True)
class SignedIn:
    """A browser session's opaque id and the authorization request to answer."""

    session_id: str
    session: BrowserSession
    request: AuthorizationRequest


def digest(secret: str) -> str:
    """The key a secret (code, session id) is kept under: its sha256."""
    return hashlib.sha256(secret.encode()).hexdigest()


def s256(verifier: str) -> str:
    """The S256 code challenge of a PKCE verifier (RFC 7636 §4.2)."""
    hashed = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(hashed).rstrip(b"=").decode()


class SignIn:
    """Authorization requests, the sign-in form, codes, ID tokens, userinfo, logout."""

    def __init__(
        self,
        *,
        tokens: TokenService,
        registrations: RegisteredClientUseCases,
        tenants: TenantRepository,
        keys: KeyRing,
        codes: Expiring[CodeGrant | SpentCode],
        sessions: Expiring[BrowserSession],
        forms: Expiring[PendingSignIn],
        providers: ExternalProviders,
        base_issuer: str,
        session_ttl: timedelta,
    ) -> None:
        self._tokens = tokens
        self._registrations = registrations
        self._tenants = tenants
        self._keys = keys
        self._codes = codes
        self._sessions = sessions
        self._forms = forms
        self._providers = providers
        self._base = base_issuer.rstrip("/")
        self._session_ttl = session_ttl

    @property
    def https(self) -> bool:
        """Whether the realms are served over https (their cookies are then Secure)."""
        return self._base.startswith("https://")

    def issuer_of(self, name: str) -> str:
        """The issuer of the realm called ``name`` (a tenant's name or id), the name
        percent-encoded as the one path segment it is."""
        return f"{self._base}/realms/{quote(name, safe='')}"

    async def realm(self, name: str) -> Realm:
        """The active tenant ``name`` (its name or id) as a realm."""
        tenant_id = tenant_reference(name)
        if tenant_id == PLATFORM:
            raise UnknownRealmError(name)
        with in_tenant(tenant_id):
            tenant = await self._tenants.get(tenant_id)
        if tenant is None or tenant.status != ACTIVE:
            raise UnknownRealmError(name)
        return Realm(tenant_id, name, self.issuer_of(name))

    async def authorization_request(
        self, realm: Realm, params: dict[str, str]
    ) -> AuthorizationRequest:
        """The checked request; :class:`InvalidAuthorizationRequestError` when its
        client or redirect URI is not registered, :class:`AuthorizationError` (to
        redirect) for any other fault."""
        if any(len(value) > MAX_PARAMETER_LENGTH for value in params.values()):
            raise InvalidAuthorizationRequestError("a parameter is too long")
        client_id = params.get("client_id")
        client = (
            await active_client(self._registrations, realm.tenant_id, client_id)
            if client_id
            else None
        )
        if client is None:
            raise InvalidAuthorizationRequestError("unknown client_id")
        redirect_uri = params.get("redirect_uri")
        if redirect_uri is None or redirect_uri not in client.redirect_uris:
            raise InvalidAuthorizationRequestError(
                "redirect_uri is missing or not registered for this client"
            )
        requested = params.get("scope", "").split()
        request = AuthorizationRequest(
            realm=realm,
            client=client,
            redirect_uri=redirect_uri,
            scope=list(dict.fromkeys(requested or client.scopes)),
            state=params.get("state"),
            nonce=params.get("nonce"),
            code_challenge=params.get("code_challenge"),
            prompt=frozenset(params.get("prompt", "").split()),
        )
        if params.get("response_type") != "code":
            raise AuthorizationError(
                request, "unsupported_response_type", "only response_type=code"
            )
        if GrantType.AUTHORIZATION_CODE not in client.grant_types:
            raise AuthorizationError(
                request, "unauthorized_client", "the client has no code grant"
            )
        if "request" in params or "request_uri" in params:
            raise AuthorizationError(
                request, "request_not_supported", "request objects are not supported"
            )
        self._check_pkce(request, params)
        unknown = [word for word in request.scope if word not in client.scopes]
        if unknown:
            raise AuthorizationError(
                request, "invalid_scope", f"not registered: {' '.join(unknown)}"
            )
        if "none" in request.prompt and len(request.prompt) > 1:
            raise AuthorizationError(
                request, "invalid_request", "prompt=none goes alone"
            )
        return request

    @staticmethod
    def _check_pkce(request: AuthorizationRequest, params: dict[str, str]) -> None:
        challenge = request.code_challenge
        if challenge is None:
            if is_public(request.client):
                raise AuthorizationError(
                    request,
                    "invalid_request",
                    "a public client must send a code_challenge (PKCE, S256)",
                )
            return
        if params.get("code_challenge_method", "plain") != "S256":
            raise AuthorizationError(
                request, "invalid_request", "code_challenge_method must be S256"
            )
        if S256_CHALLENGE.fullmatch(challenge) is None:
            raise AuthorizationError(
                request, "invalid_request", "malformed S256 code_challenge"
            )

    async def session(
        self, realm: Realm, session_id: str | None
    ) -> BrowserSession | None:
        """The realm's browser session ``session_id``, while its user is active."""
        if not session_id:
            return None
        session = await self._sessions.get(digest(session_id))
        if session is None or session.tenant_id != realm.tenant_id:
            return None
        if await self._tokens.active_user(realm.tenant_id, session.user_id) is None:
            return None
        return session

    async def show_form(
        self,
        request: AuthorizationRequest,
        browser: str,
        session: BrowserSession | None = None,
    ) -> str:
        """The id of a new sign-in form (or, with the ``session`` signed in, consent
        form) for ``request`` in ``browser``: the form's CSRF token, valid only with
        that browser's cookie."""
        form_id = secrets.token_urlsafe(32)
        await self._forms.put(
            digest(form_id), PendingSignIn(request, browser, session), FORM_TTL
        )
        return form_id

    async def consent(
        self, realm: Realm, form_id: str, browser: str, *, allowed: bool
    ) -> str:
        """Where to send the browser once the user answered the consent form: a code,
        or ``access_denied``."""
        pending = await self.pending(realm, form_id, browser)
        if pending.session is None:
            raise SignInFormError("this sign-in form expired: start again")
        await self._forms.pop(digest(form_id))
        if not allowed:
            return pending.request.redirect(
                error="access_denied", error_description="the user declined"
            )
        return await self.issue_code(pending.request, pending.session)

    async def pending(self, realm: Realm, form_id: str, browser: str) -> PendingSignIn:
        """The form ``form_id`` shown to ``browser`` at ``realm``; else
        :class:`SignInFormError`."""
        pending = await self._forms.get(digest(form_id)) if form_id else None
        if (
            pending is None
            or pending.request.realm.tenant_id != realm.tenant_id
            or not browser
            or not hmac.compare_digest(pending.browser, browser)
        ):
            raise SignInFormError("this sign-in form expired: start again")
        return pending

    async def sign_in(
        self, realm: Realm, form_id: str, browser: str, username: str, password: str
    ) -> SignedIn:
        """A new browser session if ``password`` is the user's, checked as the password
        grant checks it (``invalid_grant`` or :class:`TooManyAttemptsError` else)."""
        pending = await self.pending(realm, form_id, browser)
        user: User = await self._tokens.authenticate_user(
            realm.tenant_id, username, password
        )
        return await self._new_session(realm, form_id, pending, user)

    async def sign_in_as(
        self, realm: Realm, form_id: str, browser: str, user_id: str
    ) -> SignedIn:
        """A new browser session for ``user_id``, whom an external identity provider
        vouched for, answering the sign-in form ``form_id`` shown to ``browser``
        (:class:`SignInFormError` when the form is not this browser's or the user is
        not active)."""
        pending = await self.pending(realm, form_id, browser)
        user = await self._tokens.active_user(realm.tenant_id, user_id)
        if user is None:
            raise SignInFormError("this account is disabled")
        return await self._new_session(realm, form_id, pending, user)

    async def _new_session(
        self, realm: Realm, form_id: str, pending: PendingSignIn, user: User
    ) -> SignedIn:
        await self._forms.pop(digest(form_id))
        session_id = secrets.token_urlsafe(32)
        session = BrowserSession(realm.tenant_id, user.id, int(time.time()))
        await self._sessions.put(digest(session_id), session, self._session_ttl)
        return SignedIn(session_id, session, pending.request)

    async def signed_in_as(
        self, realm: Realm, form_id: str, browser: str, user_id: str
    ) -> SignedIn:
        """A new browser session of ``user_id``, whom another identity source
        authenticated, for the form ``form_id`` shown to ``browser``."""
        pending = await self.pending(realm, form_id, browser)
        await self._forms.pop(digest(form_id))
        session_id = secrets.token_urlsafe(32)
        session = BrowserSession(realm.tenant_id, user_id, int(time.time()))
        await self._sessions.put(digest(session_id), session, self._session_ttl)
        return SignedIn(session_id, session, pending.request)

    async def issue_code(
        self, request: AuthorizationRequest, session: BrowserSession
    ) -> str:
        """Where to send the browser: the redirect URI with a new code."""
        code = secrets.token_urlsafe(32)
        await self._codes.put(digest(code), CodeGrant(request, session), CODE_TTL)
        return request.redirect(code=code)

    async def redeem(
        self,
        realm: Realm,
        client: Client,
        *,
        code: str,
        redirect_uri: str | None,
        verifier: str | None,
    ) -> TokenResponse:
        """The tokens for ``code``, once: a code presented again is refused and the
        tokens it gave are revoked (RFC 6749 §4.1.2)."""
        key = digest(code)
        found = await self._codes.pop(key)
        if isinstance(found, SpentCode):
            await self._codes.put(key, SpentCode(None), SPENT_CODE_TTL)
            if found.issued is not None:
                await self._tokens.revoke_issued(found.issued)
            raise OAuthError(
                "invalid_grant", "code used already: the tokens it gave are revoked"
            )
        if found is None:
            raise OAuthError("invalid_grant", "unknown or expired code")
        await self._codes.put(key, SpentCode(None), SPENT_CODE_TTL)
        request = found.request
        if request.realm.tenant_id != realm.tenant_id:
            raise OAuthError("invalid_grant", "code issued by another realm")
        if (client.client_id, client.tenant_id) != (
            request.client.client_id,
            realm.tenant_id,
        ):
            raise OAuthError("invalid_grant", "code issued to another client")
        if redirect_uri != request.redirect_uri:
            raise OAuthError("invalid_grant", "redirect_uri differs from the request's")
        _check_verifier(request.code_challenge, verifier)
        assert client.registered is not None
        response, issued = await self._tokens.code_tokens(
            realm=realm,
            user_id=found.session.user_id,
            client=client.registered,
            scope=request.scope,
        )
        await self._codes.put(key, SpentCode(issued), SPENT_CODE_TTL)
        if "openid" not in request.scope:
            return response
        id_token = await self._id_token(request, found.session)
        return replace(response, id_token=id_token)

    async def _id_token(
        self, request: AuthorizationRequest, session: BrowserSession
    ) -> str:
        user = await self._tokens.active_user(request.realm.tenant_id, session.user_id)
        if user is None:
            raise OAuthError("invalid_grant", "the user is no longer active")
        now = int(time.time())
        claims: dict[str, object] = {
            "iss": request.realm.issuer,
            "sub": user.id,
            "aud": request.client.client_id,
            "azp": request.client.client_id,
            "exp": now + int(ID_TOKEN_TTL.total_seconds()),
            "iat": now,
            "auth_time": session.auth_time,
        }
        if request.nonce is not None:
            claims["nonce"] = request.nonce
        claims.update(profile_claims(user, request.scope))
        key = self._keys.active
        header = {"alg": SIGNING_ALGORITHM, "typ": "JWT", "kid": key.kid}
        return jwt.encode(header, claims, key.key, algorithms=[SIGNING_ALGORITHM])

    async def userinfo(self, realm: Realm, token: str) -> dict[str, object]:
        """The claims about the bearer's user (OpenID Connect Core §5.3): an access
        token of this realm with the ``openid`` scope."""
        claims = await self._tokens.authenticate(token)
        if claims.issuer != realm.issuer or claims.tenant_id != realm.tenant_id:
            raise InactiveTokenError("not a token of this realm")
        if "openid" not in claims.scope:
            raise OAuthError("insufficient_scope", "the token has no openid scope", 403)
        user = await self._tokens.active_user(realm.tenant_id, claims.subject)
        if user is None:
            raise InactiveTokenError("the token's subject is not active")
        return {"sub": user.id, **profile_claims(user, sorted(claims.scope))}

    async def end_session(
        self,
        realm: Realm,
        session_id: str | None,
        *,
        id_token_hint: str | None,
        post_logout_redirect_uri: str | None,
        client_id: str | None,
        state: str | None,
    ) -> str | None:
        """End the browser's session; where to send it next, if the client asked for a
        registered post-logout redirect URI (else None: a signed-out page).
        :class:`InvalidAuthorizationRequestError` for an unregistered one."""
        if session_id:
            session = await self._sessions.pop(digest(session_id))
            if session is not None and session.tenant_id != realm.tenant_id:
                # another realm's session, under this realm's cookie path: keep it
                await self._sessions.put(digest(session_id), session, self._session_ttl)
        if post_logout_redirect_uri is None:
            return None
        hinted = self._hinted_client(realm, id_token_hint) if id_token_hint else None
        client_id = hinted or client_id
        client = (
            await active_client(self._registrations, realm.tenant_id, client_id)
            if client_id
            else None
        )
        if client is None or post_logout_redirect_uri not in (
            client.post_logout_redirect_uris
        ):
            raise InvalidAuthorizationRequestError(
                "post_logout_redirect_uri is not registered for this client"
            )
        if state is None:
            return post_logout_redirect_uri
        separator = "&" if "?" in post_logout_redirect_uri else "?"
        return f"{post_logout_redirect_uri}{separator}{urlencode({'state': state})}"

    def _hinted_client(self, realm: Realm, id_token: str) -> str:
        """The audience of an ID token this realm issued (expired ones too)."""
        try:
            header = jws.extract_compact(id_token.encode()).headers()
            key = self._keys.find(str(header.get("kid")))
            if key is None:
                raise InvalidAuthorizationRequestError("id_token_hint: unknown key")
            claims = jwt.decode(
                id_token, key.key, algorithms=[SIGNING_ALGORITHM]
            ).claims
        except (JoseError, ValueError) as error:
            raise InvalidAuthorizationRequestError(
                "id_token_hint is not an ID token of this realm"
            ) from error
        audience = claims.get("aud")
        if claims.get("iss") != realm.issuer or not isinstance(audience, str):
            raise InvalidAuthorizationRequestError(
                "id_token_hint is not an ID token of this realm"
            )
        return audience

    async def providers(self, realm: Realm) -> list[ExternalProvider]:
        """The external identity providers the realm's sign-in page offers."""
        return await self._providers.providers(realm.tenant_id)


def _check_verifier(challenge: str | None, verifier: str | None) -> None:
    if challenge is None:
        if verifier is not None:
            raise OAuthError(
                "invalid_grant", "no code_challenge was sent for this code"
            )
        return
    if verifier is None:
        raise OAuthError("invalid_grant", "code_verifier is missing (PKCE)")
    if PKCE_VERIFIER.fullmatch(verifier) is None or not hmac.compare_digest(
        s256(verifier), challenge
    ):
        raise OAuthError("invalid_grant", "code_verifier does not match the challenge")


def profile_claims(user: User, scope: list[str]) -> dict[str, object]:
    """The standard claims of ``user`` that ``scope`` asks for."""
    claims: dict[str, object] = {}
    if "profile" in scope:
        claims["preferred_username"] = user.username
    if "email" in scope and user.email:
        claims["email"] = user.email
    return claims
