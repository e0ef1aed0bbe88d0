"""Render a blueprint for a spec into a directory: the same templates and context as
copier (so `copier update` can take over), without copier's start-up cost, written
atomically (render into a temp dir next to the target, then move it into place)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
import yaml
from jinja2 import FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, Template
from jinja2.sandbox import SandboxedEnvironment

from generator import blueprint_ext
from generator.blueprint_ext import (
    BATCH_FORMAT,
    FIXES,
    BlueprintExtension,
    ruff_binary,
    ruff_options,
)
from generator.context import derive
from generator.spec import Spec

ANSWERS_FILE = ".copier-answers.yml"
SUFFIX = ".jinja"


class RenderError(Exception):
    """Rendering could not complete; nothing was written."""


@dataclass(frozen=True)
class Blueprint:
    """A blueprint of the template at ``root`` (the directory holding copier.yml)."""

    root: Path
    name: str

    @property
    def directory(self) -> Path:
        return self.root / "blueprints" / self.name / "template"


def template_commit(root: Path) -> str | None:
    """What copier records as ``_commit``: ``git describe --tags --always`` of the template."""
    if not (root / ".git").exists():
        return None
    result = subprocess.run(
        ["git", "describe", "--tags", "--always"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    return result.stdout.strip() or None


def _to_nice_yaml(value: Any) -> str:
    """Copier's (Ansible's) ``to_nice_yaml``, for templates that still use it."""
    return yaml.dump(value, indent=4, allow_unicode=True, default_flow_style=False)


@cache
def _environment(root: Path) -> SandboxedEnvironment:
    """The Jinja environment of the template at ``root`` (one per process: it caches the
    compiled templates; the loader notices a changed template file)."""
    env = SandboxedEnvironment(
        loader=FileSystemLoader(str(root)),
        extensions=[BlueprintExtension],
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        bytecode_cache=_bytecode_cache(),
    )
    setattr(env, BATCH_FORMAT, True)
    env.filters.setdefault("to_nice_yaml", _to_nice_yaml)
    return env


class _TemplateCache(FileSystemBytecodeCache):
    """Compiled templates keyed by template name alone (the source's checksum tells when
    one must be compiled again): a template root checked out in a temporary directory,
    as merge bases are, reuses the entries instead of adding its own."""

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return super().get_cache_key(name)


def _bytecode_cache() -> FileSystemBytecodeCache | None:
    """Compiled templates kept between runs (most of a cold `generate service` is Jinja
    compiling the blueprints), in the user's cache directory, one directory per Jinja,
    Python and template-extension version (a template is recompiled when its source
    changes); none when ``GENERATE_NO_CACHE`` is set or the directory cannot be made."""
    if os.environ.get("GENERATE_NO_CACHE"):
        return None
    fingerprint = hashlib.sha256(
        b"\0".join(
            [
                jinja2.__version__.encode(),
                sys.version.encode(),
                Path(blueprint_ext.__file__).read_bytes(),
            ]
        )
    ).hexdigest()[:16]
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    directory = base / "service-generator" / f"jinja-{fingerprint}"
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return None
    return _TemplateCache(str(directory))


def answers(spec_answer: Any, blueprint: str, src_path: str, commit: str | None) -> dict[str, Any]:
    """The answers copier would remember, in copier's order."""
    remembered: dict[str, Any] = {}
    if commit is not None:
        remembered["_commit"] = commit
    remembered["_src_path"] = src_path
    remembered["blueprint"] = blueprint
    remembered["spec"] = spec_answer
    return remembered


def _template_files(directory: Path) -> Iterator[Path]:
    for path in sorted(directory.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            yield path.relative_to(directory)


_PARTS: dict[tuple[int, str], Template] = {}


def _part(env: SandboxedEnvironment, text: str) -> Template:
    """The compiled template of a path part such as ``{{ svc.package }}``."""
    key = (id(env), text)
    if key not in _PARTS:
        _PARTS[key] = env.from_string(text)
    return _PARTS[key]


def render_files(
    blueprint: Blueprint,
    spec: Spec,
    spec_answer: str | Mapping[str, Any],
    *,
    src_path: str,
    commit: str | None,
) -> dict[str, str]:
    """Render every file of the blueprint to text, keyed by its relative path (unformatted).
    ``spec_answer`` is the spec file's text (answers files written before hold a mapping)."""
    env = _environment(blueprint.root)
    context = {
        "blueprint": blueprint.name,
        "spec": spec_answer,
        "svc": json.loads(json.dumps(derive(spec))),
        "_copier_answers": answers(spec_answer, blueprint.name, src_path, commit),
        "_copier_conf": {
            "answers_file": ANSWERS_FILE,
            "sep": os.sep,
            "src_path": str(blueprint.root),
        },
    }
    rendered: dict[str, str] = {}
    template_prefix = blueprint.directory.relative_to(blueprint.root).as_posix()
    for relative in _template_files(blueprint.directory):
        is_template = relative.name.endswith(SUFFIX)
        source = relative.with_suffix("") if is_template else relative
        parts = [_part(env, part).render(context) for part in source.parts]
        if not all(parts):
            continue
        target = "/".join(parts)
        if is_template:
            template = env.get_template(f"{template_prefix}/{relative.as_posix()}")
            rendered[target] = template.render(context)
        else:
            rendered[target] = (blueprint.directory / relative).read_text(encoding="utf-8")
    return rendered


def format_tree(directory: Path, package: str) -> None:
    """Sort imports, drop unused ones and format every Python file under ``directory``."""
    if not any(directory.rglob("*.py")):
        return
    options = ruff_options(package)
    for command in (
        ["check", "--fix-only", "--select", FIXES, "--exit-zero", *options, "."],
        ["format", *options, "."],
    ):
        result = subprocess.run(
            [ruff_binary(), *command], cwd=directory, capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            raise RenderError(f"ruff {command[0]} failed: {result.stderr.strip()}")


def write_tree(files: dict[str, str], directory: Path) -> None:
    for relative, text in files.items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def render_new(
    blueprint: Blueprint,
    spec: Spec,
    spec_text: str,
    target: Path,
    *,
    src_path: str,
) -> list[str]:
    """Render a new project at ``target`` (which must not exist); returns the files written."""
    if target.exists():
        raise RenderError(f"{target} already exists")
    files = render_files(
        blueprint, spec, spec_text, src_path=src_path, commit=template_commit(blueprint.root)
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        write_tree(files, staging)
        format_tree(staging, spec.name.replace("-", "_"))
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return sorted(files)
