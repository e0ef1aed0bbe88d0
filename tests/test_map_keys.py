"""Rules on the keys of a map (``keys:``): checked by the domain and the request models,
reported at the key's path with the spec's messages, stated in the OpenAPI document,
tested by the generated tests, and kept by defaults and examples."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Result, app_probe, cart_problems, ran_in, service_of

ATLAS = """\
version: 2
name: atlas
values:
  Layer:
    fields:
      name: str
      styles:
        type: "map[str]"
        default: {}
        keys: {pattern: "^[a-z][a-z-]*$", max_length: 12}
aggregates:
  Sheet:
    fields:
      title: {type: str, not_blank: true}
      labels:
        type: "map[str]"
        max_length: 3
        keys:
          pattern: "^[a-z][a-z0-9.-]*$"
          max_length: 20
          messages: {pattern: "Label key {value} is not a slug"}
        items: {max_length: 10}
      layers: {type: "map[Layer]", default: {}}
      weights: {type: "map[int]", optional: true, keys: {not_blank: true, min_length: 2}}
    commands:
      draw: {creates: true, params: [title, labels, layers, weights], emits: SheetDrawn}
      tag:
        params: [labels]
        inputs:
          notes: {type: "map[str]", default: {}, keys: {contains: "-"}}
        emits: SheetTagged
events:
  SheetTagged:
    fields: {sheetId: uuid, labels: "map[str]", notes: "map[str]", occurredAt: datetime}
endpoints:
  - {method: POST, path: /api/v1/sheets, command: Sheet.draw}
  - {method: GET, path: "/api/v1/sheets/{id}", query: Sheet.get}
  - {method: PATCH, path: "/api/v1/sheets/{id}", command: Sheet.tag}
"""

ATLAS_PROBE = """
with TestClient(create_app(settings)) as client:
    body = {
        "title": "t",
        "labels": {"Bad Key": "v", "a.b": "x" * 11, "ok": "v", "z": "v"},
        "layers": {"l": {"name": "n", "styles": {"Fill": "red", "x.y": "b"}}},
        "weights": {"": 1},
    }
    answer = client.post("/api/v1/sheets", json=body)
    assert answer.status_code == 422, answer.text
    styles = "Each key of styles must match ^[a-z][a-z-]*$"
    assert [(e["field"], e["message"]) for e in answer.json()["errors"]] == [
        ("labels", "Labels allows at most 3 items"),
        ('labels["a.b"]', "Each value of labels allows at most 10 characters"),
        ("labels.Bad Key", 'Label key "Bad Key" is not a slug'),
        ("layers.l.styles.Fill", styles),
        ('layers.l.styles["x.y"]', styles),
        ('weights[""]', "Each key of weights must not be blank"),
        ('weights[""]', "Each key of weights needs at least 2 characters"),
    ], answer.text
    made = client.post("/api/v1/sheets", json={"title": "t", "labels": {"a.b": "v"}})
    assert made.status_code == 201, made.text
    patch = {"notes": {"nodash": "x"}, "labels": {"UP": "x"}}
    answer = client.patch("/api/v1/sheets/" + made.json()["id"], json=patch)
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"] == [
        {"field": "labels.UP", "message": 'Label key "UP" is not a slug'},
        {"field": "notes.nodash", "message": "Each key of notes must contain '-'"},
    ], answer.text
    document = client.get("/openapi.json").json()["components"]["schemas"]
    labels = document["DrawSheetRequest"]["properties"]["labels"]
    assert labels["propertyNames"] == {"pattern": "^(?:[a-z][a-z0-9.-]*)$", "maxLength": 20}
    assert labels["additionalProperties"] == {"type": "string", "maxLength": 10}
    assert "patternProperties" not in labels, labels
"""


def test_the_keys_of_a_map_keep_their_rules_in_the_domain_and_over_http(
    workspace: Path, generate: Callable[..., Result]
) -> None:
    """A key breaking its rules is refused (422) at its own path with the spec's message,
    beside the other violations, in an aggregate's map, a value object's and a command's
    input; the OpenAPI document states the keys as ``propertyNames`` (pydantic's
    ``patternProperties`` let any other key through); the generated tests break each
    rule they can and pass, as ruff and mypy do; `diff` warns of a narrower rule."""
    project = service_of(workspace, generate, "atlas", ATLAS)
    domain = (project / "tests/test_domain.py").read_text()
    assert "test_draw_sheet_rejects_weights_breaking_key_min_length" in domain
    ran_in(project, "-m", "ruff", "check", "src", "tests")
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    app_probe(project, ATLAS_PROBE, workspace)
    spec = workspace / "specs/atlas.yaml"
    spec.write_text(ATLAS.replace("max_length: 20", "max_length: 10"))
    diff = generate("diff", "atlas", cwd=workspace)
    assert (
        "aggregates.Sheet.fields.labels.keys.max_length: warning: Sheet.labels's keys'"
        " max_length was 20, now 10: stored values that break it stay readable"
    ) in diff.out + diff.err, diff


@pytest.mark.parametrize(
    ("field", "problem"),
    [
        ('{type: "list[str]", keys: {max_length: 3}}',
         "shop.yaml:7:39: aggregates.Cart.fields.tags.keys: keys applies to a map"),
        ('{type: "map[int]", keys: {min: 1}}',
         "shop.yaml:7:44: aggregates.Cart.fields.tags.keys.min: min applies to int, float"),
        ('{type: "map[int]", keys: {max_length: 3, messages: {pattern: nope}}}',
         "shop.yaml:7:74: aggregates.Cart.fields.tags.keys.messages.pattern: 'pattern' is"
         " not a rule of the keys"),
        ('{type: "map[int]", default: {Abc: 1}, keys: {pattern: "^[a-z]+$"}}',
         "shop.yaml:7:41: aggregates.Cart.fields.tags.default: {'Abc': 1} does not fit tags:"
         " the key 'Abc' must match"),
    ],
)  # fmt: skip
def test_validate_names_keys_rules_that_cannot_hold(field: str, problem: str) -> None:
    found = cart_problems(field, "tags")
    assert any(line.startswith(problem) for line in found), found
