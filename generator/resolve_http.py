"""Read models and endpoints resolved: the rows each event writes, and what each HTTP
route runs, takes from its path and query, and answers."""

from __future__ import annotations

import re
from typing import Any

from generator import naming
from generator.expr import (
    BOOL,
    DATE,
    DATETIME,
    NONE,
    ExprError,
    Node,
    Scope,
    names_beyond_presence,
    parse,
)
from generator.reserved import python_attribute
from generator.resolve_calls import called_method, method_inputs
from generator.resolve_fields import FieldResolver, camel_problem
from generator.resolved import (
    Domain,
    Loc,
    RAggregate,
    RCommand,
    REndpoint,
    RField,
    RHandler,
    RReadModel,
    listed,
)
from generator.spec import CAMEL, EndpointSpec, OnSpec, ReadModelSpec, Spec
from generator.typeref import TypeRef

PATH = re.compile(r"^/[A-Za-z0-9._~/{}-]*$")
PATH_TYPES = frozenset({"str", "int", "uuid", "date"})
STR = TypeRef.scalar("str")
TIMESTAMP_COLUMNS = ("createdAt", "updatedAt")
TENANT_PARAM = "tenantId"
"""The path parameter that names the request's tenant (``tenant: path``)."""


def resolve_read_models(spec: Spec, domain: Domain, fields: FieldResolver) -> None:
    for name, read_model in spec.read_models.items():
        loc: Loc = ("read_models", name)
        if read_model.of is not None:
            resolved = _of_aggregate(domain, name, read_model, loc)
        else:
            resolved = _declared(domain, name, read_model, loc, fields)
        if resolved is None:
            continue
        row_scope = fields.scope({c.name: c.full_type for c in resolved.columns})
        row_scope = row_scope.with_names({"now": DATETIME, "today": DATE})
        taken = {c.name for c in resolved.columns}
        resolved.computed = fields.computed(read_model.computed, row_scope, loc, taken, "column")
        domain.read_models[name] = resolved


def _of_aggregate(domain: Domain, name: str, spec: ReadModelSpec, loc: Loc) -> RReadModel | None:
    aggregate = domain.aggregates.get(spec.of or "")
    if aggregate is None:
        domain.problem(
            (*loc, "of"),
            f"unknown aggregate {spec.of!r} (expected one of: {listed(domain.aggregates)})",
        )
        return None
    if spec.key is not None or spec.fields or spec.on:
        domain.problem(loc, "with `of`, the rows are the aggregate's: leave out key, fields and on")
    if any(r.of == aggregate.name for r in domain.read_models.values()):
        domain.problem((*loc, "of"), f"{aggregate.name} already has a read model")
        return None
    columns = [
        RField("id", "id", STR, loc),
        *aggregate.fields,
        RField("createdAt", "created_at", DATETIME, loc),
        RField("updatedAt", "updated_at", DATETIME, loc),
    ]
    return RReadModel(
        name,
        aggregate.name,
        ["id"],
        columns,
        list(aggregate.computed),
        _aggregate_handlers(domain, aggregate),
        spec.description or f"Every {' '.join(naming.words(aggregate.name))} of the tenant.",
    )


def _aggregate_handlers(domain: Domain, aggregate: RAggregate) -> list[RHandler]:
    handlers: dict[str, RHandler] = {}
    for command in aggregate.commands:
        event = domain.events.get(command.event)
        if event is None or command.event in handlers:
            continue
        key = {"id": Node("name", STR, value=f"event.{aggregate.event_id}")}
        values = {
            f.name: _row_value(f, aggregate)
            for f in event.fields
            if f.name not in (aggregate.event_id, "occurredAt") and aggregate.field(f.name)
        }
        stamp = Node("name", DATETIME, value="event.occurredAt")
        values["updatedAt"] = stamp
        if command.creates:
            values["createdAt"] = stamp
            action = "upsert"
        else:
            action = "delete" if command.deletes else "set"
        carried = {f.name for f in event.fields}
        gone = aggregate.gone if aggregate.gone_field in carried and action != "delete" else None
        handlers[command.event] = RHandler(command.event, action, key, values, gone)
    return list(handlers.values())


def _row_value(carried: RField, aggregate: RAggregate) -> Node:
    """What a row of the aggregate's read model keeps of a field its event carries: the
    value, but for a secret, whose hash the rows (the aggregate's type) hold blank: no
    query table keeps a copy of a credential's hash (the event store alone does)."""
    field = aggregate.field(carried.name)
    if field is not None and field.secret and field.full_type.kind == "optional":
        # blank where the aggregate holds one, null where not: a computed value asking
        # whether one is set (`token is not None`) reads the rows as the aggregate
        given = Node("name", carried.full_type, value=f"event.{carried.name}")
        none = Node("literal", NONE, value=None)
        held = Node("compare", BOOL, (given, none), ("is not",))
        blank = Node("literal", field.full_type, value="")
        return Node("if", field.full_type, (held, blank, Node("literal", NONE, value=None)))
    if field is not None and field.secret:
        return Node("literal", field.full_type, value="")
    return Node("name", carried.full_type, value=f"event.{carried.name}")


