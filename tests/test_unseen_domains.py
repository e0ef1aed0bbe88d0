"""What domains written from the README alone, by someone who had never seen the project,
found: each case is a minimal spec that once rendered a project failing its own checks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from helpers import Result, ran_in

Generate = Callable[..., Result]

KEYWORD_PATH = """\
version: 2
name: iso
aggregates:
  Thing:
    fields:
      class: {type: str, max_length: 40}
      name: str
    commands:
      make: {creates: true, params: [class, name], emits: ThingMade}
      rename: {params: [name], emits: ThingRenamed}
endpoints:
  - {method: PUT, path: "/api/v1/things/{class}", command: Thing.make, permission: "h:write"}
  - {method: GET, path: "/api/v1/things/{id}", query: Thing.get, permission: "h:read"}
  - {method: PUT, path: "/api/v1/things/{id}/name", command: Thing.rename, permission: "h:write"}
"""


def test_a_path_parameter_named_like_a_python_keyword_renders_tests_that_run(
    workspace: Path, generate: Generate
) -> None:
    """A field may be named ``class`` (README); as a path parameter its tests fill the
    path with ``{class_}`` (it rendered ``.format(class=...)``, which is no Python)."""
    spec = workspace / "specs/iso.yaml"
    spec.parent.mkdir()
    spec.write_text(KEYWORD_PATH)
    made = generate("service", "iso", cwd=workspace)
    assert made.code == 0, made.err
    project = workspace / "apps/iso"
    assert '"/api/v1/things/{class_}".format(' in (project / "tests/test_api.py").read_text()
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")
