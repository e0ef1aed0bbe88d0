"""Broken rules answered with the domain's own messages: a body's fields, and the fields of
value objects inside it (in a list, or nested in another value object)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any

import pytest
from fastapi import APIRouter, Depends, FastAPI, Query
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field, ValidationError

from eaf.context import MissingTenantError
from eaf.eventsourcing import NotYetProjected
from eaf.web import Body, DomainErrors, install_domain_problems, known_query


@dataclass(frozen=True)
class Broken:
    field: str
    message: str


def _rule(message: str, ok: Any) -> Any:
    return lambda value: [] if ok(value) else [Broken("", message)]


class OriginBody(BaseModel):
    country: str = Field(pattern="^[A-Z]{2}$")


class PartBody(BaseModel):
    sku: str = Field(min_length=3)
    origin: OriginBody
    codes: list[Annotated[str, Field(max_length=2)]] = []


class OrderBody(BaseModel):
    name: str = Field(min_length=1)
    parts: list[PartBody] = []
    spare: PartBody | None = None
    tags: list[Annotated[str, Field(pattern="^[a-z]+$")]] = []
    labels: dict[str, Annotated[str, Field(max_length=3)]] = {}


def _app() -> FastAPI:
    app = FastAPI()

    @app.post("/orders", name="open_order")
    async def open_order(body: OrderBody) -> dict[str, str]:
        return {"name": body.name}

    install_domain_problems(
        app,
        _errors(
            rules={
                "open_order": {
                    "name": _rule("Name is required", bool),
                    "tags.*": lambda v: [Broken("", f"Tag {v!r} is lower case")],
                    "labels.*": _rule("A label is short", lambda v: len(v) <= 3),
                }
            },
            nested_rules={
                "Part.sku": _rule("SKU is 3 characters or more", lambda v: len(v) >= 3),
                "Part.codes.*": _rule("A code is short", lambda v: len(v) <= 2),
                "Origin.country": _rule("Country is two capitals", lambda v: False),
            },
        ),
    )
    return app


def _errors(**rules: Any) -> DomainErrors:
    """The shop's domain errors, with ``rules`` and ``nested_rules`` as given."""
    return DomainErrors(
        validation=ValueError,
        not_found=LookupError,
        conflict=RuntimeError,
        refused=PermissionError,
        service="shop",
        rules=rules.get("rules", {}),
        nested_rules=rules.get("nested_rules", {}),
        unique_fields={},
    )


def test_the_rules_of_value_objects_in_a_body_answer_with_their_own_messages() -> None:
    bad_part = {"sku": "a", "origin": {"country": "x"}}
    with TestClient(_app()) as client:
        answer = client.post(
            "/orders", json={"name": "", "parts": [bad_part], "spare": bad_part}
        )
    assert answer.status_code == 422
    assert answer.json()["errors"] == [
        {"field": "name", "message": "Name is required"},
        {"field": "parts.0.sku", "message": "SKU is 3 characters or more"},
        {"field": "parts.0.origin.country", "message": "Country is two capitals"},
        {"field": "spare.sku", "message": "SKU is 3 characters or more"},
        {"field": "spare.origin.country", "message": "Country is two capitals"},
    ]


class Reading(Body):
    value: float
    exact: Decimal


def test_a_request_without_its_body_is_told_it_needs_one() -> None:
    with TestClient(_app()) as client:
        answer = client.post("/orders")
    assert answer.status_code == 422
    assert answer.json()["errors"] == [
        {"field": "body", "message": "A JSON object body is required"}
    ]


def test_a_body_refuses_numbers_that_are_not_finite() -> None:
    for value in ("NaN", "inf", "-Infinity", 1e400):
        with pytest.raises(ValidationError) as raised:
            Reading.model_validate({"value": value, "exact": "1"})
        assert raised.value.errors()[0]["type"] == "finite_number"
    with pytest.raises(ValidationError):
        Reading.model_validate({"value": 1.0, "exact": "NaN"})
    assert Reading.model_validate({"value": 1.5, "exact": "2.25"}).value == 1.5


