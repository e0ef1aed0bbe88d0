"""What the routers of the tenants' identity providers (SAML, OpenID, LDAP) share: the
tenant of their path, where the caller must hold a permission, and their answers."""

from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from eaf.web import PROBLEM_TYPE
from fastapi import Depends, Path
from iam_client import User, require
from pydantic import JsonValue

from iam.infrastructure.web import PROBLEM

FEDERATION_READ, FEDERATION_WRITE = "iam-federation:read", "iam-federation:write"
#: Role names: 1 to 64 printable ASCII characters (the spec's rule of ``Role.name``).
ROLE_NAME_PATTERN = r"^(?:[ -~]{1,64})$"

JsonSchema = dict[str, JsonValue]
"""A JSON Schema fragment for the OpenAPI document."""

AUTH_PROBLEMS: dict[int | str, dict[str, Any]] = {
    **PROBLEM,
    **{status: {"content": {PROBLEM_TYPE: {}}} for status in (401, 403)},
}


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
