# Generated from spec feature-flags by `generate`; edits are merged on re-render.

"""The FastAPI application of feature-flags."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from eaf import observability
from eaf.eventsourcing import close_event_store, event_store_ready
from eaf.web import RequestLimits, install_http_guards
from fastapi import FastAPI
from iam_client import IamClient, RevocationFeed, install

from feature_flags import extensions
from feature_flags.bootstrap import bootstrap
from feature_flags.infrastructure import web
from feature_flags.infrastructure.config import Settings, load_settings

HEALTH_PATH = "/api/v1/feature-flags/health"


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
        app.state.project = services.project
        app.state.segment = services.segment
        app.state.flag = services.flag
        app.state.usage_report = services.usage_report
        app.state.evaluations = services.evaluations
        app.state.ofrep_usage = services.ofrep_usage
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
        description="Feature flags of a tenant's projects and environments, evaluated over OpenFeature's remote evaluation protocol (OFREP) and the Unleash client API",
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
