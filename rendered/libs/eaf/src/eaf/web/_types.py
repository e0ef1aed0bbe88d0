"""Request field types that read only the JSON form the OpenAPI document states.

FastAPI validates a parsed body in pydantic's lax Python mode, which reads the number 0 as
the date 1970-01-01, the text "yes" as true, the text "12" as the number 12 and "1e2" as a
decimal: values the document's schema refuses. These types refuse them, and keep the schema
pydantic states for the plain types."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Annotated, Any, cast

from pydantic import (
    AfterValidator,
    AllowInfNan,
    AwareDatetime,
    BeforeValidator,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    JsonValue,
    PlainSerializer,
    Strict,
    WithJsonSchema,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from eaf.domain import decimal_text, is_blank, matches
from eaf.options import JSON_INT

_ISO_DATE = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
_PLAIN_DECIMAL = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def _dated(kind: str, name: str, form: re.Pattern[str]) -> BeforeValidator:
    # pydantic reads a number, or a text of digits, as seconds since 1970: only ISO 8601
    # text is a date (a query string's value too)
    def read(value: Any) -> Any:
        if isinstance(value, date | datetime) or (
            isinstance(value, str) and form.match(value)
        ):
            return value
        raise PydanticCustomError(
            kind, f"Input should be a valid {name} (ISO 8601 text)"
        )

    return BeforeValidator(read)


JsonDate = Annotated[date, _dated("date_type", "date", re.compile(f"{_ISO_DATE}$"))]
"""A date given as ISO 8601 text (``2026-01-31``)."""


def _in_utc(value: datetime) -> datetime:
    try:
        return value.astimezone(UTC)
    except OverflowError:
        # 9999-12-31T23:59:59-05:00 is an instant past the last one a datetime holds
        raise PydanticCustomError(
            "datetime_range",
            "Input should be an instant between the years 1 and 9999 in UTC",
        ) from None


JsonDateTime = Annotated[
    AwareDatetime,
    _dated("datetime_type", "datetime", re.compile(f"{_ISO_DATE}[Tt ]")),
    AfterValidator(_in_utc),
]
"""A date and time with its offset, given as ISO 8601 text, read as the instant in UTC
(so that ``date(...)`` of it and everything stored agree, whatever offset it came with)."""


_UUID_TEXT = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)


def _stream_id(value: str) -> str:
    """An aggregate's id as its stream is named: a UUID in lower case (RFC 9562: a UUID
    is read in any case), any other id (a tenant's own record) as given."""
    return value.lower() if _UUID_TEXT.fullmatch(value) else value


PathId = Annotated[str, AfterValidator(_stream_id)]
"""An aggregate's id in a path: ``/orders/9F1C...`` names the order ``9f1c...``."""


def _json_data(value: Any) -> JsonValue:
    """``value`` if it is JSON data a store can keep: not null, its numbers finite
    (Python's JSON reader takes ``NaN`` and ``Infinity``, which JSON has not). Checked
    before pydantic's ``JsonValue``, whose union would name its branch (``meta.float``)
    in the location of the error."""
    if value is None:
        raise PydanticCustomError("json_type", "Input should be a JSON value, not null")
    value = _as_float(value)
    pending: list[Any] = [value]
    while pending:  # no recursion: the body's depth is bounded elsewhere, not here
        item = pending.pop()
        if isinstance(item, float) and not math.isfinite(item):
            raise PydanticCustomError(
                "finite_number", "Input should be a finite number (JSON has no NaN)"
            )
        if isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict) and all(isinstance(key, str) for key in item):
            pending.extend(item.values())
        elif not isinstance(item, str | int | float | bool | None):
            raise PydanticCustomError("json_type", "Input should be a JSON value")
    return cast(JsonValue, value)


def _double(number: Decimal) -> float:
    """The float nearest to ``number``, a body's number read exactly (I-JSON, RFC 7493:
    a number is what a double holds); refused when no float is near: past ±1.8e308, or
    so near 0 that it would read as 0 (``1e-400``), which would store another value."""
    near = float(number)
    if math.isinf(near) or (near == 0 and number != 0):
        raise PydanticCustomError(
            "float_range",
            "Input should be a number a float holds: from about 5e-324 to 1.8e308 in"
            " size, or 0",
        )
    return near


def _as_float(value: Any) -> Any:
    """``value`` with the numbers a body read exactly (``Decimal``) as the floats a
    ``json`` value keeps (its depth is bounded by the body's)."""
    if isinstance(value, Decimal):
        return _double(value)
    if isinstance(value, list):
        return [_as_float(item) for item in value]
    if isinstance(value, dict):
        return {key: _as_float(item) for key, item in value.items()}
    return value


JsonData = Annotated[
    JsonValue,
    BeforeValidator(_json_data),
    WithJsonSchema({"not": {"type": "null"}}),
]
"""Any JSON value but null (a ``json`` field left empty is an optional one's null), with
finite numbers."""

JsonBool = Annotated[bool, Strict()]
"""``true`` or ``false``, not 1 or "yes"."""


def _query_bool(value: Any) -> Any:
    # pydantic reads 1, "yes", "on" and "t" as true from a query string too
    if isinstance(value, bool) or value in ("true", "false"):
        return value
    raise PydanticCustomError("bool_parsing", "Input should be true or false")


QueryBool = Annotated[bool, BeforeValidator(_query_bool)]
"""A boolean read from a query string: ``true`` or ``false``, as the document states."""

