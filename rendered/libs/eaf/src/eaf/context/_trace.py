"""W3C trace context across the broker: an event written inside a traced request carries
the request's ``traceparent`` (and ``tracestate``) in its metadata, the relay sends them as
message headers, and a consumer handles the message in a span that continues that trace
(in another service). Nothing happens in a process that has not set OpenTelemetry up."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import ModuleType

TRACE_HEADERS = ("traceparent", "tracestate")


def _loaded(module: str) -> ModuleType | None:
    """``module`` if this process has imported it already: a service traces only when it
    set OpenTelemetry up (``instrument_tracing``), so an untraced one pays nothing here,
    not even the import."""
    return sys.modules.get(module)


def trace_headers() -> dict[str, str]:
    """The current span's W3C trace context (empty outside a valid span, or when this
    process does not trace)."""
    trace = _loaded("opentelemetry.trace")
    if trace is None or not trace.get_current_span().get_span_context().is_valid:
        return {}
    propagate = importlib.import_module("opentelemetry.propagate")
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return {name: carrier[name] for name in TRACE_HEADERS if name in carrier}


@contextmanager
def consumer_span(name: str, headers: Mapping[str, str]) -> Iterator[None]:
    """Run the block in a consumer span that continues the trace ``headers`` carry (a
    new trace when they carry none)."""
    trace = _loaded("opentelemetry.trace")
    if trace is None:
        yield
        return
    propagate = importlib.import_module("opentelemetry.propagate")
    lowered = {key.lower(): value for key, value in headers.items()}
    parent = propagate.extract({k: lowered[k] for k in TRACE_HEADERS if k in lowered})
    tracer = trace.get_tracer("eaf.messaging")
    with tracer.start_as_current_span(
        name, context=parent, kind=trace.SpanKind.CONSUMER
    ):
        yield
