# Created by `generate` from spec iam; this file is yours: it is never re-rendered.
"""Hand-written additions to the application.

``routers`` are served after the generated routes (put their modules in
``infrastructure``, where the layer rules apply); ``running`` runs inside the application's
lifespan, after the generated wiring (``services``) and before the first request, and
its code after ``yield`` at shutdown. The services behind the routers are the spec's
``components``, built by ``bootstrap`` from the parts, settings and values it names."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

from iam.bootstrap import Services
from iam.infrastructure import (
    api_ldap,
    api_oidc_providers,
    api_saml_providers,
    api_tokens,
    oidc_broker_http,
    oidc_http,
    saml_http,
    saml_signin_http,
)
from iam.infrastructure.config import Settings

routers: list[APIRouter] = [
    api_tokens.router,
    api_saml_providers.router,
    saml_http.router,
    saml_signin_http.router,
    api_ldap.router,
    oidc_http.router,
    api_oidc_providers.router,
    oidc_broker_http.router,
]


@asynccontextmanager
async def running(
    app: FastAPI, services: Services, settings: Settings
) -> AsyncIterator[None]:
    """After the composition root (``bootstrap``, which wires the services behind the
    routers) and the components' start (the platform administrator of the settings): a
    SAML sign-in continues in the browser."""
    app.state.saml_completion = saml_signin_http.continue_in_browser
    yield
