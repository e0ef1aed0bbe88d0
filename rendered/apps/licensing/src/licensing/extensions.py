# Created by `generate` from spec licensing; this file is yours: it is never re-rendered.
"""Hand-written additions to the application.

``routers`` are served after the generated routes (put their modules in
``infrastructure``, where the layer rules apply); ``running`` runs inside the application's
lifespan, after the generated wiring (``services``) and before the first request, and
its code after ``yield`` at shutdown."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import APIRouter, FastAPI

from licensing.application.issuing import IssuingLicenseService
from licensing.application.signing import CheckOuts, LicenseKeyRing
from licensing.application.validation import Validator
from licensing.bootstrap import Services
from licensing.infrastructure import licensing_http
from licensing.infrastructure.config import Settings

# Validation, signed license files and their public keys.
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
    # Creating a license issues it: a generated key, the policy's terms (the routes read
    # the use cases from app.state, so this replaces the rendered create for them).
    licenses = IssuingLicenseService(
        services.transactions, services.clock, services.queries["Licenses"]
    )
    app.state.license = licenses
    keys_file = Path(str(settings.get("licensing.keys_file", "data/license-keys.json")))
    ring = LicenseKeyRing.load_or_create(
        keys_file if keys_file.is_absolute() else settings.service_dir / keys_file
    )
    app.state.license_keys = ring
    app.state.validator = Validator(
        licenses, services.policy, services.machine, services.clock
    )
    app.state.check_outs = CheckOuts(
        licenses, services.policy, services.queries["Machines"], ring, services.clock
    )
    yield
