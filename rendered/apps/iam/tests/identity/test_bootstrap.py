"""Start-up: the first platform administrator and the signing keys."""

import stat
from pathlib import Path

import pytest
from eaf import context
from eaf.eventsourcing import StoredEvent
from fastapi.testclient import TestClient

from iam.main import create_app
from tests.identity.conftest import PLATFORM_ADMIN, Iam, settings_for


def platform_events(http: TestClient) -> list[StoredEvent]:
    async def read() -> list[StoredEvent]:
        with context.use(context.SecurityContext(tenant_id="platform")):
            events: list[StoredEvent] = await http.app.state.store.read_all()  # type: ignore[attr-defined]
            return events

    return http.portal.call(read)  # type: ignore[union-attr]


def test_the_platform_admin_is_created_once(tmp_path: Path) -> None:
    for password in (PLATFORM_ADMIN[1], "another-password"):
        settings = settings_for(tmp_path, IAM_PLATFORM_ADMIN_PASSWORD=password)
        with TestClient(create_app(settings)) as http:
            iam = Iam(http)
            # a restart with another password leaves the stored one as it is
            assert iam.token("platform", *PLATFORM_ADMIN).status_code == 200
            created = [
                e for e in platform_events(http) if e.event_type == "UserCreated"
            ]
            assert len(created) == 1
            assert created[0].payload["roles"] == ["platform-admin"]


def test_no_platform_admin_without_its_environment(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = settings_for(
        tmp_path, IAM_PLATFORM_ADMIN_USERNAME="", IAM_PLATFORM_ADMIN_PASSWORD=""
    )
    with caplog.at_level("WARNING"), TestClient(create_app(settings)) as http:
        assert Iam(http).token("platform", *PLATFORM_ADMIN).status_code == 400
        assert platform_events(http) == []
    assert "no platform administrator configured" in caplog.text


def test_the_key_ring_is_private_and_kept(tmp_path: Path) -> None:
    kids = []
    for _ in range(2):
        with TestClient(create_app(settings_for(tmp_path))) as http:
            kids.append(http.get("/.well-known/jwks.json").json()["keys"][0]["kid"])

    mode = stat.S_IMODE((tmp_path / "keys.json").stat().st_mode)
    assert mode == 0o600
    assert kids[0] == kids[1]
