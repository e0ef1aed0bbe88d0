"""Derive the render context of a blueprint from a spec: every name and compiled expression
a template needs, computed once, as typed dataclasses serialised to JSON (copier passes the
context through JSON)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import PurePosixPath
from typing import Any

from generator import context_domain as d
from generator import context_http as h
from generator import naming
from generator.context_fields import FieldCtx, delegate_checks, field_ctx
from generator.context_tests import add_scenarios, unmade_references
from generator.expr_code import to_python
from generator.reserved import call_keyword, python_attribute
from generator.resolve import resolve
from generator.resolve_fields import FieldResolver
from generator.resolved import Domain, RCli
from generator.spec import ComponentSpec, Spec
from generator.values import Catalog


@dataclass
class ConsumedCtx:
    key: str
    producer: str
    event: str
    event_snake: str
    handler: str
    durable: str
    max_deliver: int
    description: str
    fields: list[FieldCtx]


@dataclass
class PolicyTests:
    """What the generated test of a policy runs: the aggregate whose command emits the
    triggering event (``trigger``, with the command ``emitter``) and the field of the
    event that names the policy's target (None when the tests cannot tell)."""

    trigger: str
    emitter: str
    target_field: str | None


@dataclass
class PolicyCtx:
    name: str
    function: str
    event: str
    aggregate: str
    service: str
    use_case: str
    creates: bool
    id_code: str | None
    """The code of the value the policy's ``id`` names: its target's id, or with
    ``by_key`` the value of its key (the id is the one the key makes)."""
    args: list[dict[str, str]]
    description: str
    tests: PolicyTests
    by_key: bool = False
    optional_id: bool = False
    """The event may name no target (its ``id`` is optional): such an event runs nothing."""


@dataclass
class PartCtx:
    """A part the composition root passes (``relay``, ``user_repository``...), an
    attribute path after it, and for an aggregate's repository the aggregate's class."""

    part: str
    attributes: str = ""
    repository_of: str | None = None
    queries_of: str | None = None
    """For a read model's queries (``machines_queries``), the read model's name."""


@dataclass
class ArgumentCtx:
    """A keyword argument of a component's factory or type: a part, a list of parts
    (``listed``), a setting read with its type (``reader``: ``settings.<reader>(key)``),
    or a value given as it is (``value``)."""

    keyword: str
    parts: list[PartCtx] = field(default_factory=list)
    listed: bool = False
    setting: str | None = None
    reader: str | None = None
    value: str | int | float | bool | None = None
    given: bool = False
    """The argument is ``value`` (which may be None)."""


@dataclass
class SettingCtx:
    """A setting of the service's own: its key, its default (None: required), its type
    and what it is for."""

    key: str
    type: str
    default: str | int | float | bool | None
    description: str
    variable: str
    """The environment variable that overrides it."""
    test_value: str | None = None
    """What the generated tests set it to: a path's file name in their temporary directory,
    a required setting's sample; None: its default."""


@dataclass
class ConfigLine:
    """A line of ``config/application.yaml`` under a section: a key at a depth (1 under
    the section), its value as YAML (None: a section of its own) and a comment."""

    depth: int
    key: str
    value: str | None
    comment: str


@dataclass
class ConfigSection:
    name: str
    lines: list[ConfigLine]


@dataclass
class ComponentCtx:
    """A hand-written service the composition root builds (spec ``components``)."""

    name: str
    type_module: str
    type_name: str
    """The class, with its type arguments if any (``MemoryExpiring[Any]``)."""
    class_name: str
    factory_module: str | None
    factory_name: str | None
    constructor: str | None
    arguments: list[ArgumentCtx]
    worker: bool
    description: str
    on_start: str | None = None
    """The async method the application awaits once its workers run."""

    @property
    def parts(self) -> list[PartCtx]:
        return [part for argument in self.arguments for part in argument.parts]


@dataclass
class OptionCtx:
    """An input of a CLI command: ``--option`` (or read from the terminal: ``prompted``)."""

    field: FieldCtx
    option: str
    keyword: str
    """The keyword the method takes it by."""
    parse: str | None
    """The function making the option's text its value (None: kept as text)."""
    choices: list[str]
    prompted: bool
    flag: bool
    """A bool: ``--x`` / ``--no-x``."""


