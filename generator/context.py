"""Derive the render context of a blueprint from a spec: every name and expression a
template needs, computed once, as plain JSON data (copier passes it through JSON)."""

from __future__ import annotations

import re
from typing import Any

from generator import models, naming
from generator.checks import TIMESTAMP_FIELDS
from generator.context_types import invalid_value, python_literal, sample_value
from generator.spec import AggregateSpec, CommandSpec, FieldSpec, Rule, Spec

_PY = {
    "str": "str",
    "int": "int",
    "float": "float",
    "bool": "bool",
    "decimal": "Decimal",
    "uuid": "UUID",
    "datetime": "datetime",
    "date": "date",
    "map": "dict[str, str]",
}
_ENCODE = {
    "decimal": "str({})",
    "uuid": "str({})",
    "datetime": "{}.isoformat()",
    "date": "{}.isoformat()",
}
_DECODE = {
    "str": "str({})",
    "int": "int({})",
    "float": "float({})",
    "bool": "bool({})",
    "decimal": "Decimal({})",
    "uuid": "UUID({})",
    "datetime": "datetime.fromisoformat({})",
    "date": "date.fromisoformat({})",
    "map": "dict({})",
}
_COLUMN = {"str": "str", "int": "int", "float": "float", "bool": "bool"}
_RULE_FAILS = {
    "not_blank": "not {v}.strip()",
    "contains": "{value!r} not in {v}",
    "pattern": "re.fullmatch({value!r}, {v}) is None",
    "min": "{v} < {value!r}",
    "max": "{v} > {value!r}",
    "min_length": "len({v}) < {value!r}",
    "max_length": "len({v}) > {value!r}",
}
_RULE_MESSAGES = {
    "not_blank": "{title} cannot be blank",
    "contains": "{title} must contain {value!r}",
    "pattern": "{title} must match {value}",
    "min": "{title} must be at least {value}",
    "max": "{title} must be at most {value}",
    "min_length": "{title} must have at least {value} characters",
    "max_length": "{title} must have at most {value} characters",
}


def _element(type_name: str) -> tuple[str, bool]:
    match = re.fullmatch(r"list\[(\w+)\]", type_name)
    return (match[1], True) if match else (type_name, False)


def python_type(type_name: str) -> str:
    scalar, is_list = _element(type_name)
    return f"list[{_PY[scalar]}]" if is_list else _PY[scalar]


def _convert(table: dict[str, str], type_name: str, value: str) -> str:
    scalar, is_list = _element(type_name)
    pattern = table.get(scalar, "{}")
    if is_list:
        return f"[{pattern.format('item')} for item in {value}]"
    return pattern.format(value)


def _rule(rule: Rule, field: str, attr: str, type_name: str) -> dict[str, Any]:
    title = " ".join(naming.words(field)).capitalize()
    fails = _RULE_FAILS[rule.kind].format(v=attr, value=rule.value)
    message = rule.message or _RULE_MESSAGES[rule.kind].format(title=title, value=rule.value)
    invalid = invalid_value(rule.kind, rule.value)
    return {
        "kind": rule.kind,
        "fails": fails,
        "message": message,
        "invalid": invalid,
        "invalid_py": None if invalid is None else python_literal(type_name, invalid),
    }


def _field(name: str, spec: FieldSpec) -> dict[str, Any]:
    attr = naming.snake(name)
    sample = sample_value(name, spec)
    return {
        "name": name,
        "attr": attr,
        "type": spec.type,
        "py": python_type(spec.type),
        "default": None if spec.default is None else python_literal(spec.type, spec.default),
        "initial": spec.default,  # the default as stored (JSON), for read model rows
        "description": spec.description or "",
        "sample": sample,
        "sample_py": python_literal(spec.type, sample),
        "rules": [_rule(rule, name, attr, spec.type) for rule in spec.rules],
        "encode": _convert(_ENCODE, spec.type, f"value.{attr}"),
        "decode": _convert(_DECODE, spec.type, f'data["{name}"]'),
        "row_decode": _convert(_DECODE, spec.type, f'row["{attr}"]'),
        "column": "json"
        if spec.type.startswith("list[") or spec.type == "map"
        else _COLUMN.get(spec.type, "str"),
    }


