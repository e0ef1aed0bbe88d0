"""Services rendered from version-2 specs, run as real processes behind the real IAM, on
SQLite event stores and one real nats-server: what a client observes of cross-aggregate
commands, unique values, idempotency keys and ETags under concurrent requests, and of a
spec evolved over stored data (upcast events, a new field, read models rebuilt)."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from eaf.messaging.embedded import EmbeddedNats
from helpers import GENERATE, REPO, Service, free_port, iam_environ, make_workspace

from generator.loading import load_spec_text, parse_yaml
from generator.render import Blueprint, render_new

RUNTIME = [REPO / "rendered/libs/eaf/src", REPO / "rendered/libs/iam-client/src"]
EAF = Path(sys.executable).parent / "eaf"
ADMIN = "root"
ADMIN_PASSWORD = secrets.token_urlsafe(16)
DUE = "2099-01-31"
Json = dict[str, Any]


class RenderedService(Service):
    """A rendered service served on a SQLite event store (``database``, its URL)."""

    def __init__(self, package: str, log: Path, env: dict[str, str], database: Path) -> None:
        super().__init__(package, log, {**env, "DATABASE_URL": f"sqlite:///{database}"})
        self.database = f"sqlite:///{database}"


@dataclass(frozen=True)
class Platform:
    """The shared infrastructure: a nats-server, IAM, and a token of a tenant user whose
    role grants the example services' permissions."""

    broker_url: str
    iam_url: str
    token: str

    def service(self, package: str, project: Path, database: Path, log: Path) -> RenderedService:
        """``python -m <package>`` of the rendered ``project`` on ``database``."""
        return RenderedService(
            package,
            log,
            {
                "PYTHONPATH": os.pathsep.join(str(p) for p in [project / "src", *RUNTIME]),
                "BROKER_URL": self.broker_url,
                "SECURITY_IAM_URL": self.iam_url,
                "SECURITY_ISSUER": self.iam_url,
                "LOGGING_FORMAT": "json",
            },
            database,
        )

    def client(self, service: Service) -> httpx.AsyncClient:
        """An HTTP client of ``service`` that sends the user's token."""
        return httpx.AsyncClient(
            base_url=service.url,
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=60,
        )


def _granted_token(iam: str) -> str:
    """A new tenant's user with a role granting library:* and tasks:*, logged in."""
    with httpx.Client(base_url=iam, timeout=30) as http:

        def login(tenant: str, username: str, password: str) -> dict[str, str]:
            grant = {"grant_type": "password", "tenant": tenant}
            response = http.post(
                "/api/v1/auth/token", data={**grant, "username": username, "password": password}
            )
            assert response.status_code == 200, response.text
            return {"Authorization": f"Bearer {response.json()['access_token']}"}

        password = secrets.token_urlsafe(12)
        tenant = http.post(
            "/api/v1/tenants",
            json={
                "name": "Readers",
                "adminUsername": "boss",
                "adminEmail": "boss@readers.test",
                "adminPassword": password,
            },
            headers=login("platform", ADMIN, ADMIN_PASSWORD),
        )
        assert tenant.status_code == 201, tenant.text
        tenant_id = tenant.json()["tenantId"]
        boss = login(tenant_id, "boss", password)
        role = http.post(
            f"/api/v1/tenants/{tenant_id}/roles",
            json={"name": "staff", "permissions": ["library:*", "tasks:*"]},
            headers=boss,
        )
        assert role.status_code == 201, role.text
        user = http.post(
            f"/api/v1/tenants/{tenant_id}/users",
            json={
                "username": "ada",
                "email": "ada@readers.test",
                "password": password,
                "roles": ["staff"],
            },
            headers=boss,
        )
        assert user.status_code == 201, user.text
        return login(tenant_id, "ada", password)["Authorization"].removeprefix("Bearer ")


@pytest.fixture(scope="module")
def platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    root = tmp_path_factory.mktemp("platform")
    broker = EmbeddedNats(root / "nats")
    asyncio.run(broker.start())
    iam_port = free_port()
    iam = Service(
        "iam",
        root / "iam.log",
        {
            "BROKER_URL": broker.url,
            "LOGGING_FORMAT": "json",
            **iam_environ(root, f"http://127.0.0.1:{iam_port}", (ADMIN, ADMIN_PASSWORD)),
        },
        port=iam_port,
    )
    try:
        iam.wait_ready()
        yield Platform(broker.url, iam.url, _granted_token(iam.url))
    finally:
        iam.stop()
        asyncio.run(broker.stop())


