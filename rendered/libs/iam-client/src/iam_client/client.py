"""IamClient: local token validation against cached JWKS, introspection, permission checks."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Collection, Mapping
from types import TracebackType
from typing import Any

import httpx
from circuitbreaker import (  # type: ignore[import-untyped]
    CircuitBreaker,
    CircuitBreakerError,
)
from eaf.config import Settings
from eaf.security import (
    Decision,
    InvalidTokenError,
    JwksProvider,
    PublicKeys,
    StaticJwks,
    TokenVerifier,
    has_permission,
)

from iam_client.model import (
    AuthenticationError,
    IamDownError,
    IamUnavailableError,
    PermissionDeniedError,
    User,
)
from iam_client.revocation import RevocationList

logger = logging.getLogger(__name__)

JWKS_PATH = "/.well-known/jwks.json"
DISCOVERY_PATH = "/.well-known/openid-configuration"
INTROSPECTION_PATH = "/api/v1/auth/introspect"
AUTHZ_CHECK_PATH = "/api/v1/authz/check"


class RemoteJwks:
    """The issuer's JWKS over HTTP, cached.

    Reloaded after ``max_age`` seconds, and on a refresh request (a token with an unknown
    kid) at most once per ``min_refresh_interval`` seconds, so a flood of tokens with
    made-up kids cannot hammer IAM. Concurrent reloads share one request. When a reload
    fails, the cached keys stay in use.
    """

    def __init__(
        self,
        http: httpx.AsyncClient,
        url: str,
        *,
        min_refresh_interval: float = 30.0,
        max_age: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._http = http
        self._url = url
        self._min_refresh_interval = min_refresh_interval
        self._max_age = max_age
        self._clock = clock
        self._keys: PublicKeys | None = None
        self._fetched_at = self._refreshed_at = float("-inf")
        self._lock = asyncio.Lock()

    async def keys(self, *, refresh: bool = False) -> PublicKeys:
        keys = self._keys
        if keys is not None and not self._due(refresh):
            return keys
        async with self._lock:
            if self._keys is None or self._due(refresh):
                await self._fetch(refresh)
            assert self._keys is not None
            return self._keys

    def _due(self, refresh: bool) -> bool:
        now = self._clock()
        if now - self._fetched_at >= self._max_age:
            return True
        return refresh and now - self._refreshed_at >= self._min_refresh_interval

    async def _fetch(self, refresh: bool) -> None:
        self._fetched_at = self._clock()
        if refresh:
            self._refreshed_at = self._fetched_at
        try:
            response = await self._http.get(self._url)
            response.raise_for_status()
            self._keys = PublicKeys.from_jwks(response.json())
        except (httpx.HTTPError, ValueError) as error:
            if self._keys is None:
                raise IamUnavailableError(
                    f"cannot load JWKS from {self._url}: {error}"
                ) from error
            logger.warning(
                "JWKS reload from %s failed, keeping cached keys: %s", self._url, error
            )


class IamClient:
    """Validates access tokens locally and asks IAM what only IAM knows.

    With ``base_url`` the JWKS comes from ``{base_url}/.well-known/jwks.json``; with
    ``jwks`` (static mode, no ``base_url``) the keys are fixed and IAM is never called.
    Introspection authenticates with HTTP Basic when ``client_id`` and ``client_secret``
    are given, otherwise with the introspected token itself as bearer token.

    ``revocations`` is a deny list (filled by a :class:`~iam_client.feed.RevocationFeed`)
    every token is checked against. With ``introspect`` IAM is asked whether a token is
    still active whenever no current deny list vouches for it: without one, or while its
    feed is starting or cut off from the broker.

    Tokens of the issuer's realms (``{issuer}/realms/{tenant}``, the IAM's per-tenant
    OpenID providers) are accepted too, unless ``realms`` is false; any other issuer is
    refused.
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        issuer: str,
        audience: str | Collection[str],
        jwks: Mapping[str, Any] | None = None,
        http: httpx.AsyncClient | None = None,
        jwks_min_refresh_interval: float = 30.0,
        jwks_max_age: float = 3600.0,
        client_id: str | None = None,
        client_secret: str | None = None,
        leeway: int = 30,
        clock: Callable[[], float] = time.time,
        revocations: RevocationList | None = None,
        introspect: bool = False,
        breaker_failures: int = 5,
        breaker_recovery: float = 30.0,
        realms: bool = True,
    ) -> None:
        if (base_url is None) == (jwks is None):
            raise ValueError(
                "give either base_url (JWKS from IAM) or jwks (static mode)"
            )
        if introspect and base_url is None:
            raise ValueError("introspect needs base_url (IAM to ask)")
        if (client_id is None) != (client_secret is None):
            raise ValueError("client_id and client_secret go together")
        self._base_url = base_url.rstrip("/") if base_url else None
        self._owns_http = http is None
        self._http = http or httpx.AsyncClient(timeout=5.0)
        self._credentials = (
            (client_id, client_secret) if client_id and client_secret else None
        )
        self.keys: JwksProvider
        if jwks is not None:
            self.keys = StaticJwks(jwks)
        else:
            self.keys = RemoteJwks(
                self._http,
                self._url(JWKS_PATH),
                min_refresh_interval=jwks_min_refresh_interval,
                max_age=jwks_max_age,
            )
        self._verifier = TokenVerifier(
            self.keys,
            issuer=issuer,
            audience=audience,
            leeway=leeway,
            clock=clock,
            realms=realms,
        )
        self.revocations = revocations
        self._introspect = introspect
        # After ``breaker_failures`` calls in a row that could not reach IAM (or that it
        # failed, 5xx), calls fail fast for ``breaker_recovery`` seconds; then one call
        # is let through (half open): its success closes the circuit, a failure opens it
        # again. A refusal (4xx) is an answer, not a failure.
        self.breaker = CircuitBreaker(
            failure_threshold=breaker_failures,
            recovery_timeout=breaker_recovery,
            expected_exception=IamDownError,
            name=f"iam {self._base_url or 'static'}",
        )
        self._guarded_post = self.breaker.decorate(self._send_post)

    @classmethod
    def from_settings(cls, settings: Settings) -> IamClient:
        """The client a service's settings describe: IAM's published keys at
        ``security.iam_url``, tokens of issuer ``security.issuer`` (default: the IAM URL)
        and audience ``security.audience``, IAM's deny list when
        ``security.revocation_feed`` (default on, with a broker), introspection when
        ``security.introspect``."""
        iam_url = str(settings.get("security.iam_url"))
        feed = bool(
            settings.get("security.revocation_feed", True) and settings.broker_url
        )
        lifetime = float(settings.get("security.max_token_lifetime_seconds", 3600))
        return cls(
            iam_url,
            issuer=str(settings.get("security.issuer") or iam_url),
            audience=str(settings.get("security.audience")),
            revocations=RevocationList(max_token_lifetime=lifetime) if feed else None,
            introspect=bool(settings.get("security.introspect", False)),
            breaker_failures=int(settings.get("security.iam_breaker.failures", 5)),
            breaker_recovery=float(
                settings.get("security.iam_breaker.recovery_seconds", 30.0)
            ),
        )

    async def validate(self, token: str, *, check_revocation: bool = False) -> User:
        """The user of a valid ``token``; :class:`AuthenticationError` otherwise.

        Locally checked (signature, lifetime, issuer, audience) and against the deny
        list; ``check_revocation`` (or ``introspect`` while no current deny list vouches
        for the token) also asks IAM whether it is still active (RFC 7662), failing
        closed.
        """
        try:
            claims = await self._verifier.verify(token)
        except InvalidTokenError as error:
            raise AuthenticationError(error.reason) from error
        revocations = self.revocations
        if revocations is not None:
            refusal = revocations.refusal(claims)
            if refusal is not None:
                raise AuthenticationError(refusal)
        if check_revocation or (
            self._introspect and (revocations is None or not revocations.current)
        ):
            try:
                introspection = await self.introspect(token)
            except IamUnavailableError as error:
                raise AuthenticationError(
                    f"revocation check failed: {error}"
                ) from error
            if introspection.get("active") is not True:
                raise AuthenticationError("token is no longer active")
        return User.from_claims(claims, token)

    def has_permission(
        self, user: User, permission: str, resource: Mapping[str, Any] | None = None
    ) -> bool:
        """Whether the token grants ``permission`` (wildcards included).

        This sees the permissions in the token only. Attribute-based decisions about a
        ``resource`` are made by IAM's policy engine: use :meth:`check` for them.
        """
        if resource is not None:
            raise ValueError(
                "attribute-based decisions need IAM's policies:"
                " use `await client.check(user, permission, resource=...)`"
            )
        return has_permission(user.permissions, permission)

    async def knows_tenant(self, tenant_id: str) -> bool:
        """Always true: which tenants exist is IAM's to know; a platform operator's path
        may name any well-formed tenant id (its requests find nothing in a tenant that
        does not exist)."""
        return True

    def ensure_permission(self, user: User, permission: str) -> None:
        """Raise :class:`PermissionDeniedError` unless the token grants ``permission``."""
        if not self.has_permission(user, permission):
            raise PermissionDeniedError(permission)

    async def check(
        self,
        user: User,
        permission: str,
        *,
        resource: Mapping[str, Any] | None = None,
        env: Mapping[str, Any] | None = None,
    ) -> Decision:
        """IAM's decision (roles and attribute policies) for ``user`` and ``permission``:
        ``POST /api/v1/authz/check`` as the user, with ``{permission, resource, env}``."""
        body = {
            "permission": permission,
            "resource": dict(resource or {}),
            "env": dict(env or {}),
        }
        answer = await self._post_json(
            AUTHZ_CHECK_PATH,
            json=body,
            headers={"Authorization": f"Bearer {user.token}"},
        )
        allowed = answer.get("allowed")
        if not isinstance(allowed, bool):
            raise IamUnavailableError(
                f"IAM answered an authorization check with {answer!r}"
            )
        return Decision(allowed, str(answer.get("reason", "")))

    async def introspect(self, token: str) -> dict[str, Any]:
        """IAM's RFC 7662 introspection of ``token`` (``{"active": bool, ...}``)."""
        if self._credentials:
            auth: httpx.Auth | None = httpx.BasicAuth(*self._credentials)
            headers = {}
        else:
            auth, headers = None, {"Authorization": f"Bearer {token}"}
        return await self._post_json(
            INTROSPECTION_PATH, data={"token": token}, headers=headers, auth=auth
        )

    async def discover(self) -> dict[str, Any]:
        """IAM's OpenID Provider metadata."""
        try:
            response = await self._http.get(self._url(DISCOVERY_PATH))
            response.raise_for_status()
            metadata = response.json()
        except (httpx.HTTPError, ValueError) as error:
            raise IamUnavailableError(f"discovery failed: {error}") from error
        if not isinstance(metadata, dict):
            raise IamUnavailableError("discovery answered no JSON object")
        return metadata

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> IamClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    def _url(self, path: str) -> str:
        if self._base_url is None:
            raise IamUnavailableError(
                "this IamClient has no base_url (static JWKS mode)"
            )
        return self._base_url + path

    async def _post_json(self, path: str, **kwargs: Any) -> dict[str, Any]:
        url = self._url(path)
        try:
            answer: dict[str, Any] = await self._guarded_post(url, **kwargs)
        except CircuitBreakerError:
            raise IamUnavailableError(
                f"POST {path} not sent: IAM failed {self.breaker.failure_count} times in "
                f"a row; calls fail fast for {max(self.breaker.open_remaining, 0)} s more"
            ) from None
        return answer

    async def _send_post(self, url: str, **kwargs: Any) -> dict[str, Any]:
        try:
            response = await self._http.post(url, **kwargs)
        except httpx.HTTPError as error:
            raise IamDownError(f"POST {url} failed: {error}") from error
        if response.status_code >= 500:
            raise IamDownError(f"POST {url} answered {response.status_code}")
        try:
            response.raise_for_status()
            answer = response.json()
        except (httpx.HTTPError, ValueError) as error:
            raise IamUnavailableError(f"POST {url} failed: {error}") from error
        if not isinstance(answer, dict):
            raise IamUnavailableError(f"POST {url} answered no JSON object")
        return answer
