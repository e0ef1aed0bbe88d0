# Generated from spec iam by `generate`; edits are merged on re-render.

"""The HTTP adapter: routes to the use cases and read models, versions as ETags, errors as
RFC 9457 problem bodies listing every broken rule."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime
from typing import Annotated, Any

from eaf import context
from eaf.web import (
    PROBLEM_TYPE,
    DomainErrors,
    RuleCheck,
    install_domain_problems,
)
from fastapi import APIRouter, Depends, FastAPI, Header, Request

from iam.application.ports.inbound import (
    AccessTokenRevocationUseCases,
    PolicyUseCases,
    RefreshTokenFamilyUseCases,
    RoleUseCases,
    ServiceAccountUseCases,
    TenantUseCases,
    UserUseCases,
)
from iam.domain.errors import (
    ConcurrencyError,
    DomainError,
    DomainValidationError,
    NotFoundError,
)
from iam.domain.model import (
    AccessTokenRevocation,
    Policy,
    RefreshTokenFamily,
    Role,
    ServiceAccount,
    Tenant,
    User,
)
from iam.infrastructure import schemas
from iam.infrastructure.projections import (
    ReadModelPolicyListing,
    ReadModelRoleListing,
    ReadModelServiceAccountListing,
    ReadModelTenantListing,
    ReadModelUserListing,
)

LIST_LIMIT = 10_000
PROBLEM: dict[int | str, dict[str, Any]] = {
    status: {"model": schemas.Problem, "content": {PROBLEM_TYPE: {}}}
    for status in (404, 409, 412, 422)
}
DEFAULT_TENANT = "default"
TENANT_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"


async def tenant_scope(
    x_tenant_id: Annotated[
        str, Header(alias="X-Tenant-Id", pattern=TENANT_PATTERN)
    ] = DEFAULT_TENANT,
) -> AsyncIterator[None]:
    """Run the request in its tenant's security context (``X-Tenant-Id``, else the
    default tenant); every read and write of the event store is scoped to it. Declare
    a ``permission`` on the spec's endpoints to take the tenant from bearer tokens."""
    current = context.current_or_none() or context.SecurityContext()
    with context.use(replace(current, tenant_id=x_tenant_id)):
        yield


router = APIRouter(dependencies=[Depends(tenant_scope)])


def utc_now() -> datetime:
    """The instant computed values are computed at."""
    return datetime.now(UTC)


def tenant_use_cases(request: Request) -> TenantUseCases:
    """The Tenant use cases the application was built with."""
    use_cases: TenantUseCases = request.app.state.tenant
    return use_cases


TenantCases = Annotated[TenantUseCases, Depends(tenant_use_cases)]


def tenant_view(tenant_: Tenant, now: datetime) -> schemas.Tenant:
    """The HTTP body of a Tenant."""
    return schemas.Tenant.model_validate(
        {
            "id": tenant_.id,
            "name": tenant_.name,
            "adminUserId": tenant_.admin_user_id,
            "status": tenant_.status,
            "createdAt": tenant_.created_at,
            "updatedAt": tenant_.updated_at,
        }
    )


def user_use_cases(request: Request) -> UserUseCases:
    """The User use cases the application was built with."""
    use_cases: UserUseCases = request.app.state.user
    return use_cases


UserCases = Annotated[UserUseCases, Depends(user_use_cases)]


def user_view(user: User, now: datetime) -> schemas.User:
    """The HTTP body of a User."""
    return schemas.User.model_validate(
        {
            "id": user.id,
            "username": user.username,
            "email": user.email,
            "passwordHash": user.password_hash,
            "roles": user.roles,
            "attributes": user.attributes,
            "status": user.status,
            "createdAt": user.created_at,
            "updatedAt": user.updated_at,
        }
    )


def role_use_cases(request: Request) -> RoleUseCases:
    """The Role use cases the application was built with."""
    use_cases: RoleUseCases = request.app.state.role
    return use_cases


RoleCases = Annotated[RoleUseCases, Depends(role_use_cases)]


def role_view(role: Role, now: datetime) -> schemas.Role:
    """The HTTP body of a Role."""
    return schemas.Role.model_validate(
        {
            "id": role.id,
            "name": role.name,
            "permissions": role.permissions,
            "description": role.description,
            "createdAt": role.created_at,
            "updatedAt": role.updated_at,
        }
    )


def policy_use_cases(request: Request) -> PolicyUseCases:
    """The Policy use cases the application was built with."""
    use_cases: PolicyUseCases = request.app.state.policy
    return use_cases


PolicyCases = Annotated[PolicyUseCases, Depends(policy_use_cases)]


def policy_view(policy: Policy, now: datetime) -> schemas.Policy:
    """The HTTP body of a Policy."""
    return schemas.Policy.model_validate(
        {
            "id": policy.id,
            "name": policy.name,
            "effect": policy.effect,
            "permissions": policy.permissions,
            "conditions": policy.conditions,
            "status": policy.status,
            "createdAt": policy.created_at,
            "updatedAt": policy.updated_at,
        }
    )