@dataclass
class CliCommandCtx:
    name: str
    function: str
    component: str
    method: str
    summary: str
    description: str
    options: list[OptionCtx]
    tenant: bool = False
    """It acts in the tenant its ``--tenant`` names."""


@dataclass
class CliCtx:
    name: str
    description: str
    commands: list[CliCommandCtx]


_PARSE = {
    "int": "int_option",
    "float": "float_option",
    "decimal": "decimal_option",
    "date": "date_option",
    "datetime": "datetime_option",
    "uuid": "uuid_option",
}
"""The ``eaf.options`` parser of an option of each type (the HTTP API's reading of it)."""


def _cli(cli: RCli | None, catalog: Catalog) -> CliCtx | None:
    if cli is None:
        return None
    commands = []
    for command in cli.commands:
        function = naming.snake(command.name.replace("-", "_"))
        options = []
        for input_ in command.inputs:
            field_ = field_ctx(input_, catalog)
            type_ = input_.type
            options.append(
                OptionCtx(
                    field=field_,
                    option="--" + naming.kebab(input_.name),
                    keyword=call_keyword(naming.snake(input_.name)),
                    parse=type_.name
                    if type_.kind == "enum"
                    else (
                        f"Normalized({input_.normalize!r}).apply"
                        if input_.normalize
                        else _PARSE.get(type_.name)
                    ),
                    choices=list(catalog.enums.get(type_.name, [])) if type_.kind == "enum" else [],
                    prompted=input_.name in command.prompt,
                    flag=type_.is_scalar("bool"),
                )
            )
        commands.append(
            CliCommandCtx(
                name=command.name,
                function=function,
                component=command.component,
                method=command.method,
                summary=command.summary,
                description=command.description,
                options=options,
                tenant=command.tenant,
            )
        )
    return CliCtx(name=cli.name, description=cli.description, commands=commands)


@dataclass
class ServiceCtx:
    name: str
    kind: str
    is_app: bool
    package: str
    title: str
    description: str
    port: int
    base_path: str
    enums: list[d.EnumCtx]
    value_objects: list[d.ValueCtx]
    errors: list[d.ErrorCtx]
    aggregates: list[d.AggregateCtx]
    events: list[d.EventCtx]
    read_models: list[h.ReadModelCtx]
    endpoints: list[h.EndpointCtx]
    consumes: list[ConsumedCtx]
    policies: list[PolicyCtx]
    layers: list[str]
    dependencies: list[str]
    scripts: dict[str, str]
    adapter_imports: list[str]
    system_packages: list[str]
    secured: bool
    tenant_paths: bool
    flags: list[str]
    """The feature flags gating endpoints (sorted)."""
    permissions: list[str]
    has_read_models: bool
    uses_pattern: bool
    has_use_cases: bool = True
    components: list[ComponentCtx] = field(default_factory=list)
    settings: list[SettingCtx] = field(default_factory=list)
    """The service's own settings (spec ``settings``), read by its components."""
    config_sections: list[ConfigSection] = field(default_factory=list)
    """The service's own settings as the sections of ``config/application.yaml``."""
    token_validator: str | None = None
    """The component that authenticates bearer tokens (else IAM's published keys)."""
    password_hasher: bool = False
    """The composition root builds the secrets' hasher (for use cases or components)."""
    sealed_secrets: bool = False
    """The composition root opens the key ring of sealed secrets (use cases, components)."""
    cli: CliCtx | None = None
    """The operator CLI (``src/<package>/cli.py``), if the spec declares one."""


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


def _consumes(spec: Spec, domain: Domain, catalog: Catalog) -> list[ConsumedCtx]:
    resolver = FieldResolver(Domain(), set(spec.enums), set(spec.values))
    result = []
    for key, consumed in spec.consumes.items():
        producer, _, event = key.partition(".")
        fields = resolver.fields(consumed.fields, ("consumes", key, "fields"), rules=False)
        result.append(
            ConsumedCtx(
                key=key,
                producer=producer,
                event=event,
                event_snake=naming.snake(event),
                handler=python_attribute(naming.consumer_handler(key, consumed.handler)),
                durable=naming.consumer_durable(spec.name, key, consumed.durable),
                max_deliver=consumed.max_deliver,
                description=consumed.description or f"{key}, as this service reads it.",
                fields=[field_ctx(f, catalog) for f in fields],
            )
        )
    return result


