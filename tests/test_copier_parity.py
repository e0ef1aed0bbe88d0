"""Our renderer and `copier copy` of the same template give the same project, so copier
can take over any project we generate (`copier update`)."""

from __future__ import annotations

import json
import re
import warnings
from fnmatch import fnmatch
from pathlib import Path

import yaml
from helpers import REPO

from generator.loading import parse_yaml
from generator.regenerate import skip_if_exists

JUNK = {".ruff_cache", "__pycache__", ".pytest_cache", ".mypy_cache", "data"}


def _files(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): path.read_text()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not JUNK & set(path.relative_to(root).parts)
    }


def _comparable(text: str) -> str:
    return re.sub(r"^_(commit|src_path|blueprint_hash): .*\n", "", text, flags=re.MULTILINE)


def _copier_copy(target: Path, spec: object) -> None:
    from copier import run_copy

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_copy(
            str(REPO),
            target,
            data={"blueprint": "service", "spec": spec},
            defaults=True,
            unsafe=True,
            quiet=True,
        )


def test_copier_copy_renders_what_we_render(tmp_path: Path) -> None:
    spec_text = (REPO / "specs/user-profile.yaml").read_text()
    _copier_copy(tmp_path / "user-profile", spec_text)
    ours = _files(REPO / "rendered/apps/user-profile")
    theirs = _files(tmp_path / "user-profile")
    assert sorted(theirs) == sorted(ours)
    users = skip_if_exists(REPO)  # created once, then edited by their owner: not compared
    for relative, text in theirs.items():
        if not any(fnmatch(relative, pattern) for pattern in users):
            assert _comparable(text) == _comparable(ours[relative]), relative
    answers = yaml.safe_load(theirs[".copier-answers.yml"])
    assert answers["spec"] == spec_text  # comments and key order kept


def test_a_spec_given_as_a_mapping_renders_the_same_project(tmp_path: Path) -> None:
    """How answers files written before held the spec: copier still renders it (same code),
    and the answers then hold it as text, in its key order."""
    spec_path = REPO / "specs/user-profile.yaml"
    data, _ = parse_yaml(spec_path.read_text(), str(spec_path))
    _copier_copy(tmp_path / "user-profile", data)
    ours = _files(REPO / "rendered/apps/user-profile")
    theirs = _files(tmp_path / "user-profile")
    assert sorted(theirs) == sorted(ours)
    users = skip_if_exists(REPO)
    for relative, text in theirs.items():
        if relative != ".copier-answers.yml" and not any(fnmatch(relative, p) for p in users):
            assert text == ours[relative], relative
    spec = yaml.safe_load(theirs[".copier-answers.yml"])["spec"]
    assert isinstance(spec, str)
    assert json.dumps(parse_yaml(spec, "answers")[0]) == json.dumps(data)  # order kept
