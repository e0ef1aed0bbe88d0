"""The spec language: what each construct accepts, and the located problem `validate`
reports for each way of getting it wrong."""

from __future__ import annotations

import re
import subprocess
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import REPO, Generate, spec_problems

from generator.expr import ExprError, Scope, parse
from generator.expr_code import evaluate, to_python
from generator.loading import load_spec_text
from generator.migrate import migrate_text
from generator.typeref import TypeRef

BASE = """\
version: 2
name: shop
enums:
  Status: [open, paid, cancelled]
values:
  Line:
    fields:
      sku: {type: str, pattern: "^[A-Z]+$", example: ABC}
      quantity: {type: int, min: 1}
errors:
  NotOpen: {status: 409, title: The order is not open}
aggregates:
  Customer:
    fields:
      email: {type: str, contains: "@", unique: true}
    commands:
      join: {creates: true, params: [email], emits: CustomerJoined}
  Order:
    fields:
      customerId: {type: uuid, references: Customer}
      lines: {type: "list[Line]", default: []}
      status: {type: Status, default: open}
      note: {type: str, optional: true}
      total: {type: decimal, scale: 2, default: "0"}
    invariants:
      - {check: total >= 0, message: A total is not negative, field: total}
    commands:
      place: {creates: true, params: [customerId, lines, note], emits: OrderPlaced}
      pay: {when: "status == 'open'", error: NotOpen, set: {status: paid}, emits: OrderPaid}
endpoints:
  - {method: POST, path: /api/v1/orders, command: Order.place}
  - {method: POST, path: "/api/v1/orders/{id}/pay", command: Order.pay}
  - {method: GET, path: "/api/v1/orders/{id}", query: Order.get}
"""


def problems(text: str) -> list[str]:
    return spec_problems(text, "shop.yaml")


def test_the_base_spec_is_valid() -> None:
    assert problems(BASE) == []


