"""Natural keys (``key:``): an aggregate whose id is derived from fields set when it is made,
in its tenant; what `validate` refuses, what `render` refuses over stored data, and a
rendered service that keeps a key as a unique value is kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Generate, ran_in, spec_problems

from generator.evolution import breaking_changes
from generator.loading import load_spec_text

STOCK = """\
version: 2
name: stock
enums:
  Aisle: [north, south]
aggregates:
  Product:
    key: [sku]
    fields:
      sku: {type: str, pattern: "^[A-Z]{3}-[0-9]{4}$", example: ABC-0001}
      title: {type: str, not_blank: true}
      price: {type: decimal, scale: 2, example: "9.50"}
      bin: {type: int, min: 1, max: 500, example: 3}
      tags: {type: "list[str]", references: Tag.code, default: [],
             messages: {references: "No tag {value}"}}
    commands:
      register: {creates: true, params: [sku, title, price, bin, tags], emits: ProductRegistered}
      reprice: {params: [price], emits: ProductRepriced}
      retire: {deletes: true, emits: ProductRetired}
  Slot:
    key: {fields: [aisle, position], namespace: 0b6c5f8e-3c4b-5f43-9a57-1f6a0d7c2e91, label: slot}
    fields:
      aisle: {type: Aisle}
      position: {type: int, min: 1, max: 500}
      productId: {type: uuid, references: Product, optional: true}
    commands:
      open: {creates: true, params: [aisle, position], emits: SlotOpened}
      fill: {params: [productId], inputs: {tag: {type: str, references: Tag.code}}, emits: Filled}
  # named in any case (Steel is steel), its id derived from the tenant and the code alone
  Tag:
    key: {fields: [code], label: "", ignore_case: true}
    fields:
      code: {type: str, pattern: "^[A-Za-z]{2,20}$", example: Steel}
    commands:
      define: {creates: true, params: [code], emits: TagDefined}
# every product opens its bin's slot; a second product in the same bin finds it taken
policies:
  OpenTheBin:
    on: ProductRegistered
    run: {command: Slot.open, with: {aisle: "'north'", position: event.bin}}
read_models:
  Products: {of: Product}
endpoints:
  - {method: POST, path: /api/v1/products, command: Product.register, permission: "stock:write"}
  - {method: GET, path: "/api/v1/products/{id}", query: Product.get, permission: "stock:read"}
  - {method: GET, path: /api/v1/products, query: Products.list, permission: "stock:read"}
  - {method: PATCH, path: "/api/v1/products/{id}", command: Product.reprice,
     permission: "stock:write"}
  - {method: DELETE, path: "/api/v1/products/{id}", command: Product.retire,
     permission: "stock:write"}
  - {method: POST, path: /api/v1/slots, command: Slot.open, permission: "stock:write"}
  - {method: PUT, path: "/api/v1/slots/{id}/product", command: Slot.fill,
     permission: "stock:write"}
  - {method: GET, path: "/api/v1/slots/{id}", query: Slot.get, permission: "stock:read"}
  - {method: POST, path: /api/v1/tags, command: Tag.define, permission: "stock:write"}
