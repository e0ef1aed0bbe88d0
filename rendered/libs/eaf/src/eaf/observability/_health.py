from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi.responses import JSONResponse

ReadinessCheck = Callable[[], Awaitable[bool] | bool]
"""Whether one dependency (database, broker, ...) can serve; only ``True`` counts as
ready, raising or timing out counts as not ready."""

CHECK_TIMEOUT_SECONDS = 5.0
UP = "UP"
DOWN = "DOWN"

_log = logging.getLogger("eaf.observability.health")


class HealthEndpoints:
    """The liveness, readiness and service health endpoints of one service."""

    def __init__(self, service: str, checks: Mapping[str, ReadinessCheck]) -> None:
        self._service = service
        self._checks = dict(checks)

    async def liveness(self) -> JSONResponse:
        return JSONResponse({"status": UP})

    async def readiness(self) -> JSONResponse:
        results = await asyncio.gather(*(self._run(name) for name in self._checks))
        components = {name: {"status": UP if ok else DOWN} for name, ok in results}
        status = UP if all(ok for _, ok in results) else DOWN
        body: dict[str, Any] = {
            "status": status,
            "service": self._service,
            "components": components,
        }
        return JSONResponse(body, status_code=200 if status == UP else 503)

    async def service_health(self) -> JSONResponse:
        return JSONResponse({"status": UP, "service": self._service})

    async def _run(self, name: str) -> tuple[str, bool]:
        try:
            outcome = self._checks[name]()
            if inspect.isawaitable(outcome):
                outcome = await asyncio.wait_for(outcome, CHECK_TIMEOUT_SECONDS)
        except Exception:
            _log.warning("readiness check %r failed", name, exc_info=True)
            return name, False
        return name, outcome is True
