"""`generate check` holds the contracts between services: a consumed field must be
published as the consumer reads it, and a breaking change to a published event names the
services it would break."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Generate

SHOP = """\
version: 2
name: shop
aggregates:
  Order:
    fields:
      customer: {type: str}
      total: {type: decimal, scale: 2}
      note: {type: str, optional: true}
    commands:
      place: {creates: true, params: [customer, total, note], emits: OrderPlaced}
endpoints:
  - {method: POST, path: /api/v1/orders, command: Order.place}
"""

BILLING = """\
version: 2
name: billing
aggregates:
  Invoice:
    fields:
      orderId: {type: str}
    commands:
      open: {creates: true, params: [orderId], emits: InvoiceOpened}
consumes:
  shop.OrderPlaced:
    fields: {orderId: str, total: decimal, customer: str}
"""


@pytest.fixture
def services(workspace: Path, generate: Generate) -> Path:
    specs = workspace / "specs"
    specs.mkdir()
    for name, text in (("shop", SHOP), ("billing", BILLING)):
        (specs / f"{name}.yaml").write_text(text)
        made = generate("service", name, cwd=workspace)
        assert made.code == 0, made.err
    return workspace


def test_a_consumer_reading_what_is_published_passes(services: Path, generate: Generate) -> None:
    checked = generate("check", "--all", cwd=services)
    assert checked.code == 0, checked.err
    assert "2 project(s) up to date" in checked.out


def test_a_retyped_published_field_names_the_consumer(services: Path, generate: Generate) -> None:
    spec = services / "specs/shop.yaml"
    spec.write_text(SHOP.replace("total: {type: decimal, scale: 2}", "total: {type: int}"))
    checked = generate("check", "--all", cwd=services)
    assert checked.code == 1
    assert (
        "specs/billing.yaml: consumes.shop.OrderPlaced.fields.total: shop.OrderPlaced.total "
        "is published as int, not readable as decimal" in checked.err
    )
    assert (
        # at the field of the aggregate: OrderPlaced is not declared under `events`
        "specs/shop.yaml: aggregates.Order.fields.total.type: OrderPlaced.total was decimal,"
        " now int" in (checked.err)
    )
    assert "it would break billing, which consume shop.OrderPlaced" in checked.err


def test_a_field_renamed_with_an_upcast_still_breaks_its_reader(
    services: Path, generate: Generate
) -> None:
    renamed = SHOP.replace("customer", "buyer") + (
        "events:\n  OrderPlaced:\n    version: 2\n"
        "    fields: {orderId: uuid, buyer: str, total: decimal, note: {type: str, optional: true},"
        " occurredAt: datetime}\n"
        "    upcasts: {1: {rename: {customer: buyer}}}\n"
    )
    (services / "specs/shop.yaml").write_text(renamed)
    checked = generate("check", "--all", cwd=services)
    assert checked.code == 1, checked.out
    assert "consumes.shop.OrderPlaced.fields.customer: shop.OrderPlaced has no 'customer'" in (
        checked.err
    )
    assert "events.OrderPlaced" not in checked.err.replace("shop.OrderPlaced", "")


def test_a_nullable_field_must_be_read_as_optional_and_unknown_events_are_named(
    services: Path, generate: Generate
) -> None:
    billing = services / "specs/billing.yaml"
    billing.write_text(
        BILLING.replace("customer: str}", "customer: str, note: str}")
        + "  shop.OrderShipped:\n    fields: {orderId: str}\n"
    )
    checked = generate("check", "--all", cwd=services)
    assert checked.code == 1
    assert "fields.note: shop.OrderPlaced.note may be null (str | null)" in checked.err
    assert (
        "consumes.shop.OrderShipped: shop publishes no OrderShipped (its events: OrderPlaced)"
        in (checked.err)
    )


def test_a_field_added_later_must_be_read_with_a_default(
    services: Path, generate: Generate
) -> None:
    # Events are published as they were stored: those written before `channel` was added
    # (with a default) and before the upcast that adds `currency` carry neither.
    shop = services / "specs/shop.yaml"
    shop.write_text(
        SHOP.replace(
            "note: {type: str, optional: true}\n",
            "note: {type: str, optional: true}\n      channel: {type: str, default: web}\n"
            "      currency: {type: str}\n",
        ).replace(
            "params: [customer, total, note]", "params: [customer, total, note, channel, currency]"
        )
        + "events:\n  OrderPlaced:\n    version: 2\n"
        "    fields: {orderId: uuid, customer: str, total: decimal, note: {type: str,"
        " optional: true}, channel: {type: str, default: web}, currency: str,"
        " occurredAt: datetime}\n"
        "    upcasts: {1: {add: {currency: EUR}}}\n"
    )
    billing = services / "specs/billing.yaml"
    billing.write_text(
        BILLING.replace("customer: str}", "customer: str, channel: str, currency: str}")
    )
    checked = generate("check", "--all", cwd=services)
    assert checked.code == 1
    assert (
        "fields.channel: shop.OrderPlaced.channel may be missing from events published before"
        " it was added (it has a default: a field added with one takes no new version"
        in checked.err
    )
    assert "fields.currency: shop.OrderPlaced.currency may be missing" in checked.err
    assert "an upcast of OrderPlaced makes it" in checked.err
    # Read with a default (or as optional), both are fine.
    billing.write_text(
        BILLING.replace(
            "customer: str}",
            "customer: str, channel: {type: str, default: web},"
            " currency: {type: str, optional: true}}",
        )
    )
    checked = generate("check", "--all", cwd=services)
    assert "may be missing" not in checked.err, checked.err