def _policies(domain: Domain, aggregates: dict[str, d.AggregateCtx]) -> list[PolicyCtx]:
    result = []
    for policy in domain.policies:
        event = domain.events[policy.event]
        names = {f"event.{f.name}": f"event.{f.attr}" for f in event.fields}
        target = aggregates[policy.aggregate]
        command = next(c for c in target.commands if c.name == policy.command)
        arguments = {a.name: a.attr for a in command.arguments}
        id_code = None
        if policy.id is not None:
            id_code = to_python(policy.id, names).source
        trigger = domain.aggregates[event.aggregate or ""]
        emitter = next(c for c in trigger.commands if c.event == policy.event)
        field = str(policy.id.value).removeprefix("event.") if policy.id is not None else ""
        result.append(
            PolicyCtx(
                name=policy.name,
                function=naming.snake(policy.name),
                event=policy.event,
                aggregate=policy.aggregate,
                service=target.snake,
                use_case=command.use_case,
                creates=command.creates,
                id_code=id_code,
                args=[
                    {"attr": arguments[k], "code": to_python(n, names).source}
                    for k, n in policy.args.items()
                ],
                description=policy.description,
                by_key=policy.by_key,
                optional_id=policy.id is not None and policy.id.type.kind == "optional",
                tests=PolicyTests(
                    trigger=naming.snake(event.aggregate or ""),
                    emitter=emitter.method,
                    target_field=python_attribute(naming.snake(field))
                    if policy.id is not None
                    and policy.id.op == "name"
                    and trigger.field(field) is not None
                    else None,
                ),
            )
        )
    return result


def _use_cases(endpoints: list[h.EndpointCtx], aggregates: dict[str, d.AggregateCtx]) -> None:
    """Name each use case after the endpoint that calls it (``use_case``), else after its
    command; every aggregate has ``get``, and a ``get_by_<field>`` per unique-key lookup."""
    named: set[tuple[str, str]] = set()
    for aggregate in aggregates.values():
        aggregate.getters = [d.GetterCtx("get", None, None, "str")]
        aggregate.getters += [
            d.GetterCtx(f"get_by_{f.attr.rstrip('_')}", f.attr, f.name, f.py)
            for f in aggregate.unique
        ]
    for endpoint in endpoints:
        target = aggregates.get(endpoint.target)
        if target is None:
            continue
        aggregate = target
        if endpoint.creator is not None and endpoint.command is not None:
            # a create-or-replace PUT: a use case of its own, running either command
            if all(u.use_case != endpoint.use_case for u in aggregate.upserts):
                named_by = next(p.name for p in endpoint.path_params if p.role == "key")
                key_field = next(f for f in aggregate.fields if f.name == named_by)
                aggregate.upserts.append(
                    d.UpsertCtx(endpoint.use_case, key_field, endpoint.creator, endpoint.command)
                )
            continue
        if endpoint.command is not None:
            command = endpoint.command
            key = (aggregate.name, command.name)
            if key not in named and endpoint.use_case != command.method:
                command.use_case = endpoint.use_case
            named.add(key)
            endpoint.use_case = command.use_case
            continue
        if endpoint.kind == "every":
            aggregate.every = endpoint.use_case
            continue
        if endpoint.by is None:
            if endpoint.use_case != "get":
                aggregate.getters.append(d.GetterCtx(endpoint.use_case, None, None, "str"))
            continue
        field_ = next(f for f in aggregate.fields if f.name == endpoint.by)
        method = (
            endpoint.use_case if endpoint.use_case != "get" else f"get_by_{field_.attr.rstrip('_')}"
        )
        endpoint.use_case = method
        if all(g.method != method for g in aggregate.getters):
            keyed = aggregate.key is not None and [f.name for f in aggregate.key.fields] == [
                field_.name
            ]
            aggregate.getters.append(
                d.GetterCtx(method, field_.attr, field_.name, field_.py, keyed=keyed)
            )


