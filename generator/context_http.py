"""The render context of read models and endpoints."""

from __future__ import annotations

import hashlib
import json
import keyword
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from generator import naming
from generator.context_domain import AggregateCtx, CommandCtx, ComputedCtx, _code, computed_ctx
from generator.context_fields import QUERY_TYPES, FieldCtx, field_ctx
from generator.expr import names_in
from generator.expr_code import EvalError, evaluate
from generator.literals import python_literal
from generator.reserved import call_keyword
from generator.resolved import Domain, RAggregate, REndpoint, REvent, RField, RReadModel
from generator.typeref import TypeRef
from generator.values import Catalog

RANGE_KINDS = frozenset({"int", "float", "date", "datetime"})


@dataclass
class HandlerCtx:
    event: str
    snake: str
    action: str
    key: list[dict[str, str]]
    columns: list[dict[str, str]]
    uses_row: bool
    null_keys: list[str]  # key values that may be null: such an event changes no row
    gone: str | None = None
    """The condition on the event under which the aggregate is gone: its row goes."""
    create: bool = False
    """A missing row starts from its key and defaults (``set`` with ``create``)."""
    reads_event: bool = True
    """Whether the handler reads the event's fields (else it is not decoded)."""
    part: int = 0
    """Its place (from 1) among the changes its event makes, when it makes several (each
    its own function, run in order by the event's one handler); else 0."""
    parts: int = 0
    each_var: str | None = None
    """The variable holding each item of the event's list the change is made for."""
    each_code: str | None = None
    """The code of that list (``each``), over the event."""


@dataclass
class ReadModelCtx:
    name: str
    snake: str
    const: str
    table: str
    of: str | None
    row: str
    key_attrs: list[str]
    key_names: list[str]
    columns: list[FieldCtx]
    computed: list[ComputedCtx]
    handlers: list[HandlerCtx]
    version: str
    description: str
    exposed: bool = True
    """An endpoint queries it: its HTTP dependency (and view) are rendered."""
    uses_timedelta: bool = False
    """Its handlers or computed values compute durations (``days(1)``)."""


@dataclass
class ParamCtx:
    name: str
    attr: str
    py: str
    role: str
    sample: str = "UNKNOWN_ID"
    rules: str = ""
    """The keywords of ``Path(...)`` stating its rules, which the request is checked by
    (``, max_length=5``): a key a create-or-replace PUT makes, a call's input."""
    checked: bool = False
    """The parameter is checked by its field's rules (the spec's messages)."""
    ignore_case: bool = False
    """A read model's column holding a key that ignores case: found in any case."""
    kwarg: str = field(init=False)
    """Its name as a keyword argument of the tests' ``str.format`` (a Python keyword,
    ``class``, is its attribute ``class_``)."""

    def __post_init__(self) -> None:
        self.kwarg = self.attr if keyword.iskeyword(self.name) else self.name
        # a number in a path takes the forms a body's does: a decimal in plain notation,
        # an int JSON carries exactly, a finite float (`1e1000000` is no key: 422)
        self.py = _PATH_TYPES.get(self.py, self.py)


_PATH_TYPES = {"Decimal": "JsonDecimal", "int": "QueryInt", "float": "QueryFloat"}


def _id_param(name: str) -> ParamCtx:
    """The path parameter naming an aggregate by its id (a UUID read in any case)."""
    return ParamCtx(name, "id" if name == "id" else naming.snake(name), "PathId", "id")


@dataclass
class FilterCtx:
    name: str
    attr: str
    py: str
    ranges: bool
    sample_json: str
    optional: bool = False
    ignore_case: bool = False
    """A key that ignores case, or a reference to one: matched in any case."""


@dataclass
class EndpointTests:
    """What the generated HTTP tests of an endpoint run first: the endpoints that make
    its command allowed (``steps_ok``) or refused (``steps_refused``), and the names
    its ``sort`` takes."""

    steps_ok: list[str] | None = None
    steps_refused: list[str] | None = None
    sort_names: list[str] = field(default_factory=list)
    order_names: list[tuple[str, bool]] = field(default_factory=list)
    """The list's default order by the columns' names (descending or not)."""


