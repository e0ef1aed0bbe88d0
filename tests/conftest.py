"""Fixtures: throwaway workspaces and a way to run the real `generate` command."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import GENERATE, Result, make_workspace


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty workspace: a pyproject.toml with [tool.generate]."""
    return make_workspace(tmp_path / "ws")


@pytest.fixture
def generate() -> Callable[..., Result]:
    """Run the installed `generate` console script in a directory."""

    def run(*args: str, cwd: Path) -> Result:
        env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
        env.pop("GENERATE_DEBUG", None)
        completed = subprocess.run(
            [str(GENERATE), *args], cwd=cwd, capture_output=True, text=True, env=env, check=False
        )
        return Result(completed.returncode, completed.stdout, completed.stderr)

    return run
