"""Spec changes that would break a service's stored data: an event that gains a required
field, changes a field's type or disappears at the same schema version cannot be read
back from data written before (and neither can the aggregates and read models built from
it); nor can an enum member removed, or a value-object field new and required (or of
another type), where stored events hold them; an upcast from the stored version that
renames or removes a field that version does not have fails on every stored event; a
unique value or combination that is new (a new rule, or a renamed field) holds nothing
for the values already stored, which were never claimed. `generate render` refuses them,
located where the spec makes them, saying how to evolve the spec instead; it warns of a
rule narrowed over stored aggregates (readable still, but failing their next command)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, NamedTuple

from generator.resolve import resolve
from generator.resolved import Domain, Loc, RAggregate, REvent, RField, listed
from generator.spec import Spec
from generator.typeref import TypeRef


class Breaking(NamedTuple):
    """A change that stored data cannot take: where the spec makes it, what breaks, and the
    events whose stored payloads it concerns (their consumers break too)."""

    loc: Loc
    message: str
    events: tuple[str, ...] = ()


def breaking_changes(before: Spec, after: Spec) -> list[Breaking]:
    """What in ``after`` cannot read (or keep the rules of) the data ``before`` stored."""
    return stored_data_breaks(resolve(before), resolve(after))


def stored_data_breaks(old_domain: Domain, new_domain: Domain) -> list[Breaking]:
    """``breaking_changes`` of two resolved specs."""
    problems = _events(old_domain, new_domain)
    problems += _stored_types(old_domain, new_domain)
    for name, aggregate in new_domain.aggregates.items():
        stored = old_domain.aggregates.get(name)
        if stored is not None:
            problems += [Breaking(*p) for p in _new_unique_rules(name, stored, aggregate)]
            problems += [Breaking(*p) for p in _new_key(name, stored, aggregate)]
            problems += [Breaking(*p) for p in _new_secrets(name, stored, aggregate)]
    return problems


def _new_secrets(name: str, stored: RAggregate, current: RAggregate) -> list[tuple[Loc, str]]:
    """A stored field that is now kept otherwise (hashed, sealed, or in plain again): the
    values stored before are not what the service now reads."""
    found = []
    for field in current.fields:
        before = stored.field(field.name)
        if before is not None and before.secret != field.secret:
            said = {"given": "true"}
            was = f"secret: {said.get(before.secret, before.secret)}" if before.secret else "plain"
            now = f"secret: {said.get(field.secret, field.secret)}" if field.secret else "plain"
            found.append(
                (
                    (*field.loc, "secret"),
                    f"{name}.{field.name} was {was} and is {now}: the values stored before"
                    " stay as they were written, which the service would read as the new"
                    " kind (a sealed one would not open); add a new field instead, or render"
                    " with --allow-breaking for a service without data",
                )
            )
    return found


def _new_key(name: str, stored: RAggregate, current: RAggregate) -> list[tuple[Loc, str]]:
    """A key (or another key) on an aggregate that has stored ones: their ids were not
    derived from it, so a second aggregate with the same values would not be refused."""
    before = (
        [f.name for f in stored.key],
        stored.key_namespace,
        stored.key_label,
        stored.key_ignore_case,
    )
    after = (
        [f.name for f in current.key],
        current.key_namespace,
        current.key_label,
        current.key_ignore_case,
    )
    if not current.key or before == after:
        return []
    fields = " + ".join(after[0])
    if not stored.key:
        change = f"{name}'s id is derived from {fields} now"
    elif before[0] != after[0]:
        change = f"{name}'s key was {' + '.join(before[0])}, it is {fields} now"
    else:
        what = (
            "another namespace"
            if before[1] != after[1]
            else "another label"
            if before[2] != after[2]
            else "ignores case"
            if after[3]
            else "no longer ignores case"
        )
        change = f"{name}'s key {'has ' if what.startswith('another') else ''}{what} now"
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


def _events(old_domain: Domain, new_domain: Domain) -> list[Breaking]:
    old, new = old_domain.events, new_domain.events
    problems: list[Breaking] = []
    for name, stored in old.items():
        current = new.get(name)
        applied = _applied_by(stored, old_domain, new_domain)
        if applied is not None and (current is None or current.aggregate is None):
            # the aggregate still reads its stream, where the event changed its state
            aggregate, command = applied
            kept = new_domain.aggregates[aggregate].command(command)
            problems.append(
                Breaking(
                    _emitted_at(name, stored, old_domain, new_domain),
                    f"{name} is emitted by no command of {aggregate} any more, but the stored"
                    f" {aggregate}s that hold one apply it when they are read: "
                    + (
                        f"keep {command!r} emitting {name} (the stored events are known by"
                        " that name: it is never renamed)"
                        if kept is not None
                        else f"keep the command {command!r} (no endpoint need serve it) so"
                        " that they still can"
                    ),
                    (name,),
                )
            )
            continue
        if current is None:
            problems.append(
                Breaking(
                    _emitted_at(name, stored, old_domain, new_domain),
                    f"{name} was removed, but stored {name} events cannot be read without it "
                    + (
                        "(keep it, even if no command emits it any more)"
                        if stored.declared
                        else f"(declare it under `events` with the fields it had: "
                        f"{', '.join(f'{f.name}: {f.full_type}' for f in stored.fields)})"
                    ),
                    (name,),
                )
            )
            continue
        if current.version < stored.version:
            problems.append(
                Breaking(
                    ("events", name, "version"),
                    f"version {current.version} is below the {stored.version} "
                    "stored events may have",
                    (name,),
                )
            )
        elif current.version == stored.version:
            problems.extend(_same_version(name, stored, current, new_domain))
        else:
            problems.extend(_upcast_from_stored(name, stored, current))
    return problems


def _applied_by(stored: REvent, old_domain: Domain, new_domain: Domain) -> tuple[str, str] | None:
    """The aggregate (still in the spec) whose command emitted ``stored``, and that
    command, if the event changed its state (its stored ones apply it when read)."""
    if stored.aggregate is None or stored.aggregate not in new_domain.aggregates:
        return None
    command = _emitting(stored, old_domain)
    return (stored.aggregate, command) if command is not None else None


def _emitting(stored: REvent, old_domain: Domain) -> str | None:
    """The name of the command of the old spec that emitted ``stored``, if any."""
    if stored.aggregate is None:
        return None
    commands = old_domain.aggregates[stored.aggregate].commands
    return next((c.name for c in commands if c.event == stored.name), None)


def _emitted_at(name: str, stored: REvent, old_domain: Domain, new_domain: Domain) -> Loc:
    """Where the spec made event ``name`` that it no longer has: under `events` if it was
    declared, else the command that emitted it (or its aggregate) as far as they remain."""
    if stored.declared or stored.aggregate is None:
        return ("events", name)
    aggregate = new_domain.aggregates.get(stored.aggregate)
    if aggregate is None:
        return ("aggregates",)
    command = _emitting(stored, old_domain)
    current = aggregate.command(command) if command else None
    return (*current.loc, "emits") if current else (*aggregate.loc, "commands")


def _field_loc(event: REvent, field: RField) -> Loc:
    """Where the user edits ``field`` of ``event``: under `events` when it is declared, else
    the aggregate's field (or the command's input) the emitting command carries."""
    return ("events", event.name, "fields", field.name) if event.declared else field.loc


def _upcast_from_stored(name: str, stored: REvent, current: REvent) -> list[Breaking]:
    """The step from the stored version renames and removes only fields it has."""
    fields = {f.name for f in stored.fields}
    step = next((u for u in current.upcasts if u["from"] == stored.version), None)
    if step is None:
        return []
    loc: Loc = ("events", name, "upcasts", stored.version)
    named = [("rename", old) for old, _ in step["rename"]]
    named += [("remove", gone) for gone in step["remove"]]
    renamed = dict(step["rename"])
    named += [  # a decoded field, by the name the stored events have
        ("decode", next((old for old, new in renamed.items() if new == text), text))
        for text in step["decode"]
    ]
    problems = [
        Breaking(
            (*loc, key),
            f"stored {name} events (v{stored.version}) have no {field!r} to {key} "
            f"(their fields: {', '.join(sorted(fields))})",
            (name,),
        )
        for key, field in named
        if field not in fields
    ]
    if not problems:  # (a step naming a field the stored events lack says it already)
        problems += _not_given_by_upcasts(name, stored, current)
        problems += _retyped(name, stored, current)
    types = {f.name: f.type for f in stored.fields}
    problems += [
        Breaking(
            (*loc, key),
            f"stored {name} events (v{stored.version}) hold {field!r} as {types[field]}, "
            "not as JSON text (str) to decode",
            (name,),
        )
        for key, field in named
        if key == "decode" and field in types and not types[field].is_scalar("str")
    ]
    return problems


def _steps_since(current: REvent, version: int) -> list[dict[str, Any]]:
    """The upcast steps that events stored at ``version`` go through, in order."""
    steps = [step for step in current.upcasts if step["from"] >= version]
    return sorted(steps, key=lambda step: int(step["from"]))


def _given_by(step: dict[str, Any]) -> set[str]:
    """The fields an upcast step gives the next version: added, computed or renamed into."""
    return (
        {added for added, _ in step["add"]}
        | {computed["field"].name for computed in step["compute"]}
        | {new for _, new in step["rename"]}
    )


def _taken_by(step: dict[str, Any]) -> set[str]:
    """The fields an upcast step takes away: removed, or renamed from."""
    return set(step["remove"]) | {old for old, _ in step["rename"]}


def _not_given_by_upcasts(name: str, stored: REvent, current: REvent) -> list[Breaking]:
    """A required field of the current version that the stored events do not hold and no
    step from their version adds (renames into, or computes): they could not be read."""
    held = {f.name for f in stored.fields}
    for step in _steps_since(current, stored.version):
        held = (held - _taken_by(step)) | _given_by(step)
    last = current.version - 1
    steps = {int(step["from"]) for step in current.upcasts}
    loc: Loc = ("events", name, "upcasts", *((last,) if last in steps else ()))
    return [
        Breaking(
            loc,
            f"stored {name} events (v{stored.version}) have no {field.name!r} and no upcast"
            f" gives it: add it in the upcast from {last} (add: {{{field.name}: <value>}}),"
            " give it a default, or make it optional",
            (name,),
        )
        for field in current.fields
        if field.required and field.name not in held
    ]


# the stored values a field of another type still reads as it is (a number as a wider one)
_READS_AS = {("int", "float"), ("int", "decimal"), ("decimal", "float")}


def _reads_as(old: TypeRef, new: TypeRef) -> bool:
    return (
        old == new
        or new.is_scalar("json")
        or (old.is_scalar() and new.is_scalar() and (old.name, new.name) in _READS_AS)
    )


def _retyped(name: str, stored: REvent, current: REvent) -> list[Breaking]:
    """A field the stored events hold by the name the current version has, of a type it
    reads otherwise, that no step from their version turns into it (an empty upcast
    converts nothing: the stored text 'ann' is no int)."""
    touched: set[str] = set()
    for step in _steps_since(current, stored.version):
        touched |= _taken_by(step) | _given_by(step) | set(step["decode"])
    before = {f.name: f for f in stored.fields}
    return [
        Breaking(
            (*_field_loc(current, field), "type"),
            f"stored {name} events (v{stored.version}) hold {field.name!r} as"
            f" {before[field.name].type}, which version {current.version} reads as"
            f" {field.type} and no upcast turns into it: keep its type and add a field of the"
            " new type (another name), removing this one in the upcast",
            (name,),
        )
        for field in current.fields
        if field.name in before
        and field.name not in touched
        and not _reads_as(before[field.name].type, field.type)
    ]


def _same_version(name: str, stored: REvent, current: REvent, domain: Domain) -> list[Breaking]:
    problems: list[Breaking] = []
    before = {f.name: f for f in stored.fields}
    bump = f"bump {name} to version {current.version + 1} with an upcast from {current.version}" + (
        "" if current.declared else f" (declare {name} under `events`)"
    )
    now = {f.name for f in current.fields}
    for field in current.fields:
        loc = _field_loc(current, field)
        named = repr(field.name) if current.declared else f"{name}.{field.name}"
        old = before.get(field.name)
        if old is None and field.required:
            # a stored field of its type that the event no longer has: renamed, likely
            was = [
                f.name
                for f in stored.fields
                if f.name not in now and f.full_type == field.full_type
            ]
            how = f"renames {was[0]!r} to it (or adds it)" if len(was) == 1 else "adds it"
            problems.append(
                Breaking(
                    loc,
                    f"stored {name} events (v{stored.version}) have no {field.name!r}: give it "
                    f"a default, make it optional, or {bump} that {how}",
                    (name,),
                )
            )
        elif old is not None and old.full_type != field.full_type:
            problems.append(
                Breaking(
                    (*loc, "type"),
                    f"{named} was {old.full_type}, now {field.full_type}: stored events hold "
                    f"the old type; {bump}",
                    (name,),
                )
            )
    return problems


def _stored_types(old_domain: Domain, new_domain: Domain) -> list[Breaking]:
    """Enums and value objects in stored events, changed so that what was written with them
    cannot be read back: a member removed (or renamed), a value-object field that is new and
    required, or that changed type (at any depth: in a list, a map, another value object)."""
    changes = _type_changes(old_domain, new_domain)
    if not changes:
        return []
    holders: dict[str, dict[str, str]] = {}  # type -> where stored events hold it -> event
    for stored in old_domain.events.values():
        current = new_domain.events.get(stored.name)
        read = {f.name: f for f in current.fields} if current else {}
        for field, name in _read_back(stored, current):
            now = read.get(name)
            if now is None or now.full_type != field.full_type:
                continue  # not read, or a changed type reported as one
            where = (
                f"{stored.name}.{field.name}"
                if stored.declared
                else f"{stored.aggregate}.{field.name} in {stored.name}"
            )
            for held in _held(field.type, old_domain, set()):
                holders.setdefault(held, {})[where] = stored.name
    return [
        Breaking(
            loc,
            f"{change}, but stored events hold {name} ({listed(holders[name])}) and could "
            f"not be read back: {advice}, or render with --allow-breaking for a service "
            "without data",
            tuple(dict.fromkeys(holders[name].values())),
        )
        for name, found in changes.items()
        if name in holders
        for loc, change, advice in found
    ]


def _type_changes(old_domain: Domain, new_domain: Domain) -> dict[str, list[tuple[Loc, str, str]]]:
    """By enum or value object: where it changed so its stored data cannot be read, how,
    and what to do instead."""
    changes: dict[str, list[tuple[Loc, str, str]]] = {}
    for name, members in old_domain.enums.items():
        now = new_domain.enums.get(name)
        gone = [repr(m) for m in members if now is not None and m not in now]
        if gone:
            changes[name] = [
                (
                    ("enums", name),
                    f"{name} no longer has {', '.join(gone)}",
                    "keep every member, even one nothing sets any more (renaming one removes"
                    " it; an upcast cannot map a stored value to another)",
                )
            ]
    for name, value in old_domain.values.items():
        current = new_domain.values.get(name)
        before = {f.name: f for f in value.fields}
        for field in current.fields if current else []:
            old = before.get(field.name)
            if old is None and field.required:
                change = (
                    field.loc,
                    f"{name} gained the required {field.name!r}",
                    "give it a default or make it optional",
                )
            elif old is not None and old.full_type != field.full_type:
                change = (
                    (*field.loc, "type"),
                    f"{name}.{field.name} was {old.full_type}, now {field.full_type}",
                    "keep its type (add a field of the new type instead)",
                )
            else:
                continue
            changes.setdefault(name, []).append(change)
    return changes


def _read_back(stored: REvent, current: REvent | None) -> list[tuple[RField, str]]:
    """The fields of ``stored`` events that ``current`` reads (through the upcasts from the
    stored version), with the name each is read under."""
    if current is None:
        return []
    read = []
    for field in stored.fields:
        name: str | None = field.name
        for step in current.upcasts:
            if name is not None and step["from"] >= stored.version:
                name = dict(step["rename"]).get(name, name)
                name = None if name in step["remove"] else name
        if name is not None:
            read.append((field, name))
    return read


def _held(type_: TypeRef, domain: Domain, seen: set[str]) -> set[str]:
    """The enums and value objects data of ``type_`` may hold, at any depth."""
    held: set[str] = set()
    for part in type_.walk():
        if part.kind in ("enum", "value") and part.name not in seen:
            seen.add(part.name)
            held.add(part.name)
            value = domain.values.get(part.name) if part.kind == "value" else None
            for field in value.fields if value else []:
                held |= _held(field.type, domain, seen)
    return held


def narrowed_rules(old_domain: Domain, new_domain: Domain) -> list[tuple[Loc, str]]:
    """Rules that are new or narrower on what stored aggregates hold (their fields, the
    value objects in them): the data stays readable, but an aggregate whose stored value
    breaks the rule fails each later command that does not give it a valid one."""
    owners: list[tuple[str, list[RField], list[RField]]] = []
    held: set[str] = set()
    for name, aggregate in old_domain.aggregates.items():
        current = new_domain.aggregates.get(name)
        if current is not None:
            owners.append((name, aggregate.fields, current.fields))
        for field in aggregate.fields:
            held |= _held(field.type, old_domain, set())
    for name in sorted(held & old_domain.values.keys() & new_domain.values.keys()):
        owners.append((name, old_domain.values[name].fields, new_domain.values[name].fields))
    found: list[tuple[Loc, str]] = []
    # a field an upcast renames holds what the old one stored
    renamed_from = {new: old for old, new in _declared_renames(new_domain)}
    for owner, stored_fields, fields in owners:
        stored = {f.name: f for f in stored_fields}
        for field in fields:
            old = stored.get(field.name) or stored.get(renamed_from.get(field.name, ""))
            if old is None or field.secret or old.type != field.type:
                continue  # (a new type is refused, or read anew, on its own)
            for where, rules, was, noun in (
                ((), field.rules, old.rules, ""),
                (("items",), field.item_rules, old.item_rules, "items' "),
                (("keys",), field.key_rules, old.key_rules, "keys' "),
            ):
                before_rules = dict(was)
                for key, value in rules:
                    if _narrower(key, before_rules.get(key), value):
                        change = (
                            f"was {before_rules[key]!r}, now {value!r}"
                            if key in before_rules
                            else "is new"
                        )
                        found.append(
                            (
                                (*field.loc, *where, key),
                                f"{owner}.{field.name}'s {noun}{key} {change}: stored values"
                                " that break it stay readable, but an aggregate holding one"
                                " fails (422) each command that does not set a valid one;"
                                " check the stored data first",
                            )
                        )
    found += _new_invariants(old_domain, new_domain, held)
    return found + _new_sharing(old_domain, new_domain) + _lost_defaults(old_domain, new_domain)


def _lost_defaults(old_domain: Domain, new_domain: Domain) -> list[tuple[Loc, str]]:
    """Event fields that had a default (or were optional) and are required now, read from
    the stored events as they are: events stored before the field was added lack it (the
    default stood in for it), and would no longer be read."""
    found: list[tuple[Loc, str]] = []
    for name, current in new_domain.events.items():
        stored = old_domain.events.get(name)
        if stored is None:
            continue
        before = {f.name: f for f in stored.fields}
        given = {n for step in _steps_since(current, stored.version) for n in _given_by(step)}
        for field in current.fields:
            old = before.get(field.name)
            if old is None or old.required or not field.required or field.name in given:
                continue
            found.append(
                (
                    _field_loc(current, field),
                    f"{name}.{field.name} had a default (or was optional) and is required"
                    f" now: if it came after {name} events were stored (a field added with"
                    " a default takes no new version), those lack it and would no longer be"
                    " read (500); keep its default, or add it in an upcast",
                )
            )
    return found


def _new_sharing(old_domain: Domain, new_domain: Domain) -> list[tuple[Loc, str]]:
    """Keys newly shared between aggregates that both had stored ones: a value each holds
    already stays with both; only new ones are refused."""
    found: list[tuple[Loc, str]] = []
    said: set[frozenset[str]] = set()
    for name, current in new_domain.aggregates.items():
        stored = old_domain.aggregates.get(name)
        for other in current.key_shared:
            pair = frozenset((name, other))
            if stored is None or other in stored.key_shared or pair in said:
                continue
            if other not in old_domain.aggregates:
                continue  # it has no stored ones
            said.add(pair)
            found.append(
                (
                    (*current.loc, "key"),
                    f"{name}'s key is shared with {other}'s now: a value both hold already"
                    " stays with both (only new ones are refused); check the stored data"
                    " first",
                )
            )
    return found


def _new_invariants(
    old_domain: Domain, new_domain: Domain, held: set[str]
) -> list[tuple[Loc, str]]:
    """Invariants that are new on stored aggregates (or on the value objects they hold):
    one a stored aggregate breaks is reported by its next command, as a narrower rule is."""
    owners = [
        (name, old.invariants, new_domain.aggregates[name].invariants)
        for name, old in old_domain.aggregates.items()
        if name in new_domain.aggregates
    ] + [
        (name, old_domain.values[name].invariants, new_domain.values[name].invariants)
        for name in sorted(held & old_domain.values.keys() & new_domain.values.keys())
    ]
    found: list[tuple[Loc, str]] = []
    for owner, stored, current in owners:
        # by their text: a field's new type changes the checked expression, not the rule
        known = [invariant.text for invariant in stored]
        for invariant in current:
            if invariant.text not in known:
                found.append(
                    (
                        (*invariant.loc, "check"),
                        f"{owner}'s invariant {invariant.text!r} is new: stored aggregates"
                        " that break it stay readable, but each fails (422) every command"
                        " until a command sets what it checks; check the stored data first",
                    )
                )
    return found


def _declared_renames(domain: Domain) -> set[tuple[str, str]]:
    """The (old, new) field names the upcasts of ``domain``'s events rename."""
    return {
        (old, new)
        for event in domain.events.values()
        for upcast in event.upcasts
        for old, new in upcast.get("rename", [])
    }


