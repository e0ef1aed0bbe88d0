# Created by `generate` from spec configuration; this file is yours: it is never re-rendered.
"""Hand-written additions to the application.

``routers`` are served after the generated routes (put their modules in
``infrastructure``, where the layer rules apply); ``running`` runs inside the application's
lifespan, after the generated wiring (``services``) and before the first request, and
its code after ``yield`` at shutdown."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

from configuration.bootstrap import Services
from configuration.infrastructure import config_http
from configuration.infrastructure.change_feed import ChangeFeed
from configuration.infrastructure.config import Settings

# Layered configuration, secrets, versions and watch (application/configurations.py), the
# spec's components, built by bootstrap().
routers: list[APIRouter] = [config_http.router]


@asynccontextmanager
async def running(
    app: FastAPI, services: Services, settings: Settings
) -> AsyncIterator[None]:
    """Follow the changes the other instances store, while consumers run."""
    feed = ChangeFeed(
        services.changes,
        url=lambda: services.relay.url,
        replicas=settings.broker_replicas,
    )
    following = bool(settings.get("broker.consume", True))
    if following:
        await feed.start()
    try:
        yield
    finally:
        await feed.stop()