def service_account_use_cases(request: Request) -> ServiceAccountUseCases:
    """The ServiceAccount use cases the application was built with."""
    use_cases: ServiceAccountUseCases = request.app.state.service_account
    return use_cases


ServiceAccountCases = Annotated[
    ServiceAccountUseCases, Depends(service_account_use_cases)
]


def service_account_view(
    account: ServiceAccount, now: datetime
) -> schemas.ServiceAccount:
    """The HTTP body of a ServiceAccount."""
    return schemas.ServiceAccount.model_validate(
        {
            "id": account.id,
            "clientId": account.client_id,
            "secretHash": account.secret_hash,
            "roles": account.roles,
            "status": account.status,
            "createdAt": account.created_at,
            "updatedAt": account.updated_at,
        }
    )


def refresh_token_family_use_cases(request: Request) -> RefreshTokenFamilyUseCases:
    """The RefreshTokenFamily use cases the application was built with."""
    use_cases: RefreshTokenFamilyUseCases = request.app.state.refresh_token_family
    return use_cases


RefreshTokenFamilyCases = Annotated[
    RefreshTokenFamilyUseCases, Depends(refresh_token_family_use_cases)
]


def refresh_token_family_view(
    family: RefreshTokenFamily, now: datetime
) -> schemas.RefreshTokenFamily:
    """The HTTP body of a RefreshTokenFamily."""
    return schemas.RefreshTokenFamily.model_validate(
        {
            "id": family.id,
            "subject": family.subject,
            "clientId": family.client_id,
            "scope": family.scope,
            "currentHash": family.current_hash,
            "usedHashes": family.used_hashes,
            "status": family.status,
            "createdAt": family.created_at,
            "updatedAt": family.updated_at,
        }
    )


def access_token_revocation_use_cases(
    request: Request,
) -> AccessTokenRevocationUseCases:
    """The AccessTokenRevocation use cases the application was built with."""
    use_cases: AccessTokenRevocationUseCases = request.app.state.access_token_revocation
    return use_cases


AccessTokenRevocationCases = Annotated[
    AccessTokenRevocationUseCases, Depends(access_token_revocation_use_cases)
]


def access_token_revocation_view(
    revocation: AccessTokenRevocation, now: datetime
) -> schemas.AccessTokenRevocation:
    """The HTTP body of a AccessTokenRevocation."""
    return schemas.AccessTokenRevocation.model_validate(
        {
            "id": revocation.id,
            "jti": revocation.jti,
            "expiresAt": revocation.expires_at,
            "createdAt": revocation.created_at,
            "updatedAt": revocation.updated_at,
        }
    )


def tenant_list_queries(request: Request) -> ReadModelTenantListing:
    """The queries of the TenantList read model."""
    queries: ReadModelTenantListing = request.app.state.queries["TenantList"]
    return queries


TenantListReads = Annotated[ReadModelTenantListing, Depends(tenant_list_queries)]


def user_list_queries(request: Request) -> ReadModelUserListing:
    """The queries of the UserList read model."""
    queries: ReadModelUserListing = request.app.state.queries["UserList"]
    return queries


UserListReads = Annotated[ReadModelUserListing, Depends(user_list_queries)]


def role_list_queries(request: Request) -> ReadModelRoleListing:
    """The queries of the RoleList read model."""
    queries: ReadModelRoleListing = request.app.state.queries["RoleList"]
    return queries


RoleListReads = Annotated[ReadModelRoleListing, Depends(role_list_queries)]


def policy_list_queries(request: Request) -> ReadModelPolicyListing:
    """The queries of the PolicyList read model."""
    queries: ReadModelPolicyListing = request.app.state.queries["PolicyList"]
    return queries


PolicyListReads = Annotated[ReadModelPolicyListing, Depends(policy_list_queries)]


def service_account_list_queries(request: Request) -> ReadModelServiceAccountListing:
    """The queries of the ServiceAccountList read model."""
    queries: ReadModelServiceAccountListing = request.app.state.queries[
        "ServiceAccountList"
    ]
    return queries


ServiceAccountListReads = Annotated[
    ReadModelServiceAccountListing, Depends(service_account_list_queries)
]


# The rules of each request body, by route and field path, so that a request that breaks
# them is answered with the spec's messages (the models state the same rules to clients).
RULES: dict[str, dict[str, RuleCheck]] = {}
NESTED_RULES: dict[str, RuleCheck] = {}
UNIQUE_FIELDS: dict[tuple[str, str], str] = {}


def install_error_handlers(app: FastAPI) -> None:
    """Answer bad requests and domain failures with problem bodies."""
    install_domain_problems(
        app,
        DomainErrors(
            validation=DomainValidationError,
            not_found=NotFoundError,
            conflict=ConcurrencyError,
            refused=DomainError,
            service="iam",
            rules=RULES,
            nested_rules=NESTED_RULES,
            unique_fields=UNIQUE_FIELDS,
        ),
    )
