"""W3C trace context across the broker: an event written inside a traced request carries
the request's ``traceparent`` (and ``tracestate``) in its metadata, the relay sends them as
message headers, and a consumer handles the message in a span that continues that trace
(in another service). Nothing happens in a process that has not set OpenTelemetry up."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import ModuleType
from typing import Any

TRACE_HEADERS = ("traceparent", "tracestate")


def _loaded(module: str) -> ModuleType | None:
    """``module`` if this process has imported it already: a service traces only when it
    set OpenTelemetry up (``instrument_tracing``), so an untraced one pays nothing here,
    not even the import."""
    return sys.modules.get(module)


_TRACERS: dict[str, tuple[Any, Any]] = {}


def _tracer(trace: ModuleType, name: str) -> Any:
    """The tracer ``name`` of the current provider, made once per provider (the SDK
    builds a new one on every ``get_tracer`` call)."""
    provider = trace.get_tracer_provider()
    made = _TRACERS.get(name)
    if made is not None and made[0] is provider:
        return made[1]
    tracer = provider.get_tracer(name)
    _TRACERS[name] = (provider, tracer)
    return tracer


def tracing() -> bool:
    """Whether this process traces (it set OpenTelemetry up)."""
    return _loaded("opentelemetry.trace") is not None


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
    tracer = _tracer(trace, "eaf.messaging")
    with tracer.start_as_current_span(
        name, context=parent, kind=trace.SpanKind.CONSUMER
    ):
        yield


@contextmanager
def span(
    name: str, attributes: Mapping[str, str | int] | None = None
) -> Iterator[None]:
    """Run the block in an internal span of the current trace (a command, an append);
    nothing in a process that does not trace."""
    trace = _loaded("opentelemetry.trace")
    if trace is None:
        yield
        return
    tracer = _tracer(trace, "eaf")
    with tracer.start_as_current_span(name, attributes=dict(attributes or {})):
        yield


def _no_end(error: BaseException | None) -> None:
    return None


def producer_span(
    name: str, headers: Mapping[str, str]
) -> tuple[dict[str, str], Callable[[BaseException | None], None]]:
    """Start a producer span continuing the trace ``headers`` carry (an event's stored
    context): the headers to send, whose trace context is now that span's, and the
    function that ends the span once the broker answered (with the error, if any).
    Headers with no trace context, or a process that does not trace, are sent as they
    are."""
    trace = _loaded("opentelemetry.trace")
    sent = dict(headers)
    if trace is None or "traceparent" not in sent:
        return sent, _no_end
    propagate = importlib.import_module("opentelemetry.propagate")
    parent = propagate.extract({k: sent[k] for k in TRACE_HEADERS if k in sent})
    started: Any = _tracer(trace, "eaf.messaging").start_span(
        name, context=parent, kind=trace.SpanKind.PRODUCER
    )
    carrier: dict[str, str] = {}
    propagate.inject(carrier, context=trace.set_span_in_context(started))
    for key in TRACE_HEADERS:
        sent.pop(key, None)
        if key in carrier:
            sent[key] = carrier[key]

    def end(error: BaseException | None) -> None:
        if error is not None:
            started.record_exception(error)
            started.set_status(trace.Status(trace.StatusCode.ERROR, str(error)))
        started.end()

    return sent, end