"""


def problems(text: str) -> list[str]:
    return spec_problems(text, "stock.yaml")


def test_the_spec_with_keys_is_valid() -> None:
    assert problems(STOCK) == []


@pytest.mark.parametrize(
    ("replaced", "replacement", "expected"),
    [
        (
            "key: [sku]",
            "key: [code]",
            "stock.yaml:7:11: aggregates.Product.key.fields.0: unknown field 'code' (fields:"
            " sku, title, price, bin, tags)",
        ),
        (
            "key: [sku]",
            "key: [sku, sku]",
            "stock.yaml:7:16: aggregates.Product.key.fields.1: 'sku' is named twice",
        ),
        ("key: [sku]", "key: [title, sku]", None),  # set when made, changed by none
        (
            "key: [sku]",
            "key: [price]",
            "stock.yaml:7:11: aggregates.Product.key.fields.0: 'reprice' changes 'price': a key"
            " is never changed (the id is made of it)",
        ),
        (
            "position: {type: int, min: 1, max: 500}",
            "position: {type: int, min: 1, max: 500, optional: true}",
            "stock.yaml:20:27: aggregates.Slot.key.fields.1: 'position' is optional: every"
            " aggregate needs its key",
        ),
        (
            "open: {creates: true, params: [aisle, position]",
            "open: {creates: true, params: [aisle], set: {position: 1}",
            "stock.yaml:20:27: aggregates.Slot.key.fields.1: 'open' creates a Slot without"
            " taking 'position' as a parameter: a key is given by the request that creates it;"
            "stock.yaml:39:66: policies.OpenTheBin.run.with.position: Slot.open takes no"
            " 'position'",
        ),
        (
            "key: {fields: [aisle, position], namespace: 0b6c5f8e-3c4b-5f43-9a57-1f6a0d7c2e91,",
            "key: {fields: [aisle, position], namespace: not-a-uuid,",
            "stock.yaml:20:49: aggregates.Slot.key.namespace: 'not-a-uuid' is not a UUID",
        ),
        (
            "label: slot}",
            "label: Slot Row}",
            "stock.yaml:20:94: aggregates.Slot.key.label: 'Slot Row' must be lower-case words"
            " with dashes (^[a-z0-9]+(?:-[a-z0-9]+)*$), or empty",
        ),
        (
            "sku: {type: str, pattern",
            "sku: {type: str, unique: true, pattern",
            "stock.yaml:7:11: aggregates.Product.key.fields.0: 'sku' is unique already: the key"
            " keeps it unique",
        ),
        ("key: [sku]", "key: sku", None),  # one field, named alone
        (
            "references: Tag.code, default",
            "references: Product.title, default",
            "stock.yaml:13:45: aggregates.Product.fields.tags.references: 'title' is not the"
            " key of Product (a reference names an aggregate, by its id, or the one field of"
            " its key: Product.sku)",
        ),
        (
            "references: Tag.code, default",
            "references: Tag., default",
            "stock.yaml:13:45: aggregates.Product.fields.tags.references: '' is not the key of"
            " Tag (a reference names an aggregate, by its id, or the one field of its key:"
            " Tag.code)",
        ),
        (
            "references: Tag.code, default",
            "references: Slot.aisle, default",
            "stock.yaml:13:45: aggregates.Product.fields.tags.references: 'aisle' is not the"
            " key of Slot (a reference names an aggregate, by its id, or the one field of"
            " its key: Slot has a key of 2 fields)",
        ),
        (
            'tags: {type: "list[str]"',
            'tags: {type: "list[int]"',
            "stock.yaml:13:20: aggregates.Product.fields.tags.type: a reference to Tag by its"
            " code is a str (or a list of them), not list[int]",
        ),
        (
            'label: "", ignore_case: true}',
            "label: product, ignore_case: true}",
            "stock.yaml:30:34: aggregates.Tag.key.label: Product's key has this namespace and"
            " label ('product'): their ids could meet (give one of them another label)",
        ),
        (
            "label: slot}",
            "label: slot, ignore_case: true}",
            "stock.yaml:20:113: aggregates.Slot.key.ignore_case: only a key of str fields"
            " ignores case ('aisle' is of type Aisle)",
        ),
        (
            "    key: {fields: [aisle, position],",
            "    unique: [[position, aisle, productId]]\n    key: {fields: [aisle, position],",
            "stock.yaml:20:14: aggregates.Slot.unique.0: the combination holds every field of the"
            " key: the key keeps it unique",
        ),
        # a unique field or combination that shares only some of the key's fields is a
        # rule of its own
        ("position: {type: int, min: 1,", "position: {type: int, unique: true, min: 1,", None),
        (
            "    key: {fields: [aisle, position],",
            "    unique: [[position, productId]]\n    key: {fields: [aisle, position],",
            None,
        ),
        # a command's path names its aggregate by {id} or by the one field of its key
        (
            '{method: DELETE, path: "/api/v1/products/{id}"',
            '{method: DELETE, path: "/api/v1/products/{title}"',
            "stock.yaml:48:28: endpoints.4.path: command 'retire' needs the path parameter"
            " {id} (or {sku}, the one field of its key)",
        ),
        (
            'path: "/api/v1/slots/{id}/product"',
            'path: "/api/v1/slots/{aisle}/product"',
            "stock.yaml:51:25: endpoints.6.path: command 'fill' needs the path parameter {id}",
        ),
        (
            '{method: DELETE, path: "/api/v1/products/{id}"',
            '{method: DELETE, path: "/api/v1/products/{sku}"',
            None,
        ),
        (
            "key: [sku]",
            "key: {fields: []}",
            "stock.yaml:7:19: aggregates.Product.key.fields: List should have at least 1 item"
            " after validation, not 0",
        ),
    ],
)
def test_each_mistake_of_a_key_is_located(
    replaced: str, replacement: str, expected: str | None
) -> None:
    assert replaced in STOCK
    found = problems(STOCK.replace(replaced, replacement))
    assert found == ([] if expected is None else expected.split(";"))


def test_an_aggregate_read_as_its_tenants_own_record_has_no_key() -> None:
    own = STOCK.replace("    key: [sku]\n", "    key: [sku]\n    view_id: tenantId\n") + (
        '  - {method: GET, path: "/api/v1/tenants/{tenantId}", query: Product.get,'
        ' tenant: path, permission: "stock:read"}\n'
    )
    [found] = problems(own)
    assert found.endswith(
        "Product's id is derived from its key (sku): it is never the tenant's, so no"
        " tenant's own record can be read this way"
    )


def test_a_list_or_a_hidden_field_is_no_key() -> None:
    assert problems(STOCK.replace("key: [sku]", "key: [tags]")) == [
        "stock.yaml:7:11: aggregates.Product.key.fields.0: a list[str] field cannot be part of"
        " a key"
    ]
    hidden = STOCK.replace(
        "title: {type: str, not_blank: true}", "title: {type: str, hidden: true}"
    )
    assert problems(hidden.replace("key: [sku]", "key: [title]")) == [
        "stock.yaml:7:11: aggregates.Product.key.fields.0: 'title' is hidden: a duplicate"
        " answer would tell it"
    ]


def _breaking(before: str, after: str) -> list[str]:
    return [
        f"{'.'.join(map(str, loc))}: {message}"
        for loc, message, _ in breaking_changes(
            load_spec_text(before, "stock.yaml"), load_spec_text(after, "stock.yaml")
        )
    ]


def test_render_refuses_a_key_the_stored_ids_were_not_made_by() -> None:
    unkeyed = STOCK.replace("    key: [sku]\n", "")
    [found] = _breaking(unkeyed, STOCK)
    assert found.startswith(
        "aggregates.Product.key: Product's id is derived from sku now, but the ids stored"
        " before were made otherwise"
    )
    relabelled = STOCK.replace("label: slot}", "label: bay}")
    [found] = _breaking(STOCK, relabelled)
    assert found.startswith("aggregates.Slot.key: Slot's key has another label now, but")
    folded = STOCK.replace('label: "", ignore_case: true}', 'label: ""}')
    [found] = _breaking(folded, STOCK)
    assert found.startswith("aggregates.Tag.key: Tag's key ignores case now, but")
    refielded = STOCK.replace("key: [sku]", "key: [sku, title]")
    [found] = _breaking(STOCK, refielded)
    assert found.startswith("aggregates.Product.key: Product's key was sku, it is sku + title now")
    assert _breaking(STOCK, unkeyed) == []  # ids made at random from now on: nothing breaks
    assert _breaking(STOCK, STOCK) == []


SHELF = """\
  Shelf:
    fields:
      tag: {type: str, references: Tag.code}
    commands:
      place: {creates: true, params: [tag], emits: ShelfPlaced}
