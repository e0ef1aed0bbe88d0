from __future__ import annotations

import re

import httpx
from fastapi import FastAPI

from eaf.observability import install


def client(app: FastAPI) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://svc")


def items_app() -> FastAPI:
    app = FastAPI()
    install(app, service="items")

    @app.get("/api/v1/items/{item_id}")
    async def get_item(item_id: str) -> dict[str, str]:
        return {"id": item_id}

    @app.get("/api/v1/broken")
    async def broken() -> None:
        raise RuntimeError("boom")

    return app


def sample(metrics: str, name: str, **labels: str) -> float | None:
    """The value of one sample in Prometheus text, whatever the order of its labels."""
    for line in metrics.splitlines():
        match = re.fullmatch(rf"{name}\{{(.*)\}} (\S+)", line)
        if match and dict(re.findall(r'(\w+)="([^"]*)"', match[1])) == labels:
            return float(match[2])
    return None


async def test_requests_are_counted_under_their_route_template() -> None:
    app = items_app()

    async with client(app) as http:
        await http.get("/api/v1/items/41")
        await http.get("/api/v1/items/42")
        metrics = await http.get("/metrics")

    assert metrics.status_code == 200
    assert metrics.headers["content-type"].startswith("text/plain")
    route = "/api/v1/items/{item_id}"
    text = metrics.text
    counted = sample(
        text, "http_requests_total", method="GET", route=route, status="200"
    )
    timed = sample(
        text, "http_request_duration_seconds_count", method="GET", route=route
    )
    assert (counted, timed) == (2.0, 2.0)
    assert "/api/v1/items/41" not in text


async def test_unmatched_paths_share_one_label() -> None:
    app = items_app()

    async with client(app) as http:
        await http.get("/no/such/path/1")
        await http.get("/no/such/path/2")
        metrics = (await http.get("/metrics")).text

    assert (
        sample(
            metrics,
            "http_requests_total",
            method="GET",
            route="<unmatched>",
            status="404",
        )
        == 2.0
    )
    assert "/no/such/path" not in metrics


async def test_a_failing_endpoint_is_counted_as_a_server_error() -> None:
    app = items_app()

    async with client(app) as http:
        response = await http.get("/api/v1/broken")
        metrics = (await http.get("/metrics")).text

    assert response.status_code == 500
    assert sample(
        metrics,
        "http_requests_total",
        method="GET",
        route="/api/v1/broken",
        status="500",
    )


async def test_a_mounted_app_keeps_its_prefix() -> None:
    app = FastAPI()
    install(app, service="outer")
    admin = FastAPI()

    @admin.get("/users/{user_id}")
    async def user(user_id: str) -> dict[str, str]:
        return {"id": user_id}

    app.mount("/admin", admin)

    async with client(app) as http:
        await http.get("/admin/users/7")
        metrics = (await http.get("/metrics")).text

    assert sample(
        metrics,
        "http_requests_total",
        method="GET",
        route="/admin/users/{user_id}",
        status="200",
    )


async def test_each_app_has_its_own_registry() -> None:
    first, second = items_app(), items_app()

    async with client(first) as http:
        await http.get("/api/v1/items/1")
    async with client(second) as http:
        metrics = (await http.get("/metrics")).text

    assert (
        sample(
            metrics,
            "http_requests_total",
            method="GET",
            route="/api/v1/items/{item_id}",
            status="200",
        )
        is None
    )


async def test_process_metrics_are_exported() -> None:
    app = items_app()

    async with client(app) as http:
        metrics = (await http.get("/metrics")).text

    assert "python_info" in metrics
    assert "process_resident_memory_bytes" in metrics
