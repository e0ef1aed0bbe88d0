"""A spec resolved into its domain: every name bound, every type parsed, every expression
checked, every problem collected with its location (`generate validate` reports them;
rendering needs none)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from generator import naming
from generator.expr import (
    BOOL,
    DATE,
    DATETIME,
    ExprError,
    Node,
    Scope,
    can_fail,
    names_beyond_presence,
    names_in,
    parse,
)
from generator.reserved import class_name_problem, python_attribute
from generator.resolve_fields import NOT_UNIQUE_WHY, UNIQUE_TYPES, FieldResolver, camel_problem
from generator.resolved import (
    Domain,
    Loc,
    RAggregate,
    RAlso,
    RCommand,
    REvent,
    RField,
    RInvariant,
    RPolicy,
    RValue,
    listed,
)
from generator.spec import PASCAL, AggregateSpec, CommandSpec, InvariantSpec, KeySpec, Spec
from generator.typeref import TypeRef

TIMESTAMP = "occurredAt"
TIME_STAMPS = ("createdAt", "updatedAt")
"""An aggregate's first and last events' times, which expressions read."""
BUILT_IN_FIELDS = ("id", *TIME_STAMPS)
AGGREGATE_METHODS = frozenset(
    {
        "get",
        "list",
        "page",
        "apply",
        "record",
        "committed",
        "from_history",
        "started_by",
        "problems",
        "checked",
        "changes",
        "archived",
        "version",
        "save",
        "check_rules",
        "check_invariants",
        "delete",
    }
)
ENUM_MEMBER = r"^[A-Za-z][A-Za-z0-9_-]*$"
STR = TypeRef.scalar("str")
UUID = TypeRef.scalar("uuid")


def _not_given(wanted: dict[str, RField], given: Mapping[str, object]) -> str:
    """What a ``with`` leaves out of the command it runs ("" when nothing): every
    parameter and input is given, one with a default or optional too (the command is run
    as a request gives it all; it would not keep the value the aggregate has)."""
    missing = [
        name
        for name, field_ in wanted.items()
        if name not in given and field_.secret != "generated"
    ]
    if not missing:
        return ""
    defaulted = [name for name in missing if not wanted[name].required]
    return f"missing: {', '.join(missing)}" + (
        f" (give {', '.join(defaulted)} too: a command run here takes every value, one with"
        " a default or optional as well, `null` for none)"
        if defaulted
        else ""
    )


def resolve(spec: Spec) -> Domain:
    """The domain ``spec`` declares, with every problem found in ``domain.problems``."""
    from generator.resolve_calls import resolve_cli
    from generator.resolve_http import resolve_endpoints, resolve_read_models

    resolver = _Resolver(spec)
    resolver.run()
    resolve_read_models(spec, resolver.domain, resolver.fields)
    resolve_endpoints(spec, resolver.domain, resolver.fields)
    resolve_cli(spec, resolver.domain, resolver.fields)
    return resolver.domain


def class_names(spec: Spec) -> dict[str, Loc]:
    """Every class name the spec declares, with where."""
    found: dict[str, Loc] = {}
    for section in ("enums", "values", "errors", "aggregates", "events", "read_models"):
        for name in getattr(spec, section):
            found.setdefault(name, (section, name))
    return found


# an absolute URI: a scheme, then only the characters RFC 3986 allows (a quote or a
# backslash is none of them)
PROBLEM_TYPE_URI = r"[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+"


class _Resolver:
    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.domain = Domain()
        likes = {
            f"{owner}.{name}": field
            for owners in (spec.aggregates, spec.values)
            for owner, declared in owners.items()
            for name, field in declared.fields.items()
        }
        self.fields = FieldResolver(self.domain, set(spec.enums), set(spec.values), likes)

    def run(self) -> None:
        self._names()
        self._enums()
        self._values()
        self._errors()
        for name, aggregate in self.spec.aggregates.items():
            self._aggregate(name, aggregate)
        self._declared_events()
        for name, aggregate in self.spec.aggregates.items():
            if name in self.domain.aggregates:
                self._commands(self.domain.aggregates[name], aggregate)
        for name, aggregate in self.spec.aggregates.items():
            if name in self.domain.aggregates:
                self._also(self.domain.aggregates[name], aggregate)
                if aggregate.key is not None:
                    self._key(self.domain.aggregates[name], aggregate.key)
        for name, aggregate in self.spec.aggregates.items():
            if aggregate.key is not None and name in self.domain.aggregates:
                self._shared_key(self.domain.aggregates[name], aggregate.key)
        self._share_groups()
        self._references()
        self._policies()

    def _policies(self) -> None:
        for name, policy in self.spec.policies.items():
            loc: Loc = ("policies", name)
            if not re.fullmatch(PASCAL, name) or class_name_problem(name):
                self.domain.problem(loc, class_name_problem(name) or f"{name!r} must be PascalCase")
                continue
            event = self.domain.events.get(policy.on)
            if event is None or event.aggregate is None:
                self.domain.problem(
                    (*loc, "on"),
                    f"unknown event {policy.on!r} (an event this service's commands emit)",
                )
                continue
            target_name, _, member = policy.run.command.partition(".")
            target = self.domain.aggregates.get(target_name)
            command = target.command(member) if target else None
            if target is None or command is None:
                self.domain.problem(
                    (*loc, "run", "command"),
                    f"unknown command {policy.run.command!r} (<Aggregate>.<command>)",
                )
                continue
            scope = self._event_scope(event)
            id_node = None
            by_key = False
            if command.creates and policy.run.id is not None:
                self.domain.problem((*loc, "run", "id"), f"{member!r} creates: it takes no id")
            elif not command.creates:
                if policy.run.id is None:
                    self.domain.problem((*loc, "run"), "the command needs `id` (event.<field>)")
                    continue
                id_node = self.fields.expression(policy.run.id, scope, (*loc, "run", "id"), None)
                # the value of the target's key (of the key's type), or its id
                by_key = _by_key(self.domain.aggregates.get(event.aggregate), id_node, target.name)
                if (
                    not by_key
                    and id_node is not None
                    and id_node.type.required() not in (STR, UUID)
                ):
                    self.domain.problem(
                        (*loc, "run", "id"),
                        "the id is a uuid or a str (or the value of the target's key, from a"
                        f" field with `references: {target.name}.<key>`)",
                    )
                    id_node = None
                if id_node is None:
                    continue
            args: dict[str, Node] = {}
            wanted = {f.name: f for f in command.arguments}
            for key, text in policy.run.with_.items():
                where = (*loc, "run", "with", key)
                if key not in wanted:
                    self.domain.problem(where, f"{policy.run.command} takes no {key!r}")
                    continue
                node = self.fields.expression(text, scope, where, wanted[key].full_type)
                if node is not None:
                    args[key] = node
            missing = _not_given(wanted, policy.run.with_)
            if missing:
                self.domain.problem((*loc, "run", "with"), missing)
                continue
            self.domain.policies.append(
                RPolicy(name, policy.on, target_name, member, id_node, args,
                        policy.description or "", by_key)
            )  # fmt: skip

    def _references(self) -> None:
        """Every ``references`` names an aggregate, from a field that can hold its id."""
        fields: list[RField] = []
        for aggregate in self.domain.aggregates.values():
            fields += aggregate.fields
            for command in aggregate.commands:
                fields += command.inputs
        for value in self.domain.values.values():
            fields += [f for f in value.fields if f.references]
        for field in fields:
            if field.references is None:
                continue
            loc = (*field.loc, "references")
            target = self.domain.aggregates.get(field.references)
            element = field.type.element if field.type.kind == "list" else field.type
            if target is None:
                self.domain.problem(
                    loc,
                    f"unknown aggregate {field.references!r} (expected one of: "
                    f"{listed(self.domain.aggregates)})",
                )
            elif field.references_key is not None:
                self._key_reference(field, target, element)
            elif element != TypeRef.scalar(target.event_id_type):
                self.domain.problem(
                    (*field.loc, "type"),
                    f"a reference to {target.name} is a {target.event_id_type} "
                    f"(or a list of them), not {field.type}",
                )

    def _key_reference(self, field: RField, target: RAggregate, element: TypeRef) -> None:
        """``references: Role.name``: the value of the target's one-field key."""
        loc = (*field.loc, "references")
        key = [f.name for f in target.key]
        if not key and self.spec.aggregates[target.name].key is not None:
            return  # its key was refused, saying why
        if key != [field.references_key]:
            has = f"a key of {len(key)} fields" if key else "no key"
            self.domain.problem(
                loc,
                f"{field.references_key!r} is not the key of {target.name} (a reference"
                f" names an aggregate, by its id, or the one field of its key: "
                + (f"{target.name}.{key[0]})" if len(key) == 1 else f"{target.name} has {has})"),
            )
        elif element != target.key[0].type:
            self.domain.problem(
                (*field.loc, "type"),
                f"a reference to {target.name} by its {key[0]} is a {target.key[0].type}"
                f" (or a list of them), not {field.type}",
            )
        elif not field.normalize and field.type.kind == "scalar":
            # the value names the key as a request would give it: normalized as the key is
            field.normalize = target.key[0].normalize

    # names and named types
    def _names(self) -> None:
        seen: dict[str, str] = {}
        for name, loc in class_names(self.spec).items():
            if not isinstance(name, str) or not re.fullmatch(PASCAL, name) or len(name) > 64:
                self.domain.problem(loc, f"{name!r} must be PascalCase ({PASCAL}, at most 64)")
                continue
            problem = class_name_problem(name)
            if problem:
                self.domain.problem(loc, problem)
        for section in ("enums", "values", "errors", "aggregates", "events", "read_models"):
            for name in getattr(self.spec, section):
                if name in seen and seen[name] != section:
                    self.domain.problem(
                        (section, name), f"{name!r} is also declared under {seen[name]}"
                    )
                seen.setdefault(name, section)

    def _enums(self) -> None:
        from generator.expr_code import member_name

        for name, members in self.spec.enums.items():
            python: dict[str, str] = {}
            for index, member in enumerate(members):
                loc = ("enums", name, index)
                if not re.fullmatch(ENUM_MEMBER, member) or len(member) > 64:
                    self.domain.problem(loc, f"{member!r} must match {ENUM_MEMBER}")
                elif member in python.values():
                    self.domain.problem(loc, f"{member!r} is listed twice")
                elif member_name(member) in python:
                    self.domain.problem(
                        loc,
                        f"{member!r} and {python[member_name(member)]!r} are one name in Python",
                    )
                python[member_name(member)] = member
            self.domain.enums[name] = list(members)

    def _values(self) -> None:
        for passes in range(2):  # the second pass checks defaults with every value known
            problems = len(self.domain.problems)
            for name, value in self.spec.values.items():
                fields = self.fields.fields(value.fields, ("values", name, "fields"))
                self.domain.values[name] = RValue(name, fields, [], value.description or "")
            if passes == 0:
                del self.domain.problems[problems:]
        for name, value in self.spec.values.items():
            resolved = self.domain.values[name]
            for f in resolved.fields:
                if f.unique:
                    self.domain.problem(
                        (*f.loc, "unique"),
                        "unique applies to an aggregate's fields (a value object is part"
                        " of one: make the aggregate's field unique, or a combination)",
                    )
            scope = self.fields.scope({f.name: f.full_type for f in resolved.fields})
            resolved.invariants = self._invariants(
                value.invariants, scope, resolved.fields, ("values", name)
            )
            self._value_cycle(name, [name])

    def _value_cycle(self, name: str, path: list[str]) -> None:
        for field in self.domain.values[name].fields:
            for part in field.type.walk():
                if part.kind != "value" or part.name not in self.domain.values:
                    continue
                if part.name in path:
                    self.domain.problem(
                        ("values", path[0]),
                        f"value {path[0]} contains itself ({' -> '.join([*path, part.name])})",
                    )
                    return
                self._value_cycle(part.name, [*path, part.name])

    def _errors(self) -> None:
        for name, error in self.spec.errors.items():
            loc = ("errors", name)
            if error.type is not None and not re.fullmatch(PROBLEM_TYPE_URI, error.type):
                self.domain.problem(
                    (*loc, "type"),
                    "a problem type is an absolute URI (RFC 3986: a scheme, a colon, then"
                    " letters, digits and - . _ ~ : / ? # [ ] @ ! $ & ' ( ) * + , ; = %)",
                )
            problem_type = error.type or f"urn:problem-type:{self.spec.name}:{naming.kebab(name)}"
            self.domain.errors[name] = {
                "name": name,
                "status": error.status,
                "title": error.title,
                "detail": error.detail or error.title,
                "type": problem_type,
            }

    def _invariants(
        self, invariants: list[InvariantSpec], scope: Scope, fields: list[RField], loc: Loc
    ) -> list[RInvariant]:
        resolved = []
        names = {f.name for f in fields}
        for index, invariant in enumerate(invariants):
            where = (*loc, "invariants", index)
            node = self.fields.expression(invariant.check, scope, (*where, "check"), BOOL)
            if (
                invariant.field is not None
                and invariant.field not in names
                and invariant.field not in scope.refused  # said already
            ):
                self.domain.problem(
                    (*where, "field"),
                    f"unknown field {invariant.field!r} (fields: {', '.join(names)})",
                )
            if "{value}" in invariant.message:
                self.domain.problem(
                    (*where, "message"),
                    "{value} shows the value a field's rule refuses; an invariant's message"
                    " is shown as written: say what it requires in words",
                )
            if node is not None:
                resolved.append(
                    RInvariant(
                        node, invariant.message, invariant.field or "", where, invariant.check
                    )
                )
        return resolved

    # aggregates
    def _aggregate(self, name: str, spec: AggregateSpec) -> None:
        loc: Loc = ("aggregates", name)
        fields = self.fields.fields(spec.fields, (*loc, "fields"), shown=True)
        for field in fields:
            if field.name in BUILT_IN_FIELDS:
                self.domain.problem(
                    field.loc, f"{field.name!r} comes with every aggregate; remove it"
                )
            if field.unique and not _may_be_unique(field):
                self.domain.problem(
                    (*field.loc, "unique"), f"a {field.type} field cannot be unique{_why(field)}"
                )
            elif field.unique and field.hidden:
                self.domain.problem(
                    (*field.loc, "unique"),
                    "a hidden field cannot be unique: its duplicate answer would tell a"
                    " caller another aggregate's hidden value",
                )
        event_id = naming.event_id_field(name, spec.event_id)
        problem = camel_problem(event_id, "event_id")
        if problem:
            self.domain.problem((*loc, "event_id"), problem)
        elif any(f.name == event_id for f in fields):
            self.domain.problem((*loc, "event_id"), f"{event_id!r} is also a field of {name}")
        words = naming.words(name)
        aggregate = RAggregate(
            name=name,
            loc=loc,
            fields=[f for f in fields if f.name not in BUILT_IN_FIELDS],
            computed=[],
            invariants=[],
            commands=[],
            event_id=event_id,
            event_id_type="uuid",
            not_found=spec.not_found or f"{' '.join(words).capitalize()} not found",
            description=spec.description or f"{naming.a_noun(name)}.",
        )
        self.domain.aggregates[name] = aggregate
        aggregate.unique_together = self._combinations(spec.unique, aggregate, (*loc, "unique"))
        state = self._state_scope(aggregate)
        aggregate.invariants = self._invariants(spec.invariants, state, aggregate.fields, loc)
        taken = {f.name for f in aggregate.fields}
        aggregate.computed = self.fields.computed(spec.computed, state, loc, taken, "field")
        hidden = {f.name for f in aggregate.fields if f.hidden}
        for value in aggregate.computed:
            if shown := sorted(names_beyond_presence(value.value) & hidden):
                self.domain.problem(
                    (*loc, "computed", value.name, "value"),
                    f"{shown[0]!r} is hidden: a computed value would show it (it may ask"
                    f" `{shown[0]} is not None`)",
                )
        secrets = {f.name for f in aggregate.fields if f.secret}
        for index, invariant in enumerate(aggregate.invariants):
            _no_secret(self.domain, invariant.check, secrets, (*loc, "invariants", index, "check"))
        if spec.view_id is not None:
            aggregate.view_id = self._view_name(spec.view_id, aggregate, (*loc, "view_id")) or "id"
        if spec.view_tenant is not None:
            aggregate.view_tenant = self._view_name(
                spec.view_tenant, aggregate, (*loc, "view_tenant")
            )
        if spec.gone_when is not None:
            self._gone(spec.gone_when, aggregate, state, (*loc, "gone_when"))

    def _gone(self, text: str, aggregate: RAggregate, state: Scope, loc: Loc) -> None:
        """The state ``text`` says the aggregate is gone in: a condition over one of its
        fields (so that every event giving that field tells its read-model row too)."""
        node = self.fields.expression(text, state, loc, BOOL)
        if node is None:
            return
        fields = {f.name for f in aggregate.fields}
        named = names_in(node) & (fields | {"now", "today", *BUILT_IN_FIELDS})
        if len(named) != 1 or not named <= fields:
            self.domain.problem(
                loc,
                "gone_when is a condition over one field of the aggregate"
                f" (it names {', '.join(sorted(named)) or 'none'}), e.g. status == 'deleted'",
            )
            return
        aggregate.gone, (aggregate.gone_field,) = node, named
        aggregate.gone_text = " ".join(str(text).split())

    def _view_name(self, name: str, aggregate: RAggregate, loc: Loc) -> str | None:
        """``name`` as a name the aggregate's views give a value of their own (None when
        it cannot be one)."""
        key = loc[-1]
        problem = camel_problem(name, str(key))
        names = [(f.name, f.attr) for f in aggregate.fields]
        names += [(c.name, c.attr) for c in aggregate.computed]
        taken = {name for name, _ in names} | set(TIME_STAMPS)
        attrs = {attr for _, attr in names} | {"id", "created_at", "updated_at"}
        if key == "view_tenant":
            taken.add(aggregate.view_id)
        if problem is None and (name in taken or python_attribute(naming.snake(name)) in attrs):
            problem = f"{name!r} names a value the view shows already"
        if problem is not None:
            self.domain.problem(loc, problem)
            return None
        return name

    def _combinations(
        self, combinations: list[list[str]], aggregate: RAggregate, loc: Loc
    ) -> list[list[RField]]:
        """The aggregate's unique combinations of fields (the tests vary one: ``_vary``)."""
        resolved: list[list[RField]] = []
        seen: set[frozenset[str]] = set()
        names = ", ".join(f.name for f in aggregate.fields)
        for index, combination in enumerate(combinations):
            where = (*loc, index)
            picked = [aggregate.field(name) for name in combination]
            fields = [f for f in picked if f is not None]
            unknown = [i for i, f in enumerate(picked) if f is None]
            problem = None
            if unknown:
                where = (*where, unknown[0])
                problem = f"unknown field {combination[unknown[0]]!r} (fields: {names})"
            elif len(set(combination)) != len(combination):
                problem = "a field is named twice"
            elif frozenset(combination) in seen:
                problem = "the same combination is named twice"
            elif bad := next((f for f in fields if not _may_be_unique(f)), None):
                problem = f"a {bad.type} field cannot be part of a unique combination{_why(bad)}"
            elif alone := next((f for f in fields if f.unique), None):
                problem = f"{alone.name!r} is unique alone: the combination adds nothing"
            elif secret := next((f for f in fields if f.hidden), None):
                problem = f"{secret.name!r} is hidden: a duplicate answer would tell it"
            if problem is not None:
                self.domain.problem(where, problem)
                continue
            seen.add(frozenset(combination))
            resolved.append(fields)
            _vary(fields)
        return resolved

    def _key(self, aggregate: RAggregate, spec: KeySpec) -> None:
        """The natural key: required fields of comparable scalars, each given by every
        creating command and changed by none (so an aggregate keeps the id they make)."""
        loc: Loc = (*aggregate.loc, "key")
        names = ", ".join(f.name for f in aggregate.fields)
        fields: list[RField] = []
        for index, name in enumerate(spec.fields):
            where = (*loc, "fields", index)
            found = aggregate.field(name)
            problem = None
            if found is None:
                problem = f"unknown field {name!r} (fields: {names})"
            elif found in fields:
                problem = f"{name!r} is named twice"
            elif not _may_be_unique(found):
                problem = f"a {found.type} field cannot be part of a key"
            elif found.optional:
                problem = f"{name!r} is optional: every aggregate needs its key"
            elif found.hidden:
                problem = f"{name!r} is hidden: a duplicate answer would tell it"
            elif found.unique and len(spec.fields) == 1:
                problem = f"{name!r} is unique already: the key keeps it unique"
            if problem is None and found is not None:
                problem = self._key_commands(aggregate, found)
            if problem is not None:
                self.domain.problem(where, problem)
            elif found is not None:
                fields.append(found)
        if len(fields) != len(spec.fields):
            return
        for index, combination in enumerate(aggregate.unique_together):
            if all(f in combination for f in fields):
                self.domain.problem(
                    (*aggregate.loc, "unique", index),
                    "the combination holds every field of the key: the key keeps it unique",
                )
                return
        namespace = spec.namespace or str(
            uuid.uuid5(uuid.NAMESPACE_URL, f"urn:service:{self.spec.name}")
        )
        try:
            namespace = str(uuid.UUID(namespace))
        except ValueError:
            self.domain.problem((*loc, "namespace"), f"{spec.namespace!r} is not a UUID")
            return
        label = spec.label if spec.label is not None else naming.kebab(aggregate.name)
        if label and not re.fullmatch(KEY_LABEL, label):
            self.domain.problem(
                (*loc, "label"),
                f"{label!r} must be lower-case words with dashes ({KEY_LABEL}), or empty",
            )
            return
        texts = [f for f in fields if f.type != TypeRef.scalar("str")]
        ignore_case = spec.ignore_case
        if ignore_case and texts:
            self.domain.problem(
                (*loc, "ignore_case"),
                f"only a key of str fields ignores case ({texts[0].name!r} is of type"
                f" {texts[0].type})",
            )
            ignore_case = False  # the key is still the key (no other problem follows)
        for keyed in self.domain.aggregates.values():
            if keyed.key and (keyed.key_namespace, keyed.key_label) == (namespace, label):
                self.domain.problem(
                    (*loc, "label" if spec.label is not None else "fields"),
                    f"{keyed.name}'s key has this namespace and label "
                    f"({label!r}): their ids could meet (give one of them another label)",
                )
                return
        aggregate.key, aggregate.key_namespace, aggregate.key_label = fields, namespace, label
        aggregate.key_ignore_case = ignore_case
        for f in fields:
            f.folded = ignore_case
        _vary(fields)

    def _shared_key(self, aggregate: RAggregate, spec: KeySpec) -> None:
        """Link the aggregates whose keys take the same values (both ways)."""
        if not aggregate.key:
            return  # the key's own problem is reported
        loc: Loc = (*aggregate.loc, "key", "shared_with")
        for index, name in enumerate(spec.shared_with):
            other = self.domain.aggregates.get(name)
            problem: str | None
            if name in spec.shared_with[:index]:
                problem = f"{name!r} is named twice"
            elif other is None:
                keyed = ", ".join(n for n, a in self.domain.aggregates.items() if a.key)
                problem = f"unknown aggregate {name!r} (aggregates with a key: {keyed or 'none'})"
            elif other is aggregate:
                problem = f"{name!r} is this aggregate: its key is taken once already"
            elif not other.key:
                problem = f"{name} has no key (or its key has a problem) to share"
            else:
                problem = _unshareable(aggregate, other)
            if problem is not None:
                self.domain.problem((*loc, index), problem)
                continue
            assert other is not None
            if other.name not in aggregate.key_shared:  # said on the other side too
                aggregate.key_shared.append(other.name)
            if aggregate.name not in other.key_shared:
                other.key_shared.append(aggregate.name)

    def _share_groups(self) -> None:
        """A value is taken once among every aggregate a sharing links, directly or not:
        ``User: shared_with: [Team, Bot]`` keeps Team and Bot apart too."""
        for aggregate in self.domain.aggregates.values():
            group, pending = {aggregate.name}, list(aggregate.key_shared)
            while pending:
                name = pending.pop()
                if name not in group:
                    group.add(name)
                    pending += self.domain.aggregates[name].key_shared
            aggregate.key_shared = [
                name for name in self.domain.aggregates if name in group - {aggregate.name}
            ]
            if aggregate.key_shared:
                index = [n for n in self.domain.aggregates if n in group].index(aggregate.name)
                for field in aggregate.key:
                    field.sample_offset = index

    @staticmethod
    def _key_commands(aggregate: RAggregate, field: RField) -> str | None:
        """Why ``field`` cannot be part of the key by the aggregate's commands, if so."""
        for command in aggregate.commands:
            changed = field in command.params or any(f is field for f, _ in command.sets)
            if command.creates and field not in command.params:
                return (
                    f"{command.name!r} creates a {aggregate.name} without taking {field.name!r}"
                    " as a parameter: a key is given by the request that creates it"
                )
            if not command.creates and changed:
                return (
                    f"{command.name!r} changes {field.name!r}: a key is never changed (the id"
                    " is made of it)"
                )
        return None

    def _state_scope(self, aggregate: RAggregate) -> Scope:
        names = {f.name: f.full_type for f in aggregate.fields}
        names.update({"id": STR, "now": DATETIME, "today": DATE})
        names.update(dict.fromkeys(TIME_STAMPS, DATETIME))
        spec = self.spec.aggregates[aggregate.name]
        why = "a computed value, which no other expression names: repeat its expression"
        return replace(
            self.fields.scope(names),
            unnamable={n: why for n in spec.computed},
            # a declared field that was refused (its type is wrong) is not refused again
            refused=frozenset(n for n in spec.fields if n not in names),
        )

    # events
    def _declared_events(self) -> None:
        for name, event in self.spec.events.items():
            loc: Loc = ("events", name)
            fields = self.fields.fields(event.fields, (*loc, "fields"), unchecked="an event")
            upcasts = self._upcasts(name, event.version, event.upcasts, fields)
            self.domain.events[name] = REvent(
                name,
                event.version,
                fields,
                upcasts,
                declared=True,
                description=event.description or "",
            )

    def _event_scope(self, event: REvent) -> Scope:
        """A policy's names: the event's fields; its aggregate's other fields are named
        as what the event does not carry, and how to make it carry them."""
        carried = {f.name for f in event.fields}
        emitter = self.domain.aggregates.get(event.aggregate or "")
        scope = self.fields.scope({f"event.{f.name}": f.full_type for f in event.fields})
        if emitter is None:
            return scope
        how = (
            f"add it to {event.name}'s fields (with a new version and an upcast, if it is"
            " stored already)"
            if event.declared
            else f"declare {event.name} under `events` with it (a command that does not set"
            " it fills it with the value the aggregate holds)"
        )
        missing = {
            f"event.{f.name}": f"a field of {emitter.name} that {event.name} does not carry: {how}"
            for f in emitter.fields
            if f.name not in carried
        }
        return replace(scope, unnamable=missing)

    def _upcasts(
        self, name: str, version: int, upcasts: dict[int, Any], fields: list[RField]
    ) -> list[dict[str, Any]]:
        loc: Loc = ("events", name, "upcasts")
        needed = set(range(1, version))
        if set(upcasts) != needed:
            self.domain.problem(
                loc,
                f"version {version} needs an upcast from each older version "
                f"({_numbers(needed)}), has {_numbers(set(upcasts))}",
            )
        by_name = {f.name: f for f in fields}
        at_version = _fields_by_version(version, upcasts, by_name)
        resolved = []
        for from_version, upcast in sorted(upcasts.items()):
            where = (*loc, from_version)
            names: list[tuple[str, Loc]] = [
                *((old, (*where, "rename", old)) for old in upcast.rename),
                *((new, (*where, "rename", old)) for old, new in upcast.rename.items()),
                *((new, (*where, "add", new)) for new in upcast.add),
                *((gone, (*where, "remove", i)) for i, gone in enumerate(upcast.remove)),
                *((text, (*where, "decode", i)) for i, text in enumerate(upcast.decode)),
            ]
            for field_name, named in names:
                problem = camel_problem(field_name, "field name")
                if problem:
                    self.domain.problem(named, problem)
            added = []
            for field_name, value in upcast.add.items():
                field = by_name.get(field_name)
                if field is not None and from_version == version - 1:
                    value = self.fields.value(value, field, (*where, "add", field_name))
                elif not _json_literal(value):
                    self.domain.problem((*where, "add", field_name), "a value is JSON data")
                    value = None
                added.append([field_name, value])
            computed = []
            # an older step computes over the fields its next version has, as the later
            # steps leave them (renamed back); one a later step adds, computes or decodes
            # is not one it can read or give
            next_fields = at_version.get(from_version + 1, {})
            if upcast.compute:
                computed = self._computed_upcast(upcast.compute, next_fields, where)
            resolved.append(
                {
                    "from": from_version,
                    "rename": [[old, new] for old, new in upcast.rename.items()],
                    "add": added,
                    "remove": list(upcast.remove),
                    "decode": list(upcast.decode),
                    "compute": computed,
                    "fields": next_fields,
                }
            )
        self._upcast_outputs(name, version, upcasts, by_name)
        return resolved

    def _upcast_outputs(
        self, name: str, version: int, upcasts: dict[int, Any], fields: dict[str, RField]
    ) -> None:
        """Each upcast step gives only fields its next version has: walked back from the
        current version, whose fields the spec declares (the names of an older version
        are those the next one has, less what the step made, plus what it renamed away
        or removed)."""
        later = set(fields)
        for from_version in sorted(upcasts, reverse=True):
            upcast = upcasts[from_version]
            where: Loc = ("events", name, "upcasts", from_version)
            made = [
                *((("rename", old), new) for old, new in upcast.rename.items()),
                *((("add", new), new) for new in upcast.add),
                *((("compute", new), new) for new in upcast.compute or {}),
            ]
            decoded = [(("decode", i), name) for i, name in enumerate(upcast.decode)]
            for (key, entry), new in [*made, *decoded]:
                if new not in later:
                    self.domain.problem(
                        (*where, key, entry),
                        f"{'decodes' if key == 'decode' else 'gives'} {new!r}, which version"
                        f" {from_version + 1} of {name} does "
                        f"not have (its fields: {', '.join(sorted(later)) or 'none'})",
                    )
            later = (later - {new for _, new in made}) | set(upcast.rename) | set(upcast.remove)

    def _computed_upcast(
        self, compute: dict[str, str], fields: dict[str, RField], loc: Loc
    ) -> list[dict[str, Any]]:
        """Fields an upcast computes from the payload's other fields (read as the event's
        current types: ``fields`` are those of the step's next version the later steps
        leave as they are, by their names then)."""
        result = []
        inputs = {name: f.full_type for name, f in fields.items() if name not in compute}
        scope = self.fields.scope(inputs)
        for name, text in compute.items():
            target = fields.get(name)
            if target is None:
                self.domain.problem(
                    (*loc, "compute", name),
                    f"the event has no field {name!r} at this step's next version that the"
                    f" later steps keep (its fields then: {', '.join(sorted(fields)) or 'none'})",
                )
                continue
            node = self.fields.expression(text, scope, (*loc, "compute", name), target.full_type)
            if node is not None:
                result.append({"field": target, "node": node})
        return result

    def _commands(self, aggregate: RAggregate, spec: AggregateSpec) -> None:
        emitted: dict[str, str] = {}
        for command_name, command in spec.commands.items():
            resolved = self._command(aggregate, command_name, command)
            if resolved is None:
                continue
            aggregate.commands.append(resolved)
            self._event_of(aggregate, resolved, command, emitted)
        if spec.commands and not any(c.creates for c in aggregate.commands):
            self.domain.problem(
                (*aggregate.loc, "commands"), "an aggregate needs one command with `creates: true`"
            )
        elif not spec.commands:
            self.domain.problem((*aggregate.loc, "commands"), "an aggregate needs commands")
        # a conditional generated secret that no command lists in its params is never made
        complete = len(spec.commands) == len(aggregate.commands)
        given = {p.name for c in aggregate.commands for p in c.params}
        for field in aggregate.fields:
            made = field.secret == "generated" and field.made_when is not None
            if made and complete and field.name not in given:
                self.domain.problem(
                    (*field.loc, "made_when"),
                    f"no command makes {field.name!r}: list it in the params of the"
                    " commands that make it (the request never gives it)",
                )
        id_types = {
            self.domain.events[c.event].fields[0].type.name
            for c in aggregate.commands
            if c.event in self.domain.events
            and self.domain.events[c.event].fields
            and self.domain.events[c.event].fields[0].name == aggregate.event_id
        }
        aggregate.event_id_type = "str" if id_types == {"str"} else "uuid"
        if len(id_types) > 1:
            for event_name in dict.fromkeys(c.event for c in aggregate.commands):
                event = self.domain.events.get(event_name)
                if event is None or not event.declared or not event.fields:
                    continue
                first = event.fields[0]
                if first.name == aggregate.event_id and first.type.name != "uuid":
                    self.domain.problem(
                        ("events", event_name, "fields", first.name, "type"),
                        f"{first.name!r} is {aggregate.name}'s id, a uuid in its other events"
                        f" (every event of an aggregate carries its id as one type)",
                    )

    def _command(self, aggregate: RAggregate, name: str, spec: CommandSpec) -> RCommand | None:
        loc: Loc = (*aggregate.loc, "commands", name)
        problem = camel_problem(name, "command name")
        method = python_attribute(naming.snake(name))
        taken = {f.attr for f in aggregate.fields} | {c.attr for c in aggregate.computed}
        if problem is None and (
            naming.snake(name) in AGGREGATE_METHODS
            or method in taken
            or method in {f"check_{attr}" for attr in taken}
        ):
            # said once: the command is still resolved, so what names it or its event is
            # not refused too
            self.domain.problem(
                loc,
                f"{name!r} is a name every aggregate (or one of its fields) has; choose another",
            )
        elif problem:
            self.domain.problem(loc, problem)
            return None
        by_name = {f.name: f for f in aggregate.fields}
        params: list[RField] = []
        declared = set(self.spec.aggregates[aggregate.name].fields)
        for index, param in enumerate(spec.params):
            if param not in by_name and param in declared:
                continue  # the field itself is wrong, and said so
            if param not in by_name:
                self.domain.problem(
                    (*loc, "params", index),
                    f"unknown parameter {param!r} (expected a field of {aggregate.name}: "
                    f"{', '.join(by_name) or 'none'})",
                )
            elif by_name[param] in params:
                self.domain.problem((*loc, "params", index), f"{param!r} is listed twice")
            else:
                params.append(by_name[param])
        inputs = self.fields.fields(spec.inputs, (*loc, "inputs"))
        for field in inputs:
            if field.name in by_name or field.name in ("id", "now", "today"):
                self.domain.problem(field.loc, f"{field.name!r} is a field; list it in params")
            elif field.name in TIME_STAMPS:
                self.domain.problem(
                    field.loc,
                    f"{field.name!r} is the {aggregate.name}'s own time stamp (expressions"
                    " read it): name the input otherwise",
                )
        if spec.creates and spec.deletes:
            self.domain.problem(loc, "a command creates or deletes, not both")
        scope_names = {} if spec.creates else self._state_scope(aggregate).names
        scope_names = {**scope_names, "now": DATETIME, "today": DATE}
        scope_names.update({f.name: f.full_type for f in [*params, *inputs]})
        scope = self.fields.scope(scope_names)
        secrets = {f.name for f in aggregate.fields if f.secret}
        sets: list[tuple[RField, Node]] = []
        for target, text in spec.set.items():
            where = (*loc, "set", target)
            changed = by_name.get(target)
            if changed is None:
                if target not in declared:  # else the field itself is wrong, and said so
                    self.domain.problem(where, f"unknown field {target!r} of {aggregate.name}")
            elif changed in params:
                self.domain.problem(where, f"{target!r} is a parameter: the request sets it")
            elif changed.secret and not (changed.optional and text is None):
                self.domain.problem(
                    where,
                    f"{target!r} is a secret: a command sets it as a parameter only"
                    + (", or clears it (null)" if changed.optional else ""),
                )
            else:
                node = self.fields.expression(text, scope, where, changed.full_type)
                if node is not None:
                    _no_secret(self.domain, node, secrets, where)
                    sets.append((changed, node))
        when = self.fields.expression(spec.when, scope, (*loc, "when"), BOOL) if spec.when else None
        if when is not None:
            _no_secret(self.domain, when, secrets, (*loc, "when"))
        made_when = self._made_when(name, params, inputs, secrets)
        if spec.error is not None:
            if spec.error not in self.domain.errors:
                self.domain.problem(
                    (*loc, "error"),
                    f"unknown error {spec.error!r} (declared: {listed(self.domain.errors)})",
                )
            if spec.when is None:
                self.domain.problem((*loc, "error"), "`error` is what a false `when` answers")
        if spec.creates:
            given = {f.name for f in params} | {f.name for f, _ in sets}
            missing = [f.name for f in aggregate.fields if f.required and f.name not in given]
            if missing:
                made = [f.name for f in aggregate.fields if f.secret == "generated"]
                hint = [m for m in missing if m in made]
                self.domain.problem(
                    (*loc, "params"),
                    "a creating command sets every field without a default (missing: "
                    f"{', '.join(missing)})"
                    + (
                        f"; list {', '.join(hint)} in params: the service makes a generated"
                        " secret, the request never gives it"
                        if hint
                        else ""
                    ),
                )
        return RCommand(
            name=name,
            method=method,
            loc=loc,
            creates=spec.creates,
            deletes=spec.deletes,
            params=params,
            inputs=inputs,
            sets=sets,
            when=when,
            error=spec.error,
            event=spec.emits,
            also=[],
            description=spec.description or "",
            made_when=made_when,
        )

    def _made_when(
        self, command: str, params: list[RField], inputs: list[RField], secrets: set[str]
    ) -> dict[str, Node]:
        """The conditions of the generated secrets ``command`` sets only on one: over the
        other values the command is given (what the request says, before any state)."""
        given = {f.name: f.full_type for f in [*params, *inputs] if f.name not in secrets}
        scope = self.fields.scope(given)
        found: dict[str, Node] = {}
        for param in params:
            if param.made_when is None:
                continue
            where = (*param.loc, "made_when")
            try:
                node: Node | None = parse(param.made_when, scope, BOOL)
            except ExprError as error:
                node = None
                self.domain.problem(
                    where, f"{error} (made_when reads what command {command!r} is given)"
                )
            if node is not None and can_fail(node):
                self.domain.problem(
                    where,
                    "made_when may fail to compute (a division by 0...): the service must"
                    " know whether it makes the secret",
                )
            elif node is not None:
                found[param.name] = node
        return found

    def _event_of(
        self, aggregate: RAggregate, command: RCommand, spec: CommandSpec, emitted: dict[str, str]
    ) -> None:
        loc: Loc = (*command.loc, "emits")
        if not re.fullmatch(PASCAL, command.event):
            self.domain.problem(loc, f"{command.event!r} must be PascalCase ({PASCAL})")
            return
        for section in ("enums", "values", "errors", "aggregates", "read_models"):
            if command.event in getattr(self.spec, section):
                self.domain.problem(
                    loc,
                    f"{command.event!r} is also declared under {section}: "
                    "an event needs a name of its own",
                )
                return
        changed = [*command.params, *(f for f, _ in command.sets)]
        event = self.domain.events.get(command.event)
        if event is None or not event.declared:
            if command.event in emitted or command.event in self.domain.events:
                other = emitted.get(command.event, "another aggregate")
                self.domain.problem(
                    loc, f"{command.event} is also emitted by {other}: declare it under `events`"
                )
                return
            problem = class_name_problem(command.event)
            if problem:
                self.domain.problem(loc, problem)
                return
            id_field = RField(
                aggregate.event_id, python_attribute(naming.snake(aggregate.event_id)), UUID, loc
            )
            stamp = RField(TIMESTAMP, "occurred_at", TypeRef.scalar("datetime"), loc)
            carried = [*changed, *command.inputs]
            if command.creates:
                carried = [*carried, *(f for f in aggregate.fields if f not in carried)]
            self.domain.events[command.event] = REvent(
                command.event,
                1,
                [id_field, *carried, stamp],
                [],
                declared=False,
                aggregate=aggregate.name,
            )
            emitted[command.event] = f"{aggregate.name}.{command.name}"
            return
        if event.aggregate not in (None, aggregate.name):
            self.domain.problem(loc, f"{command.event} is an event of {event.aggregate}")
            return
        event.aggregate = aggregate.name
        emitted[command.event] = f"{aggregate.name}.{command.name}"
        self._event_fits(aggregate, command, event, changed)

    def _event_fits(
        self, aggregate: RAggregate, command: RCommand, event: REvent, changed: list[RField]
    ) -> None:
        where: Loc = ("events", event.name, "fields")
        fields = {f.name: f for f in aggregate.fields}
        inputs = {f.name: f for f in command.inputs}
        carried = {f.name: f for f in event.fields}
        for name in (aggregate.event_id, TIMESTAMP):
            if name not in carried:
                self.domain.problem(
                    where,
                    f"an event of {aggregate.name} carries {name!r} (the aggregate id and when "
                    "it happened), so that replaying it rebuilds the aggregate",
                )
        for field in event.fields:
            source = fields.get(field.name) or inputs.get(field.name)
            if field.name == aggregate.event_id:
                if field.type not in (UUID, STR) or field.optional:
                    self.domain.problem(
                        (*where, field.name, "type"), "the aggregate id is a uuid or a str"
                    )
            elif field.name == TIMESTAMP:
                if field.type != TypeRef.scalar("datetime"):
                    self.domain.problem((*where, field.name, "type"), "occurredAt is a datetime")
            elif source is None:
                known = sorted({aggregate.event_id, TIMESTAMP, *fields, *inputs})
                self.domain.problem(
                    (*where, field.name),
                    f"{aggregate.name}.{command.name} cannot fill {field.name!r} (expected one "
                    f"of: {', '.join(known)})",
                )
            elif source.full_type != field.full_type:
                self.domain.problem(
                    (*where, field.name, "type"),
                    f"{field.name!r} is {source.full_type} in {aggregate.name}, "
                    f"not {field.full_type}",
                )
        lost = [f.name for f in changed if f.name not in carried]
        if command.creates:
            lost += [
                f.name
                for f in aggregate.fields
                if f.required and f.name not in carried and f.name not in lost
            ]
        if lost:
            self.domain.problem(
                (*command.loc, "emits"),
                f"{event.name} must carry what {command.name} sets, or replaying it loses it "
                f"(missing: {', '.join(lost)})",
            )

    def _also(self, aggregate: RAggregate, spec: AggregateSpec) -> None:
        for command in aggregate.commands:
            command_spec = spec.commands[command.name]
            for index, also in enumerate(command_spec.also):
                loc: Loc = (*command.loc, "also", index)
                target_name, _, member = also.command.partition(".")
                target = self.domain.aggregates.get(target_name)
                other = target.command(member) if target else None
                if target is None or other is None:
                    self.domain.problem(
                        (*loc, "command"),
                        f"unknown command {also.command!r} (<Aggregate>.<command>)",
                    )
                    continue
                if target is aggregate or other.creates or other.also or other is command:
                    self.domain.problem(
                        (*loc, "command"),
                        "`also` runs a command of another, existing aggregate that has no "
                        "`also` of its own",
                    )
                    continue
                scope_names = {} if command.creates else self._state_scope(aggregate).names
                scope_names = {**scope_names, "now": DATETIME, "today": DATE}
                scope_names.update({f.name: f.full_type for f in command.arguments})
                scope = self.fields.scope(scope_names)
                id_node = self.fields.expression(also.id, scope, (*loc, "id"), None)
                reference = next(
                    (
                        f
                        for f in [*aggregate.fields, *command.arguments]
                        if id_node is not None
                        and id_node.op == "name"
                        and f.name == id_node.value
                        and f.references == target_name
                    ),
                    None,
                )
                if id_node is not None and reference is None:
                    self.domain.problem(
                        (*loc, "id"),
                        f"the id is a field of {aggregate.name}, or an input of the command,"
                        f" with `references: {target_name}`",
                    )
                    continue
                args: dict[str, Node] = {}
                wanted = {f.name: f for f in other.arguments}
                for key, text in also.with_.items():
                    if key not in wanted:
                        self.domain.problem(
                            (*loc, "with", key),
                            f"{also.command} takes no {key!r} (takes: {listed(wanted)})",
                        )
                        continue
                    node = self.fields.expression(
                        text, scope, (*loc, "with", key), wanted[key].full_type
                    )
                    if node is not None:
                        args[key] = node
                        self._also_reference(
                            wanted[key], node, [*aggregate.fields, *command.arguments],
                            (*loc, "with", key),
                        )  # fmt: skip
                missing = _not_given(wanted, also.with_)
                if missing:
                    self.domain.problem((*loc, "with"), missing)
                if id_node is not None:
                    command.also.append(RAlso(target_name, member, id_node, args))

    def _also_reference(self, given: RField, node: Node, known: list[RField], loc: Loc) -> None:
        """A reference an ``also`` gives the other command is one the command checks: a
        field or an argument of its own that references the same aggregate (the request
        is refused naming it, and the tests make what it names)."""
        if not given.references:
            return
        same = next(
            (
                f
                for f in known
                if node.op == "name"
                and f.name == node.value
                and f.references == given.references
                and f.references_key == given.references_key
            ),
            None,
        )
        if same is None:
            named = given.references + (f".{given.references_key}" if given.references_key else "")
            self.domain.problem(
                loc,
                f"{given.name} references {named}: give it a field or an argument of this"
                f" command with `references: {named}` (then the request's value is checked,"
                " and the tests make what it names)",
            )