@pytest.fixture(scope="module")
def library(
    platform: Platform, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RenderedService]:
    """The library example, rendered by the real renderer and served."""
    root = tmp_path_factory.mktemp("library")
    text = (REPO / "specs/examples/library.yaml").read_text(encoding="utf-8")
    spec = load_spec_text(text, "library.yaml")
    data, _ = parse_yaml(text, "library.yaml")
    project = root / "library"
    render_new(Blueprint(REPO, "service"), spec, data, project, src_path=".")
    service = platform.service("library", project, root / "library.db", root / "library.log")
    service.wait_ready()
    yield service
    service.stop()


async def _until(
    read: Callable[[], Awaitable[httpx.Response]],
    done: Callable[[Json], bool],
    timeout: float = 30,
) -> Json:
    """The body of ``read`` once ``done`` holds for it (read models are eventually
    consistent); fails after ``timeout`` seconds with the last body."""
    body: Json = {}
    try:
        async with asyncio.timeout(timeout):
            while True:
                response = await read()
                assert response.status_code == 200, response.text
                body = response.json()
                if done(body):
                    return body
                await asyncio.sleep(0.1)
    except TimeoutError:
        raise AssertionError(f"not reached in {timeout} s; last: {body}") from None


def _isbn() -> str:
    return "978" + "".join(secrets.choice("0123456789") for _ in range(10))


async def _book(http: httpx.AsyncClient, copies: int) -> Json:
    created = await http.post(
        "/api/v1/books",
        json={"isbn": _isbn(), "title": f"Book {secrets.token_hex(4)}", "copies": copies},
    )
    assert created.status_code == 201, created.text
    body: Json = created.json()
    return body


async def _member(http: httpx.AsyncClient) -> Json:
    joined = await http.post(
        "/api/v1/members",
        json={"name": "Grace", "email": f"grace-{secrets.token_hex(4)}@readers.test"},
    )
    assert joined.status_code == 201, joined.text
    body: Json = joined.json()
    return body


async def _all(requests: list[Awaitable[httpx.Response]]) -> list[httpx.Response]:
    return list(await asyncio.gather(*requests))


@pytest.mark.parametrize("copies", [1, 3])
async def test_concurrent_borrows_take_each_copy_once(
    platform: Platform, library: RenderedService, copies: int
) -> None:
    async with platform.client(library) as http:
        member = await _member(http)
        book = await _book(http, copies)
        loan = {"bookId": book["id"], "memberId": member["id"], "dueDate": DUE}
        answers = await _all([http.post("/api/v1/loans", json=loan) for _ in range(10)])

        assert Counter(a.status_code for a in answers) == {201: copies, 409: 10 - copies}
        refusals = [a for a in answers if a.status_code == 409]
        assert {(r.headers["content-type"], r.json()["type"]) for r in refusals} == {
            ("application/problem+json", "urn:problem-type:library:no-copy-available")
        }
        loans = {a.json()["id"] for a in answers if a.status_code == 201}
        assert len(loans) == copies

        shown = (await http.get(f"/api/v1/books/{book['id']}")).json()
        assert (shown["available"], shown["onLoan"]) == (0, copies)
        listed = await _until(
            lambda: http.get("/api/v1/loans", params={"bookId": book["id"]}),
            lambda page: page["total"] >= copies,
        )
        assert listed["total"] == copies
        assert {item["id"] for item in listed["items"]} == loans
        await _until(
            lambda: http.get("/api/v1/books", params={"title": book["title"]}),
            lambda page: [item["available"] for item in page["items"]] == [0],
        )
        shelf = await _until(
            lambda: http.get("/api/v1/shelf", params={"sort": "-loans", "limit": 100}),
            lambda page: any(
                row["bookId"] == book["id"] and row["loans"] == copies for row in page["items"]
            ),
        )
        assert [r["loans"] for r in shelf["items"] if r["bookId"] == book["id"]] == [copies]

        # Concurrent returns of one loan give its copy back once.
        returned = sorted(loans)[0]
        gave_back = await _all([http.post(f"/api/v1/loans/{returned}/return") for _ in range(5)])
        assert Counter(a.status_code for a in gave_back) == {200: 1, 409: 4}
        assert {a.json()["type"] for a in gave_back if a.status_code == 409} == {
            "urn:problem-type:library:loan-not-active"
        }
        shown = (await http.get(f"/api/v1/books/{book['id']}")).json()
        assert shown["available"] == 1
        again = await _all([http.post("/api/v1/loans", json=loan) for _ in range(5)])
        assert Counter(a.status_code for a in again) == {201: 1, 409: 4}


