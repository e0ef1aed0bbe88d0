# Generated from spec user-profile by `generate`; edits are merged on re-render.

"""Fixtures: the application on a fresh SQLite file."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from user_profile.infrastructure.config import load_settings
from user_profile.main import create_app


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