def _unfollowed(old_domain: Domain, new_domain: Domain, aggregate: str, field: str) -> list[str]:
    """The events of ``aggregate`` stored with ``field`` that read it as nothing now: the
    event no longer carries it, and no upcast step since the stored version renames it
    into another or removes it (an implicit event follows its command's fields)."""
    found = []
    for name, stored in old_domain.events.items():
        current = new_domain.events.get(name)
        if (
            stored.aggregate != aggregate
            or current is None
            or all(f.name != field for f in stored.fields)
            or any(f.name == field for f in current.fields)
        ):
            continue
        if not any(field in _taken_by(step) for step in _steps_since(current, stored.version)):
            found.append(name)
    return found


def likely_renames(old_domain: Domain, new_domain: Domain) -> list[tuple[Loc, str]]:
    """An aggregate field that is new (optional, or with a default) where one of its type
    is gone: a rename, most likely, which the stored events do not follow: the values
    stored under the old name read as the new field's default. Each event stored with the
    old name must follow it: an upcast of one of them does not rename it in the others."""
    found: list[tuple[Loc, str]] = []
    declared = _declared_renames(new_domain)
    for name, current in new_domain.aggregates.items():
        stored = old_domain.aggregates.get(name)
        if stored is None:
            continue
        now = {f.name for f in current.fields}
        # a field every stored event renames (into another) or removes is not lost unawares
        unfollowed = {
            f.name: _unfollowed(old_domain, new_domain, name, f.name)
            for f in stored.fields
            if f.name not in now
        }
        gone = [f for f in stored.fields if unfollowed.get(f.name)]
        for field, was in _renamed(stored.fields, current.fields, gone):
            events = unfollowed[was]
            step = f"{{rename: {{{was}: {field.name}}}}}"
            if (was, field.name) in declared:
                found.append(
                    (
                        field.loc,
                        f"{name}.{was} is renamed {field.name!r} by an upcast, but"
                        f" {listed(events)} {'is' if len(events) == 1 else 'are'} stored"
                        f" with {was!r} too, and without that upcast read as the"
                        f" default of {field.name!r}: declare {listed(events)} under"
                        f" `events` with a new version and the same upcast ({step})",
                    )
                )
                continue
            found.append(
                (
                    field.loc,
                    f"{name}.{field.name} is new and {name}.{was} is gone, both"
                    f" {field.type}: if this is a rename, what is stored as {was!r}"
                    f" is not read as {field.name!r} (it reads as its default); declare the"
                    f" events that carry it ({listed(events)}) with a new version and an"
                    f" upcast that renames it ({step}), or one that removes it"
                    f" ({{remove: [{was}]}}) if its values are to be dropped",
                )
            )
    return found + _renamed_value_fields(old_domain, new_domain)


