"""The composition root of a rendered service: ``create_app(**overrides)`` reaches
``bootstrap``, which builds every part the application runs; the lifespan starts the
background workers in order and stops them in reverse."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from eaf.security import KeyRing
from fastapi import FastAPI
from fastapi.testclient import TestClient
from helpers import REPO, Result
from iam_client import IamClient
from user_profile.infrastructure.config import load_settings
from user_profile.main import create_app

from generator.loading import load_spec_text, parse_yaml
from generator.render import Blueprint, render_new

RUNTIME = [REPO / "rendered/libs/eaf/src", REPO / "rendered/libs/iam-client/src"]


class Recorder:
    """A worker that notes when it is started and stopped."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name, self.log = name, log
        self.url = "nats://127.0.0.1:1"

    async def start(self) -> None:
        self.log.append(f"start {self.name}")

    async def stop(self) -> None:
        self.log.append(f"stop {self.name}")


def _app(tmp_path: Path, log: list[str], **environ: str) -> FastAPI:
    """The sample service with recording relay, consumers and projectors."""
    settings = load_settings(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'test.db'}",
            "SECURITY_REVOCATION_FEED": "false",
            **environ,
        }
    )
    keys = KeyRing.generate()
    return create_app(
        settings,
        iam=IamClient(jwks=keys.jwks(), issuer="https://iam.test", audience="eaf"),
        relay=Recorder("relay", log),
        consumers=Recorder("consumers", log),
        projectors=Recorder("projectors", log),
    )


def test_overrides_replace_the_workers_bootstrap_builds(tmp_path: Path) -> None:
    log: list[str] = []
    with TestClient(_app(tmp_path, log)) as client:
        assert log == ["start relay", "start consumers", "start projectors"]
        assert client.get("/actuator/health").status_code == 200
    assert log[3:] == ["stop projectors", "stop consumers", "stop relay"]


def test_a_worker_its_setting_turns_off_is_not_started(tmp_path: Path) -> None:
    log: list[str] = []
    with TestClient(_app(tmp_path, log, BROKER_RELAY="false", BROKER_CONSUME="false")):
        assert log == ["start projectors"]
    assert log == ["start projectors", "stop projectors"]


COMPONENT_SPEC = """\
version: 2
name: shelf
components:
  catalog:
    type: shelf.wiring:Catalog
    factory: shelf.wiring:catalog
    needs: [settings, store, book]
    description: The books of a tenant, by hand
  indexer:
    type: shelf.wiring:Indexer
    factory: shelf.wiring:indexer
    needs: [catalog, relay]
    worker: true
aggregates:
  Book:
    service: shelf.wiring:Books
    fields: {title: {type: str}}
    commands: {add: {creates: true, params: [title], emits: BookAdded}}
"""

WIRING = """\
from dataclasses import dataclass, field
from typing import Any

from shelf.application.services import BookService


class Books(BookService):
    pass


@dataclass
class Catalog:
    name: str
    store: Any
    book: Any


@dataclass
class Indexer:
    catalog: Catalog
    relay: Any
    log: list[str] = field(default_factory=list)

    async def start(self) -> None:
        self.log.append("start")

    async def stop(self) -> None:
        self.log.append("stop")


def catalog(settings: Any, store: Any, book: Any) -> Catalog:
    return Catalog(settings.name, store, book)


def indexer(catalog: Catalog, relay: Any) -> Indexer:
    return Indexer(catalog, relay)
"""

CHECKS = """\
import asyncio, sys
from pathlib import Path
from fastapi.testclient import TestClient
from shelf.bootstrap import bootstrap
from shelf.infrastructure.config import load_settings
from shelf.main import create_app
from shelf.wiring import Catalog

settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/shelf.db",
                          "BROKER_RELAY": "false"})
services = asyncio.run(bootstrap(settings))
# each component built by its factory from the parts it names, in order
assert services.catalog.name == "shelf"
assert services.catalog.store is services.store
# the Book use cases a component reaches: the aggregate's hand-written service
assert type(services.catalog.book).__name__ == "Books"
assert services.catalog.book is services.book
assert services.indexer.catalog is services.catalog
assert services.indexer.relay is services.relay
assert services.workers[-1] is services.indexer
mine = Catalog("mine", None, None)
overridden = asyncio.run(bootstrap(settings, catalog=mine))
assert overridden.catalog is mine and overridden.indexer.catalog is mine
app = create_app(settings, catalog=mine)
with TestClient(app):
    assert app.state.catalog is mine
    assert app.state.indexer.log == ["start"]
    indexer = app.state.indexer
assert indexer.log == ["start", "stop"]
print("ok")
"""


