"""A small base for event-sourced aggregates.

Command methods check invariants and ``_record`` events; ``apply`` folds an event into
the state, dispatching on the event's class to the method marked ``@applies(EventClass)``.
Loading replays stored events through the same ``apply``, so state changes live in one place::

    class Order(Aggregate):
        status: str

        def __init__(self, aggregate_id: str) -> None:
            super().__init__(aggregate_id)
            self.status = "new"

        def place(self) -> None:
            self._record(OrderPlaced(order_id=self.id))

        @applies(OrderPlaced)
        def _placed(self, event: OrderPlaced) -> None:
            self.status = "placed"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from eaf.eventsourcing._state import capture_state, restore_state

F = TypeVar("F", bound=Callable[..., None])

__all__ = ["Aggregate", "applies"]

_APPLIES = "__eaf_applies__"
_NOT_STATE = ("id", "version", "stream_type", "snapshot_version")


def applies(*event_types: type[Any]) -> Callable[[F], F]:
    """Mark a method as the fold of the given event classes into the aggregate's state."""

    def mark(method: F) -> F:
        setattr(method, _APPLIES, event_types)
        return method

    return mark


class Aggregate:
    """An aggregate rebuilt from its events. Subclasses take only the id in ``__init__``.

    ``stream_type`` names its streams (the class name by default); ``snapshot_version``
    names the shape of its snapshot state: bump it when that shape changes, and older
    snapshots are ignored (the repository replays events instead).
    """

    stream_type: ClassVar[str] = ""
    snapshot_version: ClassVar[int] = 1
    _appliers: ClassVar[dict[type[Any], Callable[[Any, Any], None]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__dict__.get("stream_type"):
            cls.stream_type = cls.__name__
        appliers = dict(cls._appliers)
        for attribute in vars(cls).values():
            for event_type in getattr(attribute, _APPLIES, ()):
                appliers[event_type] = attribute
        cls._appliers = appliers

    def __init__(self, aggregate_id: str) -> None:
        self.id = aggregate_id
        self.version = 0
        self._pending: list[object] = []

    @property
    def pending_events(self) -> tuple[object, ...]:
        """Events recorded since the aggregate was loaded or last saved."""
        return tuple(self._pending)

    def mark_saved(self) -> None:
        """Forget the pending events: the repository has stored them."""
        self._pending.clear()

    def apply(self, event: object) -> None:
        """Fold ``event`` into the state and advance the version."""
        applier = self._appliers.get(type(event))
        if applier is None:
            raise TypeError(
                f"{type(self).__name__} has no @applies method for {type(event).__name__}"
            )
        applier(self, event)
        self.version += 1

    def _record(self, event: object) -> None:
        self.apply(event)
        self._pending.append(event)

    def snapshot_state(self) -> dict[str, Any]:
        """The state as JSON: by default every annotated public attribute."""
        return capture_state(self, _NOT_STATE)

    def restore_snapshot_state(self, state: dict[str, Any]) -> None:
        """Set the state from :meth:`snapshot_state`'s output."""
        restore_state(self, state, _NOT_STATE)
