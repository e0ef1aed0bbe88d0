from __future__ import annotations

import json
import logging
import sys
from collections.abc import MutableMapping
from datetime import UTC, datetime
from typing import Any, TextIO

import structlog

from eaf.context import current_or_none

# Attributes every LogRecord has; any other came from `extra=` and is logged as well,
# except uvicorn's ANSI-coloured copy of the message.
_STANDARD_ATTRIBUTES = frozenset(vars(logging.makeLogRecord({}))) | {
    "message",
    "asctime",
    "color_message",
}
# Uvicorn installs its own handlers; routed to the root logger they share our format.
_SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")
_FORMATS = ("json", "text")


def configure_logging(
    level: str = "INFO", fmt: str = "json", service: str | None = None
) -> None:
    """Log to stderr as JSON lines (``fmt="json"``) or plain text (``fmt="text"``).

    Calling it again replaces the handler it installed; other handlers on the root
    logger are left alone. Run uvicorn with ``log_config=None`` so it keeps this
    configuration.
    """
    if fmt not in _FORMATS:
        raise ValueError(f"log format must be one of {_FORMATS}, got {fmt!r}")
    numeric_level = logging.getLevelNamesMapping().get(level.upper())
    if numeric_level is None:
        raise ValueError(f"unknown log level {level!r}")

    formatter = JsonFormatter(service) if fmt == "json" else TextFormatter(service)
    handler = _StderrHandler()
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for previous in [h for h in root.handlers if isinstance(h, _StderrHandler)]:
        root.removeHandler(previous)
    root.addHandler(handler)
    root.setLevel(numeric_level)
    for name in _SERVER_LOGGERS:
        server_logger = logging.getLogger(name)
        server_logger.handlers.clear()
        server_logger.propagate = True


class JsonFormatter(structlog.stdlib.ProcessorFormatter):
    """One JSON object per record (structlog's renderer), with the service, the current
    security context (correlation, tenant, user) and trace ids, and any ``extra=``
    fields."""

    def __init__(self, service: str | None = None) -> None:
        self.service = service
        super().__init__(
            foreign_pre_chain=[_record_fields(service)],
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                structlog.processors.StackInfoRenderer(),
                structlog.processors.JSONRenderer(
                    serializer=_dumps, default=str, ensure_ascii=False
                ),
            ],
        )


def _dumps(entry: Any, **options: Any) -> str:
    return json.dumps(entry, **options)


def _record_fields(service: str | None) -> structlog.types.Processor:
    """The fields of a stdlib record: time, level, logger, message, the service, the
    security context, the trace, then the record's extra attributes."""

    def add(
        logger: Any, method: str, event: MutableMapping[str, Any]
    ) -> MutableMapping[str, Any]:
        record: logging.LogRecord = event["_record"]
        entry: dict[str, Any] = {
            "timestamp": _timestamp(record),
            "level": record.levelname,
            "logger": record.name,
            # structlog formatted the message already (and emptied the record's args).
            "message": event["event"],
        }
        if service is not None:
            entry["service"] = service
        entry.update(_context_fields())
        entry.update(_trace_fields())
        entry.update(
            (key, value)
            for key, value in vars(record).items()
            if key not in _STANDARD_ATTRIBUTES
        )
        if record.exc_info:
            entry["exc_info"] = record.exc_info
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = record.stack_info
        # Records carry their own exception and stack: structlog must not add them again.
        record.exc_info = record.exc_text = record.stack_info = None
        entry["_record"] = record
        entry["_from_structlog"] = False
        return entry

    return add


class TextFormatter(logging.Formatter):
    """A line for people: time, level, logger, correlation id and message."""

    def __init__(self, service: str | None = None) -> None:
        super().__init__()
        self.service = service

    def format(self, record: logging.LogRecord) -> str:
        correlation_id = _context_fields().get("correlation_id", "-")
        service = f"{self.service} " if self.service else ""
        line = (
            f"{_timestamp(record)} {record.levelname:<8} {service}{record.name} "
            f"[{correlation_id}] {record.getMessage()}"
        )
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        if record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        return line


class _StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stderr`` is at the time, so redirection and capture
    keep working."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _: TextIO) -> None:
        pass


def _timestamp(record: logging.LogRecord) -> str:
    moment = datetime.fromtimestamp(record.created, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _context_fields() -> dict[str, str]:
    context = current_or_none()
    if context is None:
        return {}
    fields = {
        "correlation_id": context.correlation_id,
        "tenant_id": context.tenant_id,
        "user_id": context.user_id,
    }
    return {key: value for key, value in fields.items() if value is not None}


def _trace_fields() -> dict[str, str]:
    """The current span's trace and span ids, where this process traces."""
    trace = sys.modules.get("opentelemetry.trace")
    if trace is None:
        return {}
    context = trace.get_current_span().get_span_context()
    if not context.is_valid:
        return {}
    return {
        "trace_id": format(context.trace_id, "032x"),
        "span_id": format(context.span_id, "016x"),
    }
