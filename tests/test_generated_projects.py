"""Projects generated in a fresh workspace (`generate init`) install, pass their own tests
and layer contracts, and their architecture test names an import that breaks a rule."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from helpers import REPO

pytestmark = pytest.mark.slow
EXAMPLES = sorted((REPO / "specs/examples").glob("*.yaml"))
V1_SPEC = REPO / "tests/fixtures/warehouse-v1.yaml"
# Specs written from the README alone, on domains the generator was never tuned for.
UNSEEN = sorted((REPO / "tests/fixtures/unseen").glob("*.yaml"))
PROJECTS = [
    "apps/acme-orders",
    "apps/acme-billing",
    "libs/acme-kit",
    *(f"apps/{example.stem}" for example in EXAMPLES),
    "apps/warehouse",
    *(f"apps/{spec.stem}" for spec in UNSEEN),
]


def _uv() -> str:
    found = REPO / ".tools/bin/uv"
    return str(found) if found.exists() else shutil.which("uv") or "uv"


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, check=False)


def _unsecured(root: Path, name: str, generate: Path) -> None:
    """A service without permissions (development mode: the tenant from X-Tenant-Id)."""
    assert _run([str(generate), "service", name], cwd=root).returncode == 0
    spec_path = root / "specs" / f"{name}.yaml"
    spec = yaml.safe_load(spec_path.read_text())
    for endpoint in spec["endpoints"]:
        del endpoint["permission"]
    spec_path.write_text(yaml.safe_dump(spec, sort_keys=False))
    rendered = _run([str(generate), "render", name], cwd=root)
    assert rendered.returncode == 0, rendered.stderr


@pytest.fixture(scope="module")
def fresh_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fresh") / "acme"
    generate = REPO / ".venv/bin/generate"
    for command in (
        ["init", str(root)],
        ["service", "acme-orders"],
        ["service", "acme-kit", "--path=libs"],
    ):
        result = _run([str(generate), *command], cwd=root if root.exists() else root.parent)
        assert result.returncode == 0, result.stderr
    _unsecured(root, "acme-billing", generate)
    for spec in [*EXAMPLES, V1_SPEC, *UNSEEN]:
        name = yaml.safe_load(spec.read_text())["name"]
        made = _run([str(generate), "service", name, "--spec", str(spec)], cwd=root)
        assert made.returncode == 0, made.stderr
    synced = _run([_uv(), "sync", "--all-packages", "--quiet"], cwd=root)
    assert synced.returncode == 0, synced.stderr
    for command in (
        ["init", "-q", "-b", "main"],
        ["add", "-A"],
        ["-c", "user.email=dev@example.org", "-c", "user.name=Dev", "commit", "-qm", "acme"],
    ):
        assert _run(["git", *command], cwd=root).returncode == 0
    return root


def test_generate_and_copier_update_work_outside_this_repository(fresh_workspace: Path) -> None:
    generate = REPO / ".venv/bin/generate"
    check = _run([str(generate), "check", "--all"], cwd=fresh_workspace)
    assert check.returncode == 0, check.stdout + check.stderr
    assert f"{len(PROJECTS)} project(s) up to date" in check.stdout
    copier = REPO / ".venv/bin/copier"
    updated = _run(
        [str(copier), "update", "--trust", "--defaults", "--quiet"],
        cwd=fresh_workspace / "apps/acme-orders",
    )
    assert updated.returncode == 0, updated.stderr
    status = _run(["git", "status", "--porcelain"], cwd=fresh_workspace)
    assert status.stdout == ""


@pytest.mark.parametrize("project", PROJECTS)
def test_generated_project_passes_its_own_tests(fresh_workspace: Path, project: str) -> None:
    result = _run(
        [_uv(), "run", "--frozen", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=fresh_workspace / project,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert " passed" in result.stdout


@pytest.mark.parametrize("project", PROJECTS)
def test_generated_project_is_lint_and_type_clean(fresh_workspace: Path, project: str) -> None:
    cwd = fresh_workspace / project
    for command in (["ruff", "check", "."], ["ruff", "format", "--check", "."], ["mypy"]):
        result = _run([_uv(), "run", "--frozen", *command], cwd=cwd)
        assert result.returncode == 0, f"{command}: {result.stdout}{result.stderr}"


VIOLATIONS = {
    "rule 1": (
        "domain/model.py",
        "from acme_orders.infrastructure import clock",
        "acme_orders.domain.model -> acme_orders.infrastructure.clock",
    ),
    "rule 2": (
        "application/services.py",
        "from acme_orders.infrastructure import persistence",
        "acme_orders.application.services -> acme_orders.infrastructure.persistence",
    ),
    "rule 3 (external package)": (
        "infrastructure/clock.py",
        "import yaml",
        "acme_orders.infrastructure.clock -> yaml",
    ),
    "rule 3 (composition root)": (
        "infrastructure/web.py",
        "from acme_orders import bootstrap",
        "acme_orders.infrastructure.web -> acme_orders.bootstrap",
    ),
}


@pytest.mark.parametrize("rule", sorted(VIOLATIONS))
def test_a_broken_layer_rule_fails_the_architecture_test_naming_the_import(
    fresh_workspace: Path, rule: str
) -> None:
    module, line, named = VIOLATIONS[rule]
    project = fresh_workspace / "apps/acme-orders"
    path = project / "src/acme_orders" / module
    original = path.read_text()
    path.write_text(f"{original}{line}  # noqa: E402, F401\n")
    try:
        result = _run(
            [
                _uv(),
                "run",
                "--frozen",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "tests/test_architecture.py",
            ],
            cwd=project,
        )
    finally:
        path.write_text(original)
    assert result.returncode == 1
    assert named in result.stdout, result.stdout
