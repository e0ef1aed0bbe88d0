from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Request

from eaf.web import PROBLEM_TYPE, RequestLimits, install_http_guards

LIMIT = 64 * 1024


def limited_app(limits: RequestLimits | None = None) -> tuple[FastAPI, list[Any]]:
    """An app with a JSON and a raw endpoint; what reached them is in the list."""
    app = FastAPI()
    install_http_guards(app, limits)
    seen: list[Any] = []

    @app.post("/documents")
    async def store(request: Request) -> dict[str, int]:
        document = await request.json()
        seen.append(document)
        return {"stored": 1}

    @app.post("/blobs")
    async def upload(request: Request) -> dict[str, int]:
        body = await request.body()
        seen.append(body)
        return {"size": len(body)}

    return app, seen


def client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://svc")


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


async def chunks(total: int, size: int = 8192) -> AsyncIterator[bytes]:
    for start in range(0, total, size):
        yield b" " * min(size, total - start)


def assert_problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["title"] and body["detail"]
    return body


async def test_a_declared_length_over_the_limit_is_refused_unread() -> None:
    app, seen = limited_app(RequestLimits(max_body_bytes=LIMIT))
    async with client(app) as http:
        response = await http.post("/blobs", content=b"x" * (LIMIT + 1))

    body = assert_problem(response, 413)
    assert str(LIMIT) in body["detail"]
    assert seen == []


@pytest.mark.parametrize("path", ["/documents", "/blobs"])
async def test_a_chunked_body_over_the_limit_is_refused(path: str) -> None:
    app, seen = limited_app(RequestLimits(max_body_bytes=LIMIT))
    async with client(app) as http:
        response = await http.post(
            path,
            content=chunks(LIMIT * 4),
            headers={"Content-Type": "application/octet-stream"}
            if path == "/blobs"
            else {"Content-Type": "application/json"},
        )

    assert "content-length" not in response.request.headers
    assert_problem(response, 413)
    assert seen == []


async def test_a_body_at_the_limit_is_served() -> None:
    app, seen = limited_app(RequestLimits(max_body_bytes=LIMIT))
    async with client(app) as http:
        response = await http.post(
            "/blobs",
            content=chunks(LIMIT),
            headers={"Content-Type": "application/octet-stream"},
        )

    assert response.json() == {"size": LIMIT}


async def test_json_nested_to_the_limit_is_served_one_deeper_is_refused() -> None:
    app, seen = limited_app()
    async with client(app) as http:
        at_limit = await http.post(
            "/documents",
            content=nested(32),
            headers={"Content-Type": "application/json"},
        )
        too_deep = await http.post(
            "/documents",
            content=b'{"a": ' * 33 + b"1" + b"}" * 33,
            headers={"Content-Type": "application/json; charset=utf-8"},
        )

    assert at_limit.status_code == 200
    assert "32 levels" in assert_problem(too_deep, 400)["detail"]
    assert len(seen) == 1


async def test_brackets_inside_strings_do_not_count() -> None:
    app, seen = limited_app(RequestLimits(max_json_depth=2))
    document = {"text": '[[[{{{ \\" ]]]', "list": ["}}}", "[[["]}
    async with client(app) as http:
        response = await http.post("/documents", json=document)

    assert response.status_code == 200
    assert seen == [document]


async def test_a_body_nested_100k_deep_is_refused() -> None:
    app, seen = limited_app()
    async with client(app) as http:
        arrays = await http.post(
            "/documents",
            content=nested(100_000),
            headers={"Content-Type": "application/json"},
        )
        unclosed = await http.post(
            "/documents",
            content=b'{"a":' * 100_000,
            headers={"Content-Type": "application/problem+json"},
        )

    assert_problem(arrays, 400)
    assert_problem(unclosed, 400)
    assert seen == []


async def test_a_body_without_content_type_is_checked_as_json() -> None:
    # FastAPI parses a body without a content type as JSON, so it is bounded the same.
    app, seen = limited_app()
    async with client(app) as http:
        response = await http.post("/documents", content=nested(1000))

    assert response.request.headers.get("content-type") is None
    assert_problem(response, 400)


