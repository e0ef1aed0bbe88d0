"""What the identity routers share: the wired use cases, the bearer guards of the
generated endpoints (``iam_client.require``, on the tokens the IAM issued: the
``bearer_tokens`` component), and errors answered as ready responses."""

from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from eaf.web import PROBLEM_TYPE, problem
from fastapi import Depends, Path, Request, Response
from fastapi.routing import APIRoute
from iam_client import User, require
from pydantic import BaseModel, ConfigDict, JsonValue

from iam.application.access import AccessControl
from iam.application.directory import Directory
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
    """Stops a request with ``response`` (an OAuth error, a sign-in page...)."""

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

Authenticated = Annotated[User, Depends(require())]
"""The caller, with the security context set for the request; 401 without a valid
bearer token."""


def in_path_tenant(permission: str) -> Callable[..., Coroutine[Any, Any, str]]:
    """A dependency: the ``tenantId`` of the path, which must be the caller's tenant
    (404 otherwise, so no other tenant's data is ever revealed; a platform
    administrator's names any existing tenant) and where the caller must hold
    ``permission``."""
    guard = require(permission, tenant_path="tenantId")

    async def tenant(
        tenant_id: Annotated[str, Path(alias="tenantId")],
        _caller: Annotated[User, Depends(guard)],
    ) -> str:
        return tenant_id

    return tenant
