"""The copier side of the benchmarks: `copier copy` of a blueprint for one spec."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

BIN = Path(sys.executable).parent


def copier_copy(template: Path, spec: Path, target: Path, scratch: Path) -> float:
    """Wall time of a cold `copier copy` of the service blueprint for ``spec`` into ``target``."""
    shutil.rmtree(target, ignore_errors=True)
    answers = scratch / "answers.yml"
    answers.write_text(
        yaml.safe_dump({"blueprint": "service", "spec": yaml.safe_load(spec.read_text())})
    )
    command = [
        str(BIN / "copier"),
        "copy",
        "--trust",
        "--defaults",
        "--quiet",
        "--data-file",
        str(answers),
        str(template),
        str(target),
    ]
    start = time.perf_counter()
    subprocess.run(command, cwd=scratch, check=True, capture_output=True)
    return time.perf_counter() - start
