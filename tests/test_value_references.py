"""``references`` on a value object's field: each value a command's argument holds (an
order's lines, each naming a product) must name an aggregate of the tenant, checked in the
command's transaction and reported at its path (``lines.1.productId``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from helpers import Result, app_probe, ran_in, service_of, spec_problems

SHOP = """\
version: 2
name: shop
enums:
  Channel: [web, store]
values:
  OrderLine:
    fields:
      productId: {type: uuid, references: Product}
      quantity: {type: int, min: 1}
      # by the key's value, a list of them
      tags: {type: "list[str]", references: Tag.code, default: [],
             messages: {references: "Unknown tag {value}"}}
      note: {type: str, optional: true}
  Shipment:
    fields:
      lines: {type: "list[OrderLine]", min_length: 1}
  OrderRef:
    fields:
      orderId: {type: uuid, references: Order}
aggregates:
  Tag:
    key: code
    fields:
      code: {type: str, pattern: "^[a-z]{2,10}$"}
    commands:
      create: {params: [code], emits: TagCreated, creates: true}
  Product:
    fields:
      name: {type: str}
    commands:
      create: {params: [name], emits: ProductCreated, creates: true}
  Order:
    fields:
      lines: {type: "list[OrderLine]", min_length: 1}
      gift: {type: OrderLine, optional: true}
      # two lists of references to two aggregates in one command
      labels: {type: "list[str]", references: Tag.code, default: []}
      related: {type: "list[uuid]", references: Product, default: []}
      # an optional list of references: null names nothing
      watchers: {type: "list[str]", references: Tag.code, optional: true}
      # back to its own aggregate: an empty list, an optional value object (the tests give
      # none: the first order could name no other)
      follows: {type: "list[uuid]", references: Order, default: []}
      previous: {type: OrderRef, optional: true}
      # the examples name aggregates inside a map and a list: the tests make them first
      shipments:
        type: "map[Shipment]"
        default: {}
        example:
          home:
            lines:
              - {productId: 3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f, quantity: 2, tags: [gift, red]}
    commands:
      place: {params: [lines, gift, shipments, labels, related, watchers, follows, previous],
              emits: OrderPlaced,
              creates: true}
      addLine:
        inputs:
          line: {type: OrderLine}
        set: {lines: "lines + [line]"}
        emits: LineAdded
# a consumed event of an enum and a value object (its generated test samples them)
consumes:
  billing.InvoicePaid:
    fields: {orderId: uuid, channel: Channel, line: OrderLine}
endpoints:
  - {method: POST, path: /api/v1/tags, command: Tag.create}
  - {method: POST, path: /api/v1/products, command: Product.create}
  - {method: POST, path: /api/v1/orders, command: Order.place}
  - {method: POST, path: "/api/v1/orders/{orderId}/lines", command: Order.addLine}
  - {method: GET, path: "/api/v1/orders/{orderId}", query: Order.get}
"""

SHOP_PROBE = """
with TestClient(create_app(settings)) as client:
    post = client.post
    tea = post("/api/v1/products", json={"name": "tea"}).json()["id"]
    assert post("/api/v1/tags", json={"code": "green"}).status_code == 201
    unknown = "0f0e0d0c-0b0a-4908-8706-050403020100"
    lines = [{"productId": tea, "quantity": 1, "tags": ["green"]},
             {"productId": unknown, "quantity": 2, "tags": ["green", "black"]}]
    shipments = {"a.b": {"lines": [{"productId": unknown, "quantity": 1}]}}
    refused = post("/api/v1/orders", json={"lines": lines, "shipments": shipments})
    assert refused.status_code == 422, refused.text
    # every unknown reference, each at its path
    assert sorted(
        (e["field"], e["message"]) for e in refused.json()["errors"]
    ) == [
        ("lines.1.productId", "No product has this id"),
        ("lines.1.tags.1", 'Unknown tag "black"'),
        ('shipments["a.b"].lines.0.productId', "No product has this id"),
    ], refused.text
    lines[1] = {"productId": tea, "quantity": 2, "tags": []}
    placed = post("/api/v1/orders", json={"lines": lines, "gift": None, "watchers": None})
    assert placed.status_code == 201, placed.text
    path = "/api/v1/orders/" + placed.json()["id"] + "/lines"
    gone = post(path, json={"line": {"productId": unknown, "quantity": 1}})
    assert gone.status_code == 422, gone.text
    assert [e["field"] for e in gone.json()["errors"]] == ["line.productId"], gone.text
    first = placed.json()["id"]
    second = post("/api/v1/orders", json={"lines": lines, "follows": [first],
                                          "previous": {"orderId": first}})
    assert second.status_code == 201, second.text
    nowhere = post("/api/v1/orders", json={"lines": lines, "previous": {"orderId": unknown}})
    assert [e["field"] for e in nowhere.json()["errors"]] == ["previous.orderId"], nowhere.text
    added = post(path, json={"line": {"productId": tea, "quantity": 3}})
    assert added.status_code == 200, added.text
    assert len(added.json()["lines"]) == 3, added.text
    # another tenant's product is no product of this one
    other = client.post("/api/v1/orders", json={"lines": lines[:1]},
                        headers={"X-Tenant-Id": "other"})
    assert other.status_code == 422, other.text
"""


def test_references_inside_value_objects_are_checked_at_their_paths(
    workspace: Path, generate: Callable[..., Result]
) -> None:
    project = service_of(workspace, generate, "shop", SHOP)
    services = (project / "src/shop/application/services.py").read_text()
    assert 'member_path(member_path("shipments", _k0) + ".lines", _i2)' in services
    api_tests = (project / "tests/test_api.py").read_text()
    # the examples' product and tags are made first, in the request's tenant
    assert 'create_tag(client, headers)["code"]' in api_tests
    ran_in(project, "-m", "ruff", "check", ".")
    ran_in(project, "-m", "mypy", "--strict", "src")
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    app_probe(project, SHOP_PROBE, workspace)


def test_a_value_objects_reference_back_to_its_own_aggregate_needs_to_be_optional() -> None:
    spec = (
        "version: 2\nname: tasks\n"
        "values:\n  Link:\n    fields:\n"
        "      taskId: {type: uuid, references: Task}\n"
        "aggregates:\n  Task:\n    fields:\n"
        "      title: str\n      parent: {type: Link}\n"
        "    commands: {open: {creates: true, params: [title, parent], emits: Opened}}\n"
    )
    assert [p.split(": ", 1)[1] for p in spec_problems(spec, "tasks.yaml")] == [
        "aggregates.Task: creating these needs the next one to exist first: Task -> Task"
        " (make one of the references optional)"
    ]
    optional = spec.replace("references: Task}", "references: Task, optional: true}")
    assert spec_problems(optional, "tasks.yaml") == []
