"""require(...) on a real FastAPI app: 401, 403, 200, and the security context."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Annotated, Any

import httpx
import pytest
from eaf.context import SecurityContext, current, current_or_none, use
from eaf.security import KeyRing, TokenIssuer
from fastapi import Depends, FastAPI

from iam_client import (
    AuthenticationError,
    IamClient,
    IamUnavailableError,
    PermissionDeniedError,
    RevocationList,
    TokenValidator,
    User,
    install,
    require,
)

ReadProfiles = Annotated[User, Depends(require("user-profile:read"))]


async def load_profile(profile_id: str) -> dict[str, Any]:
    """A use case: it knows nothing of HTTP, only the current security context."""
    context = current()
    return {"id": profile_id, "tenant": context.tenant_id, "by": context.user_id}


def make_app(client: IamClient) -> FastAPI:
    app = FastAPI()
    install(app, client)

    @app.get("/profiles/{profile_id}")
    async def read(profile_id: str, user: ReadProfiles) -> dict[str, Any]:
        context = current()
        return {
            "user": user.id,
            "profile": await load_profile(profile_id),
            "roles": sorted(context.roles),
            "correlation_id": context.correlation_id,
            "token_forwardable": context.token == user.token,
            "client_ip": context.client_ip,
        }

    @app.get("/sync-profiles")
    def read_sync(user: ReadProfiles) -> dict[str, Any]:
        context = current()
        return {"tenant": context.tenant_id, "user": context.user_id}

    @app.delete("/profiles/{profile_id}")
    async def delete(
        profile_id: str, user: Annotated[User, Depends(require("user-profile:delete"))]
    ) -> None:
        raise AssertionError("never reached")

    @app.post("/licenses")
    async def create(user: Annotated[User, Depends(require())]) -> dict[str, str]:
        client.ensure_permission(user, "billing:create")
        return {}

    @app.post("/decisions")
    async def decide(user: Annotated[User, Depends(require())]) -> dict[str, bool]:
        raise IamUnavailableError("POST /api/v1/authz/check failed: timed out")

    return app


@pytest.fixture
async def http(static_client: IamClient) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=make_app(static_client))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://app.test"
    ) as http:
        yield http


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_the_endpoint_and_its_use_cases_see_the_security_context(
    http: httpx.AsyncClient, token: str
) -> None:
    response = await http.get(
        "/profiles/p7", headers={**bearer(token), "X-Correlation-Id": "corr-1"}
    )
    assert response.status_code == 200
    assert response.json() == {
        "user": "u1",
        "profile": {"id": "p7", "tenant": "acme", "by": "u1"},
        "roles": ["reader"],
        "correlation_id": "corr-1",
        "token_forwardable": True,
        "client_ip": "127.0.0.1",
    }
    assert current_or_none() is None


async def test_sync_endpoints_see_the_context_too(
    http: httpx.AsyncClient, token: str
) -> None:
    response = await http.get("/sync-profiles", headers=bearer(token))
    assert response.json() == {"tenant": "acme", "user": "u1"}


async def test_the_correlation_id_of_the_surrounding_context_is_kept(
    static_client: IamClient, token: str
) -> None:
    transport = httpx.ASGITransport(app=make_app(static_client))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://app.test"
    ) as http:
        with use(SecurityContext(correlation_id="outer")):
            response = await http.get("/profiles/p1", headers=bearer(token))
    assert response.json()["correlation_id"] == "outer"
    async with httpx.AsyncClient(
        transport=transport, base_url="http://app.test"
    ) as http:
        response = await http.get("/profiles/p1", headers=bearer(token))
    assert len(response.json()["correlation_id"]) == 36  # a new uuid


async def test_no_token_is_401_with_a_bare_challenge(http: httpx.AsyncClient) -> None:
    response = await http.get("/profiles/p1")
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json() == {
        "type": "about:blank",
        "title": "Unauthorized",
        "status": 401,
        "detail": "a bearer token is required",
        "errors": [],
    }


@pytest.mark.parametrize(
    "authorization", ["Basic dTpw", "Bearer", "Bearer   ", "token"]
)
async def test_other_schemes_are_no_token(
    http: httpx.AsyncClient, authorization: str
) -> None:
    response = await http.get("/profiles/p1", headers={"Authorization": authorization})
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"


async def test_a_bad_token_is_401_invalid_token(
    http: httpx.AsyncClient, issuer: TokenIssuer
) -> None:
    other = issuer.issue(
        subject="u1", client_id="web", tenant_id="acme", audience="billing-api"
    ).token
    response = await http.get("/profiles/p1", headers=bearer(other))
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == (
        'Bearer error="invalid_token", error_description="wrong audience \'billing-api\'"'
    )
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["detail"] == "the bearer token is not valid"


async def test_a_missing_permission_is_403(http: httpx.AsyncClient, token: str) -> None:
    response = await http.delete("/profiles/p1", headers=bearer(token))
    assert response.status_code == 403
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json() == {
        "type": "about:blank",
        "title": "Forbidden",
        "status": 403,
        "detail": "missing permission user-profile:delete",
        "errors": [],
    }
    assert 'error="insufficient_scope"' in response.headers["www-authenticate"]


async def test_permission_errors_raised_later_are_403_too(
    http: httpx.AsyncClient, token: str
) -> None:
    response = await http.post("/licenses", headers=bearer(token))
    assert response.status_code == 403
    assert response.json()["detail"] == "missing permission billing:create"


async def test_an_explicit_client_needs_no_app_state(
    key_ring: Any, token: str, static_client: IamClient
) -> None:
    app = FastAPI()

    guard = Depends(require(client=static_client))

    @app.get("/me")
    async def me(user: User = guard) -> dict[str, str]:
        return {"tenant": current().tenant_id or ""}

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://app.test"
    ) as http:
        assert (await http.get("/me", headers=bearer(token))).json() == {
            "tenant": "acme"
        }
        unauthorized = await http.get("/me")
    assert unauthorized.status_code == 401  # without install(): FastAPI's own body


def test_typos_in_permissions_fail_at_import_time() -> None:
    with pytest.raises(ValueError, match="invalid permission 'user-profile'"):
        require("user-profile")


def test_permission_denied_error_names_the_permission() -> None:
    assert PermissionDeniedError("a:b").reason == "missing permission a:b"


async def test_openapi_declares_the_bearer_scheme(http: httpx.AsyncClient) -> None:
    document = (await http.get("/openapi.json")).json()
    scheme = document["components"]["securitySchemes"]["HTTPBearer"]
    assert (scheme["type"], scheme["scheme"], scheme["bearerFormat"]) == (
        "http",
        "bearer",
        "JWT",
    )
    operation = document["paths"]["/profiles/{profile_id}"]["get"]
    assert operation["security"] == [{"HTTPBearer": []}]


async def test_an_unreachable_iam_is_503_not_a_crash(
    http: httpx.AsyncClient, token: str
) -> None:
    response = await http.post("/decisions", headers=bearer(token))
    assert response.status_code == 503
    assert response.headers["content-type"] == "application/problem+json"
    assert response.headers["retry-after"] == "5"
    assert "timed out" in response.json()["detail"]


async def test_a_denied_token_is_401_invalid_token(
    key_ring: KeyRing, issuer: TokenIssuer
) -> None:
    revocations = RevocationList()
    client = IamClient(
        issuer="https://iam.test",
        audience="licensing-api",
        jwks=key_ring.jwks(),
        revocations=revocations,
    )
    issued = issuer.issue(
        subject="u1",
        client_id="web",
        tenant_id="acme",
        permissions=["user-profile:read"],
    )
    transport = httpx.ASGITransport(app=make_app(client))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://app.test"
    ) as http:
        assert (await http.get("/profiles/p1", headers=bearer(issued.token))).is_success
        revocations.deny_subject("acme", "u1", issued.claims["iat"])
        response = await http.get("/profiles/p1", headers=bearer(issued.token))
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == (
        'Bearer error="invalid_token",'
        ' error_description="token issued before its subject was disabled"'
    )


def tenant_path_app(client: TokenValidator | None) -> FastAPI:
    app = FastAPI()
    install(app, client)

    @app.get("/tenants/{tenantId}/profiles")
    async def profiles(
        tenantId: str,
        user: Annotated[
            User, Depends(require("user-profile:read", tenant_path="tenantId"))
        ],
    ) -> dict[str, Any]:
        context = current()
        return {
            "tenant": context.tenant_id,
            "user": context.user_id,
            "platform": context.platform,
        }

    @app.post("/tenants/{tenantId}/suspension")
    async def suspend(
        tenantId: str,
        user: Annotated[
            User,
            Depends(
                require("tenants:write", tenant_path="tenantId", platform_only=True)
            ),
        ],
    ) -> dict[str, Any]:
        return {"tenant": current().tenant_id, "user": user.id}

    return app


@pytest.fixture
async def tenants_http(static_client: IamClient) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=tenant_path_app(static_client))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://app.test"
    ) as http:
        yield http


async def test_a_tenant_path_runs_the_request_in_the_caller_s_own_tenant(
    tenants_http: httpx.AsyncClient, token: str
) -> None:
    response = await tenants_http.get("/tenants/acme/profiles", headers=bearer(token))
    assert response.status_code == 200
    assert response.json() == {"tenant": "acme", "user": "u1", "platform": False}


@pytest.mark.parametrize("tenant", ["globex", "ACME", "acme%20", "a.b", "x" * 65])
async def test_another_tenant_s_path_is_404_whatever_it_names(
    tenants_http: httpx.AsyncClient, token: str, tenant: str
) -> None:
    response = await tenants_http.get(
        f"/tenants/{tenant}/profiles", headers=bearer(token)
    )
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["detail"] == "Tenant not found"


async def test_a_platform_operator_acts_in_the_tenant_the_path_names(
    tenants_http: httpx.AsyncClient, issuer: TokenIssuer
) -> None:
    def platform(permissions: list[str]) -> dict[str, str]:
        return bearer(
            issuer.issue(
                subject="operator",
                client_id="console",
                tenant_id=None,
                platform=True,
                permissions=permissions,
            ).token
        )

    allowed = await tenants_http.get(
        "/tenants/globex/profiles", headers=platform(["user-profile:*"])
    )
    assert allowed.status_code == 200
    assert allowed.json() == {"tenant": "globex", "user": "operator", "platform": False}
    refused = await tenants_http.get(
        "/tenants/globex/profiles", headers=platform(["billing:read"])
    )
    assert refused.status_code == 403
    unknown = await tenants_http.get(
        "/tenants/no.such/profiles", headers=platform(["user-profile:*"])
    )
    assert unknown.status_code == 404


async def test_a_tenant_path_still_needs_a_token_and_the_permission(
    tenants_http: httpx.AsyncClient, issuer: TokenIssuer
) -> None:
    assert (await tenants_http.get("/tenants/acme/profiles")).status_code == 401
    other = issuer.issue(
        subject="u2", client_id="web", tenant_id="acme", permissions=["billing:read"]
    ).token
    response = await tenants_http.get("/tenants/acme/profiles", headers=bearer(other))
    assert response.status_code == 403


class OwnTokens:
    """A service's own validator (as the IAM's is): it knows the tokens it issued and the
    tenants that exist."""

    def __init__(self, tokens: dict[str, User], tenants: set[str]) -> None:
        self.tokens = tokens
        self.tenants = tenants

    async def validate(self, token: str, *, check_revocation: bool = False) -> User:
        if token not in self.tokens:
            raise AuthenticationError("unknown token")
        return self.tokens[token]

    def has_permission(
        self, user: User, permission: str, resource: Mapping[str, Any] | None = None
    ) -> bool:
        return permission in user.permissions

    async def knows_tenant(self, tenant_id: str) -> bool:
        return tenant_id in self.tenants


async def test_a_service_s_own_validator_set_at_start_up_authenticates_and_knows_its_tenants(
    issuer: TokenIssuer, static_client: IamClient
) -> None:
    issued = issuer.issue(
        subject="operator",
        client_id="console",
        tenant_id=None,
        platform=True,
        permissions=["user-profile:read"],
    )
    operator = await static_client.validate(issued.token)
    app = tenant_path_app(None)  # the validator is a service built at start-up
    app.state.iam_client = OwnTokens({"op": operator}, {"acme"})
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
        known = await http.get("/tenants/acme/profiles", headers=bearer("op"))
        unknown = await http.get("/tenants/globex/profiles", headers=bearer("op"))
        forged = await http.get("/tenants/acme/profiles", headers=bearer(issued.token))
    assert known.status_code == 200
    assert known.json() == {"tenant": "acme", "user": "operator", "platform": False}
    assert unknown.status_code == 404
    assert unknown.json()["detail"] == "Tenant not found"
    assert forged.status_code == 401  # a well-signed token it did not issue
    assert forged.headers["www-authenticate"].startswith('Bearer error="invalid_token"')


async def test_a_platform_only_endpoint_refuses_every_tenant_s_token(
    tenants_http: httpx.AsyncClient, issuer: TokenIssuer
) -> None:
    """A tenant's roles may hold any permission (its administrator grants them): only a
    platform operator's token passes, in the tenant the path names."""
    admin = issuer.issue(
        subject="u1", client_id="web", tenant_id="acme", permissions=["*"]
    ).token
    operator = issuer.issue(
        subject="operator",
        client_id="console",
        tenant_id=None,
        platform=True,
        permissions=["tenants:write"],
    ).token

    own = await tenants_http.post("/tenants/acme/suspension", headers=bearer(admin))
    other = await tenants_http.post("/tenants/globex/suspension", headers=bearer(admin))
    allowed = await tenants_http.post(
        "/tenants/globex/suspension", headers=bearer(operator)
    )

    assert own.status_code == 403
    assert own.json()["detail"] == "platform operators only"
    assert other.status_code == 404  # as for any path: another tenant never shows
    assert allowed.status_code == 200
    assert allowed.json() == {"tenant": "globex", "user": "operator"}
