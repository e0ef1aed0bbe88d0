# Created by `generate` from spec licensing; this file is yours: it is never re-rendered.
"""Hand-written additions to the application.

``routers`` are served after the generated routes (put their modules in
``infrastructure``, where the layer rules apply); ``running`` runs inside the application's
lifespan, after the generated wiring (``services``) and before the first request, and
its code after ``yield`` at shutdown."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

from licensing.bootstrap import Services
from licensing.infrastructure import licensing_http
from licensing.infrastructure.config import Settings

# Validation, signed license files and their public keys: the spec's components
# (license_keys, validator, check_outs), built by bootstrap(); the
# License use cases are the hand-written IssuingLicenseService (the aggregate's `service`).
routers: list[APIRouter] = [
    licensing_http.validation,
    licensing_http.files,
    licensing_http.keys,
]


@asynccontextmanager
async def running(
    app: FastAPI, services: Services, settings: Settings
) -> AsyncIterator[None]:
    """Start-up work before ``yield``, shutdown work after it."""
    yield