CASES: list[tuple[str, str, str, str]] = [
    # (what is wrong, text replaced, replacement, the expected problem's start)
    ("unknown type", "type: decimal, scale", "type: money, scale",
     "shop.yaml:24:21: aggregates.Order.fields.total.type: unknown type 'money'"),
    ("a rule for another type", "type: int, min: 1", "type: int, pattern: x",
     "shop.yaml:9:38: values.Line.fields.quantity.pattern: pattern applies to str fields"),
    ("invalid regular expression", '"^[A-Z]+$"', '"^[A-Z+$"',
     "shop.yaml:8:33: values.Line.fields.sku.pattern: invalid regular expression"),
    ("a lookahead (no linear-time engine has one)", '"^[A-Z]+$"', '"^(?=A)[A-Z]+$"',
     "shop.yaml:8:33: values.Line.fields.sku.pattern: invalid regular expression: "
     "invalid perl operator: (?= (patterns are RE2 syntax"),
    ("a back-reference", '"^[A-Z]+$"', '"^([A-Z])\\\\1$"',
     "shop.yaml:8:33: values.Line.fields.sku.pattern: invalid regular expression: "
     "invalid escape sequence: \\1"),
    ("a repetition RE2 cannot count", '"^[A-Z]+$"', '"^[A-Z]{2000}$"',
     "shop.yaml:8:33: values.Line.fields.sku.pattern: invalid regular expression: "
     "invalid repetition size: {2000}"),
    ("an int bound that is not an int", "min: 1}", "min: 1.5}",
     "shop.yaml:9:34: values.Line.fields.quantity.min: 1.5 is not an integer"),
    ("a default that breaks its type", 'default: "0"}', "default: []}",
     "shop.yaml:24:49: aggregates.Order.fields.total.default: [] does not fit total"),
    ("an example that breaks a rule", "example: ABC}", "example: abc}",
     "shop.yaml:8:54: values.Line.fields.sku.example: 'abc' does not fit sku: must match"),
    ("an enum default that is not a member", "default: open}", "default: shut}",
     "shop.yaml:22:39: aggregates.Order.fields.status.default: 'shut' does not fit status"),
    ("a guard on an unknown state", "status == 'open'", "status == 'shipped'",
     "shop.yaml:29:19: aggregates.Order.commands.pay.when: 'shipped' is not a Status"),
    ("a guard of the wrong type", "status == 'open'", "status",
     "shop.yaml:29:19: aggregates.Order.commands.pay.when: "
     "'status' is a Status (enum), expected a bool"),
    ("an unknown name in an invariant", "total >= 0", "totl >= 0",
     "shop.yaml:26:17: aggregates.Order.invariants.0.check: "
     "unknown name 'totl'; did you mean 'total'?"),
    ("code in an expression", "total >= 0", "__import__('os').system('x')",
     "shop.yaml:26:17: aggregates.Order.invariants.0.check: unknown function"),
    ("an unknown error", "error: NotOpen", "error: Closed",
     "shop.yaml:29:46: aggregates.Order.commands.pay.error: unknown error 'Closed'"),
    ("an unknown reference", "references: Customer", "references: Client",
     "shop.yaml:20:44: aggregates.Order.fields.customerId.references: unknown aggregate 'Client'"),
    ("a unique list", 'type: str, contains: "@", unique: true', 'type: "list[str]", unique: true',
     "shop.yaml:15:42: aggregates.Customer.fields.email.unique: "
     "a list[str] field cannot be unique"),
    ("a unique datetime", 'type: str, contains: "@", unique: true', "type: datetime, unique: true",
     "shop.yaml:15:39: aggregates.Customer.fields.email.unique: a datetime field cannot be"
     " unique (an instant is kept to the microsecond, so two that read as the same minute"
     " differ and uniqueness would hold almost nothing: make a date, or a str slot, unique)"),
    ("a unique float", 'type: str, contains: "@", unique: true', "type: float, unique: true",
     "shop.yaml:15:36: aggregates.Customer.fields.email.unique: a float field cannot be"
     " unique (binary fractions compare inexactly: use a decimal)"),
    ("a set on a parameter", "set: {status: paid}", "set: {missing: paid}",
     "shop.yaml:29:70: aggregates.Order.commands.pay.set.missing: "
     "unknown field 'missing' of Order"),
    ("a reserved class name", "  Line:\n", "  Request:\n",
     "shop.yaml:7:5: values.Request: 'Request' is a name the rendered code already uses"),
    ("a keyword as a service name", "name: shop", "name: class",
     "shop.yaml:2:7: name: 'class' is a Python keyword"),
    ("a service name that shadows a module", "name: shop", "name: json",
     "shop.yaml:2:7: name: the package 'json' would shadow the module"),
    ("a query on a field that is not unique",
     "{id}\", query: Order.get", "{note}\", query: Order.get",
     "shop.yaml:33:25: endpoints.2.path: {note} is not the id, a unique field or the key of Order"),
    ("a tenant path without {tenantId}",
     "{id}\", query: Order.get}", "{id}\", query: Order.get, tenant: path, permission: \"s:r\"}",
     "shop.yaml:33:25: endpoints.2.path: with `tenant: path` the path names the tenant: "
     "add {tenantId}"),
    ("a tenant path without a permission",
     "path: \"/api/v1/orders/{id}\", query: Order.get}",
     "path: \"/api/v1/t/{tenantId}/orders/{id}\", query: Order.get, tenant: path}",
     "shop.yaml:33:87: endpoints.2.tenant: a tenant in the path needs a `permission`"),
    ("an event named like an error", "emits: OrderPaid}", "emits: NotOpen}",
     "shop.yaml:29:83: aggregates.Order.commands.pay.emits: 'NotOpen' is also declared "
     "under errors: an event needs a name of its own"),
    ("an event named like a value object", "emits: OrderPaid}", "emits: Line}",
     "shop.yaml:29:83: aggregates.Order.commands.pay.emits: 'Line' is also declared under values"),
    ("a flag key that is not one", "query: Order.get}", "query: Order.get, flag: \"a b\"}",
     "shop.yaml:33:72: endpoints.2.flag: String should match pattern"),
    ("items on a field that is not a list or map", "quantity: {type: int, min: 1}",
     "quantity: {type: int, min: 1, items: {min: 1}}",
     "shop.yaml:9:44: values.Line.fields.quantity.items: items applies to a list or map"),
    ("an item rule for another type", "lines: {type: \"list[Line]\", default: []}",
     "lines: {type: \"list[Line]\", default: []}\n      codes: {type: \"list[int]\", "
     "default: [], items: {pattern: x}}",
     "shop.yaml:22:64: aggregates.Order.fields.codes.items.pattern: pattern applies to str "
     "items, not int"),
    ("a message of an item rule not given", "lines: {type: \"list[Line]\", default: []}",
     "lines: {type: \"list[Line]\", default: []}\n      codes: {type: \"list[str]\", "
     "default: [], items: {max_length: 3, messages: {min_length: short}}}",
     "shop.yaml:22:93: aggregates.Order.fields.codes.items.messages.min_length: 'min_length' "
     "is not a rule of the items (its rules: max_length)"),
    ("a default item breaking an item rule", "lines: {type: \"list[Line]\", default: []}",
     "lines: {type: \"list[Line]\", default: []}\n      codes: {type: \"list[str]\", "
     "default: [abcd], items: {max_length: 3}}",
     "shop.yaml:22:43: aggregates.Order.fields.codes.default: ['abcd'] does not fit codes: "
     "item 0 allows at most 3 characters"),
    ("an unknown tenant source",
     "query: Order.get}", "query: Order.get, tenant: header}",
     "shop.yaml:33:74: endpoints.2.tenant: Input should be 'token' or 'path'"),
    ("a view id named like a field", "  Order:\n", "  Order:\n    view_id: status\n",
     "shop.yaml:19:14: aggregates.Order.view_id: 'status' names a value the view shows already"),
    ("a view id named like a timestamp", "  Order:\n", "  Order:\n    view_id: createdAt\n",
     "shop.yaml:19:14: aggregates.Order.view_id: 'createdAt' names a value the view shows"),
    ("a view id that is not camelCase", "  Order:\n", "  Order:\n    view_id: order_id\n",
     "shop.yaml:19:14: aggregates.Order.view_id: 'order_id' must be a camelCase view_id"),
    ("a hidden field of a value object", "quantity: {type: int, min: 1}",
     "quantity: {type: int, min: 1, hidden: true}",
     "shop.yaml:9:45: values.Line.fields.quantity.hidden: hidden applies to an aggregate's"),
    ("a hidden unique field", "email: {type: str, contains: \"@\", unique: true}",
     "email: {type: str, contains: \"@\", unique: true, hidden: true}",
     "shop.yaml:15:49: aggregates.Customer.fields.email.unique: a hidden field cannot be unique"),
    ("an order by an unknown column", "query: Order.get}", "query: Order.get, order: [x]}",
     "shop.yaml:33:5: endpoints.2: filter, sort, order and page are for list queries"),
    ("a DELETE with a body", "path: \"/api/v1/orders/{id}/pay\", command: Order.pay}",
     "path: \"/api/v1/orders/{id}/pay\", command: Order.pay}\n  - {method: DELETE,"
     " path: \"/api/v1/orders/{id}\", command: Order.place}",
     "shop.yaml:33:14: endpoints.2.method: DELETE does not fit a create command"),
    ("a consistent read of an aggregate", "query: Order.get}",
     "query: Order.get, consistent: true}",
     "shop.yaml:33:78: endpoints.2.consistent: consistent is for read-model queries"),
    ("a gone state over two fields", "  Order:\n",
     "  Order:\n    gone_when: \"status == 'cancelled' and note is None\"\n",
     "shop.yaml:19:16: aggregates.Order.gone_when: gone_when is a condition over one field of"
     " the aggregate (it names note, status)"),
    ("a gone state over the time", "  Order:\n",
     "  Order:\n    gone_when: \"now > now\"\n",
     "shop.yaml:19:16: aggregates.Order.gone_when: gone_when is a condition over one field of"
     " the aggregate (it names now)"),
    ("a gone state that is no condition", "  Order:\n", "  Order:\n    gone_when: status\n",
     "shop.yaml:19:16: aggregates.Order.gone_when: "),
    ("a view tenant named like the view id", "  Order:\n",
     "  Order:\n    view_id: ref\n    view_tenant: ref\n",
     "shop.yaml:20:18: aggregates.Order.view_tenant: 'ref' names a value the view shows"),
    ("an int bound beyond what JSON carries exactly", "min: 1}", "min: 9007199254740992}",
     "shop.yaml:9:34: values.Line.fields.quantity.min: 9007199254740992 is beyond what an int"
     " holds: ±9007199254740991 (2**53 - 1)"),
    ("rules on the items of an event's field", "errors:\n",
     "events:\n  OrderPaid:\n    fields: {orderId: uuid, status: Status, occurredAt: datetime,\n"
     '             tags: {type: "list[str]", items: {max_length: 3}}}\nerrors:\n',
     "shop.yaml:13:47: events.OrderPaid.fields.tags.items: items applies to the fields requests"
     " set (an aggregate's, a value object's, a command's inputs), not to an event's"),
    ("a rule on a read model's column", "endpoints:\n",
     "read_models:\n  Notes:\n    key: orderId\n"
     "    fields: {orderId: uuid, note: {type: str, optional: true, max_length: 3}}\n"
     "    on: {OrderPlaced: upsert}\nendpoints:\n",
     "shop.yaml:33:75: read_models.Notes.fields.note.max_length: max_length applies to the"
     " fields requests set (an aggregate's, a value object's, a command's inputs), not to a"
     " read model's"),
    ("a unique read model column", "endpoints:\n",
     "read_models:\n  Notes:\n    key: orderId\n"
     "    fields: {orderId: uuid, note: {type: str, optional: true, unique: true}}\n"
     "    on: {OrderPlaced: upsert}\nendpoints:\n",
     "shop.yaml:33:71: read_models.Notes.fields.note.unique: unique applies to an aggregate's"
     " fields, not to a read model's"),
    ("an unknown field in a flow list of a key", "  Customer:\n",
     "  Customer:\n    key: [email, mail]\n",
     "shop.yaml:14:18: aggregates.Customer.key.fields.1: unknown field 'mail'"),
    ("an unknown field in a flow list of a unique combination", "  Customer:\n",
     "  Customer:\n    unique: [[email, mail]]\n",
     "shop.yaml:14:22: aggregates.Customer.unique.0.1: unknown field 'mail'"),
    ("an unknown column in a flow list of a read model's key", "endpoints:\n",
     "read_models:\n  Notes:\n    key: [orderId, nope]\n    fields: {orderId: uuid}\n"
     "    on: {OrderPlaced: upsert}\nendpoints:\n",
     "shop.yaml:32:20: read_models.Notes.key.1: unknown column 'nope'"),
    ("a bad name in a flow list of an upcast's removed fields", "errors:\n",
     "events:\n  OrderPaid:\n    version: 2\n"
     "    fields: {orderId: uuid, status: Status, occurredAt: datetime}\n"
     "    upcasts: {1: {remove: [old, Bad_One]}}\nerrors:\n",
     "shop.yaml:14:33: events.OrderPaid.upcasts.1.remove.1: 'Bad_One' must be a camelCase"),
    # it said "unknown name 'big'", listing the names it knew
    ("a computed value named in an invariant",
     "    invariants:\n      - {check: total >= 0",
     "    computed:\n      big: {type: bool, value: \"total > 100\"}\n"
     "    invariants:\n      - {check: big or total >= 0",
     "shop.yaml:28:17: aggregates.Order.invariants.0.check: 'big' is a computed value, which no"
     " other expression names: repeat its expression"),
    # an empty merge patch changes nothing (README), yet it ran a command without parameters
    ("a PATCH of a command that takes no parameters",
     '{method: POST, path: "/api/v1/orders/{id}/pay"',
     '{method: PATCH, path: "/api/v1/orders/{id}/pay"',
     "shop.yaml:32:14: endpoints.1.method: a PATCH patches fields: 'pay' takes none in its body"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("replaced", "replacement", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_each_mistake_is_located(replaced: str, replacement: str, expected: str) -> None:
    assert replaced in BASE
    found = problems(BASE.replace(replaced, replacement, 1))
    assert any(line.startswith(expected) for line in found), found


def test_a_filter_on_a_computed_value_says_the_rows_do_not_hold_it() -> None:
    invariant = "      - {check: total >= 0, message: A total is not negative, field: total}\n"
    text = BASE.replace(
        invariant, invariant + "    computed:\n      big: {type: bool, value: total > 100}\n"
    ) + (
        "  - {method: GET, path: /api/v1/orders, query: Order.list, filter: [big]}\n"
        "read_models:\n  Orders: {of: Order}\n"
    )
    assert problems(text) == [
        "shop.yaml:36:69: endpoints.3.filter.0: unknown column 'big' of Orders ('big' is"
        " computed when a row is read: the rows do not hold it)"
    ]


def test_a_command_with_a_reserved_name_is_refused_once() -> None:
    """A command named ``apply`` is refused, and only that: its endpoint and its event's
    readers were refused as well (the command was dropped), naming what only followed."""
    text = BASE.replace("      pay: {", "      apply: {").replace("Order.pay}", "Order.apply}")
    assert problems(text) == [
        "shop.yaml:29:14: aggregates.Order.commands.apply: 'apply' is a name every aggregate"
        " (or one of its fields) has; choose another"
    ]


def test_a_field_whose_type_is_wrong_is_refused_once() -> None:
    """`type: integer` is refused, and only that: the invariant, the `set` and the check
    naming the field were refused as well (unknown field, unknown name)."""
    text = BASE.replace(
        '      total: {type: decimal, scale: 2, default: "0"}',
        "      total: {type: integer, default: 0}",
    ).replace("set: {status: paid}", 'set: {status: paid, total: "total + 1"}')
    found = problems(text)
    assert len(found) == 1 and found[0].startswith(
        "shop.yaml:24:21: aggregates.Order.fields.total.type: unknown type 'integer'"
    ), found


def test_one_body_name_for_a_put_and_a_patch_is_refused() -> None:
    """A PATCH's body (each field optional) and a PUT's cannot share a name."""
    text = BASE.replace(
        "      pay: {", "      renote: {params: [note], emits: OrderRenoted}\n      pay: {", 1
    ).replace(
        "endpoints:\n",
        "endpoints:\n"
        '  - {method: PUT, path: "/api/v1/orders/{id}/note", command: Order.renote,'
        " request: Note}\n"
        '  - {method: PATCH, path: "/api/v1/orders/{id}/note", command: Order.renote,'
        " request: Note}\n",
        1,
    )
    found = problems(text)
    assert any("endpoints.1.request: 'Note' is also endpoint 0's body" in line for line in found), (
        found
    )


def test_the_examples_of_a_command_must_pass_its_own_invariants() -> None:
    text = BASE.replace("check: total >= 0", "check: total > 100")
    found = problems(text)
    assert any(
        "with the examples, Order.place is refused: the invariant 'A total is not negative'"
        ' fails (total = "0"; a value without an example is derived from its rules)' in line
        for line in found
    ), found


def test_a_duplicate_key_and_yaml_1_1_booleans(tmp_path: Path) -> None:
    assert "duplicate key 'name'" in problems(BASE + "name: again\n")[0]
    data = yaml.safe_load(BASE.replace("Status: [open", "Status: [on, off, open"))
    assert data["enums"]["Status"][:2] == [True, False]  # YAML 1.1 readers would do this
    assert problems(BASE.replace("Status: [open", "Status: [on, off, open")) == []


def test_a_version_1_spec_is_migrated_keeping_comments_and_order(
    workspace: Path, generate: Generate
) -> None:
    spec = workspace / "specs/user-profile.yaml"
    spec.parent.mkdir()
    original = (REPO / "tests/fixtures/user-profile-v1.yaml").read_text()
    assert "\nversion:" not in original
    spec.write_text(original)
    result = generate("migrate", "specs/user-profile.yaml", cwd=workspace)
    assert result.code == 0, result.err
    migrated = spec.read_text()
    assert migrated.startswith("# yaml-language-server")
    assert "version: 2" in migrated
    assert "\n        rules:" not in migrated and "\nmodels:" not in migrated
    assert "messages:\n          not_blank: Name cannot be blank" in migrated
    assert generate("validate", "specs/user-profile.yaml", cwd=workspace).code == 0
    again, _ = migrate_text(migrated)
    assert again == migrated


def _rendered(spec: Any) -> dict[str, str]:
    from generator.loading import parse_yaml
    from generator.render import Blueprint, render_files

    text = spec if isinstance(spec, str) else yaml.safe_dump(spec)
    data, _ = parse_yaml(text, "spec.yaml")
    model = load_spec_text(text, "spec.yaml")
    return render_files(Blueprint(REPO, "service"), model, data, src_path=".", commit=None)


def test_a_version_1_spec_renders_as_its_migration() -> None:
    original = (REPO / "tests/fixtures/user-profile-v1.yaml").read_text()
    migrated, _ = migrate_text(original)
    before, after = _rendered(original), _rendered(migrated)
    assert {k: v for k, v in before.items() if k != ".copier-answers.yml"} == {
        k: v for k, v in after.items() if k != ".copier-answers.yml"
    }


def test_render_refuses_a_change_stored_events_cannot_take(
    workspace: Path, generate: Generate
) -> None:
    spec = workspace / "specs/shop.yaml"
    spec.parent.mkdir()
    spec.write_text(BASE)
    assert generate("service", "shop", "--spec", str(spec), cwd=workspace).code == 0
    changed = BASE.replace("pay: {when", "pay: {inputs: {receipt: str}, when").replace(
        "set: {status: paid}, emits: OrderPaid}", "set: {status: paid}, emits: OrderPaid}"
    )
    changed += (
        "events:\n  OrderPaid:\n"
        "    fields: {orderId: uuid, status: Status, receipt: str, occurredAt: datetime}\n"
    )
    spec.write_text(changed)
    refused = generate("render", "shop", "--allow-dirty", cwd=workspace)
    assert refused.code == 1
    assert (
        "specs/shop.yaml:36:54: events.OrderPaid.fields.receipt: stored OrderPaid events (v1)"
        " have no 'receipt'" in refused.err
    )
    assert "nothing was written" in refused.err
    allowed = generate("render", "shop", "--allow-dirty", "--allow-breaking", cwd=workspace)
    assert allowed.code == 0, allowed.err


def test_only_what_production_reaches_is_rendered() -> None:
    # Order is served by endpoints; Customer only because an Order references it (the
    # use case loads it); Coupon nothing reaches.
    spec = BASE.replace(
        "endpoints:",
        "  Coupon:\n    fields:\n      code: {type: str}\n    commands:\n"
        "      issue: {creates: true, params: [code], emits: CouponIssued}\nendpoints:",
    )
    files = _rendered(spec)
    services = files["src/shop/application/services.py"]
    assert "class OrderService:" in services and "class CustomerService:" in services
    assert "class CouponService:" not in services
    assert "class CouponUseCases" not in files["src/shop/application/ports/inbound.py"]
    web, schemas = (
        files["src/shop/infrastructure/web.py"],
        files["src/shop/infrastructure/schemas.py"],
    )
    assert "def order_use_cases(" in web and "def customer_use_cases(" not in web
    assert "class Customer(View)" not in schemas and "class Order(View)" in schemas
    assert "app.state.customer" not in files["src/shop/main.py"]
    assert "CouponService" not in files["tests/test_services.py"]
    assert "class Coupon(AggregateRoot[DomainEvent])" in files["src/shop/domain/model.py"]

    # Without endpoints, policies or consumed events nothing runs the use cases.
    bare = _rendered(spec.split("endpoints:")[0])
    for absent in (
        "src/shop/application/services.py",
        "src/shop/application/ports/inbound.py",
        "tests/test_services.py",
    ):
        assert absent not in bare
    assert "UseCases" not in bare["src/shop/bootstrap.py"]

    # Reactions to consumed events are given every use case.
    consuming = _rendered(
        spec.split("endpoints:")[0]
        + "consumes:\n  billing.InvoicePaid:\n    fields: {invoiceId: uuid}\n"
    )
    assert "class CouponService:" in consuming["src/shop/application/services.py"]


def test_a_negated_guard_and_a_sort_on_a_renamed_column_render_as_meant() -> None:
    """`when: not archived` refuses when `archived` holds (no `not (not ...)`, which ruff
    refuses); a read model sorted by `key` (a field whose Python name is `key_`) sorts by
    the column it is stored in."""
    spec = (
        BASE.replace(
            "      note: {type: str, optional: true}\n",
            "      note: {type: str, optional: true}\n"
            "      key: {type: str, default: k}\n"
            "      archived: {type: bool, default: false}\n"
            "    read_model: {}\n",
        )
        .replace("    read_model: {}\n", "")
        .replace(
            "      pay: {",
            "      shelve: {when: not archived, set: {archived: true}, emits: OrderShelved}\n"
            "      pay: {",
        )
        .replace("endpoints:\n", "read_models:\n  Orders: {of: Order}\nendpoints:\n")
        + '  - {method: POST, path: "/api/v1/orders/{id}/shelve", command: Order.shelve}\n'
        "  - {method: GET, path: /api/v1/orders, query: Order.list, sort: [key], page: true}\n"
    )
    files = _rendered(spec)
    model = files["src/shop/domain/model.py"]
    assert "if self.archived_:" in model and "not (not" not in model
    assert "if self.status != Status.OPEN:" in model  # not `not (a == b)`
    web = files["src/shop/infrastructure/web.py"]
    sorted_by = web.split("columns = {")[1].split("}")[0].replace("'", '"')
    assert '"key": "key_"' in sorted_by


def test_a_field_named_like_a_pydantic_method_keeps_its_json_name() -> None:
    """`schema` (or `json`, `copy`...) would shadow BaseModel's own attribute, which
    pydantic warns about: the Python attribute is `schema_`, the JSON name `schema`."""
    spec = BASE.replace(
        "      note: {type: str, optional: true}\n",
        "      note: {type: str, optional: true}\n      schema: {type: str, default: v1}\n",
    )
    files = _rendered(spec)
    schemas = files["src/shop/infrastructure/schemas.py"]
    assert 'schema_: str = Field(alias="schema"' in schemas.replace("'", '"')
    assert "\n    schema: str" not in schemas


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("event.id", "unknown name 'event.id'; did you mean 'event.showId'?"),
        ("event.tite", "unknown name 'event.tite'; did you mean 'event.title'?"),
        ("evnt.title", "unknown name 'evnt.title'; did you mean 'event.title'?"),
        ("zzz", "unknown name 'zzz' (known: event.showId, event.title, event.venueId)"),
    ],
)
def test_an_unknown_name_is_named_whole_with_the_closest_known_one(text: str, message: str) -> None:
    uuid, str_ = TypeRef.scalar("uuid"), TypeRef.scalar("str")
    scope = Scope({"event.showId": uuid, "event.venueId": uuid, "event.title": str_})
    with pytest.raises(ExprError) as raised:
        parse(text, scope)
    assert message in str(raised.value)


def test_a_key_given_in_upsert_is_located_there() -> None:
    text = (REPO / "specs/examples/library.yaml").read_text(encoding="utf-8")
    good = "BookRegistered: {upsert: {bookId: event.bookId,"
    assert good in text
    found = problems(text.replace(good, "BookRegistered: {upsert: {bookId: event.id,"))
    assert any(
        ".on.BookRegistered.upsert.bookId: unknown name 'event.id'; "
        "did you mean 'event.bookId'?" in line
        for line in found
    ), found


LINE_SCOPE = Scope(
    {"sku": TypeRef.scalar("str"), "count": TypeRef.scalar("int")},
    values={
        "Line": {
            "sku": TypeRef.scalar("str"),
            "quantity": TypeRef.scalar("int"),
            "note": TypeRef.scalar("str").optional(),
        }
    },
)


def test_a_value_object_is_made_of_its_fields_by_name() -> None:
    node = parse("Line(sku=sku, quantity=count + 1)", LINE_SCOPE)
    assert node.type == TypeRef("value", "Line")
    code = to_python(node, {"sku": "self.sku", "count": "count"})
    assert code.source == "Line(sku=self.sku, quantity=(count + 1), note=None)"
    assert evaluate(node, {"sku": "A", "count": 2}) == {"sku": "A", "quantity": 3, "note": None}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Line(sku, count)", "Line(...) takes its fields by name: Line(field=...)"),
        ("Line(sku=sku)", "Line(...) needs quantity"),
        ("Line(sku=sku, quantity=1, size=2)", "Line has no field 'size' (fields: sku, quantity"),
        ("Line(sku=count, quantity=1)", "Line.sku: 'count' is an int, expected a str"),
        ("Line(**x)", "`**` is not allowed"),
    ],
)
def test_a_value_object_made_wrongly_is_refused(text: str, message: str) -> None:
    with pytest.raises(ExprError) as raised:
        parse(text, LINE_SCOPE)
    assert message in str(raised.value)