QueryFloat = Annotated[float, AllowInfNan(False)]
"""A number read from a query string: finite (``NaN``, ``inf`` and ``1e999``, which no
stored float equals or bounds, refused), as a body's."""

QueryInt = Annotated[int, Field(ge=-JSON_INT, le=JSON_INT)]
"""An integer read from a query string: within ±(2^53 − 1), the integers JSON carries
exactly, as a body's (the document states the bounds)."""


def _number(
    kind: str, name: str, exact: Callable[[Decimal], Any] = lambda number: number
) -> BeforeValidator:
    """A number's JSON form checked; ``exact`` takes a JSON number read exactly
    (``ExactJsonRequest``'s ``Decimal``) to the value the type keeps."""

    # pydantic's lax mode reads the text "12" as the number 12, and true as 1
    def read(value: Any) -> Any:
        if isinstance(value, Decimal):
            return exact(value)
        if value is None or (
            isinstance(value, int | float) and not isinstance(value, bool)
        ):
            return value
        raise PydanticCustomError(
            kind, f"Input should be a valid {name} (a JSON number)"
        )

    return BeforeValidator(read)


def _plain_decimal(value: Any) -> Any:
    if isinstance(value, str) and not _PLAIN_DECIMAL.fullmatch(value):
        raise PydanticCustomError(
            "decimal_parsing",
            "Input should be a valid decimal (digits with an optional fraction,"
            " no exponent)",
        )
    if isinstance(value, bool):
        raise PydanticCustomError("decimal_type", "Input should be a valid decimal")
    return value


# The checks of a number's JSON form, as the last metadata of a type: pydantic then states
# the field's bounds in the schema as for the plain type (a check nested inside an
# optional, list or map type would hide them). None passes, for ``int | None``.
IntegerForm = _number("int_type", "integer")
"""An integer only as a JSON number (``12``, or ``12.0``, which JSON Schema calls an
integer), not as the text ``"12"`` nor as ``true``: ``Annotated[int | None, IntegerForm]``."""
NumberForm = _number("float_type", "number", exact=_double)
"""A number only as a JSON number, not as text nor as a boolean."""
DecimalForm = BeforeValidator(_plain_decimal)
"""A decimal as a JSON number or as text in plain notation (``"12.50"``, not ``"1.25E+1"``),
as the OpenAPI document's pattern states."""

JsonInt = Annotated[int, IntegerForm]
"""An integer given as a JSON number."""

JsonFloat = Annotated[float, NumberForm]
"""A number given as a JSON number."""

PlainDecimal = Annotated[
    Decimal, PlainSerializer(decimal_text, return_type=str, when_used="json")
]
"""A decimal written as JSON text in plain notation (``"0.000000000000000001"``, not
``"1E-18"``), the form the OpenAPI documents state."""

JsonDecimal = Annotated[PlainDecimal, DecimalForm]
"""A decimal given as a JSON number or as plain text, and written as plain text."""


def patch_field(**rules: Any) -> Any:
    """The ``Field`` of a merge-patch body (RFC 7396): the client may leave it out (the
    handler then keeps the current value, telling the two apart by ``model_fields_set``),
    and an explicit null is still refused where the field's type takes none. The schema
    states no default: none is applied, the current value is kept."""
    extra = rules.pop("json_schema_extra", None)

    def schema(stated: dict[str, Any]) -> None:
        stated.pop("default", None)
        if callable(extra):
            extra(stated)
        elif isinstance(extra, dict):
            stated.update(extra)

    return Field(default=None, json_schema_extra=schema, **rules)


NORMALIZING_STEPS = ("trim", "lower", "upper")


@dataclass(frozen=True)
class Normalized:
    """A request's text as a service keeps it: each of ``steps`` applied in turn before
    its rules are checked (``trim``: no surrounding white space; ``lower`` or ``upper``:
    one case), so that ``" Ada@Example.org "`` is ``ada@example.org`` for a unique,
    a key, a filter and the answer alike."""

    steps: tuple[str, ...]

    def __post_init__(self) -> None:
        unknown = [step for step in self.steps if step not in NORMALIZING_STEPS]
        if unknown:
            raise ValueError(f"unknown normalizing step {unknown[0]!r}")

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.no_info_before_validator_function(
            self.apply, handler(source)
        )

    def apply(self, value: Any) -> Any:
        """``value`` normalized, if it is text (anything else is refused by its type)."""
        if not isinstance(value, str):
            return value
        for step in self.steps:
            if step == "trim":
                value = value.strip()
            elif step == "lower":
                value = value.lower()
            else:
                value = value.upper()
        return value


@dataclass(frozen=True)
class TextRule:
    """The text rules of a request field: the value matches ``pattern`` (RE2 syntax) whole,
    is not blank, holds ``contains``. Checked in time linear in the text (pydantic's own
    pattern check would run a backtracking engine, which a pattern such as ``(a+)+$`` can
    hold for ever), and stated in the OpenAPI document as the one JSON Schema ``pattern``
    ``schema`` that says them all."""

    schema: str
    pattern: str | None = None
    not_blank: bool = False
    contains: str | None = None

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        stated = handler(schema)
        stated["pattern"] = self.schema
        return stated

    def check(self, value: str) -> str:
        """``value``, or the error pydantic reports for a pattern it does not match."""
        if (
            (self.pattern is not None and not matches(self.pattern, value))
            or (self.not_blank and is_blank(value))
            or (self.contains is not None and self.contains not in value)
        ):
            raise PydanticCustomError(
                "string_pattern_mismatch",
                "String should match pattern '{pattern}'",
                {"pattern": self.schema},
            )
        return value
