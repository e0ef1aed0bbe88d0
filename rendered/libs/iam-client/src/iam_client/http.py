"""An HTTP client that forwards the bearer token and correlation id of the current context."""

from __future__ import annotations

from typing import Any

import httpx
from eaf.context import current_or_none


async def forward_context(request: httpx.Request) -> None:
    """An httpx request hook: add ``Authorization: Bearer <token>`` and the context
    headers (``SecurityContext.to_headers()``) of the current security context.

    Headers the caller set explicitly win; without a context nothing is added.
    """
    context = current_or_none()
    if context is None:
        return
    for name, value in context.to_headers().items():
        request.headers.setdefault(name, value)
    if context.token is not None:
        request.headers.setdefault("Authorization", f"Bearer {context.token}")


def forwarding_client(**kwargs: Any) -> httpx.AsyncClient:
    """An ``httpx.AsyncClient`` (same arguments) that forwards the security context
    of the task making each request."""
    hooks = dict(kwargs.pop("event_hooks", None) or {})
    hooks["request"] = [forward_context, *hooks.get("request", [])]
    return httpx.AsyncClient(event_hooks=hooks, **kwargs)
