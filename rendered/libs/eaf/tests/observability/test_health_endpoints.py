from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import APIRouter, Depends, FastAPI, HTTPException

from eaf.observability import _health, install


def client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://svc")


def always(answer: bool) -> _health.ReadinessCheck:
    return lambda: answer


async def broker_down() -> bool:
    raise ConnectionError("nats: no servers available")


async def test_health_is_up_with_every_component_up() -> None:
    app = FastAPI()
    install(app, service="user-profile", readiness_checks={"database": always(True)})

    async with client(app) as http:
        response = await http.get("/actuator/health")

    assert response.status_code == 200
    assert response.json() == {
        "status": "UP",
        "service": "user-profile",
        "components": {"database": {"status": "UP"}},
    }


async def test_health_without_checks_is_up() -> None:
    app = FastAPI()
    install(app, service="user-profile")

    async with client(app) as http:
        response = await http.get("/actuator/health")

    assert response.status_code == 200
    assert response.json()["components"] == {}


async def test_a_failing_check_makes_health_and_readiness_down() -> None:
    app = FastAPI()
    checks = {"database": always(True), "broker": broker_down}
    install(app, service="user-profile", readiness_checks=checks)

    async with client(app) as http:
        health = await http.get("/actuator/health")
        readiness = await http.get("/actuator/health/readiness")
        liveness = await http.get("/actuator/health/liveness")

    for response in (health, readiness):
        assert response.status_code == 503
        assert response.json()["status"] == "DOWN"
        assert response.json()["components"] == {
            "database": {"status": "UP"},
            "broker": {"status": "DOWN"},
        }
    assert liveness.status_code == 200
    assert liveness.json() == {"status": "UP"}


async def test_a_check_answering_false_is_down() -> None:
    app = FastAPI()
    install(app, service="svc", readiness_checks={"cache": always(False)})

    async with client(app) as http:
        response = await http.get("/actuator/health/readiness")

    assert response.status_code == 503
    assert response.json()["components"] == {"cache": {"status": "DOWN"}}


async def test_a_check_that_hangs_times_out_as_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_health, "CHECK_TIMEOUT_SECONDS", 0.01)

    async def hangs() -> bool:
        await asyncio.sleep(60)
        return True

    app = FastAPI()
    install(app, service="svc", readiness_checks={"slow": hangs})

    async with client(app) as http:
        response = await http.get("/actuator/health/readiness")

    assert response.status_code == 503


async def test_the_service_health_path_wins_over_a_later_id_route() -> None:
    app = FastAPI()
    install(app, service="user-profile", health_path="/api/v1/user-profiles/health")
    router = APIRouter(prefix="/api/v1/user-profiles")

    @router.get("/{profile_id}")
    async def get_profile(profile_id: str) -> dict[str, str]:
        return {"id": profile_id}

    app.include_router(router)

    async with client(app) as http:
        health = await http.get("/api/v1/user-profiles/health")
        profile = await http.get("/api/v1/user-profiles/abc")

    assert health.status_code == 200
    assert health.json() == {"status": "UP", "service": "user-profile"}
    assert profile.json() == {"id": "abc"}


async def refuse_everyone() -> AsyncIterator[None]:
    raise HTTPException(status_code=401)
    yield


async def test_app_wide_authentication_does_not_guard_the_endpoints() -> None:
    app = FastAPI(dependencies=[Depends(refuse_everyone)])
    install(app, service="svc", health_path="/api/v1/things/health")

    @app.get("/api/v1/things")
    async def things() -> list[str]:
        return []

    async with client(app) as http:
        protected = await http.get("/api/v1/things")
        public = [
            await http.get(path)
            for path in (
                "/actuator/health",
                "/actuator/health/liveness",
                "/actuator/health/readiness",
                "/api/v1/things/health",
                "/metrics",
            )
        ]

    assert protected.status_code == 401
    assert [response.status_code for response in public] == [200] * 5


def test_installing_twice_is_refused() -> None:
    app = FastAPI()
    install(app, service="svc")

    with pytest.raises(RuntimeError, match="already installed"):
        install(app, service="svc")
