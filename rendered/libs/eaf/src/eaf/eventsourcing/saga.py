"""Sagas (process managers): long-running reactions to events that issue commands.

A saga type names the events that start it and those it handles; every event carries the
association value (``association_property``, e.g. ``order_id``) that selects the saga
instance. Handlers change the saga's state (its annotated public attributes, persisted
between events), ``await self.dispatch(command)`` and finally ``self.end()``::

    class Fulfilment(Saga):
        association_property = "order_id"
        shipment_id: str | None = None

        @starts(OrderPlaced)
        async def placed(self, event: OrderPlaced) -> None:
            await self.dispatch(CreateShipment(order_id=event.order_id))

        @handles(OrderShipped)
        async def shipped(self, event: OrderShipped) -> None:
            self.end()
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from eaf.eventsourcing._state import capture_state, restore_state
from eaf.eventsourcing.ports import SagaState

CommandDispatcher = Callable[[object], Awaitable[Any]]
SagaHandler = Callable[[Any, Any], Awaitable[None]]
H = TypeVar("H", bound=Callable[..., Awaitable[None]])

__all__ = ["CommandDispatcher", "Saga", "handles", "starts"]

_MARK = "__eaf_saga_handler__"
_NOT_STATE = ("association", "saga_type", "association_property")


@dataclass(frozen=True)
class SagaRoute:
    """How a saga type reacts to one event class."""

    handler: SagaHandler
    starts: bool


def starts(*event_types: type[Any]) -> Callable[[H], H]:
    """Mark a handler whose events start a new saga instance (or reach a running one)."""
    return _mark(event_types, starts=True)


def handles(*event_types: type[Any]) -> Callable[[H], H]:
    """Mark a handler for events of a running saga instance (ignored when there is none)."""
    return _mark(event_types, starts=False)


def _mark(event_types: tuple[type[Any], ...], *, starts: bool) -> Callable[[H], H]:
    def mark(handler: H) -> H:
        setattr(handler, _MARK, (event_types, starts))
        return handler

    return mark


class Saga:
    """Base class of saga types; subclasses set ``association_property``."""

    saga_type: ClassVar[str] = ""
    association_property: ClassVar[str]
    routes: ClassVar[dict[type[Any], SagaRoute]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__dict__.get("saga_type"):
            cls.saga_type = cls.__name__
        routes = dict(cls.routes)
        for attribute in vars(cls).values():
            marked = getattr(attribute, _MARK, None)
            if marked is not None:
                event_types, starts_saga = marked
                for event_type in event_types:
                    routes[event_type] = SagaRoute(attribute, starts_saga)
        cls.routes = routes

    def __init__(self, association: str) -> None:
        self.association = association
        self._ended = False
        self._dispatcher: CommandDispatcher | None = None

    @classmethod
    def association_of(cls, event: object) -> str | None:
        value = getattr(event, cls.association_property, None)
        return None if value is None else str(value)

    @classmethod
    def restore(cls, stored: SagaState) -> Saga:
        saga = cls(stored.association)
        restore_state(saga, stored.state, _NOT_STATE)
        saga._ended = stored.ended
        return saga

    @property
    def ended(self) -> bool:
        return self._ended

    def end(self) -> None:
        """Finish this instance: later events for its association are ignored."""
        self._ended = True

    async def dispatch(self, command: object) -> Any:
        """Send a command, in the security context of the event being handled."""
        if self._dispatcher is None:
            raise RuntimeError(
                "dispatch is only available while a saga runner handles an event"
            )
        return await self._dispatcher(command)

    def bind(self, dispatcher: CommandDispatcher) -> None:
        self._dispatcher = dispatcher

    def state(self) -> dict[str, Any]:
        return capture_state(self, _NOT_STATE)