def _http_makers(endpoints: list[h.EndpointCtx], aggregates: dict[str, d.AggregateCtx]) -> None:
    """Which aggregates the generated HTTP tests can make (a creating endpoint, and the
    aggregates it references makeable too), and through which endpoint."""
    for aggregate in aggregates.values():
        # a creating endpoint, else a create-or-replace PUT (with a key none has yet)
        creator = next(
            (e for e in endpoints if e.kind == "create" and e.aggregate == aggregate.name),
            next(
                (e for e in endpoints if e.kind == "upsert" and e.aggregate == aggregate.name),
                None,
            ),
        )
        aggregate.extra.http = None if creator is None else creator.function

    def makeable(name: str, path: tuple[str, ...]) -> bool:
        aggregate = aggregates[name]
        if aggregate.extra.http is None or name in path:
            return False
        return all(makeable(need, (*path, name)) for need in aggregate.extra.needs)

    for name, aggregate in aggregates.items():
        aggregate.extra.makeable = makeable(name, ())
    for endpoint in endpoints:
        endpoint.extra.steps_ok = _http_steps(endpoint, endpoints, "ok")
        endpoint.extra.steps_refused = _http_steps(endpoint, endpoints, "refused")


def _http_steps(
    endpoint: h.EndpointCtx, endpoints: list[h.EndpointCtx], which: str
) -> list[str] | None:
    """The endpoint functions that run the steps before ``endpoint`` (None when a step has
    no endpoint, or there are no steps to take)."""
    if endpoint.command is None:
        return None
    steps = endpoint.command.tests.ok if which == "ok" else endpoint.command.tests.refused
    if steps is None:
        return None
    by_method = {
        e.command.method: e.function
        for e in reversed(endpoints)
        if e.command is not None and e.creator is None and e.aggregate == endpoint.aggregate
    }
    if any(step not in by_method for step in steps):
        return None
    return [by_method[step] for step in steps]


def _reach(
    spec: Spec,
    endpoints: list[h.EndpointCtx],
    policies: list[PolicyCtx],
    aggregates: dict[str, d.AggregateCtx],
    read_models: list[h.ReadModelCtx],
) -> None:
    """Mark what production code runs, so that nothing else is rendered: an application's
    use cases exist for the aggregates an endpoint or policy reaches (and those their
    commands load or need made first); a library's, or an application's that reacts to
    consumed events (its reactions are given every use case), for every aggregate."""
    queried = {e.read_model for e in endpoints if e.read_model}
    for read_model in read_models:
        read_model.exposed = read_model.name in queried
    exposed = {e.aggregate for e in endpoints if e.aggregate}
    # a call answering an aggregate answers its view
    exposed |= {e.call.response for e in endpoints if e.call and e.call.view and e.call.response}
    if spec.kind == "lib" or spec.consumes:
        served = set(aggregates)
    else:
        served = set(exposed) | {p.aggregate for p in policies}
        needed = {
            part.split(".", 1)[0]
            for component in spec.components.values()
            for part in component.parts()
        }
        served |= {a.name for a in aggregates.values() if a.snake in needed}
        served |= {a.name for a in aggregates.values() if a.snake in _triggers(policies)}
        pending = list(served)
        while pending:
            aggregate = aggregates[pending.pop()]
            reached = set(aggregate.extra.needs)
            for command in aggregate.commands:
                reached |= {load.target for load in command.loads}
                reached |= {also.aggregate for also in command.also}
            for name in reached - served:
                served.add(name)
                pending.append(name)
    for name, aggregate in aggregates.items():
        aggregate.served = name in served
        aggregate.exposed = name in exposed


def _triggers(policies: list[PolicyCtx]) -> set[str]:
    return {p.tests.trigger for p in policies}


_READERS = {
    "str": "text",
    "int": "integer",
    "float": "number",
    "bool": "flag",
    "seconds": "seconds",
    "path": "path",
}
"""The ``eaf.config.Settings`` method that reads a setting of each type."""


