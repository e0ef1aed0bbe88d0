"""The helpers of the rendered services' API tests (``eaf.web.testing``), the problem
answers routes document (``problem_responses``) and how the document states map keys."""

import itertools
from typing import Annotated

import pytest
from fastapi import APIRouter, Depends, FastAPI
from fastapi.testclient import TestClient
from pydantic import Field

from eaf.web import (
    PROBLEM_TYPE,
    Body,
    TextRule,
    auth_problem_responses,
    component,
    install_http_guards,
    problem_response,
    problem_responses,
)
from eaf.web.testing import asker, errors_of, eventually, next_of, sent


def test_asker_keeps_who_asks_without_the_request_s_precondition_and_key() -> None:
    headers = {
        "Authorization": "Bearer t",
        "X-Tenant-Id": "acme",
        "If-Match": '"3"',
        "if-none-match": "*",
        "Idempotency-Key": "k1",
    }
    assert asker(headers) == {"Authorization": "Bearer t", "X-Tenant-Id": "acme"}
    assert asker(None) is None


def test_next_of_cycles_through_the_values_of_a_key() -> None:
    values = ["a", "b", "c"]
    taken = [next_of("test.cycle", values) for _ in range(4)]
    assert taken == ["a", "b", "c", "a"]
    assert next_of("test.other", values) == "a"


def test_sent_keeps_only_what_the_body_had_at_every_level() -> None:
    answer = {"id": "1", "name": "x", "address": {"city": "Oslo", "zip": None}}
    body = {"name": "x", "address": {"city": "Oslo"}}
    assert sent(answer, body) == body
    assert sent([{"a": 1, "b": 2}], [{"a": 1}]) == [{"a": 1}]
    assert sent([1, 2], [1]) == [1, 2]  # lists of other lengths are compared whole


def test_errors_of_reads_a_422_problem_and_refuses_anything_else() -> None:
    app = FastAPI()

    @app.get("/bad")
    async def bad() -> object:
        return problem_response(422, "broken", errors=[{"field": "x", "message": "m"}])

    @app.get("/good")
    async def good() -> dict[str, str]:
        return {"ok": "yes"}

    with TestClient(app) as client:
        assert errors_of(client.get("/bad")) == [{"field": "x", "message": "m"}]
        with pytest.raises(AssertionError):
            errors_of(client.get("/good"))


def test_eventually_reads_until_done_or_gives_the_last_answer() -> None:
    counter = itertools.count()
    assert eventually(lambda: next(counter), lambda value: value >= 3) == 3
    assert eventually(lambda: 0, lambda value: value == 1, timeout=0.1) == 0


def test_routes_document_their_problem_answers() -> None:
    app = FastAPI()
    router = APIRouter(responses=auth_problem_responses())

    @router.get("/thing", responses=problem_responses(404, 409))
    async def thing() -> dict[str, str]:
        return {}

    app.include_router(router)
    responses = app.openapi()["paths"]["/thing"]["get"]["responses"]
    assert set(responses) >= {"401", "403", "404", "409"}
    assert responses["401"]["description"].startswith("No valid bearer token")
    assert PROBLEM_TYPE in responses["404"]["content"]


def test_the_document_states_the_pattern_of_a_map_s_keys_as_property_names() -> None:
    """pydantic writes a map whose keys have a pattern as ``patternProperties``, which
    lets any other key through; the document states ``propertyNames`` instead."""
    key = Annotated[str, Field(max_length=8), TextRule("^[a-z]+$", pattern="^[a-z]+$")]

    class Tags(Body):
        tags: dict[key, int]

    app = FastAPI()
    install_http_guards(app)

    @app.post("/tags")
    async def tags(body: Tags) -> dict[str, int]:
        return {}

    stated = app.openapi()["components"]["schemas"]["Tags"]["properties"]["tags"]
    assert stated["propertyNames"] == {"maxLength": 8, "pattern": "^[a-z]+$"}
    assert stated["additionalProperties"] == {"type": "integer"}
    assert "patternProperties" not in stated


def test_a_component_dependency_answers_what_the_application_keeps() -> None:
    app = FastAPI()
    app.state.greeter = "hello"

    @app.get("/greeting")
    async def greeting(greeter: Annotated[str, Depends(component("greeter"))]) -> str:
        return greeter

    @app.get("/missing")
    async def missing(other: Annotated[str, Depends(component("other"))]) -> str:
        return other

    with TestClient(app, raise_server_exceptions=True) as client:
        assert client.get("/greeting").json() == "hello"
        app.state.greeter = "hi"  # a test's override, read at each request
        assert client.get("/greeting").json() == "hi"
        with pytest.raises(LookupError, match="no component 'other'"):
            client.get("/missing")
