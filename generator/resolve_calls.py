"""What awaits a hand-written component's method, resolved: a call endpoint's method and
inputs (shared with ``resolve_http``) and the operator CLI's commands."""

from __future__ import annotations

import keyword
import re

from generator import naming
from generator.resolve_fields import FieldResolver
from generator.resolved import Domain, Loc, RCli, RCliCommand, RField, listed
from generator.spec import FieldSpec, Spec

COMMAND = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
METHOD = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
OPTION_TYPES = frozenset({"str", "int", "float", "decimal", "bool", "date", "datetime", "uuid"})


def called_method(spec: Spec, domain: Domain, call: str, loc: Loc) -> tuple[str, str] | None:
    """The component and method ``call`` (``<component>.<method>``) names, or None with the
    problem reported at ``loc``."""
    component, _, method = call.partition(".")
    if component not in spec.components:
        domain.problem(
            loc,
            f"unknown component {component!r} (a call names <component>.<method>; expected"
            f" one of: {listed(spec.components) if spec.components else 'none declared'})",
        )
        return None
    if not METHOD.fullmatch(method) or keyword.iskeyword(method):
        domain.problem(
            loc,
            f"{method!r} is no method name: a call names <component>.<method>, the method"
            " in snake_case",
        )
        return None
    return component, method


def method_inputs(
    fields: FieldResolver, specs: dict[str, FieldSpec], loc: Loc, what: str
) -> tuple[list[RField], bool]:
    """The inputs a method is given (``what``: whose they are), and whether each may be
    one: no ``unique`` or ``references``, which only a command's use case checks."""
    inputs = fields.fields(specs, loc)
    ok = True
    for field_ in inputs:
        for key, holds in (("unique", field_.unique), ("references", field_.references)):
            if holds:
                ok = False
                fields.domain.problem(
                    (*field_.loc, key),
                    f"{key} applies to the fields of aggregates and commands: {what} go to"
                    " its method as given (check them there)",
                )
    return inputs, ok


def resolve_cli(spec: Spec, domain: Domain, fields: FieldResolver) -> None:
    """``spec.cli`` as ``domain.cli``, each problem reported at its place."""
    if spec.cli is None:
        return
    loc: Loc = ("cli",)
    name = spec.cli.name or f"{spec.name}-admin"
    if spec.kind != "app":
        domain.problem(loc, "a CLI runs a service's components: only an app (kind: app) has one")
        return
    if name in spec.scripts or name == spec.name:
        domain.problem(
            (*loc, "name"),
            f"{name!r} is also a script of the service: name the CLI otherwise (`cli.name`)",
        )
    commands = []
    for command_name, command in spec.cli.commands.items():
        where: Loc = (*loc, "commands", command_name)
        if not COMMAND.fullmatch(command_name) or len(command_name) > 40:
            domain.problem(where, "a command is lower-case words with dashes (create-admin)")
            continue
        called = called_method(spec, domain, command.call, (*where, "call"))
        if called is None:
            continue
        component, method = called
        inputs, ok = method_inputs(fields, command.inputs, (*where, "inputs"), "a command's inputs")
        for field_ in inputs:
            type_ = field_.type
            if type_.kind not in ("scalar", "enum") or (
                type_.kind == "scalar" and type_.name not in OPTION_TYPES
            ):
                ok = False
                domain.problem(
                    (*field_.loc, "type"),
                    f"an option is one value: {', '.join(sorted(OPTION_TYPES))} or an enum,"
                    f" not {type_}",
                )
        promptable = [f.name for f in inputs if f.type.is_scalar("str") and f.required]
        for index, prompted in enumerate(command.prompt):
            if prompted not in promptable:
                ok = False
                domain.problem(
                    (*where, "prompt", index),
                    f"{prompted!r} is no required str input: a prompt reads one from the"
                    f" terminal (expected one of: {listed(promptable) or 'none'})",
                )
        taken = {"help": "--help"} | (
            {"tenant": "--tenant, of `tenant: true`"} if command.tenant else {}
        )
        for field_ in inputs:
            option = naming.kebab(field_.name)
            if option in taken:
                ok = False
                domain.problem(
                    field_.loc,
                    f"{field_.name!r} would be the option --{option}, which is"
                    f" {taken[option]}: name the input otherwise",
                )
            taken[option] = f"{field_.name!r}'s"
        if ok:
            commands.append(
                RCliCommand(
                    name=command_name,
                    component=component,
                    method=method,
                    inputs=inputs,
                    prompt=list(command.prompt),
                    tenant=command.tenant,
                    summary=command.summary,
                    description=command.description,
                )
            )
    domain.cli = RCli(name=name, description=spec.cli.description, commands=commands)
