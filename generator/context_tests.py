"""What the generated tests do, worked out from the spec: how to make each aggregate (with
the aggregates it references made first), the sample arguments of every command, and the
commands to run before one so that its guard holds, or fails."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from generator import naming
from generator.context_domain import (
    AggregateCtx,
    ArgumentSample,
    CommandCtx,
    CommandTests,
    ReferenceSample,
    catalog_of,
)
from generator.context_fields import FieldCtx
from generator.expr_code import today_and_now
from generator.held import held_references, made_json, made_python, referenced_samples
from generator.resolved import Domain, Loc, RAggregate, RCommand, RField
from generator.scenarios import Prepared, ScenarioError, Simulator
from generator.values import Catalog, Invalid, sample


@dataclass
class PreparedReference(ReferenceSample):
    """A referenced aggregate as the tests make it for one command: ``new_<maker>`` (the
    services' tests) or ``create_<maker>`` (the HTTP tests) makes it and runs ``steps``
    on it (the methods of its commands), so that the command's ``also`` accepts it, which
    then changes its fields ``changes`` (attributes). Without steps, ``maker`` is
    ``snake``: the aggregate as the examples make it."""

    maker: str = ""
    steps: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)


def argument(
    field_: FieldCtx,
    aggregates: dict[str, AggregateCtx],
    made: bool = True,
    prepared: Prepared | None = None,
    maker: str = "",
) -> ArgumentSample:
    """A sample argument: its Python and JSON values, and the aggregate it references
    (``made``: the tests make one first, which an optional reference gets only when making
    it cannot lead back to its owner; ``prepared``: the commands an ``also`` of the command
    needs run on it first, in a helper named after ``maker``)."""
    reference = None
    if field_.references and field_.references in aggregates:
        target = aggregates[field_.references]
        convert = "UUID({})" if field_.element == "uuid" else "{}"
        # a list the sample leaves empty (`default: []`) names none: one that would lead
        # back to its own aggregate is passed empty
        made = made or (not field_.optional and (field_.kind != "list" or bool(field_.sample)))
        ready = prepared is not None and made and field_.kind != "list"
        key = next((f for f in target.key.fields), None) if target.key else None
        by_key = key if field_.references_key and key is not None else None
        reference = PreparedReference(
            target=target.name,
            snake=target.snake,
            many=field_.kind == "list",
            optional=field_.optional,
            made=made,
            convert=convert,
            pick=f"{{}}.{by_key.attr}" if by_key else convert.format("{}.id"),
            json_key=by_key.name if by_key else target.view_id,
            missing=by_key.unused_py if by_key else convert.format("str(uuid4())"),
            missing_json=by_key.unused_json if by_key else "str(uuid.uuid4())",
            maker=maker if ready and maker else target.snake,
            steps=_methods(target, prepared.steps) if ready and prepared else [],
            changes=_attrs(target, prepared.changed) if ready and prepared else [],
        )
    fresh = reference is not None and reference.made
    return ArgumentSample(
        name=field_.name,
        attr=field_.attr,
        py=field_.sample_py,
        json=field_.sample_json,
        reference=reference,
        # distinct examples of a unique field, or of one field of a unique combination
        # (a reference the tests make is distinct already: a new aggregate each time)
        distinct_py=field_.distinct_py if len(field_.distinct_py) > 1 and not fresh else [],
        distinct_json=field_.distinct_json if len(field_.distinct_json) > 1 and not fresh else [],
        key=f"{field_.name}",
    )


def creation_order(domain: Domain) -> dict[str, list[str]]:
    """For each aggregate, the aggregates its first creating command references (made
    first in tests); a cycle leaves the rest out (validate refuses cycles)."""
    needs: dict[str, list[str]] = {}
    catalog = catalog_of(domain)
    for name, aggregate in domain.aggregates.items():
        creator = next((c for c in aggregate.commands if c.creates), None)
        refs = (
            []
            if creator is None
            else [
                f.references
                for f in creator.arguments
                if f.references
                and not f.optional
                and (_sampled(f, catalog) or not _leads_back(domain, name, f.references))
            ]
            + [str(f.references) for f in _held_in_samples(catalog, creator)]
        )
        needs[name] = [r for r in dict.fromkeys(refs) if r in domain.aggregates]
    return needs


def _leads_back(domain: Domain, name: str, target: str) -> bool:
    """Whether making ``target`` may need a ``name`` first (or is one)."""
    return target == name or name in _reachable(domain, target)


def _sampled(field_: RField, catalog: Catalog) -> bool:
    """Whether the tests' sample of a reference names an aggregate: a list of them may be
    empty (``default: []``), which names none."""
    if field_.type.kind != "list":
        return True
    try:
        return bool(sample(field_, catalog))
    except Invalid:
        return True


def _held_in_samples(catalog: Catalog, command: RCommand) -> list[RField]:
    """The references inside value objects that the samples of ``command``'s required
    arguments hold (the tests make what each names first; an optional one that would
    lead back is null in them: ``unmade_references``)."""
    held: list[RField] = []
    for f in command.arguments:
        if f.optional or not held_references(f.full_type, catalog.values):
            continue
        try:
            held += referenced_samples(sample(f, catalog), f.full_type, catalog.values)
        except Invalid:
            continue
    return held


def _reachable(domain: Domain, start: str) -> set[str]:
    """The aggregates whose creation making ``start`` may involve, through any reference
    of a creating command, optional ones included."""
    values = catalog_of(domain).values
    edges = {
        name: {
            target
            for c in aggregate.commands
            if c.creates
            for f in c.arguments
            for target in [f.references]
            + [h.field.references for h in held_references(f.full_type, values)]
            if target and target in domain.aggregates
        }
        for name, aggregate in domain.aggregates.items()
    }
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in edges.get(todo.pop(), set()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def unmade_references(domain: Domain) -> frozenset[Loc]:
    """The optional references of commands that the tests do not make first (its own
    aggregate, or one whose making may lead back to it; ``made`` is False for them), by
    location: their sample is null unless the spec gives an example (Catalog)."""
    values = catalog_of(domain).values
    return frozenset(
        f.loc
        for name, aggregate in domain.aggregates.items()
        for command in aggregate.commands
        for f in command.arguments
        if f.optional
        for target in [f.references]
        + [h.field.references for h in held_references(f.full_type, values)]
        if target in domain.aggregates and _leads_back(domain, name, target or "")
    )


def reference_cycle(domain: Domain) -> list[str] | None:
    """A cycle of creating commands that each need the next to exist, if any."""
    needs = creation_order(domain)

    def visit(name: str, path: list[str]) -> list[str] | None:
        for target in needs.get(name, []):
            if target in path:
                return [*path[path.index(target) :], target]
            found = visit(target, [*path, target])
            if found:
                return found
        return None

    for name in needs:
        cycle = visit(name, [name])
        if cycle:
            return cycle
    return None


def add_scenarios(domain: Domain, catalog: Catalog, aggregates: dict[str, AggregateCtx]) -> None:
    """Fill ``tests`` of every aggregate and command context."""
    today, now = today_and_now()
    simulator = Simulator(domain, catalog, today, now)
    needs = creation_order(domain)
    for name, aggregate in domain.aggregates.items():
        ctx = aggregates[name]
        ctx.extra.needs = needs[name]
        for command_ctx in ctx.commands:
            command = aggregate.command(command_ctx.name)
            assert command is not None
            prepared = _prepared(simulator, aggregate, command)
            command_ctx.tests = CommandTests(
                args=[
                    argument(
                        f,
                        aggregates,
                        made=bool(f.references)
                        and not _leads_back(domain, name, f.references or ""),
                        prepared=prepared.get(f.name),
                        maker=_maker(f, ctx, command, prepared),
                    )
                    for f in command_ctx.arguments
                ],
                ok=_path(simulator, aggregate, command_ctx, allowed=True),
                refused=_path(simulator, aggregate, command_ctx, allowed=False)
                if command.when is not None
                else None,
                error=command_ctx.guard_error or "CommandNotAllowedError",
            )
            for sample_ctx, f in zip(command_ctx.tests.args, command.arguments, strict=True):
                _make_held(sample_ctx, f, command_ctx, catalog.values, aggregates)
        ctx.extra.replay = _replayable(simulator, aggregate, ctx)


def _make_held(
    argument_: ArgumentSample,
    f: RField,
    command: CommandCtx,
    values: Mapping[str, list[RField]],
    aggregates: dict[str, AggregateCtx],
) -> None:
    """Name, in ``argument_``'s made samples, an aggregate the tests make for each reference
    its value objects hold (by its id, or its key's value)."""
    if not held_references(f.full_type, values):
        return
    value = next(a.sample for a in command.arguments if a.name == f.name)
    held = referenced_samples(value, f.full_type, values)
    if not held:
        return

    def picked(ref: RField) -> tuple[AggregateCtx, str, str]:
        target = aggregates[str(ref.references)]
        key = target.key.fields[0] if target.key and ref.references_key else None
        element = ref.type.element if ref.type.kind == "list" else ref.type
        convert = "UUID({})" if element.is_scalar("uuid") else "{}"
        pick = f"{{}}.{key.attr}" if key else convert.format("{}.id")
        return target, pick, key.name if key else target.view_id

    def made_py(ref: RField) -> str:
        target, pick, _ = picked(ref)
        return pick.format(f"(await new_{target.snake}(cases))")

    def made_json_(ref: RField) -> str:
        target, _, json_key = picked(ref)
        return f"create_{target.snake}(client, __HEADERS__)[{json_key!r}]"

    argument_.made_py = made_python(value, f.full_type, values, made_py)
    argument_.made_json = made_json(value, f.full_type, values, made_json_)
    argument_.made_targets = list(dict.fromkeys(str(ref.references) for ref in held))


def _prepared(
    simulator: Simulator, aggregate: RAggregate, command: RCommand
) -> dict[str, Prepared]:
    """What the ``also`` of ``command`` need of the aggregates its parameters name, as the
    command runs after the commands that make it allowed (by parameter name)."""
    prepared: dict[str, Prepared] = {}
    if not command.also:
        return prepared
    try:
        if command.creates:
            simulator.run(aggregate, None, command, prepared=prepared)
            return prepared
        steps = simulator.path(aggregate, command)
        if steps is None:
            return {}
        state = simulator.initial(aggregate)
        for step in steps:
            change = aggregate.command(step)
            assert change is not None
            state = simulator.run(aggregate, state, change)
        simulator.run(aggregate, state, command, prepared=prepared)
    except (ScenarioError, Invalid):
        return {}
    return prepared


def _maker(
    field_: FieldCtx, ctx: AggregateCtx, command: RCommand, prepared: dict[str, Prepared]
) -> str:
    """The name (after ``new_`` / ``create_``) of the helper making the aggregate
    ``field_`` references for ``command``."""
    if field_.name not in prepared or not field_.references:
        return ""
    maker = f"{naming.snake(field_.references)}_for_{ctx.snake}_{command.method}"
    return f"{maker}_{field_.attr.rstrip('_')}" if len(prepared) > 1 else maker


def _methods(target: AggregateCtx, names: list[str]) -> list[str]:
    methods = {c.name: c.method for c in target.commands}
    return [methods[name] for name in names]


def _attrs(target: AggregateCtx, names: list[str]) -> list[str]:
    attrs = {f.name: f.attr for f in target.fields}
    return [attrs[name] for name in names if name in attrs]


def _path(
    simulator: Simulator, aggregate: RAggregate, command: CommandCtx, *, allowed: bool
) -> list[str] | None:
    resolved = aggregate.command(command.name)
    assert resolved is not None
    if resolved.creates:
        return [] if allowed else None
    try:
        steps = simulator.path(aggregate, resolved, allowed=allowed)
    except (ScenarioError, Invalid):
        return None
    if steps is None:
        return None
    methods = {c.name: c.method for c in aggregate.commands}
    return [methods[step] for step in steps]


def _replayable(simulator: Simulator, aggregate: RAggregate, ctx: AggregateCtx) -> list[str]:
    """Change commands that run one after the other from a new aggregate (for the test
    that replaying the events rebuilds it)."""
    try:
        state = simulator.initial(aggregate)
    except (ScenarioError, Invalid):
        return []
    done = []
    for command in aggregate.commands:
        if command.creates or aggregate.makes_gone(command):
            continue
        try:
            state = simulator.run(aggregate, state, command)
        except (ScenarioError, Invalid):
            continue
        done.append(command.method)
    return done


__all__ = ["add_scenarios", "argument", "naming", "reference_cycle", "unmade_references"]
