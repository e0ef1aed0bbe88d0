from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from fastapi import FastAPI
from fastapi.routing import APIRoute
from starlette.responses import Response

from eaf.observability._correlation import CorrelationIdMiddleware
from eaf.observability._health import HealthEndpoints, ReadinessCheck
from eaf.observability._metrics import HttpMetrics, MetricsMiddleware
from eaf.observability._tracing import instrument_tracing

LIVENESS_PATH = "/actuator/health/liveness"
READINESS_PATH = "/actuator/health/readiness"
HEALTH_PATH = "/actuator/health"
METRICS_PATH = "/metrics"


def install(
    app: FastAPI,
    *,
    service: str,
    readiness_checks: Mapping[str, ReadinessCheck] | None = None,
    health_path: str | None = None,
) -> None:
    """Give ``app`` health endpoints, Prometheus metrics, correlation ids and tracing
    (OpenTelemetry, exporter as ``OTEL_TRACES_EXPORTER`` / ``OTEL_EXPORTER_OTLP_ENDPOINT``
    say, none when unset: see :func:`instrument_tracing`).

    Call it right after creating the app, before including the service's routers:
    routes match in the order they were added, so ``health_path``
    (``/api/v1/things/health``) must come before ``/api/v1/things/{id}``. The routes are
    added without the app's own dependencies, so app-wide authentication does not apply
    to them; an authentication middleware must let these paths through.
    """
    if getattr(app.state, "eaf_observability", None) is not None:
        raise RuntimeError("eaf.observability is already installed on this app")
    health = HealthEndpoints(service, readiness_checks or {})
    metrics = HttpMetrics()
    app.state.eaf_observability = metrics

    _add_public_route(app, HEALTH_PATH, health.readiness, "health")
    _add_public_route(app, LIVENESS_PATH, health.liveness, "liveness")
    _add_public_route(app, READINESS_PATH, health.readiness, "readiness")
    if health_path is not None:
        _add_public_route(app, health_path, health.service_health, "service_health")
    _add_public_route(app, METRICS_PATH, metrics.endpoint, "metrics", in_schema=False)

    instrument_tracing(app, service)
    # Added last, so outermost: metrics and the request's log lines see the correlation.
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    app.add_middleware(CorrelationIdMiddleware)


def _add_public_route(
    app: FastAPI,
    path: str,
    endpoint: Callable[..., Awaitable[Response]],
    name: str,
    *,
    in_schema: bool = True,
) -> None:
    # A bare APIRoute, unlike app.add_api_route, does not get the app's dependencies.
    route = APIRoute(
        path,
        endpoint,
        methods=["GET"],
        name=f"eaf_{name}",
        tags=["observability"],
        include_in_schema=in_schema,
    )
    app.router.routes.append(route)