def _component(name: str, spec: ComponentSpec, service: Spec) -> ComponentCtx:
    type_module, _, type_name = spec.type.partition(":")
    factory_module, _, factory_name = (spec.factory or "").partition(":")
    repositories = naming.repository_parts(list(service.aggregates))
    taken = set(repositories) | {naming.snake(a) for a in service.aggregates}
    read_models = naming.queries_parts(list(service.read_models), taken)

    def part(need: str) -> PartCtx:
        head, _, attributes = need.partition(".")
        return PartCtx(
            part=head,
            attributes=f".{attributes}" if attributes else "",
            repository_of=repositories.get(head),
            queries_of=read_models.get(head),
        )

    arguments = [
        ArgumentCtx(keyword=keyword, parts=[part(n) for n in need], listed=True)
        if isinstance(need, list)
        else ArgumentCtx(keyword=keyword, parts=[part(need)])
        for keyword, need in spec.arguments()
    ]
    arguments += [
        ArgumentCtx(keyword=keyword, setting=key, reader=_READERS[service.settings[key].type])
        for keyword, key in spec.settings.items()
    ]
    arguments += [
        ArgumentCtx(keyword=keyword, value=value, given=True)
        for keyword, value in spec.values.items()
    ]
    return ComponentCtx(
        name=name,
        type_module=type_module,
        type_name=type_name,
        class_name=type_name.partition("[")[0],
        factory_module=factory_module or None,
        factory_name=factory_name or None,
        constructor=spec.constructor,
        arguments=arguments,
        worker=spec.worker,
        description=spec.description or f"Built by {spec.factory or spec.type}",
        on_start=spec.on_start,
    )


def _config_sections(settings: list[SettingCtx]) -> list[ConfigSection]:
    """The settings as YAML sections: each key under its section and subsections, in the
    order the spec first names them (``a.b.c``, ``a.d``, ``a.b.e``: ``b`` holds c and e)."""
    tree: dict[str, Any] = {}
    for setting in settings:
        *parents, leaf = setting.key.split(".")
        node = tree
        for name in parents:
            node = node.setdefault(name, {})
        node[leaf] = setting
    return [ConfigSection(name, list(_config_lines(node, 1))) for name, node in tree.items()]


def _config_lines(node: dict[str, Any], depth: int) -> Iterator[ConfigLine]:
    for name, child in node.items():
        if isinstance(child, dict):
            yield ConfigLine(depth, name, None, "")
            yield from _config_lines(child, depth + 1)
            continue
        required = child.default is None
        comment = " ".join(child.description.split()) + (" (required)" if required else "")
        shown = child.default
        if child.type == "seconds" and isinstance(shown, float) and shown.is_integer():
            shown = int(shown)  # a whole number of seconds reads as one
        yield ConfigLine(depth, name, json.dumps(shown), comment.strip())


_SAMPLES = {"str": "sample", "int": "1", "float": "1.0", "bool": "true", "seconds": "60"}
"""What the generated tests give a required setting of each type (a path: a file name)."""


def _settings(spec: Spec) -> list[SettingCtx]:
    """The declared settings; the generated tests keep each path in their temporary
    directory (under its own file name, the key's when two would share one)."""
    names = {key: PurePosixPath(str(s.default or key)).name for key, s in spec.settings.items()}
    taken = [name for key, name in names.items() if spec.settings[key].type == "path"]
    result = []
    for key, setting in spec.settings.items():
        test_value = None
        if setting.type == "path":
            test_value = names[key] if taken.count(names[key]) == 1 else f"{key}-{names[key]}"
        elif setting.default is None:
            test_value = _SAMPLES[setting.type]
        result.append(
            SettingCtx(
                key=key,
                type=setting.type,
                # a number of seconds or a float is one, so that "1.5" overrides a 900
                default=float(setting.default)
                if setting.type in ("float", "seconds") and setting.default is not None
                else setting.default,
                description=setting.description or "",
                variable=key.replace(".", "_").upper(),
                test_value=test_value,
            )
        )
    return result


def _viewed(values: list[d.ValueCtx], shown: list[FieldCtx]) -> None:
    """Mark the value objects a view shows (those its fields hold, at any depth)."""
    by_view = {f"{v.name}View": v for v in values}
    pending = list(shown)
    while pending:
        field_ = pending.pop()
        for name in re.findall(r"\b\w+View\b", field_.api):
            value = by_view.get(name)
            if value is not None and not value.viewed:
                value.viewed = True
                pending += value.fields


