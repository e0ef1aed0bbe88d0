# Generated from spec configuration by `generate`; edits are merged on re-render.

"""Fixtures: the application on a fresh SQLite file, and bearer tokens signed by a
test key ring (the application validates them against its public keys, as it would IAM's)."""

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from eaf.security import KeyRing, TokenIssuer
from fastapi.testclient import TestClient
from iam_client import IamClient

from configuration.infrastructure.config import load_settings
from configuration.main import create_app

TenantHeaders = Callable[..., dict[str, str]]
ISSUER = "https://iam.test"
AUDIENCE = "eaf"
PERMISSIONS = ["configuration:read", "configuration:write"]


@pytest.fixture(scope="session")
def key_ring() -> KeyRing:
    return KeyRing.generate()


@pytest.fixture
def as_tenant(key_ring: KeyRing) -> TenantHeaders:
    """Headers of a user of ``tenant`` holding ``permissions`` (all the spec's by default)."""
    issuer = TokenIssuer(key_ring, issuer=ISSUER, default_audience=AUDIENCE)

    def headers(tenant: str, permissions: list[str] | None = None) -> dict[str, str]:
        token = issuer.issue(
            subject=f"user-of-{tenant}",
            client_id="tests",
            tenant_id=tenant,
            permissions=PERMISSIONS if permissions is None else permissions,
        ).token
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


@pytest.fixture
def client(
    tmp_path: Path, key_ring: KeyRing, as_tenant: TenantHeaders
) -> Iterator[TestClient]:
    settings = load_settings(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'test.db'}",
            "BROKER_RELAY": "false",
            "BROKER_CONSUME": "false",
            "CONFIGURATION_KEYS_FILE": str(tmp_path / "keys.json"),
        }
    )
    iam = IamClient(jwks=key_ring.jwks(), issuer=ISSUER, audience=AUDIENCE)
    app = create_app(settings, iam=iam)
    with TestClient(app, headers=as_tenant("default")) as test_client:
        yield test_client
