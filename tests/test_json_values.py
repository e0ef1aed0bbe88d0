"""JSON values in specs (``type: json``) and events whose fields older versions stored as
JSON text (``upcasts: {1: {decode: [...]}}``): what `validate` and `render` refuse, and a
rendered service that takes, stores and answers any JSON value and reads its old events."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Generate, ran_in, spec_problems

from generator.evolution import breaking_changes
from generator.loading import load_spec_text

RULES = """\
version: 2
name: rulebook
enums:
  Op: [eq, in]
values:
  Match:
    fields:
      attribute: {type: str, pattern: "(user|env)(\\\\.[a-z]+)+", example: user.team}
      op: {type: Op, example: eq}
      value: {type: json, optional: true, example: blue}
      valueOf: {type: str, optional: true}
    invariants:
      - {check: "value is None or valueOf is None", message: "value or valueOf, not both",
         field: valueOf}
aggregates:
  Rule:
    fields:
      name: {type: str, example: team-blue}
      data: {type: json, example: {limits: [1, 2.5], on: true}}
      matches: {type: "list[Match]", default: []}
      note: {type: json, optional: true}
      limits: {type: json, default: {retries: [1, 2]}}
    commands:
      create: {params: [name, data, matches, note, limits], emits: RuleCreated, creates: true}
      change: {params: [data, matches, note], emits: RuleChanged}
events:
  # v1 held the matches as JSON text, as the API writes them (valueOf)
  RuleCreated:
    version: 2
    fields: {ruleId: uuid, name: str, data: json, matches: {default: [], type: "list[Match]"},
             note: {type: json, optional: true}, limits: {type: json, default: {}},
             occurredAt: datetime}
    upcasts: {1: {rename: {conditions: matches}, decode: [matches]}}
read_models:
  Rules: {of: Rule}
endpoints:
  - {method: POST, path: /api/v1/rules, command: Rule.create}
  - {method: PATCH, path: "/api/v1/rules/{id}", command: Rule.change}
  - {method: GET, path: "/api/v1/rules/{id}", query: Rule.get}
  - {method: GET, path: /api/v1/rules, query: Rules.list, consistent: true}
"""


def problems(text: str) -> list[str]:
    return spec_problems(text, "rulebook.yaml")


def test_the_spec_with_json_values_is_valid() -> None:
    assert problems(RULES) == []


@pytest.mark.parametrize(
    ("replaced", "replacement", "expected"),
    [
        (
            "data: {type: json, example: {limits: [1, 2.5], on: true}}",
            "data: {type: json, max_length: 3}",
            "rulebook.yaml:19:38: aggregates.Rule.fields.data.max_length: max_length applies"
            " to str, list and map fields, not json",
        ),
        (
            "data: {type: json, example: {limits: [1, 2.5], on: true}}",
            "data: {type: json, unique: true}",
            "rulebook.yaml:19:34: aggregates.Rule.fields.data.unique: a json field cannot be"
            " unique",
        ),
        (
            "data: {type: json, example: {limits: [1, 2.5], on: true}}",
            "data: {type: json, example: null}",
            "rulebook.yaml:19:35: aggregates.Rule.fields.data.example: None does not fit data:"
            " null is not allowed (the field is not optional)",
        ),
        (
            "value: {type: json, optional: true, example: blue}",
            "value: {type: json, optional: true, example: .nan}",
            "rulebook.yaml:10:52: values.Match.fields.value.example: nan does not fit value: a"
            " number is finite",
        ),
        (
            "  Rule:\n",
            "  Rule:\n    key: [data]\n",
            "rulebook.yaml:17:11: aggregates.Rule.key.fields.0: a json field cannot be part"
            " of a key",
        ),
        (
            "emits: RuleChanged}",
            "emits: RuleChanged, when: \"data == 'x'\"}",
            "rulebook.yaml:25:73: aggregates.Rule.commands.change.when: cannot compare a json"
            " with a str (in \"data == 'x'\")",
        ),
        (
            "query: Rules.list, consistent: true}",
            "query: Rules.list, consistent: true, filter: [data]}",
            "rulebook.yaml:40:86: endpoints.3.filter.0: 'data' (json) cannot be filtered on"
            " (filters take str, int, float, bool, uuid, date, datetime and enum columns; a"
            " list, map, value object or json value is no one value to compare)",
        ),
        (
            "query: Rules.list, consistent: true}",
            "query: Rules.list, consistent: true, sort: [data]}",
            "rulebook.yaml:40:84: endpoints.3.sort.0: Rules cannot be sorted by 'data': 'data'"
            " is a json; sorts take str, int, float, date, datetime and enum columns (a"
            " decimal is kept as text, exactly)",
        ),
        (
            "decode: [matches]",
            "decode: [matchez]",
            "rulebook.yaml:33:59: events.RuleCreated.upcasts.1.decode.0: decodes 'matchez',"
            " which version 2 of RuleCreated does not have (its fields: data, limits, matches,"
            " name, note, occurredAt, ruleId)",
        ),
    ],
)
def test_each_mistake_is_located(replaced: str, replacement: str, expected: str) -> None:
    assert replaced in RULES
    assert problems(RULES.replace(replaced, replacement)) == [expected]


V1 = (
    RULES.replace(
        'matches: {type: "list[Match]", default: []}', 'conditions: {type: str, default: "[]"}'
    )
    .replace(
        "params: [name, data, matches, note, limits]",
        "params: [name, data, conditions, note, limits]",
    )
    .replace("params: [data, matches, note]", "params: [data, conditions, note]")
    .replace(
        """  RuleCreated:
    version: 2
    fields: {ruleId: uuid, name: str, data: json, matches: {default: [], type: "list[Match]"},
             note: {type: json, optional: true}, limits: {type: json, default: {}},
             occurredAt: datetime}
    upcasts: {1: {rename: {conditions: matches}, decode: [matches]}}
