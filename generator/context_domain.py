"""The render context of the domain: enums, value objects, events, aggregates and their
commands, with every spec expression compiled to Python."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from generator import naming
from generator.context_fields import (
    ANSWER_TYPES,
    VALUE_TOKEN,
    FieldCtx,
    api_type,
    field_ctx,
    title,
)
from generator.expr import FLOAT, Node, can_fail, names_in
from generator.expr_code import member_name, refusal, to_python
from generator.held import held_references, pairs_code
from generator.literals import python_literal
from generator.reserved import ATTRIBUTES, python_attribute
from generator.resolved import Domain, RAggregate, RCommand, RComputed, REvent, RField, RValue
from generator.typeref import TypeRef
from generator.values import Catalog

TIMESTAMP = "occurredAt"


@dataclass
class Code:
    """A compiled expression with what it is about."""

    code: str
    refused: str
    """The condition under which the check fails (what the rendered ``if`` tests)."""
    message: str = ""
    field: str = ""
    imports: tuple[str, ...] = ()
    """What the code needs imported beyond the module's own names (``timedelta``...)."""


@dataclass
class ComputedCtx:
    name: str
    attr: str
    py: str
    code: str
    description: str
    checked: bool = False
    """It may have no value (a date past year 9999...) and is not optional: a command
    after which it cannot be computed is refused."""
    title: str = ""
    api: str = ""
    """Its annotation in the views: a decimal written in plain notation (``20``, not
    ``2E+1``), as a field's is."""


@dataclass
class ValueCtx:
    name: str
    description: str
    fields: list[FieldCtx]
    invariants: list[Code]
    viewed: bool = False
    """A view shows it (an aggregate's or a read model's row): its ``<Value>View`` model
    is rendered."""


@dataclass
class EnumCtx:
    name: str
    members: list[dict[str, str]]


@dataclass
class ErrorCtx:
    name: str
    status: int
    title: str
    detail: str
    type: str


@dataclass
class EventFieldCtx:
    name: str
    attr: str
    py: str
    default_py: str | None
    default_factory: str | None


@dataclass
class UpcastCtx:
    """One upcaster: how a payload of ``from_`` becomes the next version (payload keys
    are the Python names: ``rename`` pairs, ``add`` pairs of name and value code,
    ``remove`` names, ``inputs`` and ``compute`` for the fields it computes)."""

    from_: int
    function: str
    rename: list[list[str]]
    add: list[list[str]]
    remove: list[str]
    inputs: list[dict[str, str]]
    compute: list[dict[str, str]]
    decode: list[dict[str, str]] = field(default_factory=list)
    """Fields stored as JSON text: ``attr`` and the ``shape`` (code) of
    ``eaf.eventsourcing.serialization.stored_form`` for their type."""


@dataclass
class UpcastTestCtx:
    """A payload stored at ``version`` and what upcasting must make of it (as code)."""

    version: int
    payload: str
    expected: str
    computed: list[str]
    fields: list[str]


@dataclass
class EventCtx:
    name: str
    snake: str
    version: int
    description: str
    aggregate: str | None
    fields: list[EventFieldCtx]
    upcasts: list[UpcastCtx]
    upcast_tests: list[UpcastTestCtx] = field(default_factory=list)
    """Per older version: a stored payload of it and what upcasting must make of it."""


@dataclass
class AlsoCtx:
    aggregate: str
    var: str
    method: str
    id_code: str
    id_field: str
    args: list[dict[str, str]]
    optional: bool = False
    title: str = ""
    """The other aggregate in words (``event``), as its broken rules are reported."""


@dataclass
class ReferenceCtx:
    """A parameter naming another aggregate, checked to exist in the tenant."""

    name: str
    attr: str
    target: str
    var: str
    many: bool
    optional: bool
    message: str


@dataclass
class ReferenceSample:
    """The aggregate a sample argument references, as the generated tests make it."""

    target: str
    snake: str
    many: bool
    optional: bool
    made: bool
    convert: str
    pick: str = ""
    """The value an aggregate ``{}`` gives the argument: its id, or its key's value."""
    json_key: str = "id"
    """The name of that value in the aggregate's view."""
    missing: str = ""
    """A value that names no aggregate (no aggregate was made with it)."""
    missing_json: str = ""


