from __future__ import annotations

import re
import uuid
from dataclasses import replace

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eaf.context import SecurityContext, current_or_none, use

CORRELATION_HEADER = "X-Correlation-Id"
# Bounded and printable: a caller cannot inject line breaks or megabytes into our logs.
_ACCEPTABLE = re.compile(r"[!-~]{1,128}")


class CorrelationIdMiddleware:
    """Runs each HTTP request under the caller's correlation id (or a new one), echoed
    in the response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        correlation_id = _incoming(Headers(scope=scope)) or str(uuid.uuid4())

        async def send_with_header(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)[CORRELATION_HEADER] = correlation_id
            await send(message)

        with use(_context_for(correlation_id)):
            await self.app(scope, receive, send_with_header)


def _incoming(headers: Headers) -> str | None:
    value = headers.get(CORRELATION_HEADER)
    if value is None or not _ACCEPTABLE.fullmatch(value):
        return None
    return value


def _context_for(correlation_id: str) -> SecurityContext:
    context = current_or_none()
    if context is None:
        return SecurityContext(correlation_id=correlation_id)
    return replace(context, correlation_id=correlation_id)
