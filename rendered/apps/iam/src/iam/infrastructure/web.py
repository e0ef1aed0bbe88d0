# Generated from spec iam by `generate`; edits are merged on re-render.

"""The HTTP adapter: routes to the use cases and read models, versions as ETags, errors as
RFC 9457 problem bodies listing every broken rule."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Annotated, Any

from eaf import context
from eaf.eventsourcing import ConcurrencyError as StreamConflict
from eaf.eventsourcing import (
    DuplicateKeyError,
    IdempotencyKeyReusedError,
    PreconditionFailedError,
)
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
from iam.domain.errors import (
    ConcurrencyError,
    DomainError,
    DomainValidationError,
    NotFoundError,
    Violation,
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

PROBLEM_TYPE = "application/problem+json"
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


def problem(
    status: int,
    title: str,
    detail: str,
    errors: list[Violation],
    type: str = "about:blank",
) -> JSONResponse:
    """An RFC 9457 problem response listing ``errors``."""
    body = schemas.Problem(
        type=type,
        title=title,
        status=status,
        detail=detail,
        field=errors[0].field if errors else None,
        errors=[schemas.FieldError(field=e.field, message=e.message) for e in errors],
    )
    return JSONResponse(
        body.model_dump(mode="json", exclude_none=True),
        status_code=status,
        media_type=PROBLEM_TYPE,
    )


# The rules of each request body, by route and field path, so that a request that breaks
# them is answered with the spec's messages (the models state the same rules to clients).
RULES: dict[str, dict[str, Callable[[Any], list[Violation]]]] = {}
NESTED_RULES: dict[str, Callable[[Any], list[Violation]]] = {}
RULE_ERRORS = frozenset(
    {
        "string_too_short", "string_too_long", "string_pattern_mismatch", "too_short",
        "too_long", "greater_than", "greater_than_equal", "less_than", "less_than_equal",
        "decimal_max_places", "decimal_max_digits",
    }
)  # fmt: skip


def _request_field(location: tuple[int | str, ...]) -> str:
    parts = [
        str(part)
        for part in location
        if part not in ("body", "query", "path", "header")
    ]
    return ".".join(parts) or "body"


def _spec_messages(request: Request, item: dict[str, Any]) -> list[Violation] | None:
    """The spec's messages for a rule a request field breaks (None when not a rule)."""
    if item["type"] not in RULE_ERRORS:
        return None
    route = request.scope.get("route")
    rules = RULES.get(getattr(route, "name", ""), {})
    path = [part for part in item["loc"][1:]]
    check = rules.get(str(path[0])) if len(path) == 1 else None
    if check is None and len(path) > 1:
        check = _nested_check(request, path)
    if check is None:
        return None
    try:
        found = check(item["input"])
    except (TypeError, ValueError, ArithmeticError):
        return None
    field = _request_field(tuple(item["loc"]))
    return [Violation(field, v.message) for v in found] or None


def _nested_check(
    request: Request, path: list[Any]
) -> Callable[[Any], list[Violation]] | None:
    model: Any = None
    route = request.scope.get("route")
    body = getattr(getattr(route, "body_field", None), "type_", None)
    model = body
    for part in path[:-1]:
        if isinstance(part, int) or model is None:
            continue
        field = model.model_fields.get(part) or next(
            (f for f in model.model_fields.values() if f.alias == part), None
        )
        model = _inner_model(field.annotation) if field is not None else None
    if model is None:
        return None
    name = model.__name__.removesuffix("Body")
    return NESTED_RULES.get(f"{name}.{path[-1]}")


def _inner_model(annotation: Any) -> Any:
    from typing import get_args

    if isinstance(annotation, type) and issubclass(annotation, schemas.Body):
        return annotation
    for arg in get_args(annotation):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


async def _invalid_request(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    errors: list[Violation] = []
    for item in error.errors():
        if item["type"] == "json_invalid":
            errors.append(Violation("body", "The body is not valid JSON"))
            continue
        spec = _spec_messages(request, item)
        if spec is not None:
            errors.extend(v for v in spec if v not in errors)
        else:
            errors.append(
                Violation(_request_field(tuple(item["loc"])), str(item["msg"]))
            )
    return problem(422, "Invalid request", _detail(errors), errors)


def _detail(errors: list[Violation]) -> str:
    """The problem's detail: the message of a single broken rule, else each with its field."""
    if len(errors) == 1:
        return errors[0].message
    return "; ".join(f"{e.field}: {e.message}" for e in errors)


async def _invalid_value(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, DomainValidationError)
    return problem(
        422, "Validation failed", _detail(error.violations), error.violations
    )


async def _not_found(request: Request, error: Exception) -> JSONResponse:
    return problem(404, "Not found", str(error), [])


async def _conflict(request: Request, error: Exception) -> JSONResponse:
    return problem(409, "Conflict", str(error), [])


async def _stream_conflict(request: Request, error: Exception) -> JSONResponse:
    # The store's own message names its streams: not for clients.
    return problem(
        409, "Conflict", "The resource was changed by a concurrent request; retry", []
    )


UNIQUE_FIELDS: dict[tuple[str, str], str] = {}


async def _duplicate(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, DuplicateKeyError)
    field = UNIQUE_FIELDS.get((error.kind, error.field), error.field)
    return problem(
        409,
        "Duplicate",
        f"Another {error.kind} has this {field}",
        [Violation(field, f"Another {error.kind} has this {field}")],
        type="urn:problem-type:iam:duplicate",
    )


async def _precondition_failed(request: Request, error: Exception) -> JSONResponse:
    return problem(
        412,
        "Precondition failed",
        "The resource changed since it was read (If-Match)",
        [],
    )


async def _key_reused(request: Request, error: Exception) -> JSONResponse:
    return problem(
        422,
        "Idempotency-Key reused",
        str(error),
        [Violation("Idempotency-Key", str(error))],
    )


async def _refused(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, DomainError)
    return problem(error.status, error.title, error.detail, [], type=error.type)


def install_error_handlers(app: FastAPI) -> None:
    """Answer bad requests and domain failures with problem bodies."""
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(DomainValidationError, _invalid_value)
    app.add_exception_handler(NotFoundError, _not_found)
    app.add_exception_handler(ConcurrencyError, _conflict)
    app.add_exception_handler(StreamConflict, _stream_conflict)
    app.add_exception_handler(DuplicateKeyError, _duplicate)
    app.add_exception_handler(PreconditionFailedError, _precondition_failed)
    app.add_exception_handler(IdempotencyKeyReusedError, _key_reused)
    app.add_exception_handler(DomainError, _refused)
