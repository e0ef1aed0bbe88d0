"""Property-based fuzz of `validate`: random specs, mostly well-formed but with random
types, rules, defaults, expressions and references. `validate` either accepts a spec or
refuses it with located problems (never another error); whatever it accepts renders a
project whose Python compiles and whose pyproject.toml parses."""

from __future__ import annotations

import json
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from helpers import REPO
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from spec_corpus import lint_errors

from generator.loading import SpecError, load_spec_text, parse_yaml
from generator.render import Blueprint, render_files, write_tree

SCALARS = ["str", "int", "float", "bool", "decimal", "uuid", "datetime", "date"]
PASCAL = st.sampled_from(["Order", "Item", "Ticket", "Room"])
ENUM_NAMES = st.sampled_from(["Level", "State", "Kind"])
CAMEL = st.sampled_from(
    ["name", "count", "price", "when", "state", "tags", "owner", "note", "total", "type", "id"]
)
WEIRD = st.one_of(st.text(max_size=8), st.integers(), st.floats(), st.none(), st.booleans())
JSON = st.recursive(
    st.one_of(
        st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.floats(), st.text(max_size=12)
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
EXPRESSIONS = st.sampled_from(
    [
        "count + 1",
        "len(name) > 0",
        "state == 'open'",
        "price * 2",
        "now",
        "today",
        "count > 0 and name != ''",
        "sum(x for x in tags)",
        "owner is not None",
        "nonsense(",
        "__import__('os')",
        "count if count > 0 else 0",
        "days(3)",
        "'open'",
        "1",
        "True",
    ]
)


TYPED_RULES: dict[str, dict[str, Any]] = {
    "str": {
        "not_blank": st.booleans(),
        "contains": st.sampled_from(["@", "-", "x"]),
        "pattern": st.sampled_from(["^[a-z]+$", "^[A-Z]{2}-[0-9]{3}$", "a|b|c"]),
        "min_length": st.integers(0, 5),
        "max_length": st.integers(5, 50),
        "example": st.sampled_from(["abc", "AB-123", "a", "x@y"]),
    },
    "int": {"min": st.integers(-5, 5), "max": st.integers(6, 1000), "default": st.integers(0, 5)},
    "float": {"min": st.floats(-5, 5), "max": st.integers(6, 100), "default": st.floats(0, 5)},
    "decimal": {
        "min": st.sampled_from([0, "0.5"]),
        "scale": st.integers(0, 3),
        "default": st.sampled_from(["1", "2.50"]),
    },
    "date": {"example": st.sampled_from(["2099-01-01", "2020-02-29"])},
    "datetime": {"example": st.sampled_from(["2099-01-01T10:00:00Z", "2099-01-01T10:00:00"])},
    "uuid": {"unique": st.booleans()},
    "bool": {"default": st.booleans()},
}


@st.composite
def typed_fields(draw: st.DrawFn, types: list[str]) -> Any:
    """A field whose rules fit its type (most of them valid specs)."""
    type_ = draw(st.sampled_from(types))
    field: dict[str, Any] = {"type": type_}
    choices = TYPED_RULES.get(type_, {})
    for key in draw(st.lists(st.sampled_from(sorted(choices) or ["x"]), max_size=3, unique=True)):
        if key in choices:
            field[key] = draw(choices[key])
    if draw(st.integers(0, 4)) == 0:
        field["optional"] = True
    return field


@st.composite
def field_specs(draw: st.DrawFn, types: list[str]) -> Any:
    if draw(st.integers(0, 2)) > 0:
        return draw(typed_fields(types))
    type_ = draw(
        st.one_of(
            st.sampled_from(types),
            st.sampled_from(
                [f"list[{t}]" for t in types]
                + [f"map[{t}]" for t in types]
                + ["list[list[int]]", "thing"]
            ),
        )
    )
    field: dict[str, Any] = {"type": type_}
    rules = {
        "not_blank": st.booleans(),
        "contains": st.text(max_size=3),
        "pattern": st.sampled_from(["^[a-z]+$", "[0-9]{3}", "(", "^(?=x)y$", "a|b"]),
        "min": st.one_of(st.integers(-5, 5), st.floats(), st.just("1.5")),
        "max": st.one_of(st.integers(-5, 50), st.floats(), st.just("9.99")),
        "min_length": st.integers(-1, 12),
        "max_length": st.integers(-1, 12),
        "scale": st.integers(-1, 4),
        "optional": st.booleans(),
        "unique": st.booleans(),
        "default": JSON,
        "example": JSON,
        "items": st.fixed_dictionaries(
            {},
            optional={
                "pattern": st.sampled_from(["^[a-z]+$", "(", "a|b"]),
                "min": st.one_of(st.integers(-5, 5), st.just("1.5")),
                "max_length": st.integers(-1, 12),
                "scale": st.integers(-1, 4),
                "messages": st.sampled_from([{"pattern": "{value} {0} {value.__class__}"}, {}]),
            },
        ),
    }
    for key in draw(st.lists(st.sampled_from(sorted(rules)), max_size=3, unique=True)):
        field[key] = draw(rules[key])
    return field


@st.composite
def specs(draw: st.DrawFn) -> dict[str, Any]:
    enums = draw(
        st.dictionaries(
            ENUM_NAMES,
            st.lists(
                st.sampled_from(["open", "closed", "on", "in-progress", "x y", "1a"]),
                min_size=1,
                max_size=3,
                unique=True,
            ),
            max_size=2,
        )
    )
    types = SCALARS + list(enums)
    fields = draw(st.dictionaries(CAMEL, field_specs(types), min_size=1, max_size=4))
    required = [n for n, f in fields.items() if "default" not in f and not f.get("optional")]
    params = draw(
        st.one_of(st.just(required), st.lists(st.sampled_from(sorted(fields)), unique=True))
    )
    commands: dict[str, Any] = {
        "create": {"creates": True, "params": params, "emits": "Created"},
    }
    for name in draw(
        st.lists(st.sampled_from(["change", "close", "get", "class"]), unique=True, max_size=2)
    ):
        command: dict[str, Any] = {"emits": f"{name.capitalize()}d"}
        if draw(st.booleans()):
            command["params"] = draw(st.lists(st.sampled_from(sorted(fields)), unique=True))
        if draw(st.booleans()):
            command["when"] = draw(EXPRESSIONS)
        if draw(st.booleans()):
            command["set"] = {draw(st.sampled_from(sorted(fields))): draw(EXPRESSIONS)}
        commands[name] = command
    aggregate: dict[str, Any] = {"fields": fields, "commands": commands}
    if draw(st.booleans()):
        aggregate["invariants"] = [
            {"check": draw(EXPRESSIONS), "message": draw(st.text(max_size=20))}
        ]
    if draw(st.booleans()):
        aggregate["computed"] = {
            "calc": {"type": draw(st.sampled_from(SCALARS)), "value": draw(EXPRESSIONS)}
        }
    name = draw(PASCAL)
    spec: dict[str, Any] = {
        "version": 2,
        "name": "fuzzed",
        "description": draw(st.text(max_size=30)),
        "enums": enums,
        "aggregates": {name: aggregate},
        "endpoints": [
            {"method": "POST", "path": "/api/v1/things", "command": f"{name}.create"},
            {"method": "GET", "path": "/api/v1/things/{id}", "query": f"{name}.get"},
        ],
    }
    if draw(st.booleans()):
        spec["read_models"] = {"Things": {"of": name}}
        spec["endpoints"].append(
            {
                "method": "GET",
                "path": "/api/v1/things",
                "query": f"{name}.list",
                "page": draw(st.booleans()),
                "filter": draw(st.lists(CAMEL, max_size=2, unique=True)),
            }
        )
    if draw(st.booleans()):
        spec[draw(st.sampled_from(["port", "kind", "version", "base_path"]))] = draw(WEIRD)
    return spec


def _validate(spec: dict[str, Any]) -> Any:
    text = json.dumps(spec, ensure_ascii=False)
    try:
        return load_spec_text(text, "fuzzed.yaml")
    except SpecError as error:
        lines = str(error).splitlines()
        assert lines and all(line.startswith("fuzzed.yaml:") for line in lines)
        assert all(len(line) <= 1200 for line in lines)
        return None


@settings(
    max_examples=300, deadline=3000, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(specs())
def test_validate_accepts_or_locates_every_problem(spec: dict[str, Any]) -> None:
    event("accepted" if _validate(spec) is not None else "refused")


@settings(
    max_examples=300, deadline=10_000, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(specs())
def test_an_accepted_spec_renders_python_that_compiles(spec: dict[str, Any]) -> None:
    model = _validate(spec)
    if model is None:
        event("refused")
        return
    event("accepted")
    text = json.dumps(spec, ensure_ascii=False)
    data, _ = parse_yaml(text, "fuzzed.yaml")
    files = render_files(Blueprint(REPO, "service"), model, data, src_path=".", commit=None)
    for path, source in files.items():
        if path.endswith(".py"):
            compile(source, path, "exec")
    tomllib.loads(files["pyproject.toml"])
    with tempfile.TemporaryDirectory() as directory:
        write_tree(files, Path(directory))
        assert lint_errors(Path(directory)) == ""