LIST_SCOPE = Scope(
    {
        "tags": TypeRef("list", item=TypeRef.scalar("str")),
        "tag": TypeRef.scalar("str"),
        "due": TypeRef.scalar("date").optional(),
        "today": TypeRef.scalar("date"),
    }
)


def test_a_list_is_made_from_another_with_a_comprehension() -> None:
    node = parse("[t for t in tags if t != tag]", LIST_SCOPE)
    assert node.type == TypeRef("list", item=TypeRef.scalar("str"))
    code = to_python(node, {"tags": "self.tags", "tag": "tag"})
    assert code.source == "[item_t for item_t in self.tags if (item_t != tag)]"
    assert evaluate(node, {"tags": ["a", "b", "a"], "tag": "a"}) == ["b"]
    upper = parse("[upper(t) for t in tags]", LIST_SCOPE)
    assert evaluate(upper, {"tags": ["a", "b"]}) == ["A", "B"]


def test_a_text_looked_for_in_a_list_of_an_enum_names_a_member() -> None:
    grant = TypeRef("enum", "Grant")
    scope = Scope({"grants": TypeRef("list", item=grant)}, {"Grant": ["code", "refresh"]})
    node = parse("'refresh' not in grants or 'code' in grants", scope)
    code = to_python(node, {"grants": "self.grants"}).source
    assert code == "(Grant.REFRESH not in self.grants) or (Grant.CODE in self.grants)"
    assert evaluate(node, {"grants": ["refresh"]}) is False
    with pytest.raises(ExprError) as raised:
        parse("'implicit' in grants", scope)
    assert "'implicit' is not a Grant (expected one of: code, refresh)" in str(raised.value)