def test_a_read_model_not_caught_up_in_time_answers_503_to_retry() -> None:
    app = FastAPI()

    @app.get("/orders")
    async def orders() -> list[str]:
        raise NotYetProjected("orders: at 3, not yet at 7")

    install_domain_problems(app, _errors())
    response = TestClient(app).get("/orders")
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    assert response.json()["type"] == "urn:problem-type:not-yet-projected"
    assert "7" not in response.json()["detail"]  # positions stay in the log


def test_work_that_needs_a_tenant_answers_403_to_a_caller_without_one() -> None:
    app = FastAPI()

    @app.get("/orders")
    async def orders() -> list[str]:
        raise MissingTenantError("this operation is tenant-scoped")

    install_domain_problems(app, _errors())
    response = TestClient(app).get("/orders")
    assert response.status_code == 403
    assert response.json()["type"] == "urn:problem-type:tenant-required"


def test_the_rules_of_the_items_of_a_list_or_map_answer_with_their_own_messages() -> (
    None
):
    part = {"sku": "abc", "origin": {"country": "FR"}, "codes": ["ok", "long"]}
    body = {"name": "n", "parts": [part], "tags": ["ok", "NO"], "labels": {"k": "long"}}
    with TestClient(_app()) as client:
        answer = client.post("/orders", json=body)
    assert answer.status_code == 422
    assert answer.json()["errors"] == [
        {"field": "parts.0.codes.1", "message": "A code is short"},
        {"field": "tags.1", "message": "Tag 'NO' is lower case"},
        {"field": "labels.k", "message": "A label is short"},
    ]


class LabelledBody(BaseModel):
    labels: dict[Annotated[str, Field(pattern="^[a-z]+$")], str] = {}


def test_a_map_key_breaking_its_rule_answers_with_its_own_message() -> None:
    """The key of a map is checked by the field's ``.[key]`` rule and named by the path
    of its value (``labels.Red``), not by pydantic's ``[key]`` step."""
    app = FastAPI()

    @app.post("/labels", name="label")
    async def label(body: LabelledBody) -> dict[str, str]:
        return body.labels

    rule = _rule("A label key is lower case", str.islower)
    install_domain_problems(app, _errors(rules={"label": {"labels.[key]": rule}}))
    with TestClient(app) as client:
        answer = client.post(
            "/labels", json={"labels": {"Red": "x", "a.B": "y", "ok": "z"}}
        )
    assert answer.status_code == 422
    assert answer.json()["errors"] == [
        {"field": "labels.Red", "message": "A label key is lower case"},
        {"field": 'labels["a.B"]', "message": "A label key is lower case"},
    ]


def test_a_query_parameter_the_route_does_not_take_is_refused() -> None:
    app = FastAPI()
    router = APIRouter(dependencies=[Depends(known_query)])

    @router.get("/orders", name="orders")
    async def orders(status: str | None = None, limit: int = 20) -> list[str]:
        return [status or "any"]

    app.include_router(router)
    install_domain_problems(app, _errors())
    with TestClient(app) as client:
        assert client.get("/orders?status=open&limit=5").json() == ["open"]
        answer = client.get("/orders?state=open&limit=5")
    assert answer.status_code == 422
    assert answer.json()["errors"] == [
        {
            "field": "state",
            "message": "Unknown query parameter (this endpoint takes limit, status)",
        }
    ]


def test_a_query_parameter_of_one_value_given_twice_is_refused() -> None:
    """``?limit=1&limit=100`` took the last one silently; a list parameter (filters by
    several values, several sort columns) takes each."""
    app = FastAPI()
    router = APIRouter(dependencies=[Depends(known_query)])

    @router.get("/orders", name="orders")
    async def orders(
        status: Annotated[list[str] | None, Query()] = None, limit: int = 20
    ) -> list[object]:
        return [status, limit]

    app.include_router(router)
    install_domain_problems(app, _errors())
    with TestClient(app) as client:
        kept = client.get("/orders?status=open&status=paid&limit=5")
        answer = client.get("/orders?limit=1&status=open&limit=100&nope=1")
    assert kept.json() == [["open", "paid"], 5]
    assert answer.status_code == 422
    assert answer.json()["errors"] == [
        {
            "field": "limit",
            "message": "Given more than once: this parameter takes one value",
        },
        {
            "field": "nope",
            "message": "Unknown query parameter (this endpoint takes limit, status)",
        },
    ]
