# Generated from spec iam by `generate`; edits are merged on re-render.

"""The HTTP adapter: routes to the use cases and read models, versions as ETags, errors as
RFC 9457 problem bodies listing every broken rule."""

from __future__ import annotations

from datetime import datetime
from secrets import token_urlsafe
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import quote

from eaf import context
from eaf.eventsourcing import Idempotency, PreconditionFailedError, keyed_id
from eaf.projectors import Condition
from eaf.web import (
    DomainErrors,
    ExactJsonRoute,
    PathId,
    RuleCheck,
    ValueCheck,
    auth_problem_responses,
    component,
    install_domain_problems,
    known_query,
    problem,
    problem_responses,
)
from eaf.web.resources import (
    IdempotencyKey,
    IfMatch,
    IfNoneMatch,
    after_merge,
    etag,
)
from fastapi import APIRouter, Depends, FastAPI, Path, Request, Response
from iam_client import require

from iam.application.ports.inbound import (
    PolicyUseCases,
    RegisteredClientUseCases,
    RoleUseCases,
    ServiceAccountUseCases,
    TenantUseCases,
    UserUseCases,
)
from iam.application.ports.outbound import Clock
from iam.domain import model as domain_model
from iam.domain.errors import (
    ConcurrencyError,
    DomainError,
    DomainValidationError,
    NotFoundError,
)
from iam.domain.model import (
    Policy,
    RegisteredClient,
    Role,
    ServiceAccount,
    Tenant,
    User,
)
from iam.domain.types import (
    CheckAnswer,
    PolicyCondition,
    RotatedKeys,
)
from iam.infrastructure import schemas
from iam.infrastructure.projections import (
    ReadModelPolicyListing,
    ReadModelRegisteredClientListing,
    ReadModelRoleListing,
    ReadModelServiceAccountListing,
    ReadModelUserListing,
)

if TYPE_CHECKING:
    # the hand-written components the calls await (annotations only: no import cycle)
    import iam.application.access
    import iam.application.directory
    import iam.application.tokens

# The problem answers a route documents (hand-written routers use it too).
PROBLEM = problem_responses(404, 409, 412, 422)
LIST_LIMIT = 10_000
AUTH_PROBLEMS = auth_problem_responses()

# Every route needs a bearer token from IAM: the request runs in the token's security
# context (tenant, user, permissions), and the tenant comes from the token only (or
# from a path's {tenantId}: a tenant's token may name only its own, a platform operator's any).
# a JSON number read exactly: a decimal as written, not through a float
router = APIRouter(
    responses=AUTH_PROBLEMS,
    dependencies=[Depends(known_query)],
    route_class=ExactJsonRoute,
)
TENANT_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"


# the clock computed values are computed by: the service's, the one its commands read
ServiceClock = Annotated[Clock, Depends(component("clock"))]


async def tenant_use_cases(request: Request) -> TenantUseCases:
    """The Tenant use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: TenantUseCases = request.app.state.tenant
    return use_cases


TenantCases = Annotated[TenantUseCases, Depends(tenant_use_cases)]


def tenant_view(tenant_: Tenant, now: datetime) -> schemas.Tenant:
    """The HTTP body of a Tenant."""
    return schemas.Tenant.model_validate(
        {
            "tenantId": tenant_.id,
            "name": tenant_.name,
            "adminUserId": tenant_.admin_user_id,
            "status": tenant_.status,
            "createdAt": tenant_.created_at,
            "updatedAt": tenant_.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


async def user_use_cases(request: Request) -> UserUseCases:
    """The User use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: UserUseCases = request.app.state.user
    return use_cases


UserCases = Annotated[UserUseCases, Depends(user_use_cases)]