@dataclass
class ArgumentSample:
    """A command's argument as the generated tests pass it."""

    name: str
    attr: str
    py: str
    json: str
    reference: ReferenceSample | None
    distinct_py: list[str]
    distinct_json: list[str]
    key: str
    made_py: str = ""
    """The sample with each reference inside its value objects naming an aggregate the
    services' tests make first (empty when it holds none)."""
    made_json: str = ""
    """The same for the HTTP tests (``__HEADERS__``: the request's headers)."""
    made_targets: list[str] = field(default_factory=list)


@dataclass
class CommandTests:
    """What the generated tests of a command run: its sample arguments, the commands that
    make it allowed (``ok``) or refused by its guard (``refused``; None when no sequence
    of the examples does), and the error its guard raises."""

    args: list[ArgumentSample] = field(default_factory=list)
    ok: list[str] | None = None
    refused: list[str] | None = None
    error: str = ""


@dataclass
class AggregateTests:
    """What the generated tests know of an aggregate: the aggregates made before it
    (``needs``), the endpoint that makes it over HTTP (``http``), whether the tests can
    make it (``makeable``) and the commands its replay test runs (``replay``)."""

    needs: list[str] = field(default_factory=list)
    http: str | None = None
    makeable: bool = False
    replay: list[str] = field(default_factory=list)


@dataclass
class GetterCtx:
    """A use case reading one aggregate: by id, or by a unique field (``by``), or by the
    one field of its key (``keyed``: the id is derived from the value)."""

    method: str
    by: str | None
    by_name: str | None
    py: str
    keyed: bool = False


@dataclass
class UpsertCtx:
    """A create-or-replace use case (a ``PUT`` with ``create``): by the value of the one
    field of the key (``key``), ``create`` makes the aggregate when none has it (or the one
    that had it is gone), else ``change`` changes it; both from the same arguments."""

    use_case: str
    key: FieldCtx
    create: CommandCtx
    change: CommandCtx


@dataclass
class LoadCtx:
    """An aggregate a use case loads before its command: one its parameter ``field``
    references (it must exist in the tenant), or one an ``also`` command ``changed``."""

    var: str
    field: str
    target: str
    id_code: str
    by_key: bool
    """The value names the aggregate by its key (the id its key makes), not by its id."""
    many: bool
    optional: bool
    message: str
    shows_value: bool
    """The message shows the value that names nothing (``with_value``)."""
    changed: bool
    canonical: str | None = None
    """The target's key field (attribute) whose stored value the argument takes: a
    reference to a key that ignores case keeps the key as the target has it."""
    pairs: str | None = None
    """For references inside value objects the argument holds: the code listing each
    ``(path, value)`` (``lines.1.productId``), each checked at its path."""


@dataclass
class CommandCtx:
    name: str
    method: str
    use_case: str
    aggregate: str
    creates: bool
    deletes: bool
    description: str
    params: list[FieldCtx]
    inputs: list[FieldCtx]
    arguments: list[FieldCtx]
    guard: Code | None
    guard_error: str
    sets: list[dict[str, Any]]
    event: str
    event_args: list[dict[str, str]]
    also: list[AlsoCtx]
    references: list[ReferenceCtx]
    loads: list[LoadCtx]
    kept_secrets: list[str] = field(default_factory=list)
    """The given secrets (attributes) the use case keeps when it gets None: a PATCH serves
    the command, and a secret the patch leaves out keeps its hash."""
    value_invariants: list[Code] = field(default_factory=list)
    """The invariants of the value objects the request gives (at any depth), which JSON
    Schema cannot state either."""
    tests: CommandTests = field(default_factory=CommandTests)


@dataclass
class ApplyCtx:
    event: str
    creates: bool
    deletes: bool
    sets: list[dict[str, str]]


@dataclass
class UniqueCtx:
    """A combination of fields unique in the tenant: ``key`` names it in the domain
    (``venue_id+name``), ``names`` in the API (``venueId+name``)."""

    key: str
    names: str
    fields: list[FieldCtx]
    fixed: list[FieldCtx]  # all but the one the tests' aggregates differ in
    snake: str
    testable: bool  # the creating command takes every field, none optional


@dataclass
class SharedKeyCtx:
    """Another aggregate whose key takes the same values: the id it would have for them
    (``keyed_id(key_namespace, key_label, ...)``) must be free."""

    name: str
    key_namespace: str
    key_label: str
    key_ignore_case: bool


