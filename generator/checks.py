"""What a per-key schema cannot check: names, references, types and expressions (through
`resolve`), the examples the generated tests run, consumed events, libraries, and the
requirements and scripts written into pyproject.toml."""

from __future__ import annotations

import builtins
import keyword
import math
import re
import sys
from collections.abc import Iterator

from generator import naming
from generator.context_tests import reference_cycle
from generator.expr_code import today_and_now
from generator.installed import installed, normalized
from generator.resolve import class_names, resolve
from generator.resolve_fields import camel_problem
from generator.resolved import Domain, Loc
from generator.scenarios import example_problems
from generator.spec import CONSUMED_EVENT, ComponentSpec, Spec
from generator.values import Catalog
from generator.workspace import Workspace, template_root

Finding = tuple[Loc, str]
SCRIPT_NAME = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
SCRIPT_TARGET = r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*:[a-z_][a-z0-9_]*$"
COMPONENT_NAME = r"^[a-z][a-z0-9_]{0,39}$"
COMPONENT_TYPE = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*$"
GENERIC_TYPE = COMPONENT_TYPE.removesuffix("$") + r"(\[Any(, Any){0,4}\])?$"
SETTING_KEY = r"^[a-z][a-z0-9_]{0,39}(\.[a-z][a-z0-9_]{0,39}){1,5}$"
RUNTIME_SECTIONS = frozenset(
    {"application", "server", "broker", "database", "logging", "flags", "policies"}
)
"""Sections of the settings the runtime declares and checks itself."""
BOOTSTRAP_NAMES = frozenset(
    {"settings", "store", "transactions", "clock", "read_models", "queries", "relay",
     "publisher", "workers", "reactions", "consumers", "projectors", "policies", "iam",
     "services", "worker", "overrides", "app", "flags", "feature_flags", "iam_client",
     "dataclass", "field", "open_event_store", "policy_runner", "store_transactions",
     "projection_store", "default_reactions", "bootstrap", "eaf"}
)  # fmt: skip
"""Names the composition root uses for its own parts: a component may not take one."""
BOOTSTRAP_PARTS = frozenset(
    {"settings", "store", "transactions", "clock", "read_models", "queries", "relay",
     "publisher", "workers", "reactions", "consumers", "projectors", "policies", "iam",
     "flags", "overrides"}
)  # fmt: skip
"""The parameters, fields and locals of ``bootstrap``, ``Services`` and ``create_app`` that
an aggregate's use cases (named after it) would take twice."""


def semantic_problems(spec: Spec) -> list[Finding]:
    """Every problem of ``spec`` beyond its schema, each with its location."""
    domain = resolve(spec)
    problems = [
        *_package(spec),
        *domain.problems,
        *_library(spec),
        *_consumes(spec),
        *_requirements(spec),
        *_scripts(spec),
        *_adapter_imports(spec),
        *_system_packages(spec),
        *_settings(spec),
        *_components(spec),
        *_part_names(spec),
        *_token_validator(spec),
        *_services(spec),
    ]
    if not problems:
        cycle = reference_cycle(domain)
        if cycle:
            problems.append(
                (
                    ("aggregates", cycle[0]),
                    "creating these needs the next one to exist first: "
                    f"{' -> '.join(cycle)} (make one of the references optional)",
                )
            )
    if not problems:
        problems += examples(domain)
    return problems


def examples(domain: Domain) -> list[Finding]:
    catalog = Catalog({n: v.fields for n, v in domain.values.items()}, domain.enums)
    today, now = today_and_now()
    return example_problems(domain, catalog, today, now)


TAKEN_PACKAGES = frozenset(
    {"fastapi", "pydantic", "starlette", "uvicorn", "sqlalchemy", "nats", "httpx", "httpx2",
     "pytest", "yaml", "typer", "jinja2", "casbin", "joserfc", "argon2", "aiosqlite",
     "asyncpg", "re2", "stamina", "prometheus_client", "generator", "contracts", "layer_contracts",
     "tests"}
)  # fmt: skip
"""Packages a rendered project imports (besides the runtime's dependencies, which
`generator.installed` reads from its libraries' pyprojects): a service may not shadow them."""