def _numbers(values: set[int]) -> str:
    shown = sorted(values)
    text = ", ".join(map(str, shown[:10])) + (", ..." if len(shown) > 10 else "")
    return text or "none"


def _json_literal(value: Any, depth: int = 0) -> bool:
    if depth > 20:
        return False
    if value is None or isinstance(value, str | bool | int):
        return not isinstance(value, int) or isinstance(value, bool) or abs(value) < 2**63
    if isinstance(value, float):
        return value == value and abs(value) != float("inf")
    if isinstance(value, list):
        return all(_json_literal(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_literal(v, depth + 1) for k, v in value.items())
    return False


KEY_LABEL = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"


def _vary(fields: list[RField]) -> None:
    """Where none of ``fields`` (a unique combination, a key) is a required reference (a new
    aggregate made per test), the tests vary the examples of one of them, so that the
    aggregates they make stay distinct."""
    if not any(f.references and not f.optional for f in fields):
        plain = [f for f in fields if f.type.kind != "enum" and not f.references]
        (plain or fields)[-1].varied = True


def _why(field: RField) -> str:
    """Why ``field`` may not be unique, when its type has a reason beyond being no scalar."""
    why = NOT_UNIQUE_WHY.get(field.type.name) if field.type.is_scalar() else None
    return f" ({why})" if why else ""


def _unshareable(aggregate: RAggregate, other: RAggregate) -> str | None:
    """Why ``other``'s key cannot take the values of ``aggregate``'s, if so: the keys'
    fields pair in order, of one type with the same rules (a value valid for one is valid
    for the other: ``like`` says it once), and both ignore case or neither does."""
    mine, theirs = aggregate.key, other.key
    if len(mine) != len(theirs):
        return (
            f"{other.name}'s key has {len(theirs)} field(s), this one {len(mine)}: the keys'"
            " fields pair in order"
        )
    for own, its in zip(mine, theirs, strict=True):
        if own.type != its.type:
            return (
                f"{aggregate.name}.{own.name} is of type {own.type}, {other.name}.{its.name}"
                f" of type {its.type}: the keys' fields pair in order, of one type"
            )
        if (own.rules, own.item_rules, own.normalize) != (its.rules, its.item_rules, its.normalize):
            return (
                f"{aggregate.name}.{own.name} and {other.name}.{its.name} have different rules"
                f" (or normalize): a shared key's values are valid for both (say"
                f" `like: {other.name}.{its.name}`)"
            )
    if aggregate.key_ignore_case != other.key_ignore_case:
        theirs_, mine_ = ("ignores", "keeps") if other.key_ignore_case else ("keeps", "ignores")
        return (
            f"{other.name}'s key {theirs_} case, this one {mine_} it: both ignore case or"
            " neither does"
        )
    return None


def _may_be_unique(field: RField) -> bool:
    """Whether the field's values may be kept unique (a scalar of a comparable kind, an
    enum)."""
    return field.type.kind == "enum" or field.type.is_scalar(*sorted(UNIQUE_TYPES))


def _no_secret(domain: Domain, node: Node, secrets: set[str], loc: Loc) -> None:
    """A problem when expression ``node`` reads one of the ``secrets`` (only hashes kept)."""
    if read := sorted(names_beyond_presence(node) & secrets):
        domain.problem(
            loc,
            f"{read[0]!r} is a secret: no rule may read it (only its hash or sealed text is"
            f" kept), only ask whether it is set (`{read[0]} is not None`)",
        )


def _by_key(emitter: RAggregate | None, id_node: Node | None, target: str) -> bool:
    """Whether a policy's id ``event.<field>`` names its target by its key: the field is
    the emitting aggregate's natural reference to the target (``references: Role.name``),
    which ``also`` finds by the key too."""
    if emitter is None or id_node is None or id_node.op != "name":
        return False
    field = emitter.field(str(id_node.value).removeprefix("event."))
    return field is not None and field.references == target and field.references_key is not None


def _fields_by_version(
    version: int, upcasts: Mapping[int, Any], current: dict[str, RField]
) -> dict[int, dict[str, RField]]:
    """The fields of each version of an event whose type the spec knows: the current ones,
    walked back through the upcasts (a field a step renamed goes by its older name; one a
    step adds, computes or decodes did not exist before it, or had another type)."""
    known = dict(current)
    found = {version: dict(known)}
    for from_version in sorted(upcasts, reverse=True):
        upcast = upcasts[from_version]
        renamed = {new: old for old, new in upcast.rename.items()}
        made = set(upcast.add) | set(upcast.compute or {}) | set(upcast.decode)
        older: dict[str, RField] = {}
        for name, field in known.items():
            if name in renamed:
                old = renamed[name]
                older[old] = replace(field, name=old, attr=python_attribute(naming.snake(old)))
            elif name not in made:
                older[name] = field
        known = older
        found[from_version] = dict(known)
    return found
