"""Compiled blueprints are kept between runs, keyed by template name: a template whose
source changed (another checkout, an edit, an upgrade) is compiled again, never served
from the cache."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO

SCRIPT = """
import sys
from pathlib import Path
from generator.render import _environment
print(_environment(Path(sys.argv[1])).get_template("t.jinja").render(), end="")
"""


def _render(root: Path, cache: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(root)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        env={"XDG_CACHE_HOME": str(cache), "PATH": "/usr/bin:/bin"},
    )
    return done.stdout


@pytest.mark.parametrize("edit", ["same root", "another root"])
def test_a_changed_template_is_compiled_again(tmp_path: Path, edit: str) -> None:
    cache = tmp_path / "cache"
    first = tmp_path / "a"
    first.mkdir()
    (first / "t.jinja").write_text("one {{ 1 + 1 }}")
    assert _render(first, cache) == "one 2"
    assert list(cache.rglob("*.cache")), "the compiled template is kept"
    assert _render(first, cache) == "one 2"
    second = first if edit == "same root" else tmp_path / "b"
    second.mkdir(exist_ok=True)
    (second / "t.jinja").write_text("two {{ 2 + 2 }}")
    assert _render(second, cache) == "two 4"
    assert len(list(cache.rglob("*.cache"))) == 1  # one entry per template name
