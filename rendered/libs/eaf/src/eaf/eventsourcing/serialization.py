"""Dataclasses to JSON and back, guided by their type hints.

Supported: str, int, float, bool, None, Decimal (as a string), UUID, datetime and date
(ISO 8601), Enum (by value), list/tuple/set/frozenset, dict with str keys, ``X | None``,
``Any`` (kept as is) and nested dataclasses. Unknown keys in the data are ignored (a
tolerant reader); missing keys fall back to field defaults.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
import uuid
from collections.abc import Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import Any, TypeVar, cast

T = TypeVar("T")

__all__ = ["decode_value", "encode_value", "from_dict", "to_dict"]


def encode_value(value: Any) -> Any:
    """``value`` as JSON-compatible data."""
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, date):  # datetime is a date too
        return value.isoformat()
    if isinstance(value, enum.Enum):
        return encode_value(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_dict(value)
    if isinstance(value, Mapping):
        return {str(key): encode_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [encode_value(item) for item in value]
    raise TypeError(f"cannot serialise {type(value).__name__} to JSON")


def to_dict(instance: Any) -> dict[str, Any]:
    """A dataclass instance as a JSON object."""
    return {
        item.name: encode_value(getattr(instance, item.name))
        for item in dataclasses.fields(instance)
    }


def from_dict(cls: type[T], data: Mapping[str, Any]) -> T:
    """Build dataclass ``cls`` from a JSON object written by :func:`to_dict`."""
    hints = _field_hints(cls)
    values = {
        name: decode_value(hint, data[name])
        for name, hint in hints.items()
        if name in data
    }
    return cls(**values)


_hints: dict[type[Any], dict[str, Any]] = {}


def _field_hints(cls: type[Any]) -> dict[str, Any]:
    known = _hints.get(cls)
    if known is None:
        hints = typing.get_type_hints(cls)
        known = {
            item.name: hints[item.name] for item in dataclasses.fields(cls) if item.init
        }
        _hints[cls] = known
    return known


def decode_value(hint: Any, data: Any) -> Any:
    """Turn JSON data back into a value of type ``hint``."""
    if hint is Any or hint is object:
        return data
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        return _decode_union(hint, data)
    if origin is typing.Literal:
        return data
    if origin is not None:
        return _decode_generic(origin, typing.get_args(hint), data)
    if data is None:
        return None
    if isinstance(hint, type):
        return _decode_class(hint, data)
    raise TypeError(f"unsupported type hint {hint!r}")


def _decode_union(hint: Any, data: Any) -> Any:
    options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
    if data is None:
        return None
    if len(options) == 1:
        return decode_value(options[0], data)
    for option in options:  # a plain union: the first option the data fits
        if isinstance(option, type) and isinstance(data, option):
            return data
    return decode_value(options[0], data)


def _decode_generic(origin: Any, args: tuple[Any, ...], data: Any) -> Any:
    item = args[0] if args else Any
    if origin is list:
        return [decode_value(item, element) for element in data]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode_value(item, element) for element in data)
        return tuple(
            decode_value(arg, element) for arg, element in zip(args, data, strict=True)
        )
    if origin is set or origin is frozenset:
        return origin(decode_value(item, element) for element in data)
    if origin is dict or origin is Mapping:
        value_hint = args[1] if len(args) == 2 else Any
        return {key: decode_value(value_hint, element) for key, element in data.items()}
    if origin is typing.ClassVar:
        return data
    raise TypeError(f"unsupported generic type {origin!r}")


def _decode_class(hint: type[Any], data: Any) -> Any:
    if hint is bool or hint is str:
        return data
    if hint is int:
        return int(data)
    if hint is float:
        return float(data)
    if hint is Decimal:
        return Decimal(str(data))
    if hint is uuid.UUID:
        return uuid.UUID(str(data))
    if hint is datetime:
        return datetime.fromisoformat(data)
    if hint is date:
        return date.fromisoformat(data)
    if issubclass(hint, enum.Enum):
        return hint(data)
    if dataclasses.is_dataclass(hint):
        return from_dict(cast(type[Any], hint), data)
    if hint is dict or hint is list:
        return data
    raise TypeError(f"cannot deserialise {hint.__name__} from JSON")