def test_a_map_is_asked_for_a_key() -> None:
    """``in`` asks a map for a key, as the rendered Python asks its dict: a text; a value
    of another type (an int of a ``map[int]``) would never be found, so it is refused."""
    scope = Scope({"counts": TypeRef("map", item=TypeRef.scalar("int"))}, {})
    node = parse("'vip' in counts and 'x' not in counts", scope)
    assert to_python(node, {"counts": "self.counts"}).source == (
        "('vip' in self.counts) and ('x' not in self.counts)"
    )
    assert evaluate(node, {"counts": {"vip": 3}}) is True
    assert evaluate(node, {"counts": {"x": 3}}) is False
    with pytest.raises(ExprError) as raised:
        parse("3 in counts", scope)
    assert "`in` asks a map for a key (text), not an int" in str(raised.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[t for t in tag]", "`for` goes over a list, not a str"),
        ("[t for t in tags for u in tags]", "one `for` at a time"),
        ("[tag for tag in tags]", "'tag' is already a name here"),
        ("[t for t in tags if t]", "expected a bool, got a str"),
    ],
)
def test_a_comprehension_made_wrongly_is_refused(text: str, message: str) -> None:
    with pytest.raises(ExprError) as raised:
        parse(text, LIST_SCOPE)
    assert message in str(raised.value)


