"""The sample projections and events the projection store contracts use."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Column, Integer, MetaData, Table, Text

from eaf.context import SecurityContext, use
from eaf.eventsourcing.ports import EventStore
from eaf.eventsourcing.records import EventMetadata, NewEvent, StoredEvent, utc_now
from eaf.projectors.ports import ProjectionStore, ReadModelWriter
from eaf.projectors.projection import Projection, delete, update, upsert
from eaf.projectors.projector import RetryPolicy
from eaf.projectors.tables import read_model_table

FAST_RETRY = RetryPolicy(max_attempts=3, delays=(0.0,))


def as_tenant(tenant_id: str) -> Any:
    """Run the enclosed block as a user of ``tenant_id``."""
    return use(SecurityContext(tenant_id=tenant_id, user_id="user-1"))


def account_projection(name: str = "accounts") -> Projection:
    """Accounts: ``Opened`` inserts, ``Deposited`` adds to the balance and counts
    (applying one twice shows), ``Renamed`` updates, ``Closed`` deletes. A deposit
    whose amount is not a number is a poison event."""
    table = Table(
        f"{name}_read_model",
        MetaData(),
        Column("tenant_id", Text(), primary_key=True),
        Column("account_id", Text(), primary_key=True),
        Column("owner", Text(), nullable=False),
        Column("balance", Integer(), nullable=False),
        Column("deposits", Integer(), nullable=False),
    )
    projection = Projection(name, table)
    projection.on(
        "Opened",
        upsert(
            lambda event: {
                "account_id": event.stream_id,
                "owner": event.payload["owner"],
                "balance": 0,
                "deposits": 0,
            }
        ),
    )
    projection.on(
        "Renamed",
        update(
            lambda event: {"account_id": event.stream_id},
            lambda event: {"owner": event.payload["owner"]},
        ),
    )
    projection.on("Closed", delete(lambda event: {"account_id": event.stream_id}))

    @projection.handles("Deposited")
    async def deposited(writer: ReadModelWriter, event: StoredEvent) -> None:
        amount = event.payload["amount"]
        if not isinstance(amount, int):
            raise ValueError(f"not an amount: {amount!r}")
        row = await writer.get({"account_id": event.stream_id})
        if row is None:
            raise LookupError(f"no account {event.stream_id}")
        await writer.upsert(
            {**row, "balance": row["balance"] + amount, "deposits": row["deposits"] + 1}
        )

    return projection


ORDER_COLUMNS = {
    "id": "str",
    "customer": "str",
    "total": "float",
    "items": "int",
    "paid": "bool",
    "due": "str",
    "note": "str",
    "tags": "json",
}

ORDERS: dict[str, dict[str, Any]] = {
    "o1": {
        "customer": "ann",
        "total": 10.5,
        "items": 1,
        "paid": True,
        "due": "2024-01-05",
        "note": "x",
    },
    "o2": {
        "customer": "bob",
        "total": 20.0,
        "items": 3,
        "paid": False,
        "due": "2024-02-10",
        "note": None,
    },
    "o3": {
        "customer": "ann",
        "total": 5.25,
        "items": 2,
        "paid": False,
        "due": "2024-01-20",
        "note": "y",
    },
    "o4": {
        "customer": "cid",
        "total": 20.0,
        "items": 5,
        "paid": True,
        "due": None,
        "note": None,
    },
    "o5": {
        "customer": "bob",
        "total": 99.9,
        "items": 0,
        "paid": True,
        "due": "2023-12-31",
        "note": "z",
    },
    "o6": {
        "customer": "Ann",
        "total": 7.0,
        "items": 2,
        "paid": None,
        "due": "2024-03-01",
        "note": "\u00e9",
    },
}
"""The orders of tenant ``acme`` in the query contract: ties, NULLs, upper case and
a non-ASCII note, ISO dates as strings."""


def order_projection(
    name: str = "orders",
    columns: Mapping[str, str] = ORDER_COLUMNS,
    *,
    version: str = "",
) -> Projection:
    """Orders made by :func:`read_model_table`: ``Placed`` writes its payload as the
    row of the order (stream id); ``Dropped`` deletes it."""
    projection = Projection(
        name, read_model_table(f"{name}_read_model", columns), version=version
    )
    projection.on(
        "Placed",
        upsert(
            lambda event: {
                "id": event.stream_id,
                **{k: v for k, v in event.payload.items() if k in columns},
            }
        ),
    )
    projection.on("Dropped", delete(lambda event: {"id": event.stream_id}))
    return projection


async def place(
    events: EventStore, tenant: str, orders: Mapping[str, Mapping[str, Any]]
) -> None:
    """Append one ``Placed`` per order of ``tenant`` (order id -> row)."""
    with as_tenant(tenant):
        for order, row in orders.items():
            await events.append(
                "Order", order, [NewEvent("Placed", dict(row))], expected_version=0
            )


async def all_rows(
    store: ProjectionStore, projection: Projection, tenants: Iterable[str]
) -> list[dict[str, Any]]:
    """Every row of ``tenants``, in tenant then key order."""
    rows: list[dict[str, Any]] = []
    for tenant in sorted(tenants):
        rows += await store.find(projection, tenant, {})
    return rows


async def open_account(
    events: EventStore, tenant: str, account: str, owner: str
) -> None:
    """Append ``Opened`` for ``account`` of ``tenant``."""
    with as_tenant(tenant):
        await events.append(
            "Account",
            account,
            [NewEvent("Opened", {"owner": owner})],
            expected_version=0,
        )


async def then(events: EventStore, tenant: str, account: str, *new: NewEvent) -> None:
    """Append ``new`` to the stream of ``account`` of ``tenant``."""
    with as_tenant(tenant):
        version = await events.stream_version("Account", account)
        await events.append("Account", account, list(new), expected_version=version)


def deposit(amount: Any) -> NewEvent:
    """A ``Deposited`` event (a poison one when ``amount`` is not an int)."""
    return NewEvent("Deposited", {"amount": amount})


def stored(
    event_type: str,
    tenant: str,
    position: int,
    payload: Mapping[str, Any] | None = None,
    stream_id: str = "a-1",
) -> StoredEvent:
    """An event as a store would give it, without one."""
    return StoredEvent(
        position=position,
        event_id=uuid.uuid4(),
        tenant_id=tenant,
        stream_type="Account",
        stream_id=stream_id,
        stream_version=1,
        event_type=event_type,
        schema_version=1,
        payload=dict(payload or {}),
        metadata=EventMetadata(tenant_id=tenant, correlation_id="c"),
        recorded_at=utc_now(),
    )