def _imports(types: list[str]) -> list[str]:
    scalars = {_element(t)[0] for t in types}
    lines = []
    if scalars & {"datetime", "date"}:
        names = sorted(scalars & {"datetime", "date"})
        lines.append(f"from datetime import {', '.join(names)}")
    if "decimal" in scalars:
        lines.append("from decimal import Decimal")
    if "uuid" in scalars:
        lines.append("from uuid import UUID")
    return lines


def _event_source(field: str, aggregate: dict[str, Any], params: list[str], creates: bool) -> str:
    """The expression a command method fills event field ``field`` with."""
    fields = {f["name"]: f for f in aggregate["fields"]}
    if field == aggregate["event_id"]:
        uuid_id = aggregate["event_id_type"] == "uuid"
        if creates:
            return "UUID(id) if id is not None else uuid4()" if uuid_id else "id or str(uuid4())"
        return "UUID(self.id)" if uuid_id else "self.id"
    if field in TIMESTAMP_FIELDS:
        return "now"
    if field in params:
        return naming.snake(field)
    if creates:
        return str(fields[field]["default"])
    return f"self.{naming.snake(field)}"


def _command(
    name: str, command: CommandSpec, aggregate: dict[str, Any], spec: Spec
) -> dict[str, Any]:
    fields = {f["name"]: f for f in aggregate["fields"]}
    event = spec.events[command.emits]
    return {
        "name": name,
        "method": naming.snake(name),
        "creates": command.creates,
        "description": command.description or "",
        "params": [fields[param] for param in command.params],
        "event": command.emits,
        "event_args": [
            {
                "attr": naming.snake(f),
                "value": _event_source(f, aggregate, command.params, command.creates),
            }
            for f in event.fields
        ],
    }


def _applies(
    aggregate: dict[str, Any], commands: dict[str, CommandSpec], spec: Spec
) -> list[dict[str, Any]]:
    """How each of the aggregate's events folds into its state."""
    creating = {c.emits for c in commands.values() if c.creates}
    result = []
    for name in aggregate["events"]:
        carried = spec.events[name].fields
        result.append(
            {
                "event": name,
                "creates": name in creating,
                "sets": [
                    {"attr": f["attr"], "default": f["default"], "initial": f["initial"]}
                    | {"from_event": f["name"] in carried}
                    for f in aggregate["fields"]
                    if f["name"] in carried or name in creating
                ],
            }
        )
    return result


def _aggregate(name: str, aggregate: AggregateSpec, spec: Spec) -> dict[str, Any]:
    event_id = naming.event_id_field(name, aggregate.event_id)
    id_types = [
        spec.events[c.emits].fields[event_id].type
        for c in aggregate.commands.values()
        if c.emits in spec.events and event_id in spec.events[c.emits].fields
    ]
    words = naming.words(name)
    result: dict[str, Any] = {
        "name": name,
        "snake": naming.snake(name),
        "title": " ".join(words),
        "var": words[-1],
        "description": aggregate.description or f"A {' '.join(words)}.",
        "not_found": aggregate.not_found or f"{' '.join(words).capitalize()} not found",
        "event_id": event_id,
        "event_id_type": id_types[0] if id_types else "uuid",
        "fields": [_field(f, s) for f, s in aggregate.fields.items()],
        "events": sorted({c.emits for c in aggregate.commands.values()}),
    }
    result["commands"] = [_command(n, c, result, spec) for n, c in aggregate.commands.items()]
    result["applies"] = _applies(result, aggregate.commands, spec)
    read_model = next((n for n, r in spec.read_models.items() if r.of == name), None)
    result["read_model"] = (
        None if read_model is None else {"name": read_model, "table": naming.snake(read_model)}
    )
    result["id_attr"] = naming.snake(event_id)
    result["creator"] = next((c for c in result["commands"] if c["creates"]), None)
    result["imports"] = _imports([f.type for f in aggregate.fields.values()])
    return result


