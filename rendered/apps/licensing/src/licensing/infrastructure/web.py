# Generated from spec licensing by `generate`; edits are merged on re-render.

"""The HTTP adapter: routes to the use cases and read models, versions as ETags, errors as
RFC 9457 problem bodies listing every broken rule."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from eaf.eventsourcing import Idempotency, PreconditionFailedError
from eaf.projectors import Condition, equal_to, in_range, order_by
from eaf.web import (
    DomainErrors,
    ExactJsonRoute,
    JsonDateTime,
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
    next_page,
)
from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request, Response
from iam_client import require

from licensing.application.ports.inbound import (
    LicenseUseCases,
    MachineUseCases,
    PolicyUseCases,
    ProductUseCases,
)
from licensing.application.ports.outbound import Clock
from licensing.domain.errors import (
    ConcurrencyError,
    DomainError,
    DomainValidationError,
    NotFoundError,
)
from licensing.domain.model import License, Machine, Policy, Product
from licensing.domain.types import LicenseStatus
from licensing.infrastructure import schemas
from licensing.infrastructure.projections import (
    ReadModelLicenseListing,
    ReadModelMachineListing,
    ReadModelPolicyListing,
    ReadModelProductListing,
)

# The problem answers a route documents (hand-written routers use it too).
PROBLEM = problem_responses(404, 409, 412, 422)
LIST_LIMIT = 10_000
AUTH_PROBLEMS = auth_problem_responses()

# Every route needs a bearer token from IAM: the request runs in the token's security
# context (tenant, user, permissions), and the tenant comes from the token only.
# a JSON number read exactly: a decimal as written, not through a float
router = APIRouter(
    responses=AUTH_PROBLEMS,
    dependencies=[Depends(known_query)],
    route_class=ExactJsonRoute,
)


# the clock computed values are computed by: the service's, the one its commands read
ServiceClock = Annotated[Clock, Depends(component("clock"))]


async def product_use_cases(request: Request) -> ProductUseCases:
    """The Product use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: ProductUseCases = request.app.state.product
    return use_cases


ProductCases = Annotated[ProductUseCases, Depends(product_use_cases)]