def _declared(
    domain: Domain, name: str, spec: ReadModelSpec, loc: Loc, fields: FieldResolver
) -> RReadModel | None:
    columns = fields.fields(spec.fields, (*loc, "fields"), unchecked="a read model")
    by_name = {c.name: c for c in columns}
    keys = spec.keys
    if not keys:
        domain.problem(loc, "a read model names its `key` column(s) (or is `of` an aggregate)")
        return None
    for index, key in enumerate(keys):
        where = (*loc, "key") if isinstance(spec.key, str) else (*loc, "key", index)
        if key not in by_name:
            domain.problem(where, f"unknown column {key!r} (columns: {', '.join(by_name)})")
            return None
        column = by_name[key]
        if (
            column.optional
            or column.type.kind not in ("scalar", "enum")
            or column.type.column == "json"
        ):
            domain.problem(where, f"the key column {key!r} is a non-optional scalar")
            return None
    if not spec.on:
        domain.problem((*loc, "on"), "a read model says what events do to its rows (`on`)")
    handlers = []
    # each change an event makes, each located (a list of them: each at its index)
    changes: list[tuple[str, OnSpec, Loc]] = []
    for event_name, said in spec.on.items():
        if isinstance(said, list):
            changes += [
                (event_name, each, (*loc, "on", event_name, index))
                for index, each in enumerate(said)
            ]
        else:
            changes.append((event_name, said, (*loc, "on", event_name)))
    unknown: set[str] = set()
    for event_name, on, where in changes:
        event = domain.events.get(event_name)
        if event is None or event.aggregate is None:
            if event_name not in unknown:
                unknown.add(event_name)
                domain.problem(
                    (*loc, "on", event_name),
                    f"unknown event {event_name!r} (events of this service's aggregates)",
                )
            continue
        actions = [
            a
            for a, given in (
                ("upsert", on.upsert is not None),
                ("set", on.set is not None),
                ("delete", on.delete),
            )
            if given
        ]
        if len(actions) != 1:
            domain.problem(where, "an event does one of: upsert, set or delete")
            continue
        (action,) = actions
        event_names = {f"event.{f.name}": f.full_type for f in event.fields}
        event_scope = fields.scope(event_names)
        each = _each(fields, on, event_scope, {c.name for c in columns}, where)
        if on.each is not None and each is None:
            continue
        if each is not None:
            item = each[1].type.required().element
            event_scope = event_scope.with_names({each[0]: item})
        upsert = dict(on.upsert or {})
        # a key column's value may come from `upsert` (errors then name it there) or `key`
        origin = {k: "key" if k in (on.key or {}) else "upsert" for k in keys if k in upsert}
        given_key = {**{k: upsert.pop(k) for k in keys if k in upsert}, **(on.key or {})}
        key_values = _key_values(
            fields, given_key, keys, by_name, event_scope, event, where, origin
        )
        if key_values is None:
            continue
        values: dict[str, Node] = {}
        if action == "upsert":
            values = _upsert_values(fields, upsert, columns, keys, event_scope, event.fields, where)
        elif action == "set":
            row_scope = event_scope.with_names({c.name: c.full_type for c in columns})
            for column_name, text in (on.set or {}).items():
                target = by_name.get(column_name)
                if target is None or column_name in keys:
                    domain.problem(
                        (*where, "set", column_name), f"{column_name!r} is not a column to set"
                    )
                    continue
                node = fields.expression(
                    text, row_scope, (*where, "set", column_name), target.full_type
                )
                if node is not None:
                    values[column_name] = node
        if on.create and action != "set":
            domain.problem(
                (*where, "create"),
                "`create` goes with `set`: a missing row starts from its defaults, then `set`"
                " changes it",
            )
        elif on.create:
            bare = [c.name for c in columns if c.name not in keys and c.required]
            if bare:
                domain.problem(
                    (*where, "create"),
                    f"a row it creates needs a default for {', '.join(bare)} (or make it optional)",
                )
        shown = {**key_values, **values, **({"each": each[1]} if each else {})}
        _no_hidden_value(domain, event.aggregate, shown, (*where, action))
        handlers.append(
            RHandler(event_name, action, key_values, values, create=on.create, each=each)
        )
    return RReadModel(name, None, keys, columns, [], handlers, spec.description or "")


def _each(
    fields: FieldResolver, on: OnSpec, scope: Scope, columns: set[str], loc: Loc
) -> tuple[str, Node] | None:
    """The list of the event a change is made once per item of, and the item's name."""
    if on.each is None:
        return None
    if len(on.each) != 1:
        fields.domain.problem(
            (*loc, "each"), "each names one list, with its item's name: {line: event.lines}"
        )
        return None
    ((name, text),) = on.each.items()
    where = (*loc, "each", name)
    if not re.fullmatch(CAMEL, name) or name == "event" or name in columns:
        fields.domain.problem(
            where,
            f"the item's name is camelCase, neither `event` nor a column ({name!r})",
        )
        return None
    node = fields.expression(text, scope, where, None)
    if node is None:
        return None
    if node.type.required().kind != "list":
        fields.domain.problem(
            where, f"each goes over a list of the event, not {node.type} (in {text!r})"
        )
        return None
    return name, node


def _no_hidden_value(domain: Domain, aggregate: str, values: dict[str, Node], loc: Loc) -> None:
    """A read model's row shows what it holds: none of the values a hidden field of the
    event's aggregate has (the event carries them)."""
    found = domain.aggregates.get(aggregate)
    hidden = {f"event.{f.name}" for f in found.fields if f.hidden} if found else set()
    for column, node in values.items():
        if shown := sorted(names_beyond_presence(node) & hidden):
            domain.problem(
                (*loc, column),
                f"{shown[0].removeprefix('event.')!r} is hidden in {aggregate}: a read model"
                " would show it",
            )


