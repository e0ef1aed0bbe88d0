"""Request field types that read only the JSON form the OpenAPI document states.

FastAPI validates a parsed body in pydantic's lax Python mode, which reads the number 0 as
the date 1970-01-01 and the text "yes" as true: values the document's schema refuses. These
types refuse them, and keep the schema pydantic states for the plain types."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any

from pydantic import AwareDatetime, BeforeValidator, Strict
from pydantic_core import PydanticCustomError


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

JsonDateTime = Annotated[AwareDatetime, _dated("datetime_type", "datetime")]
"""A date and time with its offset, given as ISO 8601 text."""

JsonBool = Annotated[bool, Strict()]
"""``true`` or ``false``, not 1 or "yes"."""
