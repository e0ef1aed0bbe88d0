"""Cross-reference checks of a spec that a per-field schema cannot express."""

from __future__ import annotations

import re
from collections.abc import Iterator

from generator import naming
from generator.spec import CAMEL, HTTP_METHODS, PASCAL, QUERIES, AggregateSpec, Spec

Finding = tuple[tuple[str | int, ...], str]
TIMESTAMP_FIELDS = ("occurredAt",)


def semantic_problems(spec: Spec) -> list[Finding]:
    """Every cross-reference problem of ``spec``, each with its location."""
    return [
        *_names(spec),
        *_aggregates(spec),
        *_endpoints(spec),
        *_library(spec),
    ]


def _names(spec: Spec) -> Iterator[Finding]:
    for section in ("aggregates", "events", "models"):
        for name in getattr(spec, section):
            if not re.fullmatch(PASCAL, name):
                yield (section, name), f"{name!r} must be PascalCase ({PASCAL})"
    for owner, fields in _all_fields(spec):
        for name in fields:
            if not re.fullmatch(CAMEL, name):
                yield (*owner, "fields", name), f"{name!r} must be camelCase ({CAMEL})"
    for name, aggregate in spec.aggregates.items():
        for command in aggregate.commands:
            if not re.fullmatch(CAMEL, command):
                yield (
                    ("aggregates", name, "commands", command),
                    f"{command!r} must be camelCase ({CAMEL})",
                )
    clash = set(spec.aggregates) & (set(spec.events) | set(spec.models))
    for name in sorted(clash):
        yield ("aggregates", name), f"{name!r} is also declared as an event or model"


def _all_fields(spec: Spec) -> Iterator[tuple[tuple[str, str], dict[str, object]]]:
    for section in ("aggregates", "events", "models"):
        for name, item in getattr(spec, section).items():
            yield (section, name), item.fields


def _aggregates(spec: Spec) -> Iterator[Finding]:
    for name, aggregate in spec.aggregates.items():
        for field in aggregate.fields:
            if field in ("id", "createdAt", "updatedAt"):
                yield (
                    ("aggregates", name, "fields", field),
                    f"{field!r} is provided by every aggregate; remove it",
                )
        creators = [c for c in aggregate.commands.values() if c.creates]
        if not creators:
            yield (
                ("aggregates", name, "commands"),
                "an aggregate needs one command with `creates: true`",
            )
        for command_name, command in aggregate.commands.items():
            loc = ("aggregates", name, "commands", command_name)
            for param in command.params:
                if param not in aggregate.fields:
                    yield (
                        (*loc, "params"),
                        f"unknown parameter {param!r} (expected a field of {name}: "
                        f"{', '.join(aggregate.fields) or 'none'})",
                    )
            if command.creates:
                missing = [
                    f
                    for f, spec_ in aggregate.fields.items()
                    if f not in command.params and spec_.default is None
                ]
                if missing:
                    yield (
                        (*loc, "params"),
                        f"a creating command must set every field without a default "
                        f"(missing: {', '.join(missing)})",
                    )
            event = spec.events.get(command.emits)
            if event is None:
                yield (
                    (*loc, "emits"),
                    f"unknown event {command.emits!r} (expected one of: "
                    f"{', '.join(spec.events) or 'none declared'})",
                )
                continue
            yield from _event_fillable(spec, name, aggregate, command.emits)


def _event_fillable(
    spec: Spec, aggregate_name: str, aggregate: AggregateSpec, event_name: str
) -> Iterator[Finding]:
    identity = naming.event_id_field(aggregate_name, aggregate.event_id)
    known = {identity, *aggregate.fields, *TIMESTAMP_FIELDS}
    for field in spec.events[event_name].fields:
        if field not in known:
            yield (
                ("events", event_name, "fields", field),
                f"{aggregate_name} cannot fill {field!r} (expected one of: "
                f"{', '.join(sorted(known))})",
            )


def _endpoints(spec: Spec) -> Iterator[Finding]:
    for index, endpoint in enumerate(spec.endpoints):
        loc: tuple[str | int, ...] = ("endpoints", index)
        if endpoint.method not in HTTP_METHODS:
            continue
        if (endpoint.command is None) == (endpoint.query is None):
            yield loc, "an endpoint names exactly one of `command` or `query`"
            continue
        target = endpoint.command or endpoint.query or ""
        key = "command" if endpoint.command else "query"
        aggregate_name, _, member = target.partition(".")
        aggregate = spec.aggregates.get(aggregate_name)
        if aggregate is None:
            yield (
                (*loc, key),
                (
                    f"unknown aggregate {aggregate_name!r} (expected one of: "
                    f"{', '.join(spec.aggregates) or 'none declared'})"
                ),
            )
            continue
        path_params = re.findall(r"{(\w+)}", endpoint.path)
        if endpoint.query is not None:
            if member not in QUERIES:
                yield (
                    (*loc, "query"),
                    (f"unknown query {member!r} (expected one of: {', '.join(QUERIES)})"),
                )
            if path_params != ["id"]:
                yield (*loc, "path"), "a `get` query needs the path parameter {id}"
            continue
        command = aggregate.commands.get(member)
        if command is None:
            yield (
                (*loc, "command"),
                (
                    f"unknown command {member!r} of {aggregate_name} (expected one of: "
                    f"{', '.join(aggregate.commands) or 'none declared'})"
                ),
            )
            continue
        expected = [] if command.creates else ["id"]
        if path_params != expected:
            shown = "no path parameter" if command.creates else "the path parameter {id}"
            yield (*loc, "path"), f"command {member!r} needs {shown}"
        if endpoint.request is not None:
            model = spec.models.get(endpoint.request)
            if model is None:
                yield (
                    (*loc, "request"),
                    (
                        f"unknown model {endpoint.request!r} (expected one of: "
                        f"{', '.join(spec.models) or 'none declared'})"
                    ),
                )
                continue
            for param in command.params:
                if param not in model.fields:
                    yield (
                        (*loc, "request"),
                        (f"model {endpoint.request} lacks the command parameter {param!r}"),
                    )


def _library(spec: Spec) -> Iterator[Finding]:
    if spec.kind == "lib" and spec.endpoints:
        yield ("endpoints",), "a library has no endpoints (use kind: app)"
    if spec.kind == "app" and spec.layers:
        yield ("layers",), "`layers` is for libraries (kind: lib)"
    for index, layer in enumerate(spec.layers):
        for part in layer.split("|"):
            if not re.fullmatch(r"[a-z_][a-z0-9_]*", part.strip()):
                yield ("layers", index), f"{part!r} is not a subpackage name"
