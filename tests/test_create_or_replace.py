"""A create-or-replace ``PUT`` (an endpoint with ``create``): what `validate` refuses, and
what a client of the rendered service observes (201 then 200, a gone aggregate made anew,
If-Match, idempotency keys, tenants), with the project's own generated tests and mypy."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Generate, probed_json, ran_in, spec_problems

MIRRORS = """\
version: 2
name: mirrors
aggregates:
  Mirror:
    key: {fields: [name], ignore_case: true}
    fields:
      name: {type: str, pattern: "^[A-Za-z][A-Za-z0-9-]{1,39}$", example: debian-main}
      url: {type: str, pattern: "^https://\\\\S+$", example: "https://deb.example.org/debian",
            unique: true}
      weight: {type: int, min: 1, max: 100, default: 10}
      labels: {type: "list[str]", default: []}
      token: {type: str, secret: sealed, min_length: 8}
    commands:
      add: {creates: true, params: [name, url, weight, labels, token], emits: MirrorAdded}
      configure: {params: [url, weight, labels, token], emits: MirrorConfigured}
      remove: {deletes: true, emits: MirrorRemoved}
endpoints:
  - {method: PUT, path: "/api/v1/mirrors/{name}", command: Mirror.configure, create: Mirror.add}
  - {method: GET, path: "/api/v1/mirrors/{name}", query: Mirror.get}
  - {method: DELETE, path: "/api/v1/mirrors/{name}", command: Mirror.remove}
  - {method: POST, path: "/api/v1/mirrors", command: Mirror.add}
"""

# the same, its tenant in the path and its endpoints needing permissions
TENANTS_MIRRORS = (
    MIRRORS[: MIRRORS.index("endpoints:")].replace("name: mirrors", "name: tenant-mirrors")
    + """\
endpoints:
  - {method: PUT, path: "/api/v1/tenants/{tenantId}/mirrors/{name}", command: Mirror.configure,
     create: Mirror.add, tenant: path, permission: "mirrors:write"}
  - {method: GET, path: "/api/v1/tenants/{tenantId}/mirrors/{id}", query: Mirror.get,
     tenant: path, permission: "mirrors:read"}
  - {method: DELETE, path: "/api/v1/tenants/{tenantId}/mirrors/{name}", command: Mirror.remove,
     tenant: path, permission: "mirrors:write"}
"""
)

UPSERT = (
    '  - {method: PUT, path: "/api/v1/mirrors/{name}", command: Mirror.configure,'
    " create: Mirror.add}\n"
)


def problems(text: str) -> list[str]:
    return spec_problems(text, "mirrors.yaml")


def test_the_spec_with_a_create_or_replace_put_is_valid() -> None:
    assert problems(MIRRORS) == []


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (
            UPSERT,
            UPSERT.replace("PUT", "POST"),
            "endpoints.0.method: a create-or-replace endpoint (`create`) is a PUT",
        ),
        (
            UPSERT,
            UPSERT.replace("create: Mirror.add", "create: Mirror.configure"),
            "endpoints.0.create: 'configure' is no creating command of Mirror (expected one"
            " of: add)",
        ),
        (
            UPSERT,
            UPSERT.replace("create: Mirror.add", "create: Shelf.add"),
            "endpoints.0.create: 'Shelf.add' is not of Mirror: `create` must name a creating"
            " command of the aggregate `command` changes (Mirror.<command>)",
        ),
        (
            UPSERT,
            UPSERT.replace("command: Mirror.configure", "command: Mirror.remove"),
            "endpoints.0.command: 'remove' creates or deletes",
        ),
        (
            UPSERT,
            UPSERT.replace("{name}", "{id}"),
            "endpoints.0.path: a create-or-replace PUT names the Mirror by its key: put {name}"
            " in the path",
        ),
        (
            "      configure: {params: [url, weight, labels, token]",
            "      configure: {params: [url, labels, token]",
            "endpoints.0.command: 'configure' does not take 'weight', which 'add' does: a"
            " replace would drop it",
        ),
        (
            "      add: {creates: true, params: [name, url, weight, labels, token]",
            "      add: {creates: true, params: [name, url, weight, labels, token],"
            " inputs: {note: str}",
            "endpoints.0.command: 'configure' does not take 'note', which 'add' does",
        ),
        (
            "emits: MirrorAdded}\n      configure: {params: [url, weight, labels, token],",
            "inputs: {note: {type: str, default: made}}, emits: MirrorAdded}\n"
            "      configure: {params: [url, weight, labels, token],"
            " inputs: {note: {type: str, default: changed}},",
            "endpoints.0.create: 'add' does not take 'note' as 'configure' does (the same type,"
            " default and rules)",
        ),
        (
            UPSERT,
            UPSERT.replace("create: Mirror.add}", "create: Mirror.add, status: 200}"),
            "endpoints.0.status: a create-or-replace PUT answers 201 when it creates, else 200",
        ),
        (
            UPSERT,
            UPSERT.replace("create: Mirror.add}", "create: Mirror.add, use_case: configure}"),
            "endpoints.0.use_case: use case 'configure' is taken by Mirror's own use cases",
        ),
    ],
)
def test_validate_names_what_a_create_or_replace_put_cannot_do(
    before: str, after: str, expected: str
) -> None:
    assert before in MIRRORS
    found = problems(MIRRORS.replace(before, after, 1))
    assert any(expected in problem for problem in found), found


def test_a_create_or_replace_put_needs_a_key_of_one_field() -> None:
    unkeyed = MIRRORS.replace("    key: {fields: [name], ignore_case: true}\n", "")
    found = problems(unkeyed)
    assert any(
        "a create-or-replace PUT names the Mirror by the one field of its `key`" in problem
        for problem in found
    ), found


def test_a_create_or_replace_put_refuses_a_command_that_makes_a_generated_secret() -> None:
    spec = MIRRORS.replace(
        "      token: {type: str, secret: sealed, min_length: 8}\n",
        "      token: {type: str, secret: sealed, min_length: 8}\n"
        "      hookSecret: {type: str, secret: generated}\n",
    ).replace("weight, labels, token]", "weight, labels, token, hookSecret]")
    found = problems(spec)
    assert any(
        "'add' makes a generated secret ('hookSecret'), which only the answer of a POST or"
        " a plain PUT shows" in problem
        for problem in found
    ), found


# commands that load references (a list of them too, a key ignoring case) and change
# another aggregate (also), on both sides of the PUT; the depots they reference made by a
# PUT too (the tests of the PATCH with a stale If-Match make one with no precondition)
ROUTES = """\
version: 2
name: routes
enums:
  Mode: [road, rail, sea]