@pytest.mark.parametrize(
    "body",
    [
        b"{",
        b'{"a": 1,}',
        b'{"a": "unterminated',
        b"[1, 2",
        b"\xff\xfe{",
        # Python's reader takes these; JSON has no such values
        b'{"a": NaN}',
        b'{"a": -Infinity}',
    ],
)
async def test_malformed_json_is_a_400_problem(body: bytes) -> None:
    app, seen = limited_app()
    async with client(app) as http:
        response = await http.post(
            "/documents", content=body, headers={"Content-Type": "application/json"}
        )

    assert "not valid JSON" in assert_problem(response, 400)["detail"]
    assert seen == []


async def test_a_well_formed_body_reaches_the_app_unchanged() -> None:
    app, seen = limited_app()
    document = {"name": "Ada", "tags": ["a", {"b": [1, 2.5, None, True]}]}
    async with client(app) as http:
        response = await http.post(
            "/documents",
            content=json.dumps(document).encode(),
            headers={"Content-Type": "application/json"},
        )
        bare = await http.post(
            "/blobs", content=b"not json", headers={"Content-Type": "text/plain"}
        )

    assert response.status_code == 200
    assert bare.json() == {"size": 8}
    assert seen == [document, b"not json"]


@pytest.mark.parametrize(
    "path", ["/documents/%00", "/documents/a%00b", "/%00/documents"]
)
async def test_a_path_holding_a_nul_character_names_nothing(path: str) -> None:
    """PostgreSQL's text refuses a NUL character: an id holding one reached the store
    and failed there (500) rather than being found by no one (404)."""
    app, seen = limited_app()

    @app.get("/documents/{name}")
    async def document(name: str) -> dict[str, str]:
        seen.append(name)
        return {"name": name}

    async with client(app) as http:
        answer = await http.get(path)
    body = assert_problem(answer, 404)
    assert body["detail"] == (
        "The path holds a NUL character (\\u0000): no stored text may hold one"
    )
    assert seen == []


async def test_query_parameters_holding_a_nul_character_are_each_refused() -> None:
    app, seen = limited_app()

    @app.get("/documents")
    async def documents(request: Request) -> dict[str, str]:
        seen.append(dict(request.query_params))
        return {}

    async with client(app) as http:
        answer = await http.get(
            "/documents?title=a%00&limit=5&%00=x&ok=%2500", headers={}
        )
        fine = await http.get("/documents?ok=%2500&name=%E2%80%8B")
    body = assert_problem(answer, 422)
    message = (
        "The parameter holds a NUL character (\\u0000): no stored text may hold one"
    )
    assert body["errors"] == [
        {"field": "title", "message": message},
        {"field": "\\u0000", "message": message},
    ]
    assert (body["field"], body["detail"]) == ("title", message)
    assert fine.status_code == 200
    assert seen == [{"ok": "%00", "name": "\u200b"}]


async def test_a_query_or_path_holding_bytes_that_are_no_text_is_refused() -> None:
    """A lone surrogate (``%ED%A0%80``) or a byte no UTF-8 text holds (``%FF``) was read
    as U+FFFD by the server, so that a filter found the rows holding that character:
    each parameter holding one is refused (422), and a path holding one names nothing."""
    app, seen = limited_app()

    @app.get("/documents")
    async def documents(request: Request) -> dict[str, str]:
        seen.append(dict(request.query_params))
        return {}

    @app.get("/documents/{name}")
    async def document(name: str) -> dict[str, str]:
        seen.append({"path": name})
        return {}

    async with client(app) as http:
        answer = await http.get(
            "/documents?city=%ED%A0%80&limit=5&%FF=x&ok=%C3%A9+%E2%80%8B"
        )
        fine = await http.get("/documents?city=%C3%A9+%EF%BF%BD")
        path = await http.get("/documents/%ED%A0%80")
        named = await http.get("/documents/%C3%A9")
    body = assert_problem(answer, 422)
    message = (
        "The parameter holds bytes that are no UTF-8 text (a lone surrogate, such as"
        " %ED%A0%80, or %FF): no text is written so"
    )
    assert body["errors"] == [
        {"field": "city", "message": message},
        {"field": "\ufffd", "message": message},
    ]
    assert fine.status_code == 200, fine.text
    assert assert_problem(path, 404)["detail"] == (
        "The path holds bytes that are no UTF-8 text (a lone surrogate, such as"
        " %ED%A0%80, or %FF): no text is written so"
    )
    assert named.status_code == 200, named.text
    assert seen == [{"city": "\u00e9 \ufffd"}, {"path": "\u00e9"}]
