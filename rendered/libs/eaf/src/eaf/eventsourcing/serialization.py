"""Dataclasses to JSON and back, guided by their type hints.

Supported: str, int, float, bool, None, Decimal (as a string in plain notation), UUID, datetime and date
(ISO 8601; an aware datetime in UTC), Enum (by value), list/tuple/set/frozenset, dict with str keys, ``X | None``,
``Any`` (kept as is) and nested dataclasses. Unknown keys in the data are ignored (a
tolerant reader); missing keys fall back to field defaults.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import types
import typing
import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import partial
from typing import Any, TypeVar, cast

from eaf.domain import decimal_text

T = TypeVar("T")

__all__ = [
    "decode_value",
    "decoded_text",
    "encode_value",
    "from_dict",
    "stored_form",
    "to_dict",
]


def encode_value(value: Any) -> Any:
    """``value`` as JSON-compatible data."""
    kind = type(value)
    if kind in _AS_IS:  # the usual cases by exact type: one set lookup
        return value
    encode = _ENCODERS.get(kind)
    if encode is not None:
        return encode(value)
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, Decimal):
        return decimal_text(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, datetime):
        return _instant(value)
    if isinstance(value, date):
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


Shape = tuple[str, Any] | None
"""How data of a type is laid out: None (as it is), ``("list", item)``, ``("map", item)``
or ``("value", {name: (attribute, shape)})`` for a value object whose fields are named
``name`` in an API's JSON and ``attribute`` in the stored form."""


def stored_form(data: Any, shape: Shape) -> Any:
    """JSON ``data`` as an API writes it (a value object's fields by their spec names:
    ``valueOf``) in the form the event store keeps (by attribute names: ``value_of``),
    following ``shape``; keys a value object does not name are kept, null stays null."""
    if data is None or shape is None:
        return data
    kind, inner = shape
    if kind == "list" and isinstance(data, list):
        return [stored_form(item, inner) for item in data]
    if kind == "map" and isinstance(data, dict):
        return {key: stored_form(item, inner) for key, item in data.items()}
    if kind == "value" and isinstance(data, dict):
        stored = {}
        for key, item in data.items():
            attribute, item_shape = inner.get(key, (key, None))
            stored[attribute] = stored_form(item, item_shape)
        return stored
    return data


def to_dict(instance: Any) -> dict[str, Any]:
    """A dataclass instance as a JSON object."""
    return {
        item.name: encode_value(getattr(instance, item.name))
        for item in dataclasses.fields(instance)
    }


def from_dict(cls: type[T], data: Mapping[str, Any]) -> T:
    """Build dataclass ``cls`` from a JSON object written by :func:`to_dict`."""
    build = _builders.get(cls)
    if build is None:
        build = _builders[cls] = _builder(cls)
    return cast(T, build(data))


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


_NO_FALLBACK: Any = object()


def decoded_text(
    text: str, shape: Shape, event: type[Any], field: str, fallback: Any = _NO_FALLBACK
) -> Any:
    """The JSON text a service stored in ``field`` (``json.dumps`` of a value with its
    spec names), in the form the store keeps, as an upcast's ``decode`` reads it: text
    that is no JSON, or JSON that is no value of the field's type in ``event``, is
    ``fallback`` (the field's default, or null), or ValueError without one (the event
    cannot be read: nothing wrong is made of it)."""
    try:
        data = stored_form(json.loads(text), shape)
        hint = _field_hints(event).get(field)
        adapter = _adapter(hint) if hint is not None else None
        if adapter is not None:
            adapter.validate_python(data)
        return data
    except (
        ValueError
    ) as error:  # json.JSONDecodeError and pydantic's ValidationError too
        if fallback is _NO_FALLBACK:
            raise ValueError(
                f"{event.__name__}.{field} holds text that is not its value as JSON"
            ) from error
        return stored_form(fallback, shape)


