"""`generate init`: a new workspace outside this repository, with the framework runtime."""

from __future__ import annotations

import shutil
from pathlib import Path

_PYPROJECT = """\
[project]
name = "{name}"
version = "0.1.0"
requires-python = ">=3.11"
dependencies = []

[dependency-groups]
dev = [
    "httpx>=0.27",
    "httpx2>=2.0",
    "import-linter>=2.1",
    "mypy>=1.11",
    "pytest>=8.3",
    "pytest-asyncio>=0.24",
    "ruff>=0.6",
]

[tool.uv]
package = false

[tool.uv.workspace]
members = ["contracts", "apps/*", "libs/*"]

[tool.generate]
apps = "apps"
libs = "libs"
specs = "specs"
"""

_IGNORE = shutil.ignore_patterns(
    "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", "*.db"
)


FRAMEWORK_LIBRARIES = ("eaf", "iam-client")


class InitError(Exception):
    """The workspace cannot be created."""


def create_workspace(directory: Path, template_root: Path) -> Path:
    """Create the workspace at ``directory``; the framework libraries (the ``eaf`` runtime,
    the ``iam-client`` that secured services validate tokens with) and contracts are vendored."""
    directory = directory.resolve()
    if (directory / "pyproject.toml").exists():
        raise InitError(f"{directory / 'pyproject.toml'} already exists; nothing was written")
    libraries = [template_root / "rendered" / "libs" / name for name in FRAMEWORK_LIBRARIES]
    contracts = template_root / "contracts"
    specs = [template_root / "specs" / f"{library.name}.yaml" for library in libraries]
    for needed in (*libraries, contracts, *specs):
        if not needed.exists():
            raise InitError(f"the template root lacks {needed}")
    directory.mkdir(parents=True, exist_ok=True)
    name = directory.name.lower().replace("_", "-") or "workspace"
    (directory / "pyproject.toml").write_text(_PYPROJECT.format(name=name), encoding="utf-8")
    for sub in ("apps", "specs"):
        (directory / sub).mkdir(exist_ok=True)
    for library, spec in zip(libraries, specs, strict=True):
        shutil.copytree(library, directory / "libs" / library.name, ignore=_IGNORE)
        shutil.copy(spec, directory / "specs" / spec.name)
    shutil.copytree(contracts, directory / "contracts", ignore=_IGNORE)
    (directory / ".gitignore").write_text(".venv/\n__pycache__/\n*.db\ndata/\n", encoding="utf-8")
    return directory