def _key_values(
    fields: FieldResolver,
    given: dict[str, Any],
    keys: list[str],
    columns: dict[str, RField],
    scope: Scope,
    event: Any,
    loc: Loc,
    origin: dict[str, str],
) -> dict[str, Node] | None:
    result: dict[str, Node] = {}
    carried = {f.name: f for f in event.fields}
    for key in keys:
        node: Node | None
        if key in given:
            where = (*loc, origin.get(key, "key"), key)
            try:
                node = parse(given[key], scope, columns[key].type)
            except ExprError:  # an optional value names the row, or none when it is null
                node = fields.expression(given[key], scope, where, columns[key].type.optional())
        elif key in carried and carried[key].full_type.required() == columns[key].type:
            node = Node("name", carried[key].full_type, value=f"event.{key}")
        else:
            fields.domain.problem(
                loc,
                f"{event.name} carries no {key!r} of type {columns[key].type}: say which value "
                f"is the key (`key: {{{key}: event.<field>}}`)",
            )
            return None
        if node is None:
            return None
        result[key] = node
    return result


def _upsert_values(
    fields: FieldResolver,
    given: dict[str, Any],
    columns: list[RField],
    keys: list[str],
    scope: Scope,
    event_fields: list[RField],
    loc: Loc,
) -> dict[str, Node]:
    carried = {f.name: f for f in event_fields}
    values: dict[str, Node] = {}
    for column in columns:
        if column.name in keys:
            continue
        if column.name in given:
            node = fields.expression(
                given[column.name], scope, (*loc, "upsert", column.name), column.full_type
            )
            if node is not None:
                values[column.name] = node
        elif column.name in carried and (
            carried[column.name].full_type == column.full_type
            or (column.optional and carried[column.name].type == column.type)
        ):  # the event's value, or (into an optional column) one that is never null
            values[column.name] = Node("name", column.full_type, value=f"event.{column.name}")
        elif column.required:
            fields.domain.problem(
                (*loc, "upsert"),
                f"the column {column.name!r} has no default and the event carries no value for it",
            )
    for column_name in given:
        if column_name not in {c.name for c in columns} or column_name in keys:
            fields.domain.problem(
                (*loc, "upsert", column_name), f"{column_name!r} is not a column to write"
            )
    return values


# endpoints
def resolve_endpoints(spec: Spec, domain: Domain, fields: FieldResolver) -> None:
    seen: dict[tuple[str, str], int] = {}
    use_cases: dict[tuple[str, str], tuple[int, str | None]] = {}
    bodies: dict[str, tuple[int, tuple[str, str | None, bool, frozenset[str]]]] = {}
    for index, endpoint in enumerate(spec.endpoints):
        resolved = _endpoint(spec, domain, fields, index, endpoint)
        if resolved is None:
            continue
        shape = re.sub(r"{\w+}", "{}", endpoint.path.rstrip("/") or "/")
        if (endpoint.method, shape) in seen:
            domain.problem(
                ("endpoints", index, "path"),
                f"{endpoint.method} {endpoint.path} is also endpoint "
                f"{seen[(endpoint.method, shape)]}",
            )
            continue
        for (method, other), other_index in seen.items():
            if method == endpoint.method and _shadows(other, shape):
                domain.problem(
                    ("endpoints", index, "path"),
                    f"{endpoint.method} {endpoint.path} is never reached: endpoint {other_index}, "
                    "declared before it, matches every URL it does (declare this one first)",
                )
        seen[(endpoint.method, shape)] = index
        # A command may be served by several endpoints (a PUT and a PATCH, a tenant's path
        # and a platform operator's), all through its one use case; a use case name is
        # refused only when it would stand for two different commands.
        use_case_key = (resolved.target, resolved.use_case)
        earlier = use_cases.get(use_case_key)
        runs = (
            resolved.command if resolved.create is None else f"{resolved.command}|{resolved.create}"
        )
        if earlier is not None and resolved.kind not in ("get", "list") and earlier[1] != runs:
            domain.problem(
                ("endpoints", index, "use_case"),
                f"use case {resolved.use_case!r} is also endpoint {earlier[0]}'s",
            )
        use_cases.setdefault(use_case_key, (index, runs))
        if resolved.request is not None:
            body_shape = (
                resolved.target,
                resolved.command if resolved.kind != "call" else f"call {index}",
                resolved.method == "PATCH",
                frozenset(resolved.path_params),
            )
            first = bodies.setdefault(resolved.request, (index, body_shape))
            if first[1] != body_shape:
                domain.problem(
                    ("endpoints", index, "request"),
                    f"{resolved.request!r} is also endpoint {first[0]}'s body, which takes "
                    "other values (a PATCH body leaves every field out at will; a path gives"
                    " some values): name this one differently",
                )
        domain.endpoints.append(resolved)


def _shadows(earlier: str, later: str) -> bool:
    """Whether every URL ``later`` matches is matched by ``earlier`` (routes match in order)."""
    first, second = earlier.split("/"), later.split("/")
    if len(first) != len(second):
        return False
    return all(x == y or x == "{}" for x, y in zip(first, second, strict=True))


