from __future__ import annotations

import time

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eaf.metrics import REGISTRY as RUNTIME_REGISTRY

UNMATCHED_ROUTE = "<unmatched>"


class HttpMetrics:
    """One app's Prometheus registry: request counts and latencies, process metrics."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        GCCollector(registry=self.registry)
        self.requests = Counter(
            "http_requests_total",
            "HTTP requests served, by method, route template and status code.",
            ("method", "route", "status"),
            registry=self.registry,
        )
        self.duration = Histogram(
            "http_request_duration_seconds",
            "Time to serve an HTTP request, by method and route template.",
            ("method", "route"),
            registry=self.registry,
        )

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        self.requests.labels(method, route, str(status)).inc()
        self.duration.labels(method, route).observe(seconds)

    async def endpoint(self, request: Request) -> Response:
        """``GET /metrics`` in the Prometheus text exposition format: the app's HTTP and
        process metrics, then the runtime's (appends, outbox, consumers)."""
        body = generate_latest(self.registry) + generate_latest(RUNTIME_REGISTRY)
        return Response(body, media_type=CONTENT_TYPE_LATEST)


class MetricsMiddleware:
    """Counts and times every HTTP request under its route template (pure ASGI)."""

    def __init__(self, app: ASGIApp, metrics: HttpMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        root_path = scope.get("root_path", "")
        status = 500
        started = time.perf_counter()

        async def send_recording_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_recording_status)
        finally:
            route = route_template(scope, root_path)
            self.metrics.observe(
                scope["method"], route, status, time.perf_counter() - started
            )


def route_template(scope: Scope, root_path: str) -> str:
    """The matched route's template (``/items/{id}``), not the raw path, which would
    make a time series per id.

    The router records the matched route in the (shared) scope; a mount adds its prefix
    to ``root_path``, which is put back in front of the inner route's template.
    """
    path = getattr(scope.get("route"), "path", None)
    if not isinstance(path, str):
        return UNMATCHED_ROUTE
    mount_prefix: str = scope.get("root_path", "").removeprefix(root_path)
    return mount_prefix + path