async def test_concurrent_registrations_of_one_isbn_register_one_book(
    platform: Platform, library: RenderedService
) -> None:
    isbn = _isbn()
    async with platform.client(library) as http:
        answers = await _all(
            [
                http.post("/api/v1/books", json={"isbn": isbn, "title": f"Copy {n}", "copies": 1})
                for n in range(10)
            ]
        )
        assert Counter(a.status_code for a in answers) == {201: 1, 409: 9}
        duplicates = [a.json() for a in answers if a.status_code == 409]
        assert all(d["type"].endswith(":duplicate") for d in duplicates), duplicates
        assert {d["field"] for d in duplicates} == {"isbn"}
        [winner] = [a.json() for a in answers if a.status_code == 201]
        found = await http.get(f"/api/v1/books/by-isbn/{isbn}")
        assert (found.status_code, found.json()["id"]) == (200, winner["id"])
        listed = await _until(
            lambda: http.get("/api/v1/books", params={"title": winner["title"]}),
            lambda page: page["total"] >= 1,
        )
        assert [item["id"] for item in listed["items"]] == [winner["id"]]

        # Retiring the book frees its ISBN for one new registration.
        retired = await http.delete(f"/api/v1/books/{winner['id']}", headers={"If-Match": '"1"'})
        assert retired.status_code == 204, retired.text
        assert (await http.get(f"/api/v1/books/by-isbn/{isbn}")).status_code == 404
        await _until(
            lambda: http.get("/api/v1/books", params={"title": winner["title"]}),
            lambda page: page["total"] == 0,
        )
        again = await _all(
            [
                http.post("/api/v1/books", json={"isbn": isbn, "title": "Again", "copies": 1})
                for _ in range(5)
            ]
        )
        assert Counter(a.status_code for a in again) == {201: 1, 409: 4}
        [reborn] = [a.json() for a in again if a.status_code == 201]
        found = await http.get(f"/api/v1/books/by-isbn/{isbn}")
        assert found.json()["id"] == reborn["id"] != winner["id"]


async def test_an_idempotency_key_creates_once(
    platform: Platform, library: RenderedService
) -> None:
    key = secrets.token_urlsafe(16)
    title = f"Once {secrets.token_hex(4)}"
    body = {"isbn": _isbn(), "title": title, "copies": 2}
    async with platform.client(library) as http:
        answers = await _all(
            [
                http.post("/api/v1/books", json=body, headers={"Idempotency-Key": key})
                for _ in range(5)
            ]
        )
        assert {a.status_code for a in answers} == {201}, [a.text for a in answers]
        assert len({a.json()["id"] for a in answers}) == 1
        assert len({a.headers["etag"] for a in answers}) == 1
        replayed = [a for a in answers if a.headers.get("idempotent-replayed") == "true"]
        assert 1 <= len(replayed) <= 4
        book_id = answers[0].json()["id"]
        listed = await _until(
            lambda: http.get("/api/v1/books", params={"title": title}),
            lambda page: page["total"] >= 1,
        )
        assert [item["id"] for item in listed["items"]] == [book_id]

        changed = await http.post(
            "/api/v1/books", json={**body, "copies": 3}, headers={"Idempotency-Key": key}
        )
        assert changed.status_code == 422, changed.text
        assert changed.json()["field"] == "Idempotency-Key"

        # Across aggregates too: one loan, one copy taken.
        member = await _member(http)
        loan = {"bookId": book_id, "memberId": member["id"], "dueDate": DUE}
        borrow_key = secrets.token_urlsafe(16)
        borrows = await _all(
            [
                http.post("/api/v1/loans", json=loan, headers={"Idempotency-Key": borrow_key})
                for _ in range(5)
            ]
        )
        assert {a.status_code for a in borrows} == {201}, [a.text for a in borrows]
        assert len({a.json()["id"] for a in borrows}) == 1
        shown = (await http.get(f"/api/v1/books/{book_id}")).json()
        assert shown["available"] == 1


