"""A service's operational face: health, Prometheus metrics, JSON logs, tracing."""

from eaf.observability._correlation import CORRELATION_HEADER, CorrelationIdMiddleware
from eaf.observability._health import ReadinessCheck
from eaf.observability._install import install
from eaf.observability._logging import JsonFormatter, TextFormatter, configure_logging
from eaf.observability._metrics import UNMATCHED_ROUTE
from eaf.observability._tracing import instrument_tracing

__all__ = [
    "CORRELATION_HEADER",
    "UNMATCHED_ROUTE",
    "CorrelationIdMiddleware",
    "JsonFormatter",
    "ReadinessCheck",
    "TextFormatter",
    "configure_logging",
    "install",
    "instrument_tracing",
]
