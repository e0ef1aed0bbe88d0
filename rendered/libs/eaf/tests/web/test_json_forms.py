"""Request field types and schemas that say, and take, only the JSON forms a client reads
in the OpenAPI document."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from pydantic import BaseModel, Field, ValidationError

from eaf.web import JsonBool, JsonDate, JsonDateTime, decimal_schema


class Body(BaseModel):
    day: JsonDate
    at: JsonDateTime
    flag: JsonBool
    price: Decimal = Field(
        ge=Decimal("0"), decimal_places=2, json_schema_extra=decimal_schema(2)
    )
    prices: list[Decimal] | None = Field(
        default=None, json_schema_extra=decimal_schema(0)
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


def test_a_datetime_is_read_as_the_instant_in_utc() -> None:
    body = Body.model_validate({**VALID, "at": "2026-02-01T02:00:00+05:00"})

    assert body.at == datetime(2026, 1, 31, 21, tzinfo=UTC)
    assert body.at.tzinfo is UTC
    assert body.at.date() == date(2026, 1, 31)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("day", 0),
        ("day", 86400.0),
        ("at", 0),
        ("flag", 1),
        ("flag", "yes"),
        ("flag", "true"),
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
    assert text == {"type": "string", "pattern": r"^-?[0-9]+(?:\.[0-9]{1,2})?$"}
    items = properties["prices"]["anyOf"][0]["items"]["anyOf"]
    assert items == [
        {"type": "number", "multipleOf": 1},
        {"type": "string", "pattern": "^-?[0-9]+$"},
    ]


def test_the_schema_dates_stay_iso_text() -> None:
    properties = Body.model_json_schema()["properties"]

    assert properties["day"] == {"type": "string", "format": "date", "title": "Day"}
    assert properties["flag"] == {"type": "boolean", "title": "Flag"}