def _package(spec: Spec) -> Iterator[Finding]:
    package = naming.package(spec.name)
    workspace = installed(template_root())
    needed = workspace.dependencies.get(normalized(spec.name))
    if keyword.iskeyword(package) or keyword.issoftkeyword(package):
        yield ("name",), f"{spec.name!r} is a Python keyword, which cannot name a package"
    elif needed is not None:
        yield (
            ("name",),
            f"{spec.name!r} is a distribution every project of the workspace installs (a"
            f" dependency of {needed}): a service of that name would replace it and `uv sync`"
            " would fail for every project; choose another name",
        )
    elif package in workspace.imports and workspace.imports[package] not in workspace.libraries:
        yield (
            ("name",),
            f"the package {package!r} would shadow the module of that name, installed by"
            f" {workspace.imports[package]} in every project; choose another name",
        )
    elif package in sys.stdlib_module_names or package in TAKEN_PACKAGES:
        yield (
            ("name",),
            f"the package {package!r} would shadow the module of that name; choose another name",
        )


def runtime_library_problem(name: str, workspace: Workspace | None) -> str | None:
    """Why a service may not be named ``name``: it is the name of a runtime library, which
    every project installs; none for the library's own spec, beside its project in the
    workspace's libraries."""
    runtime = installed(template_root())
    library = normalized(name)
    if library not in runtime.libraries:
        library = runtime.imports.get(naming.package(name), "")
    if library not in runtime.libraries:
        return None
    if workspace is not None and (workspace.libs / name / ".copier-answers.yml").is_file():
        return None
    return (
        f"{name!r} is the runtime library {library} (or its import package), which every"
        " project of the workspace installs: a service of that name would replace it and"
        " `uv sync --all-packages` would fail for every project; choose another name"
    )


def _library(spec: Spec) -> Iterator[Finding]:
    if spec.kind == "lib" and spec.endpoints:
        yield ("endpoints",), "a library has no endpoints (use kind: app)"
    if spec.kind == "lib" and spec.read_models:
        yield ("read_models",), "read models are served by apps (use kind: app)"
    if spec.kind == "lib" and spec.policies:
        yield ("policies",), "policies run in apps (use kind: app)"
    if spec.kind == "app" and spec.layers:
        yield ("layers",), "`layers` is for libraries (kind: lib)"
    if spec.kind == "app" and not spec.aggregates:
        yield (
            ("aggregates",),
            "an app needs at least one aggregate (a service that only reacts to consumed "
            "events cannot be rendered yet: declare the aggregate its reactions change)",
        )
    for index, layer in enumerate(spec.layers):
        for part in layer.split("|"):
            if not re.fullmatch(r"[a-z_][a-z0-9_]*", part.strip()):
                yield ("layers", index), f"{part.strip()[:40]!r} is not a subpackage name"


def _consumes(spec: Spec) -> Iterator[Finding]:
    if spec.kind == "lib" and spec.consumes:
        yield ("consumes",), "a library has no consumers (use kind: app)"
    own = set(class_names(spec))
    handlers: dict[str, str] = {}
    durables: dict[str, str] = {}
    for key, consumed in spec.consumes.items():
        if not re.fullmatch(CONSUMED_EVENT, key) or len(key) > 130:
            yield (
                ("consumes", key),
                (f"{key[:60]!r} must name <service>.<EventType>, e.g. iam.TenantCreatedEvent"),
            )
            continue
        producer, event = key.split(".")
        if event in own:
            yield ("consumes", key), f"{event!r} is also declared in this spec; rename one"
        if producer == spec.name:
            yield ("consumes", key), "a service consumes other services' events, not its own"
        if consumed.handler is not None:
            problem = camel_problem(consumed.handler, "handler name")
            if problem:
                yield ("consumes", key, "handler"), problem
                continue
        for field in consumed.fields:
            problem = camel_problem(field, "field name")
            if problem:
                yield ("consumes", key, "fields", field), problem
        handler = naming.consumer_handler(key, consumed.handler)
        if handler in handlers:
            yield ("consumes", key, "handler"), f"{handler!r} also handles {handlers[handler]}"
        handlers[handler] = key
        durable = naming.consumer_durable(spec.name, key, consumed.durable)
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", durable):
            yield (
                ("consumes", key, "durable"),
                f"{durable[:70]!r} is not a durable name ([A-Za-z0-9_-], 64)",
            )
        elif durable in durables:
            yield (
                ("consumes", key, "durable"),
                f"{durable!r} is also the group of {durables[durable]}",
            )
        durables[durable] = key


def _requirements(spec: Spec) -> Iterator[Finding]:
    from packaging.requirements import InvalidRequirement, Requirement

    for index, text in enumerate(spec.dependencies):
        try:
            requirement = Requirement(text)
        except InvalidRequirement as error:
            yield ("dependencies", index), f"not a PEP 508 requirement: {str(error)[:120]}"
            continue
        if requirement.url:
            yield ("dependencies", index), "a requirement names a package from an index, not a URL"


