"""Spec changes that would break a service's stored events: an event that gains a required
field, changes a field's type or disappears at the same schema version cannot be read
back from data written before (and neither can the aggregates and read models built from
it). `generate render` refuses them, saying how to evolve the event instead."""

from __future__ import annotations

from generator.resolve import resolve
from generator.resolved import Loc, REvent
from generator.spec import Spec


def breaking_changes(before: Spec, after: Spec) -> list[tuple[Loc, str]]:
    """What in ``after`` cannot read the events ``before`` may have stored."""
    old, new = resolve(before).events, resolve(after).events
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
    return problems


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