def _endpoint(
    spec: Spec, domain: Domain, fields: FieldResolver, index: int, endpoint: EndpointSpec
) -> REndpoint | None:
    loc: Loc = ("endpoints", index)
    path_params = re.findall(r"{([^}]*)}", endpoint.path)
    if (
        not PATH.fullmatch(endpoint.path)
        or "}{" in endpoint.path
        or re.search(r"{[^}]*$|^[^{]*}", endpoint.path)
    ):
        domain.problem(
            (*loc, "path"), "a path is /segments of letters, digits, . _ ~ - and {parameters}"
        )
        return None
    for param in path_params:
        if not re.fullmatch(CAMEL, param):
            domain.problem((*loc, "path"), f"a path parameter is camelCase, not {{{param}}}")
            return None
    if len(set(path_params)) != len(path_params):
        domain.problem((*loc, "path"), "a path names each parameter once")
        return None
    if [endpoint.command, endpoint.query, endpoint.call].count(None) != 2:
        domain.problem(loc, "an endpoint names exactly one of `command`, `query` or `call`")
        return None
    if endpoint.call is None:
        for key in ("inputs", "response"):
            if key in endpoint.model_fields_set:
                domain.problem(
                    (*loc, key),
                    f"{key} belongs to a call (a command takes its parameters and inputs,"
                    " a query answers its aggregate or rows)",
                )
    if endpoint.use_case is not None:
        problem = camel_problem(endpoint.use_case, "use case name")
        if problem:
            domain.problem((*loc, "use_case"), problem)
            return None
    if endpoint.request is not None:
        from generator.reserved import class_name_problem

        problem = (
            None
            if re.fullmatch(r"[A-Z][A-Za-z0-9]{0,63}", endpoint.request)
            else "must be PascalCase"
        ) or class_name_problem(endpoint.request)
        if problem or endpoint.request in domain.aggregates or endpoint.request in domain.events:
            domain.problem((*loc, "request"), problem or f"{endpoint.request!r} is taken")
            return None
    if endpoint.tenant == "path":
        if TENANT_PARAM not in path_params:
            domain.problem(
                (*loc, "path"),
                f"with `tenant: path` the path names the tenant: add {{{TENANT_PARAM}}}",
            )
            return None
        if endpoint.permission is None:
            domain.problem(
                (*loc, "tenant"),
                "a tenant in the path needs a `permission`: who may name which tenant is "
                "known from bearer tokens only",
            )
            return None
        path_params = [p for p in path_params if p != TENANT_PARAM]
    if endpoint.command is not None:
        resolved = _command_endpoint(domain, index, endpoint, path_params, loc)
    elif endpoint.query is not None:
        resolved = _query_endpoint(domain, index, endpoint, path_params, loc)
    else:
        resolved = _call_endpoint(spec, domain, fields, index, endpoint, path_params, loc)
    if (
        resolved is not None
        and endpoint.platform_only
        and endpoint.tenant != "path"
        and resolved.kind not in ("call", "every")
    ):
        domain.problem(
            (*loc, "platform_only"),
            "an endpoint for platform operators names the tenant it acts in: add tenant: path"
            " (a platform operator's token has no tenant)",
        )
        return None
    if resolved is not None:
        resolved.platform_only = endpoint.platform_only
        resolved.tenant_path = endpoint.tenant == "path"
        resolved.flag = endpoint.flag
        if endpoint.consistent and resolved.target not in domain.read_models:
            domain.problem(
                (*loc, "consistent"),
                "consistent is for read-model queries: an aggregate is read from its events,"
                " always current",
            )
        resolved.consistent = endpoint.consistent
    return resolved


def _call_endpoint(
    spec: Spec,
    domain: Domain,
    fields: FieldResolver,
    index: int,
    endpoint: EndpointSpec,
    path_params: list[str],
    loc: Loc,
) -> REndpoint | None:
    """An operation a hand-written component serves: ``call: <component>.<method>``."""
    called = called_method(spec, domain, endpoint.call or "", (*loc, "call"))
    if called is None:
        return None
    component, method = called
    inputs, ok = method_inputs(fields, endpoint.inputs, (*loc, "inputs"), "a call's inputs")
    for key in ("filter", "sort", "order", "page", "create", "use_case"):
        if key in endpoint.model_fields_set:
            ok = False
            domain.problem(
                (*loc, key),
                f"{key} is not for a call: its method takes the inputs and answers as it will",
            )
    names = {f.name: f for f in inputs}
    for param in path_params:
        given = names.get(param)
        if given is None:
            ok = False
            domain.problem(
                (*loc, "path"),
                f"{{{param}}} is no input of the call: declare it in `inputs` (a str, int,"
                " uuid or date)",
            )
        elif given.optional or given.has_default or given.type.name not in PATH_TYPES:
            ok = False
            domain.problem(
                (*given.loc, "type"),
                f"{param!r} is in the path: a required str, int, uuid or date",
            )
    if not _operators_named(domain, endpoint, loc):
        ok = False
    body = [f for f in inputs if f.name not in path_params]
    if body and endpoint.method in ("GET", "DELETE"):
        ok = False
        domain.problem(
            (*loc, "inputs"),
            f"a {endpoint.method} has no body: its inputs are the path's parameters"
            f" ({', '.join(f.name for f in body)} are not in the path)",
        )
    response, many = endpoint.response, False
    if response is not None:
        inner = re.fullmatch(r"list\[(\w+)\]", response)
        response, many = (inner.group(1), True) if inner else (response, False)
        if response not in domain.values and response not in domain.aggregates:
            ok = False
            domain.problem(
                (*loc, "response"),
                f"unknown type {endpoint.response!r}: a call answers an aggregate (its view), a"
                f" value object, or list[...] of one (expected one of: "
                f"{listed([*domain.aggregates, *domain.values])}); without `response`, 204",
            )
    status = endpoint.status or (200 if response is not None else 204)
    if (status == 204) != (response is None):
        ok = False
        domain.problem(
            (*loc, "status"),
            "204 answers no content: a call without `response` answers 204, one with it"
            " another status",
        )
    request = endpoint.request or (naming.pascal(method) + "Request" if body else None)
    if request is not None and request in (*domain.enums, *domain.read_models):
        ok = False
        domain.problem(
            (*loc, "request"),
            f"{request!r} is taken: name the body with `request`",
        )
    if not ok:
        return None
    return REndpoint(
        index=index,
        method=endpoint.method,
        path=endpoint.path,
        kind="call",
        target=component,
        command=None,
        use_case=method,
        request=request,
        status=status,
        permission=endpoint.permission,
        path_params=path_params,
        by=[],
        filters=[],
        sort=[],
        page=False,
        summary=endpoint.summary or "",
        method_name=method,
        inputs=inputs,
        response=response,
        response_many=many,
    )


