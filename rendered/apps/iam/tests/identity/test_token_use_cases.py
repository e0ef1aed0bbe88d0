"""The token use cases on an in-memory event store, where requests can race."""

import asyncio
from pathlib import Path

import pytest
from eaf.context import in_tenant

from iam.application.oauth import ClientCredentials, OAuthError, TokenResponse
from iam.bootstrap import Services, bootstrap
from tests.identity.conftest import ADMIN_PASSWORD, settings_for


@pytest.fixture
async def services(tmp_path: Path) -> Services:
    return await bootstrap(settings_for(tmp_path, DATABASE_URL="sqlite://"))


async def test_a_concurrent_double_refresh_revokes_the_family(
    services: Services,
) -> None:
    tenant = await services.directory.create_tenant(
        name="Acme",
        admin_username="admin",
        admin_email="admin@acme.example",
        admin_password=ADMIN_PASSWORD,
    )
    issued = await services.tokens.password_grant(
        tenant=tenant.id,
        username="admin",
        password=ADMIN_PASSWORD,
        scope=None,
        client=ClientCredentials(),
    )
    assert issued.refresh_token is not None

    def refresh(token: str) -> "asyncio.Future[TokenResponse]":
        return asyncio.ensure_future(
            services.tokens.refresh_grant(
                refresh_token=token, scope=None, client=ClientCredentials()
            )
        )

    results = await asyncio.gather(
        refresh(issued.refresh_token),
        refresh(issued.refresh_token),
        return_exceptions=True,
    )

    winners = [r for r in results if isinstance(r, TokenResponse)]
    losers = [r for r in results if isinstance(r, OAuthError)]
    assert len(winners) == len(losers) == 1
    assert losers[0].error == "invalid_grant"
    assert winners[0].refresh_token is not None
    with pytest.raises(OAuthError, match="revoked"):
        await refresh(winners[0].refresh_token)


async def test_the_authenticated_client_binds_the_refresh_token(
    services: Services,
) -> None:
    tenant = await services.directory.create_tenant(
        name="Acme",
        admin_username="admin",
        admin_email="admin@acme.example",
        admin_password=ADMIN_PASSWORD,
    )
    with in_tenant(tenant.id):
        for name in ("web", "cli"):
            await services.service_account.create(
                client_id=name, client_secret=f"{name}-secret", roles=[]
            )
    issued = await services.tokens.password_grant(
        tenant="Acme",
        username="admin",
        password=ADMIN_PASSWORD,
        scope=None,
        client=ClientCredentials("web", "web-secret"),
    )
    assert issued.refresh_token is not None

    with pytest.raises(OAuthError, match="another client"):
        await services.tokens.refresh_grant(
            refresh_token=issued.refresh_token,
            scope=None,
            client=ClientCredentials("cli", "cli-secret"),
        )
    claims = await services.tokens.authenticate(issued.access_token)
    assert claims.client_id == "web"
    assert claims.tenant_id == tenant.id
