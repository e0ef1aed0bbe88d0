"""License validation, license files and their public keys over HTTP (hand-written).

`POST /api/v1/licenses/actions/validate-key` (permission `licensing:validate`) answers 200
with `{valid, code, detail, license, entitlements, machine}` whatever the code, as Keygen's
validate-key does; `POST /api/v1/licenses/{id}/actions/check-out` (`licensing:read`) signs
the license's offline file; `GET /.well-known/license-keys.json` (public) serves the keys
that verify them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from eaf.web import PROBLEM_TYPE, Problem, problem
from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse
from iam_client import require
from pydantic import BaseModel, ConfigDict, Field

from licensing.application.signing import CheckOuts, LicenseKeyRing
from licensing.application.validation import Validation, Validator
from licensing.infrastructure import schemas, web

VALIDATE = "licensing:validate"
MAX_TTL_SECONDS = 366 * 24 * 3600

validation = APIRouter(
    tags=["validation"],
    dependencies=[Depends(require(VALIDATE))],
    responses=web.AUTH_PROBLEMS,
)
files = APIRouter(
    tags=["license files"],
    dependencies=[Depends(require("licensing:read"))],
    responses=web.AUTH_PROBLEMS,
)
keys = APIRouter(tags=["license files"])


class ValidateKey(BaseModel):
    """A license key to validate, scoped to a machine and entitlements when given."""

    model_config = ConfigDict(extra="forbid")

    key: str = Field(max_length=200)
    fingerprint: str | None = Field(default=None, max_length=200)
    entitlements: list[str] = Field(default_factory=list, max_length=100)


class ValidationAnswer(BaseModel):
    """Whether the license is valid, the code saying why, and the license's facts."""

    valid: bool
    code: str = Field(
        description="VALID, NOT_FOUND, REVOKED, SUSPENDED, EXPIRED, NO_MACHINE, FINGERPRINT_SCOPE_MISMATCH, HEARTBEAT_DEAD, TOO_MANY_MACHINES or ENTITLEMENTS_MISSING"
    )
    detail: str
    license: schemas.License | None = None
    entitlements: list[str] = Field(default_factory=list)
    machine: schemas.Machine | None = None


class LicenseFileBody(BaseModel):
    """A signed license file (`license_verifier.verify` reads `certificate`)."""

    certificate: str
    kid: str
    issued: datetime
    expiry: datetime
    ttl: int


def _answer(result: Validation) -> ValidationAnswer:
    now = datetime.now(UTC)
    return ValidationAnswer(
        valid=result.valid,
        code=result.code.value,
        detail=result.detail,
        license=None
        if result.license is None
        else web.license_view(result.license, now),
        entitlements=list(result.entitlements),
        machine=None
        if result.machine is None
        else web.machine_view(result.machine, now),
    )


@validation.post(
    "/api/v1/licenses/actions/validate-key",
    summary="Validate a license key",
    response_model=ValidationAnswer,
    response_model_by_alias=True,
)
async def validate_key(body: ValidateKey, request: Request) -> ValidationAnswer:
    validator: Validator = request.app.state.validator
    result = await validator.validate(
        body.key, fingerprint=body.fingerprint, entitlements=body.entitlements
    )
    return _answer(result)


@files.post(
    "/api/v1/licenses/{id}/actions/check-out",
    summary="Check out the signed offline license file",
    response_model=LicenseFileBody,
    responses={404: {"model": Problem, "content": {PROBLEM_TYPE: {}}}},
)
async def check_out(
    id: str,
    request: Request,
    ttl: Annotated[int, Query(ge=3600, le=MAX_TTL_SECONDS)] = 30 * 24 * 3600,
) -> Response:
    check_outs: CheckOuts = request.app.state.check_outs
    signed = await check_outs.check_out(id, timedelta(seconds=ttl))
    if signed is None:
        return problem(404, "Not Found", "License not found")
    body = LicenseFileBody(
        certificate=signed.certificate,
        kid=signed.kid,
        issued=signed.issued,
        expiry=signed.expiry,
        ttl=ttl,
    )
    return JSONResponse(body.model_dump(mode="json"))


@keys.get(
    "/.well-known/license-keys.json", summary="The keys license files are signed with"
)
async def license_keys(request: Request) -> dict[str, Any]:
    ring: LicenseKeyRing = request.app.state.license_keys
    return ring.jwks()