def _command_endpoint(
    domain: Domain, index: int, endpoint: EndpointSpec, path_params: list[str], loc: Loc
) -> REndpoint | None:
    name, _, member = (endpoint.command or "").partition(".")
    aggregate = domain.aggregates.get(name)
    if aggregate is None:
        domain.problem(
            (*loc, "command"),
            f"unknown aggregate {name!r} (expected one of: {listed(domain.aggregates)})",
        )
        return None
    command = aggregate.command(member)
    if command is None:
        domain.problem(
            (*loc, "command"),
            f"unknown command {member!r} of {name} (expected one of: "
            f"{', '.join(c.name for c in aggregate.commands) or 'none declared'})",
        )
        return None
    kind = "create" if command.creates else "delete" if aggregate.makes_gone(command) else "change"
    if endpoint.method == "GET" or (endpoint.method == "DELETE" and kind == "create"):
        domain.problem((*loc, "method"), f"{endpoint.method} does not fit a {kind} command")
        return None
    body = [
        f.name
        for f in command.arguments
        if f.name not in path_params and f.secret != "generated"  # made, not given
    ]
    if endpoint.method == "DELETE" and kind == "change" and body:
        # a soft delete (a disabled account stays readable) takes nothing but the path
        names = ", ".join(body)
        domain.problem(
            (*loc, "method"),
            f"DELETE sends no body: {member!r} takes {names} (a command without"
            " parameters, that deletes, or whose `set` makes the aggregate gone)",
        )
        return None
    ids = [p for p in path_params if p in aggregate.path_ids]
    arguments = {f.name: f for f in command.arguments}
    # `/clients/{clientId}`: the aggregate named by the one field of its key
    by_key = next(
        (
            p
            for p in path_params
            if kind != "create"
            and not ids
            and p not in arguments
            and len(aggregate.key) == 1
            and aggregate.key[0].name == p
        ),
        None,
    )
    others = [p for p in path_params if p not in ids and p != by_key]
    create = None
    if endpoint.create is not None:
        create = _upsert(domain, endpoint, aggregate, command, by_key, loc)
        if create is None:
            return None
    elif kind == "create" and ids:
        domain.problem((*loc, "path"), f"command {member!r} creates: no {{id}} in its path")
        return None
    # a command on the aggregate whose id is the tenant (a tenant's own record): the path's
    own_record = (
        kind != "create"
        and not ids
        and endpoint.tenant == "path"
        and TENANT_PARAM in aggregate.path_ids
        and not aggregate.key
    )
    if kind != "create" and len(ids) != 1 and not own_record and by_key is None:
        keyed = (
            f" (or {{{aggregate.key[0].name}}}, the one field of its key)"
            if len(aggregate.key) == 1
            else ""
        )
        domain.problem((*loc, "path"), f"command {member!r} needs the path parameter {{id}}{keyed}")
        return None
    if endpoint.method == "PATCH" and not [p for p in command.params if p.name not in path_params]:
        # a merge patch changes the aggregate's fields: an empty one would run the command
        domain.problem(
            (*loc, "method"),
            f"a PATCH patches fields: {member!r} takes none in its body (serve it with POST"
            " or PUT)",
        )
        return None
    made = [f.name for f in command.arguments if f.secret == "generated"]
    if endpoint.method == "PATCH" and made:
        domain.problem(
            (*loc, "method"),
            f"a PATCH cannot serve {member!r}, which makes {made[0]!r}, a generated secret:"
            " serve the command with PUT or POST",
        )
        return None
    for param in others:
        field = arguments.get(param)
        if (
            field is None
            or field.secret is not None
            or field.optional
            or not (field.type.kind == "enum" or field.type.is_scalar(*PATH_TYPES))
        ):
            if field is None:
                why = f"{member!r} takes no {param!r}"
            else:
                given = "a secret" if field.secret else str(field.full_type)
                why = f"{member!r} takes {param!r} as {given}"
            domain.problem(
                (*loc, "path"),
                f"{{{param}}} must be a required parameter of {member!r} of type str, int, uuid,"
                f" date or an enum ({why})",
            )
            return None
    deleting = kind == "delete" or endpoint.method == "DELETE"
    default_status = 201 if kind == "create" else 204 if deleting else 200
    status = endpoint.status or default_status
    if status == 204 and kind == "create":
        domain.problem((*loc, "status"), "a creating command answers with the created resource")
    elif status == 204 and any(f.secret == "generated" for f in command.arguments):
        domain.problem(
            (*loc, "status"),
            f"{member!r} makes a generated secret, which its answer shows once: not 204",
        )
    if endpoint.filter or endpoint.sort or endpoint.order or endpoint.page:
        domain.problem(loc, "filter, sort, order and page are for list queries")
    resolved = REndpoint(
        index,
        endpoint.method,
        endpoint.path,
        kind,
        name,
        member,
        python_attribute(naming.snake(endpoint.use_case or member)),
        endpoint.request,
        status,
        endpoint.permission,
        path_params,
        ids,
        [],
        [],
        False,
        endpoint.summary or "",
    )
    resolved.id_is_tenant = own_record
    resolved.by_key = by_key
    if create is not None:
        resolved.kind = "upsert"
        resolved.create = create.name
        resolved.use_case = python_attribute(
            naming.snake(endpoint.use_case or f"{member}_or_{create.name}")
        )
        taken = {c.method for c in aggregate.commands} | {"get", "list"}
        if resolved.use_case in taken or resolved.use_case.startswith("get_by_"):
            domain.problem(
                (*loc, "use_case"),
                f"use case {resolved.use_case!r} is taken by {aggregate.name}'s own use cases:"
                " name the create-or-replace one differently",
            )
            return None
    return resolved


