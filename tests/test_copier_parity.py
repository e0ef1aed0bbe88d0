"""Our renderer and `copier copy` of the same template give the same project, so copier
can take over any project we generate (`copier update`)."""

from __future__ import annotations

import re
import warnings
from fnmatch import fnmatch
from pathlib import Path

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


def test_copier_copy_renders_what_we_render(tmp_path: Path) -> None:
    from copier import run_copy

    spec_path = REPO / "specs/user-profile.yaml"
    data, _ = parse_yaml(spec_path.read_text(), str(spec_path))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_copy(
            str(REPO),
            tmp_path / "user-profile",
            data={"blueprint": "service", "spec": data},
            defaults=True,
            unsafe=True,
            quiet=True,
        )
    ours = _files(REPO / "rendered/apps/user-profile")
    theirs = _files(tmp_path / "user-profile")
    assert sorted(theirs) == sorted(ours)
    users = skip_if_exists(REPO)  # created once, then edited by their owner: not compared
    for relative, text in theirs.items():
        if not any(fnmatch(relative, pattern) for pattern in users):
            assert _comparable(text) == _comparable(ours[relative]), relative