"""

PROBE = """
import sys, time, uuid
from fastapi.testclient import TestClient
from eaf.security import KeyRing, TokenIssuer
from iam_client import IamClient
from stock.infrastructure.config import load_settings
from stock.main import create_app

keys = KeyRing.generate()
issuer = TokenIssuer(keys, issuer="https://iam.test", default_audience="eaf")
iam = IamClient(jwks=keys.jwks(), issuer="https://iam.test", audience="eaf")
settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/s.db",
                          "BROKER_RELAY": "false", "SECURITY_REVOCATION_FEED": "false"})

def auth(tenant):
    token = issuer.issue(subject="u", client_id="c", tenant_id=tenant,
                         permissions=["stock:read", "stock:write"]).token
    return {"Authorization": f"Bearer {token}"}

product = {"sku": "ABC-0001", "title": "Bolt", "price": "9.50", "bin": 3}
with TestClient(create_app(settings, iam=iam)) as client:
    made = client.post("/api/v1/products", json=product, headers=auth("acme"))
    again = client.post("/api/v1/products", json={**product, "title": "Nut"}, headers=auth("acme"))
    elsewhere = client.post("/api/v1/products", json=product, headers=auth("globex"))
    namespace = uuid.uuid5(uuid.NAMESPACE_URL, "urn:service:stock")
    assert made.status_code == 201, made.text
    assert made.json()["id"] == str(uuid.uuid5(namespace, "acme/product/ABC-0001")), made.text
    assert again.status_code == 409, again.text
    assert again.json()["type"] == "urn:problem-type:stock:duplicate", again.text
    assert [e["field"] for e in again.json()["errors"]] == ["sku"], again.text
    assert elsewhere.json()["id"] == str(uuid.uuid5(namespace, "globex/product/ABC-0001"))
    # read by its key: the id derived from the value in the caller's tenant
    by_sku = client.get("/api/v1/products/by-sku/ABC-0001", headers=auth("globex"))
    assert by_sku.json() == elsewhere.json(), by_sku.text
    assert client.get("/api/v1/products/by-sku/ZZZ-0009", headers=auth("acme")).status_code == 404
    # a deleted product keeps its id, and so its key
    path = "/api/v1/products/" + made.json()["id"]
    assert client.delete(path, headers=auth("acme")).status_code == 204
    assert client.post("/api/v1/products", json=product, headers=auth("acme")).status_code == 409
    slot = client.post("/api/v1/slots", json={"aisle": "north", "position": 7},
                       headers=auth("acme"))
    slots = uuid.UUID("0b6c5f8e-3c4b-5f43-9a57-1f6a0d7c2e91")
    assert slot.json()["id"] == str(uuid.uuid5(slots, "acme/slot/north/7")), slot.text
    twice = client.post("/api/v1/slots", json={"aisle": "north", "position": 7},
                        headers=auth("acme"))
    assert [e["field"] for e in twice.json()["errors"]] == ["aisle", "position"], twice.text
    # the policy opened north/3 for the first product, is refused for the second one in
    # bin 3 (the slot's key is taken: logged, not retried) and goes on to the next event
    for sku, bin in (("ABC-0002", 3), ("ABC-0003", 4)):
        answer = client.post("/api/v1/products", headers=auth("acme"),
                             json={**product, "sku": sku, "bin": bin})
        assert answer.status_code == 201, answer.text
    slot_4 = "/api/v1/slots/" + str(uuid.uuid5(slots, "acme/slot/north/4"))
    for _ in range(200):
        found = client.get(slot_4, headers=auth("acme"))
        if found.status_code == 200:
            break
        time.sleep(0.05)
    assert found.status_code == 200, "the policy stopped at the taken key"
    # a key that ignores case, without a label: Steel and STEEL are one tag, whose id is
    # made of the tenant and the folded code; products name tags by their code
    steel = client.post("/api/v1/tags", json={"code": "Steel"}, headers=auth("acme"))
    assert steel.status_code == 201, steel.text
    assert steel.json()["id"] == str(uuid.uuid5(namespace, "acme/steel")), steel.text
    assert steel.json()["code"] == "Steel"  # kept as given
    shouted = client.post("/api/v1/tags", json={"code": "STEEL"}, headers=auth("acme"))
    assert shouted.status_code == 409, shouted.text
    tagged = {**product, "sku": "ABC-0009", "tags": ["STEEL", "brass", "steel"]}
    refused = client.post("/api/v1/products", json=tagged, headers=auth("acme"))
    assert refused.status_code == 422, refused.text
    assert refused.json()["errors"] == [
        {"field": "tags.1", "message": 'No tag "brass"'}
    ], refused.text
    # the same codes name nothing in another tenant
    foreign = client.post("/api/v1/products", headers=auth("globex"),
                          json={**tagged, "tags": ["steel"]})
    assert [e["field"] for e in foreign.json()["errors"]] == ["tags.0"], foreign.text
    kept = client.post("/api/v1/products", headers=auth("acme"),
                       json={**tagged, "tags": ["STEEL", "steel"]})
    assert kept.status_code == 201, kept.text
    # kept as the tag has its code (lists, filters and keys then agree on it)
    assert kept.json()["tags"] == ["Steel", "Steel"], kept.text
    # an input (no field) may reference by a key too
    filling = "/api/v1/slots/" + slot.json()["id"] + "/product"
    unknown = client.put(filling, headers=auth("acme"),
                         json={"productId": kept.json()["id"], "tag": "zinc"})
    assert unknown.json()["errors"] == [
        {"field": "tag", "message": "No tag has this code"}
    ], unknown.text
    filled = client.put(filling, headers=auth("acme"),
                        json={"productId": kept.json()["id"], "tag": "Steel"})
    assert filled.status_code == 200, filled.text
    # a command's path may name the aggregate by its key: in any case, in the caller's
    # tenant only
    labelled = client.put("/api/v1/tags/STEEL/label", json={"label": "metal"},
                          headers=auth("acme"))
    assert labelled.status_code == 200, labelled.text
    assert labelled.json()["id"] == steel.json()["id"], labelled.text
    assert labelled.json()["label"] == "metal" and labelled.json()["code"] == "Steel"
    assert client.put("/api/v1/tags/zinc/label", json={"label": "x"},
                      headers=auth("acme")).status_code == 404
    assert client.put("/api/v1/tags/steel/label", json={"label": "x"},
                      headers=auth("globex")).status_code == 404
    # a filter on the key, or on a reference to it, matches in any case (the rows hold
    # the code as the tag has it), in the caller's tenant only
    shelf = client.post("/api/v1/shelves", json={"tag": "steel"}, headers=auth("acme"))
    assert shelf.status_code == 201 and shelf.json()["tag"] == "Steel", shelf.text
    # the same of rows an event fed: with the reference or the key as the event carries it
    for path, name in (("/api/v1/shelves", "tag"), ("/api/v1/tags", "code"),
                       ("/api/v1/shelves-per-tag", "tag"), ("/api/v1/tag-codes", "code")):
        for value, tenant, found in (("STEEL", "acme", 1), ("sTeel", "acme", 1),
                                     ("steel", "globex", 0), ("zinc", "acme", 0)):
            listed = client.get(path, params={name: value},
                                headers=auth(tenant))
            assert listed.status_code == 200, listed.text
            assert [row[name] for row in listed.json()] == ["Steel"] * found, (
                path, value, listed.text)
    # and a row read by such a key, in any case, in the caller's tenant only
    for value, tenant, status in (("STEEL", "acme", 200), ("steel", "globex", 404),
                                  ("zinc", "acme", 404)):
        read = client.get("/api/v1/tag-codes/" + value, headers=auth(tenant))
        assert read.status_code == status, (value, read.text)
        assert status == 404 or read.json()["code"] == "Steel", read.text
