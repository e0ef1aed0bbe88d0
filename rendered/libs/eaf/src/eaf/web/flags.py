"""Feature flags through OpenFeature: routes a flag gates.

A service whose spec gates endpoints with ``flag: <key>`` asks, on every such request,
whether the flag is on for the caller (OpenFeature's evaluation context: the user as the
targeting key, the tenant as ``tenantId``). Off, the route answers 404: for that caller
the feature does not exist yet. The provider is the feature-flag service over OFREP
(``flags.url``; the caller's bearer token is forwarded, so the flag service answers in the
caller's tenant and needs ``feature-flags:evaluate``). Without a URL, or when the flag
service cannot answer, every flag is off: a gated feature fails closed.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Iterable
from contextvars import ContextVar
from typing import Any

from fastapi import Request
from openfeature import api
from openfeature.client import OpenFeatureClient
from openfeature.evaluation_context import EvaluationContext
from openfeature.provider import FeatureProvider
from openfeature.provider.in_memory_provider import InMemoryFlag, InMemoryProvider
from starlette.exceptions import HTTPException

from eaf.context import current_or_none

__all__ = ["FeatureFlags", "flag_enabled"]

_BEARER: ContextVar[str | None] = ContextVar("eaf_flags_bearer", default=None)
_DOMAINS = itertools.count(1)


def _forwarded_headers() -> dict[str, str]:
    bearer = _BEARER.get()
    return {"Authorization": bearer} if bearer else {}


class FeatureFlags:
    """An OpenFeature client of its own (a domain per instance, so several apps in one
    process keep their providers apart)."""

    def __init__(self, provider: FeatureProvider, name: str = "service") -> None:
        self.domain = f"{name}-{next(_DOMAINS)}"
        api.set_provider(provider, self.domain)
        self._client: OpenFeatureClient = api.get_client(self.domain)
        # The OFREP provider answers synchronously (HTTP): off the event loop.
        self._in_thread = not isinstance(provider, InMemoryProvider)

    @classmethod
    def from_url(cls, url: str, name: str = "service") -> FeatureFlags:
        """Flags from the feature-flag service at ``url`` (OFREP), or all off when empty."""
        if not url:
            return cls(InMemoryProvider({}), name)
        from openfeature.contrib.provider.ofrep import OFREPProvider

        return cls(OFREPProvider(url, headers_factory=_forwarded_headers), name)

    @classmethod
    def fixed(cls, on: Iterable[str] = (), name: str = "service") -> FeatureFlags:
        """Flags on for everyone (``on``), every other off: for tests and local runs."""
        flags = {key: InMemoryFlag("on", {"on": True, "off": False}) for key in on}
        return cls(InMemoryProvider(flags), name)

    async def enabled(self, key: str, bearer: str | None = None) -> bool:
        """Whether ``key`` is on for the current caller (off when it cannot be told)."""
        context = current_or_none()
        attributes: dict[str, Any] = {}
        targeting_key = None
        if context is not None:
            targeting_key = context.user_id or context.tenant_id
            if context.tenant_id:
                attributes["tenantId"] = context.tenant_id
        evaluation = EvaluationContext(targeting_key, attributes)
        token = _BEARER.set(bearer)
        try:
            if self._in_thread:
                # to_thread copies the context: the provider's thread sees the bearer.
                value = await asyncio.to_thread(
                    self._client.get_boolean_value, key, False, evaluation
                )
            else:
                value = self._client.get_boolean_value(key, False, evaluation)
        finally:
            _BEARER.reset(token)
        return value is True


def flag_enabled(key: str) -> Callable[[Request], Awaitable[None]]:
    """A route dependency: 404 unless flag ``key`` is on for the caller (put it after the
    authentication dependency, which sets the caller's context)."""

    async def gate(request: Request) -> None:
        flags: FeatureFlags = request.app.state.feature_flags
        if not await flags.enabled(key, request.headers.get("authorization")):
            raise HTTPException(404, detail=f"Not found (feature {key} is off)")

    return gate
