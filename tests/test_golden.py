"""Golden output: the committed projects under rendered/ are exactly what the current
blueprints render from their specs, so every blueprint change is a reviewed diff there.
Run with UPDATE_GOLDEN=1 to re-render them after an intended blueprint change."""

from __future__ import annotations

import os
import re
import tempfile
from fnmatch import fnmatch
from pathlib import Path

import pytest
from helpers import REPO

from generator.loading import load_spec
from generator.regenerate import skip_if_exists
from generator.render import Blueprint, format_tree, render_files, write_tree
from generator.workspace import template_root

PROJECTS = {
    "user-profile": ("service", REPO / "rendered/apps/user-profile"),
    "iam": ("service", REPO / "rendered/apps/iam"),
    "eaf": ("library", REPO / "rendered/libs/eaf"),
    "iam-client": ("library", REPO / "rendered/libs/iam-client"),
}
# Created once, then edited by their owners: present, but not compared.
USER_OWNED = skip_if_exists(REPO)


def _without_commit(text: str) -> str:
    return re.sub(r"^_commit: .*\n", "", text, flags=re.MULTILINE)


def fresh_render(name: str, blueprint: str) -> dict[str, str]:
    spec_path = REPO / "specs" / f"{name}.yaml"
    spec = load_spec(spec_path)
    files = render_files(
        Blueprint(template_root(), blueprint),
        spec,
        spec_path.read_text(),
        src_path="../../..",
        commit=None,
    )
    with tempfile.TemporaryDirectory() as staging:
        write_tree(files, Path(staging))
        format_tree(Path(staging), spec.name.replace("-", "_"))
        return {relative: (Path(staging) / relative).read_text() for relative in files}


@pytest.mark.parametrize("name", sorted(PROJECTS))
def test_rendered_project_matches_its_spec_and_the_blueprints(name: str) -> None:
    blueprint, target = PROJECTS[name]
    expected = fresh_render(name, blueprint)
    if os.environ.get("UPDATE_GOLDEN"):
        write_tree(expected, target)
    different = [
        relative
        for relative, text in sorted(expected.items())
        if not (target / relative).is_file()
        or (
            not any(fnmatch(relative, pattern) for pattern in USER_OWNED)
            and _without_commit((target / relative).read_text()) != _without_commit(text)
        )
    ]
    assert different == [], f"re-render with UPDATE_GOLDEN=1 and review the diff: {different}"
