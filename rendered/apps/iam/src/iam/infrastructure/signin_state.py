"""The embedded adapters of browser sign-in: short-lived state in this process's
memory (one replica, or sticky sessions), and the external identity providers of
several sources (or none)."""

import asyncio
import time
from collections.abc import Sequence
from datetime import timedelta
from typing import Generic, TypeVar

from iam.application.ports.signin import ExternalProvider, ExternalProviders

T = TypeVar("T")
# Expired entries are swept on writes, at most every this many seconds.
SWEEP_INTERVAL = 30.0


class MemoryExpiring(Generic[T]):
    """An :class:`~iam.application.ports.signin.Expiring` in a dict."""

    def __init__(self) -> None:
        self._values: dict[str, tuple[float, T]] = {}
        self._lock = asyncio.Lock()
        self._swept = time.monotonic()

    async def put(self, key: str, value: T, ttl: timedelta) -> None:
        async with self._lock:
            now = time.monotonic()
            if now - self._swept > SWEEP_INTERVAL:
                self._values = {
                    k: entry for k, entry in self._values.items() if entry[0] > now
                }
                self._swept = now
            self._values[key] = (now + ttl.total_seconds(), value)

    async def get(self, key: str) -> T | None:
        entry = self._values.get(key)
        if entry is None or entry[0] <= time.monotonic():
            return None
        return entry[1]

    async def pop(self, key: str) -> T | None:
        async with self._lock:
            entry = self._values.pop(key, None)
        if entry is None or entry[0] <= time.monotonic():
            return None
        return entry[1]


class NoExternalProviders:
    """No external identity provider is configured (federation comes later)."""

    async def providers(self, tenant_id: str) -> list[ExternalProvider]:
        return []


class ExternalProviderSources:
    """The external identity providers of every source (external OpenID providers,
    SAML...), one after the other."""

    def __init__(self, sources: Sequence[ExternalProviders]) -> None:
        self._sources = list(sources)

    async def providers(self, tenant_id: str) -> list[ExternalProvider]:
        return [
            provider
            for source in self._sources
            for provider in await source.providers(tenant_id)
        ]