def user_view(user: User, now: datetime) -> schemas.User:
    """The HTTP body of a User."""
    return schemas.User.model_validate(
        {
            "userId": user.id,
            "tenantId": context.require_tenant(),
            "username": user.username,
            "email": user.email,
            "roles": user.roles,
            "attributes": user.attributes,
            "status": user.status,
            "createdAt": user.created_at,
            "updatedAt": user.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


async def role_use_cases(request: Request) -> RoleUseCases:
    """The Role use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: RoleUseCases = request.app.state.role
    return use_cases


RoleCases = Annotated[RoleUseCases, Depends(role_use_cases)]


def role_view(role: Role, now: datetime) -> schemas.Role:
    """The HTTP body of a Role."""
    return schemas.Role.model_validate(
        {
            "roleId": role.id,
            "name": role.name,
            "permissions": role.permissions,
            "description": role.description,
            "createdAt": role.created_at,
            "updatedAt": role.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


async def policy_use_cases(request: Request) -> PolicyUseCases:
    """The Policy use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: PolicyUseCases = request.app.state.policy
    return use_cases


PolicyCases = Annotated[PolicyUseCases, Depends(policy_use_cases)]


def policy_view(policy: Policy, now: datetime) -> schemas.Policy:
    """The HTTP body of a Policy."""
    return schemas.Policy.model_validate(
        {
            "policyId": policy.id,
            "name": policy.name,
            "effect": policy.effect,
            "permissions": policy.permissions,
            "conditions": policy.conditions,
            "status": policy.status,
            "createdAt": policy.created_at,
            "updatedAt": policy.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


async def service_account_use_cases(request: Request) -> ServiceAccountUseCases:
    """The ServiceAccount use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
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
            "serviceAccountId": account.id,
            "tenantId": context.require_tenant(),
            "clientId": account.client_id,
            "roles": account.roles,
            "status": account.status,
            "createdAt": account.created_at,
            "updatedAt": account.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


async def registered_client_use_cases(request: Request) -> RegisteredClientUseCases:
    """The RegisteredClient use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: RegisteredClientUseCases = request.app.state.registered_client
    return use_cases


RegisteredClientCases = Annotated[
    RegisteredClientUseCases, Depends(registered_client_use_cases)
]


def registered_client_view(
    client: RegisteredClient, now: datetime
) -> schemas.RegisteredClient:
    """The HTTP body of a RegisteredClient."""
    return schemas.RegisteredClient.model_validate(
        {
            "clientUuid": client.id,
            "tenantId": context.require_tenant(),
            "clientId": client.client_id,
            "name": client.name,
            "clientType": client.client_type,
            "grantTypes": client.grant_types,
            "redirectUris": client.redirect_uris,
            "postLogoutRedirectUris": client.post_logout_redirect_uris,
            "scopes": client.scopes,
            "firstParty": client.first_party,
            "status": client.status,
            "createdAt": client.created_at,
            "updatedAt": client.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


def rotated_keys_of(body: schemas.RotatedKeysBody) -> RotatedKeys:
    """The domain's RotatedKeys of a request's."""
    return RotatedKeys(
        kid=body.kid,
        published=body.published,
    )


def check_answer_of(body: schemas.CheckAnswerBody) -> CheckAnswer:
    """The domain's CheckAnswer of a request's."""
    return CheckAnswer(
        allowed=body.allowed,
        reason=body.reason,
    )


def policy_condition_of(body: schemas.PolicyConditionBody) -> PolicyCondition:
    """The domain's PolicyCondition of a request's."""
    return PolicyCondition(
        attribute=body.attribute,
        op=body.op,
        value_=body.value_,
        value_of=body.value_of,
    )


async def user_list_queries(request: Request) -> ReadModelUserListing:
    """The queries of the UserList read model (a coroutine, as the use cases')."""
    queries: ReadModelUserListing = request.app.state.queries["UserList"]
    return queries


UserListReads = Annotated[ReadModelUserListing, Depends(user_list_queries)]


async def roles_queries(request: Request) -> ReadModelRoleListing:
    """The queries of the Roles read model (a coroutine, as the use cases')."""
    queries: ReadModelRoleListing = request.app.state.queries["Roles"]
    return queries


RolesReads = Annotated[ReadModelRoleListing, Depends(roles_queries)]


async def service_accounts_queries(request: Request) -> ReadModelServiceAccountListing:
    """The queries of the ServiceAccounts read model (a coroutine, as the use cases')."""
    queries: ReadModelServiceAccountListing = request.app.state.queries[
        "ServiceAccounts"
    ]
    return queries


ServiceAccountsReads = Annotated[
    ReadModelServiceAccountListing, Depends(service_accounts_queries)
]


async def policies_queries(request: Request) -> ReadModelPolicyListing:
    """The queries of the Policies read model (a coroutine, as the use cases')."""
    queries: ReadModelPolicyListing = request.app.state.queries["Policies"]
    return queries


PoliciesReads = Annotated[ReadModelPolicyListing, Depends(policies_queries)]


async def registered_clients_queries(
    request: Request,
) -> ReadModelRegisteredClientListing:
    """The queries of the RegisteredClients read model (a coroutine, as the use cases')."""
    queries: ReadModelRegisteredClientListing = request.app.state.queries[
        "RegisteredClients"
    ]
    return queries


RegisteredClientsReads = Annotated[
    ReadModelRegisteredClientListing, Depends(registered_clients_queries)
]


@router.post(
    "/api/v1/tenants",
    status_code=201,
    dependencies=[Depends(require("iam-tenants:write", platform_only=True))],
    response_model=schemas.Tenant,
    responses=PROBLEM,
    summary="Create a tenant with its built-in roles and first administrator (platform administrators only)",
)
async def directory_create_tenant(
    request: Request,
    clock: ServiceClock,
    body: schemas.NewTenant,
) -> schemas.Tenant:
    """Create a tenant with its built-in roles and first administrator (platform administrators only)."""
    component: iam.application.directory.Directory = request.app.state.directory
    answer: Tenant = await component.create_tenant(
        name=body.name,
        admin_username=body.admin_username,
        admin_email=body.admin_email,
        admin_password=body.admin_password,
    )
    return tenant_view(answer, clock.now())


@router.get(
    "/api/v1/tenants",
    status_code=200,
    dependencies=[Depends(require("iam-tenants:read", platform_only=True))],
    response_model=list[schemas.Tenant],
    responses={422: PROBLEM[422]},
    summary="Every tenant, by name (platform administrators only)",
)
async def list_every_tenant(
    use_cases: TenantCases,
    clock: ServiceClock,
) -> list[schemas.Tenant]:
    """Every tenant, by name (platform administrators only)."""
    items = await use_cases.every_tenant()
    # records equal on the order keep their ids' order
    items.sort(key=lambda item: item.id)
    items.sort(key=lambda item: (item.name.casefold(), item.name))
    now = clock.now()
    return [tenant_view(item, now) for item in items]


@router.post(
    "/api/v1/auth/keys/rotate",
    status_code=200,
    dependencies=[Depends(require("iam-keys:write", platform_only=True))],
    response_model=schemas.RotatedKeysBody,
    responses=PROBLEM,
    summary="Sign new tokens with a new key; the old keys stay published until their tokens expire (platform administrators only)",
)
async def tokens_rotate(
    request: Request,
) -> schemas.RotatedKeysBody:
    """Sign new tokens with a new key; the old keys stay published until their tokens expire (platform administrators only)."""
    component: iam.application.tokens.TokenService = request.app.state.tokens
    answer: RotatedKeys = await component.rotate()
    return schemas.RotatedKeysBody.model_validate(answer, by_name=True)


@router.post(
    "/api/v1/authz/check",
    status_code=200,
    dependencies=[Depends(require())],
    response_model=schemas.CheckAnswerBody,
    responses=PROBLEM,
    summary="The decision of the caller's tenant on permission for the caller (or, with iam-authz:read, for subject; a platform caller names its tenant); env defaults to the time and client IP",
)
async def access_decide(
    request: Request,
    body: schemas.CheckRequest,
) -> schemas.CheckAnswerBody:
    """The decision of the caller's tenant on permission for the caller (or, with iam-authz:read, for subject; a platform caller names its tenant); env defaults to the time and client IP."""
    component: iam.application.access.AccessControl = request.app.state.access
    answer: CheckAnswer = await component.decide(
        permission=body.permission,
        resource=body.resource,
        env=body.env,
        subject=body.subject,
        tenant=body.tenant_,
    )
    return schemas.CheckAnswerBody.model_validate(answer, by_name=True)


@router.get(
    "/api/v1/tenants/{tenantId}",
    status_code=200,
    dependencies=[Depends(require("iam-tenants:read", tenant_path="tenantId"))],
    response_model=schemas.Tenant,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
    summary="A tenant: any for platform administrators, else the caller's own",
)
async def get_tenant_of_the_tenant(
    use_cases: TenantCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
) -> schemas.Tenant | Response:
    """A tenant: any for platform administrators, else the caller's own; 404 when there is none."""
    tenant_ = await use_cases.get(path_tenant)  # its id is the tenant
    if tenant_ is None:
        return problem(404, "Not found", "Tenant not found")
    tag = etag(tenant_.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return tenant_view(tenant_, clock.now())


@router.patch(
    "/api/v1/tenants/{tenantId}",
    status_code=200,
    dependencies=[
        Depends(
            require("iam-tenants:write", tenant_path="tenantId", platform_only=True)
        )
    ],
    response_model=schemas.Tenant,
    responses=PROBLEM,
    summary="Suspend (SUSPENDED) or reactivate (ACTIVE) a tenant (platform administrators only)",
)
async def change_status_tenant(
    use_cases: TenantCases,
    response: Response,
    body: schemas.TenantPatch,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
) -> schemas.Tenant:
    """Suspend (SUSPENDED) or reactivate (ACTIVE) a tenant (platform administrators only)."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    # A merge patch (RFC 7396): what the body leaves out keeps the value read here, and
    # the command applies to the version read (unless If-Match names one).
    current_state = await use_cases.get(path_tenant)
    if current_state is None:
        raise NotFoundError("Tenant not found")
    given = body.model_fields_set
    if not given:
        # An empty merge patch changes nothing: no command runs, no event is stored, the
        # version stays (If-Match still has to name it).
        if if_match is not None and if_match != current_state.version:
            raise PreconditionFailedError(if_match, current_state.version)
        response.headers["ETag"] = etag(current_state.version)
        return tenant_view(current_state, clock.now())
    # a write committed since the patch was merged: 409 to retry (412 for an If-Match)
    tenant_ = await after_merge(
        use_cases.change_status(
            path_tenant,
            status=body.status if "status" in given else current_state.status,
            expected_version=current_state.version if if_match is None else if_match,
            idempotency=idempotency,
        ),
        if_match,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(tenant_.version)
    return tenant_view(tenant_, clock.now())


@router.get(
    "/api/v1/tenants/{tenantId}/roles/{roleId}",
    status_code=200,
    dependencies=[Depends(require("iam-roles:read", tenant_path="tenantId"))],
    response_model=schemas.Role,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_role(
    use_cases: RoleCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    role_id: Annotated[PathId, Path(alias="roleId")],
) -> schemas.Role | Response:
    """The role with this id; 404 when there is none."""
    role = await use_cases.get(role_id)
    if role is None:
        return problem(404, "Not found", "Role not found")
    tag = etag(role.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return role_view(role, clock.now())


@router.get(
    "/api/v1/tenants/{tenantId}/service-accounts/{serviceAccountId}",
    status_code=200,
    dependencies=[
        Depends(require("iam-service-accounts:read", tenant_path="tenantId"))
    ],
    response_model=schemas.ServiceAccount,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_service_account(
    use_cases: ServiceAccountCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    service_account_id: Annotated[PathId, Path(alias="serviceAccountId")],
) -> schemas.ServiceAccount | Response:
    """The service account with this id; 404 when there is none."""
    account = await use_cases.get(service_account_id)
    if account is None:
        return problem(404, "Not found", "Service account not found")
    tag = etag(account.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return service_account_view(account, clock.now())


@router.get(
    "/api/v1/tenants/{tenantId}/users",
    status_code=200,
    dependencies=[Depends(require("iam-users:read", tenant_path="tenantId"))],
    response_model=list[schemas.User],
    responses={404: PROBLEM[404], 422: PROBLEM[422], **problem_responses(503)},
    summary="The tenant's users, by username (every change made before the request shown)",
)
async def list_user_list(
    request: Request,
    queries: UserListReads,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
) -> list[schemas.User]:
    """The tenant's users, by username (every change made before the request shown)."""
    await queries.caught_up_with(
        request.app.state.store
    )  # read your writes (503 past 5 s)
    where: list[Condition] = []
    order: list[tuple[str, bool]] = [("username", False)]
    rows, _ = await queries.page(where=where, order_by=order, limit=LIST_LIMIT)
    now = clock.now()
    return [user_view(row, now) for row in rows]


@router.get(
    "/api/v1/tenants/{tenantId}/users/{userId}",
    status_code=200,
    dependencies=[Depends(require("iam-users:read", tenant_path="tenantId"))],
    response_model=schemas.User,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_user(
    use_cases: UserCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    user_id: Annotated[PathId, Path(alias="userId")],
) -> schemas.User | Response:
    """The user with this id; 404 when there is none."""
    user = await use_cases.get(user_id)
    if user is None:
        return problem(404, "Not found", "User not found")
    tag = etag(user.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return user_view(user, clock.now())


@router.post(
    "/api/v1/tenants/{tenantId}/users",
    status_code=201,
    dependencies=[Depends(require("iam-users:write", tenant_path="tenantId"))],
    response_model=schemas.User,
    responses=PROBLEM,
    summary="A new user of the tenant; the username is taken once, in any case (409 when a user has it), the roles are the tenant's (default: user)",
)
async def create_user(
    use_cases: UserCases,
    response: Response,
    body: schemas.NewUser,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
) -> schemas.User:
    """A new user of the tenant; the username is taken once, in any case (409 when a user has it), the roles are the tenant's (default: user)."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    user = await use_cases.create(
        username=body.username,
        email=body.email,
        password=body.password,
        roles=body.roles,
        attributes=body.attributes,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = (
        "/api/v1/tenants/{tenantId}/users/".replace("{tenantId}", path_tenant) + user.id
    )
    response.headers["ETag"] = etag(user.version)
    return user_view(user, clock.now())


@router.patch(
    "/api/v1/tenants/{tenantId}/users/{userId}",
    status_code=200,
    dependencies=[Depends(require("iam-users:write", tenant_path="tenantId"))],
    response_model=schemas.User,
    responses=PROBLEM,
    summary="Change a user's status (ACTIVE, DISABLED), roles, attributes or password (what the body leaves out is kept)",
)
async def change_user(
    use_cases: UserCases,
    response: Response,
    body: schemas.ChangeUserPatch,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    user_id: Annotated[PathId, Path(alias="userId")],
) -> schemas.User:
    """Change a user's status (ACTIVE, DISABLED), roles, attributes or password (what the body leaves out is kept)."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    # A merge patch (RFC 7396): what the body leaves out keeps the value read here, and
    # the command applies to the version read (unless If-Match names one).
    current_state = await use_cases.get(user_id)
    if current_state is None:
        raise NotFoundError("User not found")
    given = body.model_fields_set
    if not given:
        # An empty merge patch changes nothing: no command runs, no event is stored, the
        # version stays (If-Match still has to name it).
        if if_match is not None and if_match != current_state.version:
            raise PreconditionFailedError(if_match, current_state.version)
        response.headers["ETag"] = etag(current_state.version)
        return user_view(current_state, clock.now())
    # a write committed since the patch was merged: 409 to retry (412 for an If-Match)
    user = await after_merge(
        use_cases.change(
            user_id,
            status=body.status if "status" in given else current_state.status,
            roles=body.roles if "roles" in given else current_state.roles,
            attributes=body.attributes
            if "attributes" in given
            else current_state.attributes,
            password=body.password if "password" in given else None,  # None: kept
            expected_version=current_state.version if if_match is None else if_match,
            idempotency=idempotency,
        ),
        if_match,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(user.version)
    return user_view(user, clock.now())


@router.delete(
    "/api/v1/tenants/{tenantId}/users/{userId}",
    status_code=204,
    dependencies=[Depends(require("iam-users:write", tenant_path="tenantId"))],
    response_class=Response,
    responses=PROBLEM,
)
async def remove_user(
    use_cases: UserCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    user_id: Annotated[PathId, Path(alias="userId")],
) -> Response:
    """remove: changes the user."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    user = await use_cases.remove(
        user_id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    answered = Response(status_code=204, headers={"ETag": etag(user.version)})
    if idempotency is not None and idempotency.replayed:
        answered.headers["Idempotent-Replayed"] = "true"
    return answered


@router.get(
    "/api/v1/tenants/{tenantId}/roles",
    status_code=200,
    dependencies=[Depends(require("iam-roles:read", tenant_path="tenantId"))],
    response_model=list[schemas.Role],
    responses={404: PROBLEM[404], 422: PROBLEM[422], **problem_responses(503)},
)
async def list_roles(
    request: Request,
    queries: RolesReads,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
) -> list[schemas.Role]:
    """The tenant's Roles, from the read model once it holds the tenant's changes."""
    await queries.caught_up_with(
        request.app.state.store
    )  # read your writes (503 past 5 s)
    where: list[Condition] = []
    order: list[tuple[str, bool]] = [("name", False)]
    rows, _ = await queries.page(where=where, order_by=order, limit=LIST_LIMIT)
    now = clock.now()
    return [role_view(row, now) for row in rows]


@router.post(
    "/api/v1/tenants/{tenantId}/roles",
    status_code=201,
    dependencies=[Depends(require("iam-roles:write", tenant_path="tenantId"))],
    response_model=schemas.Role,
    responses=PROBLEM,
    summary="A new role of the tenant; its name is taken once (409 when a role has it)",
)
async def create_role(
    use_cases: RoleCases,
    response: Response,
    body: schemas.NewRole,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
) -> schemas.Role:
    """A new role of the tenant; its name is taken once (409 when a role has it)."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    role = await use_cases.create(
        name=body.name,
        permissions=body.permissions,
        description=body.description,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = (
        "/api/v1/tenants/{tenantId}/roles/".replace("{tenantId}", path_tenant) + role.id
    )
    response.headers["ETag"] = etag(role.version)
    return role_view(role, clock.now())


@router.patch(
    "/api/v1/tenants/{tenantId}/roles/{roleId}",
    status_code=200,
    dependencies=[Depends(require("iam-roles:write", tenant_path="tenantId"))],
    response_model=schemas.Role,
    responses=PROBLEM,
    summary="Change a role's permissions or description (what the body leaves out is kept)",
)
async def change_role(
    use_cases: RoleCases,
    response: Response,
    body: schemas.ChangeRolePatch,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    role_id: Annotated[PathId, Path(alias="roleId")],
) -> schemas.Role:
    """Change a role's permissions or description (what the body leaves out is kept)."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    # A merge patch (RFC 7396): what the body leaves out keeps the value read here, and
    # the command applies to the version read (unless If-Match names one).
    current_state = await use_cases.get(role_id)
    if current_state is None:
        raise NotFoundError("Role not found")
    given = body.model_fields_set
    if not given:
        # An empty merge patch changes nothing: no command runs, no event is stored, the
        # version stays (If-Match still has to name it).
        if if_match is not None and if_match != current_state.version:
            raise PreconditionFailedError(if_match, current_state.version)
        response.headers["ETag"] = etag(current_state.version)
        return role_view(current_state, clock.now())
    # a write committed since the patch was merged: 409 to retry (412 for an If-Match)
    role = await after_merge(
        use_cases.change(
            role_id,
            permissions=body.permissions
            if "permissions" in given
            else current_state.permissions,
            description=body.description
            if "description" in given
            else current_state.description,
            expected_version=current_state.version if if_match is None else if_match,
            idempotency=idempotency,
        ),
        if_match,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(role.version)
    return role_view(role, clock.now())


@router.put(
    "/api/v1/tenants/{tenantId}/roles/{roleId}",
    status_code=200,
    dependencies=[Depends(require("iam-roles:write", tenant_path="tenantId"))],
    response_model=schemas.Role,
    responses=PROBLEM,
    summary="Replace a role's permissions and description (no description: empty)",
)
async def change_role_2(
    use_cases: RoleCases,
    response: Response,
    body: schemas.ChangeRoleRequest,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    role_id: Annotated[PathId, Path(alias="roleId")],
) -> schemas.Role:
    """Replace a role's permissions and description (no description: empty)."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    role = await use_cases.change(
        role_id,
        permissions=body.permissions,
        description=body.description,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(role.version)
    return role_view(role, clock.now())


@router.get(
    "/api/v1/tenants/{tenantId}/policies",
    status_code=200,
    dependencies=[Depends(require("iam-policies:read", tenant_path="tenantId"))],
    response_model=list[schemas.Policy],
    responses={404: PROBLEM[404], 422: PROBLEM[422], **problem_responses(503)},
    summary="The tenant's attribute policies, disabled ones too, by name",
)
async def list_policies(
    request: Request,
    queries: PoliciesReads,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
) -> list[schemas.Policy]:
    """The tenant's attribute policies, disabled ones too, by name."""
    await queries.caught_up_with(
        request.app.state.store
    )  # read your writes (503 past 5 s)
    where: list[Condition] = []
    order: list[tuple[str, bool]] = [("name", False)]
    rows, _ = await queries.page(where=where, order_by=order, limit=LIST_LIMIT)
    now = clock.now()
    return [policy_view(row, now) for row in rows]


@router.get(
    "/api/v1/tenants/{tenantId}/policies/{policyId}",
    status_code=200,
    dependencies=[Depends(require("iam-policies:read", tenant_path="tenantId"))],
    response_model=schemas.Policy,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_policy(
    use_cases: PolicyCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    policy_id: Annotated[PathId, Path(alias="policyId")],
) -> schemas.Policy | Response:
    """The policy with this id; 404 when there is none."""
    policy = await use_cases.get(policy_id)
    if policy is None:
        return problem(404, "Not found", "Policy not found")
    tag = etag(policy.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return policy_view(policy, clock.now())


@router.post(
    "/api/v1/tenants/{tenantId}/policies",
    status_code=201,
    dependencies=[Depends(require("iam-policies:write", tenant_path="tenantId"))],
    response_model=schemas.Policy,
    responses=PROBLEM,
    summary="A new attribute policy of the tenant; its name is taken once (409 when a policy has it)",
)
async def create_policy(
    use_cases: PolicyCases,
    response: Response,
    body: schemas.NewPolicy,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
) -> schemas.Policy:
    """A new attribute policy of the tenant; its name is taken once (409 when a policy has it).

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - a condition takes value or valueOf, not both (valueOf)
    - in and not_in take a list value or valueOf, one of them (value)
    - a cidr condition needs literal networks, not valueOf (valueOf)
    - a cidr condition needs a network or a list of them (value)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    policy = await use_cases.create(
        name=body.name,
        effect=body.effect,
        permissions=body.permissions,
        conditions=[policy_condition_of(item0) for item0 in body.conditions],
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = (
        "/api/v1/tenants/{tenantId}/policies/".replace("{tenantId}", path_tenant)
        + policy.id
    )
    response.headers["ETag"] = etag(policy.version)
    return policy_view(policy, clock.now())


@router.put(
    "/api/v1/tenants/{tenantId}/policies/{policyId}",
    status_code=200,
    dependencies=[Depends(require("iam-policies:write", tenant_path="tenantId"))],
    response_model=schemas.Policy,
    responses=PROBLEM,
    summary="Replace a policy's effect, permissions and conditions (its name stays)",
)
async def change_policy(
    use_cases: PolicyCases,
    response: Response,
    body: schemas.PolicyRule,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    policy_id: Annotated[PathId, Path(alias="policyId")],
) -> schemas.Policy:
    """Replace a policy's effect, permissions and conditions (its name stays).

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - a condition takes value or valueOf, not both (valueOf)
    - in and not_in take a list value or valueOf, one of them (value)
    - a cidr condition needs literal networks, not valueOf (valueOf)
    - a cidr condition needs a network or a list of them (value)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    policy = await use_cases.change(
        policy_id,
        effect=body.effect,
        permissions=body.permissions,
        conditions=[policy_condition_of(item0) for item0 in body.conditions],
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(policy.version)
    return policy_view(policy, clock.now())


@router.delete(
    "/api/v1/tenants/{tenantId}/policies/{policyId}",
    status_code=200,
    dependencies=[Depends(require("iam-policies:write", tenant_path="tenantId"))],
    response_model=schemas.Policy,
    responses=PROBLEM,
    summary="Disable the policy: it stays listed, with status DISABLED, and decides nothing",
)
async def disable_policy(
    use_cases: PolicyCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    policy_id: Annotated[PathId, Path(alias="policyId")],
) -> schemas.Policy:
    """Disable the policy: it stays listed, with status DISABLED, and decides nothing."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    policy = await use_cases.disable(
        policy_id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(policy.version)
    return policy_view(policy, clock.now())


@router.get(
    "/api/v1/tenants/{tenantId}/service-accounts",
    status_code=200,
    dependencies=[
        Depends(require("iam-service-accounts:read", tenant_path="tenantId"))
    ],
    response_model=list[schemas.ServiceAccount],
    responses={404: PROBLEM[404], 422: PROBLEM[422], **problem_responses(503)},
    summary="The tenant's service accounts, disabled ones too, by client id; secrets are never shown here",
)
async def list_service_accounts(
    request: Request,
    queries: ServiceAccountsReads,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
) -> list[schemas.ServiceAccount]:
    """The tenant's service accounts, disabled ones too, by client id; secrets are never shown here."""
    await queries.caught_up_with(
        request.app.state.store
    )  # read your writes (503 past 5 s)
    where: list[Condition] = []
    order: list[tuple[str, bool]] = [("client_id", False)]
    rows, _ = await queries.page(where=where, order_by=order, limit=LIST_LIMIT)
    now = clock.now()
    return [service_account_view(row, now) for row in rows]


@router.post(
    "/api/v1/tenants/{tenantId}/service-accounts",
    status_code=201,
    dependencies=[
        Depends(require("iam-service-accounts:write", tenant_path="tenantId"))
    ],
    response_model=schemas.ServiceAccountWithClientSecret,
    responses=PROBLEM,
    summary="A new client of the client credentials grant; its secret is shown only here (409 when a service account or registered client has the client id)",
)
async def create_service_account(
    use_cases: ServiceAccountCases,
    response: Response,
    body: schemas.NewServiceAccount,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
) -> schemas.ServiceAccountWithClientSecret:
    """A new client of the client credentials grant; its secret is shown only here (409 when a service account or registered client has the client id).

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - iam is the public client's id (clientId)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    made_client_secret = token_urlsafe(
        32
    )  # shown in this answer only: its hash is kept
    account = await use_cases.create(
        client_id=body.client_id,
        client_secret=made_client_secret,
        roles=body.roles,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = (
        "/api/v1/tenants/{tenantId}/service-accounts/".replace(
            "{tenantId}", path_tenant
        )
        + account.id
    )
    response.headers["ETag"] = etag(account.version)
    shown = service_account_view(account, clock.now()).model_dump(by_alias=True)
    # a replayed answer cannot show the secret: the first answer showed it, once
    replayed = idempotency is not None and idempotency.replayed
    return schemas.ServiceAccountWithClientSecret.model_validate(
        {**shown, "clientSecret": None if replayed else made_client_secret}
    )


@router.post(
    "/api/v1/tenants/{tenantId}/service-accounts/{serviceAccountId}/secret",
    status_code=200,
    dependencies=[
        Depends(require("iam-service-accounts:write", tenant_path="tenantId"))
    ],
    response_model=schemas.ServiceAccountWithClientSecret,
    responses=PROBLEM,
    summary="Replace the secret: the new one is shown only here, the old one stops working at once (409 for a disabled service account)",
)
async def change_secret_service_account(
    use_cases: ServiceAccountCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    service_account_id: Annotated[PathId, Path(alias="serviceAccountId")],
) -> schemas.ServiceAccountWithClientSecret:
    """Replace the secret: the new one is shown only here, the old one stops working at once (409 for a disabled service account).

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - iam is the public client's id (clientId)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    made_client_secret = token_urlsafe(
        32
    )  # shown in this answer only: its hash is kept
    account = await use_cases.change_secret(
        service_account_id,
        client_secret=made_client_secret,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(account.version)
    shown = service_account_view(account, clock.now()).model_dump(by_alias=True)
    # a replayed answer cannot show the secret: the first answer showed it, once
    replayed = idempotency is not None and idempotency.replayed
    return schemas.ServiceAccountWithClientSecret.model_validate(
        {**shown, "clientSecret": None if replayed else made_client_secret}
    )


@router.delete(
    "/api/v1/tenants/{tenantId}/service-accounts/{serviceAccountId}",
    status_code=204,
    dependencies=[
        Depends(require("iam-service-accounts:write", tenant_path="tenantId"))
    ],
    response_class=Response,
    responses=PROBLEM,
    summary="Disable the service account: it stays readable, with status DISABLED, and its client gets no token",
)
async def disable_service_account(
    use_cases: ServiceAccountCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    service_account_id: Annotated[PathId, Path(alias="serviceAccountId")],
) -> Response:
    """Disable the service account: it stays readable, with status DISABLED, and its client gets no token.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - iam is the public client's id (clientId)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    account = await use_cases.disable(
        service_account_id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    answered = Response(status_code=204, headers={"ETag": etag(account.version)})
    if idempotency is not None and idempotency.replayed:
        answered.headers["Idempotent-Replayed"] = "true"
    return answered


@router.post(
    "/api/v1/tenants/{tenantId}/clients",
    status_code=201,
    dependencies=[
        Depends(require("iam-service-accounts:write", tenant_path="tenantId"))
    ],
    response_model=schemas.RegisteredClientWithClientSecret,
    responses=PROBLEM,
    summary="Register a client; a confidential client's secret is shown only here (409 when a service account or registered client has the client id)",
)
async def register_registered_client(
    use_cases: RegisteredClientCases,
    response: Response,
    body: schemas.NewClient,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
) -> schemas.RegisteredClientWithClientSecret:
    """Register a client; a confidential client's secret is shown only here (409 when a service account or registered client has the client id).

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - iam is the public client's id (clientId)
    - refresh_token needs authorization_code (grantTypes)
    - authorization_code needs a redirect URI (redirectUris)
    - A URI is listed twice (redirectUris)
    - A URI is listed twice (postLogoutRedirectUris)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    # made only for the values its condition holds for, shown in this answer only
    made_client_secret = (
        token_urlsafe(32)
        if RegisteredClient.makes_client_secret(
            client_type=body.client_type,
        )
        else None
    )
    client = await use_cases.register(
        client_id=body.client_id,
        name=body.name,
        client_type=body.client_type,
        client_secret=made_client_secret,
        grant_types=body.grant_types,
        redirect_uris=body.redirect_uris,
        post_logout_redirect_uris=body.post_logout_redirect_uris,
        scopes=body.scopes,
        first_party=body.first_party,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = "/api/v1/tenants/{tenantId}/clients/".replace(
        "{tenantId}", path_tenant
    ) + quote(str(client.client_id), safe="")
    response.headers["ETag"] = etag(client.version)
    shown = registered_client_view(client, clock.now()).model_dump(by_alias=True)
    # a replayed answer cannot show the secret: the first answer showed it, once
    replayed = idempotency is not None and idempotency.replayed
    return schemas.RegisteredClientWithClientSecret.model_validate(
        {**shown, "clientSecret": None if replayed else made_client_secret}
    )


@router.get(
    "/api/v1/tenants/{tenantId}/clients",
    status_code=200,
    dependencies=[
        Depends(require("iam-service-accounts:read", tenant_path="tenantId"))
    ],
    response_model=list[schemas.RegisteredClient],
    responses={404: PROBLEM[404], 422: PROBLEM[422], **problem_responses(503)},
    summary="The tenant's registered clients, disabled ones too, by client id; secrets are never shown",
)
async def list_registered_clients(
    request: Request,
    queries: RegisteredClientsReads,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
) -> list[schemas.RegisteredClient]:
    """The tenant's registered clients, disabled ones too, by client id; secrets are never shown."""
    await queries.caught_up_with(
        request.app.state.store
    )  # read your writes (503 past 5 s)
    where: list[Condition] = []
    order: list[tuple[str, bool]] = [("client_id", False)]
    rows, _ = await queries.page(where=where, order_by=order, limit=LIST_LIMIT)
    now = clock.now()
    return [registered_client_view(row, now) for row in rows]


@router.get(
    "/api/v1/tenants/{tenantId}/clients/{clientId}",
    status_code=200,
    dependencies=[
        Depends(require("iam-service-accounts:read", tenant_path="tenantId"))
    ],
    response_model=schemas.RegisteredClient,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_registered_client_by_client_id(
    use_cases: RegisteredClientCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    client_id: Annotated[str, Path(alias="clientId")],
) -> schemas.RegisteredClient | Response:
    """The registered client with this clientId; 404 when there is none."""
    client = await use_cases.get_by_client_id(client_id)
    if client is None:
        return problem(404, "Not found", "No such client")
    tag = etag(client.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return registered_client_view(client, clock.now())


@router.delete(
    "/api/v1/tenants/{tenantId}/clients/{clientId}",
    status_code=204,
    dependencies=[
        Depends(require("iam-service-accounts:write", tenant_path="tenantId"))
    ],
    response_class=Response,
    responses=PROBLEM,
    summary="Disable the client: it stays readable, with status DISABLED, and gets no code or token any more",
)
async def disable_registered_client(
    use_cases: RegisteredClientCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    path_tenant: Annotated[
        str,
        Path(
            alias="tenantId",
            pattern=TENANT_PATTERN,
            description="the tenant the request acts in",
        ),
    ],
    client_id: Annotated[str, Path(alias="clientId")],
) -> Response:
    """Disable the client: it stays readable, with status DISABLED, and gets no code or token any more.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - iam is the public client's id (clientId)
    - refresh_token needs authorization_code (grantTypes)
    - authorization_code needs a redirect URI (redirectUris)
    - A URI is listed twice (redirectUris)
    - A URI is listed twice (postLogoutRedirectUris)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    # the registered client the path names by its key: the id it derives in the tenant
    keyed = keyed_id(
        "8d0f6f8e-3c4b-5f43-9a57-1f6a0d7c2e91", "registered-client", [client_id]
    )
    client = await use_cases.disable(
        keyed,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    answered = Response(status_code=204, headers={"ETag": etag(client.version)})
    if idempotency is not None and idempotency.replayed:
        answered.headers["Idempotent-Replayed"] = "true"
    return answered


# The rules of each request body, by route and field path (``field.*``: each item of a list
# or value of a map), so that a request that breaks them is answered with the spec's
# messages (the models state the same rules to clients).
RULES: dict[str, dict[str, RuleCheck]] = {
    "directory_create_tenant": {
        "name": lambda value: domain_model.check_call_directory_create_tenant_name(
            value
        ),
        "adminUsername": lambda value: (
            domain_model.check_call_directory_create_tenant_admin_username(value)
        ),
        "adminEmail": lambda value: (
            domain_model.check_call_directory_create_tenant_admin_email(value)
        ),
        "adminPassword": lambda value: (
            domain_model.check_call_directory_create_tenant_admin_password(value)
        ),
    },
    "access_decide": {
        "permission": lambda value: domain_model.check_call_access_decide_permission(
            value
        ),
    },
    "change_status_tenant": {},
    "create_user": {
        "username": lambda value: User.check_username(value),
        "email": lambda value: User.check_email(value),
        "password": lambda value: User.check_password(value),
        "roles.*": lambda value: User.check_roles_item(value, ""),
    },
    "change_user": {
        "roles.*": lambda value: User.check_roles_item(value, ""),
        "password": lambda value: User.check_password(value),
    },
    "create_role": {
        "name": lambda value: Role.check_name(value),
        "permissions.*": lambda value: Role.check_permissions_item(value, ""),
    },
    "change_role": {
        "permissions.*": lambda value: Role.check_permissions_item(value, ""),
    },
    "change_role_2": {
        "permissions.*": lambda value: Role.check_permissions_item(value, ""),
    },
    "create_policy": {
        "permissions": lambda value: Policy.check_permissions(value),
        "permissions.*": lambda value: Policy.check_permissions_item(value, ""),
    },
    "change_policy": {
        "permissions": lambda value: Policy.check_permissions(value),
        "permissions.*": lambda value: Policy.check_permissions_item(value, ""),
    },
    "create_service_account": {
        "clientId": lambda value: ServiceAccount.check_client_id(value),
        "roles.*": lambda value: ServiceAccount.check_roles_item(value, ""),
    },
    "register_registered_client": {
        "clientId": lambda value: RegisteredClient.check_client_id(value),
        "name": lambda value: RegisteredClient.check_name(value),
        "grantTypes": lambda value: RegisteredClient.check_grant_types(value),
        "redirectUris": lambda value: RegisteredClient.check_redirect_uris(value),
        "redirectUris.*": lambda value: RegisteredClient.check_redirect_uris_item(
            value, ""
        ),
        "postLogoutRedirectUris": lambda value: (
            RegisteredClient.check_post_logout_redirect_uris(value)
        ),
        "postLogoutRedirectUris.*": lambda value: (
            RegisteredClient.check_post_logout_redirect_uris_item(value, "")
        ),
        "scopes.*": lambda value: RegisteredClient.check_scopes_item(value, ""),
    },
}
NESTED_RULES: dict[str, RuleCheck] = {
    "PolicyCondition.attribute": lambda value: PolicyCondition.check_attribute(value),
    "PolicyCondition.valueOf": lambda value: PolicyCondition.check_value_of(value),
}
# The check of each value object by its request model: a request whose other fields break
# rules is answered with the value's invariants too.
VALUE_CHECKS: dict[type[Any], ValueCheck] = {
    schemas.RotatedKeysBody: lambda body: rotated_keys_of(body).problems(),
    schemas.CheckAnswerBody: lambda body: check_answer_of(body).problems(),
    schemas.PolicyConditionBody: lambda body: policy_condition_of(body).problems(),
}
UNIQUE_FIELDS: dict[tuple[str, str], str] = {
    ("User", "username"): "username",
    ("Role", "name"): "name",
    ("Policy", "name"): "name",
    ("ServiceAccount", "client_id"): "clientId",
    ("RegisteredClient", "client_id"): "clientId",
}


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
            values=VALUE_CHECKS,
        ),
    )
