"""The values of an operator CLI's options, read as the HTTP API reads them: each parser
turns an option's text into its value, or refuses it with a message argparse reports
(``argument --price: ...``, exit 2): numbers are finite, integers within ±(2^53 − 1) (the
integers JSON carries exactly), a datetime has its offset and is kept as the instant in
UTC."""

import argparse
import math
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from uuid import UUID

JSON_INT = 2**53 - 1


def int_option(text: str) -> int:
    """An integer within ±(2^53 − 1)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if abs(value) > JSON_INT:
        raise argparse.ArgumentTypeError(f"{text} is beyond ±{JSON_INT}")
    return value


def float_option(text: str) -> float:
    """A finite number."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def decimal_option(text: str) -> Decimal:
    """A finite decimal number, exactly as written (``10.50``)."""
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise argparse.ArgumentTypeError(f"{text!r} is not a decimal number") from None
    if not value.is_finite():
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite decimal number")
    return value


def date_option(text: str) -> date:
    """A date, ``2030-01-31``."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a date (2030-01-31)"
        ) from None


def datetime_option(text: str) -> datetime:
    """An instant with its offset (``2030-01-31T10:00:00+02:00``, ``...Z``), in UTC."""
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        value = None
    if value is None or value.tzinfo is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a date and time with its offset (2030-01-31T10:00:00Z)"
        )
    return value.astimezone(UTC)


def uuid_option(text: str) -> UUID:
    """A UUID."""
    try:
        return UUID(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a UUID") from None
