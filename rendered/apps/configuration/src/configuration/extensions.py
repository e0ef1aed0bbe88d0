# Created by `generate` from spec configuration; this file is yours: it is never re-rendered.
"""Hand-written additions to the application.

``routers`` are served after the generated routes (put their modules in
``infrastructure``, where the layer rules apply); ``running`` runs inside the application's
lifespan, after the generated wiring (``services``) and before the first request, and
its code after ``yield`` at shutdown."""

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import APIRouter, FastAPI

from configuration.application.configurations import Configurations
from configuration.application.secrets import SecretBox
from configuration.application.watch import Changes
from configuration.bootstrap import Services
from configuration.infrastructure import config_http
from configuration.infrastructure.change_feed import ChangeFeed
from configuration.infrastructure.config import Settings
from configuration.infrastructure.persistence import EVENTS

# Layered configuration, secrets, versions and watch (application/configurations.py).
routers: list[APIRouter] = [config_http.router]


def keys_file(settings: Settings) -> Path:
    """The key ring of the secrets (``configuration.keys_file``; relative: to the service)."""
    path = Path(str(settings.get("configuration.keys_file", "data/keys.json")))
    return path if path.is_absolute() else settings.service_dir / path


@asynccontextmanager
async def running(
    app: FastAPI, services: Services, settings: Settings
) -> AsyncIterator[None]:
    """Start-up work before ``yield``, shutdown work after it."""

    async def history(set_id: str) -> Sequence[object]:
        stored = await services.store.read_stream("PropertySet", set_id)
        return [EVENTS.decode(event) for event in stored]

    changes = Changes()
    app.state.configurations = Configurations(
        services.property_set,
        services.config_schema,
        history,
        SecretBox.load_or_create(keys_file(settings)),
        changes,
    )
    feed = ChangeFeed(
        changes, url=lambda: services.relay.url, replicas=settings.broker_replicas
    )
    following = bool(settings.get("broker.consume", True))
    if following:
        await feed.start()
    try:
        yield
    finally:
        await feed.stop()
