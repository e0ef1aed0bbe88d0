"""Request field types and schemas that say, and take, only the JSON forms a client reads
in the OpenAPI document."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from eaf.web import Body as RequestBody
from eaf.web import (
    DecimalForm,
    IntegerForm,
    JsonBool,
    JsonData,
    JsonDate,
    JsonDateTime,
    JsonDecimal,
    JsonFloat,
    JsonInt,
    PlainDecimal,
    decimal_schema,
)


class Body(BaseModel):
    day: JsonDate
    at: JsonDateTime
    flag: JsonBool
    price: JsonDecimal = Field(
        ge=Decimal("0"), decimal_places=2, json_schema_extra=decimal_schema(2)
    )
    prices: list[JsonDecimal] | None = Field(
        default=None, json_schema_extra=decimal_schema(0)
    )
    fee: JsonDecimal = Field(
        default=Decimal("0.000000000000000001"), json_schema_extra=decimal_schema(None)
    )
    fees: list[JsonDecimal] = Field(
        default=[Decimal("1E+2")], json_schema_extra=decimal_schema(None)
    )
    count: JsonInt = 0
    ratio: JsonFloat = 0.5
    seats: Annotated[int | None, IntegerForm] = Field(default=None, ge=1, le=9)
    share: Annotated[PlainDecimal | None, DecimalForm] = Field(
        default=None, ge=0, le=1, json_schema_extra=decimal_schema(2)
    )


VALID = {
    "day": "2026-01-31",
    "at": "2026-01-31T10:00:00Z",
    "flag": True,
    "price": "12.50",
}


def test_the_json_forms_are_read() -> None:
    body = Body.model_validate({**VALID, "prices": [3, "4"]})

    assert body.day == date(2026, 1, 31)
    assert body.price == Decimal("12.50")
    assert body.prices == [Decimal(3), Decimal(4)]


def test_numbers_are_read_as_json_numbers() -> None:
    body = Body.model_validate({**VALID, "count": 12.0, "ratio": 1, "price": 100.5})

    assert body.count == 12 and isinstance(body.count, int)
    assert body.ratio == 1.0 and isinstance(body.ratio, float)
    assert body.price == Decimal("100.5")


def test_a_decimal_is_answered_in_plain_notation() -> None:
    body = Body.model_validate({**VALID, "price": "0", "prices": [1e2]})

    answered = json.loads(body.model_dump_json())

    assert answered["fee"] == "0.000000000000000001"
    assert answered["fees"] == ["100"]
    assert answered["prices"] == ["100.0"]


def test_a_datetime_is_read_as_the_instant_in_utc() -> None:
    body = Body.model_validate({**VALID, "at": "2026-02-01T02:00:00+05:00"})

    assert body.at == datetime(2026, 1, 31, 21, tzinfo=UTC)
    assert body.at.tzinfo is UTC
    assert body.at.date() == date(2026, 1, 31)


@pytest.mark.parametrize(
    "at", ["9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00+01:00"]
)
def test_an_instant_beyond_the_years_a_datetime_holds_is_refused(at: str) -> None:
    with pytest.raises(ValidationError) as raised:
        Body.model_validate({**VALID, "at": at})

    assert [(e["loc"], e["msg"]) for e in raised.value.errors()] == [
        (("at",), "Input should be an instant between the years 1 and 9999 in UTC")
    ]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("day", 0),
        ("day", 86400.0),
        ("at", 0),
        ("flag", 1),
        ("flag", "yes"),
        ("flag", "true"),
        ("day", "4102444800"),
        ("day", "20260131"),
        ("at", "4102444800"),
        ("at", "2026-01-31"),
        ("price", "1e2"),
        ("price", "1E+2"),
        ("price", " 12"),
        ("price", True),
        ("fee", "1e-30"),
        ("count", "12"),
        ("count", True),
        ("ratio", "0.5"),
        ("ratio", False),
        ("seats", "3"),
        ("seats", 10),
        ("share", "1e-1"),
        ("share", 2),
    ],
)
def test_other_forms_pydantic_would_read_are_refused(field: str, value: object) -> None:
    with pytest.raises(ValidationError) as raised:
        Body.model_validate({**VALID, field: value})

    assert [error["loc"] for error in raised.value.errors()] == [(field,)]


def test_the_decimal_schema_states_places_for_both_forms() -> None:
    properties = Body.model_json_schema()["properties"]

    number, text = properties["price"]["anyOf"]
    assert number == {"type": "number", "minimum": 0.0, "multipleOf": 0.01}
    assert text == {"type": "string", "pattern": r"^-?[0-9]+(?:\.[0-9]{1,2}0*)?$"}
    items = properties["prices"]["anyOf"][0]["items"]["anyOf"]
    assert items == [
        {"type": "number", "multipleOf": 1},
        {"type": "string", "pattern": r"^-?[0-9]+(?:\.0+)?$"},
    ]
    # the text forms the service takes, as it judges the value (12.500 is 12.5), and no more
    two, none = re.compile(text["pattern"]), re.compile(items[1]["pattern"])
    places = TypeAdapter(Annotated[JsonDecimal, Field(decimal_places=2)])
    for taken in ("12", "12.5", "12.50", "12.500", "-0.01"):
        assert two.fullmatch(taken) and places.validate_python(taken) is not None, taken
    with pytest.raises(ValidationError):
        places.validate_python("12.501")
    assert not two.fullmatch("12.501") and not two.fullmatch("1e2")
    assert none.fullmatch("12.000") and not none.fullmatch("12.5")


def test_a_decimal_default_is_stated_in_plain_notation() -> None:
    properties = Body.model_json_schema()["properties"]

    assert properties["fee"]["default"] == "0.000000000000000001"
    assert properties["fees"]["default"] == ["100"]


def test_the_schema_of_numbers_is_pydantics() -> None:
    properties = Body.model_json_schema()["properties"]

    assert properties["count"] == {"type": "integer", "title": "Count", "default": 0}
    assert properties["ratio"] == {"type": "number", "title": "Ratio", "default": 0.5}


def test_an_optional_number_states_its_bounds_as_the_plain_type_does() -> None:
    properties = Body.model_json_schema()["properties"]

    assert properties["seats"]["anyOf"] == [
        {"type": "integer", "minimum": 1, "maximum": 9},
        {"type": "null"},
    ]
    number = properties["share"]["anyOf"][0]
    assert (number["minimum"], number["maximum"]) == (0, 1)
    assert Body.model_validate({**VALID, "seats": None}).seats is None


def test_the_schema_dates_stay_iso_text() -> None:
    properties = Body.model_json_schema()["properties"]

    assert properties["day"] == {"type": "string", "format": "date", "title": "Day"}
    assert properties["flag"] == {"type": "boolean", "title": "Flag"}


class Rule(BaseModel):
    data: JsonData
    note: JsonData | None = None


@pytest.mark.parametrize(
    "value", ["text", 0, -2.5, True, [], {}, [1, {"a": None, "b": [False]}], {"": {}}]
)
def test_any_json_value_is_taken_as_given(value: object) -> None:
    assert Rule.model_validate({"data": value}).data == value


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "Input should be a JSON value, not null"),
        (float("nan"), "Input should be a finite number (JSON has no NaN)"),
        ([1, {"x": float("inf")}], "Input should be a finite number (JSON has no NaN)"),
    ],
)
def test_null_and_numbers_json_has_not_are_refused(value: object, message: str) -> None:
    with pytest.raises(ValidationError) as raised:
        Rule.model_validate({"data": value})

    assert [e["msg"] for e in raised.value.errors()] == [message]
    assert Rule.model_validate({"data": 1, "note": None}).note is None


def test_a_json_value_is_documented_as_anything_but_null() -> None:
    properties = Rule.model_json_schema()["properties"]

    assert properties["data"] == {"not": {"type": "null"}}
    assert {"type": "null"} in properties["note"]["anyOf"]


class StrictRule(RequestBody):
    data: JsonData
    note: JsonData | None = None


@pytest.mark.parametrize(
    "value", [float("inf"), [1, float("nan")], {"a": {"b": -float("inf")}}]
)
def test_a_json_value_that_is_not_finite_is_refused_at_its_field(value: object) -> None:
    """Not at a branch of pydantic's JSON union (``data.float``, ``data.list.1.float``),
    which is no place in the body."""
    with pytest.raises(ValidationError) as raised:
        StrictRule.model_validate({"data": 1, "note": value})
    assert [(e["loc"], e["type"]) for e in raised.value.errors()] == [
        (("note",), "finite_number")
    ]


class Exact(RequestBody):
    amount: JsonDecimal = Field(le=Decimal("10000"), decimal_places=2)
    weight: JsonFloat
    count: JsonInt
    data: JsonData


def test_an_exact_json_route_reads_a_decimal_as_written_not_through_a_float() -> None:
    from fastapi import APIRouter, FastAPI
    from fastapi.testclient import TestClient

    from eaf.web import ExactJsonRoute

    router = APIRouter(route_class=ExactJsonRoute)

    @router.post("/exact")
    async def exact(body: Exact) -> list[object]:
        return [str(body.amount), body.weight, body.count, body.data]

    app = FastAPI()
    app.include_router(router)
    sent = '{{"amount": {}, "weight": 1.5, "count": 12.0, "data": {{"x": [0.1, 2]}}}}'
    json_type = {"Content-Type": "application/json"}
    with TestClient(app) as client:
        kept, over, fine = (
            client.post("/exact", content=sent.format(amount), headers=json_type)
            for amount in ("9999.99", "10000.000000000000000001", "1.0000000000000001")
        )
    assert kept.json() == ["9999.99", 1.5, 12, {"x": [0.1, 2]}]
    # read through a float, both were rounded to a value the rules take
    assert [(e["loc"][-1], e["type"]) for e in over.json()["detail"]] == [
        ("amount", "decimal_max_places")
    ]
    assert [(e["loc"][-1], e["type"]) for e in fine.json()["detail"]] == [
        ("amount", "decimal_max_places")
    ]


@pytest.mark.parametrize(
    "number",
    ["1e9999999", "-1E1001", "1e-99999999", "0.1e-1000", "1e9223372036854775807"],
)
def test_a_number_too_large_or_too_small_is_answered_without_being_written_out(
    number: str,
) -> None:
    """``1e9999999`` is 9 bytes of a body and ten million digits once written out: a
    service answers 422 at once, naming it, and does not try."""
    sent = f'{{"amount": 1, "weight": {number}, "count": 1, "data": null}}'
    answer = _posted_exactly(sent, "application/json")
    assert answer.status_code == 422
    assert answer.json()["errors"] == [
        {
            "field": "body",
            "message": f"The body holds a number out of range: {number} (a number's"
            " size is from 1e-1000 to 1e1000, or 0)",
        }
    ]


FLOAT_RANGE = (
    "Input should be a number a float holds: from about 5e-324 to 1.8e308 in size, or 0"
)


@pytest.mark.parametrize(
    ("weight", "data", "refused"),
    [
        ("1e-400", "1", ["weight"]),  # read as 0.0, it was stored as another number
        ("1", '[1, {"x": -1e-400}]', ["data"]),
        ("1e400", "1e309", ["weight", "data"]),  # was "...finite (JSON has no NaN)"
        ("-1.8e308", '{"x": 2e-324}', ["weight", "data"]),
    ],
)
def test_a_number_no_float_holds_is_refused_not_stored_as_another(
    weight: str, data: str, refused: list[str]
) -> None:
    """A float field and a ``json`` value keep a number with a fraction or an exponent
    as the nearest float (I-JSON); one that has none near is refused, naming its field."""
    sent = f'{{"amount": 1, "weight": {weight}, "count": 1, "data": {data}}}'
    answer = _posted_exactly(sent, "application/json")
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"] == [
        {"field": field, "message": FLOAT_RANGE} for field in refused
    ]
    kept = _posted_exactly(
        '{"amount": 1, "weight": 1.10, "count": 1, "data": [1.10, 1E2, 4.9e-324]}',
        "application/json",
    )
    assert kept.status_code == 200, kept.text


SURROGATE = " (a lone surrogate, such as \\ud800)"
NUL = ": no stored text may hold one"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (r'"\ud800"', "text that is not Unicode at data" + SURROGATE),
        (r'{"k\ud83d": 1}', "text that is not Unicode at a key of data" + SURROGATE),
        (
            r'{"k": ["ok", "\udfff"]}',
            "text that is not Unicode at data.k.1" + SURROGATE,
        ),
        (r'{"a.b": "\ud800"}', 'text that is not Unicode at data["a.b"]' + SURROGATE),
        # the first, in the body's order
        (
            r'["\ud800", {"k\ud83d": 1}]',
            "text that is not Unicode at data.0" + SURROGATE,
        ),
        # the surrogate written raw, as UTF-8 would
        (b'"\xed\xa0\x80"', "text that is not Unicode at data" + SURROGATE),
        (r'"a\u0000b"', "a NUL character (\\u0000) at data" + NUL),
        (
            r'{"k": [{"\u0000": 1}]}',
            "a NUL character (\\u0000) at a key of data.k.0" + NUL,
        ),
        (r'["ok", "\u0000", "\ud800"]', "a NUL character (\\u0000) at data.1" + NUL),
    ],
)
def test_text_no_store_can_keep_is_refused_before_it_is_stored(
    data: str | bytes, message: str
) -> None:
    """A lone surrogate (``"\\ud800"``) is valid JSON but no UTF-8 text: taken, it was
    stored and then broke every answer that showed it (500). A NUL character is valid
    Unicode, but PostgreSQL's text refuses it: taken, the append failed (500) there and
    succeeded on SQLite, so a service answered by its database."""
    head = b'{"amount": 1, "weight": 1.5, "count": 1, "data": '
    sent = head + (data if isinstance(data, bytes) else data.encode()) + b"}"
    answer = _posted_exactly(sent, "application/json")
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"] == [
        {"field": "body", "message": f"The body holds {message}"}
    ]


@pytest.mark.parametrize(
    ("data", "key"),
    [
        (r'{"k": 1, "k": 2}', '"k"'),
        (r'[{"a": 1}, {"b": {"x": 1, "y": 2, "x": 3}}]', '"x"'),
        (r'{"\ud800": 1, "\ud800": 2}', '"\\ud800"'),
    ],
)
def test_a_key_given_twice_in_one_object_is_refused(data: str, key: str) -> None:
    """Which of the two counts is each parser's choice: a proxy or a signature check that
    kept the first would see another body than the service, which kept the last."""
    head = b'{"amount": 1, "weight": 1.5, "count": 1, "data": '
    answer = _posted_exactly(head + data.encode() + b"}", "application/json")
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"] == [
        {"field": "body", "message": f"The body holds a key twice in one object: {key}"}
    ]
    top = _posted_exactly(
        b'{"amount": 1, "amount": 2, "weight": 1.5}', "application/json"
    )
    assert top.json()["errors"] == [
        {
            "field": "body",
            "message": 'The body holds a key twice in one object: "amount"',
        }
    ]


@pytest.mark.parametrize(
    ("content_type", "status"),
    [
        ("text/plain", 415),
        ("application/x-www-form-urlencoded", 415),
        ("application/json; charset=utf-8", 200),
        ("application/merge-patch+json", 200),
        # no type at all: what a browser's cross-site request may send unasked
        (None, 415),
    ],
)
def test_a_body_of_another_type_is_told_to_be_sent_as_json(
    content_type: str | None, status: int
) -> None:
    sent = '{"amount": 1, "weight": 1.5, "count": 1, "data": {}}'
    answer = _posted_exactly(sent, content_type)
    assert answer.status_code == status, answer.text
    if status == 415:
        assert answer.json()["detail"] == (
            f"The body is read as JSON, not {content_type or 'a body without a type'}:"
            " send it with Content-Type: application/json"
        )


def test_an_integer_of_more_than_a_thousand_digits_is_out_of_range_and_zero_never() -> (
    None
):
    from eaf.web._exact import exact_integer, exact_number

    with pytest.raises(json.JSONDecodeError, match="number out of range: 1111"):
        exact_integer("1" * 1001)
    assert exact_integer("-" + "9" * 1000) == -int("9" * 1000)
    assert exact_number("0e5000") == 0


def _posted_exactly(body: str | bytes, content_type: str | None) -> Any:
    """The answer to ``body`` posted as ``content_type`` to a route of an
    ``ExactJsonRoute`` taking :class:`Exact`, problems answered as a service's are."""
    from fastapi import APIRouter, FastAPI
    from fastapi.testclient import TestClient

    from eaf.web import DomainErrors, ExactJsonRoute, install_domain_problems

    router = APIRouter(route_class=ExactJsonRoute)

    @router.post("/exact")
    async def exact(body: Exact) -> list[object]:
        return [str(body.amount)]

    app = FastAPI()
    app.include_router(router)
    errors = DomainErrors(
        validation=ValueError,
        not_found=LookupError,
        conflict=RuntimeError,
        refused=PermissionError,
        service="shop",
        rules={},
        nested_rules={},
        unique_fields={},
    )
    install_domain_problems(app, errors)
    with TestClient(app) as client:
        typed = {"Content-Type": content_type} if content_type else {}
        return client.post("/exact", content=body, headers=typed)


def test_a_decimal_zero_is_written_without_a_sign() -> None:
    """``-0.00`` keeps a ``min: 0`` (it is zero), and is written as the zero it is, not as
    a price of minus nothing; any other value keeps its sign and its places."""
    written = TypeAdapter(JsonDecimal)
    assert written.dump_python(Decimal("-0.00"), mode="json") == "0.00"
    assert written.dump_python(written.validate_python("-0"), mode="json") == "0"
    assert written.dump_python(Decimal("-0.10"), mode="json") == "-0.10"
    assert written.dump_python(Decimal("1E-18"), mode="json") == "0.000000000000000001"