""",
        """  RuleCreated:
    fields: {ruleId: uuid, name: str, data: json, conditions: str,
             note: {type: json, optional: true}, limits: {type: json, default: {}},
             occurredAt: datetime}
""",
    )
)


def test_render_decodes_only_text_the_stored_events_hold() -> None:
    """The step from the stored version decodes a field those events have (by the name
    they have it under), as text."""
    before = load_spec_text(V1, "rulebook.yaml")
    assert breaking_changes(before, load_spec_text(RULES, "rulebook.yaml")) == []
    held_as_json = V1.replace("conditions: str", "conditions: json").replace(
        'conditions: {type: str, default: "[]"}', "conditions: {type: json, default: []}"
    )
    not_renamed = RULES.replace(
        "{rename: {conditions: matches}, decode: [matches]}", "{decode: [matches]}"
    )
    found = [
        *breaking_changes(
            load_spec_text(held_as_json, "rulebook.yaml"), load_spec_text(RULES, "rulebook.yaml")
        ),
        *breaking_changes(before, load_spec_text(not_renamed, "rulebook.yaml")),
    ]
    assert [(loc, message) for loc, message, _ in found] == [
        (
            ("events", "RuleCreated", "upcasts", 1, "decode"),
            "stored RuleCreated events (v1) hold 'conditions' as json, not as JSON text (str)"
            " to decode",
        ),
        (
            ("events", "RuleCreated", "upcasts", 1, "decode"),
            "stored RuleCreated events (v1) have no 'matches' to decode (their fields: "
            "conditions, data, limits, name, note, occurredAt, ruleId)",
        ),
    ]


PROBE = """
import json, sys
from eaf import context
from eaf.eventsourcing import NewEvent
from fastapi.testclient import TestClient
from rulebook.infrastructure.config import load_settings
from rulebook.main import create_app

settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/r.db",
                          "BROKER_RELAY": "false", "BROKER_CONSUME": "false"})
