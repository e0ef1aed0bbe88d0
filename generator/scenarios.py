"""The generated tests' scenarios, worked out ahead: the sample request of every command,
and the commands to run before it so that its guard holds (or fails, for the 409 test).
Commands are simulated on the samples with the expression evaluator; `validate` reports a
spec whose own examples break its guards or invariants."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any
from uuid import UUID, uuid5

from generator.expr import Node, names_in
from generator.expr_code import EvalError, evaluate
from generator.resolved import Domain, RAggregate, RAlso, RCommand, RField
from generator.typeref import TypeRef
from generator.values import Catalog, Invalid, made_by_id, rule_breaks, sample, to_eval

MAX_STEPS = 4
MAX_STATES = 200
State = dict[str, Any]


class ScenarioError(ValueError):
    """The examples cannot run a command (they break a guard or an invariant)."""


class BrokenSetError(ScenarioError):
    """A value ``set`` computes from the examples breaks its field's rule: the spec should
    keep it (round it), not only the examples."""


@dataclass
class Step:
    """One command with its sample arguments (JSON, by spec name)."""

    command: str
    body: dict[str, Any]


@dataclass
class Prepared:
    """What a command's ``also`` needed of the other aggregate, made from the examples:
    the commands run on it first (``steps``) so that the ``also`` command is accepted, and
    the fields that command then changes (``changed``)."""

    steps: list[str]
    changed: list[str]


@dataclass
class Simulator:
    domain: Domain
    catalog: Catalog
    today: date
    now: datetime
    bodies: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    ticks: int = 0
    preparations: dict[tuple[str, str, str], list[str] | None] = field(default_factory=dict)

    def body(self, aggregate: RAggregate, command: RCommand) -> dict[str, Any]:
        """The sample arguments of ``command`` (JSON); raises Invalid naming the field
        that needs an example."""
        key = (aggregate.name, command.name)
        if key not in self.bodies:
            result = {}
            for argument in command.arguments:
                try:
                    result[argument.name] = sample(argument, self.catalog)
                except Invalid as error:
                    raise Invalid(f"{argument.name} {error}") from None
            self.bodies[key] = result
        return self.bodies[key]

    def _scope(
        self, state: State | None, command: RCommand, body: dict[str, Any], agg: RAggregate
    ) -> State:
        scope: State = {"now": self._tick(), "today": self.today}
        if state is not None:
            scope.update(state)
        for argument in command.arguments:
            value = to_eval(body.get(argument.name), argument.full_type, self.catalog)
            if value is not None and made_by_id(argument):
                # the tests make the aggregate a reference by id names anew for each
                # request: two requests name two aggregates (a guest moved twice is moved
                # to two rooms)
                made = f"{agg.name}.{command.name}.{argument.name}.{self.ticks}"
                value = type(value)(str(uuid5(_MADE, made)))
            scope[argument.name] = value
        return scope

    def _tick(self) -> datetime:
        """``now`` for the next command: later than for every command before it, as the
        clock of the generated tests is (a return comes after its pick-up)."""
        self.ticks += 1
        return self.now + timedelta(milliseconds=self.ticks)

    def _value(self, node: Node, scope: State) -> Any:
        try:
            return evaluate(node, scope)
        except (EvalError, KeyError) as error:
            raise ScenarioError(f"cannot evaluate with the examples: {error}") from None

    def run(
        self,
        aggregate: RAggregate,
        state: State | None,
        command: RCommand,
        given: State | None = None,
        prepared: dict[str, Prepared] | None = None,
    ) -> State:
        """The state after ``command`` with its sample arguments (``given`` replaces some,
        as an ``also`` passes them); ScenarioError when its guard, an invariant or another
        aggregate's command (``also``) refuses it. The aggregates an ``also`` changed are
        kept in the state, under ``@<Aggregate>:<id field>``, so that a later command's
        ``also`` meets them as they are (the equipment a reservation took is taken).
        An aggregate a parameter names is one the tests make for the command: made from
        the examples, and when that one refuses the ``also`` command, taken through some of
        its own commands first (a show put on sale before a seat of it is reserved), which
        ``prepared`` gets by the parameter's name."""
        gone = aggregate.gone
        if state is not None and gone is not None and self._value(gone, state) is True:
            raise ScenarioError(f"the {aggregate.name} is gone (deleted) before {command.name}")
        body = self.body(aggregate, command)
        scope = self._scope(state, command, body, aggregate)
        scope.update(given or {})
        if command.when is not None and not self._value(command.when, scope):
            read = sorted(name for name in names_in(command.when) if name in scope)
            values = ", ".join(f"{name} = {_shown(scope[name])}" for name in read)
            # a field the creating request gave a sample other than its default (true for
            # a bool), which a spec's author may take for the default
            creator = next((c for c in aggregate.commands if c.creates), None)
            created = self.body(aggregate, creator) if creator is not None else {}
            sampled = [
                f.name
                for f in aggregate.fields
                if f.name in read
                and f.name in created
                and f.has_default
                and not f.has_example
                and scope[f.name] == created[f.name]
                and created[f.name] != to_eval(f.default, f.full_type, self.catalog)
            ]
            raise ScenarioError(
                f"its guard is false with the examples ({command.name}"
                + (f": {values}" if values else "")
                + (f"; the tests give {sampled[0]} a sample, not its default" if sampled else "")
                + ")"
            )
        new: State = dict(state or {}) if state is not None else {"id": "sample-id"}
        if state is None:
            new["createdAt"] = scope["now"]
            for f in aggregate.fields:
                if f.has_default:
                    new[f.name] = to_eval(f.default, f.full_type, self.catalog)
        new["updatedAt"] = scope["now"]
        for param in command.params:
            new[param.name] = scope[param.name]
        broken: list[str] = []
        for target, node in command.sets:
            new[target.name] = self._value(node, scope)
            found = _broken_rule(target, new[target.name])
            if found is not None:
                key, bound, why = found
                hint = f" (round it: round(..., {bound}))" if key == "scale" else ""
                broken.append(
                    f"it sets {target.name} to {_shown(new[target.name])}, which {why}{hint}"
                )
        if broken:
            raise BrokenSetError(
                "; ".join(broken) + ": a value `set` computes keeps the field's rules"
            )
        invariant_scope = {**new, "now": scope["now"], "today": self.today}
        for invariant in aggregate.invariants:
            if not self._value(invariant.check, invariant_scope):
                read = sorted(n for n in names_in(invariant.check) if n in invariant_scope)
                values = ", ".join(f"{n} = {_shown(invariant_scope[n])}" for n in read)
                raise ScenarioError(
                    f"the invariant {invariant.message!r} fails"
                    + (
                        f" ({values}; a value without an example is derived from its rules)"
                        if values
                        else ""
                    )
                )
        for also in command.also:
            name, other_aggregate, other = self._target(also)
            key = f"@{also.aggregate}:{name}"
            args = {arg: self._value(node, scope) for arg, node in also.args.items()}
            # a parameter names one the tests make for the command, a field the one kept
            made = any(p.name == name for p in command.params)
            linked = None if made else new.get(key)
            steps: list[str] = []
            if isinstance(linked, dict):
                target_state = linked
            else:
                target_state = self.initial(other_aggregate)
                if made:
                    target_state, steps = self._prepare(other_aggregate, target_state, also, args)
            try:
                new[key] = self.run(other_aggregate, target_state, other, args)
            except ScenarioError as error:
                how = "as the earlier commands left it" if linked else "made from the examples"
                raise ScenarioError(
                    f"{also.aggregate}.{also.command} is refused for the {also.aggregate} "
                    f"{how}: {error}"
                ) from None
            if steps and prepared is not None:
                changed = [
                    f.name
                    for f in other_aggregate.fields
                    if target_state.get(f.name) != new[key].get(f.name)
                ]
                prepared[name] = Prepared(steps, changed)
        return new

    def again(self, aggregate: RAggregate, creator: RCommand, shared: set[str]) -> list[str]:
        """Why a second ``creator`` cannot reach its unique check, as the uniqueness tests
        run it: with the examples again, and the aggregates the parameters ``shared`` name
        (the unique fields the second one repeats) those the first one's ``also`` left.
        Each refusing ``also`` command gives a sentence; none when the first is refused
        (that is reported on its own)."""
        try:
            first = self.run(aggregate, None, creator)
            scope = self._scope(None, creator, self.body(aggregate, creator), aggregate)
        except (ScenarioError, Invalid):
            return []
        refusals = []
        for also in creator.also:
            name, other_aggregate, other = self._target(also)
            kept = first.get(f"@{also.aggregate}:{name}")
            if name not in shared or not isinstance(kept, dict):
                continue
            try:
                args = {arg: self._value(node, scope) for arg, node in also.args.items()}
                self.run(other_aggregate, kept, other, args)
            except (ScenarioError, Invalid) as error:
                refusals.append(
                    f"the uniqueness tests create a second {aggregate.name} with the "
                    f"{also.aggregate} of the first ({name}), but {also.aggregate}."
                    f"{also.command} refuses it: {error}; "
                    f"{_allowing_two(other_aggregate, other)}"
                )
        return refusals

    def _target(self, also: RAlso) -> tuple[str, RAggregate, RCommand]:
        """What an ``also`` names: the id's name (a parameter or field of the command's
        aggregate), the other aggregate and its command."""
        name = str(also.id.value) if also.id.op == "name" else str(also.id)
        aggregate = self.domain.aggregates[also.aggregate]
        command = aggregate.command(also.command)
        assert command is not None
        return name, aggregate, command

    def _prepare(
        self, aggregate: RAggregate, start: State, also: RAlso, args: State
    ) -> tuple[State, list[str]]:
        """``start`` after the commands of ``aggregate`` that make the ``also`` command
        accept it (with ``args``), and their names; ``start`` unchanged when it accepts it
        already, or when no few commands do (the ``also`` is then refused as it is)."""
        goal = aggregate.command(also.command)
        assert goal is not None
        if self._accepts(aggregate, start, goal, args):
            return start, []
        key = (aggregate.name, goal.name, repr(sorted(args.items(), key=lambda item: item[0])))
        if key not in self.preparations:
            # commands with an `also` of their own are left out: no preparation prepares
            changes = [
                c
                for c in aggregate.commands
                if not c.creates and not aggregate.makes_gone(c) and not c.also
            ]
            self.preparations[key] = self._search(
                aggregate,
                start,
                changes,
                lambda state: self._accepts(aggregate, state, goal, args),
            )
        steps = self.preparations[key]
        if not steps:
            return start, []
        state = start
        try:
            for step in steps:
                command = aggregate.command(step)
                assert command is not None
                state = self.run(aggregate, state, command)
        except (ScenarioError, Invalid):
            return start, []
        return state, list(steps)

    def initial(self, aggregate: RAggregate) -> State:
        """The state the first creating command makes from the examples."""
        creator = next(c for c in aggregate.commands if c.creates)
        return self.run(aggregate, None, creator)

    def path(
        self, aggregate: RAggregate, goal: RCommand, *, allowed: bool = True
    ) -> list[str] | None:
        """Commands to run after creation so that ``goal`` is accepted (``allowed``) or
        refused by its guard (not ``allowed``); None when none within a few steps."""
        start = self.initial(aggregate)
        changes = [c for c in aggregate.commands if not c.creates and not aggregate.makes_gone(c)]

        def reached(state: State) -> bool:
            matches = self._accepts(aggregate, state, goal) == allowed
            return matches and (allowed or self._guard_false(aggregate, state, goal))

        return self._search(aggregate, start, changes, reached)

    def _search(
        self,
        aggregate: RAggregate,
        start: State,
        changes: list[RCommand],
        reached: Callable[[State], bool],
    ) -> list[str] | None:
        """The fewest of ``changes`` (at most MAX_STEPS) that take ``start`` to a state
        ``reached`` holds of; None when none do among the first MAX_STATES states."""
        queue: deque[tuple[State, list[str]]] = deque([(start, [])])
        seen = 0
        while queue and seen < MAX_STATES:
            state, steps = queue.popleft()
            seen += 1
            if reached(state):
                return steps
            if len(steps) >= MAX_STEPS:
                continue
            for command in changes:
                try:
                    queue.append((self.run(aggregate, state, command), [*steps, command.name]))
                except (ScenarioError, Invalid):
                    continue
        return None

    def _accepts(
        self, aggregate: RAggregate, state: State, command: RCommand, given: State | None = None
    ) -> bool:
        try:
            self.run(aggregate, state, command, given)
        except (ScenarioError, Invalid):
            return False
        return True

    def _guard_false(self, aggregate: RAggregate, state: State, command: RCommand) -> bool:
        if command.when is None:
            return False
        scope = self._scope(state, command, self.body(aggregate, command), aggregate)
        try:
            return not evaluate(command.when, scope)
        except EvalError:
            return False