@dataclass
class AggregateCtx:
    name: str
    snake: str
    var: str
    title: str
    description: str
    not_found: str
    event_id: str
    id_attr: str
    id_is_uuid: bool
    view_id: str
    view_tenant: str | None
    view_tenant_attr: str | None
    gone: str | None
    """The condition (over ``self``) in which the aggregate counts as deleted."""
    gone_when: str | None
    gone_field: str | None
    fields: list[FieldCtx]
    computed: list[ComputedCtx]
    invariants: list[Code]
    commands: list[CommandCtx]
    events: list[str]
    applies: list[ApplyCtx]
    unique: list[FieldCtx]
    unique_together: list[UniqueCtx]
    deletable: bool
    creator: CommandCtx | None
    key: UniqueCtx | None = None
    """The natural key the id is derived from (``keyed_id(key_namespace, key_label, ...)``)."""
    key_namespace: str = ""
    key_label: str = ""
    key_ignore_case: bool = False
    key_shared: list[SharedKeyCtx] = field(default_factory=list)
    read_model: dict[str, str] | None = None
    served: bool = True
    """Its use cases are rendered: an endpoint, policy, consumer or served command reaches it."""
    exposed: bool = True
    """An endpoint serves it: its HTTP view and use-case dependency are rendered."""
    stream: str = ""
    getters: list[GetterCtx] = field(default_factory=list)
    every: str | None = None
    """The use case reading every tenant's own record (a tenant record's platform list)."""
    upserts: list[UpsertCtx] = field(default_factory=list)
    """Its create-or-replace use cases (none: it is never made anew once gone)."""
    extra: AggregateTests = field(default_factory=AggregateTests)
    service_module: str = ""
    service_class: str = ""
    """A hand-written subclass of the generated service that bootstrap builds instead."""
    secrets: list[str] = field(default_factory=list)
    """The fields kept as a hash (``secret``): its use cases take a ``PasswordHasher``."""
    sealed: list[str] = field(default_factory=list)
    """The fields kept sealed (``secret: sealed``): its use cases take ``SealedSecrets``."""
    made_when: list[MadeWhenCtx] = field(default_factory=list)
    """The generated secrets the service makes only on a condition."""


@dataclass
class MadeWhenCtx:
    """The condition on which the service makes the generated secret ``attr``: a static
    method of the aggregate (``method``) over the values a command is given (``args``:
    attribute and Python type)."""

    name: str
    attr: str
    method: str
    text: str
    args: list[tuple[str, str]]
    code: str


def catalog_of(domain: Domain) -> Catalog:
    return Catalog({n: v.fields for n, v in domain.values.items()}, domain.enums)


def _names(fields: list[RField], prefix: str) -> dict[str, str]:
    return {f.name: f"{prefix}{f.attr}" for f in fields}


def _stamps(prefix: str) -> dict[str, str]:
    """An aggregate's ``createdAt`` and ``updatedAt`` (its events' times, in UTC)."""
    return {"createdAt": f"{prefix}created_at", "updatedAt": f"{prefix}updated_at"}


def _code(node: Node, names: dict[str, str]) -> str:
    return to_python(node, names).source


def _check(node: Node, names: dict[str, str], message: str = "", field: str = "") -> Code:
    """A guard or invariant; one that cannot be computed (a division by 0...) fails."""
    written = refusal(node, names)
    refused = written.source
    if can_fail(node):
        refused = f"breaks(lambda: {refused})"
    imports = tuple(sorted(written.imports | to_python(node, names).imports))
    return Code(_code(node, names), refused, message, field, imports)


def _value(node: Node, names: dict[str, str]) -> str:
    """A value's code; a float that may overflow is checked to be a number."""
    code = _code(node, names)
    return f"finite({code})" if node.type.required() == FLOAT and can_fail(node) else code


def computed_ctx(computed: RComputed, names: dict[str, str]) -> ComputedCtx:
    """A computed value: null when it cannot be computed, if its type is optional; else
    checked after each command (validate refuses one that may divide by 0)."""
    code = _value(computed.value, names)
    fails = can_fail(computed.value)
    optional = computed.type.kind == "optional"
    return ComputedCtx(
        computed.name,
        computed.attr,
        computed.type.py,
        f"defined(lambda: {code})" if fails and optional else code,
        computed.description,
        checked=fails and not optional,
        title=title(computed.name),
        api=computed.type.py
        if _holds_value(computed.type)
        else api_type(computed.type, ANSWER_TYPES),
    )


