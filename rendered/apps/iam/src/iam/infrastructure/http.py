"""What the identity routers share: the wired use cases and the bearer guards of the
generated endpoints (``iam_client.require``, on the tokens the IAM issued: the
``bearer_tokens`` component). Their errors answered as ready responses are
``eaf.web.ResponseError`` on an ``eaf.web.AnsweringRoute``."""

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Annotated, Any

from eaf.web import PROBLEM_TYPE
from fastapi import Depends, Path, Request
from iam_client import User, require
from pydantic import JsonValue

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


@dataclass(frozen=True)
class Identity:
    """The identity use cases the routers call (``app.state.identity``)."""

    directory: Directory
    access: AccessControl
    tokens: TokenService
    issuer: str
    clients: RegisteredClientUseCases
    signin: SignIn


def identity(request: Request) -> Identity:
    wired: Identity = request.app.state.identity
    return wired


IdentityCases = Annotated[Identity, Depends(identity)]


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
