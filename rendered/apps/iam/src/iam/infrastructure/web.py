# Generated from spec iam by `generate`; edits are merged on re-render.

"""The HTTP adapter: routes to the use cases, errors as RFC 9457 problem bodies."""

from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Annotated, Any

from eaf import context
from fastapi import APIRouter, Depends, FastAPI, Header, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from iam.application.ports.inbound import (
    AccessTokenRevocationUseCases,
    PolicyUseCases,
    RefreshTokenFamilyUseCases,
    RoleUseCases,
    ServiceAccountUseCases,
    TenantUseCases,
    UserUseCases,
)
from iam.domain.errors import ConcurrencyError, DomainValidationError, NotFoundError
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

PROBLEM_TYPE = "application/problem+json"
PROBLEM: dict[int | str, dict[str, Any]] = {
    status: {"model": schemas.Problem, "content": {PROBLEM_TYPE: {}}}
    for status in (404, 409, 422)
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


def tenant_use_cases(request: Request) -> TenantUseCases:
    """The Tenant use cases the application was built with."""
    use_cases: TenantUseCases = request.app.state.tenant
    return use_cases


TenantCases = Annotated[TenantUseCases, Depends(tenant_use_cases)]


def tenant_view(tenant: Tenant) -> schemas.Tenant:
    """The HTTP body of a Tenant."""
    return schemas.Tenant.model_validate(
        {
            "id": tenant.id,
            "name": tenant.name,
            "adminUserId": tenant.admin_user_id,
            "status": tenant.status,
            "createdAt": tenant.created_at,
            "updatedAt": tenant.updated_at,
        }
    )


def user_use_cases(request: Request) -> UserUseCases:
    """The User use cases the application was built with."""
    use_cases: UserUseCases = request.app.state.user
    return use_cases


UserCases = Annotated[UserUseCases, Depends(user_use_cases)]


def user_view(user: User) -> schemas.User:
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


def role_view(role: Role) -> schemas.Role:
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


def policy_view(policy: Policy) -> schemas.Policy:
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


def service_account_view(account: ServiceAccount) -> schemas.ServiceAccount:
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


def refresh_token_family_view(family: RefreshTokenFamily) -> schemas.RefreshTokenFamily:
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
    revocation: AccessTokenRevocation,
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


def problem(
    status: int, title: str, detail: str, errors: list[dict[str, str]]
) -> JSONResponse:
    """An RFC 9457 problem response."""
    body = schemas.Problem.model_validate(
        {"title": title, "status": status, "detail": detail, "errors": errors}
    )
    if errors:
        body.field = errors[0]["field"]
    return JSONResponse(
        body.model_dump(mode="json", exclude_none=True),
        status_code=status,
        media_type=PROBLEM_TYPE,
    )


def _request_field(location: tuple[int | str, ...]) -> str:
    parts = [str(part) for part in location if part not in ("body", "query", "path")]
    return ".".join(parts) or "body"


async def _invalid_request(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    errors = [
        {"field": _request_field(tuple(item["loc"])), "message": str(item["msg"])}
        for item in error.errors()
    ]
    detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors)
    return problem(422, "Invalid request", detail, errors)


async def _invalid_value(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, DomainValidationError)
    errors = [{"field": error.field, "message": error.message}]
    return problem(422, "Validation failed", error.message, errors)


async def _not_found(request: Request, error: Exception) -> JSONResponse:
    return problem(404, "Not found", str(error), [])


async def _conflict(request: Request, error: Exception) -> JSONResponse:
    return problem(409, "Conflict", str(error), [])


def install_error_handlers(app: FastAPI) -> None:
    """Answer bad requests and domain failures with problem bodies."""
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(DomainValidationError, _invalid_value)
    app.add_exception_handler(NotFoundError, _not_found)
    app.add_exception_handler(ConcurrencyError, _conflict)
