"""What every project of a workspace installs: the runtime libraries, their dependencies and
the workspace's development tools, as distributions (a workspace member of the same name
would replace one, and `uv sync` fail for every project) and as import packages (a service
package of the same name would shadow one)."""

from __future__ import annotations

import functools
import importlib.metadata
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement

DEV_GROUP = (
    "httpx>=0.27",
    "httpx2>=2.0",
    "import-linter>=2.1",
    "mypy>=1.11",
    "pytest>=8.3",
    "pytest-asyncio>=0.24",
    "ruff>=0.6",
)
"""The development group of a workspace `generate init` makes."""
RUNTIME_SOURCES = ("rendered/libs/*/pyproject.toml", "contracts/pyproject.toml")
"""Where the template root keeps the runtime libraries' pyprojects."""


@dataclass(frozen=True)
class Installed:
    """Distributions by normalized name, each with what brings it (a runtime library, or the
    workspace's development group); import packages, each with its distribution."""

    libraries: frozenset[str]
    dependencies: dict[str, str]
    imports: dict[str, str]


def normalized(name: str) -> str:
    """A distribution name as installers compare it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _names(requirements: list[str]) -> list[str]:
    names = []
    for text in requirements:
        try:
            requirement = Requirement(text)
        except InvalidRequirement:
            continue
        if requirement.marker is None or "extra" not in str(requirement.marker):
            names.append(normalized(requirement.name))
    return names


def _declared(template_root: Path) -> dict[str, list[str]]:
    """The runtime libraries of the template and the development group of a workspace, each
    with the dependencies its pyproject declares."""
    declared: dict[str, list[str]] = {}
    for pattern in RUNTIME_SOURCES:
        for pyproject in sorted(template_root.glob(pattern)):
            project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
            declared[normalized(project["name"])] = _names(project.get("dependencies", []))
    declared["the workspace's development group"] = _names(list(DEV_GROUP))
    return declared


def _requires(name: str) -> list[str]:
    """The dependencies of an installed distribution (none when this environment lacks it)."""
    try:
        return _names(importlib.metadata.requires(name) or [])
    except importlib.metadata.PackageNotFoundError:
        return []


@functools.cache
def installed(template_root: Path) -> Installed:
    """What a workspace of ``template_root`` installs: the runtime libraries, what their
    pyprojects and a workspace's development group declare, and, as far as this environment
    has them installed, the dependencies of those."""
    declared = _declared(template_root)
    libraries = frozenset(name for name in declared if " " not in name)
    dependencies: dict[str, str] = {}
    for owner, names in declared.items():
        pending = list(names)
        while pending:
            name = pending.pop()
            if name not in libraries and name not in dependencies:
                dependencies[name] = owner
                pending += _requires(name)
    tops: dict[str, set[str]] = {}
    for top, distributions in importlib.metadata.packages_distributions().items():
        for distribution in distributions:
            tops.setdefault(normalized(distribution), set()).add(top)
    imports: dict[str, str] = {}
    for name in sorted({*libraries, *dependencies}):
        for top in {name.replace("-", "_"), *tops.get(name, ())}:
            if top.isidentifier():
                imports.setdefault(top, name)
    return Installed(libraries, dependencies, imports)