def _checked(tmp_path: Path, spec_text: str, wiring: str, checks: str) -> None:
    """Render ``spec_text`` as the service shelf, write its ``wiring.py``, and run the
    script ``checks`` in it, which must print ``ok``."""
    project = tmp_path / "shelf"
    spec = load_spec_text(spec_text, "shelf.yaml")
    data, _ = parse_yaml(spec_text, "shelf.yaml")
    render_new(Blueprint(REPO, "service"), spec, data, project, src_path=".")
    (project / "src/shelf/wiring.py").write_text(wiring)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(str(p) for p in [project / "src", *RUNTIME]),
    }
    result = subprocess.run(
        [sys.executable, "-c", checks, str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().endswith("ok")


def test_components_are_built_by_their_factories_and_can_be_overridden(
    tmp_path: Path,
) -> None:
    """A spec's ``components`` are hand-written services the generated ``bootstrap``
    builds in order, each from the parts it needs, returns in ``Services``, takes
    overrides of, starts as workers when they are, and the app keeps on its state; an
    aggregate's ``service`` is built instead of its generated use cases."""
    _checked(tmp_path, COMPONENT_SPEC, WIRING, CHECKS)


def test_render_names_the_hand_written_code_the_spec_refers_to(
    workspace: Path, generate: Callable[..., Result]
) -> None:
    """After a render, each factory, component type (of the service's own package) or
    service the spec names that the project lacks is listed, with the signature to write
    (read with ast, never imported)."""
    (workspace / "specs").mkdir()
    (workspace / "specs/shelf.yaml").write_text(COMPONENT_SPEC)
    made = generate("service", "shelf", cwd=workspace)
    assert made.code == 0, made.err
    assert made.out.splitlines()[-5:] == [
        "  hand-written code to write: components.catalog.type: write "
        "src/shelf/wiring.py with class Catalog",
        "  hand-written code to write: components.catalog.factory: write "
        "src/shelf/wiring.py with def catalog(settings, store, book)",
        "  hand-written code to write: components.indexer.type: write "
        "src/shelf/wiring.py with class Indexer",
        "  hand-written code to write: components.indexer.factory: write "
        "src/shelf/wiring.py with def indexer(catalog, relay)",
        "  hand-written code to write: aggregates.Book.service: write "
        "src/shelf/wiring.py with class Books",
    ]
    project = workspace / "apps/shelf"
    (project / "src/shelf/wiring.py").write_text(
        "from shelf.application.services import BookService as Books\n\n\n"
        "def catalog(settings, store, *, shelves):\n    return None\n"
    )
    spec = workspace / "specs/shelf.yaml"
    spec.write_text(COMPONENT_SPEC.replace("by hand", "written by hand"))
    rendered = generate("render", "shelf", "--allow-dirty", cwd=workspace)
    assert rendered.code == 0, rendered.err
    assert [line for line in rendered.out.splitlines() if "hand-written" in line] == [
        "  hand-written code to write: components.catalog.type: "
        "src/shelf/wiring.py has no 'Catalog': add class Catalog",
        "  hand-written code to write: components.catalog.factory: "
        "src/shelf/wiring.py: catalog() needs shelves, which the spec's `needs` does not "
        "list",
        "  hand-written code to write: components.indexer.type: "
        "src/shelf/wiring.py has no 'Indexer': add class Indexer",
        "  hand-written code to write: components.indexer.factory: "
        "src/shelf/wiring.py has no 'indexer': add def indexer(catalog, relay)",
    ]
    (project / "src/shelf/wiring.py").write_text(WIRING)
    spec.write_text(COMPONENT_SPEC)
    again = generate("render", "shelf", "--allow-dirty", cwd=workspace)
    assert again.code == 0, again.err
    assert "hand-written code" not in again.out


BUILT_SPEC = """\
version: 2
name: shelf
components:
  catalog:
    type: shelf.wiring:Catalog
    needs: {books: book_repository, hasher: password_hasher, clock: clock}
  index:
    type: shelf.wiring:Index
    needs: [catalog.books, relay]
aggregates:
  Book:
    fields: {title: {type: str}}
    commands: {add: {creates: true, params: [title], emits: BookAdded}}
"""

BUILT_WIRING = """\
from dataclasses import dataclass
from typing import Any


class Catalog:
    def __init__(self, *, books: Any, hasher: Any, clock: Any) -> None:
        self.books, self.hasher, self.clock = books, hasher, clock


@dataclass
class Index:
    books: Any
    relay: Any
"""

BUILT_CHECKS = """\
import asyncio, sys
from shelf.bootstrap import bootstrap
from shelf.domain.model import Book
from shelf.infrastructure.config import load_settings
from eaf import context
from eaf.security import PasswordHasher

settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/shelf.db",
                          "BROKER_RELAY": "false"})


async def main() -> None:
    services = await bootstrap(settings)
    catalog = services.catalog
    assert isinstance(catalog.hasher, PasswordHasher)
    assert catalog.clock is services.clock
    # the aggregate's repository, on the service's event store
    book = Book.add(title="Dune", now=services.clock.now())
    with context.use(context.SecurityContext(tenant_id="acme", user_id="u")):
        await catalog.books.save(book)
        assert (await catalog.books.get(book.id)).title == "Dune"
    with context.use(context.SecurityContext(tenant_id="other", user_id="u")):
        assert await catalog.books.get(book.id) is None
    assert services.index.books is catalog.books
    assert services.index.relay is services.relay


asyncio.run(main())
print("ok")
"""


def test_a_component_without_factory_is_built_by_its_type(tmp_path: Path) -> None:
    """A component without a factory is its type, called with its needs by keyword: a map
    names the part of each keyword; an aggregate's repository (``book_repository``), the
    secrets' hasher (``password_hasher``) and an attribute of a part built before
    (``catalog.books``) are parts too."""
    _checked(tmp_path, BUILT_SPEC, BUILT_WIRING, BUILT_CHECKS)


def test_render_names_a_type_whose_parameters_are_not_the_needs(
    workspace: Path, generate: Callable[..., Result]
) -> None:
    """A component built by its type: the class it lacks is listed with the constructor
    to write, and a constructor (or dataclass) whose parameters are not the needs is
    named."""
    (workspace / "specs").mkdir()
    (workspace / "specs/shelf.yaml").write_text(BUILT_SPEC)
    made = generate("service", "shelf", cwd=workspace)
    assert made.code == 0, made.err
    assert [line for line in made.out.splitlines() if "hand-written" in line] == [
        "  hand-written code to write: components.catalog.type: write src/shelf/wiring.py"
        " with class Catalog with def __init__(self, *, books, hasher, clock)",
        "  hand-written code to write: components.index.type: write src/shelf/wiring.py"
        " with class Index with def __init__(self, *, books, relay)",
    ]
    project = workspace / "apps/shelf"
    (project / "src/shelf/wiring.py").write_text(
        BUILT_WIRING.replace("hasher: Any, clock", "hasher: Any, shelves: Any, clock").replace(
            "    relay: Any", "    relay: Any\n    name: str"
        )
    )
    spec = workspace / "specs/shelf.yaml"
    spec.write_text(
        BUILT_SPEC.replace(
            "type: shelf.wiring:Index", "type: shelf.wiring:Index\n    description: the index"
        )
    )
    rendered = generate("render", "shelf", "--allow-dirty", cwd=workspace)
    assert rendered.code == 0, rendered.err
    assert [line for line in rendered.out.splitlines() if "hand-written" in line] == [
        "  hand-written code to write: components.catalog.type: src/shelf/wiring.py:"
        " Catalog() needs shelves, which the spec's `needs` does not list",
        "  hand-written code to write: components.index.type: src/shelf/wiring.py:"
        " Index() needs name, which the spec's `needs` does not list",
    ]
    (project / "src/shelf/wiring.py").write_text(BUILT_WIRING)
    spec.write_text(BUILT_SPEC)
    again = generate("render", "shelf", "--allow-dirty", cwd=workspace)
    assert again.code == 0, again.err
    assert "hand-written code" not in again.out


VALIDATOR_SPEC = """\
version: 2
name: desk
token_validator: tokens
components:
  tokens:
    type: desk.wiring:OwnTokens
    factory: desk.wiring:tokens
    needs: [settings]
aggregates:
  Note:
    fields: {text: {type: str}}
    commands: {write: {creates: true, params: [text], emits: NoteWritten}}
  # the tenant's own record: its id is the tenant (stored in the tenant's scope)
  Office:
    view_id: tenantId
    fields: {label: {type: str}}
    commands: {open: {creates: true, params: [label], emits: OfficeOpened}}
endpoints:
  - {method: POST, path: "/api/v1/desks/{tenantId}/notes", command: Note.write,
     permission: "desk:write", tenant: path}
  - {method: GET, path: "/api/v1/desks/{tenantId}/notes/{id}", query: Note.get,
     permission: "desk:read", tenant: path}
  - {method: GET, path: "/api/v1/desks/{tenantId}", query: Office.get,
     permission: "desk:read", tenant: path}
"""

OWN_TOKENS = """\
from collections.abc import Mapping
from typing import Any

from eaf.security import AccessClaims
from iam_client import AuthenticationError, User

from desk.infrastructure.config import Settings


def _user(subject: str, tenant: str | None, permissions: set[str]) -> User:
    claims = AccessClaims(
        subject=subject, tenant_id=tenant, client_id="desk", roles=frozenset(),
        permissions=frozenset(permissions), scope=frozenset(), jti=subject, exp=0, iat=0,
        issuer="desk", audience=("eaf",), platform=tenant is None,
    )
    return User.from_claims(claims, subject)


class OwnTokens:
    # the tokens this service issued itself, and the tenants it has

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.users = {
            "alice": _user("alice", "acme", {"desk:write", "desk:read"}),
            "reader": _user("reader", "acme", {"desk:read"}),
            "operator": _user("operator", None, {"desk:write", "desk:read"}),
        }

    async def validate(self, token: str, *, check_revocation: bool = False) -> User:
        self.asked.append(token)
        if token not in self.users:
            raise AuthenticationError("not a token of this service")
        return self.users[token]

    def has_permission(
        self, user: User, permission: str, resource: Mapping[str, Any] | None = None
    ) -> bool:
        return permission in user.permissions

    async def knows_tenant(self, tenant_id: str) -> bool:
        return tenant_id in {"acme", "globex"}


def tokens(settings: Settings) -> OwnTokens:
    return OwnTokens()
"""

VALIDATOR_CHECKS = """\
import sys
from fastapi.testclient import TestClient
from desk.infrastructure.config import load_settings
from desk.main import create_app

settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/desk.db",
                          "BROKER_RELAY": "false"})
app = create_app(settings)


def as_(token):
    return {"Authorization": f"Bearer {token}"}


with TestClient(app) as client:
    made = client.post("/api/v1/desks/acme/notes", json={"text": "hi"}, headers=as_("alice"))
    assert made.status_code == 201, made.text
    path = f"/api/v1/desks/acme/notes/{made.json()['id']}"
    assert client.get(path, headers=as_("reader")).status_code == 200
    # the component, not IAM's published keys, judged each token
    assert app.state.tokens.asked == ["alice", "reader"]
    assert app.state.iam_client is app.state.tokens
    refused = client.get(path, headers=as_("stranger"))
    assert refused.status_code == 401, refused.text
    assert "invalid_token" in refused.headers["www-authenticate"]
    denied = client.post("/api/v1/desks/acme/notes", json={"text": "x"}, headers=as_("reader"))
    assert denied.status_code == 403, denied.text
    # a platform operator may name a tenant the component knows, and no other
    assert client.get(path, headers=as_("operator")).status_code == 200
    ghost = client.get(path.replace("/acme/", "/ghost/"), headers=as_("operator"))
    assert ghost.status_code == 404 and ghost.json()["detail"] == "Tenant not found"
    other = client.get(path.replace("/acme/", "/globex/"), headers=as_("operator"))
    assert other.status_code == 404  # a tenant it knows, where this note is not
    # the aggregate whose id is the tenant, read by the path's tenant alone: acme has
    # no such record yet; ghost is no tenant
    office = client.get("/api/v1/desks/acme", headers=as_("reader"))
    assert (office.status_code, office.json()["detail"]) == (404, "Office not found")
    ghost = client.get("/api/v1/desks/ghost", headers=as_("operator"))
    assert (ghost.status_code, ghost.json()["detail"]) == (404, "Tenant not found")
print("ok")
"""


def test_a_component_can_validate_the_bearer_tokens(tmp_path: Path) -> None:
    """``token_validator`` names the component that authenticates the endpoints' bearer
    tokens (as the IAM validates the tokens it issued): the app asks it, not IAM's
    published keys, and a platform operator's path may name only a tenant it knows; the
    rendered project (its generated tests with their static keys, mypy --strict on the
    component's protocol) passes its own checks."""
    project = tmp_path / "desk"
    spec = load_spec_text(VALIDATOR_SPEC, "desk.yaml")
    data, _ = parse_yaml(VALIDATOR_SPEC, "desk.yaml")
    render_new(Blueprint(REPO, "service"), spec, data, project, src_path=".")
    (project / "src/desk/wiring.py").write_text(OWN_TOKENS)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(str(p) for p in [project / "src", *RUNTIME]),
    }
    config = (project / "config/application.yaml").read_text()
    assert "iam_url" not in config  # nothing to fetch keys from
    for command in (
        [sys.executable, "-c", VALIDATOR_CHECKS, str(tmp_path)],
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        [sys.executable, "-m", "mypy", "--strict", "src"],
    ):
        result = subprocess.run(
            command, capture_output=True, text=True, env=env, cwd=project, check=False
        )
        assert result.returncode == 0, (command[-1], result.stdout[-3000:], result.stderr[-3000:])
