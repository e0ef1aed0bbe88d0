from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Mapping
from types import ModuleType

from fastapi import FastAPI

_log = logging.getLogger("eaf.observability.tracing")
_OTLP_ENDPOINT_VARIABLES = (
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
)
EXPORTERS = ("otlp", "console", "none")
"""The values of ``OTEL_TRACES_EXPORTER`` this runtime understands."""


class TracingConfigError(ValueError):
    """``OTEL_TRACES_EXPORTER`` names an exporter this runtime does not have."""


def instrument_tracing(
    app: FastAPI, service: str, environ: Mapping[str, str] | None = None
) -> bool:
    """Trace every request of ``app`` with OpenTelemetry; returns whether it did.

    On by default. The exporter is chosen as OpenTelemetry's own variables say:
    ``OTEL_TRACES_EXPORTER`` (``otlp``, ``console`` or ``none``), else OTLP over HTTP
    when ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or ``..._TRACES_ENDPOINT``) is set, else none.
    With no exporter, spans are not recorded (a sampler that keeps only what a caller
    asked to sample), yet the W3C trace context still flows from requests to events,
    messages and consumers, so a downstream service that exports continues the trace.
    A tracer provider the deployment set up already (``opentelemetry-instrument``) is
    kept. Call it before the app starts serving.
    """
    instrumentation = _optional("opentelemetry.instrumentation.fastapi")
    if instrumentation is None:
        _log.debug("OpenTelemetry is not installed; tracing is off")
        return False
    _ensure_tracer_provider(service, os.environ if environ is None else environ)
    # One span per request: not one more per ASGI message received and sent.
    instrumentation.FastAPIInstrumentor.instrument_app(
        app,
        excluded_urls="/actuator/health.*,/metrics",
        exclude_spans=["receive", "send"],
    )
    return True


def exporter_name(environ: Mapping[str, str]) -> str:
    """The exporter ``environ`` asks for: ``otlp``, ``console`` or ``none``."""
    chosen = environ.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if chosen:
        if chosen not in EXPORTERS:
            raise TracingConfigError(
                f"OTEL_TRACES_EXPORTER must be one of {', '.join(EXPORTERS)}, "
                f"got {chosen!r}"
            )
        return chosen
    if any(environ.get(name) for name in _OTLP_ENDPOINT_VARIABLES):
        return "otlp"
    return "none"


def _ensure_tracer_provider(
    service: str, environ: Mapping[str, str] | None = None
) -> None:
    trace = _optional("opentelemetry.trace")
    sdk_trace = _optional("opentelemetry.sdk.trace")
    resources = _optional("opentelemetry.sdk.resources")
    if trace is None or sdk_trace is None or resources is None:
        return
    if isinstance(trace.get_tracer_provider(), sdk_trace.TracerProvider):
        return
    environ = os.environ if environ is None else environ
    exporter = _exporter(exporter_name(environ))
    resource = resources.Resource.create({"service.name": service})
    if exporter is None:
        sampling = importlib.import_module("opentelemetry.sdk.trace.sampling")
        provider = sdk_trace.TracerProvider(
            resource=resource,
            sampler=sampling.ParentBased(root=sampling.ALWAYS_OFF),
        )
    else:
        provider = sdk_trace.TracerProvider(resource=resource)
        export = importlib.import_module("opentelemetry.sdk.trace.export")
        provider.add_span_processor(export.BatchSpanProcessor(exporter))
    trace.set_tracer_provider(provider)


def _exporter(name: str) -> object | None:
    if name == "otlp":
        otlp = importlib.import_module(
            "opentelemetry.exporter.otlp.proto.http.trace_exporter"
        )
        exporter: object = otlp.OTLPSpanExporter()
        return exporter
    if name == "console":
        export = importlib.import_module("opentelemetry.sdk.trace.export")
        console: object = export.ConsoleSpanExporter()
        return console
    return None


def _optional(module: str) -> ModuleType | None:
    try:
        return importlib.import_module(module)
    except ImportError:
        return None
