"""Who is asking: the Unleash context."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone

_TIMESTAMP = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|z|[+-]\d{2}:?\d{2})"
)
_FIELDS = {
    "userId": "user_id",
    "sessionId": "session_id",
    "remoteAddress": "remote_address",
    "environment": "environment",
    "appName": "app_name",
}


def parse_timestamp(text: str) -> datetime | None:
    """An RFC 3339 timestamp with its offset (`2022-01-29T13:00:00.000Z`), or None."""
    match = _TIMESTAMP.fullmatch(text.strip())
    if match is None:
        return None
    year, month, day, hour, minute, second, fraction, zone = match.groups()
    if zone in ("Z", "z"):
        offset = UTC
    else:
        sign = -1 if zone[0] == "-" else 1
        hours, minutes = int(zone[1:3]), int(zone[-2:])
        offset = timezone(sign * timedelta(hours=hours, minutes=minutes))
    micros = int((fraction or "0")[:6].ljust(6, "0"))
    try:
        return datetime(
            int(year),
            int(month),
            int(day),
            int(hour),
            int(minute),
            int(second),
            micros,
            offset,
        )
    except ValueError:
        return None


def _text(value: object, key: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return str(value)
    raise ValueError(f"context.{key}: expected a string, got {type(value).__name__}")


@dataclass(frozen=True, slots=True)
class Context:
    """The fields strategies and constraints read; anything else goes in `properties`."""

    user_id: str | None = None
    session_id: str | None = None
    remote_address: str | None = None
    environment: str | None = None
    app_name: str | None = None
    current_time: datetime | None = None
    properties: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, raw: Mapping[str, object]) -> Context:
        """A context from the client specification's JSON keys (`userId`, `properties`, ...).

        Null values are absent; unknown top-level keys are read as properties.
        """
        fields: dict[str, str | None] = {}
        properties: dict[str, str] = {}
        current_time: datetime | None = None
        for key, value in raw.items():
            if key in _FIELDS:
                fields[_FIELDS[key]] = _text(value, key)
            elif key == "currentTime":
                if isinstance(value, datetime):
                    current_time = value
                elif (text := _text(value, key)) is not None:
                    current_time = parse_timestamp(text)
                    if current_time is None:
                        raise ValueError(
                            f"context.currentTime: not an RFC 3339 time: {text!r}"
                        )
            elif key == "properties":
                if value is None:
                    continue
                if not isinstance(value, Mapping):
                    raise ValueError("context.properties: expected an object")
                for name, item in value.items():
                    if (text := _text(item, f"properties.{name}")) is not None:
                        properties[str(name)] = text
            elif (text := _text(value, key)) is not None:
                properties.setdefault(key, text)
        return cls(current_time=current_time, properties=properties, **fields)
