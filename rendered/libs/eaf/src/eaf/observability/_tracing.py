from __future__ import annotations

import importlib
import logging
import os
from types import ModuleType

from fastapi import FastAPI

_log = logging.getLogger("eaf.observability.tracing")
_OTLP_ENDPOINT_VARIABLES = (
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
)


def instrument_tracing(app: FastAPI, service: str) -> bool:
    """Trace every request with OpenTelemetry when it is installed, else do nothing.

    OpenTelemetry is an optional extra (``opentelemetry-instrumentation-fastapi``, and
    ``opentelemetry-sdk`` to record spans). When the deployment has not configured a
    tracer provider (for instance through ``opentelemetry-instrument``), one named after
    ``service`` is set up, exporting over OTLP/HTTP if that exporter is installed and
    ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set. Call it before the app starts serving.
    Returns whether tracing was enabled.
    """
    instrumentation = _optional("opentelemetry.instrumentation.fastapi")
    if instrumentation is None:
        _log.debug("OpenTelemetry is not installed; tracing is off")
        return False
    _ensure_tracer_provider(service)
    instrumentation.FastAPIInstrumentor.instrument_app(app)
    return True


def _ensure_tracer_provider(service: str) -> None:
    trace = _optional("opentelemetry.trace")
    sdk_trace = _optional("opentelemetry.sdk.trace")
    resources = _optional("opentelemetry.sdk.resources")
    if trace is None or sdk_trace is None or resources is None:
        return
    if isinstance(trace.get_tracer_provider(), sdk_trace.TracerProvider):
        return
    provider = sdk_trace.TracerProvider(
        resource=resources.Resource.create({"service.name": service})
    )
    exporter = _optional("opentelemetry.exporter.otlp.proto.http.trace_exporter")
    export = _optional("opentelemetry.sdk.trace.export")
    if (
        exporter
        and export
        and any(os.environ.get(name) for name in _OTLP_ENDPOINT_VARIABLES)
    ):
        provider.add_span_processor(
            export.BatchSpanProcessor(exporter.OTLPSpanExporter())
        )
    trace.set_tracer_provider(provider)


def _optional(module: str) -> ModuleType | None:
    try:
        return importlib.import_module(module)
    except ImportError:
        return None
