"""Request field types that read only the JSON form the OpenAPI document states.

FastAPI validates a parsed body in pydantic's lax Python mode, which reads the number 0 as
the date 1970-01-01 and the text "yes" as true: values the document's schema refuses. These
types refuse them, and keep the schema pydantic states for the plain types."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BeforeValidator,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    Strict,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from eaf.domain import is_blank, matches


def _dated(kind: str, name: str) -> BeforeValidator:
    def read(value: Any) -> Any:
        if isinstance(value, str | date | datetime):
            return value
        raise PydanticCustomError(
            kind, f"Input should be a valid {name} (ISO 8601 text)"
        )

    return BeforeValidator(read)


JsonDate = Annotated[date, _dated("date_type", "date")]
"""A date given as ISO 8601 text (``2026-01-31``)."""


def _in_utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


JsonDateTime = Annotated[
    AwareDatetime, _dated("datetime_type", "datetime"), AfterValidator(_in_utc)
]
"""A date and time with its offset, given as ISO 8601 text, read as the instant in UTC
(so that ``date(...)`` of it and everything stored agree, whatever offset it came with)."""

JsonBool = Annotated[bool, Strict()]
"""``true`` or ``false``, not 1 or "yes"."""


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
