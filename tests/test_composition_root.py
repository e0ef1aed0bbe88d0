"""The composition root of a rendered service: ``create_app(**overrides)`` reaches
``bootstrap``, which builds every part the application runs; the lifespan starts the
background workers in order and stops them in reverse."""

from __future__ import annotations

from pathlib import Path

from eaf.security import KeyRing
from fastapi import FastAPI
from fastapi.testclient import TestClient
from iam_client import IamClient
from user_profile.infrastructure.config import load_settings
from user_profile.main import create_app


class Recorder:
    """A worker that notes when it is started and stopped."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name, self.log = name, log
        self.url = "nats://127.0.0.1:1"

    async def start(self) -> None:
        self.log.append(f"start {self.name}")

    async def stop(self) -> None:
        self.log.append(f"stop {self.name}")


def _app(tmp_path: Path, log: list[str], **environ: str) -> FastAPI:
    """The sample service with recording relay, consumers and projectors."""
    settings = load_settings(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'test.db'}",
            "SECURITY_REVOCATION_FEED": "false",
            **environ,
        }
    )
    keys = KeyRing.generate()
    return create_app(
        settings,
        iam=IamClient(jwks=keys.jwks(), issuer="https://iam.test", audience="eaf"),
        relay=Recorder("relay", log),
        consumers=Recorder("consumers", log),
        projectors=Recorder("projectors", log),
    )


def test_overrides_replace_the_workers_bootstrap_builds(tmp_path: Path) -> None:
    log: list[str] = []
    with TestClient(_app(tmp_path, log)) as client:
        assert log == ["start relay", "start consumers", "start projectors"]
        assert client.get("/actuator/health").status_code == 200
    assert log[3:] == ["stop projectors", "stop consumers", "stop relay"]


def test_a_worker_its_setting_turns_off_is_not_started(tmp_path: Path) -> None:
    log: list[str] = []
    with TestClient(_app(tmp_path, log, BROKER_RELAY="false", BROKER_CONSUME="false")):
        assert log == ["start projectors"]
    assert log == ["start projectors", "stop projectors"]