aggregates:
  Depot:
    key: {fields: [code], ignore_case: true}
    fields:
      code: {type: str, pattern: "^[A-Za-z]{3,8}$", example: Lyon}
      city: {type: str, not_blank: true}
      routes: {type: int, default: 0}
    commands:
      open: {creates: true, params: [code, city], emits: DepotOpened}
      serve: {params: [], emits: DepotServed, set: {routes: "routes + 1"}}
      move: {params: [city], emits: DepotMoved}
  Route:
    key: [code]
    fields:
      code: {type: str, pattern: "^[A-Z]{2}-[0-9]{3}$", example: FR-001}
      origin: {type: str, references: Depot.code}
      via: {type: "list[str]", references: Depot.code, default: []}
      mode: {type: Mode, default: road}
      apiKey: {type: str, secret: sealed, min_length: 4}
      note: {type: str, optional: true}
    commands:
      plan: {creates: true, params: [code, origin, via, mode, apiKey, note], emits: RoutePlanned,
             also: [{command: Depot.serve, id: origin}]}
      replan: {params: [origin, via, mode, apiKey, note], emits: RouteReplanned}
      drop: {deletes: true, emits: RouteDropped}
      start: {params: [origin], emits: RouteStarted}
read_models:
  Routes: {of: Route}
endpoints:
  - {method: PUT, path: "/api/v1/depots/{code}", command: Depot.move, create: Depot.open}
  - {method: PATCH, path: "/api/v1/routes/{id}", command: Route.start}
  - {method: GET, path: "/api/v1/depots/{id}", query: Depot.get}
  - {method: PUT, path: "/api/v1/routes/{code}", command: Route.replan, create: Route.plan}
  - {method: GET, path: "/api/v1/routes/{id}", query: Route.get}
  - {method: GET, path: /api/v1/routes, query: Routes.list, consistent: true}
  - {method: DELETE, path: "/api/v1/routes/{code}", command: Route.drop}
"""


PROBE = """\
import json
import sys
from fastapi.testclient import TestClient
from mirrors.infrastructure.config import load_settings
from mirrors.main import create_app
settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/probe.db",
                          "BROKER_RELAY": "false"})
