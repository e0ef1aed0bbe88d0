"""An operator CLI's options read as the HTTP API reads values: finite numbers, integers
JSON carries exactly, instants with their offset kept in UTC."""

import argparse
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from eaf.options import (
    date_option,
    datetime_option,
    decimal_option,
    float_option,
    int_option,
    uuid_option,
)


def test_good_values_are_read() -> None:
    assert int_option("-9007199254740991") == -(2**53 - 1)
    assert (float_option("1.5"), float_option("-2e3")) == (1.5, -2000.0)
    assert decimal_option(" 10.50 ") == Decimal("10.50")
    assert str(date_option("2030-01-31")) == "2030-01-31"
    assert datetime_option("2030-01-31T10:00:00+02:00") == datetime(
        2030, 1, 31, 8, tzinfo=UTC
    )
    assert datetime_option("2030-01-31T10:00:00Z").tzinfo == UTC
    assert str(uuid_option("00000000-0000-0000-0000-000000000001")).endswith("1")


@pytest.mark.parametrize(
    ("parse", "text", "message"),
    [
        (int_option, "9007199254740992", "beyond"),
        (int_option, "1.5", "not an integer"),
        (int_option, "1_0", "not an integer"),
        (float_option, "nan", "not a number"),
        (float_option, "inf", "not a number"),
        (float_option, "1e400", "not a finite number"),
        (float_option, "abc", "not a number"),
        (decimal_option, "abc", "not a decimal number"),
        (decimal_option, "NaN", "not a decimal number"),
        (decimal_option, "sNaN", "not a decimal number"),
        (decimal_option, "Infinity", "not a decimal number"),
        # what Python's readers take and the HTTP API refuses (its documented forms)
        (decimal_option, "1e2", "not a decimal number"),
        (decimal_option, "1_0.5", "not a decimal number"),
        (date_option, "31/01/2030", "not a date"),
        (date_option, "20200202", "not a date"),
        (date_option, "2020W011", "not a date"),
        (date_option, "2020-13-01", "not a date"),
        (datetime_option, "2030-01-31T10:00:00", "with its offset"),
        (datetime_option, "20240101T100000Z", "with its offset"),
        (datetime_option, "2024-01-01T100000Z", "with its offset"),
        (datetime_option, "9999-12-31T23:59:59-05:00", "between the years 1 and 9999"),
        (uuid_option, "nope", "not a UUID"),
    ],
)
def test_bad_values_are_refused_saying_why(
    parse: object, text: str, message: str
) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        parse(text)  # type: ignore[operator]