acme = {"X-Tenant-Id": "acme"}
data = {"limits": [1, 2.5, -3], "nested": {"deep": [None, True, "x"]}, "": {}}
with TestClient(create_app(settings)) as client:
    made = client.post("/api/v1/rules", headers=acme, json={
        "name": "a", "data": data, "matches": [
            {"attribute": "user.team", "op": "in", "value": ["blue", 7]},
            {"attribute": "env.hour", "op": "eq", "valueOf": "user.shift"}]})
    assert made.status_code == 201, made.text
    rule = made.json()
    assert rule["data"] == data and rule["note"] is None, rule
    assert rule["limits"] == {"retries": [1, 2]}, rule  # a default each request gets anew
    assert rule["matches"][0]["value"] == ["blue", 7], rule
    path = "/api/v1/rules/" + rule["id"]
    # any JSON value, text and numbers too; null clears an optional one
    for note in ("text", 12, [1, {"a": None}], {"k": False}):
        patched = client.patch(path, headers=acme, json={"note": note})
        assert patched.status_code == 200 and patched.json()["note"] == note, patched.text
    assert client.patch(path, headers=acme, json={"note": None}).json()["note"] is None
    refused = client.post("/api/v1/rules", headers=acme, json={"name": "b", "data": None})
    assert refused.status_code == 422, refused.text
    assert refused.json()["errors"] == [
        {"field": "data", "message": "Input should be a JSON value, not null"}], refused.text
    both = client.post("/api/v1/rules", headers=acme, json={"name": "b", "data": 1,
        "matches": [{"attribute": "user.a", "op": "eq", "value": 0, "valueOf": "user.b"}]})
    assert both.status_code == 422, both.text
    assert both.json()["errors"] == [
        {"field": "matches.0.valueOf", "message": "value or valueOf, not both"}], both.text
    assert client.get(path, headers=acme).json()["data"] == data
    listed = client.get("/api/v1/rules", headers=acme).json()
    assert [row["data"] for row in listed] == [data], listed
    document = client.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    assert schemas["CreateRuleRequest"]["properties"]["data"] == {"not": {"type": "null"}}
    described = document["paths"]["/api/v1/rules"]["post"]["description"]
    assert "- value or valueOf, not both (valueOf)" in described, described
    # a rule stored by the version that kept its matches as JSON text, with the API's names
    old = {"rule_id": "00000000-0000-4000-8000-000000000001", "name": "old", "data_": 5,
           "conditions": json.dumps([{"attribute": "user.team", "op": "eq",
                                      "valueOf": "env.team"}]),
           "occurred_at": "2026-01-02T03:04:05+00:00"}
    async def store():
        with context.use(context.SecurityContext(tenant_id="acme")):
            await client.app.state.store.append(
                "Rule", old["rule_id"], [NewEvent("RuleCreated", old)], expected_version=0)
    client.portal.call(store)
    read = client.get("/api/v1/rules/" + old["rule_id"], headers=acme)
    assert read.status_code == 200, read.text
    assert read.json()["matches"] == [
        {"attribute": "user.team", "op": "eq", "value": None, "valueOf": "env.team"}], read.text
    # text that is no JSON, or JSON that is no list of matches, reads as the default:
    # neither its rule nor the list of every rule answers 500
    for number, text in ((2, "not json"), (3, json.dumps([{"attribute": 1}])),
                         (4, json.dumps({"a": "b"}))):
        old = {**old, "rule_id": f"00000000-0000-4000-8000-00000000000{number}",
               "name": f"bad{number}", "conditions": text}
        client.portal.call(store)
        read = client.get("/api/v1/rules/" + old["rule_id"], headers=acme)
        assert read.status_code == 200 and read.json()["matches"] == [], (text, read.text)
    listed = client.get("/api/v1/rules", headers=acme)
    assert listed.status_code == 200 and len(listed.json()) == 5, listed.text
print("ok")
"""


def test_a_rendered_service_keeps_any_json_value(workspace: Path, generate: Generate) -> None:
    """The rendered service takes, stores and answers JSON values as given (null refused
    where one is required), states them in its OpenAPI document, reads an event stored
    with JSON text as the value objects it holds, and passes its own tests and ``mypy
    --strict``."""
    spec = workspace / "specs/rulebook.yaml"
    spec.parent.mkdir()
    spec.write_text(RULES)
    made = generate("service", "rulebook", cwd=workspace)
    assert made.code == 0, made.err
    project = workspace / "apps/rulebook"
    ran_in(project, "-c", PROBE, str(workspace))
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")


def test_a_consumer_of_a_decoded_field_reads_it_as_json() -> None:
    """Events are published as they were stored: the old ones hold the text, which only a
    json reader takes beside the decoded value."""
    from generator.consumers import contract_problems

    producer = (
        'version: 2\nname: tagger\naggregates:\n  Item:\n    fields: {tags: "list[str]"}\n'
        "    commands: {tag: {creates: true, params: [tags], emits: Tagged}}\n"
        "events:\n  Tagged:\n    version: 2\n"
        '    fields: {itemId: uuid, tags: "list[str]", occurredAt: datetime}\n'
        "    upcasts: {1: {decode: [tags]}}\n"
    )

    def reader(type_: str) -> str:
        return (
            "version: 2\nname: audit\naggregates:\n  Entry:\n    fields: {note: str}\n"
            "    commands: {open: {creates: true, params: [note], emits: EntryOpened}}\n"
            f"consumes:\n  tagger.Tagged:\n    fields: {{tags: {type_}}}\n"
        )

    def problems_of(type_: str) -> list[str]:
        specs = {
            "tagger": load_spec_text(producer, "tagger.yaml"),
            "audit": load_spec_text(reader(type_), "audit.yaml"),
        }
        return [problem.message for problem in contract_problems(specs)]

    assert problems_of('"list[str]"') == [
        "tagger.Tagged.tags is JSON text in the events stored before version 2 (an upcast"
        " decodes it on read; events are published as they were stored): read it as json"
    ]
    assert problems_of("json") == []
