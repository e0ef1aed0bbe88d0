# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""The FastAPI application of user-profile."""

from typing import Any

from eaf import observability
from fastapi import FastAPI

from user_profile.bootstrap import bootstrap
from user_profile.infrastructure import web
from user_profile.infrastructure.config import Settings, load_settings

HEALTH_PATH = "/api/v1/user-profiles/health"


def create_app(settings: Settings | None = None, **overrides: Any) -> FastAPI:
    """The application, wired by ``bootstrap`` (keywords override its adapters)."""
    settings = settings or load_settings()
    observability.configure_logging(
        settings.log_level, settings.log_format, settings.name
    )
    services = bootstrap(settings, **overrides)
    app = FastAPI(
        title=settings.name,
        description="Sample user profile records of a tenant",
        version="0.1.0",
    )
    app.state.sample_user_profile = services.sample_user_profile
    observability.install(
        app,
        service=settings.name,
        readiness_checks={"database": services.database.ping},
        health_path=HEALTH_PATH,
    )
    web.install_error_handlers(app)
    app.include_router(web.router)
    return app