@dataclass
class CallCtx:
    """What a call endpoint awaits and answers: ``component.method(...)``, its answer an
    aggregate's view (``view``: the aggregate's snake name) or a value object's model."""

    component: str
    method: str
    response: str | None
    view: str | None
    many: bool
    inputs: list[FieldCtx] = field(default_factory=list)
    """Every input: the path's and the body's."""
    keywords: dict[str, str] = field(default_factory=dict)
    """The keyword the method takes each input by, by the input's attribute."""


@dataclass
class EndpointCtx:
    index: int
    method: str
    verb: str
    path: str
    function: str
    kind: str
    target: str
    aggregate: str | None
    read_model: str | None
    of: bool
    command: CommandCtx | None
    creator: CommandCtx | None
    """A create-or-replace PUT's creating command (``command`` replaces)."""
    use_case: str
    request: str | None
    status: int
    permission: str | None
    summary: str
    path_params: list[ParamCtx]
    body: list[FieldCtx]
    made: list[FieldCtx]
    """The generated secrets the command sets: made by the service, shown once."""
    made_shown: list[str]
    """The generated secrets made on a condition that the examples' body meets."""
    made_null: list[str]
    """Those whose condition the examples' body does not meet (neither list names one whose
    condition reads values the examples vary)."""
    answer: str | None
    """The model of the answer that shows them (the aggregate's view and those secrets)."""
    by: str | None
    filters: list[FilterCtx]
    sort: list[str]
    page: bool
    extra: EndpointTests = field(default_factory=EndpointTests)
    order: list[tuple[str, bool]] = field(default_factory=list)
    """A list's order when the request asks for none: (column attribute, descending)."""
    consistent: bool = False
    """A read-model query that answers once the rows hold the tenant's stored events."""
    id_is_tenant: bool = False
    """A get of the aggregate whose id is the path's tenant."""
    patch: bool = False
    """A merge patch (RFC 7396) of the command's parameters: what it leaves out is kept."""
    tenant_path: bool = False
    """The path's ``{tenantId}`` names the request's tenant (not among ``path_params``)."""
    platform_only: bool = False
    path_regex: str = ""
    """The paths the endpoint answers (each parameter a segment), for the tests' hooks."""
    flag: str | None = None
    """The feature flag gating the endpoint (404 while it is off for the caller)."""
    call: CallCtx | None = None
    """A call's component, method and answer (kind ``call``)."""
    test_path: str = ""
    """The path as the generated tests write it: ``{tenantId}`` stays for the test client
    to fill with the tenant of the request's token (escaped where the tests ``format``
    the other parameters in)."""


def read_models(
    domain: Domain, catalog: Catalog, aggregates: dict[str, AggregateCtx]
) -> list[ReadModelCtx]:
    result = []
    for read_model in domain.read_models.values():
        result.append(_read_model(read_model, domain, catalog, aggregates))
    return result