def example_problems(
    domain: Domain, catalog: Catalog, today: date, now: datetime
) -> list[tuple[Any, str]]:
    """What the examples break: a creating command whose samples fail a rule, a guard or
    an invariant gives generated tests that fail, so `validate` says so first."""
    problems: list[tuple[Any, str]] = []
    simulator = Simulator(domain, catalog, today, now)
    for aggregate in domain.aggregates.values():
        for command in aggregate.commands:
            try:
                simulator.body(aggregate, command)
            except Invalid as error:
                name = str(error).split(" ", 1)[0]
                where = next((f.loc for f in command.arguments if f.name == name), command.loc)
                problems.append((where, f"{error} (the generated tests need a valid value)"))
        creators = [c for c in aggregate.commands if c.creates]
        for creator in creators:
            try:
                simulator.run(aggregate, None, creator)
            except (ScenarioError, Invalid) as error:
                advice = (
                    ""
                    if isinstance(error, BrokenSetError)
                    else "; give the fields examples that satisfy it (the generated tests use them)"
                )
                problems.append(
                    (
                        creator.loc,
                        f"with the examples, {aggregate.name}.{creator.name} is refused: {error}"
                        + advice,
                    )
                )
        if creators:
            problems.extend(_unique_problems(simulator, aggregate, creators[0]))
    for value in domain.values.values():
        problems.extend(_value_problems(value.name, value.fields, value.invariants, catalog))
    return problems