def _holds_value(type_: TypeRef) -> bool:
    """Whether a value object is part of ``type_`` (a view shows it as the domain has it)."""
    if type_.kind in ("optional", "list", "map"):
        return _holds_value(type_.required() if type_.kind == "optional" else type_.element)
    return type_.kind == "value"


def _set(field_: RField, node: Node, names: dict[str, str]) -> dict[str, Any]:
    """A value a command sets: one that cannot be computed is refused naming its field."""
    return {
        "attr": field_.attr,
        "code": _value(node, names),
        "name": field_.name,
        "title": title(field_.name),
        "guarded": can_fail(node),
    }


def enums(domain: Domain) -> list[EnumCtx]:
    return [
        EnumCtx(name, [{"name": member_name(m), "value": m} for m in members])
        for name, members in domain.enums.items()
    ]


def errors(domain: Domain) -> list[ErrorCtx]:
    return [
        ErrorCtx(**{k: e[k] for k in ("name", "status", "title", "detail", "type")})
        for e in domain.errors.values()
    ]


def values(domain: Domain, catalog: Catalog) -> list[ValueCtx]:
    result = []
    for value in domain.values.values():
        result.append(
            ValueCtx(
                value.name,
                value.description or f"{naming.a_noun(value.name)}.",
                [field_ctx(f, catalog) for f in value.fields],
                _value_checks(value),
            )
        )
    return result


def _value_checks(value: RValue) -> list[Code]:
    """The invariants of a value object, as code over ``self``."""
    names = {**_names(value.fields, "self."), "now": "now", "today": "now.date()"}
    return [_check(i.check, names, i.message, i.field) for i in value.invariants]


def events(domain: Domain, catalog: Catalog) -> list[EventCtx]:
    result = []
    for event in domain.events.values():
        fields = []
        for f in event.fields:
            ctx = field_ctx(f, catalog)
            fields.append(
                EventFieldCtx(f.name, f.attr, ctx.py, ctx.default_py, ctx.default_factory)
            )
        result.append(
            EventCtx(
                name=event.name,
                snake=naming.snake(event.name),
                version=event.version,
                description=event.description
                or f"{' '.join(naming.words(event.name)).capitalize()} (v{event.version}).",
                aggregate=event.aggregate,
                fields=fields,
                upcasts=_upcasts(event, catalog),
                upcast_tests=_upcast_tests(event, catalog),
            )
        )
    return result


def _upcast_tests(event: REvent, catalog: Catalog) -> list[UpcastTestCtx]:
    """For each older version of ``event``, a payload stored at it (the examples of the
    current fields, walked back through every upcast: renamed back, added and computed
    fields left out, removed ones put back) and the current payload upcasting must give:
    the examples again, with each added field at the value its upcast adds (computed
    fields are only required to be there)."""
    from generator.reserved import python_attribute

    def attr(name: str) -> str:
        return python_attribute(naming.snake(name))

    def stored(value: Any, type_: TypeRef) -> Any:
        """A sample as the store keeps it: a value object's fields under their
        attribute names (``width_cm``), inside lists, maps and optionals too."""
        type_ = type_.required()
        if value is None:
            return None
        if type_.kind == "value" and isinstance(value, dict):
            fields = {f.name: f for f in catalog.values[type_.name or ""]}
            return {
                fields[k].attr if k in fields else k: stored(v, fields[k].full_type)
                if k in fields
                else v
                for k, v in value.items()
            }
        if type_.kind == "list" and isinstance(value, list):
            return [stored(item, type_.element) for item in value]
        if type_.kind == "map" and isinstance(value, dict):
            return {k: stored(v, type_.element) for k, v in value.items()}
        return value

    payload: dict[str, Any] = {}
    written: dict[str, Any] = {}  # the samples with spec names, as JSON text holds them
    for f in event.fields:
        sample = json.loads(json.dumps(field_ctx(f, catalog).sample, default=str))
        payload[f.attr] = stored(sample, f.full_type)
        written[f.attr] = sample
    expected = dict(payload)
    current = {name: name for name in payload}  # a name at the version walked to -> now
    computed: set[str] = set()
    tests: list[UpcastTestCtx] = []
    for step in sorted(event.upcasts, key=lambda u: u["from"], reverse=True):
        for item in step.get("compute", []):
            name = item["field"].attr
            payload.pop(name, None)
            if name in current:
                computed.add(current.pop(name))
        for name in step["decode"]:
            name = attr(name)
            if name in payload and name in current:
                payload[name] = json.dumps(written[current[name]], sort_keys=True)
        for name, value in step["add"]:
            name = attr(name)
            payload.pop(name, None)
            if name in current:
                expected[current.pop(name)] = _json(value)
        for old, new in step["rename"]:
            old, new = attr(old), attr(new)
            if new in payload:
                payload[old] = payload.pop(new)
            if new in current:
                current[old] = current.pop(new)
        for name in step["remove"]:
            payload[attr(name)] = "a value the next version dropped"
        tests.append(
            UpcastTestCtx(
                version=step["from"],
                payload=repr(dict(payload)),
                expected=repr({k: v for k, v in expected.items() if k not in computed}),
                computed=sorted(computed),
                fields=sorted(expected),
            )
        )
    return tests