def _declared_as(field_: RField) -> tuple[object, ...]:
    """What a request's value of ``field_`` is: its type, default, rules and references."""
    return (
        field_.full_type,
        field_.has_default,
        repr(field_.default),
        field_.rules,
        field_.messages,
        field_.item_rules,
        field_.item_messages,
        field_.references,
        field_.secret,
    )


def _upsert(
    domain: Domain,
    endpoint: EndpointSpec,
    aggregate: RAggregate,
    command: RCommand,
    by_key: str | None,
    loc: Loc,
) -> RCommand | None:
    """The creating command of a create-or-replace ``PUT`` (``create``), once its shape is
    checked: the path names the aggregate by its key, the creating command takes the key
    and the body, and ``command`` changes the aggregate from that same body."""
    where: Loc = (*loc, "create")
    name, _, member = (endpoint.create or "").partition(".")
    if endpoint.method != "PUT":
        domain.problem((*loc, "method"), "a create-or-replace endpoint (`create`) is a PUT")
        return None
    if name != aggregate.name:
        domain.problem(
            where,
            f"{endpoint.create!r} is not of {aggregate.name}: `create` must name a creating"
            f" command of the aggregate `command` changes ({aggregate.name}.<command>)",
        )
        return None
    create = aggregate.command(member)
    if create is None or not create.creates:
        creating = [c.name for c in aggregate.commands if c.creates]
        domain.problem(
            where,
            f"{member!r} is no creating command of {name} (expected one of: "
            f"{', '.join(creating) or 'none declared'})",
        )
        return None
    if command.creates or aggregate.makes_gone(command):
        domain.problem(
            (*loc, "command"),
            f"{command.name!r} creates or deletes: a create-or-replace PUT runs `create` when"
            " none has the key and `command`, a command that changes it, when one has",
        )
        return None
    if len(aggregate.key) != 1 or by_key is None:
        key = aggregate.key[0].name if len(aggregate.key) == 1 else None
        domain.problem(
            (*loc, "path"),
            f"a create-or-replace PUT names the {aggregate.name} by its key: put {{{key}}} in"
            " the path"
            if key
            else f"a create-or-replace PUT names the {aggregate.name} by the one field of its"
            " `key` (its id is derived from it): declare one, e.g. key: [name]"
            if not aggregate.key
            else f"a create-or-replace PUT names the {aggregate.name} by the one field of its"
            f" `key`, and its key has {len(aggregate.key)}"
            f" ({', '.join(f.name for f in aggregate.key)}): serve it by POST and by its id,"
            " or give it a key of one field",
        )
        return None
    if endpoint.status is not None:
        domain.problem(
            (*loc, "status"), "a create-or-replace PUT answers 201 when it creates, else 200"
        )
        return None
    for used in (create, command):
        made = [f.name for f in used.arguments if f.secret == "generated"]
        if made:
            domain.problem(
                where if used is create else (*loc, "command"),
                f"{used.name!r} makes a generated secret ({made[0]!r}), which only the answer"
                " of a POST or a plain PUT shows: a create-or-replace PUT serves commands that"
                " do not",
            )
            return None
    taking = {f.name: f for f in create.arguments}
    changing = {f.name: f for f in command.arguments}
    if by_key not in taking:
        domain.problem(where, f"{member!r} does not take {by_key!r}, the key the path gives")
        return None
    for field_name, field_ in changing.items():
        other = taking.get(field_name)
        if other is None or _declared_as(other) != _declared_as(field_):
            domain.problem(
                where,
                f"{member!r} does not take {field_name!r} as {command.name!r} does (the same"
                " type, default and rules): the body of a create-or-replace PUT is one for both"
                " commands",
            )
            return None
    for field_name in taking:
        if field_name != by_key and field_name not in changing:
            domain.problem(
                (*loc, "command"),
                f"{command.name!r} does not take {field_name!r}, which {member!r} does: a"
                " replace would drop it (the body of a create-or-replace PUT is one for both"
                " commands)",
            )
            return None
    return create


