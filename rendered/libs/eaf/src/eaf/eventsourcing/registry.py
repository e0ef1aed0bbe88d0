"""Event types by name, their schema versions and the upcasters between versions.

Events are plain dataclasses. Register each with a stable name (the class name by
default) and its current schema version. When a payload's shape changes, bump the
version and register an upcaster from the old version: stored rows are never rewritten,
old payloads are upcast v1 -> v2 -> v3 each time they are read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from eaf.eventsourcing.errors import UnknownEventTypeError, UpcastError
from eaf.eventsourcing.records import NewEvent, StoredEvent
from eaf.eventsourcing.serialization import from_dict, to_dict

C = TypeVar("C", bound=type[Any])
EventT = TypeVar("EventT")
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

__all__ = ["EventRegistry", "Upcaster"]


@dataclass(frozen=True)
class _EventType:
    name: str
    cls: type[Any]
    version: int


class EventRegistry:
    """Maps event type names to dataclasses and back, upcasting old payloads on read."""

    def __init__(self) -> None:
        self._by_name: dict[str, _EventType] = {}
        self._by_class: dict[type[Any], _EventType] = {}
        self._upcasters: dict[tuple[str, int], Upcaster] = {}

    def register(self, cls: C, *, name: str | None = None, version: int = 1) -> C:
        """Register an event dataclass under ``name`` (its class name by default)."""
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} must be a dataclass")
        if version < 1:
            raise ValueError("schema versions start at 1")
        entry = _EventType(name or cls.__name__, cls, version)
        known = self._by_name.get(entry.name)
        if known is not None and known.cls is not cls:
            raise ValueError(f"event type {entry.name!r} is already registered")
        self._by_name[entry.name] = entry
        self._by_class[cls] = entry
        return cls

    def event(self, *, name: str | None = None, version: int = 1) -> Callable[[C], C]:
        """Class decorator form of :meth:`register`: ``@registry.event(version=2)``."""

        def add(cls: C) -> C:
            return self.register(cls, name=name, version=version)

        return add

    def upcaster(
        self, event_type: str, *, from_version: int
    ) -> Callable[[Upcaster], Upcaster]:
        """Register the function that turns a ``from_version`` payload into the next version."""

        def add(function: Upcaster) -> Upcaster:
            self.add_upcaster(event_type, from_version, function)
            return function

        return add

    def add_upcaster(
        self, event_type: str, from_version: int, function: Upcaster
    ) -> None:
        key = (event_type, from_version)
        if key in self._upcasters:
            raise ValueError(
                f"an upcaster for {event_type} v{from_version} is already registered"
            )
        self._upcasters[key] = function

    def name_of(self, event_class: type[Any]) -> str:
        return self._entry_for_class(event_class).name

    def names_of(self, event_classes: Iterable[type[Any]]) -> list[str]:
        return [self.name_of(event_class) for event_class in event_classes]

    def encode(self, event: object) -> NewEvent:
        """A domain event as a new event to append, at its current schema version."""
        entry = self._entry_for_class(type(event))
        return NewEvent(entry.name, to_dict(event), schema_version=entry.version)

    def decode(self, stored: StoredEvent) -> Any:
        """The domain event a stored event holds, upcast to the current schema version."""
        entry = self._by_name.get(stored.event_type)
        if entry is None:
            raise UnknownEventTypeError(
                f"no event class is registered as {stored.event_type!r}"
            )
        payload = self.upcast(stored.event_type, stored.schema_version, stored.payload)
        return from_dict(entry.cls, payload)

    def decode_as(self, stored: StoredEvent, kind: type[EventT]) -> EventT:
        """The stored event as a ``kind`` at its current schema version (a TypeError when
        it holds another type)."""
        event = self.decode(stored)
        if not isinstance(event, kind):
            raise TypeError(f"{stored.event_type} is not a {kind.__name__}")
        return event

    def upcast(
        self, event_type: str, schema_version: int, payload: dict[str, Any]
    ) -> dict[str, Any]:
        """``payload`` brought from ``schema_version`` to the registered version."""
        entry = self._by_name.get(event_type)
        if entry is None:
            raise UnknownEventTypeError(
                f"no event class is registered as {event_type!r}"
            )
        if schema_version > entry.version:
            raise UpcastError(
                f"{event_type} v{schema_version} is newer than the code's v{entry.version}"
            )
        version = schema_version
        while version < entry.version:
            upcaster = self._upcasters.get((event_type, version))
            if upcaster is None:
                raise UpcastError(f"no upcaster registered for {event_type} v{version}")
            payload = upcaster(dict(payload))
            version += 1
        return payload

    def _entry_for_class(self, event_class: type[Any]) -> _EventType:
        entry = self._by_class.get(event_class)
        if entry is None:
            raise UnknownEventTypeError(
                f"{event_class.__name__} is not a registered event"
            )
        return entry
