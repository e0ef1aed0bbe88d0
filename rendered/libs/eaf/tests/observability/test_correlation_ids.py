from __future__ import annotations

import uuid

import httpx
from fastapi import FastAPI

from eaf.context import SecurityContext, current, current_or_none, in_tenant, use
from eaf.observability import install


def client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://svc")


def context_app() -> FastAPI:
    app = FastAPI()
    install(app, service="svc")

    @app.get("/whoami")
    async def whoami() -> dict[str, str | None]:
        context = current_or_none()
        assert context is not None
        return {
            "correlation_id": context.correlation_id,
            "tenant_id": context.tenant_id,
        }

    @app.get("/sync")
    def sync_whoami() -> dict[str, str | None]:
        context = current_or_none()
        return {"correlation_id": context.correlation_id if context else None}

    return app


async def test_the_callers_correlation_id_is_used_and_echoed() -> None:
    async with client(context_app()) as http:
        response = await http.get("/whoami", headers={"X-Correlation-Id": "req-123"})

    assert response.headers["X-Correlation-Id"] == "req-123"
    assert response.json()["correlation_id"] == "req-123"


async def test_a_new_uuid_is_made_when_the_caller_sends_none() -> None:
    async with client(context_app()) as http:
        first = await http.get("/whoami")
        second = await http.get("/whoami")

    correlation_id = first.headers["X-Correlation-Id"]
    assert uuid.UUID(correlation_id).version == 4
    assert first.json()["correlation_id"] == correlation_id
    assert second.headers["X-Correlation-Id"] != correlation_id


async def test_sync_endpoints_see_the_correlation_id_too() -> None:
    async with client(context_app()) as http:
        response = await http.get("/sync", headers={"X-Correlation-Id": "req-9"})

    assert response.json() == {"correlation_id": "req-9"}


async def test_an_unreasonable_header_is_replaced() -> None:
    async with client(context_app()) as http:
        response = await http.get("/whoami", headers={"X-Correlation-Id": "x" * 500})

    assert uuid.UUID(response.headers["X-Correlation-Id"])


async def test_an_existing_context_keeps_its_tenant() -> None:
    app = context_app()

    with use(SecurityContext(tenant_id="tenant-a", user_id="ada")):
        async with client(app) as http:
            response = await http.get("/whoami", headers={"X-Correlation-Id": "c-1"})

    assert response.json() == {"correlation_id": "c-1", "tenant_id": "tenant-a"}


def test_acting_in_a_tenant_keeps_the_actor_and_ends_with_the_block() -> None:
    operator = SecurityContext(user_id="ops", platform=True, correlation_id="c-2")
    with use(operator):
        with in_tenant("tenant-b") as inside:
            assert current() == inside
            assert (inside.tenant_id, inside.user_id, inside.platform) == (
                "tenant-b",
                "ops",
                False,
            )
            assert inside.correlation_id == "c-2"
        assert current() == operator
    with in_tenant("tenant-c"):
        assert current().tenant_id == "tenant-c"
    assert current_or_none() is None


async def test_error_responses_echo_the_id_as_well() -> None:
    async with client(context_app()) as http:
        response = await http.get("/missing", headers={"X-Correlation-Id": "c-404"})

    assert response.status_code == 404
    assert response.headers["X-Correlation-Id"] == "c-404"
