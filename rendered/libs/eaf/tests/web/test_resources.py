"""If-Match and Idempotency-Key: the OpenAPI document states the form of each, and a
request that breaks it is refused before the endpoint runs."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Request

from eaf.web.resources import (
    IdempotencyKey,
    IfMatch,
    IfNoneMatch,
    PutCondition,
    etag,
    sent_path,
)


def service() -> FastAPI:
    app = FastAPI()

    @app.put("/items/{item_id}")
    async def change(item_id: str, if_match: IfMatch) -> dict[str, Any]:
        return {"version": if_match}

    @app.post("/items")
    async def create(idempotency_key: IdempotencyKey) -> dict[str, Any]:
        return {"key": idempotency_key}

    @app.get("/items/{item_id}")
    async def read(item_id: str, if_none_match: IfNoneMatch) -> dict[str, Any]:
        return {"current": etag(3) in if_none_match}

    @app.put("/things/{name}")
    async def put(
        name: str, request: Request, precondition: PutCondition
    ) -> dict[str, Any]:
        return {
            "name": name,
            "location": sent_path(request),
            "version": precondition.version,
            "exists": precondition.exists,
        }

    return app


async def send(method: str, path: str, headers: dict[bytes, bytes]) -> httpx.Response:
    transport = httpx.ASGITransport(service())
    async with httpx.AsyncClient(transport=transport, base_url="http://svc") as http:
        return await http.request(method, path, headers=headers)


def header_schema(path: str, method: str, name: str) -> dict[str, Any]:
    operation = service().openapi()["paths"][path][method]
    [parameter] = [p for p in operation["parameters"] if p["name"] == name]
    assert parameter["in"] == "header"
    assert not parameter["required"]
    schema: dict[str, Any] = parameter["schema"]
    assert schema["type"] == "string"  # a header is absent, never null
    return schema


@pytest.mark.parametrize(
    ("value", "version"),
    [('"3"', 3), ('W/"12"', 12), ("*", None), ('"000000000000000042"', 42)],
)
async def test_if_match_names_a_version_or_any(value: str, version: int | None) -> None:
    response = await send("PUT", "/items/1", {b"If-Match": value.encode()})

    assert response.status_code == 200, response.text
    assert response.json() == {"version": version}
    assert re.fullmatch(
        header_schema("/items/{item_id}", "put", "If-Match")["pattern"], value
    )


@pytest.mark.parametrize(
    "value", ["3", '"three"', '"1", "2"', "", '"1234567890123456789"']
)
async def test_a_malformed_if_match_is_refused(value: str) -> None:
    response = await send("PUT", "/items/1", {b"If-Match": value.encode()})

    assert response.status_code == 422, response.text
    assert not re.fullmatch(
        header_schema("/items/{item_id}", "put", "If-Match")["pattern"], value
    )


@pytest.mark.parametrize("value", ["k", "order-1:retry", "~" * 255])
async def test_an_idempotency_key_is_visible_ascii(value: str) -> None:
    response = await send("POST", "/items", {b"Idempotency-Key": value.encode()})

    assert response.status_code == 200, response.text
    assert response.json() == {"key": value}


@pytest.mark.parametrize("value", ["", "with space", "x" * 256, "caf\u00e9"])
async def test_another_idempotency_key_is_refused(value: str) -> None:
    response = await send("POST", "/items", {b"Idempotency-Key": value.encode()})

    assert response.status_code == 422, response.text
    pattern = header_schema("/items", "post", "Idempotency-Key")["pattern"]
    assert not re.fullmatch(pattern, value)


@pytest.mark.parametrize(
    ("headers", "version", "exists"),
    [
        ({}, None, None),
        ({b"If-Match": b'"4"'}, 4, None),
        ({b"If-Match": b"*"}, None, True),
        ({b"If-None-Match": b"*"}, None, False),
    ],
)
async def test_a_put_knows_whether_it_may_make_or_replace(
    headers: dict[bytes, bytes], version: int | None, exists: bool | None
) -> None:
    response = await send("PUT", "/things/a", headers)

    assert response.status_code == 200, response.text
    assert (response.json()["version"], response.json()["exists"]) == (version, exists)


async def test_a_put_refuses_both_stars_and_another_if_none_match() -> None:
    both = await send("PUT", "/things/a", {b"If-Match": b"*", b"If-None-Match": b"*"})
    assert both.status_code == 412, both.text
    tagged = await send("PUT", "/things/a", {b"If-None-Match": b'"3"'})
    assert tagged.status_code == 422, tagged.text


@pytest.mark.parametrize(
    "sent", ["/things/a%3Fb", "/things/h%23x", "/things/tab%09x", "/things/caf%C3%A9"]
)
async def test_the_location_of_a_put_is_its_path_as_sent(sent: str) -> None:
    response = await send("PUT", sent, {})

    assert response.status_code == 200, response.text
    assert response.json()["location"] == sent


async def test_a_merge_patch_that_lost_a_race_is_a_conflict_unless_if_match_named_it() -> (
    None
):
    from eaf.domain import ConcurrencyError
    from eaf.eventsourcing import PreconditionFailedError
    from eaf.web.resources import after_merge

    async def stale() -> int:
        raise PreconditionFailedError(2, 3)

    async def fine() -> int:
        return 4

    assert await after_merge(fine(), None) == 4
    with pytest.raises(
        ConcurrencyError, match="changed by a concurrent request; retry"
    ):
        await after_merge(stale(), None)
    with pytest.raises(PreconditionFailedError):
        await after_merge(stale(), 2)


@pytest.mark.parametrize(
    ("value", "current"),
    [
        ('"3"', True),
        ('W/"3"', True),  # compared weakly (RFC 9110 13.1.2)
        ('"1", W/"3"', True),
        ("*", True),  # any current version
        ('"2"', False),
        ('W/"2", "4"', False),
    ],
)
async def test_if_none_match_names_a_version_weakly_or_any(
    value: str, current: bool
) -> None:
    answer = await send("GET", "/items/a", {b"If-None-Match": value.encode()})
    assert answer.json() == {"current": current}