def _shape(type_: TypeRef, catalog: Catalog) -> Any:
    """How a value of ``type_`` written with spec names is laid out for
    ``stored_form``: None where names do not change."""
    type_ = type_.required()
    if type_.kind in ("list", "map"):
        inner = _shape(type_.element, catalog)
        return None if inner is None else (type_.kind, inner)
    if type_.kind == "value":
        fields = catalog.values.get(type_.name, [])
        return ("value", {f.name: (f.attr, _shape(f.full_type, catalog)) for f in fields})
    return None


def _upcasts(event: REvent, catalog: Catalog) -> list[UpcastCtx]:
    from generator.reserved import python_attribute

    def attr(name: str) -> str:
        return python_attribute(naming.snake(name))

    result = []
    for upcast in event.upcasts:
        computed = upcast.get("compute", [])
        inputs = sorted({name for item in computed for name in _names_used(item["node"])})
        by_name = {f.name: f for f in event.fields}
        # what the step's compute reads and gives: the fields of its next version
        at_next: dict[str, RField] = upcast.get("fields") or by_name
        step = upcast["from"]
        result.append(
            UpcastCtx(
                from_=upcast["from"],
                function=f"_{naming.snake(event.name)}_v{step}_to_v{step + 1}",
                rename=[[attr(old), attr(new)] for old, new in upcast["rename"]],
                add=[[attr(name), repr(_json(value))] for name, value in upcast["add"]],
                remove=[attr(name) for name in upcast["remove"]],
                decode=[_decoded(at_next.get(n) or by_name[n], catalog) for n in upcast["decode"]],
                inputs=[_upcast_input(at_next[n]) for n in inputs],
                compute=[
                    {
                        "attr": item["field"].attr,
                        "code": _code(item["node"], {n: at_next[n].attr for n in at_next}),
                    }
                    for item in computed
                ],
            )
        )
    return result


def _decoded(field_: RField, catalog: Catalog) -> dict[str, str]:
    """A field an upcast decodes from JSON text: its name, the shape of its stored form,
    and what text that reads as no value of its type becomes (``fallback``)."""
    decoded = {"attr": field_.attr, "shape": repr(_shape(field_.full_type, catalog))}
    return decoded | _instead(field_, "fallback")


def _upcast_input(field_: RField) -> dict[str, str]:
    """A field an upcast's ``compute`` reads from the stored payload, with what a payload
    stored before the field was added holds instead (``default``)."""
    return {"attr": field_.attr, "py": field_.full_type.py} | _instead(field_, "default")


def _instead(field_: RField, key: str) -> dict[str, str]:
    """Under ``key``, the code of what a stored payload without a value of ``field_``
    reads as: its default, or null for an optional one; nothing for a required one."""
    if field_.has_default:
        return {key: repr(_json(field_.default))}
    return {key: "None"} if field_.optional else {}


def _names_used(node: Node) -> set[str]:
    """The names an expression reads (its own loop variables aside)."""
    found = {str(node.value)} if node.op == "name" else set()
    for arg in node.args:
        found |= _names_used(arg)
    if node.op == "aggregate":
        found.discard(node.value[1])
    return found


def _json(value: Any) -> Any:
    """A value as the JSON a stored payload holds (upcasts add JSON, not domain values)."""
    return value


def aggregates(domain: Domain, catalog: Catalog) -> list[AggregateCtx]:
    return [_aggregate(a, domain, catalog) for a in domain.aggregates.values()]