def _query_endpoint(
    domain: Domain, index: int, endpoint: EndpointSpec, path_params: list[str], loc: Loc
) -> REndpoint | None:
    target, _, member = (endpoint.query or "").partition(".")
    if endpoint.method != "GET":
        domain.problem((*loc, "method"), "a query is a GET")
        return None
    if endpoint.status not in (None, 200):
        domain.problem((*loc, "status"), "a query answers 200")
    aggregate = domain.aggregates.get(target)
    read_model = domain.read_models.get(target)
    if aggregate is not None and member == "list":
        read_model = next((r for r in domain.read_models.values() if r.of == target), None)
        if read_model is None and TENANT_PARAM in aggregate.path_ids:
            return _every_tenant(domain, index, endpoint, aggregate, path_params, loc)
        if read_model is None:
            domain.problem(
                (*loc, "query"), f"a `list` query reads a read model: declare one `of: {target}`"
            )
            return None
        aggregate = None
    if aggregate is None and read_model is None:
        known = [*domain.aggregates, *domain.read_models]
        domain.problem(
            (*loc, "query"),
            f"unknown query {endpoint.query!r} (expected <Aggregate>.get, <Aggregate>.list, "
            f"<ReadModel>.list or <ReadModel>.get; declared: {', '.join(known) or 'none'})",
        )
        return None
    if aggregate is not None:
        if member not in ("get", ""):
            domain.problem((*loc, "query"), f"unknown query {member!r} of {target} (get or list)")
            return None
        return _get_aggregate(domain, index, endpoint, aggregate, path_params, loc)
    assert read_model is not None
    kind = member or (
        "get" if sorted(path_params) == sorted(read_model.keys) and path_params else "list"
    )
    if kind not in ("get", "list"):
        domain.problem((*loc, "query"), f"unknown query {member!r} of {target} (get or list)")
        return None
    if kind == "get":
        if sorted(path_params) != sorted(read_model.keys):
            domain.problem(
                (*loc, "path"), f"a `get` of {target} takes its key in the path: {read_model.keys}"
            )
            return None
        if endpoint.filter or endpoint.sort or endpoint.order or endpoint.page:
            domain.problem(loc, "filter, sort, order and page are for list queries")
        return _query(index, endpoint, "get", read_model.name, path_params, path_params, [], [])
    for param in path_params:
        column = read_model.column(param)
        if column is None or column.hidden or not _filterable(column):
            domain.problem((*loc, "path"), f"{{{param}}} is not a column of {target} to filter on")
            return None
    filters = []
    # the query parameters the list takes besides its filters
    taken = {"limit", "offset"} if endpoint.page else set()
    taken |= {"sort"} if endpoint.sort else set()
    for position, column_name in enumerate(endpoint.filter):
        column = read_model.column(column_name)
        where = (*loc, "filter", position)
        if column is None:
            domain.problem(
                where,
                f"unknown column {column_name!r} of {read_model.name}"
                + _computed_hint(domain, read_model, column_name),
            )
        elif column.hidden:
            domain.problem(where, f"{column_name!r} is hidden: no request may search by it")
        elif not _filterable(column):
            why = (
                "a decimal is kept as text, exactly"
                if column.type.required().name == "decimal"
                else "a list, map, value object or json value is no one value to compare"
            )
            domain.problem(
                where,
                f"{column_name!r} ({column.type}) cannot be filtered on (filters take "
                f"str, int, float, bool, uuid, date, datetime and enum columns; {why})",
            )
        elif column_name in path_params:
            domain.problem(where, f"{column_name!r} is taken by the path")
        elif column_name in taken:
            domain.problem(
                where,
                f"{column_name!r} is taken by "
                + ("the sort" if column_name == "sort" else "paging (limit, offset)"),
            )
        else:
            filters.append(column_name)
    sort = _sortable_columns(domain, read_model, endpoint.sort, (*loc, "sort"))
    order: list[tuple[str, bool]] = []
    for position, item in enumerate(endpoint.order):
        name = item.removeprefix("-")
        if _sortable_columns(domain, read_model, [name], (*loc, "order", position)):
            if name in (n for n, _ in order):
                domain.problem((*loc, "order", position), f"{name!r} is named twice")
            order.append((name, item.startswith("-")))
    resolved = _query(
        index, endpoint, "list", read_model.name, path_params, path_params, filters, sort
    )
    resolved.order = order
    resolved.page = endpoint.page
    return resolved


def _operators_named(domain: Domain, endpoint: EndpointSpec, loc: Loc) -> bool:
    """Whether an endpoint for platform operators names the permission they need (a
    problem otherwise: who is one is known from bearer tokens only)."""
    if endpoint.platform_only and endpoint.permission is None:
        domain.problem(
            (*loc, "platform_only"),
            "an endpoint for platform operators needs a `permission`: who is one is known"
            " from bearer tokens only",
        )
        return False
    return True


