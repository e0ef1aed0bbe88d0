"""Cross-reference checks of a spec that a per-field schema cannot express."""

from __future__ import annotations

import re
from collections.abc import Iterator

from generator import naming
from generator.spec import CAMEL, CONSUMED_EVENT, HTTP_METHODS, PASCAL, QUERIES, AggregateSpec, Spec

Finding = tuple[tuple[str | int, ...], str]
TIMESTAMP_FIELDS = ("occurredAt",)
RESERVED_COMMANDS = frozenset(
    {"apply", "record", "committed", "from_history", "changes", "version"}
)


def semantic_problems(spec: Spec) -> list[Finding]:
    """Every cross-reference problem of ``spec``, each with its location."""
    return [
        *_names(spec),
        *_aggregates(spec),
        *_endpoints(spec),
        *_upcasts(spec),
        *_read_models(spec),
        *_library(spec),
        *_consumes(spec),
    ]


def _names(spec: Spec) -> Iterator[Finding]:
    for section in ("aggregates", "events", "models", "read_models"):
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
            elif naming.snake(command) in RESERVED_COMMANDS or command.startswith("validate"):
                yield (
                    ("aggregates", name, "commands", command),
                    f"{command!r} is a method every aggregate has "
                    f"({', '.join(sorted(RESERVED_COMMANDS))}, validate*); choose another name",
                )
    clash = set(spec.aggregates) & (set(spec.events) | set(spec.models))
    for name in sorted(clash):
        yield ("aggregates", name), f"{name!r} is also declared as an event or model"


def _all_fields(spec: Spec) -> Iterator[tuple[tuple[str, str], dict[str, object]]]:
    for section in ("aggregates", "events", "models", "consumes"):
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
                carried = spec.events[command.emits].fields if command.emits in spec.events else {}
                missing = [
                    f
                    for f, spec_ in aggregate.fields.items()
                    if spec_.default is None and (f not in command.params or f not in carried)
                ]
                if missing:
                    yield (
                        (*loc, "params"),
                        "a creating command (and its event) must set every field without "
                        f"a default (missing: {', '.join(missing)})",
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
    event = spec.events[event_name]
    loc = ("events", event_name, "fields")
    for field, field_spec in event.fields.items():
        if field not in known:
            yield (
                (*loc, field),
                f"{aggregate_name} cannot fill {field!r} (expected one of: "
                f"{', '.join(sorted(known))})",
            )
        elif field in aggregate.fields and field_spec.type != aggregate.fields[field].type:
            yield (
                (*loc, field, "type"),
                f"{field!r} is {aggregate.fields[field].type} in {aggregate_name}, "
                f"not {field_spec.type}",
            )
        elif field == identity and field_spec.type not in ("uuid", "str"):
            yield (*loc, field, "type"), f"the aggregate id {field!r} is a uuid or a str"
    for needed in (identity, *TIMESTAMP_FIELDS):
        if needed not in event.fields:
            yield (
                ("events", event_name, "fields"),
                f"an event of {aggregate_name} carries {needed!r} (the aggregate id and "
                "when it happened), so that replaying it rebuilds the aggregate",
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
            elif member == "get" and path_params != ["id"]:
                yield (*loc, "path"), "a `get` query needs the path parameter {id}"
            elif member == "list" and path_params:
                yield (*loc, "path"), "a `list` query takes no path parameter"
            elif member == "list" and not any(
                r.of == aggregate_name for r in spec.read_models.values()
            ):
                yield (
                    (*loc, "query"),
                    (f"a `list` query reads a read model: declare one `of: {aggregate_name}`"),
                )
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


def _read_models(spec: Spec) -> Iterator[Finding]:
    seen: set[str] = set()
    for name, read_model in spec.read_models.items():
        if read_model.of not in spec.aggregates:
            yield (
                ("read_models", name, "of"),
                (
                    f"unknown aggregate {read_model.of!r} (expected one of: "
                    f"{', '.join(spec.aggregates) or 'none declared'})"
                ),
            )
        elif read_model.of in seen:
            yield ("read_models", name, "of"), f"{read_model.of} already has a read model"
        seen.add(read_model.of)


def _upcasts(spec: Spec) -> Iterator[Finding]:
    for name, event in spec.events.items():
        needed = set(range(1, event.version))
        if set(event.upcasts) != needed:
            yield (
                ("events", name, "upcasts"),
                (
                    f"version {event.version} needs an upcast from each older version "
                    f"({', '.join(map(str, sorted(needed))) or 'none'}), "
                    f"has {', '.join(map(str, sorted(event.upcasts))) or 'none'}"
                ),
            )


def _library(spec: Spec) -> Iterator[Finding]:
    if spec.kind == "lib" and spec.endpoints:
        yield ("endpoints",), "a library has no endpoints (use kind: app)"
    if spec.kind == "lib" and spec.read_models:
        yield ("read_models",), "read models are served by apps (use kind: app)"
    if spec.kind == "app" and spec.layers:
        yield ("layers",), "`layers` is for libraries (kind: lib)"
    for index, layer in enumerate(spec.layers):
        for part in layer.split("|"):
            if not re.fullmatch(r"[a-z_][a-z0-9_]*", part.strip()):
                yield ("layers", index), f"{part!r} is not a subpackage name"


def _consumes(spec: Spec) -> Iterator[Finding]:
    if spec.kind == "lib" and spec.consumes:
        yield ("consumes",), "a library has no consumers (use kind: app)"
    own = set(spec.aggregates) | set(spec.events) | set(spec.models) | set(spec.read_models)
    handlers: dict[str, str] = {}
    durables: dict[str, str] = {}
    for key, consumed in spec.consumes.items():
        if not re.fullmatch(CONSUMED_EVENT, key):
            yield (
                ("consumes", key),
                (f"{key!r} must name <service>.<EventType>, e.g. iam.TenantCreatedEvent"),
            )
            continue
        producer, event = key.split(".")
        if event in own:
            yield ("consumes", key), f"{event!r} is also declared in this spec; rename one"
        if producer == spec.name:
            yield ("consumes", key), "a service consumes other services' events, not its own"
        if consumed.handler is not None and not re.fullmatch(CAMEL, consumed.handler):
            yield (
                ("consumes", key, "handler"),
                f"{consumed.handler!r} must be camelCase ({CAMEL})",
            )
        handler = naming.consumer_handler(key, consumed.handler)
        if handler in handlers:
            yield ("consumes", key, "handler"), f"{handler!r} also handles {handlers[handler]}"
        handlers[handler] = key
        durable = naming.consumer_durable(spec.name, key, consumed.durable)
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", durable):
            yield ("consumes", key, "durable"), f"{durable!r} is not a durable name ([A-Za-z0-9_-])"
        elif durable in durables:
            yield (
                ("consumes", key, "durable"),
                f"{durable!r} is also the group of {durables[durable]}",
            )
        durables[durable] = key