async def test_if_match_lets_one_of_two_stale_writers_through(
    platform: Platform, library: RenderedService
) -> None:
    async with platform.client(library) as http:
        book = await _book(http, 1)
        read = await http.get(f"/api/v1/books/{book['id']}")
        tag = read.headers["etag"]
        assert tag == '"1"'
        path = f"/api/v1/books/{book['id']}/title"
        guarded = await _all(
            [
                http.put(path, json={"title": title}, headers={"If-Match": tag})
                for title in ("First", "Second")
            ]
        )
        assert sorted(a.status_code for a in guarded) == [200, 412], [a.text for a in guarded]
        [won] = [a for a in guarded if a.status_code == 200]
        [lost] = [a for a in guarded if a.status_code == 412]
        assert won.headers["etag"] == '"2"'
        assert lost.headers["content-type"] == "application/problem+json"
        assert lost.json()["status"] == 412
        current = await http.get(f"/api/v1/books/{book['id']}")
        assert current.json()["title"] == won.json()["title"]
        assert (
            await http.get(
                f"/api/v1/books/{book['id']}", headers={"If-None-Match": current.headers["etag"]}
            )
        ).status_code == 304

        unguarded = await _all(
            [http.put(path, json={"title": title}) for title in ("Third", "Fourth")]
        )
        assert [a.status_code for a in unguarded] == [200, 200], [a.text for a in unguarded]
        final = await http.get(f"/api/v1/books/{book['id']}")
        assert final.headers["etag"] == '"4"'
        assert final.json()["title"] in ("Third", "Fourth")


async def test_the_library_read_models_keep_up(library: RenderedService) -> None:
    """After the concurrent requests above, every projection is caught up, none failed."""
    table = await _caught_up(library.database, {"Books", "Loans", "BookShelf"})
    assert {name: row["dead"] for name, row in table.items()} == {
        "Books": "0",
        "Loans": "0",
        "BookShelf": "0",
    }


# Version A of a small spec, and version B over the same data: a field added with a
# default (owner), an event field renamed (note -> details, TaskOpened v2), an event field
# removed (comment, TaskFinished v2), a read model with a new column (Board), a new read
# model (Ledger); Tasks (one row per task) changes its columns with the aggregate.
TASKS_A = """\
version: 2
name: tasks
description: Tasks of a team
errors:
  AlreadyDone: {status: 409, title: The task is done}
aggregates:
  Task:
    fields:
      title: {type: str, not_blank: true}
      note: {type: str, default: ""}
      priority: {type: int, min: 1, max: 5, default: 3}
      done: {type: bool, default: false}
    commands:
      open: {creates: true, params: [title, note, priority], emits: TaskOpened}
      finish:
        inputs: {comment: {type: str, not_blank: true}}
        when: not done
        error: AlreadyDone
        set: {done: true}
        emits: TaskFinished
events:
  TaskFinished:
    fields: {taskId: uuid, done: bool, comment: str, occurredAt: datetime}
read_models:
  Tasks: {of: Task}
  Board:
    key: taskId
    fields: {taskId: uuid, title: str, done: {type: bool, default: false}}
    on:
      TaskOpened: {upsert: {title: event.title}}
      TaskFinished: {set: {done: event.done}}
consumes:
  iam.TenantCreatedEvent:
    fields: {tenantId: str, name: str}
endpoints:
  - {method: POST, path: /api/v1/tasks, command: Task.open, permission: "tasks:write"}
  - {method: POST, path: "/api/v1/tasks/{id}/finish", command: Task.finish,
     permission: "tasks:write"}
  - {method: GET, path: "/api/v1/tasks/{id}", query: Task.get, permission: "tasks:read"}
  - {method: GET, path: /api/v1/tasks, query: Task.list, page: true, permission: "tasks:read"}
  - {method: GET, path: /api/v1/board, query: Board.list, page: true, permission: "tasks:read"}
"""