def test_a_conditional_narrows_an_optional_value_in_its_branch() -> None:
    node = parse("due if due is not None else today", LIST_SCOPE)
    assert node.type == TypeRef.scalar("date")
    node = parse("today if due is None else due", LIST_SCOPE)
    assert node.type == TypeRef.scalar("date")
    with pytest.raises(ExprError, match=r"or null"):
        parse("due if due is None else today", LIST_SCOPE, TypeRef.scalar("date"))


TWO_OPTIONALS = Scope(
    {
        "started": TypeRef.scalar("datetime").optional(),
        "ended": TypeRef.scalar("datetime").optional(),
        "class": TypeRef.scalar("str"),
        "from": TypeRef.scalar("str").optional(),
        "in": TypeRef.scalar("int"),
    }
)


@pytest.mark.parametrize(
    "text",
    [
        "(ended - started) // hours(1) if ended is not None and started is not None else 0",
        "0 if ended is None or started is None else (ended - started) // hours(1)",
        "(ended - started) // hours(1) if not (ended is None or started is None) else 0",
        "(ended - started) // hours(1) if ended != null and null != started else 0",
        "0 if ended == null or started == null else (ended - started) // hours(1)",
    ],
)
def test_every_test_of_an_and_narrows_in_the_branch_it_leads_to(text: str) -> None:
    node = parse(text, TWO_OPTIONALS)
    assert node.type == TypeRef.scalar("int")
    start = datetime(2026, 1, 1, 8, tzinfo=UTC)
    values = {"started": start, "ended": start + timedelta(hours=5)}
    assert evaluate(node, values) == 5
    assert evaluate(node, {"started": start, "ended": None}) == 0


def test_a_test_against_null_narrows_the_rest_of_an_and() -> None:
    """``x != null and <x used>``, as a new user writes it: the test narrows what follows
    it in the ``and`` (and ``x == null or <x used>`` in the ``or``)."""
    for text in (
        "ended != null and ended - started > hours(1)",
        "ended == null or ended - started > hours(1)",
    ):
        scope = Scope({**TWO_OPTIONALS.names, "started": TypeRef.scalar("datetime")})
        assert parse(text, scope).type == TypeRef.scalar("bool")


def test_a_field_named_like_a_keyword_expressions_do_not_use_is_read_as_a_name() -> None:
    node = parse("upper(class) if from is None else from + class", TWO_OPTIONALS)
    assert node.type == TypeRef.scalar("str")
    code = to_python(node, {"class": "self.class_", "from": "self.from_"})
    assert "self.class_" in code.source and "self.from_" in code.source
    assert evaluate(node, {"class": "van", "from": None}) == "VAN"
    assert evaluate(node, {"class": "van", "from": "x-"}) == "x-van"
    assert parse("'from class' == class", TWO_OPTIONALS).type == TypeRef.scalar("bool")
    # A field named like a keyword of expressions cannot be read in one: said so.
    with pytest.raises(ExprError, match="'in' names a field but is a keyword of expressions"):
        parse("in + 1", TWO_OPTIONALS)


@pytest.mark.parametrize(
    ("combination", "message"),
    [
        ("[customerId, nope]", "unknown field 'nope' (fields: customerId, lines, status"),
        ("[customerId, lines]", "a list[Line] field cannot be part of a unique combination"),
        ("[customerId, customerId]", "a field is named twice"),
        ("[[customerId, status], [status, customerId]]", "the same combination is named twice"),
        ("[customerId]", "unique"),
    ],
)
def test_a_unique_combination_names_distinct_fields_that_may_be_unique(
    combination: str, message: str
) -> None:
    anchor = "  Order:\n    fields:\n"
    assert anchor in BASE
    combinations = combination if combination.startswith("[[") else f"[{combination}]"
    text = BASE.replace(anchor, f"  Order:\n    unique: {combinations}\n    fields:\n", 1)
    found = problems(text)
    assert any("aggregates.Order.unique" in line and message in line for line in found), found


def test_a_unique_combination_says_why_a_datetime_cannot_be_part_of_it() -> None:
    anchor = "  Order:\n    fields:\n"
    text = BASE.replace(anchor, "  Order:\n    unique: [[customerId, note]]\n    fields:\n", 1)
    text = text.replace("note: {type: str, optional: true}", "note: {type: datetime}", 1)
    found = problems(text)
    assert any(
        "aggregates.Order.unique" in line
        and "a datetime field cannot be part of a unique combination (an instant is kept"
        " to the microsecond"
        in line
        for line in found
    ), found


def test_a_unique_combination_is_valid() -> None:
    anchor = "  Order:\n    fields:\n"
    text = BASE.replace(anchor, "  Order:\n    unique: [[customerId, status]]\n    fields:\n")
    assert problems(text) == []


STAFF = """\
version: 2
name: staff
aggregates:
  Employee:
    fields:
      fullName: {type: str, not_blank: true, max_length: 80}
      managerId: {type: uuid, references: Employee, optional: true}
      teamId: {type: uuid, references: Team, optional: true}
    commands:
      hire: {creates: true, params: [fullName, managerId, teamId], emits: EmployeeHired}
  Team:
    fields:
      title: {type: str}
      leadId: {type: uuid, references: Employee}
    commands:
      form: {creates: true, params: [title, leadId], emits: TeamFormed}
read_models:
  Staff: {of: Employee}
endpoints:
  - {method: POST, path: /api/v1/employees, command: Employee.hire, permission: "staff:write"}
  - {method: POST, path: /api/v1/teams, command: Team.form, permission: "staff:write"}
  - {method: GET, path: "/api/v1/managers/{managerId}/staff", query: Staff.list}
"""


def _formatted(text: str, *names: str) -> list[str]:
    from generator.blueprint_ext import format_source

    files = _rendered(text)
    package = yaml.safe_load(text)["name"]
    return [format_source(files[name], package, name) for name in names]


def test_an_optional_reference_the_tests_cannot_make_first_is_null_in_them() -> None:
    """An Employee's manager (its own aggregate) and team (a Team needs an Employee) cannot
    be made before it: no fixed id names one, so the tests pass null, and still check that
    an id naming none is refused; a path still names a value."""
    assert problems(STAFF) == []
    api, services, security = _formatted(
        STAFF, "tests/test_api.py", "tests/test_services.py", "tests/test_security.py"
    )
    assert '"managerId": None,' in api and '"teamId": None,' in api
    assert "manager_id=None" in services and "team_id=None" in services
    assert '"managerId": None' in security and '"teamId": None' in security
    for reference in ("employee", "team"):
        assert f"def test_hire_employee_needs_an_existing_{reference}(" in api
        assert f"def test_hire_employee_needs_an_existing_{reference}(" in services
    assert re.search(r'/staff"\.format\(\s*managerId="', api), "a path names a manager"
    # A Team's lead is made first, as before; an example the spec gives is kept.
    assert '"leadId": create_employee(client, headers)["id"]' in api
    example = "00000000-0000-4000-8000-000000000001"
    given = STAFF.replace(
        "optional: true}\n      teamId", f"optional: true, example: {example}}}\n      teamId"
    )
    (api,) = _formatted(given, "tests/test_api.py")
    assert f'"managerId": "{example}",' in api


def test_a_required_reference_to_its_own_aggregate_is_refused() -> None:
    """The first Employee could never be made."""
    text = STAFF.replace("references: Employee, optional: true", "references: Employee")
    found = problems(text)
    assert any(
        line.startswith("shop.yaml:5:5: aggregates.Employee: creating these needs the next one")
        and "Employee -> Employee" in line
        for line in found
    ), found


