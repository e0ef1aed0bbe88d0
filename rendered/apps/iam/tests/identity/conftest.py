"""Fixtures of the identity API: the app on a fresh SQLite file with a platform admin,
cheap password hashing, and a client that knows the OAuth and admin endpoints."""

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient
from httpx2 import Response

from iam.infrastructure.config import Settings, load_settings
from iam.main import create_app

PLATFORM_ADMIN = ("root", "root-password-1")
ADMIN_PASSWORD = "admin-password-1"
T = TypeVar("T")


def settings_for(tmp_path: Path, **environ: str) -> Settings:
    return load_settings(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'iam.db'}",
            "BROKER_RELAY": "false",
            "BROKER_CONSUME": "false",
            "SECURITY_KEYS_FILE": str(tmp_path / "keys.json"),
            "SECURITY_SECRETS_FILE": str(tmp_path / "secrets.json"),
            "SECURITY_PASSWORD_HASHING_TIME_COST": "1",
            "SECURITY_PASSWORD_HASHING_MEMORY_COST": "8",
            "SECURITY_PASSWORD_HASHING_PARALLELISM": "1",
            "SECURITY_LOGIN_THROTTLE_MAX_FAILURES": "3",
            "IAM_PLATFORM_ADMIN_USERNAME": PLATFORM_ADMIN[0],
            "IAM_PLATFORM_ADMIN_PASSWORD": PLATFORM_ADMIN[1],
            **environ,
        }
    )


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def eventually(probe: Callable[[], T | None], timeout: float = 5.0) -> T:
    """The first truthy answer of ``probe`` (read models follow the store shortly)."""
    deadline = time.monotonic() + timeout
    while True:
        answer = probe()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError("the condition did not hold in time")
        time.sleep(0.05)


class Iam:
    """The test client, with shortcuts for tokens, tenants and users."""

    def __init__(self, http: TestClient) -> None:
        self.http = http

    def token(
        self, tenant: str, username: str, password: str, **extra: str
    ) -> Response:
        return self.http.post(
            "/api/v1/auth/token",
            data={
                "grant_type": "password",
                "tenant": tenant,
                "username": username,
                "password": password,
                **extra,
            },
        )

    def access_token(self, tenant: str, username: str, password: str) -> str:
        response = self.token(tenant, username, password)
        assert response.status_code == 200, response.text
        token: str = response.json()["access_token"]
        return token

    def platform_token(self) -> str:
        return self.access_token("platform", *PLATFORM_ADMIN)

    def create_tenant(self, name: str) -> dict[str, Any]:
        response = self.http.post(
            "/api/v1/tenants",
            json={
                "name": name,
                "adminUsername": "admin",
                "adminEmail": f"admin@{name}.example",
                "adminPassword": ADMIN_PASSWORD,
            },
            headers=bearer(self.platform_token()),
        )
        assert response.status_code == 201, response.text
        body: dict[str, Any] = response.json()
        return body

    def tenant_admin(self, name: str) -> tuple[str, str]:
        """A new tenant's id and its administrator's access token."""
        tenant_id = str(self.create_tenant(name)["tenantId"])
        return tenant_id, self.access_token(tenant_id, "admin", ADMIN_PASSWORD)

    def create_user(
        self, tenant_id: str, token: str, username: str, **fields: Any
    ) -> Response:
        return self.http.post(
            f"/api/v1/tenants/{tenant_id}/users",
            json={
                "username": username,
                "email": f"{username}@example.com",
                "password": "user-password-1",
                **fields,
            },
            headers=bearer(token),
        )


@pytest.fixture
def iam(tmp_path: Path) -> Iterator[Iam]:
    with TestClient(create_app(settings_for(tmp_path))) as http:
        yield Iam(http)
