from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import APIRouter, FastAPI, HTTPException
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.staticfiles import StaticFiles

from eaf import observability
from eaf.web import PROBLEM_TYPE, install_http_guards

SECRET = "password=hunter2 at db.internal:5432"


class Item(BaseModel):
    name: str


def service() -> FastAPI:
    """Routes on one path spread over several route objects, as routers add them."""
    app = FastAPI()
    observability.install(app, service="svc")
    install_http_guards(app)

    async def invalid(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"invalid": True}, status_code=422)

    app.add_exception_handler(RequestValidationError, invalid)

    @app.get("/items")
    async def list_items() -> list[str]:
        return []

    @app.post("/items")
    async def create_item(item: Item) -> Item:
        return item

    # FastAPI keeps an included router as one route of its own.
    router = APIRouter(prefix="/items")

    @router.delete("/{item_id}")
    async def delete_item(item_id: str) -> None:
        return None

    @app.get("/items/health")
    async def health() -> dict[str, str]:
        return {"status": "UP"}

    @app.get("/items/{item_id}")
    async def get_item(item_id: str) -> dict[str, str]:
        if item_id == "teapot":
            raise HTTPException(418, "short and stout", headers={"X-Brew": "tea"})
        if item_id == "boom":
            raise RuntimeError(SECRET)
        return {"id": item_id}

    async def page(request: Request) -> PlainTextResponse:
        return PlainTextResponse("page")

    app.include_router(router)
    app.router.routes.append(Route("/page", page, methods=["GET"]))
    app.mount("/static", StaticFiles(directory=Path(__file__).parent))
    return app


def client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://svc")


def problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    return body


async def test_a_wrong_method_lists_every_method_of_the_path() -> None:
    async with client(service()) as http:
        on_items = await http.put("/items")
        on_item = await http.post("/items/42")
        on_page = await http.post("/page")
        on_static = await http.post("/static/test_problem_answers.py")

    problem(on_items, 405)
    assert on_items.headers["allow"] == "GET, HEAD, POST"
    assert problem(on_item, 405)["detail"].startswith("POST is not allowed")
    assert on_item.headers["allow"] == "DELETE, GET, HEAD"
    # HEAD is served wherever GET is, by FastAPI's routes and Starlette's alike.
    assert on_page.headers["allow"] == "GET, HEAD"
    # A mounted app answers for itself.
    assert problem(on_static, 405)["detail"].startswith("POST is not allowed")
    assert on_static.headers["allow"] == "GET, HEAD"


async def test_a_concrete_path_lists_only_its_own_methods() -> None:
    # DELETE /items/{item_id} would take /items/health too, but the OpenAPI document
    # matches a concrete path first: that resource serves GET alone.
    async with client(service()) as http:
        response = await http.post("/items/health")

    assert problem(response, 405)["detail"].startswith("POST is not allowed")
    assert response.headers["allow"] == "GET, HEAD"


async def test_head_answers_the_headers_of_the_get_without_its_body() -> None:
    """RFC 9110 §9.3.2: a server that serves GET should serve HEAD (uptime checks and
    caches use it); FastAPI's routes answered 405."""
    async with client(service()) as http:
        got = await http.get("/items/42")
        head = await http.head("/items/42")
        missing = await http.head("/items/teapot")
        posted_only = await http.head("/items/42/nothing")
        wrong = await http.head("/static/nowhere.txt")

    assert (head.status_code, head.content) == (200, b"")
    assert head.headers["content-length"] == got.headers["content-length"] != "0"
    assert head.headers["content-type"] == got.headers["content-type"]
    assert (missing.status_code, missing.headers["x-brew"], missing.content) == (
        418,
        "tea",
        b"",
    )
    assert (posted_only.status_code, posted_only.content) == (404, b"")
    assert wrong.status_code == 404


async def test_head_where_no_get_is_served_is_a_wrong_method() -> None:
    app = FastAPI()
    install_http_guards(app)

    @app.post("/jobs")
    async def start() -> dict[str, str]:
        return {}

    async with client(app) as http:
        head = await http.head("/jobs")
        post = await http.put("/jobs")

    assert (head.status_code, head.headers["allow"], head.content) == (405, "POST", b"")
    assert problem(post, 405)["detail"] == "PUT is not allowed here; see Allow"


async def test_an_unknown_path_is_a_404_problem() -> None:
    async with client(service()) as http:
        response = await http.get("/nowhere")

    assert problem(response, 404)["title"] == "Not Found"


@pytest.mark.parametrize("path", ["/items/", "/items/42/", "/items/a%2F"])
async def test_a_trailing_slash_is_no_redirect_to_the_host_header(path: str) -> None:
    """Starlette answered 307 to ``http://<Host header>/items``: an open redirect behind
    a proxy that passes Host on, and a POST sent again by a client that follows it."""
    async with client(service()) as http:
        got = await http.get(path, headers={"Host": "evil.example"})
        posted = await http.post(path, json={"name": "x"})

    assert problem(got, 404)["detail"] == "Nothing is served at this path."
    assert "location" not in got.headers
    assert problem(posted, 404)["title"] == "Not Found"


async def test_an_http_exception_keeps_its_status_detail_and_headers() -> None:
    async with client(service()) as http:
        response = await http.get("/items/teapot")

    assert problem(response, 418)["detail"] == "short and stout"
    assert response.headers["x-brew"] == "tea"


async def test_an_unhandled_error_is_a_500_problem_that_reveals_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with client(service()) as http:
        response = await http.get(
            "/items/boom", headers={"X-Correlation-Id": "corr-boom"}
        )

    problem(response, 500)
    assert "hunter2" not in response.text
    assert "RuntimeError" not in response.text
    assert response.headers["x-correlation-id"] == "corr-boom"
    [record] = [r for r in caplog.records if r.name == "eaf.web"]
    assert record.exc_info is not None
    assert SECRET in str(record.exc_info[1])


async def test_the_apps_own_handlers_still_answer() -> None:
    async with client(service()) as http:
        invalid = await http.post("/items", json={"name": 7})
        created = await http.post("/items", json={"name": "x"})

    assert (invalid.status_code, invalid.json()) == (422, {"invalid": True})
    assert created.json() == {"name": "x"}


async def test_refusals_carry_the_correlation_id() -> None:
    async with client(service()) as http:
        response = await http.post(
            "/items",
            content=b"{",
            headers={"Content-Type": "application/json", "X-Correlation-Id": "c-1"},
        )

    problem(response, 400)
    assert response.headers["x-correlation-id"] == "c-1"


async def test_the_openapi_document_declares_the_body_problems() -> None:
    async with client(service()) as http:
        document = (await http.get("/openapi.json")).json()

    create = document["paths"]["/items"]["post"]["responses"]
    for status in ("400", "413"):
        schema = create[status]["content"][PROBLEM_TYPE]["schema"]
        assert schema == {"$ref": "#/components/schemas/Problem"}
    assert "413" not in document["paths"]["/items"]["get"]["responses"]
    assert document["components"]["schemas"]["Problem"]["required"] == [
        "title",
        "status",
        "detail",
    ]


def test_installing_twice_is_refused() -> None:
    app = FastAPI()
    install_http_guards(app)

    with pytest.raises(RuntimeError, match="already installed"):
        install_http_guards(app)