def _unique_problems(
    simulator: Simulator, aggregate: RAggregate, creator: RCommand
) -> list[tuple[Any, str]]:
    """The uniqueness tests make a second aggregate with the unique values of the first
    (and, for a combination, one with all but one of them): an ``also`` refusing the
    aggregate they share keeps it from the unique check, and the tests fail."""
    given = {f.name for f in creator.params}
    repeats = [[f.name] for f in aggregate.unique] + [
        [f.name for f in combination]
        for combination in aggregate.unique_together
        if all(f.name in given and not f.optional for f in combination)
    ]
    found: list[str] = []
    for names in repeats:
        for refusal in simulator.again(aggregate, creator, set(names)):
            if refusal not in found:
                found.append(refusal)
    return [(creator.loc, refusal) for refusal in found]


def _allowing_two(aggregate: RAggregate, command: RCommand) -> str:
    """What to change so that ``command`` accepts one aggregate twice: the examples of the
    fields its guard reads that the tests make the aggregate with."""
    creator = next((c for c in aggregate.commands if c.creates), None)
    given = {f.name for f in creator.params} if creator else set()
    read = _names(command.when) if command.when is not None else set()
    fields = [f.name for f in aggregate.fields if f.name in read and f.name in given]
    if fields:
        return f"give {' and '.join(fields)} an example that allows two"
    return f"give the fields of {aggregate.name} examples that allow two"