def _combination(
    combination: list[RField], aggregate: RAggregate, fields: list[FieldCtx]
) -> UniqueCtx:
    names = [f.name for f in combination]
    creator = next((c for c in aggregate.commands if c.creates), None)
    given = {f.name for f in creator.params} if creator else set()
    # the field that differs between the aggregates the tests make: a required reference
    # (a new aggregate each time) or the field whose examples vary
    varying = next(
        (f for f in combination if f.references and not f.optional),
        next((f for f in combination if f.varied), combination[-1]),
    )
    return UniqueCtx(
        key="+".join(f.attr for f in combination),
        names="+".join(names),
        fields=[f for name in names for f in fields if f.name == name],
        fixed=[f for c in combination if c is not varying for f in fields if f.name == c.name],
        snake="_and_".join(naming.snake(n) for n in names),
        testable=all(f.name in given and not f.optional for f in combination),
    )


def _aggregate(aggregate: RAggregate, domain: Domain, catalog: Catalog) -> AggregateCtx:
    words = naming.words(aggregate.name)
    fields = [field_ctx(f, catalog) for f in aggregate.fields]
    state = {
        **_names(aggregate.fields, "self."),
        **_stamps("self."),
        "id": "self.id",
        "now": "now",
        "today": "now.date()",
    }
    commands = [_command(c, aggregate, domain, catalog) for c in aggregate.commands]
    ctx = AggregateCtx(
        name=aggregate.name,
        snake=naming.snake(aggregate.name),
        var=_var(
            aggregate.name,
            frozenset(f.attr for f in aggregate.fields)
            | {f.attr for c in aggregate.commands for f in c.inputs},
        ),
        title=" ".join(words),
        description=aggregate.description,
        not_found=aggregate.not_found,
        event_id=aggregate.event_id,
        id_attr=naming.snake(aggregate.event_id),
        id_is_uuid=aggregate.event_id_type == "uuid",
        view_id=aggregate.view_id,
        view_tenant=aggregate.view_tenant,
        gone=_code(aggregate.gone, _names(aggregate.fields, "self."))
        if aggregate.gone is not None
        else None,
        gone_when=aggregate.gone_text,
        gone_field=aggregate.gone_field,
        view_tenant_attr=python_attribute(naming.snake(aggregate.view_tenant))
        if aggregate.view_tenant
        else None,
        fields=fields,
        computed=[computed_ctx(c, state) for c in aggregate.computed],
        secrets=[f.name for f in aggregate.fields if f.secret in ("given", "generated")],
        sealed=[f.name for f in aggregate.fields if f.secret == "sealed"],
        invariants=[_check(i.check, state, i.message, i.field) for i in aggregate.invariants],
        commands=commands,
        events=sorted({c.event for c in aggregate.commands}),
        applies=_applies(aggregate, domain),
        unique=[f for f in fields if f.unique],
        unique_together=[_combination(c, aggregate, fields) for c in aggregate.unique_together],
        deletable=aggregate.deletable,
        creator=next((c for c in commands if c.creates), None),
        stream=aggregate.name,
        key=_combination(aggregate.key, aggregate, fields) if aggregate.key else None,
        key_namespace=aggregate.key_namespace,
        key_label=aggregate.key_label,
        key_ignore_case=aggregate.key_ignore_case,
        key_shared=[
            SharedKeyCtx(
                name=other.name,
                key_namespace=other.key_namespace,
                key_label=other.key_label,
                key_ignore_case=other.key_ignore_case,
            )
            for other in (domain.aggregates[name] for name in aggregate.key_shared)
        ],
        made_when=_made_when(aggregate, catalog),
    )
    return ctx


def _made_when(aggregate: RAggregate, catalog: Catalog) -> list[MadeWhenCtx]:
    """Each conditional generated secret's condition, as the first command setting it
    states it (every such command is given the values it names)."""
    found: dict[str, MadeWhenCtx] = {}
    for command in aggregate.commands:
        given = {f.name: f for f in command.arguments}
        for name, node in command.made_when.items():
            secret = given[name]
            if secret.attr in found or secret.made_when is None:
                continue
            used = [f for f in command.arguments if f.name in names_in(node)]
            found[secret.attr] = MadeWhenCtx(
                name=secret.name,
                attr=secret.attr,
                method=f"makes_{secret.attr.rstrip('_')}",
                text=secret.made_when,
                args=[(f.attr, field_ctx(f, catalog).py) for f in used],
                code=_code(node, {f.name: f.attr for f in used}),
            )
    return list(found.values())


