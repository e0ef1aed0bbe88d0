"""What the identity routers share: the wired use cases, bearer authentication with
permission and tenant guards, and errors answered as ready responses."""

from collections.abc import AsyncIterator, Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from eaf import context
from eaf.security import AccessClaims, has_permission
from eaf.web import PROBLEM_TYPE, problem
from fastapi import Depends, Path, Request, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, JsonValue

from iam.application.access import AccessControl
from iam.application.directory import Directory
from iam.application.identity import PLATFORM
from iam.application.oauth import InactiveTokenError
from iam.application.ports.inbound import RegisteredClientUseCases
from iam.application.signin import SignIn
from iam.application.tokens import TokenService
from iam.infrastructure.web import PROBLEM

JsonSchema = dict[str, JsonValue]
"""A JSON Schema fragment for the OpenAPI document."""

AUTH_PROBLEMS: dict[int | str, dict[str, Any]] = {
    **PROBLEM,
    **{status: {"content": {PROBLEM_TYPE: {}}} for status in (401, 403)},
}


class CamelModel(BaseModel):
    """A request or response body with camelCase names and no unknown fields."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid")


@dataclass(frozen=True)
class Identity:
    """The identity use cases the routers call (``app.state.identity``)."""

    directory: Directory
    access: AccessControl
    tokens: TokenService
    issuer: str
    clients: RegisteredClientUseCases
    signin: SignIn


class ResponseError(Exception):
    """Stops a request with ``response`` (an auth failure, an OAuth error...)."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response


class ProblemRoute(APIRoute):
    """A route that answers a :class:`ResponseError` with its response, also when a
    dependency raised it (the app's handlers are fixed before these routers are used)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def answer(request: Request) -> Response:
            try:
                return await handle(request)
            except ResponseError as error:
                return error.response

        return answer


def problem_error(
    status: int, title: str, detail: str, headers: Mapping[str, str] | None = None
) -> ResponseError:
    response = problem(status, title, detail, [])
    response.headers.update(headers or {})
    return ResponseError(response)


def identity(request: Request) -> Identity:
    wired: Identity = request.app.state.identity
    return wired


IdentityCases = Annotated[Identity, Depends(identity)]


@dataclass(frozen=True)
class Caller:
    """The verified bearer of a request."""

    claims: AccessClaims
    token: str

    @property
    def scope_tenant(self) -> str:
        """The tenant scope the caller belongs to (``platform`` for platform tokens)."""
        return self.claims.tenant_id or PLATFORM

    def may(self, permission: str) -> bool:
        return has_permission(self.claims.permissions, permission)


def bearer_token(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def verified_caller(request: Request, wired: IdentityCases) -> Caller | None:
    """The caller of a request with a valid bearer token, or None without one."""
    token = bearer_token(request)
    if token is None:
        return None
    try:
        claims = await wired.tokens.authenticate(token)
    except InactiveTokenError as error:
        description = "".join(
            c if " " <= c <= "~" and c not in '"\\' else "?" for c in error.reason
        )
        raise problem_error(
            401,
            "Unauthorized",
            "the bearer token is not valid",
            {
                "WWW-Authenticate": f'Bearer error="invalid_token", error_description="{description[:200]}"'
            },
        ) from None
    return Caller(claims, token)


async def authenticated(
    caller: Annotated[Caller | None, Depends(verified_caller)],
) -> AsyncIterator[Caller]:
    """The caller, with the security context set for the request; 401 without token."""
    if caller is None:
        raise problem_error(
            401,
            "Unauthorized",
            "a bearer token is required",
            {"WWW-Authenticate": "Bearer"},
        )
    claims = caller.claims
    # The request's correlation id (set by the observability middleware) carries on into
    # the events this request writes, and from there into NATS headers and consumers.
    outer = context.current_or_none()
    correlation = {"correlation_id": outer.correlation_id} if outer else {}
    with context.use(
        context.SecurityContext(
            tenant_id=claims.tenant_id,
            user_id=claims.subject,
            roles=claims.roles,
            permissions=claims.permissions,
            token=caller.token,
            platform=claims.platform,
            **correlation,
        )
    ):
        yield caller


Authenticated = Annotated[Caller, Depends(authenticated)]


def forbidden(permission: str) -> ResponseError:
    return problem_error(
        403,
        "Forbidden",
        f"missing permission {permission}",
        {
            "WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{permission}"'
        },
    )


def platform_admin(permission: str) -> Callable[..., Coroutine[Any, Any, Caller]]:
    """A dependency: the caller, who must hold ``permission`` in a platform token (403
    otherwise: tenant administrators can grant their own roles any permission)."""

    async def permitted(caller: Authenticated) -> Caller:
        if not caller.claims.platform:
            raise problem_error(403, "Forbidden", "platform administrators only", {})
        if not caller.may(permission):
            raise forbidden(permission)
        return caller

    return permitted


def in_path_tenant(permission: str) -> Callable[..., Coroutine[Any, Any, str]]:
    """A dependency: the ``tenantId`` of the path, which must be the caller's tenant
    (404 otherwise, so no other tenant's data is ever revealed; platform
    administrators excepted) and where the caller must hold ``permission``."""

    async def tenant(
        tenant_id: Annotated[str, Path(alias="tenantId")],
        caller: Authenticated,
        wired: IdentityCases,
    ) -> str:
        if caller.claims.platform:
            await wired.directory.tenant(tenant_id)
        elif caller.claims.tenant_id != tenant_id:
            raise problem_error(404, "Not found", "Tenant not found")
        if not caller.may(permission):
            raise forbidden(permission)
        return tenant_id

    return tenant
