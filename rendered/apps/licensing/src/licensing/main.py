# Generated from spec licensing by `generate`; edits are merged on re-render.

"""The FastAPI application of licensing."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from eaf import observability
from eaf.eventsourcing import close_event_store, event_store_ready
from eaf.web import RequestLimits, install_http_guards
from fastapi import FastAPI
from iam_client import IamClient, RevocationFeed, install

from licensing import extensions
from licensing.bootstrap import bootstrap
from licensing.infrastructure import web
from licensing.infrastructure.config import Settings, load_settings

HEALTH_PATH = "/api/v1/licensings/health"


def create_app(
    settings: Settings | None = None,
    *,
    iam: IamClient | None = None,
    **overrides: Any,
) -> FastAPI:
    """The application, wired by ``bootstrap`` at start-up (keywords override its adapters;
    ``iam`` validates bearer tokens, by default against IAM's JWKS at ``security.iam_url``)."""
    settings = settings or load_settings()
    observability.configure_logging(
        settings.log_level, settings.log_format, settings.name
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services = await bootstrap(settings, **overrides)
        app.state.store = services.store
        app.state.queries = services.queries
        app.state.clock = services.clock
        app.state.product = services.product
        app.state.policy = services.policy
        app.state.license = services.license
        app.state.machine = services.machine
        app.state.license_keys = services.license_keys
        app.state.validator = services.validator
        app.state.check_outs = services.check_outs
        for worker in services.workers:
            await worker.start()
        revocation_feed = RevocationFeed(
            app.state.iam_client.revocations,
            url=lambda: services.relay.url,
            name=settings.name,
            replicas=settings.broker_replicas,
        )
        await revocation_feed.start()
        try:
            async with extensions.running(app, services, settings):
                yield
        finally:
            await revocation_feed.stop()
            for worker in reversed(services.workers):
                await worker.stop()
            await close_event_store(services.store)
            await app.state.iam_client.aclose()

    app = FastAPI(
        title=settings.name,
        description="Software licenses of a tenant's products (policies, keys, machine activation, heartbeats, suspension, renewal), validated with precise codes and checked out as signed offline license files",
        version="0.1.0",
        lifespan=lifespan,
    )

    async def store_ready() -> bool:
        store = getattr(app.state, "store", None)
        return store is not None and await event_store_ready(store)

    observability.install(
        app,
        service=settings.name,
        readiness_checks={"eventStore": store_ready},
        health_path=HEALTH_PATH,
    )
    install_http_guards(app, RequestLimits.from_settings(settings))
    install(app, iam or IamClient.from_settings(settings))
    web.install_error_handlers(app)
    app.include_router(web.router)
    for router in extensions.routers:
        app.include_router(router)
    return app