with TestClient(create_app(settings)) as client:
    body = {"url": "https://a.example.org/debian", "token": "s3cret-token", "labels": ["x"]}
    made = client.put("/api/v1/mirrors/Debian-Main", json=body)
    again = client.put("/api/v1/mirrors/debian-main", json={**body, "weight": 7})
    taken = client.put("/api/v1/mirrors/ubuntu", json=body)
    removed = client.delete("/api/v1/mirrors/DEBIAN-MAIN")
    posted = client.post("/api/v1/mirrors", json={**body, "name": "debian-main"})
    anew = client.put("/api/v1/mirrors/debian-main", json=body)
    read = client.get("/api/v1/mirrors/debian-main")
    # a retry with the key of a request but another secret is another request: refused
    key = {"Idempotency-Key": "rotate-1"}
    rotated = client.put("/api/v1/mirrors/debian-main", json=body, headers=key)
    changed = client.put(
        "/api/v1/mirrors/debian-main", json={**body, "token": "other-token"}, headers=key
    )
    # the events hold the token sealed: the service's own code opens it, in its tenant
    import sqlite3
    from eaf.context import SecurityContext, use
    from eaf.security import SealedSecrets
    stored = sqlite3.connect(f"{sys.argv[1]}/probe.db").execute(
        "SELECT payload FROM eaf_events WHERE event_type = 'MirrorAdded' ORDER BY position"
    ).fetchall()
    sealed = [json.loads(row[0])["token"] for row in stored]
    with use(SecurityContext(tenant_id="default")):
        opened = [SealedSecrets.from_settings(settings).open("Mirror", "token", s) for s in sealed]
    print(json.dumps({
        "sealed": [len(sealed), any("s3cret" in s for s in sealed), opened],
        "made": [made.status_code, made.headers.get("location"), made.headers["etag"]],
        "again": [again.status_code, "location" in again.headers, again.json()["weight"],
                  again.json()["name"], again.json()["id"] == made.json()["id"]],
        "taken": [taken.status_code, taken.json().get("field")],
        "removed": removed.status_code,
        "posted": posted.status_code,
        "anew": [anew.status_code, anew.headers["etag"], anew.json()["weight"],
                 anew.json()["name"], "token" in anew.json()],
        "read": [read.status_code, read.json()["createdAt"] == anew.json()["createdAt"]],
        "retried": [rotated.status_code, changed.status_code, changed.json()["title"]],
    }))
"""


def _project(workspace: Path, generate: Generate, name: str, spec: str) -> Path:
    path = workspace / f"specs/{name}.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(spec)
    made = generate("service", name, cwd=workspace)
    assert made.code == 0, made.err
    return workspace / f"apps/{name}"


def test_a_rendered_create_or_replace_put_makes_replaces_and_makes_anew(
    workspace: Path, generate: Generate
) -> None:
    project = _project(workspace, generate, "mirrors", MIRRORS)
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")
    seen = probed_json(project, PROBE, workspace)
    # made (201, its URL), then replaced by its key in another case (200, the same one)
    assert seen["made"] == [201, "/api/v1/mirrors/Debian-Main", '"1"']
    assert seen["again"] == [200, False, 7, "Debian-Main", True]
    # a unique value is still taken once
    assert seen["taken"] == [409, "url"]
    # gone: a POST still finds its key taken, the PUT makes it anew (the events go on)
    assert seen["removed"] == 204
    assert seen["posted"] == 409
    assert seen["anew"] == [201, '"4"', 10, "debian-main", False]
    assert seen["read"] == [200, True]
    assert seen["sealed"] == [2, False, ["s3cret-token"] * 2]
    assert seen["retried"] == [200, 422, "Idempotency-Key reused"]


def test_a_create_or_replace_put_of_commands_loading_references_passes_its_own_tests(
    workspace: Path, generate: Generate
) -> None:
    assert problems(ROUTES) == []
    project = _project(workspace, generate, "routes", ROUTES)
    tests = (project / "tests/test_api.py").read_text()
    assert "def test_replan_or_plan_route_makes_a_gone_route_anew(" in tests
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")


def test_a_create_or_replace_put_on_a_tenant_path_passes_its_own_tests(
    workspace: Path, generate: Generate
) -> None:
    assert problems(TENANTS_MIRRORS) == []
    project = _project(workspace, generate, "tenant-mirrors", TENANTS_MIRRORS)
    tests = (project / "tests/test_api.py").read_text()
    assert "def test_configure_or_add_mirror_makes_a_gone_mirror_anew(" in tests
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")


RACE = """\
import asyncio
import json
import sys
from eaf.context import SecurityContext, use
from eaf.eventsourcing import InMemoryEventStore
from mirrors.bootstrap import bootstrap
from mirrors.infrastructure.config import load_settings


