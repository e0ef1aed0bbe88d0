# Generated from spec configuration by `generate`; edits are merged on re-render.

"""The HTTP adapter: routes to the use cases and read models, versions as ETags, errors as
RFC 9457 problem bodies listing every broken rule."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from eaf.eventsourcing import Idempotency
from eaf.projectors import Condition, equal_to, order_by
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
    etag,
    next_page,
)
from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request, Response
from iam_client import require

from configuration.application.ports.inbound import (
    ConfigSchemaUseCases,
    PropertySetUseCases,
)
from configuration.application.ports.outbound import Clock
from configuration.domain.errors import (
    ConcurrencyError,
    DomainError,
    DomainValidationError,
    NotFoundError,
)
from configuration.domain.model import ConfigSchema, PropertySet
from configuration.domain.types import Property
from configuration.infrastructure import schemas
from configuration.infrastructure.projections import (
    ReadModelConfigSchemaListing,
    ReadModelPropertySetListing,
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


async def config_schema_use_cases(request: Request) -> ConfigSchemaUseCases:
    """The ConfigSchema use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: ConfigSchemaUseCases = request.app.state.config_schema
    return use_cases


ConfigSchemaCases = Annotated[ConfigSchemaUseCases, Depends(config_schema_use_cases)]


def config_schema_view(schema_: ConfigSchema, now: datetime) -> schemas.ConfigSchema:
    """The HTTP body of a ConfigSchema."""
    return schemas.ConfigSchema.model_validate(
        {
            "id": schema_.id,
            "application": schema_.application,
            "document": schema_.document,
            "revision": schema_.revision,
            "createdAt": schema_.created_at,
            "updatedAt": schema_.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


async def property_set_use_cases(request: Request) -> PropertySetUseCases:
    """The PropertySet use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: PropertySetUseCases = request.app.state.property_set
    return use_cases


PropertySetCases = Annotated[PropertySetUseCases, Depends(property_set_use_cases)]


def property_set_view(set_: PropertySet, now: datetime) -> schemas.PropertySet:
    """The HTTP body of a PropertySet."""
    return schemas.PropertySet.model_validate(
        {
            "id": set_.id,
            "key": set_.key_,
            "application": set_.application,
            "profile": set_.profile,
            "label": set_.label,
            "properties": set_.properties,
            "revision": set_.revision,
            "createdAt": set_.created_at,
            "updatedAt": set_.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


def property_of(body: schemas.PropertyBody) -> Property:
    """The domain's Property of a request's."""
    return Property(
        value_=body.value_,
        secret=body.secret,
        key_id=body.key_id,
    )


async def schemas_queries(request: Request) -> ReadModelConfigSchemaListing:
    """The queries of the Schemas read model (a coroutine, as the use cases')."""
    queries: ReadModelConfigSchemaListing = request.app.state.queries["Schemas"]
    return queries


SchemasReads = Annotated[ReadModelConfigSchemaListing, Depends(schemas_queries)]


async def property_sets_queries(request: Request) -> ReadModelPropertySetListing:
    """The queries of the PropertySets read model (a coroutine, as the use cases')."""
    queries: ReadModelPropertySetListing = request.app.state.queries["PropertySets"]
    return queries


PropertySetsReads = Annotated[
    ReadModelPropertySetListing, Depends(property_sets_queries)
]


@router.post(
    "/api/v1/schemas",
    status_code=201,
    dependencies=[Depends(require("configuration:write"))],
    response_model=schemas.ConfigSchema,
    responses=PROBLEM,
)
async def define_config_schema(
    use_cases: ConfigSchemaCases,
    response: Response,
    body: schemas.DefineConfigSchemaRequest,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
) -> schemas.ConfigSchema:
    """define: creates a config schema."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    schema_ = await use_cases.define(
        application=body.application,
        document=body.document,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = "/api/v1/schemas/" + schema_.id
    response.headers["ETag"] = etag(schema_.version)
    return config_schema_view(schema_, clock.now())


@router.get(
    "/api/v1/schemas",
    status_code=200,
    dependencies=[Depends(require("configuration:read"))],
    response_model=schemas.SchemasPage,
    responses={422: PROBLEM[422]},
)
async def list_schemas(
    request: Request,
    queries: SchemasReads,
    clock: ServiceClock,
    sort: Annotated[
        list[Literal["application", "-application"]] | None,
        Query(description="columns to sort by, - for descending"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> schemas.SchemasPage:
    """The tenant's Schemas, from the read model (eventually consistent)."""
    where: list[Condition] = []
    columns = {
        "application": "application",
    }
    order = order_by(sort, columns, default=[])
    rows, total = await queries.page(
        where=where, order_by=order, limit=limit, offset=offset
    )
    now = clock.now()
    return schemas.SchemasPage(
        items=[config_schema_view(row, now) for row in rows],
        total=total,
        limit=limit,
        offset=offset,
        next=next_page(request, offset, limit, total),
    )


@router.get(
    "/api/v1/schemas/{id}",
    status_code=200,
    dependencies=[Depends(require("configuration:read"))],
    response_model=schemas.ConfigSchema,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_config_schema(
    use_cases: ConfigSchemaCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.ConfigSchema | Response:
    """The config schema with this id; 404 when there is none."""
    schema_ = await use_cases.get(id)
    if schema_ is None:
        return problem(404, "Not found", "Schema not found")
    tag = etag(schema_.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return config_schema_view(schema_, clock.now())


@router.get(
    "/api/v1/schemas/by-application/{application}",
    status_code=200,
    dependencies=[Depends(require("configuration:read"))],
    response_model=schemas.ConfigSchema,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_config_schema_by_application(
    use_cases: ConfigSchemaCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    application: Annotated[str, Path(alias="application")],
) -> schemas.ConfigSchema | Response:
    """The config schema with this application; 404 when there is none."""
    schema_ = await use_cases.get_by_application(application)
    if schema_ is None:
        return problem(404, "Not found", "Schema not found")
    tag = etag(schema_.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return config_schema_view(schema_, clock.now())


@router.put(
    "/api/v1/schemas/{id}",
    status_code=200,
    dependencies=[Depends(require("configuration:write"))],
    response_model=schemas.ConfigSchema,
    responses=PROBLEM,
)
async def revise_config_schema(
    use_cases: ConfigSchemaCases,
    response: Response,
    body: schemas.ReviseConfigSchemaRequest,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.ConfigSchema:
    """revise: changes the config schema."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    schema_ = await use_cases.revise(
        id,
        document=body.document,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(schema_.version)
    return config_schema_view(schema_, clock.now())


@router.delete(
    "/api/v1/schemas/{id}",
    status_code=204,
    dependencies=[Depends(require("configuration:write"))],
    response_class=Response,
    responses=PROBLEM,
)
async def remove_config_schema(
    use_cases: ConfigSchemaCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    id: Annotated[PathId, Path(alias="id")],
) -> Response:
    """remove: changes the config schema."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    schema_ = await use_cases.remove(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    answered = Response(status_code=204, headers={"ETag": etag(schema_.version)})
    if idempotency is not None and idempotency.replayed:
        answered.headers["Idempotent-Replayed"] = "true"
    return answered


@router.get(
    "/api/v1/property-sets",
    status_code=200,
    dependencies=[Depends(require("configuration:read"))],
    response_model=schemas.PropertySetsPage,
    responses={422: PROBLEM[422]},
)
async def list_property_sets(
    request: Request,
    queries: PropertySetsReads,
    clock: ServiceClock,
    application: Annotated[
        list[str] | None,
        Query(alias="application", description="equal to (repeat for any of several)"),
    ] = None,
    profile: Annotated[
        list[str] | None,
        Query(alias="profile", description="equal to (repeat for any of several)"),
    ] = None,
    label: Annotated[
        list[str] | None,
        Query(alias="label", description="equal to (repeat for any of several)"),
    ] = None,
    sort: Annotated[
        list[Literal["key", "-key", "updatedAt", "-updatedAt"]] | None,
        Query(description="columns to sort by, - for descending"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> schemas.PropertySetsPage:
    """The tenant's PropertySets, from the read model (eventually consistent)."""
    where: list[Condition] = [
        *equal_to("application", application),
        *equal_to("profile", profile),
        *equal_to("label", label),
    ]
    columns = {
        "key": "key_",
        "updatedAt": "updated_at",
    }
    order = order_by(sort, columns, default=[])
    rows, total = await queries.page(
        where=where, order_by=order, limit=limit, offset=offset
    )
    now = clock.now()
    return schemas.PropertySetsPage(
        items=[property_set_view(row, now) for row in rows],
        total=total,
        limit=limit,
        offset=offset,
        next=next_page(request, offset, limit, total),
    )


@router.get(
    "/api/v1/property-sets/{id}",
    status_code=200,
    dependencies=[Depends(require("configuration:read"))],
    response_model=schemas.PropertySet,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_property_set(
    use_cases: PropertySetCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.PropertySet | Response:
    """The property set with this id; 404 when there is none."""
    set_ = await use_cases.get(id)
    if set_ is None:
        return problem(404, "Not found", "Property set not found")
    tag = etag(set_.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return property_set_view(set_, clock.now())


@router.delete(
    "/api/v1/property-sets/{id}",
    status_code=204,
    dependencies=[Depends(require("configuration:write"))],
    response_class=Response,
    responses=PROBLEM,
)
async def remove_property_set(
    use_cases: PropertySetCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    id: Annotated[PathId, Path(alias="id")],
) -> Response:
    """remove: changes the property set."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    set_ = await use_cases.remove(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    answered = Response(status_code=204, headers={"ETag": etag(set_.version)})
    if idempotency is not None and idempotency.replayed:
        answered.headers["Idempotent-Replayed"] = "true"
    return answered


# The rules of each request body, by route and field path (``field.*``: each item of a list
# or value of a map), so that a request that breaks them is answered with the spec's
# messages (the models state the same rules to clients).
RULES: dict[str, dict[str, RuleCheck]] = {
    "define_config_schema": {
        "application": lambda value: ConfigSchema.check_application(value),
        "document": lambda value: ConfigSchema.check_document(value),
    },
    "revise_config_schema": {
        "document": lambda value: ConfigSchema.check_document(value),
    },
}
NESTED_RULES: dict[str, RuleCheck] = {
    "Property.value": lambda value: Property.check_value_(value),
    "Property.keyId": lambda value: Property.check_key_id(value),
}
# The check of each value object by its request model: a request whose other fields break
# rules is answered with the value's invariants too.
VALUE_CHECKS: dict[type[Any], ValueCheck] = {
    schemas.PropertyBody: lambda body: property_of(body).problems(),
}
UNIQUE_FIELDS: dict[tuple[str, str], str] = {
    ("ConfigSchema", "application"): "application",
    ("PropertySet", "key_"): "key",
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
            service="configuration",
            rules=RULES,
            nested_rules=NESTED_RULES,
            unique_fields=UNIQUE_FIELDS,
            values=VALUE_CHECKS,
        ),
    )