def test_a_policy_imports_what_its_expressions_need() -> None:
    """`sum` over decimals starts at Decimal(0), `days(...)` is a timedelta: policies.py
    imports both (ruff finds no undefined name)."""

    text = """\
version: 2
name: ledger
aggregates:
  Employee:
    fields:
      name: {type: str}
      credited: {type: decimal, default: "0"}
      due: {type: date, optional: true}
    commands:
      hire: {creates: true, params: [name], emits: EmployeeHired}
      credit:
        inputs: {amount: {type: decimal}, until: {type: date, optional: true}}
        set: {credited: credited + amount, due: until}
        emits: Credited
  Claim:
    fields:
      employeeId: {type: uuid, references: Employee}
      amounts: {type: "list[decimal]", default: []}
      filedOn: {type: date, example: "2030-01-02"}
    commands:
      open: {creates: true, params: [employeeId, amounts, filedOn], emits: ClaimOpened}
      pay: {emits: ClaimPaid}
events:
  ClaimPaid:
    fields: {claimId: uuid, employeeId: uuid, amounts: "list[decimal]", filedOn: date,
             occurredAt: datetime}
policies:
  Credit:
    on: ClaimPaid
    run:
      command: Employee.credit
      id: event.employeeId
      with: {amount: "sum(a for a in event.amounts)", until: "event.filedOn + days(30)"}
endpoints:
  - {method: POST, path: /api/v1/employees, command: Employee.hire}
  - {method: POST, path: /api/v1/claims, command: Claim.open}
  - {method: POST, path: "/api/v1/claims/{id}/pay", command: Claim.pay}
"""
    assert problems(text) == []
    policies = _rendered_module(text, "ledger", "src/ledger/infrastructure/policies.py")
    assert "Decimal(0)" in policies and "timedelta(days=30)" in policies
    assert "from decimal import Decimal\n" in policies
    assert "from datetime import timedelta\n" in policies


