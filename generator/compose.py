"""`generate compose`: a Docker Compose file for developing the workspace's services
together: every app built from its Dockerfile, one PostgreSQL with a database per service,
and a three-node NATS JetStream cluster, the services configured by environment alone."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from generator.loading import load_spec_text
from generator.projects import Project
from generator.workspace import Workspace

TEMPLATES = Path(__file__).parent / "templates" / "compose"
FILENAME = "compose.yaml"
HEADER = "# Written by `generate compose`"
"""The first line of every file `generate compose` writes (how `check` knows one)."""
IAM = "iam"
NATS_NODES = ("nats1", "nats2", "nats3")


@dataclass(frozen=True)
class ComposeService:
    """An app of the workspace as the compose file runs it."""

    name: str
    database: str
    port: int
    host_port: int
    dockerfile: str
    secured: bool


@dataclass(frozen=True)
class ComposeFile:
    """What the compose file holds: the apps, where the build context is, the IAM's port."""

    context: str
    services: list[ComposeService]
    iam_port: int | None
    nats_nodes: tuple[str, ...] = NATS_NODES

    @property
    def databases(self) -> list[str]:
        return [service.database for service in self.services]


def default_path(workspace: Workspace) -> Path:
    return workspace.root / FILENAME


def compose_file(workspace: Workspace, projects: list[Project], target: Path) -> ComposeFile:
    """The compose file of the workspace's apps, for a file written at ``target``."""
    specs = {project.name: load_spec_text(project.spec_text, project.name) for project in projects}
    apps = sorted(
        (p for p in projects if p.blueprint == "service" and specs[p.name].kind == "app"),
        key=lambda p: p.name,
    )
    root = workspace.root.resolve()
    context = Path(os.path.relpath(root, target.parent.resolve())).as_posix()
    taken: set[int] = set()
    services = []
    for project in apps:
        spec = specs[project.name]
        port = spec.port
        host_port = port
        while host_port in taken:
            host_port += 1
        taken.add(host_port)
        package = project.name.replace("-", "_")
        services.append(
            ComposeService(
                name=project.name,
                database=package,
                port=port,
                host_port=host_port,
                dockerfile=(project.directory.resolve() / "Dockerfile")
                .relative_to(root)
                .as_posix(),
                secured=any(endpoint.permission for endpoint in spec.endpoints),
            )
        )
    iam = next((s for s in services if s.name == IAM), None)
    return ComposeFile(context, services, iam.port if iam else None)


def render(compose: ComposeFile) -> str:
    """The text of the compose file."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["nats_url"] = lambda node: f"nats://{node}:4222"
    env.filters["route_url"] = lambda node: f"nats://{node}:6222"
    return env.get_template("compose.yaml.jinja").render(compose=compose, header=HEADER)


def stale(workspace: Workspace, projects: list[Project]) -> bool:
    """Whether the workspace's compose file (one `generate compose` wrote at the default
    place) is not what `generate compose` writes now; False when there is none."""
    path = default_path(workspace)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return False
    if not text.startswith(HEADER):
        return False
    return text != render(compose_file(workspace, projects, path))
