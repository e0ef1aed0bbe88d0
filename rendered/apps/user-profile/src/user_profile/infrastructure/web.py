# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The HTTP adapter: routes to the use cases and read models, versions as ETags, errors as
RFC 9457 problem bodies listing every broken rule."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any

from eaf.eventsourcing import ConcurrencyError as StreamConflict
from eaf.eventsourcing import (
    DuplicateKeyError,
    Idempotency,
    IdempotencyKeyReusedError,
    PreconditionFailedError,
)
from eaf.projectors import Condition
from eaf.web.resources import IdempotencyKey, IfMatch, IfNoneMatch, etag
from fastapi import APIRouter, Depends, FastAPI, Path, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from iam_client import require

from user_profile.application.ports.inbound import SampleUserProfileUseCases
from user_profile.domain.errors import (
    ConcurrencyError,
    DomainError,
    DomainValidationError,
    NotFoundError,
    Violation,
)
from user_profile.domain.model import SampleUserProfile
from user_profile.infrastructure import schemas
from user_profile.infrastructure.projections import ReadModelSampleUserProfileListing

PROBLEM_TYPE = "application/problem+json"
LIST_LIMIT = 10_000
PROBLEM: dict[int | str, dict[str, Any]] = {
    status: {"model": schemas.Problem, "content": {PROBLEM_TYPE: {}}}
    for status in (404, 409, 412, 422)
}
AUTH_PROBLEMS: dict[int | str, dict[str, Any]] = {
    401: {
        "model": schemas.Problem,
        "content": {PROBLEM_TYPE: {}},
        "description": "No valid bearer token (see WWW-Authenticate)",
    },
    403: {
        "model": schemas.Problem,
        "content": {PROBLEM_TYPE: {}},
        "description": "The token lacks the permission",
    },
}

# Every route needs a bearer token from IAM: the request runs in the token's security
# context (tenant, user, permissions), and the tenant comes from the token only.
router = APIRouter(responses=AUTH_PROBLEMS)


def utc_now() -> datetime:
    """The instant computed values are computed at."""
    return datetime.now(UTC)


def sample_user_profile_use_cases(request: Request) -> SampleUserProfileUseCases:
    """The SampleUserProfile use cases the application was built with."""
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
        }
    )


def sample_user_profile_list_queries(
    request: Request,
) -> ReadModelSampleUserProfileListing:
    """The queries of the SampleUserProfileList read model."""
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
    return sample_user_profile_view(profile, utc_now())


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
) -> list[schemas.SampleUserProfile]:
    """The tenant's SampleUserProfileList, from the read model (eventually consistent)."""
    where: list[Condition] = []
    order: list[tuple[str, bool]] = []
    now = utc_now()
    rows, _ = await queries.page(where=where, order_by=order, limit=LIST_LIMIT)
    return [sample_user_profile_view(row, now) for row in rows]


@router.get(
    "/api/v1/user-profiles/{id}",
    status_code=200,
    dependencies=[Depends(require("user-profile:read"))],
    response_model=schemas.SampleUserProfile,
    responses={404: PROBLEM[404], 304: {"description": "Not modified (If-None-Match)"}},
)
async def get_sample_user_profile(
    use_cases: SampleUserProfileCases,
    response: Response,
    if_none_match: IfNoneMatch,
    id: Annotated[str, Path(alias="id")],
) -> schemas.SampleUserProfile | Response:
    """The sample user profile with this id; 404 when there is none."""
    profile = await use_cases.get(id)
    if profile is None:
        return problem(404, "Not found", "Profile not found", [])
    tag = etag(profile.version)
    if tag in if_none_match:
        return Response(status_code=304, headers={"ETag": tag})
    response.headers["ETag"] = tag
    return sample_user_profile_view(profile, utc_now())


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
    id: Annotated[str, Path(alias="id")],
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
    return sample_user_profile_view(profile, utc_now())


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
RULES: dict[str, dict[str, Callable[[Any], list[Violation]]]] = {
    "create_sample_user_profile": {
        "name": lambda value: SampleUserProfile.check_name(value),
        "email": lambda value: SampleUserProfile.check_email(value),
    },
    "update_profile_sample_user_profile": {
        "name": lambda value: SampleUserProfile.check_name(value),
        "email": lambda value: SampleUserProfile.check_email(value),
    },
}
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
        type="urn:problem-type:user-profile:duplicate",
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