def _endpoint(endpoint: Any, aggregates: dict[str, Any]) -> dict[str, Any]:
    target = endpoint.command or endpoint.query
    aggregate_name, _, member = target.partition(".")
    aggregate = aggregates[aggregate_name]
    if endpoint.query is not None:
        kind, command = member, None
        use_case = endpoint.use_case or member
        status = endpoint.status or 200
    else:
        command = next(c for c in aggregate["commands"] if c["name"] == member)
        kind = "create" if command["creates"] else "change"
        use_case = endpoint.use_case or command["method"]
        status = endpoint.status or (201 if command["creates"] else 200)
    request = endpoint.request
    if command is not None and request is None:
        request = f"{naming.pascal(member)}{aggregate_name}Request"
    return {
        "method": endpoint.method,
        "verb": endpoint.method.lower(),
        "path": endpoint.path,
        "function": f"{naming.snake(use_case)}_{aggregate['snake']}",
        "kind": kind,
        "aggregate": aggregate_name,
        "use_case": naming.snake(use_case),
        "command": command,
        "request": request,
        "status": status,
        "summary": endpoint.summary or "",
        "permission": endpoint.permission,
        "sample_body": (
            {p["name"]: p["sample"] for p in command["params"]} if command is not None else None
        ),
    }


_APP_REQUIREMENTS = frozenset({"fastapi", "pydantic", "uvicorn"})


def _extra_requirements(spec: Spec) -> list[str]:
    """The spec's requirements minus those every project of its kind already has."""
    implied = {"eaf"} if spec.name != "eaf" else set()
    if any(e.permission for e in spec.endpoints):
        implied.add("iam-client")
    if spec.kind == "app":
        implied |= _APP_REQUIREMENTS
    return [
        r
        for r in spec.dependencies
        if re.split(r"[\s\[<>=!~;@]", r, maxsplit=1)[0].lower() not in implied
    ]


def derive(spec: Spec) -> dict[str, Any]:
    """Everything the blueprints need, as JSON-compatible data."""
    package = naming.package(spec.name)
    aggregates = {n: _aggregate(n, a, spec) for n, a in spec.aggregates.items()}
    endpoints = [_endpoint(e, aggregates) for e in spec.endpoints]
    request_models = models.request_models(spec, endpoints)
    return {
        "name": spec.name,
        "kind": spec.kind,
        "is_app": spec.kind == "app",
        "package": package,
        "title": " ".join(naming.words(spec.name)),
        "description": spec.description or f"The {spec.name} service",
        "port": spec.port,
        "base_path": spec.base_path or f"/api/v1/{spec.name}s",
        "aggregates": list(aggregates.values()),
        "events": [
            {
                "name": n,
                "version": e.version,
                "fields": [_field(f, s) for f, s in e.fields.items()],
                "upcasts": [
                    {
                        "from": version,
                        "function": f"_{naming.snake(n)}_v{version}_to_v{version + 1}",
                        "rename": [
                            [naming.snake(old), naming.snake(new)] for old, new in u.rename.items()
                        ],
                        "add": [[naming.snake(f), repr(value)] for f, value in u.add.items()],
                        "remove": [naming.snake(f) for f in u.remove],
                    }
                    for version, u in sorted(e.upcasts.items())
                ],
            }
            for n, e in spec.events.items()
        ],
        "endpoints": endpoints,
        "event_models_code": models.event_models_code(spec),
        "consumes": [
            {
                "key": key,
                "producer": key.partition(".")[0],
                "event": key.partition(".")[2],
                "event_snake": naming.snake(key.partition(".")[2]),
                "handler": naming.consumer_handler(key, c.handler),
                "durable": naming.consumer_durable(spec.name, key, c.durable),
                "max_deliver": c.max_deliver,
                "fields": [_field(f, s) for f, s in c.fields.items()],
            }
            for key, c in spec.consumes.items()
        ],
        "consumed_models_code": models.consumed_models_code(spec),
        "consumed_imports": _imports(
            [f.type for c in spec.consumes.values() for f in c.fields.values()]
        ),
        "web_models_code": models.web_models_code(spec, list(aggregates.values()), request_models),
        "layers": spec.layers,
        "dependencies": _extra_requirements(spec),
        "has_read_models": bool(spec.read_models),
        "secured": any(e.permission for e in spec.endpoints),
        "permissions": sorted({e.permission for e in spec.endpoints if e.permission}),
        "scripts": spec.scripts,
        "uses_pattern": any(
            r["kind"] == "pattern"
            for a in aggregates.values()
            for f in a["fields"]
            for r in f["rules"]
        ),
    }
