"""The runtime libraries of a `generate init` workspace: versioned wheels, reported behind by
`generate check` when the template's runtime changed and brought by `generate update`; a
workspace made when the runtime was copied in is converted by `generate update`."""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from helpers import GENERATE, REPO, tree_digest

CACHES = shutil.ignore_patterns(
    "__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis", "*.db", "data"
)


def _uv() -> str:
    found = REPO / ".tools/bin/uv"
    return str(found) if found.exists() else shutil.which("uv") or "uv"


def run(command: list[str], cwd: Path, **environ: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.pop("GENERATE_TEMPLATE", None)
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, env={**env, **environ}, check=False
    )


def generate(*args: str, cwd: Path, **environ: str) -> subprocess.CompletedProcess[str]:
    return run([str(GENERATE), *args], cwd, **environ)


def pinned(workspace: Path) -> dict[str, str]:
    data = tomllib.loads((workspace / "pyproject.toml").read_text())
    runtime: dict[str, str] = data["tool"]["generate"]["runtime"]
    return runtime


def service_tests_pass(workspace: Path) -> None:
    synced = run([_uv(), "sync", "--all-packages", "--quiet"], workspace)
    assert synced.returncode == 0, synced.stderr
    tested = run(
        [_uv(), "run", "--frozen", "pytest", "-q", "-p", "no:cacheprovider", "-x"],
        workspace / "apps/acme-orders",
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    made = generate("init", str(root), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    return root


def test_init_pins_the_runtime_as_wheels(workspace: Path) -> None:
    assert not (workspace / "libs/eaf").exists() and not (workspace / "contracts").exists()
    wheels = sorted(path.name for path in (workspace / "vendor").iterdir())
    versions = pinned(workspace)
    assert set(versions) == {"eaf", "iam-client", "layer-contracts"}
    assert wheels == [
        f"eaf-{versions['eaf']}-py3-none-any.whl",
        f"iam_client-{versions['iam-client']}-py3-none-any.whl",
        f"layer_contracts-{versions['layer-contracts']}-py3-none-any.whl",
    ]
    assert versions["eaf"].startswith("0.1.0+")
    checked = generate("check", cwd=workspace)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_newer_runtime_is_reported_then_brought_by_update(
    workspace: Path, tmp_path: Path
) -> None:
    assert generate("service", "acme-orders", cwd=workspace).returncode == 0
    template = tmp_path / "template"
    template.mkdir()
    shutil.copy(REPO / "copier.yml", template)
    for part in ("rendered/libs/eaf", "rendered/libs/iam-client", "contracts"):
        shutil.copytree(REPO / part, template / part, ignore=CACHES)
    init = template / "rendered/libs/eaf/src/eaf/__init__.py"
    init.write_text(init.read_text() + "\nRUNTIME_MARK = 'newer'\n")
    newer = {"GENERATE_TEMPLATE": str(template)}
    before = pinned(workspace)

    checked = generate("check", cwd=workspace, **newer)
    assert checked.returncode == 1
    assert f"runtime eaf {before['eaf']}: behind the blueprint (0.1.0+" in checked.stdout
    assert "iam-client" not in checked.stdout
    assert "the runtime is behind the blueprint: run `generate update`" in checked.stderr

    updated = generate("update", "--all", cwd=workspace, **newer)
    assert updated.returncode == 0, updated.stderr
    after = pinned(workspace)
    assert after["eaf"] != before["eaf"] and after["iam-client"] == before["iam-client"]
    assert f"runtime eaf: {before['eaf']} -> {after['eaf']}" in updated.stdout
    assert sorted(p.name for p in (workspace / "vendor").glob("eaf-*")) == [
        f"eaf-{after['eaf']}-py3-none-any.whl"
    ]
    assert generate("check", cwd=workspace, **newer).returncode == 0
    service_tests_pass(workspace)
    marked = run(
        [_uv(), "run", "--frozen", "python", "-c", "import eaf; print(eaf.RUNTIME_MARK)"],
        workspace,
    )
    assert marked.stdout.strip() == "newer", marked.stderr


def _as_made_before(workspace: Path) -> None:
    """The layout `generate init` made when it copied the runtime into the workspace."""
    shutil.rmtree(workspace / "vendor")
    text = (workspace / "pyproject.toml").read_text()
    text = text.split("[tool.uv.sources]")[0] + "[tool.generate]" + text.split("[tool.generate]")[1]
    text = text.split("[tool.generate.runtime]")[0]
    text = text.replace(
        'members = ["apps/*", "libs/*"]', 'members = ["contracts", "apps/*", "libs/*"]'
    )
    (workspace / "pyproject.toml").write_text(text)
    for name in ("eaf", "iam-client"):
        shutil.copytree(REPO / "rendered/libs" / name, workspace / "libs" / name, ignore=CACHES)
        shutil.copy(REPO / "specs" / f"{name}.yaml", workspace / "specs")
    shutil.copytree(REPO / "contracts", workspace / "contracts", ignore=CACHES)


def test_a_workspace_with_copied_runtime_is_converted_by_update(workspace: Path) -> None:
    _as_made_before(workspace)
    checked = generate("check", cwd=workspace)
    assert checked.returncode == 1
    assert "runtime eaf: a copy in libs/eaf that `generate check` cannot upgrade" in checked.stdout

    updated = generate("update", cwd=workspace)
    assert updated.returncode == 0, updated.stderr
    assert "runtime eaf: the copy in libs/eaf removed" in updated.stdout
    assert not (workspace / "libs/eaf").exists() and not (workspace / "contracts").exists()
    data = tomllib.loads((workspace / "pyproject.toml").read_text())
    assert data["tool"]["uv"]["workspace"]["members"] == ["apps/*", "libs/*"]
    assert set(data["tool"]["uv"]["sources"]) == {"eaf", "iam-client", "layer-contracts"}
    assert generate("check", cwd=workspace).returncode == 0

    assert generate("service", "acme-orders", cwd=workspace).returncode == 0
    service_tests_pass(workspace)


def test_an_edited_runtime_copy_is_not_replaced(workspace: Path) -> None:
    _as_made_before(workspace)
    edited = workspace / "libs/eaf/src/eaf/context/__init__.py"
    edited.write_text(edited.read_text() + "\n# a local fix\n")
    before = tree_digest(workspace)
    updated = generate("update", cwd=workspace)
    assert updated.returncode == 1
    assert "libs/eaf/src/eaf/context/__init__.py" in updated.stderr
    assert "nothing was changed" in updated.stderr
    assert tree_digest(workspace) == before
