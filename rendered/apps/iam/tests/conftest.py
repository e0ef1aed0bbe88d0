# Generated from spec iam by `generate`; edits are merged on re-render.

"""Fixtures: the application on a fresh SQLite file, and bearer tokens signed by a
test key ring (the application validates them against its public keys, as it would IAM's)."""

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from eaf.security import KeyRing, TokenIssuer
from fastapi.testclient import TestClient
from iam_client import IamClient

from iam.infrastructure.config import load_settings
from iam.main import create_app

TenantHeaders = Callable[..., dict[str, str]]
ISSUER = "https://iam.test"
AUDIENCE = "eaf"
PERMISSIONS = [
    "iam-keys:write",
    "iam-policies:read",
    "iam-policies:write",
    "iam-roles:read",
    "iam-roles:write",
    "iam-service-accounts:read",
    "iam-service-accounts:write",
    "iam-tenants:read",
    "iam-tenants:write",
    "iam-users:read",
    "iam-users:write",
]


@pytest.fixture(scope="session")
def key_ring() -> KeyRing:
    return KeyRing.generate()


@pytest.fixture
def as_tenant(key_ring: KeyRing) -> TenantHeaders:
    """Headers of a user of ``tenant`` holding ``permissions`` (all the spec's by default).
    Unless ``plain``, its requests to the endpoints only platform operators call go with an
    operator's token of the same permissions, acting in ``tenant``."""
    issuer = TokenIssuer(key_ring, issuer=ISSUER, default_audience=AUDIENCE)

    def headers(
        tenant: str, permissions: list[str] | None = None, *, plain: bool = False
    ) -> dict[str, str]:
        token = issuer.issue(
            subject=f"user-of-{tenant}",
            client_id="tests",
            tenant_id=tenant,
            permissions=PERMISSIONS if permissions is None else permissions,
        ).token
        TENANT_OF_TOKEN[token] = tenant
        if not plain:
            operator = issuer.issue(
                subject="platform-operator",
                client_id="tests",
                tenant_id=None,
                platform=True,
                permissions=PERMISSIONS if permissions is None else permissions,
            ).token
            OPERATOR_OF[token] = operator
            TENANT_OF_TOKEN[operator] = tenant
        return {"Authorization": f"Bearer {token}"}

    return headers


@pytest.fixture
def as_platform(key_ring: KeyRing) -> Callable[[list[str]], dict[str, str]]:
    """Headers of a platform operator holding ``permissions``: a token of no tenant, which
    may name any tenant in a path."""
    issuer = TokenIssuer(key_ring, issuer=ISSUER, default_audience=AUDIENCE)

    def headers(permissions: list[str]) -> dict[str, str]:
        token = issuer.issue(
            subject="platform-operator",
            client_id="tests",
            tenant_id=None,
            platform=True,
            permissions=permissions,
        ).token
        return {"Authorization": f"Bearer {token}"}

    return headers


TENANT_OF_TOKEN: dict[str, str] = {}
# The endpoints only platform operators call: a tenant user's requests to them carry an
# operator's token of the same permissions instead, acting in the same tenant (as_tenant).
PLATFORM_ONLY = [
    ("PATCH", re.compile("^/api/v1/tenants/[^/]+$")),
]
OPERATOR_OF: dict[str, str] = {}


def fill_tenant(request: httpx.Request) -> None:
    """A path's ``{tenantId}`` is the tenant of the request's bearer token: the tests
    write the paths of the spec, each request names its own tenant."""
    token = request.headers.get("authorization", "").removeprefix("Bearer ")
    if token in OPERATOR_OF and any(
        method == request.method and path.match(request.url.path)
        for method, path in PLATFORM_ONLY
    ):
        request.headers["authorization"] = f"Bearer {OPERATOR_OF[token]}"
    placeholder = b"%7BtenantId%7D"
    if placeholder in request.url.raw_path:
        token = request.headers.get("authorization", "").removeprefix("Bearer ")
        tenant = TENANT_OF_TOKEN.get(token, "default").encode()
        request.url = request.url.copy_with(
            raw_path=request.url.raw_path.replace(placeholder, tenant)
        )


@pytest.fixture
def client(
    tmp_path: Path, key_ring: KeyRing, as_tenant: TenantHeaders
) -> Iterator[TestClient]:
    settings = load_settings(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'test.db'}",
            "BROKER_RELAY": "false",
            "BROKER_CONSUME": "false",
            "SECURITY_KEYS_FILE": str(tmp_path / "keys.json"),
            "SECURITY_SECRETS_FILE": str(tmp_path / "secrets.json"),
        }
    )
    iam = IamClient(jwks=key_ring.jwks(), issuer=ISSUER, audience=AUDIENCE)
    app = create_app(settings, iam=iam)
    with TestClient(app, headers=as_tenant("default")) as test_client:
        test_client.event_hooks = {"request": [fill_tenant], "response": []}
        yield test_client
