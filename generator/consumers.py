"""Contracts between the services of a workspace: every consumed event is checked against
what its producer's spec publishes (a tolerant reader may leave fields out, but each field
it reads must be published, with a type it can read), and a breaking change to a published
event names the services it would break."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from generator.resolve import resolve
from generator.resolve_fields import FieldResolver
from generator.resolved import Domain, Loc, REvent, RField
from generator.spec import Spec
from generator.typeref import TypeRef

_READ_AS_TEXT = frozenset({"str", "uuid", "date", "datetime"})
"""Published scalar types a reader may take as ``str`` (JSON carries them as strings)."""


@dataclass(frozen=True)
class ContractProblem:
    """A consumer's field its producer does not publish as the consumer reads it."""

    consumer: str
    loc: Loc
    message: str


def consumers_of(specs: Mapping[str, Spec], producer: str) -> dict[str, list[str]]:
    """For each event of ``producer``, the services of ``specs`` that consume it."""
    found: dict[str, list[str]] = {}
    for name, spec in sorted(specs.items()):
        for key in spec.consumes:
            source, _, event = key.partition(".")
            if source == producer:
                found.setdefault(event, []).append(name)
    return found


def contract_problems(specs: Mapping[str, Spec]) -> list[ContractProblem]:
    """Every consumed field that its producer (a spec of ``specs``) does not publish, or
    publishes as a type the consumer cannot read. Producers outside ``specs`` are not
    judged."""
    published: dict[str, Domain] = {}
    problems: list[ContractProblem] = []
    for consumer_name, consumer in sorted(specs.items()):
        resolver = FieldResolver(Domain(), set(consumer.enums), set(consumer.values))
        for key, consumed in consumer.consumes.items():
            producer_name, _, event_name = key.partition(".")
            producer = specs.get(producer_name)
            if producer is None:
                continue
            domain = published.setdefault(producer_name, resolve(producer))
            event = domain.events.get(event_name)
            loc: Loc = ("consumes", key)
            if event is None:
                problems.append(
                    ContractProblem(
                        consumer_name,
                        loc,
                        f"{producer_name} publishes no {event_name} "
                        f"(its events: {', '.join(sorted(domain.events)) or 'none'})",
                    )
                )
                continue
            fields = {f.name: f for f in event.fields}
            always = _always_published(event)
            for read in resolver.fields(consumed.fields, (*loc, "fields"), rules=False):
                problem = _field_problem(read, fields.get(read.name), key, domain)
                if problem is None and read.required and read.name in fields:
                    problem = _maybe_missing(read, fields[read.name], always, key, event)
                if problem is None and read.name in fields:
                    problem = _decoded(read, key, event)
                if problem is not None:
                    problems.append(ContractProblem(consumer_name, read.loc, problem))
    return problems


def _always_published(event: REvent) -> set[str]:
    """The fields every published version of ``event`` carries: events are published as
    they were stored, so a field added later (with a default, or by an upcast) is missing
    from those written before."""
    always = {f.name for f in event.fields if f.required}
    for step in event.upcasts:
        always -= {new for _, new in step["rename"]}
        always -= {new for new, _ in step["add"]}
        always -= {computed["field"] for computed in step["compute"]}
    return always


def _decoded(read: RField, key: str, event: REvent) -> str | None:
    """A field an upcast decodes is JSON text in the events stored before it: events are
    published as they were stored, so only a ``json`` reader takes both forms."""
    versions = [step["from"] for step in event.upcasts if read.name in step["decode"]]
    if not versions or read.type.required().is_scalar("json"):
        return None
    return (
        f"{key}.{read.name} is JSON text in the events stored before version "
        f"{max(versions) + 1} (an upcast decodes it on read; events are published as they "
        f"were stored): read it as json"
    )


def _maybe_missing(
    read: RField, sent: RField, always: set[str], key: str, event: REvent
) -> str | None:
    if read.name in always:
        return None
    why = (
        "it has a default: a field added with one takes no new version, so the spec cannot"
        " tell whether the first events held it"
        if sent.has_default
        else f"an upcast of {event.name} makes it"
        if not sent.optional
        else "it is optional"
    )
    return (
        f"{key}.{read.name} may be missing from events published before it was added "
        f"({why}; events are published as they were stored): read it with a default or "
        f"as optional"
    )


def _field_problem(read: RField, sent: RField | None, key: str, producer: Domain) -> str | None:
    if sent is None:
        if not read.required:
            return None
        known = ", ".join(sorted(f"{f.name}" for f in _event_fields(producer, key)))
        return f"{key} has no {read.name!r} (it has: {known})"
    if sent.optional and not read.optional:
        return (
            f"{key}.{read.name} may be null ({sent.full_type}); read it as optional "
            f"({read.type} optional: true)"
        )
    if not _readable(read.type.required(), sent.type.required()):
        return f"{key}.{read.name} is published as {sent.type}, not readable as {read.type}"
    return None


def _event_fields(producer: Domain, key: str) -> list[RField]:
    return producer.events[key.partition(".")[2]].fields


def _readable(reader: TypeRef, writer: TypeRef) -> bool:
    """Whether a value written as ``writer`` reads as ``reader``."""
    if str(reader) == str(writer) or reader.is_scalar("json"):
        return True  # any JSON value reads as json
    if reader.kind == "scalar":
        if reader.name == "str":
            return writer.kind == "enum" or writer.is_scalar(*_READ_AS_TEXT)
        if reader.name == "float":
            return writer.is_scalar("int", "float")
        return False
    if reader.kind == "enum":
        return writer.kind == "enum" or writer.is_scalar("str")
    if reader.kind in ("list", "map") and writer.kind == reader.kind:
        return _readable(reader.element.required(), writer.element.required())
    return False