print("ok")
"""


def test_a_keyed_service_makes_each_key_once_per_tenant(
    workspace: Path, generate: Generate
) -> None:
    """The rendered service derives the id from the key in the caller's tenant, answers a
    second create with the same key 409 ``duplicate`` naming the key's fields (also after
    a delete: the id stays taken), and passes its own tests (which check the same) and
    ``mypy --strict``."""
    spec = workspace / "specs/stock.yaml"
    spec.parent.mkdir()
    # and read by its key (the one field of it)
    # and a tag described through the path that names it by its key, in any case
    described = STOCK.replace(
        "      define: {creates: true, params: [code], emits: TagDefined}\n",
        "      define: {creates: true, params: [code], emits: TagDefined}\n"
        "      describe: {params: [label], emits: TagDescribed}\n",
    ).replace(
        '      code: {type: str, pattern: "^[A-Za-z]{2,20}$", example: Steel}\n',
        '      code: {type: str, pattern: "^[A-Za-z]{2,20}$", example: Steel}\n'
        '      label: {type: str, default: ""}\n',
    )
    assert "TagDescribed" in described and "label: {type: str" in described
    # and a shelf naming a tag by its code; lists of tags and shelves filtered by it
    described = described.replace("# every product opens", SHELF + "# every product opens").replace(
        "  Products: {of: Product}\n",
        "  Products: {of: Product}\n  Shelves: {of: Shelf}\n  Tags: {of: Tag}\n"
        # rows of their own, fed by the events: a count of shelves per tag, keyed by the
        # reference the event carries, and the codes defined, by the key itself
        "  ShelvesPerTag:\n    key: tag\n    fields: {tag: str, shelves: {type: int, default: 0}}\n"
        "    on: {ShelfPlaced: {key: {tag: event.tag}, set: {shelves: shelves + 1},"
        " create: true}}\n"
        "  TagCodes:\n    key: code\n    fields: {code: str}\n    on: {TagDefined: upsert}\n",
    )
    spec.write_text(
        described + '  - {method: GET, path: "/api/v1/products/by-sku/{sku}", query: Product.get,'
        ' permission: "stock:read"}\n'
        '  - {method: PUT, path: "/api/v1/tags/{code}/label", command: Tag.describe,'
        ' permission: "stock:write"}\n'
        "  - {method: POST, path: /api/v1/shelves, command: Shelf.place,"
        ' permission: "stock:write"}\n'
        "  - {method: GET, path: /api/v1/shelves, query: Shelves.list, filter: [tag],"
        ' consistent: true, permission: "stock:read"}\n'
        "  - {method: GET, path: /api/v1/tags, query: Tags.list, filter: [code],"
        ' consistent: true, permission: "stock:read"}\n'
        "  - {method: GET, path: /api/v1/shelves-per-tag, query: ShelvesPerTag.list,"
        ' filter: [tag], consistent: true, permission: "stock:read"}\n'
        "  - {method: GET, path: /api/v1/tag-codes, query: TagCodes.list, filter: [code],"
        ' consistent: true, permission: "stock:read"}\n'
        '  - {method: GET, path: "/api/v1/tag-codes/{code}", query: TagCodes.get,'
        ' consistent: true, permission: "stock:read"}\n'
    )
    assert generate("service", "stock", cwd=workspace).code == 0
    project = workspace / "apps/stock"
    tests = (project / "tests/test_api.py").read_text()
    assert "def test_register_product_refuses_a_second_product_with_the_same_key" in tests
    assert "def test_get_product_by_sku_returns_the_stored_product" in tests
    assert '"tags": [create_tag(client, headers)["code"]]' in tests
    assert "code=KEYS.get(id, " in tests  # the generated tests name the tag by its key
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")
    ran_in(project, "-c", PROBE, str(workspace))


def test_a_key_refused_its_ignore_case_is_still_the_key() -> None:
    """Only the ignore_case is reported: the endpoint reading the aggregate by its key is
    not refused as if the key were none."""
    spec = (
        "version: 2\nname: bins\naggregates:\n  Bin:\n"
        "    key: {fields: [number], ignore_case: true}\n"
        "    fields:\n      number: {type: int, min: 1}\n"
        "    commands:\n      open: {creates: true, params: [number], emits: BinOpened}\n"
        "endpoints:\n  - {method: POST, path: /api/v1/bins, command: Bin.open}\n"
        '  - {method: GET, path: "/api/v1/bins/{number}", query: Bin.get}\n'
    )
    assert spec_problems(spec, "bins.yaml") == [
        "bins.yaml:5:42: aggregates.Bin.key.ignore_case: only a key of str fields ignores"
        " case ('number' is of type int)"
    ]
