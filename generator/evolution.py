"""Spec changes that would break a service's stored data: an event that gains a required
field, changes a field's type or disappears at the same schema version cannot be read
back from data written before (and neither can the aggregates and read models built from
it); an upcast from the stored version that renames or removes a field that version does
not have fails on every stored event; a unique value or combination that is new (a new
rule, or a renamed field) holds nothing for the values already stored, which were never
claimed. `generate render` refuses them, saying how to evolve the spec instead."""

from __future__ import annotations

from generator.resolve import resolve
from generator.resolved import Domain, Loc, RAggregate, REvent
from generator.spec import Spec


def breaking_changes(before: Spec, after: Spec) -> list[tuple[Loc, str]]:
    """What in ``after`` cannot read (or keep the rules of) the data ``before`` stored."""
    old_domain, new_domain = resolve(before), resolve(after)
    problems = _events(old_domain, new_domain)
    for name, aggregate in new_domain.aggregates.items():
        stored = old_domain.aggregates.get(name)
        if stored is not None:
            problems.extend(_new_unique_rules(name, stored, aggregate))
            problems.extend(_new_key(name, stored, aggregate))
    return problems


def _new_key(name: str, stored: RAggregate, current: RAggregate) -> list[tuple[Loc, str]]:
    """A key (or another key) on an aggregate that has stored ones: their ids were not
    derived from it, so a second aggregate with the same values would not be refused."""
    before = ([f.name for f in stored.key], stored.key_namespace, stored.key_label)
    after = ([f.name for f in current.key], current.key_namespace, current.key_label)
    if not current.key or before == after:
        return []
    fields = " + ".join(after[0])
    if not stored.key:
        change = f"{name}'s id is derived from {fields} now"
    elif before[0] != after[0]:
        change = f"{name}'s key was {' + '.join(before[0])}, it is {fields} now"
    else:
        what = "namespace" if before[1] != after[1] else "label"
        change = f"{name}'s key has another {what} now"
    return [
        (
            ("aggregates", name, "key"),
            f"{change}, but the ids stored before were made otherwise, so a second one with"
            " the same values would pass: keep the key as it was, or render with"
            " --allow-breaking for a service without data (or whose ids were always made"
            " this way)",
        )
    ]


def _unique_keys(aggregate: RAggregate) -> dict[tuple[str, ...], Loc]:
    keys: dict[tuple[str, ...], Loc] = {
        (f.name,): ("aggregates", aggregate.name, "fields", f.name, "unique")
        for f in aggregate.unique
    }
    for index, combination in enumerate(aggregate.unique_together):
        keys[tuple(f.name for f in combination)] = ("aggregates", aggregate.name, "unique", index)
    return keys


def _new_unique_rules(name: str, stored: RAggregate, current: RAggregate) -> list[tuple[Loc, str]]:
    before = _unique_keys(stored)
    return [
        (
            loc,
            f"{name}'s {' + '.join(key)} is unique now, but the values stored before were "
            "never claimed (a unique rule holds only what is written after it; a renamed "
            "field's claims stay under its old name), so duplicates would pass: keep the "
            "rule as it was, or render with --allow-breaking for a service without data",
        )
        for key, loc in _unique_keys(current).items()
        if key not in before
    ]


def _events(old_domain: Domain, new_domain: Domain) -> list[tuple[Loc, str]]:
    old, new = old_domain.events, new_domain.events
    problems: list[tuple[Loc, str]] = []
    for name, stored in old.items():
        current = new.get(name)
        loc: Loc = ("events", name)
        if current is None:
            problems.append(
                (
                    loc,
                    f"{name} was removed, but stored {name} events cannot be read without it "
                    "(keep it, even if no command emits it any more)",
                )
            )
            continue
        if current.version < stored.version:
            problems.append(
                (
                    (*loc, "version"),
                    f"version {current.version} is below the {stored.version} "
                    "stored events may have",
                )
            )
        elif current.version == stored.version:
            problems.extend(_same_version(name, stored, current))
        else:
            problems.extend(_upcast_from_stored(name, stored, current))
    return problems


def _upcast_from_stored(name: str, stored: REvent, current: REvent) -> list[tuple[Loc, str]]:
    """The step from the stored version renames and removes only fields it has."""
    fields = {f.name for f in stored.fields}
    step = next((u for u in current.upcasts if u["from"] == stored.version), None)
    if step is None:
        return []
    loc: Loc = ("events", name, "upcasts", stored.version)
    named = [("rename", old) for old, _ in step["rename"]]
    named += [("remove", gone) for gone in step["remove"]]
    return [
        (
            (*loc, key),
            f"stored {name} events (v{stored.version}) have no {field!r} to {key} "
            f"(their fields: {', '.join(sorted(fields))})",
        )
        for key, field in named
        if field not in fields
    ]


def _same_version(name: str, stored: REvent, current: REvent) -> list[tuple[Loc, str]]:
    problems: list[tuple[Loc, str]] = []
    before = {f.name: f for f in stored.fields}
    bump = f"bump {name} to version {current.version + 1} with an upcast from {current.version}" + (
        "" if current.declared else f" (declare {name} under `events`)"
    )
    for field in current.fields:
        loc: Loc = ("events", name, "fields", field.name)
        old = before.get(field.name)
        if old is None and field.required:
            problems.append(
                (
                    loc,
                    f"stored {name} events (v{stored.version}) have no {field.name!r}: give it "
                    f"a default, make it optional, or {bump} that adds it",
                )
            )
        elif old is not None and old.full_type != field.full_type:
            problems.append(
                (
                    (*loc, "type"),
                    f"{field.name!r} was {old.full_type}, now {field.full_type}: stored events "
                    f"hold the old type; {bump}",
                )
            )
    return problems
