"""The security context of the current unit of work, carried in ``contextvars``, and the
W3C trace context events and messages carry along."""

from eaf.context._context import (
    MissingTenantError,
    SecurityContext,
    copy_to_thread,
    current,
    current_or_none,
    in_tenant,
    platform_context,
    require_tenant,
    spawn,
    use,
)
from eaf.context._trace import (
    TRACE_HEADERS,
    consumer_span,
    producer_span,
    span,
    trace_headers,
    tracing,
)

__all__ = [
    "TRACE_HEADERS",
    "MissingTenantError",
    "SecurityContext",
    "consumer_span",
    "copy_to_thread",
    "current",
    "current_or_none",
    "in_tenant",
    "platform_context",
    "producer_span",
    "require_tenant",
    "span",
    "spawn",
    "trace_headers",
    "tracing",
    "use",
]
