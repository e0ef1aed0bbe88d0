"""HTTP API of attribute policies and authorization checks (roles are served from the
spec)."""

from datetime import datetime
from typing import Annotated, Any, Literal

from eaf.security import PERMISSION_PATTERN, has_permission
from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from iam.application.access import checked_permissions, conditions_of
from iam.application.identity import (
    AUTHZ_READ,
    PLATFORM,
    POLICIES_READ,
    POLICIES_WRITE,
    tenant_reference,
)
from iam.application.tokens import PLATFORM_PERMISSIONS
from iam.domain.model import Policy
from iam.infrastructure.conditions_http import ConditionBody
from iam.infrastructure.http import (
    AUTH_PROBLEMS,
    Authenticated,
    CamelModel,
    IdentityCases,
    JsonSchema,
    ProblemRoute,
    forbidden,
    in_path_tenant,
    problem_error,
)

router = APIRouter(tags=["access"], route_class=ProblemRoute)
TENANT = "/api/v1/tenants/{tenantId}"

PoliciesReader = Annotated[str, Depends(in_path_tenant(POLICIES_READ))]
PoliciesWriter = Annotated[str, Depends(in_path_tenant(POLICIES_WRITE))]


# The rules the use cases enforce, stated for the OpenAPI document (the use cases answer
# a request that breaks them with their own messages).
PERMISSION: JsonSchema = {"type": "string", "pattern": PERMISSION_PATTERN}


class PolicyRule(CamelModel):
    effect: Literal["allow", "deny"]
    permissions: list[str] = Field(
        json_schema_extra={"items": PERMISSION, "minItems": 1}
    )
    conditions: list[ConditionBody] = Field(default_factory=list)

    def condition_data(self) -> list[dict[str, Any]]:
        return [c.model_dump(exclude_none=True) for c in self.conditions]


class NewPolicy(PolicyRule):
    name: str


class PolicyView(CamelModel):
    policy_id: str = Field(serialization_alias="policyId")
    name: str
    effect: str
    permissions: list[str]
    conditions: list[dict[str, Any]]
    status: str
    created_at: datetime = Field(serialization_alias="createdAt")
    updated_at: datetime = Field(serialization_alias="updatedAt")

    @classmethod
    def of(cls, policy: Policy) -> "PolicyView":
        return cls(
            policy_id=policy.id,
            name=policy.name,
            effect=policy.effect,
            permissions=policy.permissions,
            conditions=conditions_of(policy),
            status=policy.status,
            created_at=policy.created_at,
            updated_at=policy.updated_at,
        )


class CheckRequest(CamelModel):
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


@router.post(f"{TENANT}/policies", status_code=201, responses=AUTH_PROBLEMS)
async def create_policy(
    tenant_id: PoliciesWriter, body: NewPolicy, wired: IdentityCases
) -> PolicyView:
    policy = await wired.access.create_policy(
        tenant_id,
        name=body.name,
        effect=body.effect,
        permissions=body.permissions,
        conditions=body.condition_data(),
    )
    return PolicyView.of(policy)


@router.get(f"{TENANT}/policies", responses=AUTH_PROBLEMS)
async def list_policies(
    tenant_id: PoliciesReader, wired: IdentityCases
) -> list[PolicyView]:
    return [PolicyView.of(p) for p in await wired.access.policies(tenant_id)]


@router.get(f"{TENANT}/policies/{{policyId}}", responses=AUTH_PROBLEMS)
async def get_policy(
    tenant_id: PoliciesReader, policyId: str, wired: IdentityCases
) -> PolicyView:
    return PolicyView.of(await wired.access.policy(tenant_id, policyId))


@router.put(f"{TENANT}/policies/{{policyId}}", responses=AUTH_PROBLEMS)
async def change_policy(
    tenant_id: PoliciesWriter, policyId: str, body: PolicyRule, wired: IdentityCases
) -> PolicyView:
    policy = await wired.access.change_policy(
        tenant_id,
        policyId,
        effect=body.effect,
        permissions=body.permissions,
        conditions=body.condition_data(),
    )
    return PolicyView.of(policy)


@router.delete(f"{TENANT}/policies/{{policyId}}", responses=AUTH_PROBLEMS)
async def disable_policy(
    tenant_id: PoliciesWriter, policyId: str, wired: IdentityCases
) -> PolicyView:
    """Disable the policy (it stays listed, with status DISABLED)."""
    return PolicyView.of(await wired.access.disable_policy(tenant_id, policyId))


@router.post("/api/v1/authz/check", responses=AUTH_PROBLEMS)
async def check(
    body: CheckRequest, caller: Authenticated, request: Request, wired: IdentityCases
) -> CheckAnswer:
    """The decision of the caller's tenant on ``permission`` for the caller (or, with
    ``iam-authz:read``, for ``subject``; a platform caller names its ``tenant``); ``env``
    defaults to the time and client IP."""
    claims = caller.claims
    checked_permissions(
        [body.permission]
    )  # 422 naming a malformed one, for every caller
    subject = claims.subject
    asks_for_another = body.subject is not None and body.subject != subject
    if claims.platform and not asks_for_another:
        allowed = has_permission(claims.permissions, body.permission)
        return CheckAnswer(allowed=allowed, reason="platform token permissions")
    if asks_for_another and not caller.may(AUTHZ_READ):
        raise forbidden(AUTHZ_READ)
    if claims.platform and body.tenant is None:
        # without a tenant, the subject is one of the platform's, whose tokens hold *:*
        known = await wired.access.subject(PLATFORM, str(body.subject)) is not None
        return CheckAnswer(
            allowed=known and has_permission(PLATFORM_PERMISSIONS, body.permission),
            reason="platform permissions"
            if known
            else "the subject is no active platform user (name its tenant)",
        )
    if claims.platform:
        assert body.tenant is not None
        tenant_id = tenant_reference(body.tenant)
    else:
        assert claims.tenant_id is not None
        tenant_id = claims.tenant_id
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