def _holds_datetime(type_: TypeRef, catalog: Catalog, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a value of ``type_`` holds a datetime (in a value object, list or map too)."""
    type_ = type_.required()
    if type_.is_collection:
        return _holds_datetime(type_.element, catalog, seen)
    if type_.kind == "value" and type_.name not in seen:
        fields = catalog.values.get(type_.name or "", [])
        return any(_holds_datetime(f.type, catalog, seen | {type_.name or ""}) for f in fields)
    return type_.is_scalar("datetime")


def _reads_event(handler: HandlerCtx) -> bool:
    """Whether a handler's code reads its event (else it does not decode it)."""
    written = [
        *(k["code"] for k in handler.key),
        *(c["code"] for c in handler.columns),
        *handler.null_keys,
        handler.gone or "",
    ]
    return any(re.search(r"\bevent\.", code) for code in written)


def _upcast_shape(event: REvent) -> list[Any]:
    """An event's version and the upcasts that read its older versions (none for an
    event at version 1)."""
    if event.version == 1:
        return []
    steps = [
        {
            **{key: value for key, value in step.items() if key not in ("compute", "fields")},
            "compute": [[c["field"].name, repr(c["node"])] for c in step["compute"]],
        }
        for step in event.upcasts
    ]
    return [event.name, event.version, steps]


def _read_model(
    read_model: RReadModel, domain: Domain, catalog: Catalog, aggregates: dict[str, AggregateCtx]
) -> ReadModelCtx:
    columns = [field_ctx(c, catalog) for c in read_model.columns]
    by_name = {c.name: c for c in read_model.columns}
    row_names = {c.name: f"row.{c.attr}" for c in read_model.columns}
    self_names = {c.name: f"self.{c.attr}" for c in read_model.columns}
    handlers = []
    for handler in read_model.handlers:
        event = domain.events[handler.event]
        names = {f"event.{f.name}": f"event.{f.attr}" for f in event.fields}
        each_var = each_code = None
        if handler.each is not None:
            each_name, each_node = handler.each
            each_code = _code(each_node, names)
            if each_node.type.kind == "optional":
                each_code = f"({each_code} or [])"
            each_var = f"each_{naming.snake(each_name)}"
            names[each_name] = each_var
        scope = {**names, **row_names}
        values = [
            {"attr": by_name[name].attr, "code": _code(node, scope)}
            for name, node in handler.values.items()
        ]
        if handler.action == "upsert":
            given = set(handler.values) | set(handler.key)
            for column in read_model.columns:
                if column.name not in given and column.has_default:
                    literal = python_literal(column.default, column.full_type, catalog.values)
                    values.append({"attr": column.attr, "code": literal})
        handlers.append(
            HandlerCtx(
                event=handler.event,
                snake=naming.snake(handler.event),
                action=handler.action,
                key=[
                    {"attr": by_name[k].attr, "code": _code(n, names)}
                    for k, n in handler.key.items()
                ],
                columns=values,
                uses_row=any("row." in v["code"] for v in values),
                null_keys=[
                    _code(n, names) for n in handler.key.values() if n.type.kind == "optional"
                ],
                gone=_code(handler.gone, {f.name: f"event.{f.attr}" for f in event.fields})
                if handler.gone is not None
                else None,
                create=handler.create,
                each_var=each_var,
                each_code=each_code,
            )
        )
        handlers[-1].reads_event = _reads_event(handlers[-1])
    # an event making several changes: each its place among them
    parts = Counter(h.event for h in handlers)
    placed: Counter[str] = Counter()
    for made in handlers:
        if parts[made.event] > 1:
            placed[made.event] += 1
            made.part, made.parts = placed[made.event], parts[made.event]
    written = [
        *(v["code"] for h in handlers for v in h.columns),
        *(k["code"] for h in handlers for k in h.key),
        *(h.gone for h in handlers if h.gone),
    ]
    computed = (
        aggregates[read_model.of].computed
        if read_model.of
        else [
            computed_ctx(c, {**self_names, "now": "now", "today": "now.date()"})
            for c in read_model.computed
        ]
    )
    if not read_model.of:  # the rows' own computed values (else the aggregate's)
        written += [c.code for c in computed]
    snake = naming.snake(read_model.name)
    shape: list[Any] = [
        [(c.name, c.type) for c in columns],
        # (a change made per item says over which list: others keep the shape they had)
        [
            (h.event, h.action, h.key, h.columns, *([h.each_code] if h.each_code else []))
            for h in handlers
        ],
    ]
    # (An aggregate's createdAt and updatedAt are the events' own times: UTC always.)
    stamps = ("createdAt", "updatedAt") if read_model.of else ()
    if any(_holds_datetime(c.type, catalog) for c in read_model.columns if c.name not in stamps):
        # Instants are stored in UTC since this mark (so they sort and filter as text):
        # a read model holding them is rebuilt once, its rows written before in UTC too.
        shape.append("datetimes in UTC")
    versioned = [_upcast_shape(domain.events[h.event]) for h in read_model.handlers]
    if any(versioned):
        # What older events give the rows changed with the event's version or upcasts:
        # the rows are rebuilt through the new upcasts (rows an event could not be read
        # into before are then written too).
        shape.append([v for v in versioned if v])
    definition = json.dumps(shape, default=str, sort_keys=True)
    return ReadModelCtx(
        name=read_model.name,
        snake=snake,
        const=snake.upper(),
        table=snake,
        of=read_model.of,
        row=read_model.of or f"{read_model.name}Row",
        key_attrs=[by_name[k].attr for k in read_model.keys],
        key_names=list(read_model.keys),
        columns=columns,
        computed=computed,
        handlers=handlers,
        version=hashlib.sha256(definition.encode()).hexdigest()[:12],
        description=read_model.description,
        uses_timedelta=any(re.search(r"\btimedelta\(", code) for code in written),
    )


def endpoints(
    domain: Domain, catalog: Catalog, aggregates: dict[str, AggregateCtx]
) -> list[EndpointCtx]:
    result: list[EndpointCtx] = []
    functions: set[str] = set()
    for endpoint in domain.endpoints:
        ctx = _endpoint(endpoint, domain, catalog, aggregates)
        base = ctx.function
        suffix = 2
        while ctx.function in functions:
            ctx.function = f"{base}_{suffix}"
            suffix += 1
        functions.add(ctx.function)
        result.append(ctx)
    return result


def _ignores_case(domain: Domain, read_model: RReadModel, name: str) -> bool:
    """Whether a read model's column holds a key that ignores case (or a reference to
    one by that key), so that a filter on it matches in any case."""
    column = read_model.column(name)
    if column is None or column.type != TypeRef.scalar("str"):
        return False
    if read_model.of is not None:
        return _folded(domain, column) or _folded(
            domain, domain.aggregates[read_model.of].field(name)
        )
    # a row's column: folded when every event writing it gives it such a field as it is
    sources = _fed_from(domain, read_model, name)
    return bool(sources) and all(_folded(domain, source) for source in sources)


def _fed_from(domain: Domain, read_model: RReadModel, name: str) -> list[RField | None]:
    """The fields of the aggregates whose values the events give a row's column ``name``
    as they are (None for a value computed or of another service); none when no event
    writes it."""
    written = [
        (handler.event, node)
        for handler in read_model.handlers
        for node in (handler.key.get(name), handler.values.get(name))
        if node is not None
    ]
    return [
        _event_source(domain, event, str(node.value).removeprefix("event."))
        if node.op == "name" and str(node.value).startswith("event.")
        else None
        for event, node in written
    ]


def _as_fed(domain: Domain, read_model: RReadModel, column: RField) -> RField:
    """A row's column as a request names it: normalized as the field every event fills it
    with is (an email kept lower-cased is filtered in any case), else as declared."""
    if read_model.of is not None or column.normalize:
        return column
    sources = _fed_from(domain, read_model, column.name)
    steps = {tuple(s.normalize) if s is not None else () for s in sources}
    if len(steps) != 1 or not (only := next(iter(steps))):
        return column
    return replace(column, normalize=only)


def _folded(domain: Domain, field_: RField | None) -> bool:
    """Whether ``field_`` holds a key that ignores case, or a reference to one by it."""
    if field_ is None or field_.type != TypeRef.scalar("str"):
        return False
    target = domain.aggregates.get(field_.references or "")
    return field_.folded or (
        target is not None and field_.references_key is not None and target.key_ignore_case
    )


def _event_source(domain: Domain, event_name: str, name: str) -> RField | None:
    """The field of its aggregate an event's field ``name`` carries (an argument of the
    command that emits it, or the aggregate's own field); None for another service's."""
    event = domain.events.get(event_name)
    aggregate = domain.aggregates.get(event.aggregate or "") if event else None
    if aggregate is None:
        return None
    for command in aggregate.commands:
        if command.event == event_name:
            argument = next((f for f in command.arguments if f.name == name), None)
            if argument is not None:
                return argument
    return aggregate.field(name)


def _endpoint(
    endpoint: REndpoint, domain: Domain, catalog: Catalog, aggregates: dict[str, AggregateCtx]
) -> EndpointCtx:
    aggregate = aggregates.get(endpoint.target)
    read_model = domain.read_models.get(endpoint.target)
    command = creator = None
    params: list[ParamCtx] = []
    body: list[FieldCtx] = []
    made: list[FieldCtx] = []
    made_shown: dict[str, bool] = {}
    by = None
    filters: list[FilterCtx] = []
    call = None
    if endpoint.kind == "call":
        inputs = {f.name: field_ctx(f, catalog) for f in endpoint.inputs}
        for name in endpoint.path_params:
            given = inputs[name]
            params.append(
                ParamCtx(name, given.attr, given.ruled_param_py, "arg", given.sample_json,
                         given.param_rules, bool(given.checks))
            )  # fmt: skip
        body = [f for name, f in inputs.items() if name not in endpoint.path_params]
        request = endpoint.request if body else None
        answered = aggregates.get(endpoint.response or "")
        call = CallCtx(
            component=endpoint.target,
            method=endpoint.method_name or "",
            response=endpoint.response,
            view=answered.snake if answered is not None else None,
            many=endpoint.response_many,
            inputs=list(inputs.values()),
            keywords={f.attr: call_keyword(naming.snake(f.name)) for f in endpoint.inputs},
        )
        function = f"{endpoint.target}_{endpoint.method_name}"
    elif endpoint.command is not None and aggregate is not None:
        command = next(c for c in aggregate.commands if c.name == endpoint.command)
        if endpoint.create is not None:
            creator = next(c for c in aggregate.commands if c.name == endpoint.create)
        arguments = {a.name: a for a in command.arguments}
        for name in endpoint.path_params:
            if name in endpoint.by:
                params.append(_id_param(name))
            elif name == endpoint.by_key:
                key = next(f for f in aggregate.fields if f.name == name)
                # the tests' unknown key: one they make no aggregate with, else (an enum
                # has few values) a valid one, in a test that makes none
                unknown = key.unused_json or key.sample_json
                if endpoint.kind == "upsert":  # the key it makes: checked by its rules
                    params.append(
                        ParamCtx(name, key.attr, key.ruled_param_py, "key", unknown,
                                 key.param_rules, bool(key.checks))
                    )  # fmt: skip
                else:  # a key that names nothing: 404
                    params.append(ParamCtx(name, key.attr, key.param_py, "key", unknown))
            else:
                argument = arguments[name]
                params.append(
                    ParamCtx(name, argument.attr, argument.param_py, "arg", argument.sample_json)
                )
        # a generated secret is made by the service, not given: its answer shows it once
        made = [a for a in command.arguments if a.secret == "generated"]
        made_shown = _made_shown(domain, aggregate.name, command)
        body = [
            a for a in command.arguments if a.name not in endpoint.path_params and a not in made
        ]
        patch = endpoint.method == "PATCH" and endpoint.kind == "change"
        suffix = "Patch" if patch else "Request"
        # a body without the values the path gives is a model of its own
        from_path = "".join(
            naming.pascal(a.name) for a in command.arguments if a.name in endpoint.path_params
        )
        request = (
            endpoint.request
            or f"{naming.pascal(endpoint.command)}{endpoint.target}"
            f"{'Without' + from_path if from_path else ''}{suffix}"
            if body
            else None
        )
        function = f"{endpoint.use_case}_{aggregate.snake}"
    elif aggregate is not None:
        request = None
        if endpoint.by:
            (by,) = endpoint.by
            field_ = next(f for f in aggregate.fields if f.name == by)
            params.append(ParamCtx(by, field_.attr, field_.param_py, "by", field_.sample_json))
            function = f"{endpoint.use_case}_{aggregate.snake}_by_{field_.attr.rstrip('_')}"
        elif endpoint.id_is_tenant:
            function = f"{endpoint.use_case}_{aggregate.snake}_of_the_tenant"
        elif endpoint.kind == "every":
            function = f"list_every_{aggregate.snake}"
        else:
            (name,) = endpoint.path_params
            params.append(_id_param(name))
            function = f"{endpoint.use_case}_{aggregate.snake}"
    else:
        assert read_model is not None
        request = None
        columns = {c.name: _as_fed(domain, read_model, c) for c in read_model.columns}
        for name in endpoint.path_params:
            column = field_ctx(columns[name], catalog)
            role = "key" if endpoint.kind == "get" else "filter"
            params.append(
                ParamCtx(
                    name,
                    column.attr,
                    column.param_py.removesuffix(" | None"),
                    role,
                    column.sample_json,
                    ignore_case=_ignores_case(domain, read_model, name),
                )
            )
        for name in endpoint.filters:
            column = field_ctx(columns[name], catalog)
            filters.append(
                FilterCtx(
                    name,
                    column.attr,
                    QUERY_TYPES.get(
                        columns[name].type.name, column.param_py.removesuffix(" | None")
                    ),
                    columns[name].type.name in RANGE_KINDS,
                    column.sample_json,
                    column.py.endswith(" | None"),
                    _ignores_case(domain, read_model, name),
                )
            )
        function = f"{endpoint.kind}_{naming.snake(read_model.name)}"
    of = read_model.of if read_model is not None else None
    return EndpointCtx(
        index=endpoint.index,
        method=endpoint.method,
        verb=endpoint.method.lower(),
        path=endpoint.path,
        function=function,
        kind=endpoint.kind,
        target=endpoint.target,
        aggregate=aggregate.name if aggregate is not None else of,
        read_model=read_model.name if read_model is not None else None,
        of=of is not None,
        command=command,
        creator=creator,
        use_case=endpoint.use_case,
        request=request,
        status=endpoint.status,
        permission=endpoint.permission,
        summary=endpoint.summary,
        path_params=params,
        body=body,
        made=made,
        made_shown=[name for name, shown in made_shown.items() if shown],
        made_null=[name for name, shown in made_shown.items() if not shown],
        answer=f"{aggregate.name}With{''.join(naming.pascal(f.name) for f in made)}"
        if made and aggregate is not None
        else None,
        by=by,
        filters=filters,
        sort=[_column_attr(read_model, s) for s in endpoint.sort],
        order=_every_order(domain.aggregates[endpoint.target], endpoint.order)
        if endpoint.kind == "every"
        else [(_column_attr(read_model, name), down) for name, down in endpoint.order],
        consistent=endpoint.consistent,
        id_is_tenant=endpoint.id_is_tenant,
        page=endpoint.page,
        extra=EndpointTests(sort_names=list(endpoint.sort), order_names=list(endpoint.order)),
        patch=endpoint.method == "PATCH" and endpoint.kind == "change",
        tenant_path=endpoint.tenant_path,
        platform_only=endpoint.platform_only,
        path_regex="^" + re.sub(r"\\\{[^/]*?\\\}", "[^/]+", re.escape(endpoint.path)) + "$",
        flag=endpoint.flag,
        test_path=_test_path(endpoint.path, params, endpoint.tenant_path),
        call=call,
    )


def _test_path(path: str, params: list[ParamCtx], tenant_path: bool) -> str:
    """The path as the generated tests fill it with ``str.format``: each parameter under
    its keyword argument's name (``{class_}`` for ``{class}``), a tenant's left as
    ``{tenantId}``."""
    if tenant_path and params:
        path = path.replace("{tenantId}", "{{tenantId}}")
    for param in params:
        path = path.replace("{" + param.name + "}", "{" + param.kwarg + "}")
    return path


def _every_order(aggregate: RAggregate, order: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The sort keys of a list of every tenant's record, as code over ``item``, each with
    whether it descends: text in any case first (``Acme`` beside ``acme``), then as written."""
    keys = []
    for name, down in order:
        field_ = aggregate.field(name)
        assert field_ is not None
        attr = f"item.{field_.attr}"
        folded = field_.type == TypeRef.scalar("str")
        keys.append((f"({attr}.casefold(), {attr})" if folded else attr, down))
    return keys


def _column_attr(read_model: RReadModel | None, name: str) -> str:
    """The stored column of ``name`` (its Python attribute: ``key`` is ``key_``)."""
    assert read_model is not None, "only a read model's list is sorted"
    return next(c.attr for c in read_model.columns if c.name == name)


def _made_shown(domain: Domain, aggregate: str, command: CommandCtx) -> dict[str, bool]:
    """Whether the examples of ``command`` meet the condition of each generated secret it
    makes only on one (left out: the tests vary or make a value it reads)."""
    resolved = domain.aggregates[aggregate].command(command.name)
    assert resolved is not None
    samples = {a.name: a for a in command.arguments}
    shown: dict[str, bool] = {}
    for name, node in resolved.made_when.items():
        read = [samples[n] for n in names_in(node)]
        if any(a.references or len(a.distinct_json) > 1 for a in read):
            continue
        try:
            shown[name] = bool(evaluate(node, {a.name: a.sample for a in read}))
        except EvalError:
            continue
    return shown
