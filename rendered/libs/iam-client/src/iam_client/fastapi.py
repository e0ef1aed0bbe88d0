"""FastAPI dependencies: the bearer token of a request as its security context, permission guards.

    app = FastAPI()
    install(app, IamClient("https://iam.internal", issuer=..., audience=...))

    @app.get("/profiles/{id}")
    async def read(user: Annotated[User, Depends(require("user-profile:read"))]): ...

``require`` finds the client in ``request.app.state.iam_client`` (set by :func:`install`)
unless one is passed explicitly. The endpoint, and every use case it awaits, runs inside
``eaf.context.use(SecurityContext(...))`` for the token's user. The guards are async
dependencies on purpose: FastAPI runs sync dependencies in worker threads, whose context
changes the endpoint would never see.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Annotated, Any

from eaf.context import SecurityContext, current_or_none, use
from eaf.security import validate_permission
from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from iam_client.model import (
    AuthenticationError,
    IamUnavailableError,
    PermissionDeniedError,
    TokenValidator,
    User,
)

PROBLEM_TYPE = "application/problem+json"
# Declares the bearer scheme in OpenAPI (the docs' "Authorize" button); the token itself is
# read and checked below, so a missing one gets our 401 problem body, not FastAPI's 403.
BEARER_SCHEME = HTTPBearer(
    auto_error=False,
    bearerFormat="JWT",
    description="An RFC 9068 access token issued by IAM (`POST /api/v1/auth/token`).",
)
CORRELATION_HEADER = "X-Correlation-Id"


class ProblemError(HTTPException):
    """A 401 or 403 with an RFC 9457 problem body (rendered by the handler of :func:`install`)."""

    def __init__(
        self, status_code: int, title: str, detail: str, headers: Mapping[str, str]
    ) -> None:
        super().__init__(status_code, detail=detail, headers=dict(headers))
        self.title = title

    def problem(self) -> dict[str, Any]:
        return {
            "type": "about:blank",
            "title": self.title,
            "status": self.status_code,
            "detail": self.detail,
            "errors": [],  # as every problem body of the services: no field is at fault
        }


def install(app: FastAPI, client: TokenValidator | None) -> None:
    """Make ``client`` what validates the app's bearer tokens (an :class:`IamClient`, or
    the service's own :class:`TokenValidator`; ``None``: set ``app.state.iam_client``
    later, at start-up) and render auth failures (401, 403) and an unreachable IAM (503)
    as problem bodies."""
    if client is not None:
        app.state.iam_client = client
    app.add_exception_handler(ProblemError, _problem_response)
    app.add_exception_handler(AuthenticationError, _problem_response)
    app.add_exception_handler(PermissionDeniedError, _problem_response)
    app.add_exception_handler(IamUnavailableError, _problem_response)


async def _problem_response(request: Request, error: Exception) -> JSONResponse:
    if isinstance(error, AuthenticationError):
        error = _invalid_token(error)
    elif isinstance(error, PermissionDeniedError):
        error = _forbidden(error.permission)
    elif isinstance(error, IamUnavailableError):
        # Something only IAM knows (an ABAC decision, introspection) could not be asked:
        # the caller may retry; it is neither the caller's fault nor a crash.
        error = ProblemError(
            503, "Service Unavailable", str(error), {"Retry-After": "5"}
        )
    assert isinstance(error, ProblemError)
    return JSONResponse(
        error.problem(),
        status_code=error.status_code,
        headers=error.headers,
        media_type=PROBLEM_TYPE,
    )


def bearer_token(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer`` header, if there is one."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


TENANT_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""A tenant id a path may name (as an ``X-Tenant-Id`` header or a subject token may)."""


def security_context(
    user: User, request: Request, tenant_id: str | None = None
) -> SecurityContext:
    """The security context of ``user``'s request (in ``tenant_id``, a platform
    operator's chosen tenant, when given); the correlation id comes from the
    ``X-Correlation-Id`` header or the context already set, else a new one."""
    correlation = request.headers.get(CORRELATION_HEADER)
    if not correlation:
        outer = current_or_none()
        correlation = outer.correlation_id if outer else None
    extra = {"correlation_id": correlation} if correlation else {}
    return SecurityContext(
        tenant_id=tenant_id or user.tenant_id,
        user_id=user.id,
        roles=user.roles,
        permissions=user.permissions,
        token=user.token,
        platform=user.platform and tenant_id is None,
        client_ip=request.client.host if request.client else None,
        **extra,
    )


def require(
    permission: str | None = None,
    *,
    client: TokenValidator | None = None,
    check_revocation: bool = False,
    tenant_path: str | None = None,
    platform_only: bool = False,
) -> Callable[..., AsyncIterator[User]]:
    """A dependency yielding the request's authenticated :class:`User`, with the security
    context set for the rest of the request; 401 without a valid bearer token, 403
    without ``permission`` (``None``: any authenticated user).

    With ``tenant_path`` (a path parameter's name, such as ``tenantId``) the path names
    the tenant the request runs in: a tenant's token may name only its own tenant (404
    otherwise, so that no other tenant's existence shows), a platform token (a platform
    operator's) any tenant; the permission is checked after that. ``platform_only``: then only
    a platform operator's token is let through (403 ``platform operators only`` for a
    tenant's, whatever permissions its roles hold)."""
    if permission is not None:
        validate_permission(permission)

    async def authenticated_user(
        request: Request,
        _scheme: Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER_SCHEME)],
    ) -> AsyncIterator[User]:
        iam: TokenValidator = client or request.app.state.iam_client
        token = bearer_token(request)
        if token is None:
            raise ProblemError(
                401,
                "Unauthorized",
                "a bearer token is required",
                {"WWW-Authenticate": "Bearer"},
            )
        try:
            user = await iam.validate(token, check_revocation=check_revocation)
        except AuthenticationError as error:
            raise _invalid_token(error) from error
        tenant = None
        if tenant_path is not None:
            tenant = await _path_tenant(iam, request, tenant_path, user)
        if permission is not None and not iam.has_permission(user, permission):
            raise _forbidden(permission)
        if platform_only and not user.platform:
            raise ProblemError(403, "Forbidden", "platform operators only", {})
        with use(security_context(user, request, tenant)):
            yield user

    return authenticated_user


async def _path_tenant(
    iam: TokenValidator, request: Request, name: str, user: User
) -> str:
    """The tenant the path names, if ``user`` may act in it: a tenant's own, or for a
    platform operator one that ``iam`` knows."""
    tenant = str(request.path_params.get(name, ""))
    if not TENANT_PATTERN.fullmatch(tenant) or (
        tenant != user.tenant_id
        if not user.platform
        else not await iam.knows_tenant(tenant)
    ):
        raise ProblemError(404, "Not found", "Tenant not found", {})
    return tenant


def _invalid_token(error: AuthenticationError) -> ProblemError:
    description = _header_safe(error.reason)
    return ProblemError(
        401,
        "Unauthorized",
        "the bearer token is not valid",
        {
            "WWW-Authenticate": f'Bearer error="invalid_token", error_description="{description}"'
        },
    )


def _forbidden(permission: str) -> ProblemError:
    return ProblemError(
        403,
        "Forbidden",
        f"missing permission {permission}",
        {
            "WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{_header_safe(permission)}"'
        },
    )


def _header_safe(text: str) -> str:
    """``text`` as a quoted-string value: printable ASCII without quotes, at most 200 chars."""
    return "".join(c if " " <= c <= "~" and c not in '"\\' else "?" for c in text)[:200]


#: Any authenticated user, whatever their permissions.
authenticated = require()
