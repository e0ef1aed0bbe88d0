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
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from eaf.context import current
from eaf.eventsourcing import EventStore
from eaf.web import problem_response
from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response
from fastapi.responses import JSONResponse
from iam_client import require

from feature_flags.application.evaluation import (
    Evaluation,
    Evaluations,
    FlagNotFoundError,
    Snapshot,
)
from feature_flags.application.ports.inbound import FlagUseCases, UsageReportUseCases
from feature_flags.application.usage import OfrepUsage, stale_flags, summarize
from feature_flags.domain.types import ToggleUsage

DEFAULT_ENVIRONMENT = "production"
EVALUATE = "feature-flags:evaluate"

router = APIRouter(tags=["evaluation"], dependencies=[Depends(require(EVALUATE))])
reports = APIRouter(
    tags=["usage"], dependencies=[Depends(require("feature-flags:read"))]
)


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


def _counted(request: Request, environment: str, evaluation: Evaluation) -> Evaluation:
    usage: OfrepUsage = request.app.state.ofrep_usage
    usage.count(
        current().tenant_id or "",
        environment,
        evaluation.key,
        evaluation.enabled,
        evaluation.variant,
    )
    return evaluation


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
    environment = _environment(x_environment, context)
    snapshot = await _snapshot(request, environment)
    try:
        evaluation = snapshot.evaluate(key, context)
    except FlagNotFoundError:
        return _error(key, "FLAG_NOT_FOUND", f"flag {key!r} was not found", 404)
    return JSONResponse(_success(_counted(request, environment, evaluation)))


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
    environment = _environment(x_environment, context)
    snapshot = await _snapshot(request, environment)
    # The answer depends on the flags and on the context: both make the ETag.
    digest = json.dumps(context, sort_keys=True, default=str)
    etag = f'"{snapshot.etag.strip(chr(34))}-{_short_hash(digest)}"'
    if if_none_match is not None and etag in {
        t.strip() for t in if_none_match.split(",")
    }:
        return Response(status_code=304, headers={"ETag": etag})
    flags = [
        _success(_counted(request, environment, snapshot.evaluate(key, context)))
        for key in snapshot.flag_keys()
    ]
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
async def client_metrics(
    request: Request,
    body: Annotated[dict[str, Any], Body()],
    x_environment: Annotated[str | None, Header()] = None,
) -> Response:
    """Unleash's metrics body (``appName``, ``instanceId``, ``bucket`` with ``start``,
    ``stop`` and per-toggle ``yes``, ``no`` and ``variants``), kept as a usage report."""
    try:
        bucket = body["bucket"]
        toggles = {
            str(name): ToggleUsage(
                yes=int(counts.get("yes", 0)),
                no=int(counts.get("no", 0)),
                variants={
                    str(k): int(v) for k, v in counts.get("variants", {}).items()
                },
            )
            for name, counts in bucket.get("toggles", {}).items()
        }
        start = datetime.fromisoformat(str(bucket["start"]).replace("Z", "+00:00"))
        stop = datetime.fromisoformat(str(bucket["stop"]).replace("Z", "+00:00"))
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        return problem_response(400, f"unreadable metrics: {error!r}")
    use_cases: UsageReportUseCases = request.app.state.usage_report
    await use_cases.submit(
        app_name=str(body.get("appName") or "unknown"),
        instance_id=str(body.get("instanceId") or "unknown"),
        environment=x_environment
        or str(body.get("environment") or DEFAULT_ENVIRONMENT),
        start=start,
        stop=stop,
        toggles=toggles,
    )
    return Response(status_code=202)


@reports.get("/api/v1/flag-usage", summary="Evaluations per flag and variant")
async def flag_usage(
    request: Request,
    days: Annotated[int, Query(ge=1, le=366)] = 7,
    environment: Annotated[str | None, Query()] = None,
) -> dict[str, Any]:
    """What SDKs and the OFREP endpoints reported in the last ``days`` days."""
    use_cases: UsageReportUseCases = request.app.state.usage_report
    since = datetime.now(UTC) - timedelta(days=days)
    usage = summarize(await use_cases.list(), since, environment)
    return {
        "since": since.isoformat(),
        "flags": [
            {
                "key": flag.key,
                "yes": flag.yes,
                "no": flag.no,
                "variants": flag.variants,
                "lastSeen": flag.last_seen.isoformat() if flag.last_seen else None,
            }
            for flag in sorted(usage.values(), key=lambda f: f.key)
        ],
    }


@reports.get("/api/v1/stale-flags", summary="Flags to clean up, and why")
async def stale_flag_report(
    request: Request,
    idle_days: Annotated[int, Query(alias="idleDays", ge=1, le=366)] = 30,
) -> dict[str, Any]:
    """Flags marked stale, past the expected lifetime of their type (release and
    experiment 40 days, operational 7; kill switches and permissions never), or not
    evaluated for ``idleDays``."""
    flags: FlagUseCases = request.app.state.flag
    reports_of: UsageReportUseCases = request.app.state.usage_report
    now = datetime.now(UTC)
    usage = summarize(await reports_of.list(), now - timedelta(days=idle_days))
    stale = stale_flags(await flags.list(), usage, now, idle_days)
    return {
        "flags": [
            {"key": s.key, "type": s.type.value, "reasons": list(s.reasons)}
            for s in stale
        ]
    }


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@reports.get("/api/v1/flags/{id}/history", summary="A flag's audit trail")
async def flag_history(id: str, request: Request) -> Response:
    """Every change of the flag, oldest first: what (the event and its fields), when, by
    whom (the user of the request that made it) and in which correlation."""
    store: EventStore = request.app.state.store
    events = await store.read_stream("Flag", id)
    if not events:
        return problem_response(404, "Flag not found")
    return JSONResponse(
        [
            {
                "version": event.stream_version,
                "event": event.event_type,
                "recordedAt": event.recorded_at.isoformat(),
                "userId": event.metadata.user_id,
                "correlationId": event.metadata.correlation_id,
                "changes": event.payload,
            }
            for event in events
        ]
    )
