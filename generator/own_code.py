"""The hand-written code a spec names (a component's factory, an aggregate's service):
after a render, what of it the project does not have yet, read from its source with
``ast`` (never imported or run)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from generator import naming
from generator.reserved import call_keyword
from generator.spec import Spec


@dataclass(frozen=True)
class Expected:
    """A function or class the spec names at ``key`` (``components.mailer.factory``),
    with the keyword parameters a factory is called with."""

    key: str
    target: str
    kind: str  # "function", "class", "built" (a class called with ``needs``) or "method"
    needs: tuple[str, ...] = ()
    method: str = ""
    """A call's method of the class (kind ``method``), awaited with ``needs``."""

    @property
    def module(self) -> str:
        return self.target.partition(":")[0]

    @property
    def name(self) -> str:
        return self.target.partition(":")[2]


def expected(spec: Spec) -> list[Expected]:
    """What hand-written code the spec names, in spec order (a component's type when it
    is the service's own)."""
    package = naming.package(spec.name)
    found = []
    for name, c in spec.components.items():
        keywords = tuple(c.keywords())
        if c.type.startswith(f"{package}."):
            if c.factory or c.constructor:
                found.append(Expected(f"components.{name}.type", c.class_path, "class"))
            else:  # the composition root calls the type
                found.append(Expected(f"components.{name}.type", c.class_path, "built", keywords))
        if c.factory:
            found.append(Expected(f"components.{name}.factory", c.factory, "function", keywords))
    for name, c in spec.components.items():
        if c.on_start and c.type.startswith(f"{package}."):
            found.append(
                Expected(f"components.{name}.on_start", c.class_path, "method", (), c.on_start)
            )
    calls = [(f"endpoints.{i}.call", e.call, list(e.inputs)) for i, e in enumerate(spec.endpoints)]
    calls += [
        (f"cli.commands.{name}.call", command.call, list(command.inputs))
        for name, command in (spec.cli.commands if spec.cli else {}).items()
    ]
    for key, call, inputs in calls:
        component, _, method = (call or "").partition(".")
        served = spec.components.get(component)
        if served is not None and served.type.startswith(f"{package}."):
            keywords = tuple(call_keyword(naming.snake(name)) for name in inputs)
            found.append(Expected(key, served.class_path, "method", keywords, method))
    found += [
        Expected(f"aggregates.{name}.service", a.service, "class")
        for name, a in spec.aggregates.items()
        if a.service
    ]
    return found


