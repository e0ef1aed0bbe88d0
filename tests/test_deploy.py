"""The production path of a rendered service: its Dockerfile (hadolint), its Kubernetes
manifests (kubernetes-validate --strict), the workspace's development compose file
(`generate compose`, checked by Docker Compose itself), a project rendered before the
deploy files existed receiving them on update, and the image built and run with podman."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
import yaml
from helpers import GENERATE, REPO, free_port

BIN = Path(sys.executable).parent
APPS = sorted(path.parent for path in (REPO / "rendered/apps").glob("*/Dockerfile"))
NAMES = [app.name for app in APPS]


def run(
    command: list[str | Path], cwd: Path = REPO, **environ: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "GENERATE_TEMPLATE")}
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**env, **environ},
        check=False,
    )


def generate(*args: str, cwd: Path, **environ: str) -> subprocess.CompletedProcess[str]:
    return run([GENERATE, *args], cwd, **environ)


def manifests(app: Path) -> list[Path]:
    return sorted(
        path for path in (app / "deploy/k8s").glob("*.yaml") if path.name != "kustomization.yaml"
    )


def test_every_rendered_app_has_a_dockerfile_and_manifests() -> None:
    every_app = sorted(
        p.name for p in (REPO / "rendered/apps").iterdir() if (p / "project.json").is_file()
    )
    assert every_app == NAMES and {"iam", "user-profile"} <= set(NAMES)
    for app in APPS:
        kinds = {yaml.safe_load(path.read_text())["kind"] for path in manifests(app)}
        assert kinds == {
            "ConfigMap",
            "Deployment",
            "HorizontalPodAutoscaler",
            "NetworkPolicy",
            "PodDisruptionBudget",
            "Secret",
            "Service",
        }


@pytest.mark.parametrize("app", APPS, ids=NAMES)
def test_the_dockerfile_passes_hadolint(app: Path) -> None:
    linted = run([BIN / "hadolint", app / "Dockerfile"])
    assert linted.returncode == 0, linted.stdout + linted.stderr


def test_hadolint_refuses_a_careless_dockerfile(tmp_path: Path) -> None:
    careless = tmp_path / "Dockerfile"
    careless.write_text("FROM python\nRUN apt-get install curl\nCMD python -m app\n")
    linted = run([BIN / "hadolint", careless])
    assert linted.returncode != 0
    assert "DL3006" in linted.stdout and "DL3025" in linted.stdout


@pytest.mark.parametrize("app", APPS, ids=NAMES)
def test_every_manifest_passes_kubernetes_validate_strict(app: Path) -> None:
    validated = run([BIN / "kubernetes-validate", "--strict", *manifests(app)])
    assert validated.returncode == 0, validated.stdout + validated.stderr


def test_kubernetes_validate_refuses_a_broken_manifest(tmp_path: Path) -> None:
    deployment = yaml.safe_load((APPS[0] / "deploy/k8s/deployment.yaml").read_text())
    deployment["spec"]["replica"] = deployment["spec"].pop("replicas")
    broken = tmp_path / "deployment.yaml"
    broken.write_text(yaml.safe_dump(deployment))
    validated = run([BIN / "kubernetes-validate", "--strict", broken])
    assert validated.returncode != 0
    assert "replica" in validated.stdout + validated.stderr


@pytest.mark.parametrize("app", APPS, ids=NAMES)
def test_the_kustomization_lists_every_manifest(app: Path) -> None:
    kustomization = yaml.safe_load((app / "deploy/k8s/kustomization.yaml").read_text())
    listed = kustomization["resources"]
    assert all((app / "deploy/k8s" / name).is_file() for name in listed)
    assert sorted(listed) == [path.name for path in manifests(app)]


@pytest.mark.parametrize("app", APPS, ids=NAMES)
def test_the_pods_run_locked_down_and_probe_the_health_endpoints(app: Path) -> None:
    deployment = yaml.safe_load((app / "deploy/k8s/deployment.yaml").read_text())
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    mounted = {mount["mountPath"] for mount in container["volumeMounts"]}
    assert "/app/data" in mounted
    assert container["livenessProbe"]["httpGet"]["path"] == "/actuator/health/liveness"
    assert container["readinessProbe"]["httpGet"]["path"] == "/actuator/health/readiness"
    assert container["startupProbe"]["httpGet"]["path"] == "/actuator/health/liveness"
    assert [source.popitem()[1]["name"] for source in container["envFrom"]] == [app.name] * 2


def compose_config(path: Path) -> dict[str, object]:
    """The compose file as Docker Compose reads it (validated, paths resolved)."""
    shown = run([BIN / "docker-compose", "-f", path, "config", "--format", "json"], path.parent)
    assert shown.returncode == 0, shown.stderr
    config: dict[str, object] = json.loads(shown.stdout)
    return config


def test_generate_compose_runs_every_app_on_postgres_and_a_nats_cluster(tmp_path: Path) -> None:
    target = tmp_path / "dev/compose.yaml"
    written = generate("compose", "--out", str(target), cwd=REPO)
    assert written.returncode == 0, written.stderr
    quiet = run([BIN / "docker-compose", "-f", target, "config", "--quiet"], tmp_path)
    assert quiet.returncode == 0, quiet.stderr
    services = compose_config(target)["services"]
    assert isinstance(services, dict)
    assert sorted(services) == sorted([*NAMES, "postgres", "nats1", "nats2", "nats3"])
    for app in APPS:
        service = services[app.name]
        assert Path(service["build"]["context"]) == REPO
        assert service["build"]["dockerfile"] == f"rendered/apps/{app.name}/Dockerfile"
        environment = service["environment"]
        assert environment["BROKER_URL"] == (
            "nats://nats1:4222,nats://nats2:4222,nats://nats3:4222"
        )
        assert environment["BROKER_REPLICAS"] == "3"
        assert environment["DATABASE_URL"].endswith(f"@postgres:5432/{app.name.replace('-', '_')}")
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert "healthcheck" in service
    profile = services["user-profile"]
    assert profile["environment"]["SECURITY_IAM_URL"] == "http://iam:8081"
    assert profile["depends_on"]["iam"]["condition"] == "service_healthy"
    for node in ("nats1", "nats2", "nats3"):
        command = services[node]["command"]
        others = sorted({"nats1", "nats2", "nats3"} - {node})
        assert "-js" in command and "--cluster_name=eaf" in command
        assert f"--routes=nats://{others[0]}:6222,nats://{others[1]}:6222" in command
    assert services["postgres"]["image"] == "postgres:16"
    configs = compose_config(target)["configs"]
    assert isinstance(configs, dict)
    init_sql = configs["create-databases"]["content"]
    assert "CREATE DATABASE iam;" in init_sql and "CREATE DATABASE user_profile;" in init_sql


def test_the_committed_compose_file_is_what_generate_compose_writes(tmp_path: Path) -> None:
    target = tmp_path / "compose.yaml"
    assert generate("compose", "--out", str(target), cwd=REPO).returncode == 0
    assert (REPO / "compose.yaml").read_text() == target.read_text().replace(
        f"context: {os.path.relpath(REPO, tmp_path)}", "context: ."
    )


@pytest.fixture
def init_workspace(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    made = generate("init", str(root), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    return root


def test_compose_in_a_fresh_workspace_and_check_says_when_it_is_stale(
    init_workspace: Path,
) -> None:
    refused = generate("compose", cwd=init_workspace)
    assert refused.returncode == 1 and "no app in apps" in refused.stderr
    assert not (init_workspace / "compose.yaml").exists()
    assert generate("service", "acme-orders", cwd=init_workspace).returncode == 0
    written = generate("compose", cwd=init_workspace)
    assert written.returncode == 0, written.stderr
    services = compose_config(init_workspace / "compose.yaml")["services"]
    assert isinstance(services, dict)
    assert sorted(services) == ["acme-orders", "nats1", "nats2", "nats3", "postgres"]
    assert services["acme-orders"]["build"]["dockerfile"] == "apps/acme-orders/Dockerfile"
    assert "SECURITY_IAM_URL" not in services["acme-orders"]["environment"]  # no IAM here
    assert generate("check", cwd=init_workspace).returncode == 0

    assert generate("service", "acme-billing", cwd=init_workspace).returncode == 0
    checked = generate("check", cwd=init_workspace)
    assert checked.returncode == 1
    assert "compose.yaml: out of date" in checked.stderr
    assert generate("compose", cwd=init_workspace).returncode == 0
    assert generate("check", cwd=init_workspace).returncode == 0


DEPLOY_FILES = ("Dockerfile", "Dockerfile.dockerignore", "deploy/k8s/deployment.yaml")
USER_EDIT = ("tests/test_domain.py", "# Generated", "# Checked by hand (user edit)\n# Generated")


def _template_before_the_deploy_files(root: Path) -> None:
    """A template repository as it was before the service blueprint rendered deploy files."""
    shutil.copytree(REPO / "blueprints", root / "blueprints")
    shutil.copy(REPO / "copier.yml", root)
    for part in ("rendered/libs/eaf", "rendered/libs/iam-client", "contracts"):
        shutil.copytree(
            REPO / part,
            root / part,
            ignore=shutil.ignore_patterns("__pycache__", ".*_cache", "*.db", "data"),
        )
    blueprint = root / "blueprints/service/template"
    (blueprint / "Dockerfile.jinja").unlink()
    (blueprint / "Dockerfile.dockerignore").unlink()
    shutil.rmtree(blueprint / "deploy")
    _git(root, "init", "-q", "-b", "main")
    _commit(root, "before the deploy files")


def _git(repo: Path, *args: str) -> None:
    done = run(["git", "-c", "user.email=dev@example.org", "-c", "user.name=Dev", *args], repo)
    assert done.returncode == 0, done.stderr


def _commit(repo: Path, message: str) -> None:
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--allow-empty", "-m", message)


@pytest.mark.parametrize("tool", ["copier", "generate"])
def test_a_service_rendered_before_gets_the_deploy_files_on_update(
    tool: str, tmp_path: Path
) -> None:
    template = tmp_path / "template"
    _template_before_the_deploy_files(template)
    old = {"GENERATE_TEMPLATE": str(template)}
    workspace = tmp_path / "shop"
    assert generate("init", str(workspace), cwd=tmp_path, **old).returncode == 0
    assert generate("service", "acme-orders", cwd=workspace, **old).returncode == 0
    project = workspace / "apps/acme-orders"
    assert not (project / "Dockerfile").exists() and not (project / "deploy").exists()
    edited = project / USER_EDIT[0]
    edited.write_text(edited.read_text().replace(USER_EDIT[1], USER_EDIT[2], 1))
    _git(workspace, "init", "-q", "-b", "main")
    _commit(workspace, "acme-orders, edited")

    shutil.rmtree(template / "blueprints")
    shutil.copytree(REPO / "blueprints", template / "blueprints")
    _commit(template, "the deploy files")
    if tool == "copier":
        updated = run([BIN / "copier", "update", "--trust", "--defaults", "--quiet"], project)
    else:
        updated = generate("update", "--all", cwd=workspace, **old)
    assert updated.returncode == 0, updated.stdout + updated.stderr

    for relative in DEPLOY_FILES:
        assert (project / relative).is_file(), relative
    assert "--package acme-orders" in (project / "Dockerfile").read_text()
    assert USER_EDIT[2] in edited.read_text()
    assert generate("check", cwd=workspace, **old).returncode == 0


CONTAINERS_CONF = REPO / "scripts/containers.conf"
BASE_IMAGE = "localhost/eaf-python:3.11-bookworm"
RUNC = "/usr/sbin/runc"


def podman(*args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["podman", "--runtime", RUNC, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "CONTAINERS_CONF": str(CONTAINERS_CONF)},
        timeout=timeout,
        check=False,
    )


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_the_sample_image_builds_and_serves_as_a_non_root_user() -> None:
    if shutil.which("podman") is None or not Path(RUNC).exists():
        pytest.skip("podman and runc are not installed (scripts/system-deps.sh installs them)")
    base = subprocess.run(
        ["bash", str(REPO / "scripts/container-base.sh"), BASE_IMAGE],
        capture_output=True,
        text=True,
        env={**os.environ, "CONTAINERS_CONF": str(CONTAINERS_CONF)},
        timeout=900,
        check=False,
    )
    assert base.returncode == 0, base.stdout + base.stderr
    image = "localhost/user-profile:test"
    app = "rendered/apps/user-profile"
    built = podman(
        "build",
        "--network=host",
        "--format=docker",
        f"--build-arg=PYTHON_IMAGE={BASE_IMAGE}",
        f"--ignorefile={app}/Dockerfile.dockerignore",
        "-f",
        f"{app}/Dockerfile",
        "-t",
        image,
        ".",
    )
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]

    name = f"user-profile-{uuid.uuid4().hex[:8]}"
    port = free_port()
    started = podman(
        "run",
        "--detach",
        "--rm",
        "--network=host",
        f"--name={name}",
        f"--env=PORT={port}",
        "--env=BROKER_EMBEDDED=true",
        image,
    )
    assert started.returncode == 0, started.stderr
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/actuator/health/readiness").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, podman("logs", name).stdout
            time.sleep(0.5)
        assert httpx.get(f"{url}/actuator/health/liveness").json()["status"] == "UP"
        assert httpx.get(f"{url}/actuator/health/readiness").json()["status"] == "UP"

        refused = httpx.get(f"{url}/api/v1/user-profiles")
        assert refused.status_code == 401
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.json()["status"] == 401

        status = podman("exec", name, "cat", "/proc/1/status").stdout
        uids = next(line.split()[1:] for line in status.splitlines() if line.startswith("Uid:"))
        assert set(uids) == {"10001"}
        assert podman("healthcheck", "run", name).returncode == 0
    finally:
        podman("stop", "--time=5", name)
