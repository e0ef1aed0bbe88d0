# Created by `generate` from spec feature-flags; this file is yours: it is never re-rendered.
"""Hand-written additions to the application.

``routers`` are served after the generated routes (put their modules in
``infrastructure``, where the layer rules apply); ``running`` runs inside the application's
lifespan, after the generated wiring (``services``) and before the first request, and
its code after ``yield`` at shutdown."""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

from feature_flags.bootstrap import Services
from feature_flags.infrastructure import evaluation_http
from feature_flags.infrastructure.config import Settings

# Evaluation over OFREP and the Unleash client API, on the flag-engine library: the spec's
# components (evaluations, ofrep_usage), built by bootstrap().
routers: list[APIRouter] = [evaluation_http.router, evaluation_http.reports]

log = logging.getLogger("feature_flags.usage")


@asynccontextmanager
async def running(
    app: FastAPI, services: Services, settings: Settings
) -> AsyncIterator[None]:
    """Write the OFREP usage counted in memory every ``flags.usage_flush_seconds``, and
    what is left at shutdown."""
    usage = services.ofrep_usage
    # How often the OFREP evaluations counted in memory are written as a usage report.
    flush_every = float(settings.get("flags.usage_flush_seconds", 10))

    async def report_usage() -> None:
        while True:
            await asyncio.sleep(flush_every)
            try:
                await usage.flush()
            except Exception:  # the counts of that window are lost, not the service
                log.exception("could not write the OFREP usage report")

    reporter = asyncio.create_task(report_usage(), name="ofrep-usage")
    try:
        yield
    finally:
        reporter.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reporter
        with contextlib.suppress(Exception):
            await usage.flush()