def _adapter_imports(spec: Spec) -> Iterator[Finding]:
    for index, name in enumerate(spec.adapter_imports):
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*", name):
            yield ("adapter_imports", index), f"{name!r} is not a module name"


def _system_packages(spec: Spec) -> Iterator[Finding]:
    for index, name in enumerate(spec.system_packages):
        if not re.fullmatch(r"[a-z0-9][a-z0-9+.-]+", name):
            yield ("system_packages", index), f"{name!r} is not a Debian package name"


def _scripts(spec: Spec) -> Iterator[Finding]:
    for name, target in spec.scripts.items():
        if not re.fullmatch(SCRIPT_NAME, name):
            yield ("scripts", name), f"{name[:40]!r} is not a script name ({SCRIPT_NAME})"
        if not re.fullmatch(SCRIPT_TARGET, target) or len(target) > 200:
            yield ("scripts", name), f"{target[:60]!r} is not module:function"


def _own_code(spec: Spec, target: str, where: Loc, form: str) -> Iterator[Finding]:
    """``target`` names ``form`` (module:Class or module:function) in a hand-written module
    of the service's package."""
    package = naming.package(spec.name)
    module, _, _ = target.partition(":")
    pattern = SCRIPT_TARGET if form == "module:function" else COMPONENT_TYPE
    if not re.fullmatch(pattern, target):
        yield where, f"{target[:60]!r} is not {form}"
    elif not module.startswith(f"{package}."):
        yield where, f"it is hand-written code of this service: a module of {package!r}"
    elif module in (f"{package}.bootstrap", f"{package}.main"):
        yield where, f"{module!r} is rendered and imports the factories"


def _services(spec: Spec) -> Iterator[Finding]:
    package = naming.package(spec.name)
    own_code = spec.components or any(a.service for a in spec.aggregates.values())
    for name in spec.aggregates:
        if own_code and naming.snake(name) == package:
            yield (
                ("aggregates", name),
                f"{name}'s use cases would be named {package!r} in the composition root, which"
                f" imports the hand-written code from the package {package!r}: rename the"
                f" service (e.g. {spec.name}s) or the aggregate",
            )
    for name, aggregate in spec.aggregates.items():
        if aggregate.service is not None:
            yield from _own_code(
                spec, aggregate.service, ("aggregates", name, "service"), "module:Class"
            )


def _token_validator(spec: Spec) -> Iterator[Finding]:
    name = spec.token_validator
    if name is None:
        return
    where = ("token_validator",)
    if name not in spec.components:
        listed = ", ".join(spec.components) or "none is listed"
        yield where, f"{name[:40]!r} is no component of this spec (components: {listed})"
    elif not any(endpoint.permission for endpoint in spec.endpoints):
        yield where, "no endpoint has a permission: there is no bearer token to validate"


def _part_names(spec: Spec) -> Iterator[Finding]:
    """An aggregate whose use cases would take the name of a part of the composition root
    (``Relay`` would be a second ``relay`` parameter of ``bootstrap``)."""
    for name in spec.aggregates:
        if isinstance(name, str) and naming.snake(name) in BOOTSTRAP_PARTS:
            yield (
                ("aggregates", name),
                f"{name!r} is the composition root's own {naming.snake(name)!r}: choose"
                " another name",
            )


def _settings(spec: Spec) -> Iterator[Finding]:
    """Each key dotted snake_case, outside the runtime's sections, no key inside another,
    each default of its type."""
    if spec.kind == "lib" and spec.settings:
        yield ("settings",), "settings are read by an app's composition root (use kind: app)"
        return
    keys = set(spec.settings)
    for key, setting in spec.settings.items():
        where: Loc = ("settings", key)
        if not re.fullmatch(SETTING_KEY, key):
            yield where, f"{key[:60]!r} is not a dotted key of snake_case words (section.key)"
            continue
        section = key.split(".", 1)[0]
        if section in RUNTIME_SECTIONS:
            yield where, f"{section}.* are the runtime's own settings: choose another section"
        inner = sorted(k for k in keys if k.startswith(f"{key}."))
        if inner:
            yield where, f"{key!r} would be a section of {inner[0]!r}, not a value"
        if setting.default is not None:
            problem = _default_problem(setting.type, setting.default)
            if problem:
                yield (*where, "default"), problem


def _default_problem(kind: str, default: object) -> str | None:
    if isinstance(default, float) and not math.isfinite(default):
        return "a default is a finite number"
    expected = {
        "str": (str,),
        "path": (str,),
        "int": (int,),
        "float": (int, float),
        "seconds": (int, float),
        "bool": (bool,),
    }[kind]
    if isinstance(default, bool) != (kind == "bool") or not isinstance(default, expected):
        return f"{default!r} is no {kind}"
    if kind == "seconds" and isinstance(default, int | float) and default < 0:
        return "a number of seconds is 0 or more"
    return None