TASKS_B = """\
version: 2
name: tasks
description: Tasks of a team
errors:
  AlreadyDone: {status: 409, title: The task is done}
aggregates:
  Task:
    fields:
      title: {type: str, not_blank: true}
      details: {type: str, default: ""}
      priority: {type: int, min: 1, max: 5, default: 3}
      owner: {type: str, default: nobody}
      done: {type: bool, default: false}
    commands:
      open: {creates: true, params: [title, details, priority], emits: TaskOpened}
      assign: {params: [owner], emits: TaskAssigned}
      finish: {when: not done, error: AlreadyDone, set: {done: true}, emits: TaskFinished}
events:
  TaskOpened:
    version: 2
    fields:
      {taskId: uuid, title: str, details: str, priority: int, done: bool, occurredAt: datetime}
    upcasts:
      1: {rename: {note: details}}
  TaskFinished:
    version: 2
    fields: {taskId: uuid, done: bool, occurredAt: datetime}
    upcasts:
      1: {remove: [comment]}
read_models:
  Tasks: {of: Task}
  Board:
    key: taskId
    fields: {taskId: uuid, title: str, details: str, done: {type: bool, default: false}}
    on:
      TaskOpened: {upsert: {title: event.title, details: event.details}}
      TaskFinished: {set: {done: event.done}}
  Ledger:
    key: taskId
    fields: {taskId: uuid, details: str, finished: {type: bool, default: false}}
    on:
      TaskOpened: {upsert: {details: event.details}}
      TaskFinished: {set: {finished: true}}
consumes:
  iam.TenantCreatedEvent:
    fields: {tenantId: str, name: str}
endpoints:
  - {method: POST, path: /api/v1/tasks, command: Task.open, permission: "tasks:write"}
  - {method: POST, path: "/api/v1/tasks/{id}/finish", command: Task.finish,
     permission: "tasks:write"}
  - {method: PUT, path: "/api/v1/tasks/{id}/owner", command: Task.assign, permission: "tasks:write"}
  - {method: GET, path: "/api/v1/tasks/{id}", query: Task.get, permission: "tasks:read"}
  - {method: GET, path: /api/v1/tasks, query: Task.list, page: true, permission: "tasks:read"}
  - {method: GET, path: /api/v1/board, query: Board.list, page: true, permission: "tasks:read"}
  - {method: GET, path: /api/v1/ledger, query: Ledger.list, page: true, permission: "tasks:read"}
"""


