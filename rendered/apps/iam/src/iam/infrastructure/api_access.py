"""The authorization checks of the HTTP API (roles and policies are served from the
spec)."""

from typing import Any

from eaf.security import PERMISSION_PATTERN, has_permission
from eaf.web import AnsweringRoute, Body, problem_error
from fastapi import APIRouter, Request
from iam_client import PermissionDeniedError
from pydantic import BaseModel, Field

from iam.application.access import checked_permissions
from iam.application.identity import (
    AUTHZ_READ,
    PLATFORM,
    tenant_reference,
)
from iam.application.tokens import PLATFORM_PERMISSIONS
from iam.infrastructure.http import AUTH_PROBLEMS, Authenticated, IdentityCases

router = APIRouter(tags=["access"], route_class=AnsweringRoute)


class CheckRequest(Body):
    permission: str = Field(json_schema_extra={"pattern": PERMISSION_PATTERN})
    resource: dict[str, Any] = Field(default_factory=dict)
    env: dict[str, Any] = Field(default_factory=dict)
    subject: str | None = None
    tenant: str | None = Field(
        default=None,
        description="the subject's tenant (id or name), when a platform caller asks for"
        " a tenant's subject; without it, the subject is a platform user",
    )


class CheckAnswer(BaseModel):
    allowed: bool
    reason: str


@router.post("/api/v1/authz/check", responses=AUTH_PROBLEMS)
async def check(
    body: CheckRequest, caller: Authenticated, request: Request, wired: IdentityCases
) -> CheckAnswer:
    """The decision of the caller's tenant on ``permission`` for the caller (or, with
    ``iam-authz:read``, for ``subject``; a platform caller names its ``tenant``); ``env``
    defaults to the time and client IP."""
    checked_permissions(
        [body.permission]
    )  # 422 naming a malformed one, for every caller
    subject = caller.id
    asks_for_another = body.subject is not None and body.subject != subject
    if caller.platform and not asks_for_another:
        allowed = has_permission(caller.permissions, body.permission)
        return CheckAnswer(allowed=allowed, reason="platform token permissions")
    if asks_for_another and not has_permission(caller.permissions, AUTHZ_READ):
        raise PermissionDeniedError(AUTHZ_READ)
    if caller.platform and body.tenant is None:
        # without a tenant, the subject is one of the platform's, whose tokens hold *:*
        known = await wired.access.subject(PLATFORM, str(body.subject)) is not None
        return CheckAnswer(
            allowed=known and has_permission(PLATFORM_PERMISSIONS, body.permission),
            reason="platform permissions"
            if known
            else "the subject is no active platform user (name its tenant)",
        )
    if caller.platform:
        assert body.tenant is not None
        tenant_id = tenant_reference(body.tenant)
    else:
        assert caller.tenant_id is not None
        tenant_id = caller.tenant_id
    if body.subject is not None:
        subject = body.subject
    env = dict(body.env)
    if request.client is not None:
        env.setdefault("ip", request.client.host)
    try:
        decision = await wired.access.check(
            tenant_id,
            subject,
            body.permission,
            resource=body.resource,
            env=env,
        )
    except ValueError as error:
        raise problem_error(422, "Validation failed", str(error)) from None
    return CheckAnswer(allowed=decision.allowed, reason=decision.reason)