def _var(name: str, taken: frozenset[str] = frozenset()) -> str:
    """The variable that holds an aggregate named ``name`` in the rendered handlers: the
    last word of its name, unless a local, parameter or one of ``taken`` (the attributes of
    its fields and inputs, which paths and bodies bind) has it: ``the_<word>``."""
    from generator.reserved import HANDLER_LOCALS, python_attribute

    word = python_attribute(naming.words(name)[-1])
    return f"the_{word.rstrip('_')}" if word in HANDLER_LOCALS | taken else word


def _command(
    command: RCommand, aggregate: RAggregate, domain: Domain, catalog: Catalog
) -> CommandCtx:
    arguments = {f.name: f"{f.attr}" for f in command.arguments}
    if command.creates:
        scope = {**arguments, "now": "now", "today": "now.date()"}
    else:
        scope = {
            **_names(aggregate.fields, "self."),
            **_stamps("self."),
            "id": "self.id",
            **arguments,
            "now": "now",
            "today": "now.date()",
        }
    sets = [_set(f, node, scope) for f, node in command.sets]
    guard = _check(command.when, scope) if command.when is not None else None
    event = domain.events[command.event]
    set_attrs = {f.name for f, _ in command.sets}
    event_args = []
    for f in event.fields:
        event_args.append(
            {"attr": f.attr, "code": _event_source(f, aggregate, command, set_attrs, catalog)}
        )
    service_scope = {
        **(
            {}
            if command.creates
            else {**_names(aggregate.fields, "current."), **_stamps("current.")}
        ),
        "id": "id" if not command.creates else "None",
        **arguments,
        "now": "now",
        "today": "now.date()",
    }
    also = [
        AlsoCtx(
            aggregate=a.aggregate,
            var=_var(a.aggregate),
            method=domain.aggregates[a.aggregate].command(a.command).method,  # type: ignore[union-attr]
            id_code=_code(a.id, service_scope),
            id_field=str(a.id.value),
            title=" ".join(naming.words(a.aggregate)).lower(),
            args=[
                {
                    "attr": _attr_of(domain, a.aggregate, a.command, k),
                    "code": _code(n, service_scope),
                }
                for k, n in a.args.items()
            ],
        )
        for a in command.also
    ]
    loads = _loads(command, aggregate, domain, service_scope)
    by_reference = {load.field: load for load in loads}
    for entry in also:
        entry.var = by_reference[entry.id_field].var
        entry.optional = by_reference[entry.id_field].optional
    return CommandCtx(
        name=command.name,
        method=command.method,
        use_case=command.method,
        aggregate=aggregate.name,
        creates=command.creates,
        deletes=aggregate.makes_gone(command),
        description=command.description,
        params=[field_ctx(f, catalog) for f in command.params],
        inputs=[field_ctx(f, catalog) for f in command.inputs],
        arguments=[field_ctx(f, catalog) for f in command.arguments],
        guard=guard,
        guard_error=command.error or "",
        sets=sets,
        event=command.event,
        event_args=event_args,
        also=also,
        references=[],
        loads=loads,
        kept_secrets=[f.attr for f in command.arguments if f.secret in ("given", "sealed")]
        if _patched(command, aggregate, domain)
        else [],
        value_invariants=_value_invariants(command.arguments, domain),
    )


def _value_invariants(fields: list[RField], domain: Domain) -> list[Code]:
    """The invariants of every value object ``fields`` hold, at any depth, each once."""
    seen: set[str] = set()
    found: list[Code] = []
    pending = [part for f in fields for part in f.full_type.walk()]
    while pending:
        part = pending.pop(0)
        if part.kind != "value" or part.name in seen:
            continue
        seen.add(part.name)
        value = domain.values[part.name]
        found += _value_checks(value)
        pending += [nested for f in value.fields for nested in f.full_type.walk()]
    return found


def _patched(command: RCommand, aggregate: RAggregate, domain: Domain) -> bool:
    """Whether a PATCH (a merge patch) serves ``command``: a given secret it leaves out
    keeps its hash, so the use case takes None for it."""
    return any(
        e.method == "PATCH"
        and e.kind == "change"
        and e.target == aggregate.name
        and e.command == command.name
        for e in domain.endpoints
    )


