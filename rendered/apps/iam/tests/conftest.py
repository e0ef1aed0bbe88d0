# Generated from spec iam by `generate`; edits are merged on re-render.

"""Fixtures: the application on a fresh SQLite file."""

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from iam.infrastructure.config import load_settings
from iam.main import create_app

TenantHeaders = Callable[..., dict[str, str]]


@pytest.fixture
def as_tenant() -> TenantHeaders:
    """Headers that put a request in ``tenant``."""

    def headers(tenant: str) -> dict[str, str]:
        return {"X-Tenant-Id": tenant}

    return headers


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = load_settings(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'test.db'}",
            "BROKER_RELAY": "false",
            "BROKER_CONSUME": "false",
        }
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client
