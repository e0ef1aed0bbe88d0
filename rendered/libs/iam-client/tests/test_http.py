"""The security context travels with outgoing requests, across tasks and HTTP hops."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from eaf.context import SecurityContext, current, use
from fastapi import FastAPI, Request

from iam_client import forwarding_client

CONTEXT = SecurityContext(
    tenant_id="acme",
    user_id="u1",
    correlation_id="corr-42",
    causation_id="cmd-7",
    token="the.user.token",
)


def echo_app() -> FastAPI:
    """Echoes the headers, and the context a downstream service restores from them."""
    app = FastAPI()

    @app.get("/echo")
    async def echo(request: Request) -> dict[str, Any]:
        with use(SecurityContext.from_headers(request.headers)):
            restored = current()
            return {
                "headers": dict(request.headers),
                "restored": {
                    "tenant_id": restored.tenant_id,
                    "user_id": restored.user_id,
                    "correlation_id": restored.correlation_id,
                    "causation_id": restored.causation_id,
                },
            }

    return app


def client() -> httpx.AsyncClient:
    return forwarding_client(
        transport=httpx.ASGITransport(app=echo_app()), base_url="http://downstream.test"
    )


async def test_requests_carry_the_token_and_context_headers() -> None:
    async with client() as http:
        with use(CONTEXT):
            echoed = (await http.get("/echo")).json()
    headers = echoed["headers"]
    assert headers["authorization"] == "Bearer the.user.token"
    assert headers["x-correlation-id"] == "corr-42"
    assert headers["x-tenant-id"] == "acme"
    assert headers["x-user-id"] == "u1"
    assert headers["x-causation-id"] == "cmd-7"


async def test_the_context_survives_an_http_hop() -> None:
    async with client() as http:
        with use(CONTEXT):
            echoed = (await http.get("/echo")).json()
    assert echoed["restored"] == {
        "tenant_id": "acme",
        "user_id": "u1",
        "correlation_id": "corr-42",
        "causation_id": "cmd-7",
    }


async def test_the_context_survives_a_task_hop() -> None:
    async with client() as http:

        async def background() -> dict[str, Any]:
            await asyncio.sleep(0)
            response = await http.get("/echo")
            return dict(response.json()["headers"])

        with use(CONTEXT):
            task = asyncio.create_task(background())
        headers = await task  # awaited after the context was left
    assert headers["authorization"] == "Bearer the.user.token"
    assert headers["x-correlation-id"] == "corr-42"


async def test_without_a_context_nothing_is_added() -> None:
    async with client() as http:
        headers = (await http.get("/echo")).json()["headers"]
    assert "authorization" not in headers and "x-correlation-id" not in headers


async def test_explicit_headers_win_and_other_hooks_still_run() -> None:
    seen: list[str] = []

    async def record(request: httpx.Request) -> None:
        seen.append(request.headers["authorization"])

    transport = httpx.ASGITransport(app=echo_app())
    async with forwarding_client(
        transport=transport, base_url="http://d.test", event_hooks={"request": [record]}
    ) as http:
        with use(CONTEXT):
            response = await http.get(
                "/echo", headers={"Authorization": "Bearer service-token"}
            )
    assert response.json()["headers"]["authorization"] == "Bearer service-token"
    assert seen == ["Bearer service-token"]
