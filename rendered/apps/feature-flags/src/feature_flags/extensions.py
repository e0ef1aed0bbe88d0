# Created by `generate` from spec feature-flags; this file is yours: it is never re-rendered.
"""Hand-written additions to the application.

``routers`` are served after the generated routes (put their modules in
``infrastructure``, where the layer rules apply); ``running`` runs inside the application's
lifespan, after the generated wiring (``services``) and before the first request, and
its code after ``yield`` at shutdown."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

from feature_flags.application.evaluation import Evaluations
from feature_flags.bootstrap import Services
from feature_flags.infrastructure import evaluation_http
from feature_flags.infrastructure.config import Settings

# Evaluation over OFREP and the Unleash client API, on the flag-engine library.
routers: list[APIRouter] = [evaluation_http.router]


@asynccontextmanager
async def running(
    app: FastAPI, services: Services, settings: Settings
) -> AsyncIterator[None]:
    """Start-up work before ``yield``, shutdown work after it."""
    app.state.evaluations = Evaluations(
        services.queries["Flags"], services.queries["Segments"]
    )
    yield