def _renamed(
    stored: list[RField], current: list[RField], gone: list[RField]
) -> list[tuple[RField, str]]:
    """Each field of ``current`` that is new and optional (or defaulted) with the one of
    ``gone`` of its type it was renamed from, most likely (a required field renamed into an
    optional one drops its values as well)."""
    before = {f.name for f in stored}
    found = []
    for field in current:
        was = [f.name for f in gone if f.type == field.type]
        if field.name not in before and not field.required and len(was) == 1:
            found.append((field, was[0]))
    return found


def _renamed_value_fields(old_domain: Domain, new_domain: Domain) -> list[tuple[Loc, str]]:
    """A value object's field that is new (optional, or with a default) where one of its
    type is gone, in a value object the stored events hold: its stored values read as the
    default, and no upcast renames a value object's field."""
    held: set[str] = set()
    for event in old_domain.events.values():
        for field in event.fields:
            held |= _held(field.type, old_domain, set())
    found: list[tuple[Loc, str]] = []
    for name in sorted(held & old_domain.values.keys() & new_domain.values.keys()):
        stored, current = old_domain.values[name], new_domain.values[name]
        now = {f.name for f in current.fields}
        gone = [f for f in stored.fields if f.name not in now]
        for field, was in _renamed(stored.fields, current.fields, gone):
            found.append(
                (
                    field.loc,
                    f"{name}.{field.name} is new and {name}.{was} is gone, both"
                    f" {field.type}: if this is a rename, what the stored events hold as"
                    f" {was!r} is not read as {field.name!r} (it reads as its default), and"
                    f" no upcast renames a value object's field: keep the name {was!r}, or"
                    " render with --allow-breaking if its values are to be dropped",
                )
            )
    return found


def _narrower(key: str, old: Any, new: Any) -> bool:
    """Whether rule ``key`` at ``new`` may refuse a value it let through at ``old``."""
    if old is None:
        return new is not False
    if key in ("min", "min_length"):
        return Decimal(str(new)) > Decimal(str(old))
    if key in ("max", "max_length", "scale"):
        return Decimal(str(new)) < Decimal(str(old))
    if key == "not_blank":
        return bool(new) and not old
    return bool(new != old)  # another text or pattern may refuse what the old one took