def missing(spec: Spec, project: Path) -> list[str]:
    """One line per named function or class the project's ``src`` lacks, or whose
    parameters are not those the composition root passes; nothing for what is there."""
    lines = []
    for item in expected(spec):
        relative = Path("src", *item.module.split("."))
        file = next(
            (
                project / path
                for path in (relative.with_suffix(".py"), relative / "__init__.py")
                if (project / path).is_file()
            ),
            None,
        )
        if file is None:
            lines.append(f"{item.key}: write {relative.with_suffix('.py')} with {_stub(item)}")
            continue
        try:
            tree = ast.parse(file.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue  # the project's own checks report it
        shown = str(file.relative_to(project))
        definition = _defined(tree, item.name)
        if definition is None:
            lines.append(f"{item.key}: {shown} has no {item.name!r}: add {_stub(item)}")
        elif item.kind == "function" and isinstance(
            definition, ast.FunctionDef | ast.AsyncFunctionDef
        ):
            problem = _call_problem(definition, item.needs)
            if problem:
                lines.append(f"{item.key}: {shown}: {item.name}() {problem}")
        elif item.kind == "built" and isinstance(definition, ast.ClassDef):
            problem = _construction_problem(definition, item.needs)
            if problem:
                lines.append(f"{item.key}: {shown}: {item.name}() {problem}")
        elif item.kind == "method" and isinstance(definition, ast.ClassDef):
            line = _method_problem(definition, item)
            if line:
                lines.append(f"{item.key}: {shown}: {line}")
    return lines


def _method_problem(definition: ast.ClassDef, item: Expected) -> str | None:
    """Why the route cannot await ``item.method`` of the class with its inputs, or None
    (a method it inherits is not followed)."""
    method = next(
        (
            node
            for node in definition.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == item.method
        ),
        None,
    )
    if method is None:
        if definition.bases:
            return None  # it may inherit it: mypy checks the call
        return f"{item.name} has no {item.method!r}: add {_method_stub(item)}"
    if isinstance(method, ast.FunctionDef):
        return f"{item.name}.{item.method} is awaited: make it {_method_stub(item)}"
    problem = _call_problem(method, item.needs, bound=True, given="the call's `inputs`")
    return f"{item.name}.{item.method}() {problem}" if problem else None


def _method_stub(item: Expected) -> str:
    keywords = f"*, {', '.join(item.needs)}" if item.needs else ""
    return f"async def {item.method}(self{', ' if keywords else ''}{keywords})"


def _stub(item: Expected) -> str:
    if item.kind == "method":
        return f"class {item.name} with {_method_stub(item)}"
    if item.kind == "built" and item.needs:
        return f"class {item.name} with def __init__(self, *, {', '.join(item.needs)})"
    if item.kind != "function":
        return f"class {item.name}"
    return f"def {item.name}({', '.join(item.needs)})"


def _defined(tree: ast.Module, name: str) -> ast.stmt | None:
    """The module-level statement that defines ``name`` (a def, class, assignment or
    import), or None."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                return node
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return node
        elif isinstance(node, ast.Import | ast.ImportFrom) and any(
            (alias.asname or alias.name.split(".")[0]) == name for alias in node.names
        ):
            return node
    return None


def _construction_problem(definition: ast.ClassDef, needs: tuple[str, ...]) -> str | None:
    """Why building the class with the keywords ``needs`` fails, or None: checked against
    its own ``__init__``, or the fields of a dataclass (an inherited ``__init__`` is not
    followed)."""
    for node in definition.body:
        if isinstance(node, ast.FunctionDef) and node.name == "__init__":
            return _call_problem(node, needs, bound=True)
    if not any(_is_dataclass(decorator) for decorator in definition.decorator_list):
        return None
    fields = [
        node
        for node in definition.body
        if isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and "ClassVar" not in ast.unparse(node.annotation)
    ]
    names = {field.target.id for field in fields if isinstance(field.target, ast.Name)}
    required = sorted(
        field.target.id
        for field in fields
        if isinstance(field.target, ast.Name) and field.value is None
    )
    unfilled = [name for name in required if name not in needs]
    if unfilled:
        return f"needs {', '.join(unfilled)}, which the spec's `needs` does not list"
    unknown = [need for need in needs if need not in names]
    if unknown:
        return f"takes no {', '.join(unknown)}, which the spec's `needs` lists"
    return None


def _is_dataclass(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name == "dataclass"


def _call_problem(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    needs: tuple[str, ...],
    *,
    bound: bool = False,
    given: str = "the spec's `needs`",
) -> str | None:
    """Why a call of ``function`` with the keywords ``needs`` fails, or None (``bound``:
    its first parameter is ``self``)."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args][1 if bound else 0 :]
    defaults = len(arguments.defaults)
    required = {a.arg for a in positional[: len(positional) - defaults]}
    required -= {a.arg for a in arguments.posonlyargs}  # reported below
    required |= {
        a.arg
        for a, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)
        if default is None
    }
    accepted = {a.arg for a in [*arguments.args, *arguments.kwonlyargs]}
    if arguments.posonlyargs and any(a.arg in needs for a in arguments.posonlyargs):
        return "takes positional-only parameters; the composition root passes keywords"
    unfilled = sorted(required - set(needs))
    if unfilled:
        return f"needs {', '.join(unfilled)}, which {given} does not list"
    if arguments.kwarg is None:
        unknown = [need for need in needs if need not in accepted]
        if unknown:
            return f"takes no {', '.join(unknown)}, which {given} lists"
    return None