def _rendered_module(spec: str, package: str, name: str) -> str:
    """Module ``name`` of ``spec`` rendered and formatted, which ruff's F rules pass (no
    undefined name, no unused import)."""
    from generator.blueprint_ext import format_source, ruff_binary

    module = format_source(_rendered(spec)[name], package, name)
    checked = subprocess.run(
        [ruff_binary(), "check", "--isolated", "--select", "F", "--stdin-filename", name, "-"],
        input=module,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout
    return module


UPCAST_SPEC = """\
version: 2
name: seats
aggregates:
  Seat:
    fields:
      seat: {type: str}
      email: {type: str}
    commands:
      reserve: {creates: true, params: [seat, email], emits: SeatReserved}
events:
  SeatReserved:
    version: 3
    fields: {seatId: uuid, seat: str, email: str, occurredAt: datetime}
    upcasts: {1: {rename: {mail: email}}, 2: {rename: {seatLabel: seat}}}
endpoints:
  - {method: POST, path: /api/v1/seats, command: Seat.reserve}
"""


def test_each_upcast_step_gives_only_fields_its_next_version_has() -> None:
    assert problems(UPCAST_SPEC) == []
    # The last step renames to a field version 3 does not have.
    found = problems(UPCAST_SPEC.replace("{seatLabel: seat}", "{seatLabel: seatNo}"))
    assert found == [
        "shop.yaml:14:67: events.SeatReserved.upcasts.2.rename.seatLabel: gives 'seatNo',"
        " which version 3 of SeatReserved does not have (its fields: email, occurredAt,"
        " seat, seatId)"
    ]
    # An earlier step is checked against the fields the next version has (version 2:
    # email, occurredAt, seatId, seatLabel), here adding what is only named later.
    found = problems(UPCAST_SPEC.replace("1: {rename: {mail: email}}", "1: {add: {seat: x}}"))
    assert found == [
        "shop.yaml:14:31: events.SeatReserved.upcasts.1.add.seat: gives 'seat', which"
        " version 2 of SeatReserved does not have (its fields: email, occurredAt, seatId,"
        " seatLabel)"
    ]


def _breaking(before: str, after: str) -> list[str]:
    from generator.evolution import breaking_changes

    return [
        f"{'.'.join(map(str, loc))}: {message}"
        for loc, message, _ in breaking_changes(
            load_spec_text(before, "shop.yaml"), load_spec_text(after, "shop.yaml")
        )
    ]


def test_render_refuses_a_unique_rule_the_stored_values_never_claimed() -> None:
    # A unique field renamed (its events upcast): the claims stay under the old name.
    renamed = BASE.replace("      email: {type: str", "      mail: {type: str").replace(
        "params: [email]", "params: [mail]"
    ) + (
        "events:\n  CustomerJoined:\n    version: 2\n"
        "    fields: {customerId: uuid, mail: str, occurredAt: datetime}\n"
        "    upcasts: {1: {rename: {email: mail}}}\n"
    )
    assert problems(renamed) == []
    [found] = _breaking(BASE, renamed)
    assert found.startswith(
        "aggregates.Customer.fields.mail.unique: Customer's mail is unique now, but the"
        " values stored before were never claimed"
    )
    # A new unique combination, and a rule that goes away (safe: nothing is refused).
    combined = BASE.replace(
        "  Order:\n    fields:", "  Order:\n    unique: [[customerId, note]]\n    fields:"
    )
    assert [line.split(":")[0] for line in _breaking(BASE, combined)] == [
        "aggregates.Order.unique.0"
    ]
    assert _breaking(BASE, BASE.replace(", unique: true}", "}")) == []
    assert _breaking(BASE, BASE) == []


def test_render_refuses_an_upcast_from_the_stored_version_of_fields_it_lacks() -> None:
    declared = (
        "events:\n  CustomerJoined:\n    version: 2\n"
        "    fields: {customerId: uuid, email: str, occurredAt: datetime}\n"
        "    upcasts: {1: {rename: {mail: email}}}\n"
    )
    assert _breaking(BASE, BASE + declared) == [
        "events.CustomerJoined.upcasts.1.rename: stored CustomerJoined events (v1) have no"
        " 'mail' to rename (their fields: customerId, email, occurredAt)"
    ]
    fine = declared.replace(
        "{rename: {mail: email}}",
        '{remove: [occurredAt], add: {occurredAt: "2020-01-01T00:00:00Z"}}',
    )
    assert _breaking(BASE, BASE + fine) == []


def test_a_misspelt_enum_member_in_set_is_named_with_the_members() -> None:
    typo = BASE.replace("set: {status: paid}", "set: {status: payed}")
    assert problems(typo) == [
        "shop.yaml:29:69: aggregates.Order.commands.pay.set.status: 'payed' is not a"
        " Status (expected one of: open, paid, cancelled)"
    ]


def test_request_models_hold_their_defaults_and_bound_their_integers() -> None:
    """A datetime default and a default list of value objects render as values the
    models take (the imports they need, the bodies' own models), and an int without
    bounds is bounded by the integers JSON carries exactly."""

    text = """\
version: 2
name: school
values:
  Prerequisite:
    fields:
      code: {type: str, example: CS-100}
aggregates:
  Course:
    fields:
      title: {type: str, example: x}
      firstLectureAt: {type: datetime, default: "2099-09-01T08:00:00Z"}
      prerequisites: {type: "list[Prerequisite]", default: [{code: CS-100}]}
      seats: {type: int, default: 1}
      credits: {type: int, min: 1}
    commands:
      create:
        creates: true
        params: [title, firstLectureAt, prerequisites, seats, credits]
        emits: CourseCreated
endpoints:
  - {method: POST, path: /api/v1/courses, command: Course.create}
"""
    assert problems(text) == []
    name = "src/school/infrastructure/schemas.py"
    schemas = _rendered_module(text, "school", name)
    namespace: dict[str, Any] = {}
    exec(compile(schemas, name, "exec"), namespace)  # the module as rendered: its own code
    request = namespace["CreateCourseRequest"]
    for model in (namespace["PrerequisiteBody"], request):
        model.model_rebuild(_types_namespace=namespace)
    body = request.model_validate({"title": "x", "credits": 2})
    assert body.first_lecture_at == datetime(2099, 9, 1, 8, tzinfo=UTC)
    assert [p.code for p in body.prerequisites] == ["CS-100"]
    assert type(body.prerequisites[0]).__name__ == "PrerequisiteBody"
    fields = request.model_json_schema()["properties"]
    assert (fields["seats"]["minimum"], fields["seats"]["maximum"]) == (1 - 2**53, 2**53 - 1)
    assert (fields["credits"]["minimum"], fields["credits"]["maximum"]) == (1, 2**53 - 1)


def test_no_request_searches_by_a_hidden_field() -> None:
    """A hidden field is neither filtered, sorted nor looked up by (each an oracle of
    its value)."""
    text = BASE.replace(
        "note: {type: str, optional: true}", "note: {type: str, optional: true, hidden: true}"
    ).replace(
        "endpoints:\n",
        "read_models:\n  Orders: {of: Order}\nendpoints:\n  - {method: GET, path: /api/v1/o,"
        " query: Orders.list, filter: [customerId, note], sort: [note]}\n",
    )
    found = problems(text)
    assert any(
        "endpoints.0.filter.1: 'note' is hidden: no request may search by it" in line
        for line in found
    ), found
    assert any(
        "endpoints.0.sort.0: Orders cannot be sorted by 'note': 'note' is hidden" in line
        for line in found
    ), found


def test_a_list_is_ordered_by_sortable_columns_each_once() -> None:
    text = BASE.replace(
        "endpoints:\n",
        "read_models:\n  Orders: {of: Order}\nendpoints:\n  - {method: GET, path: /api/v1/o,"
        " query: Orders.list, order: [-status, lines, nope, status]}\n",
    )
    found = problems(text)
    assert [line.split(": ", 1)[1] for line in found if "order" in line] == [
        "endpoints.0.order.1: Orders cannot be sorted by 'lines': 'lines' is a list[Line];"
        " sorts take str, int, float, date, datetime and enum columns (a decimal is kept as"
        " text, exactly)",
        "endpoints.0.order.2: Orders cannot be sorted by 'nope': no column 'nope'",
        "endpoints.0.order.3: 'status' is named twice",
    ], found


def test_a_delete_serves_a_command_that_takes_nothing_but_the_path() -> None:
    """DELETE sends no body: it serves a command that deletes, makes the aggregate gone,
    or takes no parameter (a soft delete, such as disabling)."""
    text = BASE.replace(
        "      pay: {",
        "      annotate: {params: [note], emits: OrderAnnotated}\n      pay: {",
    ).replace(
        "endpoints:\n",
        "endpoints:\n"
        '  - {method: DELETE, path: "/api/v1/orders/{id}/note", command: Order.annotate}\n'
        '  - {method: DELETE, path: "/api/v1/orders/{id}/payment", command: Order.pay}\n',
    )
    found = problems(text)
    assert [line.split(": ", 1)[1] for line in found] == [
        "endpoints.0.method: DELETE sends no body: 'annotate' takes note (a command without"
        " parameters, that deletes, or whose `set` makes the aggregate gone)"
    ], found


def test_no_computed_value_or_read_model_shows_a_hidden_field() -> None:
    """A hidden field is never shown: neither through a computed value nor through a read
    model fed by the events that carry it; whether it holds a value may be (``note is
    None``)."""
    text = (
        BASE.replace(
            "note: {type: str, optional: true}",
            "note: {type: str, optional: true, hidden: true}",
        )
        .replace(
            "    invariants:\n",
            "    computed:\n      hint: {type: bool, value: note == 'x'}\n"
            "      noted: {type: bool, value: note is not None}\n    invariants:\n",
            1,
        )
        .replace(
            "endpoints:\n",
            "read_models:\n  Notes:\n    key: orderId\n"
            "    fields: {orderId: {type: uuid}, note: {type: str, optional: true}}\n"
            "    on: {OrderPlaced: upsert}\n"
            "endpoints:\n",
        )
    )
    found = problems(text)
    assert [line.split(": ", 1)[1] for line in found] == [
        "aggregates.Order.computed.hint.value: 'note' is hidden: a computed value would show it"
        " (it may ask `note is not None`)",
        "read_models.Notes.on.OrderPlaced.upsert.note: 'note' is hidden in Order: a read model"
        " would show it",
    ], found


ITEM_MESSAGES = """\
version: 2
name: tags
aggregates:
  Post:
    fields:
      title: {type: str, max_length: 9, messages: {max_length: "{value.__class__} {0} {value}"}}
      tags:
        type: "list[str]"
        items: {pattern: "^[a-z]+$", messages: {pattern: "{0} {value.__init__} {value!r} {value}"}}
    commands:
      write: {creates: true, params: [title, tags], emits: PostWritten}
endpoints:
  - {method: POST, path: /api/v1/posts, command: Post.write}
"""


def test_the_generator_matches_patterns_as_the_rendered_services_do() -> None:
    """``generate`` checks defaults and examples, and picks the tests' samples, with the
    engine and limits ``eaf.domain.matches`` has (it does not import the runtime)."""
    from eaf import domain

    from generator import patterns

    assert patterns.MAX_PATTERN_MEMORY == domain.MAX_PATTERN_MEMORY
    cases = [("^(?:[a-z]+)$", "abc"), ("^(?:\\d+)$", "\u0663"), ("^(?:a)$", "a\n")]
    cases += [("^(?:\\pL+)$", "\u00e9t\u00e9"), ("^(?:(a+)+)$", "a" * 5000 + "!")]
    for pattern, text in cases:
        assert patterns.fullmatch(pattern, text) == domain.matches(pattern, text), pattern
    assert [patterns.fullmatch(p, t) for p, t in cases] == [True, False, False, True, False]


def test_a_message_is_never_formatted_only_its_value_token_replaced() -> None:
    """Spec text reaches the rendered code as a string literal; at run time ``{value}`` is
    replaced as text (``with_value``), so other braces stay as written and nothing is
    looked up on the value."""
    from eaf.domain import with_value as rendered_with_value

    from generator.context_fields import with_value

    model = _rendered_module(ITEM_MESSAGES, "tags", "src/tags/domain/model.py")
    assert 'with_value("{value.__class__} {0} {value}", value)' in model
    assert 'with_value("{0} {value.__init__} {value!r} {value}", value)' in model
    assert ".format(" not in model
    message = "{0} {value.__init__} {value!r} {value}"
    assert rendered_with_value(message, "Bad") == '{0} {value.__init__} {value!r} "Bad"'
    assert rendered_with_value("{value}", "x" * 100) == '"' + "x" * 62 + "\u2026"
    assert rendered_with_value("no token", object()) == "no token"
    for value in ["Bad", "x" * 100, 'quote " and \u00e9', 7, 2.5, ["a", 1], {"k": "v"}]:
        assert with_value(message, value) == rendered_with_value(message, value), value
    tests = _rendered(ITEM_MESSAGES)["tests/test_api.py"]
    assert """"message": '{value.__class__} {0} "xxxxxxxxxx"'}""" in tests


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "version: 2\nname: shop\naggregates:\n\tOrder: {}\n",
            "shop.yaml:4:1: <spec>: YAML syntax error: found character that cannot start any"
            " token (a tab: YAML indents with spaces only)",
        ),
        (
            "version: 2\nname: shop\nenums:\n  Color: [red, red]\n",
            "shop.yaml:4:16: enums.Color.1: 'red' is listed twice",
        ),
        (
            "version: 2\nname: shop\nerrors:\n"
            '  Late: {status: 409, title: t, type: "urn:a\\\\b"}\n',
            "shop.yaml:4:39: errors.Late.type: a problem type is an absolute URI (RFC 3986: a"
            " scheme, a colon, then letters, digits and - . _ ~ : / ? # [ ] @ ! $ & ' ( ) * +"
            " , ; = %)",
        ),
        (
            "version: 2\nname: shop\naggregates:\n  Pass:\n"
            "    fields: {owner: str, code: {type: str, secret: generated}}\n"
            "    commands: {issue: {creates: true, params: [owner], emits: PassIssued}}\n",
            "shop.yaml:6:47: aggregates.Pass.commands.issue.params: a creating command sets"
            " every field without a default (missing: code); list code in params: the service"
            " makes a generated secret, the request never gives it",
        ),
        (
            "version: 2\nname: shop\naggregates:\n  Sale:\n    fields: {shop: str, total: int}\n"
            "    commands: {ring: {creates: true, params: [shop, total], emits: SaleRung}}\n"
            "read_models:\n  Tills:\n    key: shop\n"
            "    fields: {shop: str, sales: int, best: {type: int, default: 0}}\n"
            "    on: {SaleRung: {set: {best: 'max(best, event.total)'}, create: true}}\n",
            "shop.yaml:11:68: read_models.Tills.on.SaleRung.create: a row it creates needs a"
            " default for sales (or make it optional)",
        ),
        (
            "version: 2\nname: shop\naggregates:\n  Sale:\n    fields: {shop: str, total: int}\n"
            "    commands: {ring: {creates: true, params: [shop, total], emits: SaleRung}}\n"
            "read_models:\n  Tills:\n    key: shop\n"
            "    fields: {shop: str, sales: {type: int, default: 0}}\n"
            "    on: {SaleRung: {upsert: {sales: 1}, create: true}}\n",
            "shop.yaml:11:49: read_models.Tills.on.SaleRung.create: `create` goes with `set`: a"
            " missing row starts from its defaults, then `set` changes it",
        ),
        (
            "version: 2\nname: shop\naggregates:\n  Sale:\n    fields: {total: int}\n"
            "    commands:\n      ring: {creates: true, params: [total], emits: SaleRung}\n"
            "      fix: {params: [total], emits: SaleFixed}\n"
            "events:\n  SaleFixed: {fields: {saleId: str, total: int, occurredAt: datetime}}\n",
            "shop.yaml:10:32: events.SaleFixed.fields.saleId.type: 'saleId' is Sale's id, a uuid"
            " in its other events (every event of an aggregate carries its id as one type)",
        ),
    ],
)
def test_a_new_users_slips_are_named_plainly(text: str, expected: str) -> None:
    """A tab in the indentation, a member listed twice, a problem type with a character
    no URI has, a generated secret left out of its creating command, a row created
    without the defaults it needs: each said in the user's terms (not the parser's or
    Python's)."""
    assert problems(text)[0] == expected


