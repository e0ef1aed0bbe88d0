"""Annotated public attributes of an object as JSON, for snapshots and saga state."""

from __future__ import annotations

import typing
from collections.abc import Collection, Mapping
from typing import Any

from eaf.eventsourcing.serialization import decode_value, encode_value

_hints: dict[tuple[type[Any], frozenset[str]], dict[str, Any]] = {}


def _state_hints(cls: type[Any], exclude: frozenset[str]) -> dict[str, Any]:
    known = _hints.get((cls, exclude))
    if known is None:
        known = {
            name: hint
            for name, hint in typing.get_type_hints(cls).items()
            if not name.startswith("_")
            and name not in exclude
            and typing.get_origin(hint) is not typing.ClassVar
        }
        _hints[(cls, exclude)] = known
    return known


def capture_state(instance: object, exclude: Collection[str]) -> dict[str, Any]:
    hints = _state_hints(type(instance), frozenset(exclude))
    return {
        name: encode_value(getattr(instance, name))
        for name in hints
        if hasattr(instance, name)
    }


def restore_state(
    instance: object, state: Mapping[str, Any], exclude: Collection[str]
) -> None:
    hints = _state_hints(type(instance), frozenset(exclude))
    for name, hint in hints.items():
        if name in state:
            setattr(instance, name, decode_value(hint, state[name]))
