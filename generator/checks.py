"""What a per-key schema cannot check: names, references, types and expressions (through
`resolve`), the examples the generated tests run, consumed events, libraries, and the
requirements and scripts written into pyproject.toml."""

from __future__ import annotations

import keyword
import re
import sys
from collections.abc import Iterator

from generator import naming
from generator.context_tests import reference_cycle
from generator.expr_code import today_and_now
from generator.resolve import class_names, resolve
from generator.resolve_fields import camel_problem
from generator.resolved import Domain, Loc
from generator.scenarios import example_problems
from generator.spec import CONSUMED_EVENT, Spec
from generator.values import Catalog

Finding = tuple[Loc, str]
SCRIPT_NAME = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
SCRIPT_TARGET = r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*:[a-z_][a-z0-9_]*$"


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
     "asyncpg", "stamina", "prometheus_client", "generator", "contracts", "layer_contracts",
     "tests"}
)  # fmt: skip
"""Packages a rendered project imports: a service may not shadow them."""


def _package(spec: Spec) -> Iterator[Finding]:
    package = naming.package(spec.name)
    if keyword.iskeyword(package) or keyword.issoftkeyword(package):
        yield ("name",), f"{spec.name!r} is a Python keyword, which cannot name a package"
    elif package in sys.stdlib_module_names or package in TAKEN_PACKAGES:
        yield (
            ("name",),
            f"the package {package!r} would shadow the module of that name; choose another name",
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
