"""References held inside value objects: where an argument of a command holds them (an
order's lines, each naming a product), the code listing each value with its path (the use
case checks that each names an aggregate of the tenant), and whether the examples must
name one (the generated tests then make it first)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from generator.literals import json_literal, python_literal
from generator.resolved import RField
from generator.typeref import TypeRef

FIELD, LIST, MAP, OPTIONAL = "field", "list", "map", "optional"


@dataclass(frozen=True)
class Step:
    """One step from an argument to a reference inside it: a value object's field (its
    spec name and attribute), a list's or a map's items, or past a null."""

    kind: str
    name: str = ""
    attr: str = ""


@dataclass(frozen=True)
class Held:
    """A value object's field that references (``field``), as an argument reaches it."""

    field: RField
    steps: tuple[Step, ...]

    @property
    def needed(self) -> bool:
        """Whether every value of the argument holds it (no null on the way)."""
        return not self.field.optional and all(s.kind != OPTIONAL for s in self.steps)


def held_references(
    type_: TypeRef, values: Mapping[str, list[RField]], seen: frozenset[str] = frozenset()
) -> list[Held]:
    """The references the value objects a value of ``type_`` holds, at any depth."""
    if type_.kind == "optional":
        return _after(Step(OPTIONAL), held_references(type_.required(), values, seen))
    if type_.kind in (LIST, MAP):
        return _after(Step(type_.kind), held_references(type_.element, values, seen))
    if type_.kind != "value" or type_.name in seen:
        return []
    found: list[Held] = []
    for f in values.get(type_.name, []):
        step = Step(FIELD, f.name, f.attr)
        if f.references:
            found.append(Held(f, (step,)))
        found += _after(step, held_references(f.full_type, values, seen | {type_.name}))
    return found


def _after(step: Step, held: list[Held]) -> list[Held]:
    return [Held(h.field, (step, *h.steps)) for h in held]


def pairs_code(attr: str, name: str, held: Held) -> str:
    """A Python expression listing ``(path, value)`` for each value of the reference ``held``
    inside the argument ``attr`` (spec name ``name``): ``lines.1.productId`` and the id the
    second line gives (``member_path`` writes a map's keys as the domain's errors do)."""
    var, clauses = attr, []
    literal: str | None = name  # the path while no index or key is in it
    path = ""
    for index, step in enumerate(held.steps):
        item = f"_v{index}"
        if step.kind == OPTIONAL:
            clauses.append(f"for {item} in [{var}] if {item} is not None")
        elif step.kind in (LIST, MAP):
            key = f"_i{index}" if step.kind == LIST else f"_k{index}"
            items = f"enumerate({var})" if step.kind == LIST else f"{var}.items()"
            clauses.append(f"for {key}, {item} in {items}")
            path = f"member_path({_code(literal, path)}, {key})"
            literal = None
        else:
            item = f"{var}.{step.attr}"
            if literal is not None:
                literal += "." + step.name
            else:
                path += f" + {'.' + step.name!r}"
        var = item
    if held.field.type.kind == LIST:
        clauses.append(f"for _j, _ref in enumerate({var})")
        path, literal, var = f"member_path({_code(literal, path)}, _j)", None, "_ref"
    elif held.field.optional:
        clauses.append(f"for _ref in [{var}] if _ref is not None")
        var = "_ref"
    pair = f"({_code(literal, path)}, {var})"
    return f"[{pair} {' '.join(clauses)}]" if clauses else f"[{pair}]"


def _code(literal: str | None, path: str) -> str:
    return repr(literal) if literal is not None else path


def referenced_samples(
    value: Any, type_: TypeRef, values: Mapping[str, list[RField]]
) -> list[RField]:
    """The referencing fields whose values a sample ``value`` of ``type_`` holds (each
    once per value: the tests make one aggregate for each)."""
    if value is None:
        return []
    type_ = type_.required()
    if type_.kind == LIST and isinstance(value, list):
        return [f for item in value for f in referenced_samples(item, type_.element, values)]
    if type_.kind == MAP and isinstance(value, dict):
        return [
            f for item in value.values() for f in referenced_samples(item, type_.element, values)
        ]
    if type_.kind != "value" or not isinstance(value, dict):
        return []
    found: list[RField] = []
    for f in values.get(type_.name, []):
        if f.name not in value or value[f.name] is None:
            continue
        if f.references:
            count = len(value[f.name]) if f.type.kind == LIST else 1
            found += [f] * count
        else:
            found += referenced_samples(value[f.name], f.full_type, values)
    return found


def made_python(
    value: Any, type_: TypeRef, values: Mapping[str, list[RField]], made: Callable[[RField], str]
) -> str:
    """``value`` as a Python expression of the domain type, as ``python_literal`` writes it,
    but each reference inside a value object as the code ``made`` gives (the aggregate the
    tests make first)."""
    if value is None or type_.kind not in ("optional", LIST, MAP, "value"):
        return python_literal(value, type_, values)
    type_ = type_.required()
    if type_.kind == LIST:
        return "[" + ", ".join(made_python(v, type_.element, values, made) for v in value) + "]"
    if type_.kind == MAP:
        items = (f"{k!r}: {made_python(v, type_.element, values, made)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    args = []
    for f in values.get(type_.name, []):
        if f.name not in value:
            continue
        given = value[f.name]
        if f.references and given is not None:
            code = "[" + ", ".join(made(f) for _ in given) + "]" if f.type.kind == LIST else made(f)
        else:
            code = made_python(given, f.full_type, values, made)
        args.append(f"{f.attr}={code}")
    return f"{type_.name}({', '.join(args)})"


def made_json(
    value: Any, type_: TypeRef, values: Mapping[str, list[RField]], made: Callable[[RField], str]
) -> str:
    """``value`` as a Python expression of its JSON data, as ``json_literal`` writes it, but
    each reference inside a value object as the code ``made`` gives."""
    if value is None or type_.kind not in ("optional", LIST, MAP, "value"):
        return json_literal(value)
    type_ = type_.required()
    if type_.kind == LIST:
        return "[" + ", ".join(made_json(v, type_.element, values, made) for v in value) + "]"
    if type_.kind == MAP:
        pairs = (f"{k!r}: {made_json(v, type_.element, values, made)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    fields = {f.name: f for f in values.get(type_.name, [])}
    items = []
    for name, given in value.items():
        f = fields.get(name)
        if f is not None and f.references and given is not None:
            code = "[" + ", ".join(made(f) for _ in given) + "]" if f.type.kind == LIST else made(f)
        elif f is not None:
            code = made_json(given, f.full_type, values, made)
        else:
            code = json_literal(given)
        items.append(f"{name!r}: {code}")
    return "{" + ", ".join(items) + "}"
