"""Cold wall time of `generate service` against `copier copy` of the same blueprint.

Each run is a fresh process rendering the sample spec into an empty directory; the two
tools alternate so that machine noise hits both alike. `generate` keeps compiled templates
in the user's cache (as Python keeps .pyc files); its first run on a machine, with that
cache empty (GENERATE_NO_CACHE), is measured too. Then the growth with the spec: specs of
1, 10 and 50 aggregates, each rendered by both. Ratios are ours / copier; below 1.0 we are
faster.

    .venv/bin/python benchmarks/generate.py [--runs 7] [--sizes 1,10,50]
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

import yaml
from copier_baseline import copier_copy

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _timed(command: list[str], cwd: Path, environ: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True, env=environ)
    return time.perf_counter() - start


def run_generate(scratch: Path, spec: Path, *, cache: bool = True) -> float:
    workspace = scratch / "ours"
    shutil.rmtree(workspace, ignore_errors=True)
    (workspace / "specs").mkdir(parents=True)
    (workspace / "pyproject.toml").write_text('[tool.generate]\napps = "apps"\n')
    shutil.copy(spec, workspace / "specs" / spec.name)
    name = str(yaml.safe_load(spec.read_text())["name"])
    environ = None if cache else {**os.environ, "GENERATE_NO_CACHE": "1"}
    return _timed([str(BIN / "generate"), "service", name], workspace, environ)


def sized_spec(scratch: Path, aggregates: int) -> Path:
    """A spec of ``aggregates`` aggregates, each with four fields, a unique one, a guard,
    three commands, a read model and four endpoints."""
    lines = ["version: 2", f"name: sized{aggregates}", "aggregates:"]
    endpoints = ["endpoints:"]
    models = ["read_models:"]
    for index in range(aggregates):
        name = f"Thing{index}"
        plural = f"/api/v1/things{index}"
        lines += [
            f"  {name}:",
            "    fields:",
            "      code: {type: str, pattern: '^[A-Z]{3}[0-9]{3}$', unique: true, example: ABC123}",
            "      label: {type: str, not_blank: true, max_length: 80}",
            "      amount: {type: decimal, scale: 2, min: 0}",
            "      active: {type: bool, default: true}",
            "    commands:",
            f"      create: {{creates: true, params: [code, label, amount], emits: {name}Created}}",
            f"      relabel: {{params: [label], emits: {name}Relabelled}}",
            f"      close: {{when: active, set: {{active: false}}, emits: {name}Closed}}",
        ]
        models.append(f"  {name}List: {{of: {name}}}")
        endpoints += [
            f"  - {{method: POST, path: {plural}, command: {name}.create, permission: 's:w'}}",
            f"  - {{method: GET, path: {plural}, query: {name}.list, page: true, "
            "permission: 's:r'}",
            f"  - {{method: GET, path: '{plural}/{{id}}', query: {name}.get, permission: 's:r'}}",
            f"  - {{method: PATCH, path: '{plural}/{{id}}', command: {name}.relabel, "
            "permission: 's:w'}",
        ]
    spec = scratch / f"sized{aggregates}.yaml"
    spec.write_text("\n".join([*lines, *models, *endpoints]) + "\n")
    return spec


def run_copier(scratch: Path, spec: Path) -> float:
    return copier_copy(REPO, spec, scratch / "theirs", scratch)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sizes", default="1,10,50")
    options = parser.parse_args()
    runs = options.runs
    spec = REPO / "specs/user-profile.yaml"
    ours: list[float] = []
    first: list[float] = []
    theirs: list[float] = []
    with tempfile.TemporaryDirectory() as directory:
        scratch = Path(directory)
        run_generate(scratch, spec)
        run_copier(scratch, spec)
        for index in range(runs):
            ours.append(run_generate(scratch, spec))
            first.append(run_generate(scratch, spec, cache=False))
            theirs.append(run_copier(scratch, spec))
            print(
                f"run {index + 1}: generate {ours[-1]:.3f}s (empty template cache "
                f"{first[-1]:.3f}s)  copier copy {theirs[-1]:.3f}s"
            )
        ratio = statistics.median(ours) / statistics.median(theirs)
        cold = statistics.median(first) / statistics.median(theirs)
        print(
            f"median: generate {statistics.median(ours):.3f}s (empty template cache "
            f"{statistics.median(first):.3f}s)  copier {statistics.median(theirs):.3f}s"
        )
        print(f"generate/copier median wall-time ratio: {ratio:.2f} (empty cache {cold:.2f})")
        for size in [int(n) for n in options.sizes.split(",") if n]:
            sized = sized_spec(scratch, size)
            run_generate(scratch, sized)
            mine = statistics.median(run_generate(scratch, sized) for _ in range(3))
            copier = statistics.median(run_copier(scratch, sized) for _ in range(3))
            files = sum(1 for path in (scratch / "ours").rglob("*") if path.is_file())
            print(
                f"{size} aggregate(s), {files} files: generate {mine:.3f}s  "
                f"copier {copier:.3f}s  ratio {mine / copier:.2f}"
            )


if __name__ == "__main__":
    main()
