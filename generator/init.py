"""`generate init`: a new workspace outside this repository, with the framework runtime."""

from __future__ import annotations

from pathlib import Path

from generator.installed import DEV_GROUP

_PYPROJECT = """\
[project]
name = "{name}"
version = "0.1.0"
requires-python = ">=3.11"
dependencies = []

[dependency-groups]
dev = [
{dev}
]

[tool.uv]
package = false

[tool.uv.workspace]
members = ["apps/*", "libs/*"]

[tool.generate]
apps = "apps"
libs = "libs"
specs = "specs"
"""


class InitError(Exception):
    """The workspace cannot be created."""


def create_workspace(directory: Path, template_root: Path) -> Path:
    """Create the workspace at ``directory``, with the framework's runtime libraries (the
    ``eaf`` runtime, the ``iam-client`` secured services validate tokens with, and the
    layer contracts) as wheels of the template's versions in ``vendor/``, pinned in its
    pyproject (`generate update` brings newer ones)."""
    from generator import runtime
    from generator.workspace import find

    directory = directory.resolve()
    if (directory / "pyproject.toml").exists():
        raise InitError(f"{directory / 'pyproject.toml'} already exists; nothing was written")
    try:
        for name in runtime.LIBRARIES:
            runtime.library(template_root, name)
    except runtime.RuntimeUpgradeError as error:
        raise InitError(str(error)) from None
    directory.mkdir(parents=True, exist_ok=True)
    name = directory.name.lower().replace("_", "-") or "workspace"
    dev = "\n".join(f'    "{requirement}",' for requirement in DEV_GROUP)
    pyproject = _PYPROJECT.format(name=name, dev=dev)
    (directory / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    for sub in ("apps", "libs", "specs"):
        (directory / sub).mkdir(exist_ok=True)
    (directory / ".gitignore").write_text(".venv/\n__pycache__/\n*.db\ndata/\n", encoding="utf-8")
    try:
        runtime.install(find(directory), template_root)
    except runtime.RuntimeUpgradeError as error:
        raise InitError(str(error)) from None
    return directory