def _names(node: Node) -> set[str]:
    """The names an expression reads."""
    found = {str(node.value)} if node.op == "name" else set()
    for arg in node.args:
        found |= _names(arg)
    return found


def _value_problems(
    name: str, fields: list[RField], invariants: list[Any], catalog: Catalog
) -> list[tuple[Any, str]]:
    problems: list[tuple[Any, str]] = []
    try:
        data = {f.name: sample(f, catalog) for f in fields if f.required or f.has_example}
    except Invalid as error:
        return [(("values", name), f"{error} (the generated tests need a valid value)")]
    values = to_eval(data, TypeRef("value", name), catalog)
    for invariant in invariants:
        try:
            holds = evaluate(invariant.check, values)
        except EvalError:
            continue
        if not holds:
            problems.append(
                (
                    ("values", name),
                    f"the examples break {invariant.message!r}: give examples that meet it",
                )
            )
    return problems


def _broken_rule(field_: RField, value: Any) -> tuple[str, Any, str] | None:
    """The rule (key, bound) the value ``set`` computes for ``field_`` breaks, and why, if
    it breaks one (a text's, a number's, a list's or a map's size: what the domain checks
    after the command)."""
    if value is None:
        return None
    type_ = field_.type
    checked = type_.is_scalar("str", "int", "float", "decimal") or type_.is_collection
    if not checked or isinstance(value, bool):
        return None
    for key, bound in field_.rules:
        sized = key in ("min_length", "max_length")
        if type_.is_collection and not sized:
            continue
        try:
            why = rule_breaks(key, bound, value, type_)
        except (TypeError, ValueError, ArithmeticError):
            continue
        if why is not None:
            return key, bound, why
    return None


def _shown(value: Any) -> str:
    """A sample value as JSON, cut to 40 characters (a message echoes no long value)."""
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


# the namespace of the ids the simulator gives the aggregates the tests make for a request
_MADE = UUID("5f0c6a4e-2b7d-5c1e-9f3a-8d4b6e2a1c07")