class Racing(InMemoryEventStore):
    \"\"\"Runs ``meanwhile`` (another request) once, right after a read of a stream.\"\"\"

    meanwhile = None

    async def _then(self, found):
        if self.meanwhile is not None:
            other, self.meanwhile = self.meanwhile, None
            await other()
        return found

    async def stream_version(self, *args, **kwargs):
        return await self._then(await super().stream_version(*args, **kwargs))

    async def read_stream(self, *args, **kwargs):
        return await self._then(await super().read_stream(*args, **kwargs))


async def main():
    store = Racing()
    settings = load_settings({"DATABASE_URL": "sqlite://", "BROKER_RELAY": "false",
                              "SECURITY_SECRETS_FILE": f"{sys.argv[1]}/secrets.json"})
    services = await bootstrap(settings, store=store)
    body = {"url": "https://a.example.org/debian", "weight": 10, "labels": [],
            "token": "s3cret-token"}

    async def other():
        await services.mirror.configure_or_add("debian", **{**body, "weight": 2})

    with use(SecurityContext(tenant_id="acme")):
        store.meanwhile = other
        first = await services.mirror.configure_or_add("debian", **{**body, "weight": 7})
        events = await store.read_stream("Mirror", first.id)
    print(json.dumps([first.weight, first.version, [e.event_type for e in events]]))


asyncio.run(main())
"""


def test_a_put_racing_another_of_its_key_replaces_what_that_one_made(
    workspace: Path, generate: Generate
) -> None:
    """Another PUT of the key commits between this one's reads: the first read must
    decide, else both make it (two creations of one live aggregate, both answered 201)."""
    project = _project(workspace, generate, "mirrors", MIRRORS)
    assert probed_json(project, RACE, workspace) == [
        7,
        2,
        ["MirrorAdded", "MirrorConfigured"],
    ]


NOTES = """\
version: 2
name: notes
aggregates:
  Note:
    fields:
      text: {type: str, max_length: 50}
      pinned: {type: bool, default: false}
    commands:
      write: {creates: true, params: [text], emits: NoteWritten}
      edit: {params: [text, pinned], emits: NoteEdited}
endpoints:
  - {method: POST, path: /api/v1/notes, command: Note.write}
  - {method: PATCH, path: "/api/v1/notes/{id}", command: Note.edit}
"""

PATCH_RACE = """\
import json
import sys
from eaf.eventsourcing import InMemoryEventStore
from fastapi.testclient import TestClient
from notes.infrastructure.config import load_settings
from notes.main import create_app


class Racing(InMemoryEventStore):
    \"\"\"Runs ``meanwhile`` (another request) once, right after a read of a stream.\"\"\"

    meanwhile = None

    async def read_stream(self, *args, **kwargs):
        found = await super().read_stream(*args, **kwargs)
        if self.meanwhile is not None:
            other, self.meanwhile = self.meanwhile, None
            await other()
        return found


store = Racing()
settings = load_settings({"DATABASE_URL": "sqlite://", "BROKER_RELAY": "false"})
app = create_app(settings, store=store)
answers = []
with TestClient(app) as client:
    note = client.post("/api/v1/notes", json={"text": "a"}).json()

    async def other():
        await app.state.note.edit(note["id"], text="b", pinned=True)

    # another edit commits between the read the patch is merged into and its command
    store.meanwhile = other
    raced = client.patch("/api/v1/notes/" + note["id"], json={"text": "c"})
    answers.append([raced.status_code, raced.json()["detail"]])
    # with If-Match, the same race is the client's precondition
    store.meanwhile = other
    raced = client.patch(
        "/api/v1/notes/" + note["id"], json={"text": "d"}, headers={"If-Match": '"2"'}
    )
    answers.append([raced.status_code])
    again = client.patch("/api/v1/notes/" + note["id"], json={"text": "e"})
    answers.append([again.status_code, again.json()["text"], again.json()["pinned"]])
print(json.dumps(answers))
"""


def test_a_merge_patch_racing_another_write_answers_409_to_retry(
    workspace: Path, generate: Generate
) -> None:
    """Without If-Match the patch is merged into the state it read: a write committed
    since is no failed precondition of the client's (412) but a conflict to retry (409),
    and the other write is not lost."""
    project = _project(workspace, generate, "notes", NOTES)
    assert probed_json(project, PATCH_RACE, workspace) == [
        [409, "The resource was changed by a concurrent request; retry"],
        [412],
        [200, "e", True],
    ]
