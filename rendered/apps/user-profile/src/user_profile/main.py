# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The FastAPI application of user-profile."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from eaf import observability
from eaf.eventsourcing import close_event_store, event_store_ready
from eaf.web import RequestLimits, install_http_guards
from eaf.web.flags import FeatureFlags
from fastapi import FastAPI
from iam_client import IamClient, RevocationFeed, install

from user_profile import extensions
from user_profile.bootstrap import bootstrap
from user_profile.infrastructure import web
from user_profile.infrastructure.config import Settings, load_settings

HEALTH_PATH = "/api/v1/user-profiles/health"


def create_app(
    settings: Settings | None = None,
    *,
    iam: IamClient | None = None,
    flags: FeatureFlags | None = None,
    **overrides: Any,
) -> FastAPI:
    """The application, wired by ``bootstrap`` at start-up (keywords override its adapters;
    ``iam`` validates bearer tokens, by default against IAM's JWKS at ``security.iam_url``;
    ``flags`` answer for the gated endpoints, by default the feature-flag service at
    ``flags.url`` (none: every flag off))."""
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
        app.state.sample_user_profile = services.sample_user_profile
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
        description="Sample user profile records of a tenant",
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
    app.state.feature_flags = flags or FeatureFlags.from_url(
        settings.get("flags.url", ""), settings.name
    )
    web.install_error_handlers(app)
    app.include_router(web.router)
    for router in extensions.routers:
        app.include_router(router)
    return app