@functools.cache
def _adapter(hint: Any) -> Any:
    """pydantic's validator of ``hint``; None for a type it cannot validate (the value is
    then kept as the text gave it)."""
    from pydantic import TypeAdapter

    try:
        return TypeAdapter(hint)
    except Exception:  # noqa: BLE001 - a type pydantic has no schema for: unchecked
        return None


def decode_value(hint: Any, data: Any) -> Any:
    """Turn JSON data back into a value of type ``hint``."""
    decode = _decoder(hint)
    return data if decode is None else decode(data)


# Decoding compiled once per type: each dataclass gets a function that decodes its
# fields with a decoder chosen from each field's hint when the class is first seen
# (``None`` where the JSON value is the value), instead of inspecting every hint again
# for every value of every event read.
_Decode = Callable[[Any], Any]
_builders: dict[type[Any], _Decode] = {}
_decoders: dict[Any, _Decode | None] = {}


def _builder(cls: type[Any]) -> _Decode:
    fields = [(name, _decoder(hint)) for name, hint in _field_hints(cls).items()]

    def build(data: Mapping[str, Any]) -> Any:
        values = {}
        for name, decode in fields:
            if name in data:  # a missing key: the field's default
                value = data[name]
                values[name] = value if decode is None else decode(value)
        return cls(**values)

    return build


def _decoder(hint: Any) -> _Decode | None:
    try:
        return _decoders[hint]
    except KeyError:
        decode = _decoders[hint] = _compile(hint)
        return decode
    except TypeError:  # an unhashable hint (say, a Literal of a list): not kept
        return _compile(hint)


def _compile(hint: Any) -> _Decode | None:
    if hint is Any or hint is object:
        return None
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(options) == 1:  # X | None
            return partial(_or_none, _decoder(options[0]) or _same)
        return partial(_decode_union, hint)
    if origin is typing.Literal or origin is typing.ClassVar:
        return None
    if origin is list and typing.get_args(hint):
        item = _decoder(typing.get_args(hint)[0])
        return None if item is None else partial(_each, item)
    if origin is not None:
        return partial(_decode_generic, origin, typing.get_args(hint))
    if not isinstance(hint, type):
        return partial(_or_none, partial(_unsupported, hint))
    if hint is bool or hint is str or hint is dict or hint is list:
        return None
    if dataclasses.is_dataclass(hint):  # looked up when used: a class may nest itself
        convert: _Decode = partial(from_dict, hint)
    else:
        convert = _CONVERSIONS.get(hint) or partial(_decode_class, hint)
    return partial(_or_none, convert)


def _or_none(convert: _Decode, data: Any) -> Any:
    return None if data is None else convert(data)


def _same(data: Any) -> Any:
    return data


def _each(decode: _Decode, data: Any) -> list[Any]:
    return [decode(element) for element in data]


def _unsupported(hint: Any, data: Any) -> Any:
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


def _decimal(data: Any) -> Decimal:
    return Decimal(str(data))


def _uuid(data: Any) -> uuid.UUID:
    return uuid.UUID(str(data))


_CONVERSIONS: dict[type[Any], _Decode] = {
    int: int,
    float: float,
    Decimal: _decimal,
    uuid.UUID: _uuid,
    datetime: datetime.fromisoformat,
    date: date.fromisoformat,
}


_AS_IS = frozenset({str, int, float, bool, type(None)})


def _instant(value: datetime) -> str:
    """An aware datetime in UTC (``...+00:00``), so that stored instants compare and sort
    as text whatever offset they were given with; a naive one as it is."""
    if value.tzinfo is not None and value.utcoffset():
        value = value.astimezone(UTC)
    return value.isoformat()


_ENCODERS: dict[type[Any], _Decode] = {
    uuid.UUID: str,
    Decimal: decimal_text,
    datetime: _instant,
    date: date.isoformat,
}
"""Exact types only: subclasses (an enum of str, say) take the checks below."""
