# Generated from spec licensing by `generate`; edits are merged on re-render.

"""The layer rules of this project, checked by import-linter (see .importlinter)."""

import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]


def test_layer_contracts_hold() -> None:
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run(
        [str(lint_imports), "--config", str(PROJECT / ".importlinter"), "--no-cache"],
        cwd=PROJECT / "src",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, (
        f"broken layer contract:\n{result.stdout}{result.stderr}"
    )
