"""Regeneration against copier on a synthetic workspace of 20 services.

1. `generate check --all` (is every project what its spec and the blueprints render?)
   against 20 separate `copier copy` runs of the same specs (what a copier user runs to
   find out the same). Target ratio <= 0.1.
2. `generate update` of one service after a blueprint change against `copier update` of
   an identical service. Target ratio <= 1.0.

Both tools run side by side in this script, on one git repository that is both the
template and the workspace. The last line holds the median ratios.

    .venv/bin/python benchmarks/regenerate.py [--services 20] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
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


def sh(*command: str, cwd: Path, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def make_repo(root: Path, services: int) -> dict[str, str]:
    shutil.copytree(REPO / "blueprints", root / "blueprints")
    shutil.copy(REPO / "copier.yml", root / "copier.yml")
    (root / "pyproject.toml").write_text('[tool.generate]\napps = "apps"\nspecs = "specs"\n')
    sh("git", "init", "-q", "-b", "main", cwd=root)
    sh("git", "config", "user.email", "bench@example.org", cwd=root)
    sh("git", "config", "user.name", "Bench", cwd=root)
    sh("git", "add", "-A", cwd=root)
    sh("git", "commit", "-qm", "template", cwd=root)
    env = {**os.environ, "GENERATE_TEMPLATE": str(root)}
    for index in range(services):
        sh(str(BIN / "generate"), "service", f"svc-{index:02d}", cwd=root, env=env)
    sh("git", "add", "-A", cwd=root)
    sh("git", "commit", "-qm", "services", cwd=root)
    return env


def copier_copy_all(root: Path, scratch: Path, services: int) -> float:
    return sum(
        copier_copy(
            root, root / f"specs/svc-{index:02d}.yaml", scratch / f"svc-{index:02d}", scratch
        )
        for index in range(services)
    )


def change_blueprint(root: Path) -> None:
    clock = root / "blueprints/common/clock.py.jinja"
    clock.write_text(clock.read_text().replace("The real time", "The real time, always"))
    sh("git", "commit", "-qam", "blueprint change", cwd=root)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--services", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        root, scratch = Path(directory) / "repo", Path(directory) / "scratch"
        root.mkdir()
        scratch.mkdir()
        env = make_repo(root, args.services)
        check_ratios = []
        for run in range(args.runs):
            ours = sh(str(BIN / "generate"), "check", "--all", cwd=root, env=env)
            theirs = copier_copy_all(root, scratch, args.services)
            check_ratios.append(ours / theirs)
            print(
                f"check run {run + 1}: generate check --all {ours:.2f}s, "
                f"{args.services} x copier copy {theirs:.2f}s, ratio {ours / theirs:.3f}"
            )
        change_blueprint(root)
        update_ratios = []
        for run in range(args.runs):
            ours = sh(str(BIN / "generate"), "update", "svc-00", cwd=root, env=env)
            theirs = sh(
                str(BIN / "copier"),
                "update",
                "--trust",
                "--defaults",
                "--quiet",
                cwd=root / "apps/svc-01",
                env=env,
            )
            update_ratios.append(ours / theirs)
            print(
                f"update run {run + 1}: generate update {ours:.2f}s, copier update "
                f"{theirs:.2f}s, ratio {ours / theirs:.2f}"
            )
            sh("git", "checkout", "-q", "--", "apps", cwd=root)
    print(
        f"median ratios: check/copier-copy {statistics.median(check_ratios):.3f} "
        f"update/copier-update {statistics.median(update_ratios):.2f}"
    )


if __name__ == "__main__":
    main()
