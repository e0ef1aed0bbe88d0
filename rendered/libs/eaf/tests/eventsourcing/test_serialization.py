"""Dataclass events to JSON and back, and the event registry with its upcasters."""

from __future__ import annotations

import enum
import json
import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from eaf.eventsourcing import (
    EventMetadata,
    EventRegistry,
    StoredEvent,
    UnknownEventTypeError,
    UpcastError,
)
from eaf.eventsourcing.serialization import from_dict, stored_form, to_dict


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Money:
    amount: Decimal
    currency: str


@dataclass(frozen=True)
class Line:
    sku: str
    quantity: int
    price: Money


@dataclass(frozen=True)
class EverythingHappened:
    order_id: uuid.UUID
    placed_at: datetime
    due: date
    total: Money
    lines: list[Line]
    tags: tuple[str, ...]
    ratio: float
    urgent: bool
    colour: Colour
    note: str | None = None
    extras: dict[str, int] = field(default_factory=dict)


def test_dataclasses_round_trip_through_json() -> None:
    event = EverythingHappened(
        order_id=uuid.uuid4(),
        placed_at=datetime(2024, 5, 1, 12, 30, 15, 123456, tzinfo=UTC),
        due=date(2024, 6, 1),
        total=Money(Decimal("10.10"), "EUR"),
        lines=[Line("a", 2, Money(Decimal("5.05"), "EUR"))],
        tags=("x", "y"),
        ratio=0.5,
        urgent=True,
        colour=Colour.BLUE,
        extras={"k": 1},
    )
    data = json.loads(json.dumps(to_dict(event)))
    assert data["total"] == {"amount": "10.10", "currency": "EUR"}
    assert from_dict(EverythingHappened, data) == event


def test_missing_optional_fields_take_defaults_and_unknown_keys_are_ignored() -> None:
    data = {"amount": "1", "currency": "EUR", "legacy": "ignored"}
    assert from_dict(Money, data) == Money(Decimal(1), "EUR")


@dataclass(frozen=True)
class Category:
    name: str
    parent: Category | None = None
    children: list[Category] = field(default_factory=list)
    colours: list[Colour | None] = field(default_factory=list)
    weights: dict[str, Decimal] = field(default_factory=dict)


def test_a_class_that_nests_itself_and_optional_values_decode_at_every_depth() -> None:
    tree = Category(
        "root",
        children=[
            Category("a", parent=Category("root"), colours=[Colour.RED, None]),
            Category("b", weights={"w": Decimal("0.25")}),
        ],
    )
    data = json.loads(json.dumps(to_dict(tree)))
    assert data["children"][0]["colours"] == ["red", None]
    assert from_dict(Category, data) == tree
    # The second time, through what was compiled the first:
    assert from_dict(Category, data) == tree
    with pytest.raises(ValueError):
        from_dict(Category, {"name": "x", "colours": ["green"]})


@dataclass(frozen=True)
class CustomerRenamed:
    customer_id: str
    first_name: str
    last_name: str
    reason: str


def _stored(
    event_type: str, schema_version: int, payload: dict[str, object]
) -> StoredEvent:
    return StoredEvent(
        position=1,
        event_id=uuid.uuid4(),
        tenant_id="acme",
        stream_type="Customer",
        stream_id="c-1",
        stream_version=1,
        event_type=event_type,
        schema_version=schema_version,
        payload=dict(payload),
        metadata=EventMetadata("acme", "corr"),
        recorded_at=datetime.now(UTC),
    )


def _registry_at_v3() -> EventRegistry:
    registry = EventRegistry()
    registry.register(CustomerRenamed, version=3)

    @registry.upcaster("CustomerRenamed", from_version=1)
    def split_name(payload: dict[str, object]) -> dict[str, object]:
        first, _, last = str(payload.pop("name")).partition(" ")
        return {**payload, "first_name": first, "last_name": last}

    @registry.upcaster("CustomerRenamed", from_version=2)
    def add_reason(payload: dict[str, object]) -> dict[str, object]:
        return {**payload, "reason": "unknown"}

    return registry


def test_upcasters_chain_from_v1_to_the_current_version() -> None:
    registry = _registry_at_v3()
    v1 = _stored("CustomerRenamed", 1, {"customer_id": "c-1", "name": "Ada Lovelace"})
    v2 = _stored(
        "CustomerRenamed",
        2,
        {"customer_id": "c-1", "first_name": "Ada", "last_name": "L"},
    )
    assert registry.decode(v1) == CustomerRenamed("c-1", "Ada", "Lovelace", "unknown")
    assert registry.decode(v2) == CustomerRenamed("c-1", "Ada", "L", "unknown")
    assert v1.payload == {"customer_id": "c-1", "name": "Ada Lovelace"}


def test_encode_writes_the_current_schema_version() -> None:
    new = _registry_at_v3().encode(CustomerRenamed("c-1", "Ada", "L", "typo"))
    assert (new.event_type, new.schema_version) == ("CustomerRenamed", 3)
    assert new.payload["reason"] == "typo"


def test_upcast_errors() -> None:
    registry = EventRegistry()
    registry.register(CustomerRenamed, version=2)
    with pytest.raises(UpcastError, match="no upcaster"):
        registry.decode(_stored("CustomerRenamed", 1, {}))
    with pytest.raises(UpcastError, match="newer"):
        registry.decode(_stored("CustomerRenamed", 3, {}))
    with pytest.raises(UnknownEventTypeError):
        registry.decode(_stored("Nope", 1, {}))
    with pytest.raises(UnknownEventTypeError):
        registry.encode(Money(Decimal(1), "EUR"))


def test_registration_rules() -> None:
    registry = EventRegistry()

    @registry.event(name="Renamed", version=2)
    @dataclass
    class Renamed:
        name: str

    assert registry.name_of(Renamed) == "Renamed"
    with pytest.raises(ValueError, match="already registered"):
        registry.register(Money, name="Renamed")
    with pytest.raises(TypeError, match="dataclass"):
        registry.register(Colour)


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        (Decimal("0.000000000000000001"), "0.000000000000000001"),
        (Decimal("1E+2"), "100"),
        (Decimal("-1.50"), "-1.50"),
    ],
)
def test_a_decimal_is_written_in_plain_notation(amount: Decimal, text: str) -> None:
    """As the OpenAPI documents' pattern states a decimal's text: never ``1E-18``."""
    data = to_dict(Money(amount, "EUR"))

    assert data["amount"] == text
    assert from_dict(Money, data).amount == amount


def test_stored_form_renames_the_fields_of_value_objects_at_any_depth() -> None:
    """JSON an API wrote (spec names) in the form the store keeps (attribute names)."""
    shape = (
        "list",
        (
            "value",
            {
                "valueOf": ("value_of", None),
                "parts": (
                    "parts",
                    ("map", ("value", {"unitPrice": ("unit_price", None)})),
                ),
            },
        ),
    )
    written = [
        {"valueOf": "user.id", "op": "eq", "parts": {"a": {"unitPrice": "1.50"}}},
        {"parts": None},
    ]

    assert stored_form(written, shape) == [
        {"value_of": "user.id", "op": "eq", "parts": {"a": {"unit_price": "1.50"}}},
        {"parts": None},
    ]
    assert stored_form({"valueOf": 1}, None) == {"valueOf": 1}
    assert stored_form("not a list", shape) == "not a list"
