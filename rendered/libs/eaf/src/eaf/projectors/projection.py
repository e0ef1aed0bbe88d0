"""Declaring a projection: its read-model table and a handler per event type."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sqlalchemy import Table

from eaf.eventsourcing.records import StoredEvent
from eaf.projectors.ports import ReadModelWriter
from eaf.projectors.schema import ProjectionSchema

TENANT_COLUMN = "tenant_id"

Handler = Callable[[ReadModelWriter, StoredEvent], Awaitable[None]]
"""Applies one event to the read model, through the writer of that event's tenant."""

RowOf = Callable[[StoredEvent], Mapping[str, Any]]


@dataclass
class Projection:
    """A named read model: ``table`` must have a ``tenant_id`` column in its primary
    key. Register handlers with :meth:`on` or the :meth:`handles` decorator::

        orders = Projection("orders", orders_table, version="2")
        orders.on("OrderPlaced", upsert(lambda e: {"order_id": e.stream_id, ...}))

        @orders.handles("OrderShipped")
        async def shipped(writer: ReadModelWriter, event: StoredEvent) -> None: ...

    The :attr:`fingerprint` covers the table's columns and types, its key, the event
    types handled and ``version``: change ``version`` when handlers change what they
    write, and the store rebuilds the read model from position 0 on the next start.
    """

    name: str
    table: Table
    handlers: dict[str, Handler] = field(default_factory=dict)
    version: str = ""
    writer_only: set[str] = field(default_factory=set)
    """Event types whose handler touches the table only through the writer's methods
    (not its raw ``connection``): SQL stores buffer their upserts across the batch."""

    def __post_init__(self) -> None:
        primary_key = [column.name for column in self.table.primary_key.columns]
        if TENANT_COLUMN not in primary_key:
            raise ValueError(
                f"the primary key of {self.table.name!r} must include {TENANT_COLUMN!r}"
            )
        if len(primary_key) < 2:
            raise ValueError(f"{self.table.name!r} needs a key besides the tenant")

    def on(
        self, event_type: str, handler: Handler, *, writer_only: bool = False
    ) -> Projection:
        """Apply events of ``event_type`` with ``handler``; ``writer_only`` promises it
        uses only the writer's methods (``get``, ``upsert``, ``update``, ``delete``), so
        its upserts may wait in the batch's buffer (a handler that runs its own SQL on
        ``writer.connection`` must not say so: it is shown every row written before)."""
        if event_type in self.handlers:
            raise ValueError(f"{self.name}: {event_type!r} already has a handler")
        self.handlers[event_type] = handler
        if writer_only:
            self.writer_only.add(event_type)
        return self

    def handles(
        self, *event_types: str, writer_only: bool = False
    ) -> Callable[[Handler], Handler]:
        """Register the decorated coroutine for ``event_types`` (see :meth:`on`)."""

        def register(handler: Handler) -> Handler:
            for event_type in event_types:
                self.on(event_type, handler, writer_only=writer_only)
            return handler

        return register

    @property
    def event_types(self) -> list[str]:
        return sorted(self.handlers)

    @property
    def schema(self) -> ProjectionSchema:
        """The read model's shape as the store remembers it."""
        return ProjectionSchema.of(self.table, self.handlers, self.version)

    @property
    def fingerprint(self) -> str:
        """A hash of :attr:`schema`: when it changes, the read model is rebuilt."""
        return self.schema.fingerprint

    @cached_property
    def key_columns(self) -> tuple[str, ...]:
        """The primary key without the tenant, in table order."""
        return tuple(
            column.name
            for column in self.table.primary_key.columns
            if column.name != TENANT_COLUMN
        )

    def key_of(self, row: Mapping[str, Any]) -> tuple[Any, ...]:
        """The key values of ``row`` (which must hold every key column)."""
        try:
            return tuple(row[column] for column in self.key_columns)
        except KeyError as error:
            raise KeyError(
                f"{self.name}: a key needs {list(self.key_columns)}, got {sorted(row)}"
            ) from error


@dataclass(frozen=True)
class RowHandler:
    """A handler made by :func:`upsert`, :func:`update` or :func:`delete`: it touches
    the table only through the writer, so SQL stores may batch its writes."""

    kind: str
    key: RowOf
    values: RowOf | None = None

    async def __call__(self, writer: ReadModelWriter, event: StoredEvent) -> None:
        if self.kind == "upsert":
            await writer.upsert(self.key(event))
        elif self.kind == "update":
            assert self.values is not None
            await writer.update(self.key(event), self.values(event))
        else:
            await writer.delete(self.key(event))


def upsert(row: RowOf) -> Handler:
    """A handler that writes the row ``row(event)`` (insert or replace)."""
    return RowHandler("upsert", row)


def update(key: RowOf, values: RowOf) -> Handler:
    """A handler that changes ``values(event)`` of the row with ``key(event)``."""
    return RowHandler("update", key, values)


def delete(key: RowOf) -> Handler:
    """A handler that removes the row with ``key(event)``."""
    return RowHandler("delete", key)


def scoped_row(tenant_id: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """``row`` with ``tenant_id`` filled in; refuses a row of another tenant."""
    given = row.get(TENANT_COLUMN, tenant_id)
    if given != tenant_id:
        raise ValueError(
            f"a handler of tenant {tenant_id!r} cannot write a row of {given!r}"
        )
    return {**row, TENANT_COLUMN: tenant_id}
