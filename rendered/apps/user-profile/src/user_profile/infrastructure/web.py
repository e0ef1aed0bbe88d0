# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The HTTP adapter: routes to the use cases, errors as RFC 9457 problem bodies."""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from iam_client import require

from user_profile.application.ports.inbound import SampleUserProfileUseCases
from user_profile.domain.errors import (
    ConcurrencyError,
    DomainValidationError,
    NotFoundError,
)
from user_profile.domain.model import SampleUserProfile
from user_profile.infrastructure import schemas

PROBLEM_TYPE = "application/problem+json"
PROBLEM: dict[int | str, dict[str, Any]] = {
    status: {"model": schemas.Problem, "content": {PROBLEM_TYPE: {}}}
    for status in (404, 409, 422)
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


def sample_user_profile_use_cases(request: Request) -> SampleUserProfileUseCases:
    """The SampleUserProfile use cases the application was built with."""
    use_cases: SampleUserProfileUseCases = request.app.state.sample_user_profile
    return use_cases


SampleUserProfileCases = Annotated[
    SampleUserProfileUseCases, Depends(sample_user_profile_use_cases)
]


def sample_user_profile_view(profile: SampleUserProfile) -> schemas.SampleUserProfile:
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


@router.post(
    "/api/v1/user-profiles",
    status_code=201,
    dependencies=[Depends(require("user-profile:write"))],
    response_model=schemas.SampleUserProfile,
    responses=PROBLEM,
)
async def create_sample_user_profile(
    body: schemas.CreateUserProfileRequest, use_cases: SampleUserProfileCases
) -> schemas.SampleUserProfile:
    """Create a sample user profile."""
    profile = await use_cases.create(name=body.name, email=body.email)
    return sample_user_profile_view(profile)


@router.get(
    "/api/v1/user-profiles",
    status_code=200,
    dependencies=[Depends(require("user-profile:read"))],
    response_model=list[schemas.SampleUserProfile],
)
async def list_sample_user_profile(
    use_cases: SampleUserProfileCases,
) -> list[schemas.SampleUserProfile]:
    """Every sample user profile of the tenant, from the read model (eventually consistent)."""
    return [sample_user_profile_view(profile) for profile in await use_cases.list()]


@router.get(
    "/api/v1/user-profiles/{id}",
    status_code=200,
    dependencies=[Depends(require("user-profile:read"))],
    response_model=schemas.SampleUserProfile,
    responses={404: {"description": "No sample user profile has this id (empty body)"}},
)
async def get_sample_user_profile(
    id: str, use_cases: SampleUserProfileCases
) -> schemas.SampleUserProfile | Response:
    """The sample user profile with this id; 404 with an empty body when there is none."""
    profile = await use_cases.get(id)
    if profile is None:
        return Response(status_code=404)
    return sample_user_profile_view(profile)


@router.put(
    "/api/v1/user-profiles/{id}",
    status_code=200,
    dependencies=[Depends(require("user-profile:write"))],
    response_model=schemas.SampleUserProfile,
    responses=PROBLEM,
)
async def update_profile_sample_user_profile(
    id: str, body: schemas.UpdateUserProfileRequest, use_cases: SampleUserProfileCases
) -> schemas.SampleUserProfile:
    """Apply updateProfile to the sample user profile with this id."""
    profile = await use_cases.update_profile(id, name=body.name, email=body.email)
    return sample_user_profile_view(profile)


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