def _generate(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        [str(GENERATE), *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _eaf(*args: str) -> str:
    done = subprocess.run(
        [str(EAF), *args], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _projections(database: str) -> dict[str, dict[str, str]]:
    """``eaf projections list``: each projection's checkpoint, head, lag and dead letters."""
    header, *rows = _eaf("projections", "list", "--database", database).splitlines()
    assert header.split() == ["NAME", "CHECKPOINT", "HEAD", "LAG", "DEAD", "LETTERS"]
    table = {}
    for row in rows:
        name, checkpoint, head, lag, dead = row.split()
        table[name] = {"checkpoint": checkpoint, "head": head, "lag": lag, "dead": dead}
    return table


async def _caught_up(
    database: str, names: set[str], timeout: float = 30
) -> dict[str, dict[str, str]]:
    async with asyncio.timeout(timeout):
        while True:
            table = await asyncio.to_thread(_projections, database)
            if set(table) >= names and all(table[n]["lag"] == "0" for n in names):
                return table
            await asyncio.sleep(0.2)


async def test_a_spec_evolves_over_stored_events(platform: Platform, tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path / "ws")
    spec = workspace / "specs/tasks.yaml"
    spec.parent.mkdir()
    spec.write_text(TASKS_A, encoding="utf-8")
    _generate("service", "tasks", "--spec", "specs/tasks.yaml", cwd=workspace)
    project = workspace / "apps/tasks"
    database = tmp_path / "tasks.db"

    service = platform.service("tasks", project, database, tmp_path / "tasks-a.log")
    try:
        service.wait_ready()
        async with platform.client(service) as http:
            opened = []
            for n in range(6):
                answer = await http.post(
                    "/api/v1/tasks",
                    json={"title": f"Task {n}", "note": f"note {n}", "priority": 1 + n % 5},
                )
                assert answer.status_code == 201, answer.text
                opened.append(answer.json())
            for task in opened[:3]:
                finished = await http.post(
                    f"/api/v1/tasks/{task['id']}/finish", json={"comment": "done early"}
                )
                assert finished.status_code == 200, finished.text
            await _until(lambda: http.get("/api/v1/board"), lambda page: page["total"] == 6)
            await _until(lambda: http.get("/api/v1/tasks"), lambda page: page["total"] == 6)
        # Its consumer handled IAM's TenantCreatedEvent (the dead letter check below
        # is about a consumer that ran).
        async with asyncio.timeout(30):
            while not any(
                line.get("message") == "received iam.TenantCreatedEvent" for line in service.lines()
            ):
                await asyncio.sleep(0.1)
    finally:
        service.stop()

    spec.write_text(TASKS_B, encoding="utf-8")
    _generate("render", "tasks", cwd=workspace)
    assert "LEDGER" in (project / "src/tasks/infrastructure/projections.py").read_text()

    service = platform.service("tasks", project, database, tmp_path / "tasks-b.log")
    url = service.database
    try:
        service.wait_ready()
        async with platform.client(service) as http:
            finished_ids = {t["id"] for t in opened[:3]}
            for n, task in enumerate(opened):
                shown = await http.get(f"/api/v1/tasks/{task['id']}")
                assert shown.status_code == 200, shown.text
                body = shown.json()
                assert "note" not in body
                assert (body["details"], body["owner"], body["priority"], body["done"]) == (
                    f"note {n}",
                    "nobody",
                    1 + n % 5,
                    task["id"] in finished_ids,
                )
                assert shown.headers["etag"] == ('"2"' if task["id"] in finished_ids else '"1"')

            tasks = await _until(
                lambda: http.get("/api/v1/tasks", params={"limit": 100}),
                lambda page: page["total"] == 6 and all("details" in i for i in page["items"]),
            )
            assert {(i["id"], i["details"], i["owner"]) for i in tasks["items"]} == {
                (t["id"], f"note {n}", "nobody") for n, t in enumerate(opened)
            }
            board = await _until(
                lambda: http.get("/api/v1/board", params={"limit": 100}),
                lambda page: page["total"] == 6,
            )
            assert {(r["taskId"], r["details"], r["done"]) for r in board["items"]} == {
                (t["id"], f"note {n}", t["id"] in finished_ids) for n, t in enumerate(opened)
            }
            ledger = await _until(
                lambda: http.get("/api/v1/ledger", params={"limit": 100}),
                lambda page: page["total"] == 6,
            )
            assert {(r["taskId"], r["details"], r["finished"]) for r in ledger["items"]} == {
                (t["id"], f"note {n}", t["id"] in finished_ids) for n, t in enumerate(opened)
            }

            # Old aggregates take the new commands.
            old = opened[3]["id"]
            assigned = await http.put(
                f"/api/v1/tasks/{old}/owner", json={"owner": "grace"}, headers={"If-Match": '"1"'}
            )
            assert assigned.status_code == 200, assigned.text
            assert (assigned.json()["owner"], assigned.json()["details"]) == ("grace", "note 3")
            finished = await http.post(f"/api/v1/tasks/{old}/finish")
            assert finished.status_code == 200, finished.text
            twice = await http.post(f"/api/v1/tasks/{opened[0]['id']}/finish")
            assert (twice.status_code, twice.json()["type"]) == (
                409,
                "urn:problem-type:tasks:already-done",
            )
            await _until(
                lambda: http.get("/api/v1/ledger", params={"limit": 100}),
                lambda page: [r["finished"] for r in page["items"] if r["taskId"] == old] == [True],
            )

            table = await _caught_up(url, {"Tasks", "Board", "Ledger"})
            assert {name: row["dead"] for name, row in table.items()} == {
                "Tasks": "0",
                "Board": "0",
                "Ledger": "0",
            }
            assert _eaf("dlq", "list", "--json", "--url", platform.broker_url) == ""

            rebuilt = _eaf(
                "projections",
                "rebuild",
                "Board",
                "--database",
                url,
                "--wait",
                "--interval",
                "0.2",
                "--timeout",
                "60",
            )
            assert rebuilt.splitlines()[-1].startswith("Board: caught up at position "), rebuilt
            board = await _until(
                lambda: http.get("/api/v1/board", params={"limit": 100}),
                lambda page: page["total"] == 6,
            )
            assert sum(r["done"] for r in board["items"]) == 4
    finally:
        service.stop()