def _every_tenant(
    domain: Domain,
    index: int,
    endpoint: EndpointSpec,
    aggregate: RAggregate,
    path_params: list[str],
    loc: Loc,
) -> REndpoint | None:
    """Every tenant's own record (the aggregate whose id is its tenant), for platform
    operators: read across the tenants, as the repository's ``all_tenants`` does."""
    if not endpoint.platform_only or endpoint.tenant == "path" or path_params:
        domain.problem(
            (*loc, "query"),
            f"{aggregate.name} is a tenant's own record: its list is every tenant's, for"
            " platform operators (platform_only: true, no tenant or parameter in the path),"
            f" or a read model `of: {aggregate.name}` lists a tenant's",
        )
        return None
    _operators_named(domain, endpoint, loc)
    for key in ("filter", "sort", "page", "consistent"):
        if key in endpoint.model_fields_set:
            domain.problem(
                (*loc, key),
                f"{key} is not for the list of every tenant's record (it takes `order`)",
            )
    order: list[tuple[str, bool]] = []
    for position, item in enumerate(endpoint.order):
        name = item.removeprefix("-")
        field_ = aggregate.field(name)
        where = (*loc, "order", position)
        if name in (n for n, _ in order):
            domain.problem(where, f"{name!r} is named twice")
        elif field_ is None or field_.hidden or field_.optional or not _sortable(field_):
            domain.problem(
                where,
                f"{aggregate.name} cannot be ordered by {name!r}: the order takes required"
                " str, int, float, date, datetime and enum fields that are not hidden",
            )
        else:
            order.append((name, item.startswith("-")))
    resolved = _query(index, endpoint, "every", aggregate.name, [], [], [], [])
    if not endpoint.use_case:
        resolved.use_case = "every_tenant"
    resolved.order = order
    return resolved


def _get_aggregate(
    domain: Domain,
    index: int,
    endpoint: EndpointSpec,
    aggregate: RAggregate,
    path_params: list[str],
    loc: Loc,
) -> REndpoint | None:
    if not path_params and endpoint.tenant == "path" and TENANT_PARAM in aggregate.path_ids:
        # the aggregate whose id is the tenant (a tenant's own record): the path's tenant
        if endpoint.filter or endpoint.sort or endpoint.order or endpoint.page:
            domain.problem(loc, "filter, sort, order and page are for list queries")
        if aggregate.key:
            keyed = " + ".join(f.name for f in aggregate.key)
            domain.problem(
                loc,
                f"{aggregate.name}'s id is derived from its key ({keyed}): it is never the"
                " tenant's, so no tenant's own record can be read this way",
            )
        resolved = _query(index, endpoint, "get", aggregate.name, [], [], [], [])
        resolved.id_is_tenant = True
        return resolved
    if len(path_params) != 1:
        domain.problem(
            (*loc, "path"),
            "a `get` query takes {id}, a unique field or the one field of a key in its path"
            " (or, on a tenant path, is of the aggregate whose id is the tenant: its view_id or"
            " event_id tenantId)",
        )
        return None
    (param,) = path_params
    if param not in aggregate.path_ids:
        field = aggregate.field(param)
        by_key = field is not None and aggregate.key == [field]
        if field is None or not (field.unique or by_key) or field.hidden:
            domain.problem(
                (*loc, "path"),
                f"{{{param}}} is not the id, a unique field or the key of {aggregate.name}",
            )
            return None
    if endpoint.filter or endpoint.sort or endpoint.order or endpoint.page:
        domain.problem(loc, "filter, sort, order and page are for list queries")
    by = [] if param in aggregate.path_ids else [param]
    return _query(index, endpoint, "get", aggregate.name, path_params, by, [], [])


def _query(
    index: int,
    endpoint: EndpointSpec,
    kind: str,
    target: str,
    path_params: list[str],
    by: list[str],
    filters: list[str],
    sort: list[str],
) -> REndpoint:
    use_case = python_attribute(naming.snake(endpoint.use_case)) if endpoint.use_case else kind
    return REndpoint(
        index,
        "GET",
        endpoint.path,
        kind,
        target,
        None,
        use_case,
        None,
        200,
        endpoint.permission,
        path_params,
        by,
        filters,
        sort,
        False,
        endpoint.summary or "",
    )


def _filterable(column: RField) -> bool:
    return column.type.kind == "enum" or column.type.is_scalar(
        "str", "int", "float", "bool", "uuid", "date", "datetime"
    )


def _computed_hint(domain: Domain, read_model: RReadModel, name: str) -> str:
    """Why a computed value is no column to filter or sort on, if ``name`` is one."""
    aggregate = domain.aggregates.get(read_model.of or "")
    computed = [*read_model.computed, *(aggregate.computed if aggregate else [])]
    if any(c.name == name for c in computed):
        return f" ({name!r} is computed when a row is read: the rows do not hold it)"
    return ""


def _sortable_columns(
    domain: Domain, read_model: RReadModel, names: list[str], loc: Loc
) -> list[str]:
    """Those of ``names`` a list may be sorted by; a problem for each other."""
    sortable = []
    for position, column_name in enumerate(names):
        column = read_model.column(column_name)
        if column is None or column.hidden or not _sortable(column):
            why = (
                f"no column {column_name!r}{_computed_hint(domain, read_model, column_name)}"
                if column is None
                else f"{column_name!r} is hidden: no request may search by it"
                if column.hidden
                else f"{column_name!r} is {naming.article(str(column.type))} {column.type};"
                " sorts take str, int, float, date, "
                "datetime and enum columns (a decimal is kept as text, exactly)"
            )
            where = (*loc, position) if len(names) > 1 or loc[-1] == "sort" else loc
            domain.problem(where, f"{read_model.name} cannot be sorted by {column_name!r}: {why}")
        else:
            sortable.append(column_name)
    return sortable


def _sortable(column: RField) -> bool:
    return column.type.kind == "enum" or column.type.is_scalar(
        "str", "int", "float", "date", "datetime"
    )
