"""No spec can inject code: every hostile string in every free-text field is either refused
by `validate` or rendered into a project that passes ruff, parses as TOML and imports
without side effects; every hostile name is refused naming its place, or renders clean."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from helpers import REPO
from spec_corpus import (
    NAME_PAYLOADS,
    NAME_PLACES,
    PAYLOADS,
    SENTINEL,
    as_yaml,
    lint_errors,
    spec,
)

from generator.loading import SpecError, load_spec_text, parse_yaml
from generator.render import Blueprint, render_files, write_tree

RUNTIME = [REPO / "rendered/libs/eaf/src", REPO / "rendered/libs/iam-client/src"]


def render(text: str, target: Path) -> None:
    """Render the spec ``text`` into ``target`` (unformatted: ruff checks it after)."""
    spec_model = load_spec_text(text, "hostile.yaml")
    data, _ = parse_yaml(text, "hostile.yaml")
    files = render_files(Blueprint(REPO, "service"), spec_model, data, src_path=".", commit=None)
    write_tree(files, target)


def test_free_text_is_refused_or_rendered_inert(tmp_path: Path) -> None:
    rendered: dict[str, Path] = {}
    for index, payload in enumerate(PAYLOADS):
        data = spec(payload)
        data["name"] = f"hostile-{index}"
        text = as_yaml(data)
        try:
            load_spec_text(text, "hostile.yaml")
        except SpecError as error:
            assert len(str(error)) < 20_000
            continue
        project = tmp_path / f"hostile-{index}"
        render(text, project)
        pyproject = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
        assert set(pyproject) == {"project", "dependency-groups", "tool", "build-system"}
        assert "evil" not in pyproject["tool"]
        assert pyproject["project"]["description"] == payload
        rendered[f"hostile_{index}"] = project
    assert len(rendered) >= len(PAYLOADS) - 2, "most hostile text is rendered, escaped"
    assert lint_errors(tmp_path) == ""
    script = (
        "import importlib, pkgutil, sys\n"
        "for package in sys.argv[1:]:\n"
        "    root = importlib.import_module(package)\n"
        "    for module in pkgutil.walk_packages(root.__path__, package + '.'):\n"
        "        importlib.import_module(module.name)\n"
    )
    paths = [*(project / "src" for project in rendered.values()), *RUNTIME]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in paths)}
    imported = subprocess.run(
        [sys.executable, "-c", script, *rendered],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert imported.returncode == 0, imported.stderr
    assert not list(tmp_path.rglob(SENTINEL))


@pytest.mark.parametrize("place", sorted(NAME_PLACES))
def test_hostile_names_are_refused_at_their_place_or_render_clean(
    place: str, tmp_path: Path
) -> None:
    accepted = []
    for name in NAME_PAYLOADS:
        text = as_yaml(spec(name=name, where=place))
        try:
            load_spec_text(text, "hostile.yaml")
        except SpecError as error:
            lines = str(error).splitlines()
            assert all(line.startswith("hostile.yaml:") for line in lines), lines
            assert all(len(line) < 1200 for line in lines)
            continue
        accepted.append(name)
        render(text, tmp_path / f"project-{len(accepted)}")
    assert SENTINEL not in "".join(accepted)
    assert lint_errors(tmp_path) == ""
