"""Cold wall time of `generate service` against `copier copy` of the same blueprint.

Each run is a fresh process rendering the sample spec into an empty directory; the two
tools alternate so that machine noise hits both alike. The last line is the median ratio
(ours / copier); below 1.0 we are faster.

    .venv/bin/python benchmarks/generate.py [--runs 7]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from copier_baseline import copier_copy

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _timed(command: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - start


def run_generate(scratch: Path, spec: Path) -> float:
    workspace = scratch / "ours"
    shutil.rmtree(workspace, ignore_errors=True)
    (workspace / "specs").mkdir(parents=True)
    (workspace / "pyproject.toml").write_text('[tool.generate]\napps = "apps"\n')
    shutil.copy(spec, workspace / "specs" / spec.name)
    return _timed([str(BIN / "generate"), "service", "user-profile"], workspace)


def run_copier(scratch: Path, spec: Path) -> float:
    return copier_copy(REPO, spec, scratch / "theirs", scratch)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    spec = REPO / "specs/user-profile.yaml"
    ours: list[float] = []
    theirs: list[float] = []
    with tempfile.TemporaryDirectory() as directory:
        scratch = Path(directory)
        run_generate(scratch, spec)
        run_copier(scratch, spec)
        for index in range(runs):
            ours.append(run_generate(scratch, spec))
            theirs.append(run_copier(scratch, spec))
            print(f"run {index + 1}: generate {ours[-1]:.3f}s  copier copy {theirs[-1]:.3f}s")
    ratio = statistics.median(ours) / statistics.median(theirs)
    print(
        f"median: generate {statistics.median(ours):.3f}s  copier {statistics.median(theirs):.3f}s"
    )
    print(f"generate/copier median wall-time ratio: {ratio:.2f}")


if __name__ == "__main__":
    main()