def _components(spec: Spec) -> Iterator[Finding]:
    if spec.kind == "lib" and spec.components:
        yield ("components",), "components are wired by an app's composition root (use kind: app)"
        return
    package = naming.package(spec.name)
    aggregates = {naming.snake(name) for name in spec.aggregates}
    repositories = set(naming.repository_parts(list(spec.aggregates)))
    available = {
        *("settings", "store", "transactions", "clock", "relay"),
        *("password_hasher", "sealed_secrets"),
    }
    available |= aggregates | repositories
    if spec.read_models:
        available |= {"read_models", "queries"}
        available |= set(naming.queries_parts(list(spec.read_models), available))
    if spec.consumes:
        available.add("reactions")
    taken = BOOTSTRAP_NAMES | available | {package} | set(dir(builtins))
    taken |= {
        target.split(".", 1)[0]
        for component in spec.components.values()
        for target in (component.type, component.factory or component.type)
    }  # the modules the composition root imports
    for name, component in spec.components.items():
        where = ("components", name)
        if not re.fullmatch(COMPONENT_NAME, name) or keyword.iskeyword(name):
            yield where, f"{name[:50]!r} is not a component name (snake_case, {COMPONENT_NAME})"
            continue
        if name in taken:
            yield where, f"{name!r} is a name the composition root uses already; choose another"
            continue
        if not re.fullmatch(GENERIC_TYPE, component.type):
            yield (
                (*where, "type"),
                f"{component.type[:60]!r} is not module:Class (or module:Class[Any])",
            )
        if component.factory is not None:
            yield from _own_code(spec, component.factory, (*where, "factory"), "module:function")
            if component.constructor is not None:
                yield (
                    (*where, "constructor"),
                    "a component has a factory or a constructor, not both",
                )
        if component.constructor is not None and (
            not component.constructor.isidentifier()
            or keyword.iskeyword(component.constructor)
            or component.constructor.startswith("_")
        ):
            yield (
                (*where, "constructor"),
                f"{component.constructor[:40]!r} is not a class method's name",
            )
        yield from _needs(
            component.arguments(),
            available,
            (*where, "needs"),
            mapped=isinstance(component.needs, dict),
        )
        yield from _given(spec, component, where)
        available.add(name)


def _given(spec: Spec, component: ComponentSpec, where: Loc) -> Iterator[Finding]:
    """The keywords of settings and values: names, not taken twice, settings declared."""
    seen = {keyword for keyword, _ in component.arguments()}
    given: list[tuple[str, str, object]] = [
        ("settings", word, key) for word, key in component.settings.items()
    ]
    given += [("values", word, value) for word, value in component.values.items()]
    declared = ", ".join(spec.settings) or "none is declared"
    for kind, word, value in given:
        at = (*where, kind, word)
        if not word.isidentifier() or keyword.iskeyword(word):
            yield at, f"{word[:50]!r} is not a keyword argument's name"
        elif word in seen:
            yield at, f"{word!r} is given twice (needs, settings, values)"
        elif kind == "settings" and value not in spec.settings:
            yield at, f"{str(value)[:60]!r} is no setting of this spec (settings: {declared})"
        elif isinstance(value, float) and not math.isfinite(value):
            yield at, "a value is a finite number"
        seen.add(word)


def _needs(
    arguments: list[tuple[str, str | list[str]]],
    available: set[str],
    where: Loc,
    *,
    mapped: bool,
) -> Iterator[Finding]:
    """Each keyword once and a parameter name; each part one the composition root has."""
    keywords: set[str] = set()
    for index, (word, need) in enumerate(arguments):
        at = (*where, word) if mapped else (*where, index)
        if mapped and (not word.isidentifier() or keyword.iskeyword(word)):
            yield at, f"{word[:50]!r} is not a keyword argument's name"
        elif word in keywords:
            yield at, f"{word!r} is listed twice"
        elif isinstance(need, list):
            for position, part in enumerate(need):
                yield from _part(part, available, (*at, position))
        else:
            yield from _part(need, available, at)
        keywords.add(word)


def _part(part: str, available: set[str], at: Loc) -> Iterator[Finding]:
    head, *attributes = part.split(".")
    if head not in available:
        yield (
            at,
            f"{head[:50]!r} is none of the parts the composition root has before this"
            f" component: {', '.join(sorted(available))}",
        )
    elif not all(a.isidentifier() and not keyword.iskeyword(a) for a in attributes):
        yield at, f"{part[:60]!r} is not <part>.<attribute>"
