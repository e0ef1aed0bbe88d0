"""The rendered projects of a workspace, found by their copier answers files."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from generator.blueprint_ext import spec_data, spec_text
from generator.problems import SpecError
from generator.render import ANSWERS_FILE
from generator.workspace import Workspace


class ProjectError(Exception):
    """A project cannot be found or its answers cannot be read."""


@dataclass(frozen=True)
class Project:
    """A rendered project: its directory and what it was last rendered from."""

    directory: Path
    answers: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.spec_data["name"])

    @property
    def blueprint(self) -> str:
        return str(self.answers["blueprint"])

    @cached_property
    def spec_data(self) -> dict[str, Any]:
        """The spec the project was last rendered from, as data."""
        data: dict[str, Any] = spec_data(self.answers["spec"])
        return data

    @property
    def spec_text(self) -> str:
        """The spec the project was last rendered from, as the text of its spec file."""
        return spec_text(self.answers["spec"])

    def template_root(self, default: Path) -> Path:
        """The template the project records (``_src_path``, relative to the project), as
        copier would resolve it; ``default`` when that is not a template root."""
        recorded = Path(str(self.answers.get("_src_path", "")))
        candidate = recorded if recorded.is_absolute() else self.directory / recorded
        if str(recorded) and (candidate / "copier.yml").is_file():
            return candidate.resolve()
        return default

    @property
    def commit(self) -> str | None:
        commit = self.answers.get("_commit")
        return None if commit is None else str(commit)


def read_project(directory: Path) -> Project:
    """The project at ``directory`` (it must hold a copier answers file with a spec)."""
    answers_path = directory / ANSWERS_FILE
    try:
        answers = yaml.safe_load(answers_path.read_text(encoding="utf-8"))
    except OSError:
        raise ProjectError(f"{directory} has no {ANSWERS_FILE}; was it generated?") from None
    except yaml.YAMLError as error:
        raise ProjectError(f"{answers_path}: unreadable answers: {error}") from None
    spec = answers.get("spec") if isinstance(answers, dict) else None
    if not isinstance(spec, str | dict):
        raise ProjectError(f"{answers_path}: no `spec` answer; not a generated project")
    try:
        data = spec_data(spec)
    except SpecError as error:
        raise ProjectError(f"{answers_path}: unreadable `spec` answer: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise ProjectError(f"{answers_path}: the `spec` answer is not a spec with a name")
    return Project(directory, answers)


def all_projects(workspace: Workspace) -> list[Project]:
    """Every generated project under the workspace's apps and libs directories."""
    found = []
    for parent in (workspace.apps, workspace.libs):
        for answers in sorted(parent.glob(f"*/{ANSWERS_FILE}")):
            found.append(read_project(answers.parent))
    return found


def find_projects(workspace: Workspace, names: list[str], every: bool) -> list[Project]:
    """The projects named (or all of them); an unknown name is an error naming the known ones."""
    projects = all_projects(workspace)
    if every:
        return projects
    by_name = {project.name: project for project in projects}
    missing = [name for name in names if name not in by_name]
    if missing:
        known = ", ".join(sorted(by_name)) or "none"
        raise ProjectError(f"no generated project named {', '.join(missing)} (known: {known})")
    if not names:
        raise ProjectError("name one or more projects, or pass --all")
    return [by_name[name] for name in names]
