"""Re-render existing projects: from an edited spec (`render`) or newer blueprints
(`update`), merged three ways into the project so that user edits survive, and applied
all at once (a staged copy of the project replaces it) so an interruption changes nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import yaml

from generator.blueprint_ext import blueprint_hash, spec_hash
from generator.loading import SpecError, load_spec_text, parse_yaml
from generator.merge import MergePlan, plan_merge
from generator.projects import Project
from generator.render import (
    ANSWERS_FILE,
    Blueprint,
    format_tree,
    render_files,
    template_commit,
    write_tree,
)
from generator.workspace import Workspace
from generator.yamlio import read_spec_bytes


class RegenerateError(Exception):
    """A project cannot be re-rendered; nothing was changed."""


@dataclass(frozen=True)
class Source:
    """What a project is rendered from: a spec (the text of its file) and a template root."""

    spec_text: str
    root: Path


def read_spec(workspace: Workspace, project: Project) -> str:
    """The project's spec as it is now in the workspace's specs directory (validated)."""
    path = workspace.specs / f"{project.name}.yaml"
    if not path.is_file():
        raise RegenerateError(
            f"{workspace.relative(path)} is missing; it is the spec of {project.name}"
        )
    display = workspace.relative(path)
    text = read_spec_bytes(path, display)
    load_spec_text(text, display)
    return text


def recorded_spec(workspace: Workspace, project: Project) -> str:
    """The spec the project was last rendered from, as text. Answers files written before
    hold it as a mapping: when the spec file holds that same spec, the file's text
    (comments included) is the one recorded from now on."""
    answer = project.answers["spec"]
    if isinstance(answer, str):
        return answer
    path = workspace.specs / f"{project.name}.yaml"
    try:
        text = read_spec_bytes(path, str(path))
        data, _ = parse_yaml(text, str(path))
    except SpecError:
        return project.spec_text
    same = json.dumps(data, default=str) == json.dumps(answer, default=str)  # order counts
    return text if same else project.spec_text


def is_current(project: Project, spec_text: str, root: Path) -> bool:
    """True when the project was last rendered from this spec and these blueprints."""
    return project.answers.get("_spec_hash") == spec_hash(spec_text) and project.answers.get(
        "_blueprint_hash"
    ) == blueprint_hash(str(root))


def render_tree(project: Project, source: Source, commit: str | None) -> dict[str, str]:
    """Every file the blueprint renders for ``source``, formatted, keyed by relative path."""
    spec = load_spec_text(source.spec_text, project.name)
    files = render_files(
        Blueprint(source.root, project.blueprint),
        spec,
        source.spec_text,
        src_path=str(project.answers.get("_src_path", ".")),
        commit=commit,
    )
    with tempfile.TemporaryDirectory() as directory:
        write_tree(files, Path(directory))
        format_tree(Path(directory), project.name.replace("-", "_"))
        return {relative: (Path(directory) / relative).read_text() for relative in files}


TEMPLATE_PATHS = ("copier.yml", "blueprints", "generator")
"""What the template of a commit is made of (the generator, where the repository has it)."""


def _in_commit(root: Path, commit: str, path: str) -> bool:
    found = subprocess.run(
        ["git", "cat-file", "-e", f"{commit}:{path}"], cwd=root, capture_output=True, check=False
    )
    return found.returncode == 0


@contextmanager
def template_at(root: Path, commit: str | None) -> Iterator[Path]:
    """The template as it was at ``commit`` (the current one when that cannot be had)."""
    if commit is None or not (root / ".git").exists():
        yield root
        return
    paths = [path for path in TEMPLATE_PATHS if _in_commit(root, commit, path)]
    with tempfile.TemporaryDirectory() as directory:
        archive = Path(directory) / "template.tar"
        result = subprocess.run(
            ["git", "archive", "--format=tar", "-o", str(archive), commit, "--", *paths],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            yield root
            return
        with tarfile.open(archive) as tar:
            tar.extractall(directory, filter="data")
        yield Path(directory)


def last_render(project: Project, root: Path) -> dict[str, str]:
    """What the project's files were when it was last rendered (the merge base): the
    recorded spec through the blueprints and, where the template ships it, the generator
    code of the recorded commit; the current generator when that one cannot render."""
    with template_at(root, project.commit) as old_root:
        if old_root != root and (old_root / "generator" / "base_render.py").is_file():
            rendered = _render_with_generator_at(old_root, project)
            if rendered is not None:
                return rendered
        return render_tree(project, Source(project.spec_text, old_root), project.commit)


def _render_with_generator_at(old_root: Path, project: Project) -> dict[str, str] | None:
    request = {
        "root": str(old_root),
        "name": project.name,
        "blueprint": project.blueprint,
        "spec": project.spec_data,  # what generators before the spec text read
        "spec_text": project.spec_text,
        "src_path": str(project.answers.get("_src_path", ".")),
        "commit": project.commit,
    }
    result = subprocess.run(
        [sys.executable, "-m", "generator.base_render"],
        cwd=old_root,  # not the current directory: its generator would shadow the old one
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(old_root), "GENERATE_TEMPLATE": str(old_root)},
    )
    if result.returncode != 0:
        return None
    rendered: dict[str, str] = json.loads(result.stdout)
    return rendered


def skip_if_exists(root: Path) -> set[str]:
    """The files copier.yml declares created once, then the user's (`_skip_if_exists`)."""
    config = yaml.safe_load((root / "copier.yml").read_text(encoding="utf-8")) or {}
    return set(config.get("_skip_if_exists", []))


def plan(project: Project, source: Source) -> MergePlan:
    """The merge that brings ``project`` to ``source``."""
    base = last_render(project, source.root)
    new = render_tree(project, source, template_commit(source.root))
    merge = plan_merge(base, new, project.directory, skip_if_exists=skip_if_exists(source.root))
    merge.writes[ANSWERS_FILE] = new[ANSWERS_FILE]
    merge.conflicts = [c for c in merge.conflicts if c != ANSWERS_FILE]
    return merge


def dirty_files(directory: Path) -> list[str]:
    """Uncommitted changes under ``directory`` (empty outside a git repository)."""
    result = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "--", "."],
        cwd=directory,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        return []
    return [line[3:] for line in result.stdout.splitlines()]


def apply(project: Project, merge: MergePlan) -> None:
    """Apply ``merge`` in place: every file it writes is staged first (beside the project,
    on its file system), then each is renamed over its place, and the files it deletes go.

    Only those files change: what the project holds besides them (its ``data`` directory:
    the database, the broker's store and key rings of a service that may be running) is
    never moved or copied, so a running service keeps writing to the same files. A
    failure while staging changes nothing."""
    directory = project.directory
    staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}-", dir=directory.parent))
    try:
        write_tree(merge.writes, staging)
        for relative in merge.writes:
            target = directory / relative
            staged = staging / relative
            if target.is_file():
                shutil.copymode(target, staged)  # an executable stays one
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staged, target)
        for relative in merge.deletes:
            (directory / relative).unlink(missing_ok=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
