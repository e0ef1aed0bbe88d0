"""Name conversions between spec names and Python names."""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+")


def words(name: str) -> list[str]:
    """The words of a kebab, snake, camel or Pascal name, lower-cased."""
    return [word.lower() for word in _WORD.findall(name)]


def snake(name: str) -> str:
    return "_".join(words(name))


def pascal(name: str) -> str:
    return "".join(word.capitalize() for word in words(name))


def camel(name: str) -> str:
    first, *rest = words(name) or [""]
    return first + "".join(word.capitalize() for word in rest)


def kebab(name: str) -> str:
    return "-".join(words(name))


def package(service_name: str) -> str:
    """The import package of a service: ``user-profile`` -> ``user_profile``."""
    return service_name.replace("-", "_")


def event_id_field(aggregate: str, declared: str | None) -> str:
    """The event field that carries the aggregate id (``sampleUserProfileId`` by default)."""
    return declared or f"{camel(aggregate)}Id"


def sample_aggregate(service_name: str) -> str:
    """The sample aggregate of a starter spec: ``user-profile`` -> ``SampleUserProfile``."""
    return f"Sample{pascal(service_name)}"


def consumer_handler(consumed: str, declared: str | None) -> str:
    """The reaction method of a consumed ``<service>.<EventType>`` (``on_tenant_created``)."""
    event = consumed.rpartition(".")[2]
    return snake(declared) if declared else f"on_{snake(event)}"


def consumer_durable(service_name: str, consumed: str, declared: str | None) -> str:
    """The consumer group of a consumed event: ``user-profile-iam-tenant-created-event``."""
    producer, _, event = consumed.rpartition(".")
    return declared or f"{service_name}-{producer}-{kebab(event)}"


def a_noun(name: str) -> str:
    """``name`` as a noun phrase with its article: ``A book``, ``An order line``."""
    phrase = " ".join(words(name))
    return f"{article(phrase).capitalize()} {phrase}"


def article(text: str) -> str:
    """``a`` or ``an`` before ``text``: a vowel letter that sounds like a consonant takes
    "a" (a user, a unit, a European one)."""
    first = text.lower()
    vowel = first[:1] in tuple("aeiou") and not first.startswith(_YOU_SOUNDS)
    return "an" if vowel else "a"


_YOU_SOUNDS = ("uni", "use", "usa", "usu", "uti", "ure", "uro", "eu", "one", "once")


def queries_parts(read_models: list[str], taken: set[str]) -> dict[str, str]:
    """The composition-root parts naming read models' queries (``machines_queries``:
    ``Machines``), but where another part has that name already."""
    parts = {f"{snake(r)}_queries": r for r in read_models}
    return {part: r for part, r in parts.items() if part not in taken}


def repository_parts(aggregates: list[str]) -> dict[str, str]:
    """The composition-root parts naming aggregates' repositories (``order_repository``:
    ``Order``), but where an aggregate's use cases have that name already."""
    snakes = {snake(a) for a in aggregates}
    parts = {f"{snake(a)}_repository": a for a in aggregates}
    return {part: a for part, a in parts.items() if part not in snakes}
