"""The service and event catalog of a workspace: every service with its endpoints,
aggregates and commands, every event with its versions, fields and upcasters, who publishes
and who consumes it, and what is wrong between them. Built from the specs alone; the site
(`catalog_site`) and the AsyncAPI documents (`asyncapi`) are drawn from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from generator import naming
from generator.consumers import contract_problems
from generator.evolution import breaking_changes
from generator.resolve import resolve
from generator.resolve_fields import FieldResolver
from generator.resolved import Domain, REvent, RField
from generator.spec import Spec, UpcastSpec
from generator.typeref import TypeRef

SUBJECT_PREFIX = "events"
"""The subject prefix of events (``eaf.messaging``'s default, ``EAF_EVENTS_PREFIX``)."""


def subject(service: str, event: str, tenant: str = "{tenant}") -> str:
    """The NATS subject an event of ``service`` is published on."""
    return f"{SUBJECT_PREFIX}.{tenant}.{service}.{event}"


@dataclass(frozen=True)
class FieldEntry:
    """A field of an event or aggregate as the catalog shows it."""

    name: str
    attr: str
    type: TypeRef
    optional: bool
    required: bool
    description: str

    @staticmethod
    def of(item: RField) -> FieldEntry:
        return FieldEntry(
            name=item.name,
            attr=item.attr,
            type=item.type,
            optional=item.optional,
            required=item.required,
            description=item.description,
        )

    @property
    def type_text(self) -> str:
        return f"{self.type}{' | null' if self.optional else ''}"


@dataclass(frozen=True)
class Upcast:
    """How a stored event of ``version`` becomes the next version."""

    version: int
    steps: list[str]


@dataclass
class ConsumerEntry:
    """A service that consumes an event, through its durable consumer group."""

    service: str
    durable: str
    handler: str
    max_deliver: int
    fields: list[FieldEntry]
    description: str


@dataclass
class EventEntry:
    """An event a service publishes (every stored event goes out through the outbox)."""

    service: str
    name: str
    version: int
    fields: list[FieldEntry]
    upcasts: list[Upcast]
    aggregate: str | None
    emitted_by: list[str]
    description: str
    consumers: list[ConsumerEntry] = field(default_factory=list)

    @property
    def key(self) -> str:
        """``<service>.<EventType>``, as specs name it under ``consumes``."""
        return f"{self.service}.{self.name}"

    @property
    def subject(self) -> str:
        return subject(self.service, self.name)


@dataclass(frozen=True)
class CommandEntry:
    name: str
    emits: str
    creates: bool
    deletes: bool
    guarded: bool
    params: list[str]
    description: str


@dataclass(frozen=True)
class AggregateEntry:
    name: str
    description: str
    fields: list[FieldEntry]
    commands: list[CommandEntry]


@dataclass(frozen=True)
class EndpointEntry:
    method: str
    path: str
    runs: str
    permission: str | None
    summary: str


@dataclass(frozen=True)
class ConsumedEntry:
    """An event a service consumes, and whether the workspace has its publisher."""

    key: str
    producer: str
    event: str
    published: bool


@dataclass
class ServiceEntry:
    name: str
    kind: str
    description: str
    port: int
    endpoints: list[EndpointEntry]
    aggregates: list[AggregateEntry]
    read_models: list[str]
    publishes: list[str]
    consumes: list[ConsumedEntry]

    @property
    def messaging(self) -> bool:
        """Whether it publishes or consumes events (and so has an AsyncAPI document)."""
        return bool(self.publishes or self.consumes)

    @property
    def permissions(self) -> list[str]:
        return sorted({e.permission for e in self.endpoints if e.permission})


@dataclass(frozen=True)
class Flow:
    """Events of ``producer`` that ``consumer`` consumes."""

    producer: str
    consumer: str
    events: list[str]


@dataclass(frozen=True)
class Finding:
    """Something wrong between the services: ``kind`` is unpublished, contract or
    breaking; ``service`` is whose spec says it."""

    kind: str
    service: str
    where: str
    message: str


@dataclass
class Catalog:
    services: dict[str, ServiceEntry]
    events: dict[str, EventEntry]
    flows: list[Flow]
    findings: list[Finding]
    domains: dict[str, Domain] = field(default_factory=dict, repr=False)


def build_catalog(specs: Mapping[str, Spec], recorded: Mapping[str, Spec] | None = None) -> Catalog:
    """The catalog of ``specs`` (by service name); ``recorded`` holds, by name, the spec
    each project was last rendered from, against which breaking changes are judged."""
    domains = {name: resolve(spec) for name, spec in sorted(specs.items())}
    events: dict[str, EventEntry] = {}
    for name, domain in domains.items():
        for event in domain.events.values():
            declared = specs[name].events.get(event.name)
            upcasts = declared.upcasts if declared is not None else {}
            entry = _event(name, event, domain, upcasts)
            events[entry.key] = entry
    services: dict[str, ServiceEntry] = {}
    flows: dict[tuple[str, str], list[str]] = {}
    findings: list[Finding] = []
    for name, spec in sorted(specs.items()):
        consumed: list[ConsumedEntry] = []
        resolver = FieldResolver(Domain(), set(spec.enums), set(spec.values))
        for key, consume in spec.consumes.items():
            producer, _, event_name = key.partition(".")
            target = events.get(key)
            consumed.append(ConsumedEntry(key, producer, event_name, target is not None))
            if target is None:
                if producer not in specs:
                    findings.append(
                        Finding(
                            "unpublished",
                            name,
                            f"consumes.{key}",
                            f"{name} consumes {key}, but the workspace has no valid spec "
                            f"named {producer}: nobody publishes it",
                        )
                    )
                continue  # a producer that lacks the event: a contract finding below
            fields = resolver.fields(consume.fields, ("consumes", key, "fields"), rules=False)
            target.consumers.append(
                ConsumerEntry(
                    service=name,
                    durable=naming.consumer_durable(name, key, consume.durable),
                    handler=naming.consumer_handler(key, consume.handler),
                    max_deliver=consume.max_deliver,
                    fields=[FieldEntry.of(f) for f in fields],
                    description=consume.description or "",
                )
            )
            flows.setdefault((producer, name), []).append(event_name)
        domain = domains[name]
        services[name] = ServiceEntry(
            name=name,
            kind=spec.kind,
            description=spec.description,
            port=spec.port,
            endpoints=[
                EndpointEntry(
                    e.method,
                    e.path,
                    f"{e.target}.{e.command or e.kind}",
                    e.permission,
                    e.summary,
                )
                for e in domain.endpoints
            ],
            aggregates=[
                AggregateEntry(
                    a.name,
                    a.description,
                    [FieldEntry.of(f) for f in a.fields],
                    [
                        CommandEntry(
                            c.name,
                            c.event,
                            c.creates,
                            c.deletes,
                            c.when is not None,
                            [p.name for p in c.arguments],
                            c.description,
                        )
                        for c in a.commands
                    ],
                )
                for a in domain.aggregates.values()
            ],
            read_models=sorted(domain.read_models),
            publishes=sorted(domain.events),
            consumes=consumed,
        )
    for problem in contract_problems(specs):
        findings.append(
            Finding(
                "contract",
                problem.consumer,
                ".".join(map(str, problem.loc)),
                f"{problem.consumer}: {problem.message}",
            )
        )
    for name, before in sorted((recorded or {}).items()):
        after = specs.get(name)
        if after is None:
            continue
        for loc, message, changed in breaking_changes(before, after):
            entries = [events[key] for key in (f"{name}.{e}" for e in changed) if key in events]
            readers = sorted({c.service for entry in entries for c in entry.consumers})
            breaks = f"; it would break {', '.join(readers)}" if readers else ""
            findings.append(
                Finding("breaking", name, ".".join(map(str, loc)), f"{message}{breaks}")
            )
    return Catalog(
        services=services,
        events=events,
        flows=[Flow(p, c, sorted(e)) for (p, c), e in sorted(flows.items())],
        findings=findings,
        domains=domains,
    )


def _event(
    service: str, event: REvent, domain: Domain, upcasts: Mapping[int, UpcastSpec]
) -> EventEntry:
    emitted_by = [
        f"{aggregate.name}.{command.name}"
        for aggregate in domain.aggregates.values()
        for command in aggregate.commands
        if command.event == event.name
    ]
    return EventEntry(
        service=service,
        name=event.name,
        version=event.version,
        fields=[FieldEntry.of(f) for f in event.fields],
        upcasts=[_upcast(version, step) for version, step in sorted(upcasts.items())],
        aggregate=event.aggregate,
        emitted_by=emitted_by,
        description=event.description,
    )


def _upcast(version: int, step: UpcastSpec) -> Upcast:
    """One upcaster in words: ``rename mail -> email``, ``add nickname = ''``..."""
    lines = [f"rename {old} -> {new}" for old, new in step.rename.items()]
    lines += [f"add {name} = {value!r}" for name, value in step.add.items()]
    lines += [f"remove {name}" for name in step.remove]
    lines += [f"decode {name} (stored as JSON text)" for name in step.decode]
    lines += [f"compute {name} = {text}" for name, text in step.compute.items()]
    return Upcast(version, lines)
