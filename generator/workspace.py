"""Find the workspace: the nearest pyproject.toml with a ``[tool.generate]`` table."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path


class WorkspaceError(Exception):
    """No usable workspace."""


@dataclass(frozen=True)
class Workspace:
    """The directories a workspace keeps its apps, libraries and specs in."""

    root: Path
    apps: Path
    libs: Path
    specs: Path

    def relative(self, path: Path) -> str:
        """``path`` relative to the workspace root when inside it, else absolute."""
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return str(path)


def find(start: Path | None = None) -> Workspace:
    """The workspace containing ``start`` (default: the current directory)."""
    here = (start or Path.cwd()).resolve()
    for directory in (here, *here.parents):
        pyproject = directory / "pyproject.toml"
        if not pyproject.is_file():
            continue
        try:
            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as error:
            raise WorkspaceError(f"{pyproject}: invalid TOML: {error}") from None
        table = data.get("tool", {}).get("generate")
        if table is None:
            continue
        return Workspace(
            root=directory,
            apps=directory / table.get("apps", "apps"),
            libs=directory / table.get("libs", "libs"),
            specs=directory / table.get("specs", "specs"),
        )
    raise WorkspaceError(
        f"no workspace found at or above {here} (a pyproject.toml with [tool.generate]); "
        "create one with `generate init`"
    )


def template_root() -> Path:
    """The directory holding copier.yml and the blueprints (this repository)."""
    override = os.environ.get("GENERATE_TEMPLATE")
    root = Path(override) if override else Path(__file__).resolve().parents[1]
    if not (root / "copier.yml").is_file():
        raise WorkspaceError(f"no copier.yml in the template root {root}")
    return root
