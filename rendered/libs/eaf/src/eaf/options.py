"""The values of an operator CLI's options, read as the HTTP API reads them: each parser
turns an option's text into its value, or refuses it with a message argparse reports
(``argument --price: ...``, exit 2): numbers are finite, integers within ±(2^53 − 1) (the
integers JSON carries exactly), a datetime has its offset and is kept as the instant in
UTC."""

import argparse
import math
import re
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from uuid import UUID

from pydantic import AwareDatetime, TypeAdapter, ValidationError

JSON_INT = 2**53 - 1
# the forms the HTTP API takes (its OpenAPI document's): no "1e2" decimal, "1_0" integer,
# "20300131" date or compact time, which Python's own readers take
_INTEGER = re.compile(r"-?[0-9]+")
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_DECIMAL = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_DATETIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}")
_DATES = TypeAdapter(date)
_INSTANTS = TypeAdapter(AwareDatetime)


def int_option(text: str) -> int:
    """An integer within ±(2^53 − 1)."""
    if not _INTEGER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer")
    value = int(text)
    if abs(value) > JSON_INT:
        raise argparse.ArgumentTypeError(f"{text} is beyond ±{JSON_INT}")
    return value


def float_option(text: str) -> float:
    """A finite number."""
    if not _NUMBER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def decimal_option(text: str) -> Decimal:
    """A decimal number in plain notation, exactly as written (``10.50``)."""
    if not _DECIMAL.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a decimal number (digits with an optional fraction)"
        )
    try:
        return Decimal(text.strip())
    except InvalidOperation:  # pragma: no cover - the pattern is a decimal's
        raise argparse.ArgumentTypeError(f"{text!r} is not a decimal number") from None


def date_option(text: str) -> date:
    """A date, ``2030-01-31``."""
    try:
        if _DATE.fullmatch(text):
            return _DATES.validate_python(text)
    except ValidationError:
        pass
    raise argparse.ArgumentTypeError(f"{text!r} is not a date (2030-01-31)")


def datetime_option(text: str) -> datetime:
    """An instant with its offset (``2030-01-31T10:00:00+02:00``, ``...Z``), in UTC."""
    value = None
    if _DATETIME.match(text):
        try:
            value = _INSTANTS.validate_python(text)
        except ValidationError:
            value = None
    if value is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a date and time with its offset (2030-01-31T10:00:00Z)"
        )
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an instant between the years 1 and 9999 in UTC"
        ) from None


def uuid_option(text: str) -> UUID:
    """A UUID."""
    try:
        return UUID(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a UUID") from None
