"""`generate catalog`: the catalog as a static site (a page per service and per event, a
diagram of the flows between services, client-side search, the findings), each service's
AsyncAPI document, and its OpenAPI document exported from the rendered application.
Every spec string reaches the pages through Jinja's HTML escaping."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from generator import asyncapi, naming
from generator.catalog import Catalog

TEMPLATES = Path(__file__).parent / "templates" / "catalog"
ASSETS = ("catalog.css", "catalog.js")
OPENAPI_TIMEOUT = 120.0

BOX_WIDTH, BOX_HEIGHT = 168, 44
MARKER = ".generate-catalog"
"""The file that marks a directory as a catalog, which the next run may replace."""


class CatalogError(Exception):
    """The catalog cannot be written where asked."""


@dataclass(frozen=True)
class Node:
    name: str
    x: float
    y: float

    @property
    def left(self) -> float:
        return self.x - BOX_WIDTH / 2

    @property
    def top(self) -> float:
        return self.y - BOX_HEIGHT / 2


@dataclass(frozen=True)
class Edge:
    producer: str
    consumer: str
    events: list[str]
    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def label(self) -> str:
        shown = ", ".join(self.events[:2])
        return shown + (f" +{len(self.events) - 2}" if len(self.events) > 2 else "")

    @property
    def label_x(self) -> float:
        return (self.x1 + self.x2) / 2

    @property
    def label_y(self) -> float:
        return (self.y1 + self.y2) / 2 - 6


@dataclass(frozen=True)
class Diagram:
    width: int
    height: int
    nodes: list[Node]
    edges: list[Edge]


def diagram(catalog: Catalog) -> Diagram:
    """The services that publish or consume events in columns, each consumer right of its
    producers (a cycle is cut where it closes), an arrow from each producer to each of its
    consumers labelled with the events."""
    names = [
        name
        for name, service in sorted(catalog.services.items())
        if service.kind == "app" or service.publishes or service.consumes
    ]
    producers: dict[str, set[str]] = {name: set() for name in names}
    for flow in catalog.flows:
        if flow.producer in producers and flow.consumer in producers:
            producers[flow.consumer].add(flow.producer)
    column = {name: 0 for name in names}
    for _ in names:  # longest path from a source; at most len(names) rounds
        for name in names:
            column[name] = max([0, *(column[p] + 1 for p in producers[name] if p != name)])
    column = {name: min(value, len(names) - 1) for name, value in column.items()}
    rows: dict[int, list[str]] = {}
    for name in names:
        rows.setdefault(column[name], []).append(name)
    gap_x, gap_y, margin = 190, 40, 30
    nodes = {
        name: Node(
            name,
            margin + BOX_WIDTH / 2 + index * (BOX_WIDTH + gap_x),
            margin + BOX_HEIGHT / 2 + row * (BOX_HEIGHT + gap_y),
        )
        for index, members in sorted(rows.items())
        for row, name in enumerate(members)
    }
    edges = []
    for flow in catalog.flows:
        start, end = nodes.get(flow.producer), nodes.get(flow.consumer)
        if start is None or end is None or start is end:
            continue
        x1, y1 = _border(start, end)
        x2, y2 = _border(end, start)
        edges.append(Edge(flow.producer, flow.consumer, flow.events, x1, y1, x2, y2))
    width = 2 * margin + max(len(rows), 1) * (BOX_WIDTH + gap_x) - gap_x
    tallest = max((len(members) for members in rows.values()), default=1)
    height = 2 * margin + tallest * (BOX_HEIGHT + gap_y) - gap_y
    return Diagram(int(width), int(height), list(nodes.values()), edges)


def _border(node: Node, toward: Node) -> tuple[float, float]:
    """Where the line from ``node``'s centre to ``toward``'s leaves ``node``'s box."""
    dx, dy = toward.x - node.x, toward.y - node.y
    if dx == 0 and dy == 0:
        return node.x, node.y
    scale = min(
        (BOX_WIDTH / 2 + 6) / abs(dx) if dx else math.inf,
        (BOX_HEIGHT / 2 + 6) / abs(dy) if dy else math.inf,
    )
    return round(node.x + dx * scale, 1), round(node.y + dy * scale, 1)


def search_index(catalog: Catalog) -> list[dict[str, str]]:
    """What the search box finds: services, events, aggregates, endpoints, fields."""
    entries: list[dict[str, str]] = []
    for service in catalog.services.values():
        page = service_page(service.name)
        entries.append(
            {"kind": "service", "title": service.name, "url": page, "text": service.description}
        )
        for aggregate in service.aggregates:
            entries.append(
                {
                    "kind": "aggregate",
                    "title": f"{service.name} / {aggregate.name}",
                    "url": f"{page}#aggregate-{aggregate.name}",
                    "text": " ".join(
                        [aggregate.description, *(f.name for f in aggregate.fields)]
                        + [c.name for c in aggregate.commands]
                    ),
                }
            )
        for endpoint in service.endpoints:
            entries.append(
                {
                    "kind": "endpoint",
                    "title": f"{endpoint.method} {endpoint.path}",
                    "url": f"{page}#endpoints",
                    "text": f"{service.name} {endpoint.runs} {endpoint.permission or ''}",
                }
            )
    for event in catalog.events.values():
        entries.append(
            {
                "kind": "event",
                "title": event.key,
                "url": event_page(event.key),
                "text": " ".join(
                    [event.description, event.subject, *(f.name for f in event.fields)]
                    + [c.service for c in event.consumers]
                ),
            }
        )
    return entries


