# Generated from spec feature-flags by `generate`; edits are merged on re-render.

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
    QueryBool,
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

from feature_flags.application.ports.inbound import (
    FlagUseCases,
    ProjectUseCases,
    SegmentUseCases,
    UsageReportUseCases,
)
from feature_flags.application.ports.outbound import Clock
from feature_flags.domain.errors import (
    ConcurrencyError,
    DomainError,
    DomainValidationError,
    NotFoundError,
)
from feature_flags.domain.model import Flag, Project, Segment, UsageReport
from feature_flags.domain.types import (
    Constraint,
    Dependency,
    EnvironmentConfig,
    FlagType,
    Payload,
    Strategy,
    ToggleUsage,
    Variant,
)
from feature_flags.infrastructure import schemas
from feature_flags.infrastructure.projections import (
    ReadModelFlagListing,
    ReadModelProjectListing,
    ReadModelSegmentListing,
    ReadModelUsageReportListing,
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


async def project_use_cases(request: Request) -> ProjectUseCases:
    """The Project use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: ProjectUseCases = request.app.state.project
    return use_cases


ProjectCases = Annotated[ProjectUseCases, Depends(project_use_cases)]


def project_view(project: Project, now: datetime) -> schemas.Project:
    """The HTTP body of a Project."""
    return schemas.Project.model_validate(
        {
            "id": project.id,
            "key": project.key_,
            "name": project.name,
            "description": project.description,
            "environments": project.environments,
            "createdAt": project.created_at,
            "updatedAt": project.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


async def segment_use_cases(request: Request) -> SegmentUseCases:
    """The Segment use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: SegmentUseCases = request.app.state.segment
    return use_cases


SegmentCases = Annotated[SegmentUseCases, Depends(segment_use_cases)]


def segment_view(segment: Segment, now: datetime) -> schemas.Segment:
    """The HTTP body of a Segment."""
    return schemas.Segment.model_validate(
        {
            "id": segment.id,
            "name": segment.name,
            "description": segment.description,
            "constraints": segment.constraints,
            "createdAt": segment.created_at,
            "updatedAt": segment.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


async def flag_use_cases(request: Request) -> FlagUseCases:
    """The Flag use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: FlagUseCases = request.app.state.flag
    return use_cases


FlagCases = Annotated[FlagUseCases, Depends(flag_use_cases)]


def flag_view(flag: Flag, now: datetime) -> schemas.Flag:
    """The HTTP body of a Flag."""
    return schemas.Flag.model_validate(
        {
            "id": flag.id,
            "key": flag.key_,
            "projectId": flag.project_id,
            "description": flag.description,
            "type": flag.type_,
            "impressionData": flag.impression_data,
            "environments": flag.environments,
            "variants": flag.variants,
            "dependencies": flag.dependencies,
            "stale": flag.stale,
            "archived": flag.archived_,
            "createdAt": flag.created_at,
            "updatedAt": flag.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


async def usage_report_use_cases(request: Request) -> UsageReportUseCases:
    """The UsageReport use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: UsageReportUseCases = request.app.state.usage_report
    return use_cases


UsageReportCases = Annotated[UsageReportUseCases, Depends(usage_report_use_cases)]


def usage_report_view(report: UsageReport, now: datetime) -> schemas.UsageReport:
    """The HTTP body of a UsageReport."""
    return schemas.UsageReport.model_validate(
        {
            "id": report.id,
            "appName": report.app_name,
            "instanceId": report.instance_id,
            "environment": report.environment,
            "start": report.start,
            "stop": report.stop,
            "toggles": report.toggles,
            "createdAt": report.created_at,
            "updatedAt": report.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


def constraint_of(body: schemas.ConstraintBody) -> Constraint:
    """The domain's Constraint of a request's."""
    return Constraint(
        context_name=body.context_name,
        operator=body.operator,
        values_=body.values_,
        value_=body.value_,
        inverted=body.inverted,
        case_insensitive=body.case_insensitive,
    )


def payload_of(body: schemas.PayloadBody) -> Payload:
    """The domain's Payload of a request's."""
    return Payload(
        type_=body.type_,
        value_=body.value_,
    )


def variant_of(body: schemas.VariantBody) -> Variant:
    """The domain's Variant of a request's."""
    return Variant(
        name=body.name,
        weight=body.weight,
        stickiness=body.stickiness,
        payload_=(None if body.payload_ is None else payload_of(body.payload_)),
    )


def strategy_of(body: schemas.StrategyBody) -> Strategy:
    """The domain's Strategy of a request's."""
    return Strategy(
        name=body.name,
        parameters=body.parameters,
        constraints=[constraint_of(item0) for item0 in body.constraints],
        segments=body.segments,
        variants=[variant_of(item0) for item0 in body.variants],
    )


def dependency_of(body: schemas.DependencyBody) -> Dependency:
    """The domain's Dependency of a request's."""
    return Dependency(
        feature=body.feature,
        enabled=body.enabled,
        variants=body.variants,
    )


def toggle_usage_of(body: schemas.ToggleUsageBody) -> ToggleUsage:
    """The domain's ToggleUsage of a request's."""
    return ToggleUsage(
        yes=body.yes,
        no=body.no,
        variants=body.variants,
    )


def environment_config_of(body: schemas.EnvironmentConfigBody) -> EnvironmentConfig:
    """The domain's EnvironmentConfig of a request's."""
    return EnvironmentConfig(
        enabled=body.enabled,
        strategies=[strategy_of(item0) for item0 in body.strategies],
    )


async def usage_reports_queries(request: Request) -> ReadModelUsageReportListing:
    """The queries of the UsageReports read model (a coroutine, as the use cases')."""
    queries: ReadModelUsageReportListing = request.app.state.queries["UsageReports"]
    return queries


UsageReportsReads = Annotated[
    ReadModelUsageReportListing, Depends(usage_reports_queries)
]


async def projects_queries(request: Request) -> ReadModelProjectListing:
    """The queries of the Projects read model (a coroutine, as the use cases')."""
    queries: ReadModelProjectListing = request.app.state.queries["Projects"]
    return queries


ProjectsReads = Annotated[ReadModelProjectListing, Depends(projects_queries)]


async def segments_queries(request: Request) -> ReadModelSegmentListing:
    """The queries of the Segments read model (a coroutine, as the use cases')."""
    queries: ReadModelSegmentListing = request.app.state.queries["Segments"]
    return queries


SegmentsReads = Annotated[ReadModelSegmentListing, Depends(segments_queries)]


async def flags_queries(request: Request) -> ReadModelFlagListing:
    """The queries of the Flags read model (a coroutine, as the use cases')."""
    queries: ReadModelFlagListing = request.app.state.queries["Flags"]
    return queries


FlagsReads = Annotated[ReadModelFlagListing, Depends(flags_queries)]


@router.post(
    "/api/v1/projects",
    status_code=201,
    dependencies=[Depends(require("feature-flags:write"))],
    response_model=schemas.Project,
    responses=PROBLEM,
)
async def create_project(
    use_cases: ProjectCases,
    response: Response,
    body: schemas.CreateProjectRequest,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
) -> schemas.Project:
    """create: creates a project."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    project = await use_cases.create(
        key_=body.key_,
        name=body.name,
        description=body.description,
        environments=body.environments,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = "/api/v1/projects/" + project.id
    response.headers["ETag"] = etag(project.version)
    return project_view(project, clock.now())


@router.get(
    "/api/v1/projects",
    status_code=200,
    dependencies=[Depends(require("feature-flags:read"))],
    response_model=schemas.ProjectsPage,
    responses={422: PROBLEM[422]},
)
async def list_projects(
    request: Request,
    queries: ProjectsReads,
    clock: ServiceClock,
    sort: Annotated[
        list[Literal["key", "-key"]] | None,
        Query(description="columns to sort by, - for descending"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> schemas.ProjectsPage:
    """The tenant's Projects, from the read model (eventually consistent)."""
    where: list[Condition] = []
    columns = {
        "key": "key_",
    }
    order = order_by(sort, columns, default=[])
    rows, total = await queries.page(
        where=where, order_by=order, limit=limit, offset=offset
    )
    now = clock.now()
    return schemas.ProjectsPage(
        items=[project_view(row, now) for row in rows],
        total=total,
        limit=limit,
        offset=offset,
        next=next_page(request, offset, limit, total),
    )


@router.get(
    "/api/v1/projects/{id}",
    status_code=200,
    dependencies=[Depends(require("feature-flags:read"))],
    response_model=schemas.Project,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_project(
    use_cases: ProjectCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Project | Response:
    """The project with this id; 404 when there is none."""
    project = await use_cases.get(id)
    if project is None:
        return problem(404, "Not found", "Project not found")
    tag = etag(project.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return project_view(project, clock.now())


@router.put(
    "/api/v1/projects/{id}",
    status_code=200,
    dependencies=[Depends(require("feature-flags:write"))],
    response_model=schemas.Project,
    responses=PROBLEM,
)
async def update_project(
    use_cases: ProjectCases,
    response: Response,
    body: schemas.UpdateProjectRequest,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Project:
    """update: changes the project."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    project = await use_cases.update(
        id,
        name=body.name,
        description=body.description,
        environments=body.environments,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(project.version)
    return project_view(project, clock.now())


@router.delete(
    "/api/v1/projects/{id}",
    status_code=204,
    dependencies=[Depends(require("feature-flags:write"))],
    response_class=Response,
    responses=PROBLEM,
)
async def remove_project(
    use_cases: ProjectCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    id: Annotated[PathId, Path(alias="id")],
) -> Response:
    """remove: changes the project."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    project = await use_cases.remove(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    answered = Response(status_code=204, headers={"ETag": etag(project.version)})
    if idempotency is not None and idempotency.replayed:
        answered.headers["Idempotent-Replayed"] = "true"
    return answered


@router.post(
    "/api/v1/segments",
    status_code=201,
    dependencies=[Depends(require("feature-flags:write"))],
    response_model=schemas.Segment,
    responses=PROBLEM,
)
async def create_segment(
    use_cases: SegmentCases,
    response: Response,
    body: schemas.CreateSegmentRequest,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
) -> schemas.Segment:
    """create: creates a segment."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    segment = await use_cases.create(
        name=body.name,
        description=body.description,
        constraints=[constraint_of(item0) for item0 in body.constraints],
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = "/api/v1/segments/" + segment.id
    response.headers["ETag"] = etag(segment.version)
    return segment_view(segment, clock.now())


@router.get(
    "/api/v1/segments",
    status_code=200,
    dependencies=[Depends(require("feature-flags:read"))],
    response_model=schemas.SegmentsPage,
    responses={422: PROBLEM[422]},
)
async def list_segments(
    request: Request,
    queries: SegmentsReads,
    clock: ServiceClock,
    sort: Annotated[
        list[Literal["name", "-name"]] | None,
        Query(description="columns to sort by, - for descending"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> schemas.SegmentsPage:
    """The tenant's Segments, from the read model (eventually consistent)."""
    where: list[Condition] = []
    columns = {
        "name": "name",
    }
    order = order_by(sort, columns, default=[])
    rows, total = await queries.page(
        where=where, order_by=order, limit=limit, offset=offset
    )
    now = clock.now()
    return schemas.SegmentsPage(
        items=[segment_view(row, now) for row in rows],
        total=total,
        limit=limit,
        offset=offset,
        next=next_page(request, offset, limit, total),
    )


@router.get(
    "/api/v1/segments/{id}",
    status_code=200,
    dependencies=[Depends(require("feature-flags:read"))],
    response_model=schemas.Segment,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_segment(
    use_cases: SegmentCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Segment | Response:
    """The segment with this id; 404 when there is none."""
    segment = await use_cases.get(id)
    if segment is None:
        return problem(404, "Not found", "Segment not found")
    tag = etag(segment.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return segment_view(segment, clock.now())


@router.put(
    "/api/v1/segments/{id}",
    status_code=200,
    dependencies=[Depends(require("feature-flags:write"))],
    response_model=schemas.Segment,
    responses=PROBLEM,
)
async def update_segment(
    use_cases: SegmentCases,
    response: Response,
    body: schemas.UpdateSegmentRequest,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Segment:
    """update: changes the segment."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    segment = await use_cases.update(
        id,
        name=body.name,
        description=body.description,
        constraints=[constraint_of(item0) for item0 in body.constraints],
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(segment.version)
    return segment_view(segment, clock.now())


@router.delete(
    "/api/v1/segments/{id}",
    status_code=204,
    dependencies=[Depends(require("feature-flags:write"))],
    response_class=Response,
    responses=PROBLEM,
)
async def remove_segment(
    use_cases: SegmentCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    id: Annotated[PathId, Path(alias="id")],
) -> Response:
    """remove: changes the segment."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    segment = await use_cases.remove(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    answered = Response(status_code=204, headers={"ETag": etag(segment.version)})
    if idempotency is not None and idempotency.replayed:
        answered.headers["Idempotent-Replayed"] = "true"
    return answered


@router.post(
    "/api/v1/flags",
    status_code=201,
    dependencies=[Depends(require("feature-flags:write"))],
    response_model=schemas.Flag,
    responses=PROBLEM,
)
async def create_flag(
    use_cases: FlagCases,
    response: Response,
    body: schemas.CreateFlagRequest,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
) -> schemas.Flag:
    """create: creates a flag.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - Variant weights add up to at most 1000 (variants)
    - A flag cannot depend on itself (dependencies)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    flag = await use_cases.create(
        key_=body.key_,
        project_id=body.project_id,
        description=body.description,
        type_=body.type_,
        impression_data=body.impression_data,
        environments={
            key0: environment_config_of(item0)
            for key0, item0 in body.environments.items()
        },
        variants=[variant_of(item0) for item0 in body.variants],
        dependencies=[dependency_of(item0) for item0 in body.dependencies],
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = "/api/v1/flags/" + flag.id
    response.headers["ETag"] = etag(flag.version)
    return flag_view(flag, clock.now())


@router.get(
    "/api/v1/flags",
    status_code=200,
    dependencies=[Depends(require("feature-flags:read"))],
    response_model=schemas.FlagsPage,
    responses={422: PROBLEM[422]},
)
async def list_flags(
    request: Request,
    queries: FlagsReads,
    clock: ServiceClock,
    project_id: Annotated[
        list[UUID] | None,
        Query(alias="projectId", description="equal to (repeat for any of several)"),
    ] = None,
    type_: Annotated[
        list[FlagType] | None,
        Query(alias="type", description="equal to (repeat for any of several)"),
    ] = None,
    stale: Annotated[
        list[QueryBool] | None,
        Query(alias="stale", description="equal to (repeat for any of several)"),
    ] = None,
    archived_: Annotated[
        list[QueryBool] | None,
        Query(alias="archived", description="equal to (repeat for any of several)"),
    ] = None,
    sort: Annotated[
        list[
            Literal["key", "-key", "createdAt", "-createdAt", "updatedAt", "-updatedAt"]
        ]
        | None,
        Query(description="columns to sort by, - for descending"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> schemas.FlagsPage:
    """The tenant's Flags, from the read model (eventually consistent)."""
    where: list[Condition] = [
        *equal_to("project_id", project_id),
        *equal_to("type_", type_),
        *equal_to("stale", stale),
        *equal_to("archived_", archived_),
    ]
    columns = {
        "key": "key_",
        "createdAt": "created_at",
        "updatedAt": "updated_at",
    }
    order = order_by(sort, columns, default=[])
    rows, total = await queries.page(
        where=where, order_by=order, limit=limit, offset=offset
    )
    now = clock.now()
    return schemas.FlagsPage(
        items=[flag_view(row, now) for row in rows],
        total=total,
        limit=limit,
        offset=offset,
        next=next_page(request, offset, limit, total),
    )


@router.get(
    "/api/v1/flags/{id}",
    status_code=200,
    dependencies=[Depends(require("feature-flags:read"))],
    response_model=schemas.Flag,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_flag(
    use_cases: FlagCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Flag | Response:
    """The flag with this id; 404 when there is none."""
    flag = await use_cases.get(id)
    if flag is None:
        return problem(404, "Not found", "Flag not found")
    tag = etag(flag.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return flag_view(flag, clock.now())


@router.get(
    "/api/v1/flags/by-key/{key}",
    status_code=200,
    dependencies=[Depends(require("feature-flags:read"))],
    response_model=schemas.Flag,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_flag_by_key(
    use_cases: FlagCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    key_: Annotated[str, Path(alias="key")],
) -> schemas.Flag | Response:
    """The flag with this key; 404 when there is none."""
    flag = await use_cases.get_by_key(key_)
    if flag is None:
        return problem(404, "Not found", "Flag not found")
    tag = etag(flag.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return flag_view(flag, clock.now())


@router.patch(
    "/api/v1/flags/{id}",
    status_code=200,
    dependencies=[Depends(require("feature-flags:write"))],
    response_model=schemas.Flag,
    responses=PROBLEM,
)
async def describe_flag(
    use_cases: FlagCases,
    response: Response,
    body: schemas.DescribeFlagPatch,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Flag:
    """describe: changes the flag.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - Variant weights add up to at most 1000 (variants)
    - A flag cannot depend on itself (dependencies)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    # A merge patch (RFC 7396): what the body leaves out keeps the value read here, and
    # the command applies to the version read (unless If-Match names one).
    current_state = await use_cases.get(id)
    if current_state is None:
        raise NotFoundError("Flag not found")
    given = body.model_fields_set
    if not given:
        # An empty merge patch changes nothing: no command runs, no event is stored, the
        # version stays (If-Match still has to name it).
        if if_match is not None and if_match != current_state.version:
            raise PreconditionFailedError(if_match, current_state.version)
        response.headers["ETag"] = etag(current_state.version)
        return flag_view(current_state, clock.now())
    # a write committed since the patch was merged: 409 to retry (412 for an If-Match)
    flag = await after_merge(
        use_cases.describe(
            id,
            description=body.description
            if "description" in given
            else current_state.description,
            type_=body.type_ if "type_" in given else current_state.type_,
            impression_data=body.impression_data
            if "impression_data" in given
            else current_state.impression_data,
            expected_version=current_state.version if if_match is None else if_match,
            idempotency=idempotency,
        ),
        if_match,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(flag.version)
    return flag_view(flag, clock.now())


@router.put(
    "/api/v1/flags/{id}/environments",
    status_code=200,
    dependencies=[Depends(require("feature-flags:write"))],
    response_model=schemas.Flag,
    responses=PROBLEM,
)
async def configure_flag(
    use_cases: FlagCases,
    response: Response,
    body: schemas.ConfigureFlagRequest,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Flag:
    """configure: changes the flag.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - Variant weights add up to at most 1000 (variants)
    - A flag cannot depend on itself (dependencies)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    flag = await use_cases.configure(
        id,
        environments={
            key0: environment_config_of(item0)
            for key0, item0 in body.environments.items()
        },
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(flag.version)
    return flag_view(flag, clock.now())


@router.put(
    "/api/v1/flags/{id}/variants",
    status_code=200,
    dependencies=[Depends(require("feature-flags:write"))],
    response_model=schemas.Flag,
    responses=PROBLEM,
)
async def set_variants_flag(
    use_cases: FlagCases,
    response: Response,
    body: schemas.SetVariantsFlagRequest,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Flag:
    """setVariants: changes the flag.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - Variant weights add up to at most 1000 (variants)
    - A flag cannot depend on itself (dependencies)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    flag = await use_cases.set_variants(
        id,
        variants=[variant_of(item0) for item0 in body.variants],
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(flag.version)
    return flag_view(flag, clock.now())


@router.put(
    "/api/v1/flags/{id}/dependencies",
    status_code=200,
    dependencies=[Depends(require("feature-flags:write"))],
    response_model=schemas.Flag,
    responses=PROBLEM,
)
async def set_dependencies_flag(
    use_cases: FlagCases,
    response: Response,
    body: schemas.SetDependenciesFlagRequest,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Flag:
    """setDependencies: changes the flag.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - Variant weights add up to at most 1000 (variants)
    - A flag cannot depend on itself (dependencies)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    flag = await use_cases.set_dependencies(
        id,
        dependencies=[dependency_of(item0) for item0 in body.dependencies],
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(flag.version)
    return flag_view(flag, clock.now())


@router.put(
    "/api/v1/flags/{id}/stale",
    status_code=200,
    dependencies=[Depends(require("feature-flags:write"))],
    response_model=schemas.Flag,
    responses=PROBLEM,
)
async def mark_stale_flag(
    use_cases: FlagCases,
    response: Response,
    body: schemas.MarkStaleFlagRequest,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Flag:
    """markStale: changes the flag.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - Variant weights add up to at most 1000 (variants)
    - A flag cannot depend on itself (dependencies)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    flag = await use_cases.mark_stale(
        id,
        stale=body.stale,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(flag.version)
    return flag_view(flag, clock.now())


@router.post(
    "/api/v1/flags/{id}/archive",
    status_code=200,
    dependencies=[Depends(require("feature-flags:write"))],
    response_model=schemas.Flag,
    responses=PROBLEM,
)
async def archive_flag(
    use_cases: FlagCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Flag:
    """archive: changes the flag.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - Variant weights add up to at most 1000 (variants)
    - A flag cannot depend on itself (dependencies)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    flag = await use_cases.archive(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(flag.version)
    return flag_view(flag, clock.now())


@router.post(
    "/api/v1/flags/{id}/revive",
    status_code=200,
    dependencies=[Depends(require("feature-flags:write"))],
    response_model=schemas.Flag,
    responses=PROBLEM,
)
async def revive_flag(
    use_cases: FlagCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.Flag:
    """revive: changes the flag.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - Variant weights add up to at most 1000 (variants)
    - A flag cannot depend on itself (dependencies)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    flag = await use_cases.revive(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(flag.version)
    return flag_view(flag, clock.now())


@router.delete(
    "/api/v1/flags/{id}",
    status_code=204,
    dependencies=[Depends(require("feature-flags:write"))],
    response_class=Response,
    responses=PROBLEM,
)
async def remove_flag(
    use_cases: FlagCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    id: Annotated[PathId, Path(alias="id")],
) -> Response:
    """remove: changes the flag.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - Variant weights add up to at most 1000 (variants)
    - A flag cannot depend on itself (dependencies)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    flag = await use_cases.remove(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    answered = Response(status_code=204, headers={"ETag": etag(flag.version)})
    if idempotency is not None and idempotency.replayed:
        answered.headers["Idempotent-Replayed"] = "true"
    return answered


@router.post(
    "/api/v1/usage-reports",
    status_code=201,
    dependencies=[Depends(require("feature-flags:evaluate"))],
    response_model=schemas.UsageReport,
    responses=PROBLEM,
)
async def submit_usage_report(
    use_cases: UsageReportCases,
    response: Response,
    body: schemas.SubmitUsageReportRequest,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
) -> schemas.UsageReport:
    """submit: creates a usage report.

    Refused with 422 when the result would break a rule JSON Schema cannot state:
    - A report stops after it starts (stop)
    """
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    report = await use_cases.submit(
        app_name=body.app_name,
        instance_id=body.instance_id,
        environment=body.environment,
        start=body.start,
        stop=body.stop,
        toggles={key0: toggle_usage_of(item0) for key0, item0 in body.toggles.items()},
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(report.version)
    return usage_report_view(report, clock.now())


@router.get(
    "/api/v1/usage-reports",
    status_code=200,
    dependencies=[Depends(require("feature-flags:read"))],
    response_model=schemas.UsageReportsPage,
    responses={422: PROBLEM[422]},
)
async def list_usage_reports(
    request: Request,
    queries: UsageReportsReads,
    clock: ServiceClock,
    environment: Annotated[
        list[str] | None,
        Query(alias="environment", description="equal to (repeat for any of several)"),
    ] = None,
    app_name: Annotated[
        list[str] | None,
        Query(alias="appName", description="equal to (repeat for any of several)"),
    ] = None,
    stop: Annotated[
        list[JsonDateTime] | None,
        Query(alias="stop", description="equal to (repeat for any of several)"),
    ] = None,
    stop_gte: Annotated[JsonDateTime | None, Query(alias="stop.gte")] = None,
    stop_gt: Annotated[JsonDateTime | None, Query(alias="stop.gt")] = None,
    stop_lte: Annotated[JsonDateTime | None, Query(alias="stop.lte")] = None,
    stop_lt: Annotated[JsonDateTime | None, Query(alias="stop.lt")] = None,
    sort: Annotated[
        list[Literal["stop", "-stop"]] | None,
        Query(description="columns to sort by, - for descending"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> schemas.UsageReportsPage:
    """The tenant's UsageReports, from the read model (eventually consistent)."""
    where: list[Condition] = [
        *equal_to("environment", environment),
        *equal_to("app_name", app_name),
        *equal_to("stop", stop),
        *in_range("stop", gte=stop_gte, gt=stop_gt, lte=stop_lte, lt=stop_lt),
    ]
    columns = {
        "stop": "stop",
    }
    order = order_by(sort, columns, default=[])
    rows, total = await queries.page(
        where=where, order_by=order, limit=limit, offset=offset
    )
    now = clock.now()
    return schemas.UsageReportsPage(
        items=[usage_report_view(row, now) for row in rows],
        total=total,
        limit=limit,
        offset=offset,
        next=next_page(request, offset, limit, total),
    )


# The rules of each request body, by route and field path (``field.*``: each item of a list
# or value of a map), so that a request that breaks them is answered with the spec's
# messages (the models state the same rules to clients).
RULES: dict[str, dict[str, RuleCheck]] = {
    "create_project": {
        "key": lambda value: Project.check_key_(value),
        "name": lambda value: Project.check_name(value),
        "description": lambda value: Project.check_description(value),
        "environments": lambda value: Project.check_environments(value),
    },
    "update_project": {
        "name": lambda value: Project.check_name(value),
        "description": lambda value: Project.check_description(value),
        "environments": lambda value: Project.check_environments(value),
    },
    "create_segment": {
        "name": lambda value: Segment.check_name(value),
        "description": lambda value: Segment.check_description(value),
        "constraints": lambda value: Segment.check_constraints(value, nested=False),
    },
    "update_segment": {
        "name": lambda value: Segment.check_name(value),
        "description": lambda value: Segment.check_description(value),
        "constraints": lambda value: Segment.check_constraints(value, nested=False),
    },
    "create_flag": {
        "key": lambda value: Flag.check_key_(value),
        "description": lambda value: Flag.check_description(value),
        "environments": lambda value: Flag.check_environments(value, nested=False),
        "variants": lambda value: Flag.check_variants(value, nested=False),
        "dependencies": lambda value: Flag.check_dependencies(value, nested=False),
    },
    "describe_flag": {
        "description": lambda value: Flag.check_description(value),
    },
    "configure_flag": {
        "environments": lambda value: Flag.check_environments(value, nested=False),
    },
    "set_variants_flag": {
        "variants": lambda value: Flag.check_variants(value, nested=False),
    },
    "set_dependencies_flag": {
        "dependencies": lambda value: Flag.check_dependencies(value, nested=False),
    },
    "mark_stale_flag": {},
    "submit_usage_report": {
        "appName": lambda value: UsageReport.check_app_name(value),
        "instanceId": lambda value: UsageReport.check_instance_id(value),
        "environment": lambda value: UsageReport.check_environment(value),
        "toggles": lambda value: UsageReport.check_toggles(value, nested=False),
    },
}
NESTED_RULES: dict[str, RuleCheck] = {
    "Constraint.contextName": lambda value: Constraint.check_context_name(value),
    "Constraint.values": lambda value: Constraint.check_values_(value),
    "Constraint.value": lambda value: Constraint.check_value_(value),
    "Payload.value": lambda value: Payload.check_value_(value),
    "Variant.name": lambda value: Variant.check_name(value),
    "Variant.weight": lambda value: Variant.check_weight(value),
    "Variant.stickiness": lambda value: Variant.check_stickiness(value),
    "Strategy.name": lambda value: Strategy.check_name(value),
    "Strategy.parameters": lambda value: Strategy.check_parameters(value),
    "Strategy.constraints": lambda value: Strategy.check_constraints(
        value, nested=False
    ),
    "Strategy.segments": lambda value: Strategy.check_segments(value),
    "Strategy.variants": lambda value: Strategy.check_variants(value, nested=False),
    "Dependency.feature": lambda value: Dependency.check_feature(value),
    "Dependency.variants": lambda value: Dependency.check_variants(value),
    "ToggleUsage.yes": lambda value: ToggleUsage.check_yes(value),
    "ToggleUsage.no": lambda value: ToggleUsage.check_no(value),
    "ToggleUsage.variants": lambda value: ToggleUsage.check_variants(value),
    "EnvironmentConfig.strategies": lambda value: EnvironmentConfig.check_strategies(
        value, nested=False
    ),
}
# The check of each value object by its request model: a request whose other fields break
# rules is answered with the value's invariants too.
VALUE_CHECKS: dict[type[Any], ValueCheck] = {
    schemas.ConstraintBody: lambda body: constraint_of(body).problems(),
    schemas.PayloadBody: lambda body: payload_of(body).problems(),
    schemas.VariantBody: lambda body: variant_of(body).problems(),
    schemas.StrategyBody: lambda body: strategy_of(body).problems(),
    schemas.DependencyBody: lambda body: dependency_of(body).problems(),
    schemas.ToggleUsageBody: lambda body: toggle_usage_of(body).problems(),
    schemas.EnvironmentConfigBody: lambda body: environment_config_of(body).problems(),
}
UNIQUE_FIELDS: dict[tuple[str, str], str] = {
    ("Project", "key_"): "key",
    ("Segment", "name"): "name",
    ("Flag", "key_"): "key",
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
            service="feature-flags",
            rules=RULES,
            nested_rules=NESTED_RULES,
            unique_fields=UNIQUE_FIELDS,
            values=VALUE_CHECKS,
        ),
    )