def product_view(product: Product, now: datetime) -> schemas.Product:
    """The HTTP body of a Product."""
    return schemas.Product.model_validate(
        {
            "id": product.id,
            "code": product.code,
            "name": product.name,
            "url": product.url,
            "metadata": product.metadata,
            "createdAt": product.created_at,
            "updatedAt": product.updated_at,
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
            "id": policy.id,
            "productId": policy.product_id,
            "name": policy.name,
            "durationDays": policy.duration_days,
            "maxMachines": policy.max_machines,
            "floating": policy.floating,
            "entitlements": policy.entitlements,
            "gracePeriodDays": policy.grace_period_days,
            "heartbeatIntervalSeconds": policy.heartbeat_interval_seconds,
            "createdAt": policy.created_at,
            "updatedAt": policy.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


async def license_use_cases(request: Request) -> LicenseUseCases:
    """The License use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: LicenseUseCases = request.app.state.license
    return use_cases


LicenseCases = Annotated[LicenseUseCases, Depends(license_use_cases)]


def license_view(license_: License, now: datetime) -> schemas.License:
    """The HTTP body of a License."""
    return schemas.License.model_validate(
        {
            "id": license_.id,
            "key": license_.key_,
            "policyId": license_.policy_id,
            "productId": license_.product_id,
            "name": license_.name,
            "owner": license_.owner,
            "expiresAt": license_.expires_at,
            "durationDays": license_.duration_days,
            "maxMachines": license_.max_machines,
            "status": license_.status,
            "machineCount": license_.machine_count,
            "metadata": license_.metadata,
            "expired": license_.expired(now),
            "effectiveStatus": license_.effective_status(now),
            "createdAt": license_.created_at,
            "updatedAt": license_.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


async def machine_use_cases(request: Request) -> MachineUseCases:
    """The Machine use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: MachineUseCases = request.app.state.machine
    return use_cases


MachineCases = Annotated[MachineUseCases, Depends(machine_use_cases)]


def machine_view(machine: Machine, now: datetime) -> schemas.Machine:
    """The HTTP body of a Machine."""
    return schemas.Machine.model_validate(
        {
            "id": machine.id,
            "licenseId": machine.license_id,
            "fingerprint": machine.fingerprint,
            "name": machine.name,
            "platform": machine.platform,
            "lastHeartbeatAt": machine.last_heartbeat_at,
            "createdAt": machine.created_at,
            "updatedAt": machine.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


async def products_queries(request: Request) -> ReadModelProductListing:
    """The queries of the Products read model (a coroutine, as the use cases')."""
    queries: ReadModelProductListing = request.app.state.queries["Products"]
    return queries


ProductsReads = Annotated[ReadModelProductListing, Depends(products_queries)]


async def policies_queries(request: Request) -> ReadModelPolicyListing:
    """The queries of the Policies read model (a coroutine, as the use cases')."""
    queries: ReadModelPolicyListing = request.app.state.queries["Policies"]
    return queries


PoliciesReads = Annotated[ReadModelPolicyListing, Depends(policies_queries)]


async def licenses_queries(request: Request) -> ReadModelLicenseListing:
    """The queries of the Licenses read model (a coroutine, as the use cases')."""
    queries: ReadModelLicenseListing = request.app.state.queries["Licenses"]
    return queries


LicensesReads = Annotated[ReadModelLicenseListing, Depends(licenses_queries)]


async def machines_queries(request: Request) -> ReadModelMachineListing:
    """The queries of the Machines read model (a coroutine, as the use cases')."""
    queries: ReadModelMachineListing = request.app.state.queries["Machines"]
    return queries


MachinesReads = Annotated[ReadModelMachineListing, Depends(machines_queries)]


@router.post(
    "/api/v1/products",
    status_code=201,
    dependencies=[Depends(require("licensing:write"))],
    response_model=schemas.Product,
    responses=PROBLEM,
)
async def create_product(
    use_cases: ProductCases,
    response: Response,
    body: schemas.CreateProductRequest,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
) -> schemas.Product:
    """create: creates a product."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    product = await use_cases.create(
        code=body.code,
        name=body.name,
        url=body.url,
        metadata=body.metadata,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = "/api/v1/products/" + product.id
    response.headers["ETag"] = etag(product.version)
    return product_view(product, clock.now())


@router.get(
    "/api/v1/products",
    status_code=200,
    dependencies=[Depends(require("licensing:read"))],
    response_model=schemas.ProductsPage,
    responses={422: PROBLEM[422]},
)
async def list_products(
    request: Request,
    queries: ProductsReads,
    clock: ServiceClock,
    sort: Annotated[
        list[Literal["code", "-code"]] | None,
        Query(description="columns to sort by, - for descending"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> schemas.ProductsPage:
    """The tenant's Products, from the read model (eventually consistent)."""
    where: list[Condition] = []
    columns = {
        "code": "code",
    }
    order = order_by(sort, columns, default=[])
    rows, total = await queries.page(
        where=where, order_by=order, limit=limit, offset=offset
    )
    now = clock.now()
    return schemas.ProductsPage(
        items=[product_view(row, now) for row in rows],
        total=total,
        limit=limit,
        offset=offset,
        next=next_page(request, offset, limit, total),
    )


@router.get(
    "/api/v1/products/{id}",
    status_code=200,
    dependencies=[Depends(require("licensing:read"))],
    response_model=schemas.Product,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_product(
    use_cases: ProductCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Product | Response:
    """The product with this id; 404 when there is none."""
    product = await use_cases.get(id)
    if product is None:
        return problem(404, "Not found", "Product not found")
    tag = etag(product.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return product_view(product, clock.now())


@router.put(
    "/api/v1/products/{id}",
    status_code=200,
    dependencies=[Depends(require("licensing:write"))],
    response_model=schemas.Product,
    responses=PROBLEM,
)
async def update_product(
    use_cases: ProductCases,
    response: Response,
    body: schemas.UpdateProductRequest,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Product:
    """update: changes the product."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    product = await use_cases.update(
        id,
        name=body.name,
        url=body.url,
        metadata=body.metadata,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(product.version)
    return product_view(product, clock.now())


@router.delete(
    "/api/v1/products/{id}",
    status_code=204,
    dependencies=[Depends(require("licensing:write"))],
    response_class=Response,
    responses=PROBLEM,
)
async def remove_product(
    use_cases: ProductCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    id: Annotated[PathId, Path(alias="id")],
) -> Response:
    """remove: changes the product."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    product = await use_cases.remove(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    answered = Response(status_code=204, headers={"ETag": etag(product.version)})
    if idempotency is not None and idempotency.replayed:
        answered.headers["Idempotent-Replayed"] = "true"
    return answered


@router.post(
    "/api/v1/policies",
    status_code=201,
    dependencies=[Depends(require("licensing:write"))],
    response_model=schemas.Policy,
    responses=PROBLEM,
)
async def create_policy(
    use_cases: PolicyCases,
    response: Response,
    body: schemas.CreatePolicyRequest,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
) -> schemas.Policy:
    """create: creates a policy.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - A node-locked policy allows one machine (maxMachines)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    policy = await use_cases.create(
        product_id=body.product_id,
        name=body.name,
        duration_days=body.duration_days,
        max_machines=body.max_machines,
        floating=body.floating,
        entitlements=body.entitlements,
        grace_period_days=body.grace_period_days,
        heartbeat_interval_seconds=body.heartbeat_interval_seconds,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = "/api/v1/policies/" + policy.id
    response.headers["ETag"] = etag(policy.version)
    return policy_view(policy, clock.now())


@router.get(
    "/api/v1/policies",
    status_code=200,
    dependencies=[Depends(require("licensing:read"))],
    response_model=schemas.PoliciesPage,
    responses={422: PROBLEM[422]},
)
async def list_policies(
    request: Request,
    queries: PoliciesReads,
    clock: ServiceClock,
    product_id: Annotated[
        list[UUID] | None,
        Query(alias="productId", description="equal to (repeat for any of several)"),
    ] = None,
    sort: Annotated[
        list[Literal["name", "-name"]] | None,
        Query(description="columns to sort by, - for descending"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> schemas.PoliciesPage:
    """The tenant's Policies, from the read model (eventually consistent)."""
    where: list[Condition] = [
        *equal_to("product_id", product_id),
    ]
    columns = {
        "name": "name",
    }
    order = order_by(sort, columns, default=[])
    rows, total = await queries.page(
        where=where, order_by=order, limit=limit, offset=offset
    )
    now = clock.now()
    return schemas.PoliciesPage(
        items=[policy_view(row, now) for row in rows],
        total=total,
        limit=limit,
        offset=offset,
        next=next_page(request, offset, limit, total),
    )


@router.get(
    "/api/v1/policies/{id}",
    status_code=200,
    dependencies=[Depends(require("licensing:read"))],
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
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Policy | Response:
    """The policy with this id; 404 when there is none."""
    policy = await use_cases.get(id)
    if policy is None:
        return problem(404, "Not found", "Policy not found")
    tag = etag(policy.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return policy_view(policy, clock.now())


@router.put(
    "/api/v1/policies/{id}",
    status_code=200,
    dependencies=[Depends(require("licensing:write"))],
    response_model=schemas.Policy,
    responses=PROBLEM,
)
async def update_policy(
    use_cases: PolicyCases,
    response: Response,
    body: schemas.UpdatePolicyRequest,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Policy:
    """update: changes the policy.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - A node-locked policy allows one machine (maxMachines)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    policy = await use_cases.update(
        id,
        name=body.name,
        duration_days=body.duration_days,
        max_machines=body.max_machines,
        floating=body.floating,
        entitlements=body.entitlements,
        grace_period_days=body.grace_period_days,
        heartbeat_interval_seconds=body.heartbeat_interval_seconds,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(policy.version)
    return policy_view(policy, clock.now())


@router.delete(
    "/api/v1/policies/{id}",
    status_code=204,
    dependencies=[Depends(require("licensing:write"))],
    response_class=Response,
    responses=PROBLEM,
)
async def remove_policy(
    use_cases: PolicyCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    id: Annotated[PathId, Path(alias="id")],
) -> Response:
    """remove: changes the policy.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - A node-locked policy allows one machine (maxMachines)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    policy = await use_cases.remove(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    answered = Response(status_code=204, headers={"ETag": etag(policy.version)})
    if idempotency is not None and idempotency.replayed:
        answered.headers["Idempotent-Replayed"] = "true"
    return answered


@router.post(
    "/api/v1/licenses",
    status_code=201,
    dependencies=[Depends(require("licensing:write"))],
    response_model=schemas.License,
    responses=PROBLEM,
)
async def create_license(
    use_cases: LicenseCases,
    response: Response,
    body: schemas.CreateLicenseRequest,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
) -> schemas.License:
    """create: creates a license."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    license_ = await use_cases.create(
        key_=body.key_,
        policy_id=body.policy_id,
        product_id=body.product_id,
        name=body.name,
        owner=body.owner,
        expires_at=body.expires_at,
        duration_days=body.duration_days,
        max_machines=body.max_machines,
        metadata=body.metadata,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = "/api/v1/licenses/" + license_.id
    response.headers["ETag"] = etag(license_.version)
    return license_view(license_, clock.now())


@router.get(
    "/api/v1/licenses",
    status_code=200,
    dependencies=[Depends(require("licensing:read"))],
    response_model=schemas.LicensesPage,
    responses={422: PROBLEM[422]},
)
async def list_licenses(
    request: Request,
    queries: LicensesReads,
    clock: ServiceClock,
    policy_id: Annotated[
        list[UUID] | None,
        Query(alias="policyId", description="equal to (repeat for any of several)"),
    ] = None,
    product_id: Annotated[
        list[UUID] | None,
        Query(alias="productId", description="equal to (repeat for any of several)"),
    ] = None,
    status: Annotated[
        list[LicenseStatus] | None,
        Query(alias="status", description="equal to (repeat for any of several)"),
    ] = None,
    owner: Annotated[
        list[str] | None,
        Query(alias="owner", description="equal to (repeat for any of several)"),
    ] = None,
    expires_at: Annotated[
        list[JsonDateTime] | None,
        Query(alias="expiresAt", description="equal to (repeat for any of several)"),
    ] = None,
    expires_at_gte: Annotated[JsonDateTime | None, Query(alias="expiresAt.gte")] = None,
    expires_at_gt: Annotated[JsonDateTime | None, Query(alias="expiresAt.gt")] = None,
    expires_at_lte: Annotated[JsonDateTime | None, Query(alias="expiresAt.lte")] = None,
    expires_at_lt: Annotated[JsonDateTime | None, Query(alias="expiresAt.lt")] = None,
    sort: Annotated[
        list[Literal["createdAt", "-createdAt", "expiresAt", "-expiresAt"]] | None,
        Query(description="columns to sort by, - for descending"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> schemas.LicensesPage:
    """The tenant's Licenses, from the read model (eventually consistent)."""
    where: list[Condition] = [
        *equal_to("policy_id", policy_id),
        *equal_to("product_id", product_id),
        *equal_to("status", status),
        *equal_to("owner", owner),
        *equal_to("expires_at", expires_at),
        *in_range(
            "expires_at",
            gte=expires_at_gte,
            gt=expires_at_gt,
            lte=expires_at_lte,
            lt=expires_at_lt,
        ),
    ]
    columns = {
        "createdAt": "created_at",
        "expiresAt": "expires_at",
    }
    order = order_by(sort, columns, default=[])
    rows, total = await queries.page(
        where=where, order_by=order, limit=limit, offset=offset
    )
    now = clock.now()
    return schemas.LicensesPage(
        items=[license_view(row, now) for row in rows],
        total=total,
        limit=limit,
        offset=offset,
        next=next_page(request, offset, limit, total),
    )


@router.get(
    "/api/v1/licenses/{id}",
    status_code=200,
    dependencies=[Depends(require("licensing:read"))],
    response_model=schemas.License,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_license(
    use_cases: LicenseCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.License | Response:
    """The license with this id; 404 when there is none."""
    license_ = await use_cases.get(id)
    if license_ is None:
        return problem(404, "Not found", "License not found")
    tag = etag(license_.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return license_view(license_, clock.now())


@router.get(
    "/api/v1/licenses/by-key/{key}",
    status_code=200,
    dependencies=[Depends(require("licensing:read"))],
    response_model=schemas.License,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_license_by_key(
    use_cases: LicenseCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    key_: Annotated[str, Path(alias="key")],
) -> schemas.License | Response:
    """The license with this key; 404 when there is none."""
    license_ = await use_cases.get_by_key(key_)
    if license_ is None:
        return problem(404, "Not found", "License not found")
    tag = etag(license_.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return license_view(license_, clock.now())


@router.patch(
    "/api/v1/licenses/{id}",
    status_code=200,
    dependencies=[Depends(require("licensing:write"))],
    response_model=schemas.License,
    responses=PROBLEM,
)
async def update_license(
    use_cases: LicenseCases,
    response: Response,
    body: schemas.UpdateLicensePatch,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.License:
    """update: changes the license."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    # A merge patch (RFC 7396): what the body leaves out keeps the value read here, and
    # the command applies to the version read (unless If-Match names one).
    current_state = await use_cases.get(id)
    if current_state is None:
        raise NotFoundError("License not found")
    given = body.model_fields_set
    if not given:
        # An empty merge patch changes nothing: no command runs, no event is stored, the
        # version stays (If-Match still has to name it).
        if if_match is not None and if_match != current_state.version:
            raise PreconditionFailedError(if_match, current_state.version)
        response.headers["ETag"] = etag(current_state.version)
        return license_view(current_state, clock.now())
    # a write committed since the patch was merged: 409 to retry (412 for an If-Match)
    license_ = await after_merge(
        use_cases.update(
            id,
            name=body.name if "name" in given else current_state.name,
            owner=body.owner if "owner" in given else current_state.owner,
            metadata=body.metadata if "metadata" in given else current_state.metadata,
            expected_version=current_state.version if if_match is None else if_match,
            idempotency=idempotency,
        ),
        if_match,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(license_.version)
    return license_view(license_, clock.now())


@router.post(
    "/api/v1/licenses/{id}/actions/suspend",
    status_code=200,
    dependencies=[Depends(require("licensing:write"))],
    response_model=schemas.License,
    responses=PROBLEM,
)
async def suspend_license(
    use_cases: LicenseCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.License:
    """suspend: changes the license."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    license_ = await use_cases.suspend(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(license_.version)
    return license_view(license_, clock.now())


@router.post(
    "/api/v1/licenses/{id}/actions/reinstate",
    status_code=200,
    dependencies=[Depends(require("licensing:write"))],
    response_model=schemas.License,
    responses=PROBLEM,
)
async def reinstate_license(
    use_cases: LicenseCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.License:
    """reinstate: changes the license."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    license_ = await use_cases.reinstate(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(license_.version)
    return license_view(license_, clock.now())


@router.post(
    "/api/v1/licenses/{id}/actions/revoke",
    status_code=200,
    dependencies=[Depends(require("licensing:write"))],
    response_model=schemas.License,
    responses=PROBLEM,
)
async def revoke_license(
    use_cases: LicenseCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.License:
    """revoke: changes the license."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    license_ = await use_cases.revoke(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(license_.version)
    return license_view(license_, clock.now())


@router.post(
    "/api/v1/licenses/{id}/actions/renew",
    status_code=200,
    dependencies=[Depends(require("licensing:write"))],
    response_model=schemas.License,
    responses=PROBLEM,
)
async def renew_license(
    use_cases: LicenseCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.License:
    """renew: changes the license."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    license_ = await use_cases.renew(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(license_.version)
    return license_view(license_, clock.now())


@router.post(
    "/api/v1/machines",
    status_code=201,
    dependencies=[Depends(require("licensing:write"))],
    response_model=schemas.Machine,
    responses=PROBLEM,
)
async def activate_machine(
    use_cases: MachineCases,
    response: Response,
    body: schemas.ActivateMachineRequest,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
) -> schemas.Machine:
    """activate: creates a machine."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    machine = await use_cases.activate(
        license_id=body.license_id,
        fingerprint=body.fingerprint,
        name=body.name,
        platform=body.platform,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = "/api/v1/machines/" + machine.id
    response.headers["ETag"] = etag(machine.version)
    return machine_view(machine, clock.now())


@router.get(
    "/api/v1/machines",
    status_code=200,
    dependencies=[Depends(require("licensing:read"))],
    response_model=schemas.MachinesPage,
    responses={422: PROBLEM[422]},
)
async def list_machines(
    request: Request,
    queries: MachinesReads,
    clock: ServiceClock,
    license_id: Annotated[
        list[UUID] | None,
        Query(alias="licenseId", description="equal to (repeat for any of several)"),
    ] = None,
    fingerprint: Annotated[
        list[str] | None,
        Query(alias="fingerprint", description="equal to (repeat for any of several)"),
    ] = None,
    sort: Annotated[
        list[Literal["createdAt", "-createdAt"]] | None,
        Query(description="columns to sort by, - for descending"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> schemas.MachinesPage:
    """The tenant's Machines, from the read model (eventually consistent)."""
    where: list[Condition] = [
        *equal_to("license_id", license_id),
        *equal_to("fingerprint", fingerprint),
    ]
    columns = {
        "createdAt": "created_at",
    }
    order = order_by(sort, columns, default=[])
    rows, total = await queries.page(
        where=where, order_by=order, limit=limit, offset=offset
    )
    now = clock.now()
    return schemas.MachinesPage(
        items=[machine_view(row, now) for row in rows],
        total=total,
        limit=limit,
        offset=offset,
        next=next_page(request, offset, limit, total),
    )


@router.get(
    "/api/v1/machines/{id}",
    status_code=200,
    dependencies=[Depends(require("licensing:read"))],
    response_model=schemas.Machine,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_machine(
    use_cases: MachineCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Machine | Response:
    """The machine with this id; 404 when there is none."""
    machine = await use_cases.get(id)
    if machine is None:
        return problem(404, "Not found", "Machine not found")
    tag = etag(machine.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return machine_view(machine, clock.now())


@router.get(
    "/api/v1/machines/by-fingerprint/{fingerprint}",
    status_code=200,
    dependencies=[Depends(require("licensing:read"))],
    response_model=schemas.Machine,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_machine_by_fingerprint(
    use_cases: MachineCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    fingerprint: Annotated[str, Path(alias="fingerprint")],
) -> schemas.Machine | Response:
    """The machine with this fingerprint; 404 when there is none."""
    machine = await use_cases.get_by_fingerprint(fingerprint)
    if machine is None:
        return problem(404, "Not found", "Machine not found")
    tag = etag(machine.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return machine_view(machine, clock.now())


@router.post(
    "/api/v1/machines/{id}/actions/ping",
    status_code=200,
    dependencies=[Depends(require("licensing:write"))],
    response_model=schemas.Machine,
    responses=PROBLEM,
)
async def heartbeat_machine(
    use_cases: MachineCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Machine:
    """heartbeat: changes the machine."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    machine = await use_cases.heartbeat(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(machine.version)
    return machine_view(machine, clock.now())


@router.delete(
    "/api/v1/machines/{id}",
    status_code=204,
    dependencies=[Depends(require("licensing:write"))],
    response_class=Response,
    responses=PROBLEM,
)
async def deactivate_machine(
    use_cases: MachineCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    id: Annotated[PathId, Path(alias="id")],
) -> Response:
    """deactivate: changes the machine."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    machine = await use_cases.deactivate(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    answered = Response(status_code=204, headers={"ETag": etag(machine.version)})
    if idempotency is not None and idempotency.replayed:
        answered.headers["Idempotent-Replayed"] = "true"
    return answered


# The rules of each request body, by route and field path (``field.*``: each item of a list
# or value of a map), so that a request that breaks them is answered with the spec's
# messages (the models state the same rules to clients).
RULES: dict[str, dict[str, RuleCheck]] = {
    "create_product": {
        "code": lambda value: Product.check_code(value),
        "name": lambda value: Product.check_name(value),
        "url": lambda value: Product.check_url(value),
        "metadata": lambda value: Product.check_metadata(value),
    },
    "update_product": {
        "name": lambda value: Product.check_name(value),
        "url": lambda value: Product.check_url(value),
        "metadata": lambda value: Product.check_metadata(value),
    },
    "create_policy": {
        "name": lambda value: Policy.check_name(value),
        "durationDays": lambda value: Policy.check_duration_days(value),
        "maxMachines": lambda value: Policy.check_max_machines(value),
        "entitlements": lambda value: Policy.check_entitlements(value),
        "gracePeriodDays": lambda value: Policy.check_grace_period_days(value),
        "heartbeatIntervalSeconds": lambda value: (
            Policy.check_heartbeat_interval_seconds(value)
        ),
    },
    "update_policy": {
        "name": lambda value: Policy.check_name(value),
        "durationDays": lambda value: Policy.check_duration_days(value),
        "maxMachines": lambda value: Policy.check_max_machines(value),
        "entitlements": lambda value: Policy.check_entitlements(value),
        "gracePeriodDays": lambda value: Policy.check_grace_period_days(value),
        "heartbeatIntervalSeconds": lambda value: (
            Policy.check_heartbeat_interval_seconds(value)
        ),
    },
    "create_license": {
        "key": lambda value: License.check_key_(value),
        "name": lambda value: License.check_name(value),
        "owner": lambda value: License.check_owner(value),
        "durationDays": lambda value: License.check_duration_days(value),
        "maxMachines": lambda value: License.check_max_machines(value),
        "metadata": lambda value: License.check_metadata(value),
    },
    "update_license": {
        "name": lambda value: License.check_name(value),
        "owner": lambda value: License.check_owner(value),
        "metadata": lambda value: License.check_metadata(value),
    },
    "activate_machine": {
        "fingerprint": lambda value: Machine.check_fingerprint(value),
        "name": lambda value: Machine.check_name(value),
        "platform": lambda value: Machine.check_platform(value),
    },
}
NESTED_RULES: dict[str, RuleCheck] = {}
# The check of each value object by its request model: a request whose other fields break
# rules is answered with the value's invariants too.
VALUE_CHECKS: dict[type[Any], ValueCheck] = {}
UNIQUE_FIELDS: dict[tuple[str, str], str] = {
    ("Product", "code"): "code",
    ("License", "key_"): "key",
    ("Machine", "fingerprint"): "fingerprint",
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
            service="licensing",
            rules=RULES,
            nested_rules=NESTED_RULES,
            unique_fields=UNIQUE_FIELDS,
            values=VALUE_CHECKS,
        ),
    )