def test_a_number_with_a_fraction_beside_a_decimal_is_a_decimal() -> None:
    """`total >= 0.5` was refused ("cannot order a decimal and a float"), and a decimal
    constant could not be written at all: a literal beside a decimal is the decimal it
    spells, in checks, computed values and `set`."""
    spec = BASE.replace(
        "      - {check: total >= 0,",
        '      - {check: "total >= 0 and total * 1.25 < 1000000.5 and -0.5 < total",',
    ).replace(
        "set: {status: paid}",
        'set: {status: paid, total: "total + 0.10 + 12345678901234567.89 - 1_000.000"}',
    )
    assert problems(spec) == []
    model = _rendered(spec)["src/shop/domain/model.py"]
    # as written, not as the nearest float spells it (0.1, 1.2345678901234568e+16, 1000.0)
    for literal in ("1.25", "1000000.5", "0.10", "12345678901234567.89", "1000.000"):
        assert f"Decimal('{literal}')" in model or f'Decimal("{literal}")' in model, literal
    # a plain YAML number a float cannot hold is named: quoted, it is text, kept as written
    unquoted = BASE.replace(
        "set: {status: paid}", "set: {status: paid, total: 0.1000000000000000001}"
    )
    assert [line for line in problems(unquoted) if "float" in line] == [
        "shop.yaml:29:82: aggregates.Order.commands.pay.set.total: '0.1000000000000000001' has"
        " more digits than a float holds (it would read as 0.1): write it in quotes to keep"
        " it as written"
    ]
    # a float where no decimal is beside it stays a float, and still does not mix
    mixed = BASE.replace("      - {check: total >= 0,", '      - {check: "total > 1.5 + 1.5",')
    assert any("cannot order a decimal and a float" in line for line in problems(mixed))


def test_a_policy_or_an_also_gives_an_optional_parameter_null() -> None:
    """``with: {budget: null}`` clears it, as ``set`` does; a required one says so."""
    spec = """\
version: 2
name: plans
aggregates:
  Plan:
    fields:
      budget: {type: decimal, optional: true}
      done: {type: bool, default: false}
    commands:
      start: {creates: true, params: [budget], emits: PlanStarted}
      adjust: {params: [budget], emits: PlanAdjusted}
      finish: {set: {done: true}, emits: PlanFinished}
policies:
  ClearBudget:
    on: PlanFinished
    run: {command: Plan.adjust, id: event.planId, with: {budget: null}}
"""
    assert spec_problems(spec, "plans.yaml") == []
    required = spec.replace("budget: {type: decimal, optional: true}", "budget: decimal")
    assert spec_problems(required, "plans.yaml") == [
        "plans.yaml:15:66: policies.ClearBudget.run.with.budget: 'None' is null, expected a decimal"
    ]


def test_a_refused_creating_command_names_its_values_not_a_state() -> None:
    spec = """\
version: 2
name: clinic
aggregates:
  Visit:
    fields:
      minutes: {type: int, example: 30}
      urgent: {type: bool, default: false}
    commands:
      book: {creates: true, params: [minutes, urgent], when: "urgent or minutes >= 15",
             emits: VisitBooked}
      extend: {params: [minutes], when: "not urgent", emits: VisitExtended}
"""
    (model,) = _formatted(spec, "src/clinic/domain/model.py")
    assert '"Visit.book is not allowed with these values"' in model
    assert '"Visit.extend is not allowed in the current state"' in model


def test_round_takes_a_number_and_its_places_and_says_so_otherwise() -> None:
    scope = Scope({"price": TypeRef.scalar("decimal"), "ratio": TypeRef.scalar("float")})
    assert parse("round(price * 1.2, 2)", scope).type == TypeRef.scalar("decimal")
    assert parse("round(ratio, 1)", scope).type == TypeRef.scalar("float")
    assert to_python(parse("round(price, 2)", scope), {"price": "self.price"}).source == (
        "round(self.price, 2)"
    )
    assert evaluate(parse("round(price, 2)", scope), {"price": Decimal("2.345")}) == Decimal(
        "2.34"
    )  # a half to the even digit
    with pytest.raises(ExprError) as raised:
        parse("round(price)", scope)
    assert "how many places: round(total, 2)" in str(raised.value)


def test_a_reference_an_also_gives_is_one_the_command_checks() -> None:
    spec = """\
version: 2
name: depots
aggregates:
  Product:
    key: code
    fields:
      code: {type: str, pattern: "^[A-Z]-[0-9]+$", example: "P-1"}
    commands:
      add: {creates: true, params: [code], emits: ProductAdded}
  Depot:
    fields:
      lastCode: {type: str, references: Product.code, optional: true}
    commands:
      open: {creates: true, params: [lastCode], emits: DepotOpened}
      noteCode: {params: [lastCode], emits: CodeNoted}
  Order:
    fields:
      depotId: {type: uuid, references: Depot}
    commands:
      place: {creates: true, params: [depotId], emits: OrderPlaced}
      viaCode:
        inputs: {code: {type: str, example: "P-1"}}
        emits: ViaCode
        also: [{command: Depot.noteCode, id: depotId, with: {lastCode: code}}]
"""
    assert spec_problems(spec, "depots.yaml") == [
        "depots.yaml:24:72: aggregates.Order.commands.viaCode.also.0.with.lastCode: lastCode"
        " references Product.code: give it a field or an argument of this command with"
        " `references: Product.code` (then the request's value is checked, and the tests make"
        " what it names)"
    ]
    checked = spec.replace(
        'code: {type: str, example: "P-1"}', "code: {type: str, references: Product.code}"
    )
    assert spec_problems(checked, "depots.yaml") == []