def _loads(
    command: RCommand, aggregate: RAggregate, domain: Domain, scope: dict[str, str]
) -> list[LoadCtx]:
    """The aggregates a use case loads before running ``command``: those its parameters
    reference (they must exist in the tenant), and those its ``also`` commands change."""
    taken = {a.attr for a in command.arguments} | {"current", "created", "changed", "now", "tx"}
    loads: list[LoadCtx] = []
    sources = [(f, f.attr) for f in command.arguments if f.references]
    for also in command.also:
        name = str(also.id.value)
        if all(f.name != name for f, _ in sources):
            own = aggregate.field(name)
            assert own is not None
            sources.append((own, scope[name]))
    for f, code in sources:
        base = f.name[:-2] if f.name.endswith("Id") and len(f.name) > 2 else f"{f.name}Ref"
        var = naming.snake(base)
        while var in taken or var in ATTRIBUTES:
            var += "_ref"
        taken.add(var)
        assert f.references is not None
        loads.append(
            LoadCtx(
                var=var,
                field=f.name,
                target=f.references,
                id_code=code,
                by_key=f.references_key is not None,
                many=f.type.kind == "list",
                optional=f.optional,
                message=_unknown_reference(f),
                shows_value=VALUE_TOKEN in f.messages.get("references", ""),
                changed=any(str(a.id.value) == f.name for a in command.also),
                canonical=_canonical(domain, f) if code == f.attr else None,
            )
        )
    values = catalog_of(domain).values
    for f in command.arguments:
        for held in held_references(f.full_type, values):
            ref = held.field
            assert ref.references is not None
            var = naming.snake(f"{f.name}_{ref.name}_refs")
            while var in taken or var in ATTRIBUTES:
                var += "_"
            taken.add(var)
            loads.append(
                LoadCtx(
                    var=var,
                    field=f.name,
                    target=ref.references,
                    id_code="",
                    by_key=ref.references_key is not None,
                    many=True,
                    optional=False,
                    message=_unknown_reference(ref),
                    shows_value=VALUE_TOKEN in ref.messages.get("references", ""),
                    changed=False,
                    pairs=pairs_code(f.attr, f.name, held),
                )
            )
    return loads


def _unknown_reference(f: RField) -> str:
    """What a value of the reference ``f`` that names no aggregate reports."""
    assert f.references is not None
    return f.messages.get("references") or (
        f"No {' '.join(naming.words(f.references))} has this "
        + (" ".join(naming.words(f.references_key)) if f.references_key else "id")
    )


def _canonical(domain: Domain, field_: RField) -> str | None:
    """The attribute of the key field a parameter's natural reference names, when the key
    ignores case (``te123`` is kept as the technician's ``TE123``)."""
    target = domain.aggregates[field_.references or ""]
    if field_.references_key is None or not target.key_ignore_case:
        return None
    key = target.field(field_.references_key)
    return key.attr if key is not None else None


def _attr_of(domain: Domain, aggregate: str, command: str, name: str) -> str:
    target = domain.aggregates[aggregate].command(command)
    assert target is not None
    return next(f.attr for f in target.arguments if f.name == name)


def _event_source(
    f: RField, aggregate: RAggregate, command: RCommand, set_attrs: set[str], catalog: Catalog
) -> str:
    """The expression a command method fills event field ``f`` with."""
    if f.name == aggregate.event_id:
        if aggregate.event_id_type == "uuid":
            return "UUID(id) if id is not None else uuid4()" if command.creates else "UUID(self.id)"
        return "id or str(uuid4())" if command.creates else "self.id"
    if f.name == TIMESTAMP:
        return "now"
    argument = next((a for a in command.arguments if a.name == f.name), None)
    if argument is not None or f.name in set_attrs:
        return (argument or f).attr
    own = aggregate.field(f.name)
    assert own is not None
    if command.creates:
        return python_literal(own.default, own.full_type, catalog.values)
    return f"self.{own.attr}"


def _applies(aggregate: RAggregate, domain: Domain) -> list[ApplyCtx]:
    result: dict[str, ApplyCtx] = {}
    for command in aggregate.commands:
        if command.event in result:
            continue
        event = domain.events[command.event]
        carried = {f.name for f in event.fields}
        sets = [{"attr": f.attr} for f in aggregate.fields if f.name in carried]
        result[command.event] = ApplyCtx(command.event, command.creates, command.deletes, sets)
    return list(result.values())


__all__ = [
    "AggregateCtx",
    "CommandCtx",
    "aggregates",
    "catalog_of",
    "enums",
    "errors",
    "events",
    "title",
    "values",
]
