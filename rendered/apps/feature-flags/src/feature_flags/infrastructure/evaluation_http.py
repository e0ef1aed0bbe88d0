"""Flag evaluation over HTTP (hand-written): OpenFeature's remote evaluation protocol
(OFREP, `/ofrep/v1/evaluate/flags[/{key}]`) and the Unleash client API
(`/api/client/features`, `/register`, `/metrics`), so unmodified OpenFeature and Unleash
SDKs use this service.

Callers authenticate with an IAM bearer token holding `feature-flags:evaluate` (Unleash
SDKs send it as a custom `Authorization` header); the token's tenant is the tenant whose
flags answer. The environment is the `X-Environment` header, else the evaluation
context's `environment`, else `production`.
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any

from eaf.context import current
from fastapi import APIRouter, Body, Depends, Header, Request, Response
from fastapi.responses import JSONResponse
from iam_client import require

from feature_flags.application.evaluation import (
    Evaluation,
    Evaluations,
    FlagNotFoundError,
    Snapshot,
)

DEFAULT_ENVIRONMENT = "production"
EVALUATE = "feature-flags:evaluate"

router = APIRouter(tags=["evaluation"], dependencies=[Depends(require(EVALUATE))])


def _evaluations(request: Request) -> Evaluations:
    evaluations: Evaluations = request.app.state.evaluations
    return evaluations


def _environment(header: str | None, context: dict[str, Any]) -> str:
    chosen = header or context.get("environment") or DEFAULT_ENVIRONMENT
    return str(chosen)


def _context(body: Any) -> dict[str, Any]:
    """The evaluation context of an OFREP request body; ValueError when malformed."""
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise ValueError("the body must be a JSON object")
    context = body.get("context", {})
    if context is None:
        return {}
    if not isinstance(context, dict):
        raise ValueError("context must be a JSON object")
    return context


def _value(payload: dict[str, Any]) -> Any:
    """A variant's payload as a value: JSON parsed, numbers as numbers, else text."""
    kind, text = payload["type"], payload["value"]
    if kind == "json":
        return json.loads(text)
    if kind == "number":
        number = float(text)
        return int(number) if number.is_integer() else number
    return text


def _success(evaluation: Evaluation) -> dict[str, Any]:
    """A flag whose variants carry payloads is valued by the chosen variant's payload
    (no value when none was chosen: the caller's default applies); any other flag is a
    boolean, whether it is on."""
    answer: dict[str, Any] = {
        "key": evaluation.key,
        "reason": evaluation.reason,
        "variant": evaluation.variant,
        "metadata": {"enabled": evaluation.enabled},
    }
    if not evaluation.valued:
        answer["value"] = evaluation.enabled
    elif evaluation.payload is not None:
        answer["value"] = _value(evaluation.payload)
    return answer


def _error(key: str | None, code: str, details: str, status: int) -> JSONResponse:
    body: dict[str, Any] = {"errorCode": code, "errorDetails": details}
    if key is not None:
        body = {"key": key, **body}
    return JSONResponse(body, status_code=status)


async def _snapshot(request: Request, environment: str) -> Snapshot:
    tenant = current().tenant_id or ""
    return await _evaluations(request).snapshot(tenant, environment)


@router.post("/ofrep/v1/evaluate/flags/{key}", summary="Evaluate one flag (OFREP)")
async def evaluate_flag(
    key: str,
    request: Request,
    body: Annotated[Any, Body()] = None,
    x_environment: Annotated[str | None, Header()] = None,
) -> Response:
    try:
        context = _context(body)
    except ValueError as error:
        return _error(key, "INVALID_CONTEXT", str(error), 400)
    snapshot = await _snapshot(request, _environment(x_environment, context))
    try:
        evaluation = snapshot.evaluate(key, context)
    except FlagNotFoundError:
        return _error(key, "FLAG_NOT_FOUND", f"flag {key!r} was not found", 404)
    return JSONResponse(_success(evaluation))


@router.post("/ofrep/v1/evaluate/flags", summary="Evaluate every flag (OFREP bulk)")
async def evaluate_flags(
    request: Request,
    body: Annotated[Any, Body()] = None,
    x_environment: Annotated[str | None, Header()] = None,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    try:
        context = _context(body)
    except ValueError as error:
        return _error(None, "INVALID_CONTEXT", str(error), 400)
    snapshot = await _snapshot(request, _environment(x_environment, context))
    # The answer depends on the flags and on the context: both make the ETag.
    digest = json.dumps(context, sort_keys=True, default=str)
    etag = f'"{snapshot.etag.strip(chr(34))}-{_short_hash(digest)}"'
    if if_none_match is not None and etag in {
        t.strip() for t in if_none_match.split(",")
    }:
        return Response(status_code=304, headers={"ETag": etag})
    flags = [_success(snapshot.evaluate(key, context)) for key in snapshot.flag_keys()]
    return JSONResponse({"flags": flags}, headers={"ETag": etag})


@router.get(
    "/api/client/features", summary="Flags for local evaluation (Unleash client API)"
)
async def client_features(
    request: Request,
    x_environment: Annotated[str | None, Header()] = None,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    snapshot = await _snapshot(request, x_environment or DEFAULT_ENVIRONMENT)
    if if_none_match is not None and snapshot.etag in {
        t.strip() for t in if_none_match.split(",")
    }:
        return Response(status_code=304, headers={"ETag": snapshot.etag})
    return JSONResponse(snapshot.document, headers={"ETag": snapshot.etag})


@router.post(
    "/api/client/register", status_code=202, summary="An SDK instance registers"
)
async def client_register(body: Annotated[Any, Body()] = None) -> Response:
    return Response(status_code=202)


@router.post(
    "/api/client/metrics", status_code=202, summary="An SDK instance reports usage"
)
async def client_metrics(body: Annotated[Any, Body()] = None) -> Response:
    return Response(status_code=202)


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]