def build(spec: Spec) -> ServiceCtx:
    """The typed render context of ``spec`` (which must be valid)."""
    domain = resolve(spec)
    # the commands' samples of references the tests cannot make first are null; the
    # read models' (a path or a filter names a value) are not
    plain = d.catalog_of(domain)
    catalog = replace(plain, unmade_references=unmade_references(domain))
    aggregates = d.aggregates(domain, catalog)
    by_name = {a.name: a for a in aggregates}
    read_models = h.read_models(domain, plain, by_name)
    for read_model in read_models:
        if read_model.of is not None:
            by_name[read_model.of].read_model = {"name": read_model.name, "table": read_model.table}
    for name, declared in spec.aggregates.items():
        if declared.service:
            module, _, cls = declared.service.partition(":")
            by_name[name].service_module, by_name[name].service_class = module, cls
    values = d.values(domain, catalog)
    endpoints = h.endpoints(domain, plain, by_name)
    _use_cases(endpoints, by_name)
    add_scenarios(domain, catalog, by_name)
    _http_makers(endpoints, by_name)
    policies = _policies(domain, by_name)
    _reach(spec, endpoints, policies, by_name, read_models)
    components = [_component(n, c, spec) for n, c in spec.components.items()]
    cli = _cli(domain.cli, catalog)
    _viewed(
        values,
        [f for a in aggregates if a.exposed for f in a.fields if not f.hidden]
        + [c for r in read_models if r.exposed and not r.of for c in r.columns],
    )
    delegate_checks(
        {a.name: a.fields for a in aggregates} | {v.name: v.fields for v in values},
        [f for a in aggregates for c in a.commands for f in c.inputs]
        + [f for e in endpoints if e.call for f in e.call.inputs]
        + [o.field for c in (cli.commands if cli else []) for o in c.options],
    )
    return ServiceCtx(
        name=spec.name,
        kind=spec.kind,
        is_app=spec.kind == "app",
        package=naming.package(spec.name),
        title=" ".join(naming.words(spec.name)),
        description=spec.description or f"The {spec.name} service",
        port=spec.port,
        base_path=spec.base_path
        or (f"/api/v1/{spec.name}" if spec.name.endswith("s") else f"/api/v1/{spec.name}s"),
        enums=d.enums(domain),
        value_objects=values,
        errors=d.errors(domain),
        aggregates=aggregates,
        events=d.events(domain, catalog),
        read_models=read_models,
        endpoints=endpoints,
        consumes=_consumes(spec, domain, catalog),
        policies=policies,
        layers=spec.layers,
        dependencies=_extra_requirements(spec),
        scripts=spec.scripts,
        adapter_imports=spec.adapter_imports,
        system_packages=spec.system_packages,
        secured=any(e.permission for e in spec.endpoints),
        tenant_paths=any(e.tenant_path for e in endpoints),
        flags=sorted({e.flag for e in endpoints if e.flag}),
        permissions=sorted({e.permission for e in spec.endpoints if e.permission}),
        has_read_models=bool(read_models),
        has_use_cases=any(a.served for a in aggregates),
        components=components,
        settings=_settings(spec),
        config_sections=_config_sections(_settings(spec)),
        password_hasher=any(a.served and a.secrets for a in aggregates)
        or any(p.part == "password_hasher" for c in components for p in c.parts),
        sealed_secrets=any(a.served and a.sealed for a in aggregates)
        or any(p.part == "sealed_secrets" for c in components for p in c.parts),
        token_validator=spec.token_validator,
        uses_pattern=any(
            c.kind == "pattern"
            for v in values
            for f in v.fields
            for c in [*f.checks, *f.item_checks, *f.key_checks]
        )
        or any(
            c.kind == "pattern"
            for a in aggregates
            for f in a.fields
            for c in [*f.checks, *f.item_checks, *f.key_checks]
        )
        or any(
            c.kind == "pattern"
            for a in aggregates
            for cmd in a.commands
            for f in cmd.inputs
            for c in [*f.checks, *f.item_checks, *f.key_checks]
        )
        or any(
            c.kind == "pattern"
            for f in [
                *(f for e in endpoints for f in e.body if e.call),
                *(o.field for command in (cli.commands if cli else []) for o in command.options),
            ]
            for c in [*f.checks, *f.item_checks, *f.key_checks]
        ),
        cli=cli,
    )


def derive(spec: Spec) -> dict[str, Any]:
    """Everything the blueprints need, as JSON-compatible data."""
    return asdict(build(spec))
