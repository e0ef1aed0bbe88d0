# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The HTTP adapter: routes to the use cases and read models, versions as ETags, errors as
RFC 9457 problem bodies listing every broken rule."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from eaf.eventsourcing import Idempotency
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
from eaf.web.flags import flag_enabled
from eaf.web.resources import (
    IdempotencyKey,
    IfMatch,
    IfNoneMatch,
    etag,
)
from fastapi import APIRouter, Depends, FastAPI, Path, Request, Response
from iam_client import require

from user_profile.application.ports.inbound import SampleUserProfileUseCases
from user_profile.application.ports.outbound import Clock
from user_profile.domain.errors import (
    ConcurrencyError,
    DomainError,
    DomainValidationError,
    NotFoundError,
)
from user_profile.domain.model import SampleUserProfile
from user_profile.infrastructure import schemas
from user_profile.infrastructure.projections import ReadModelSampleUserProfileListing

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


async def sample_user_profile_use_cases(request: Request) -> SampleUserProfileUseCases:
    """The SampleUserProfile use cases the application was built with (a coroutine: FastAPI
    runs a plain function dependency on a worker thread)."""
    use_cases: SampleUserProfileUseCases = request.app.state.sample_user_profile
    return use_cases


SampleUserProfileCases = Annotated[
    SampleUserProfileUseCases, Depends(sample_user_profile_use_cases)
]


def sample_user_profile_view(
    profile: SampleUserProfile, now: datetime
) -> schemas.SampleUserProfile:
    """The HTTP body of a SampleUserProfile."""
    return schemas.SampleUserProfile.model_validate(
        {
            "id": profile.id,
            "name": profile.name,
            "email": profile.email,
            "createdAt": profile.created_at,
            "updatedAt": profile.updated_at,
        },
        by_name=True,  # the value objects it holds, from their attributes
    )


async def sample_user_profile_list_queries(
    request: Request,
) -> ReadModelSampleUserProfileListing:
    """The queries of the SampleUserProfileList read model (a coroutine, as the use cases')."""
    queries: ReadModelSampleUserProfileListing = request.app.state.queries[
        "SampleUserProfileList"
    ]
    return queries


SampleUserProfileListReads = Annotated[
    ReadModelSampleUserProfileListing, Depends(sample_user_profile_list_queries)
]


@router.post(
    "/api/v1/user-profiles",
    status_code=201,
    dependencies=[Depends(require("user-profile:write"))],
    response_model=schemas.SampleUserProfile,
    responses=PROBLEM,
)
async def create_sample_user_profile(
    use_cases: SampleUserProfileCases,
    response: Response,
    body: schemas.CreateUserProfileRequest,
    idempotency_key: IdempotencyKey,
    clock: ServiceClock,
) -> schemas.SampleUserProfile:
    """create: creates a sample user profile."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    profile = await use_cases.create(
        name=body.name,
        email=body.email,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["Location"] = "/api/v1/user-profiles/" + profile.id
    response.headers["ETag"] = etag(profile.version)
    return sample_user_profile_view(profile, clock.now())


@router.get(
    "/api/v1/user-profiles",
    status_code=200,
    dependencies=[Depends(require("user-profile:read"))],
    response_model=list[schemas.SampleUserProfile],
    responses={422: PROBLEM[422]},
)
async def list_sample_user_profile_list(
    request: Request,
    queries: SampleUserProfileListReads,
    clock: ServiceClock,
) -> list[schemas.SampleUserProfile]:
    """The tenant's SampleUserProfileList, from the read model (eventually consistent)."""
    where: list[Condition] = []
    order: list[tuple[str, bool]] = []
    rows, _ = await queries.page(where=where, order_by=order, limit=LIST_LIMIT)
    now = clock.now()
    return [sample_user_profile_view(row, now) for row in rows]


@router.get(
    "/api/v1/user-profiles/{id}",
    status_code=200,
    dependencies=[Depends(require("user-profile:read"))],
    response_model=schemas.SampleUserProfile,
    responses={
        404: PROBLEM[404],
        422: PROBLEM[422],
        304: {"description": "Not modified (If-None-Match)"},
    },
)
async def get_sample_user_profile(
    use_cases: SampleUserProfileCases,
    response: Response,
    if_none_match: IfNoneMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.SampleUserProfile | Response:
    """The sample user profile with this id; 404 when there is none."""
    profile = await use_cases.get(id)
    if profile is None:
        return problem(404, "Not found", "Profile not found")
    tag = etag(profile.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return sample_user_profile_view(profile, clock.now())


@router.put(
    "/api/v1/user-profiles/{id}",
    status_code=200,
    dependencies=[Depends(require("user-profile:write"))],
    response_model=schemas.SampleUserProfile,
    responses=PROBLEM,
)
async def update_profile_sample_user_profile(
    use_cases: SampleUserProfileCases,
    response: Response,
    body: schemas.UpdateUserProfileRequest,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    clock: ServiceClock,
    id: Annotated[PathId, Path(alias="id")],
) -> schemas.SampleUserProfile:
    """updateProfile: changes the sample user profile."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    profile = await use_cases.update_profile(
        id,
        name=body.name,
        email=body.email,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers["ETag"] = etag(profile.version)
    return sample_user_profile_view(profile, clock.now())


@router.delete(
    "/api/v1/user-profiles/{id}",
    status_code=204,
    dependencies=[
        Depends(require("user-profile:write")),
        Depends(flag_enabled("profile-deletion")),
    ],
    response_class=Response,
    responses=PROBLEM,
)
async def remove_sample_user_profile(
    use_cases: SampleUserProfileCases,
    response: Response,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch,
    id: Annotated[PathId, Path(alias="id")],
) -> Response:
    """remove: changes the sample user profile."""
    idempotency = Idempotency(idempotency_key) if idempotency_key else None
    profile = await use_cases.remove(
        id,
        expected_version=if_match,
        idempotency=idempotency,
    )
    if idempotency is not None and idempotency.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    answered = Response(status_code=204, headers={"ETag": etag(profile.version)})
    if idempotency is not None and idempotency.replayed:
        answered.headers["Idempotent-Replayed"] = "true"
    return answered


# The rules of each request body, by route and field path (``field.*``: each item of a list
# or value of a map), so that a request that breaks them is answered with the spec's
# messages (the models state the same rules to clients).
RULES: dict[str, dict[str, RuleCheck]] = {
    "create_sample_user_profile": {
        "name": lambda value: SampleUserProfile.check_name(value),
        "email": lambda value: SampleUserProfile.check_email(value),
    },
    "update_profile_sample_user_profile": {
        "name": lambda value: SampleUserProfile.check_name(value),
        "email": lambda value: SampleUserProfile.check_email(value),
    },
}
NESTED_RULES: dict[str, RuleCheck] = {}
# The check of each value object by its request model: a request whose other fields break
# rules is answered with the value's invariants too.
VALUE_CHECKS: dict[type[Any], ValueCheck] = {}
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
            service="user-profile",
            rules=RULES,
            nested_rules=NESTED_RULES,
            unique_fields=UNIQUE_FIELDS,
            values=VALUE_CHECKS,
        ),
    )