@dataclass(frozen=True)
class Operation:
    """An operation of a service's OpenAPI document."""

    method: str
    path: str
    summary: str
    secured: bool


def served_operations(document: dict[str, Any]) -> list[Operation]:
    """The operations an OpenAPI document lists, by path."""
    found = []
    paths = document.get("paths")
    for path, item in sorted(paths.items() if isinstance(paths, dict) else []):
        for method, operation in item.items() if isinstance(item, dict) else []:
            if method.lower() not in ("get", "post", "put", "patch", "delete"):
                continue
            details = operation if isinstance(operation, dict) else {}
            summary = details.get("summary") or details.get("description") or ""
            found.append(
                Operation(
                    method.upper(),
                    str(path),
                    str(summary).split("\n")[0],
                    bool(details.get("security")),
                )
            )
    return found


def service_page(name: str) -> str:
    return f"service-{name}.html"


def event_page(key: str) -> str:
    return f"event-{key}.html"


def _script_json(data: object) -> str:
    """JSON that cannot end the ``<script>`` element it is written into."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def export_openapi(project: Path, package: str, python: str) -> dict[str, Any]:
    """The OpenAPI document of the rendered application in ``project``, built by its own
    ``create_app`` in a separate process (no server is started)."""
    code = (
        "import json, sys\n"
        f"from {package}.main import create_app\n"
        "json.dump(create_app().openapi(), sys.stdout)\n"
    )
    paths = [str(project / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    environment = {
        **os.environ,
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPATH": os.pathsep.join(paths),
    }
    result = subprocess.run(
        [python, "-c", code],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=OPENAPI_TIMEOUT,
        env=environment,
        check=False,
    )
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"{package}.main.create_app failed: {last[:300]}")
    document: dict[str, Any] = json.loads(result.stdout)
    return document


@dataclass(frozen=True)
class Written:
    pages: int
    openapi: list[str]
    asyncapi: list[str]
    skipped: dict[str, str]


def write_site(
    catalog: Catalog,
    out: Path,
    *,
    projects: dict[str, Path],
    python: str | None = None,
) -> Written:
    """Write the site into ``out`` (replaced as a whole: built aside, then moved in).
    ``projects`` maps a service to its rendered project, whose OpenAPI document is
    exported; a service whose application cannot be built is listed in ``skipped``."""
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).is_file())):
        raise CatalogError(
            f"{out} exists and is not a catalog `generate catalog` wrote; "
            "choose another --out (it is replaced as a whole)"
        )
    templates = TEMPLATES
    env = Environment(
        loader=FileSystemLoader(templates),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(service_page=service_page, event_page=event_page, kebab=naming.kebab)
    openapi: dict[str, dict[str, Any]] = {}
    skipped: dict[str, str] = {}
    for name, service in sorted(catalog.services.items()):
        project = projects.get(name)
        if service.kind != "app":
            continue
        if project is None:
            skipped[name] = "not rendered in this workspace"
            continue
        try:
            openapi[name] = export_openapi(project, naming.package(name), python or sys.executable)
        except (RuntimeError, OSError, subprocess.TimeoutExpired, ValueError) as error:
            skipped[name] = str(error)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".catalog-", dir=out.parent))
    try:
        common = {
            "catalog": catalog,
            "index_json": _script_json(search_index(catalog)),
            "openapi": openapi,
            "served": {name: served_operations(document) for name, document in openapi.items()},
            "skipped": skipped,
        }
        pages = {
            "index.html": env.get_template("index.html.jinja").render(
                **common, diagram=diagram(catalog), page="index"
            )
        }
        for name, service in catalog.services.items():
            pages[service_page(name)] = env.get_template("service.html.jinja").render(
                **common, service=service, page="service"
            )
            if not service.messaging:
                continue
            document = asyncapi.document(catalog, name)
            (staging / f"asyncapi-{name}.json").write_text(
                json.dumps(document, indent=2, sort_keys=False) + "\n", encoding="utf-8"
            )
        for key, event in catalog.events.items():
            pages[event_page(key)] = env.get_template("event.html.jinja").render(
                **common, event=event, page="event"
            )
        for name, document in openapi.items():
            (staging / f"openapi-{name}.json").write_text(
                json.dumps(document, indent=2) + "\n", encoding="utf-8"
            )
        for filename, text in pages.items():
            (staging / filename).write_text(text, encoding="utf-8")
        for asset in ASSETS:
            shutil.copyfile(templates / asset, staging / asset)
        (staging / MARKER).write_text("written by `generate catalog`\n", encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    messaging = sorted(name for name, s in catalog.services.items() if s.messaging)
    return Written(len(pages), sorted(openapi), messaging, skipped)
