# Generated from spec iam by `generate`; edits are merged on re-render.

"""The FastAPI application of iam."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from eaf import observability
from eaf.eventsourcing import close_event_store, event_store_ready
from eaf.web import RequestLimits, install_http_guards
from fastapi import FastAPI
from iam_client import TokenValidator, install

from iam import extensions
from iam.bootstrap import bootstrap
from iam.infrastructure import web
from iam.infrastructure.config import Settings, load_settings

HEALTH_PATH = "/api/v1/iams/health"


def create_app(
    settings: Settings | None = None,
    *,
    iam: TokenValidator | None = None,
    **overrides: Any,
) -> FastAPI:
    """The application, wired by ``bootstrap`` at start-up (keywords override its adapters;
    ``iam`` validates bearer tokens, by default the ``bearer_tokens`` component)."""
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
        app.state.tenant = services.tenant
        app.state.user = services.user
        app.state.role = services.role
        app.state.policy = services.policy
        app.state.service_account = services.service_account
        app.state.registered_client = services.registered_client
        app.state.access = services.access
        app.state.directory = services.directory
        app.state.user_listing = services.user_listing
        app.state.federated_identities = services.federated_identities
        app.state.federation = services.federation
        app.state.secret_box = services.secret_box
        app.state.ldap_directories = services.ldap_directories
        app.state.ldap_provider_store = services.ldap_provider_store
        app.state.ldap = services.ldap
        app.state.oidc_providers = services.oidc_providers
        app.state.key_ring = services.key_ring
        app.state.token_issuer = services.token_issuer
        app.state.published_keys = services.published_keys
        app.state.token_verifier = services.token_verifier
        app.state.login_throttle = services.login_throttle
        app.state.client_registry = services.client_registry
        app.state.tokens = services.tokens
        app.state.oidc_provider_listing = services.oidc_provider_listing
        app.state.saml_provider_listing = services.saml_provider_listing
        app.state.saml_external_providers = services.saml_external_providers
        app.state.external_providers = services.external_providers
        app.state.sign_in_codes = services.sign_in_codes
        app.state.browser_sessions = services.browser_sessions
        app.state.sign_in_forms = services.sign_in_forms
        app.state.signin = services.signin
        app.state.saml_key_pair = services.saml_key_pair
        app.state.saml_protocol = services.saml_protocol
        app.state.saml_providers = services.saml_providers
        app.state.saml_logins = services.saml_logins
        app.state.saml_continuations = services.saml_continuations
        app.state.saml_arrivals = services.saml_arrivals
        app.state.saml_signin = services.saml_signin
        app.state.saml = services.saml
        app.state.bearer_tokens = services.bearer_tokens
        app.state.openid_client = services.openid_client
        app.state.oidc_logins = services.oidc_logins
        app.state.brokering = services.brokering
        validator: TokenValidator = services.bearer_tokens
        app.state.iam_client = iam or validator
        for worker in services.workers:
            await worker.start()
        try:
            await services.directory.ensure_platform_admin()
            async with extensions.running(app, services, settings):
                yield
        finally:
            for worker in reversed(services.workers):
                await worker.stop()
            await close_event_store(services.store)

    app = FastAPI(
        title=settings.name,
        description="Identity and access management - tenants, users, roles, policies and tokens",
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
    install(app, iam)
    web.install_error_handlers(app)
    app.include_router(web.router)
    for router in extensions.routers:
        app.include_router(router)
    return app
