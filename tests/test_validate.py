"""`generate validate` and `generate schema`: every problem, with file, line and key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from helpers import REPO, Generate, ran_in, spec_problems

BROKEN = """\
name: acme-orders
aggregates:
  Order:
    fields:
      customer: str
      total:
        type: money
      note: {type: str, colour: red}
    commands:
      place: {params: [customer, total, missing], emits: OrderPlaced, creates: true}
endpoints:
  - {method: POST, path: /api/v1/orders, command: Order.ship}
"""


def test_every_key_error_is_listed_with_its_place(workspace: Path, generate: Generate) -> None:
    spec = workspace / "specs/x.yaml"
    spec.parent.mkdir()
    spec.write_text(BROKEN.replace("type: money", "type: {}"))
    result = generate("validate", "specs/x.yaml", cwd=workspace)
    assert result.code == 1
    assert result.err.splitlines() == [
        "specs/x.yaml:7:15: aggregates.Order.fields.total.type: Input should be a valid string",
        "specs/x.yaml:8:25: aggregates.Order.fields.note.colour: unknown key 'colour' (expected "
        "one of: type, like, description, default, example, optional, not_blank, contains, "
        "pattern, min, max, min_length, max_length, scale, unique, references, hidden, secret, "
        "made_when, items, normalize, keys, messages)",
    ]


def test_types_and_cross_references_are_checked_once_the_keys_are_right(
    workspace: Path, generate: Generate
) -> None:
    spec = workspace / "specs/x.yaml"
    spec.parent.mkdir()
    spec.write_text(BROKEN.replace(", colour: red", ""))
    result = generate("validate", "specs/x.yaml", cwd=workspace)
    assert result.code == 1
    assert result.err.splitlines() == [
        "specs/x.yaml:7:15: aggregates.Order.fields.total.type: unknown type 'money' (expected "
        "one of: str, int, float, bool, decimal, uuid, datetime, date, json, <Enum>, <Value>, "
        "list[<type>], map[<type>], map)",
        "specs/x.yaml:10:41: aggregates.Order.commands.place.params.2: unknown parameter "
        "'missing' (expected a field of Order: customer, note)",
        "specs/x.yaml:10:23: aggregates.Order.commands.place.params: a creating command sets "
        "every field without a default (missing: note)",
        "specs/x.yaml:12:51: endpoints.0.command (POST /api/v1/orders): unknown command 'ship'"
        " of Order "
        "(expected one of: place)",
    ]
    spec.write_text(BROKEN.replace("type: money", "type: decimal").replace(", colour: red", ""))
    result = generate("validate", "specs/x.yaml", cwd=workspace)
    assert result.err.splitlines() == [
        "specs/x.yaml:10:41: aggregates.Order.commands.place.params.2: unknown parameter "
        "'missing' (expected a field of Order: customer, total, note)",
        "specs/x.yaml:10:23: aggregates.Order.commands.place.params: a creating command sets "
        "every field without a default (missing: note)",
        "specs/x.yaml:12:51: endpoints.0.command (POST /api/v1/orders): unknown command 'ship'"
        " of Order "
        "(expected one of: place)",
    ]


def test_an_unknown_key_does_not_hide_the_other_problems(
    workspace: Path, generate: Generate
) -> None:
    spec = workspace / "specs/x.yaml"
    spec.parent.mkdir()
    spec.write_text(BROKEN)
    result = generate("validate", "specs/x.yaml", cwd=workspace)
    assert result.code == 1
    lines = result.err.splitlines()
    assert lines[0].startswith(
        "specs/x.yaml:8:25: aggregates.Order.fields.note.colour: unknown key 'colour'"
    )
    assert lines[1].startswith("specs/x.yaml:7:15: aggregates.Order.fields.total.type: unknown")
    assert any("unknown command 'ship' of Order" in line for line in lines)
    assert len(lines) == 5


def test_a_rule_of_the_wrong_type_does_not_hide_the_other_problems() -> None:
    spec = (
        "version: 2\nname: shop\nkind: app\naggregates:\n  Product:\n    fields:\n"
        '      name: {type: str, max_length: "eighty", description: [1]}\n'
        "      price: {type: money}\n"
        "    commands:\n"
        "      create: {params: [name, nme], emits: ProductCreated, creates: true}\n"
    )
    assert spec_problems(spec, "shop.yaml") == [
        "shop.yaml:7:60: aggregates.Product.fields.name.description:"
        " Input should be a valid string",
        "shop.yaml:7:37: aggregates.Product.fields.name.max_length:"
        " Input should be a valid integer",
        "shop.yaml:8:21: aggregates.Product.fields.price.type: unknown type 'money' (expected"
        " one of: str, int, float, bool, decimal, uuid, datetime, date, json, <Enum>,"
        " <Value>, list[<type>], map[<type>], map)",
        "shop.yaml:10:31: aggregates.Product.commands.create.params.1: unknown parameter"
        " 'nme' (expected a field of Product: name)",
    ]


def test_a_broken_value_the_spec_needs_is_reported_alone() -> None:
    """A field called ``description`` or a command's ``creates`` cannot be left out to look
    further: what would follow from its absence would mislead."""
    for field, creates, where in (
        ("description: 5", "true", "aggregates.Product.fields.description:"),
        ("name: {type: str}", '"yes"', "aggregates.Product.commands.create.creates:"),
    ):
        spec = (
            "version: 2\nname: shop\nkind: app\naggregates:\n  Product:\n    fields:\n"
            f"      {field}\n      price: {{type: money}}\n"
            "    commands:\n"
            f"      create: {{params: [name], emits: ProductCreated, creates: {creates}}}\n"
        )
        problems = spec_problems(spec, "shop.yaml")
        assert len(problems) == 1 and where in problems[0], problems


def test_the_workspace_specs_are_valid(generate: Generate) -> None:
    result = generate("validate", cwd=REPO)
    assert result.code == 0, result.err
    assert result.out.strip().endswith("spec(s) valid")


def test_schema_is_written_and_describes_the_format(workspace: Path, generate: Generate) -> None:
    result = generate("schema", cwd=workspace)
    assert result.code == 0
    schema = json.loads((workspace / "specs/spec.schema.json").read_text())
    assert schema["additionalProperties"] is False
    assert {"version", "name", "enums", "values", "aggregates", "events", "endpoints"} <= set(
        schema["properties"]
    )
    assert schema["properties"]["name"]["pattern"] == "^[a-z][a-z0-9-]*[a-z0-9]$"


def test_the_committed_schema_is_current(workspace: Path, generate: Generate) -> None:
    generate("schema", cwd=workspace)
    fresh = (workspace / "specs/spec.schema.json").read_text()
    assert (REPO / "specs/spec.schema.json").read_text() == fresh


CONSUMES = """\
name: acme-orders
consumes:
  iam.TenantCreatedEvent: {fields: {tenantId: str}}
  billing.Invoiced: {handler: onTenantCreatedEvent}
  Billing-Paid: {}
  acme-orders.OrderPlaced: {durable: "has.dots"}
aggregates:
  Order:
    fields: {total: {type: int}}
    commands: {place: {creates: true, params: [total], emits: Placed}}
"""


def test_consumed_events_are_checked(workspace: Path, generate: Generate) -> None:
    spec = workspace / "specs/x.yaml"
    spec.parent.mkdir()
    spec.write_text(CONSUMES)
    result = generate("validate", "specs/x.yaml", cwd=workspace)
    assert result.code == 1
    assert result.err.splitlines() == [
        "specs/x.yaml:4:31: consumes.billing.Invoiced.handler: 'on_tenant_created_event' also "
        "handles iam.TenantCreatedEvent",
        "specs/x.yaml:5:17: consumes.Billing-Paid: 'Billing-Paid' must name "
        "<service>.<EventType>, e.g. iam.TenantCreatedEvent",
        "specs/x.yaml:6:28: consumes.acme-orders.OrderPlaced: a service consumes other "
        "services' events, not its own",
        "specs/x.yaml:6:38: consumes.acme-orders.OrderPlaced.durable: 'has.dots' is not a "
        "durable name ([A-Za-z0-9_-], 64)",
    ]


ADAPTERS = """\
version: 2
name: acme-orders
adapter_imports: [saml2, "not a module"]
system_packages: [xmlsec1, "Bad_Package"]
aggregates:
  Order:
    fields: {total: {type: int}}
    commands: {place: {creates: true, params: [total], emits: Placed}}
"""


def test_adapter_imports_and_system_packages_are_checked(
    workspace: Path, generate: Generate
) -> None:
    spec = workspace / "specs/x.yaml"
    spec.parent.mkdir()
    spec.write_text(ADAPTERS)
    result = generate("validate", "specs/x.yaml", cwd=workspace)
    assert result.code == 1
    assert result.err.splitlines() == [
        "specs/x.yaml:3:26: adapter_imports.1: 'not a module' is not a module name",
        "specs/x.yaml:4:28: system_packages.1: 'Bad_Package' is not a Debian package name",
    ]


COMPONENTS = """\
version: 2
name: acme-orders
components:
  pricing: {type: "acme_orders.pricing:Pricing", factory: "acme_orders.wiring:pricing",
            needs: [settings, store, order, billing]}
  billing: {type: "not a type", factory: "other.wiring:billing"}
  store: {type: "acme_orders.x:X", factory: "acme_orders.wiring:x"}
  Bad-Name: {type: "acme_orders.x:X", factory: "acme_orders.wiring:x"}
  cycle: {type: "acme_orders.x:X", factory: "acme_orders.bootstrap:x", needs: [clock, clock]}
aggregates:
  Order:
    service: "other.orders:Orders"
    fields: {total: {type: int}}
    commands: {place: {creates: true, params: [total], emits: Placed}}
"""


def test_components_are_checked(workspace: Path, generate: Generate) -> None:
    """A component names a hand-written factory of the service's own package and needs
    only parts the composition root has built before it; an aggregate's hand-written
    service is the service's own code too."""
    spec = workspace / "specs/x.yaml"
    spec.parent.mkdir()
    spec.write_text(COMPONENTS)
    result = generate("validate", "specs/x.yaml", cwd=workspace)
    assert result.code == 1
    known = (
        "clock, order, order_repository, password_hasher, relay, sealed_secrets, settings,"
        " store, transactions"
    )
    assert result.err.splitlines() == [
        f"specs/x.yaml:5:45: components.pricing.needs.3: 'billing' is none of the parts"
        f" the composition root has before this component: {known}",
        "specs/x.yaml:6:19: components.billing.type: 'not a type' is not module:Class"
        " (or module:Class[Any])",
        "specs/x.yaml:6:42: components.billing.factory: it is hand-written code"
        " of this service: a module of 'acme_orders'",
        "specs/x.yaml:7:10: components.store: 'store' is a name the composition root uses"
        " already; choose another",
        "specs/x.yaml:8:13: components.Bad-Name: 'Bad-Name' is not a component name"
        " (snake_case, ^[a-z][a-z0-9_]{0,39}$)",
        "specs/x.yaml:9:45: components.cycle.factory: 'acme_orders.bootstrap' is rendered"
        " and imports the factories",
        "specs/x.yaml:9:87: components.cycle.needs.1: 'clock' is listed twice",
        "specs/x.yaml:12:14: aggregates.Order.service: it is hand-written code of this"
        " service: a module of 'acme_orders'",
    ]


def test_a_component_built_by_its_type_names_its_keywords_and_parts(
    workspace: Path, generate: Generate
) -> None:
    """Without a factory a component is its type called with its needs: a map names each
    keyword's part, a list passes each part under its own (last) name; a part may be an
    attribute of one (``catalog.books``)."""
    spec = workspace / "specs/x.yaml"
    spec.parent.mkdir()
    spec.write_text(
        "version: 2\nname: shelf\ncomponents:\n"
        "  catalog:\n    type: shelf.wiring:Catalog\n"
        "    needs: {books: book_repository, 2x: clock, shelf: shelves_repository}\n"
        "  index:\n    type: shelf.wiring:Index\n"
        "    needs: [catalog.books, relay.1st, books, password_hasher]\n"
        "aggregates:\n  Book:\n    fields: {title: str}\n"
        "    commands: {add: {creates: true, params: [title], emits: BookAdded}}\n"
    )
    result = generate("validate", "specs/x.yaml", cwd=workspace)
    assert result.code == 1
    assert result.err.splitlines() == [
        "specs/x.yaml:6:41: components.catalog.needs.2x: '2x' is not a keyword argument's name",
        "specs/x.yaml:6:55: components.catalog.needs.shelf: 'shelves_repository' is none of"
        " the parts the composition root has before this component: book, book_repository,"
        " clock, password_hasher, relay, sealed_secrets, settings, store, transactions",
        "specs/x.yaml:9:28: components.index.needs.1: 'relay.1st' is not <part>.<attribute>",
        "specs/x.yaml:9:39: components.index.needs.2: 'books' is listed twice",
    ]


def test_a_token_validator_is_a_component_with_tokens_to_validate(
    workspace: Path, generate: Generate
) -> None:
    """``token_validator`` names a component of the spec, and only where an endpoint has
    a permission (else there is no token to validate)."""
    spec = workspace / "specs/x.yaml"
    spec.parent.mkdir()
    base = (
        "version: 2\nname: desk\n{validator}\ncomponents:\n"
        "  tokens: {{type: 'desk.wiring:Tokens', factory: 'desk.wiring:tokens'}}\n"
        "aggregates:\n  Note:\n    fields: {{text: str}}\n"
        "    commands: {{write: {{creates: true, params: [text], emits: NoteWritten}}}}\n"
        "endpoints:\n  - {{method: POST, path: /api/v1/notes, command: Note.write{permission}}}\n"
    )
    spec.write_text(
        base.format(validator="token_validator: tokenz", permission=", permission: 'desk:write'")
    )
    result = generate("validate", "specs/x.yaml", cwd=workspace)
    assert result.code == 1
    assert result.err.splitlines() == [
        "specs/x.yaml:3:18: token_validator: 'tokenz' is no component of this spec"
        " (components: tokens)"
    ]
    spec.write_text(base.format(validator="token_validator: tokens", permission=""))
    result = generate("validate", "specs/x.yaml", cwd=workspace)
    assert result.err.splitlines() == [
        "specs/x.yaml:3:18: token_validator: no endpoint has a permission: there is no"
        " bearer token to validate"
    ]
    spec.write_text(
        base.format(validator="token_validator: tokens", permission=", permission: 'desk:write'")
    )
    assert generate("validate", "specs/x.yaml", cwd=workspace).code == 0


TICKETING = """\
version: 2
name: ticketing
kind: app
enums:
  ShowStatus: [draft, onSale, cancelled]
errors:
  SoldOut: {status: 409, title: Sold out}
aggregates:
  Show:
    fields:
      title: {type: str}
      status: {type: ShowStatus, default: draft}
      available: {type: int, min: 0, example: 10}
    commands:
      schedule: {creates: true, params: [title, available], emits: ShowScheduled}
      openSales: {when: "status == 'draft'", set: {status: onSale}, emits: SalesOpened}
      allocateSeat:
        when: "status == 'onSale' and available > 0"
        error: SoldOut
        set: {available: available - 1}
        emits: SeatAllocated
  Reservation:
    fields:
      showId: {type: uuid, references: Show}
      seatLabel: {type: str}
    commands:
      reserve:
        creates: true
        params: [showId, seatLabel]
        emits: SeatReserved
        also: [{command: Show.allocateSeat, id: showId}]
endpoints:
  - {method: POST, path: /api/v1/shows, command: Show.schedule}
  - {method: POST, path: "/api/v1/shows/{id}/open", command: Show.openSales}
  - {method: POST, path: /api/v1/reservations, command: Reservation.reserve}
"""


def test_an_also_on_an_aggregate_that_needs_its_own_commands_first_is_valid(
    workspace: Path, generate: Generate
) -> None:
    """A reservation allocates a seat of a show on sale: the show the examples make is a
    draft, and its own openSales puts it on sale; without such a command, the examples
    cannot make a reservation."""
    spec = workspace / "specs/ticketing.yaml"
    spec.parent.mkdir()
    spec.write_text(TICKETING)
    result = generate("validate", "specs/ticketing.yaml", cwd=workspace)
    assert result.code == 0, result.err
    # the show's only other command needs it on sale already
    spec.write_text(TICKETING.replace("status == 'draft'", "status == 'onSale'"))
    result = generate("validate", "specs/ticketing.yaml", cwd=workspace)
    assert result.code == 1
    assert (
        "aggregates.Reservation.commands.reserve: with the examples, Reservation.reserve is "
        "refused: Show.allocateSeat is refused for the Show made from the examples: its guard "
        'is false with the examples (allocateSeat: available = 10, status = "draft")' in result.err
    )


def test_the_tests_of_a_command_with_an_also_get_its_aggregate_ready_first(
    workspace: Path, generate: Generate
) -> None:
    """The generated tests put the show on sale (over the use cases, and over HTTP) before
    they reserve a seat of it, and pass: the reservation is made and the show has one
    seat less."""
    spec = workspace / "specs/ticketing.yaml"
    spec.parent.mkdir()
    spec.write_text(TICKETING)
    result = generate("service", "ticketing", cwd=workspace)
    assert result.code == 0, result.err
    project = workspace / "apps/ticketing"
    services = (project / "tests/test_services.py").read_text()
    assert "show_id=UUID((await new_show_for_reservation_reserve(cases)).id)" in services
    helper = services[services.index("async def new_show_for_reservation_reserve") :]
    assert helper.index("await new_show(cases)") < helper.index("await cases.show.open_sales(")
    test = services[services.index("async def test_reserve_of_a_reservation_changes_the_show") :]
    assert "assert changed.version == show.version + 1" in test
    assert "assert changed.available != show.available" in test
    api = (project / "tests/test_api.py").read_text()
    assert '"showId": create_show_for_reservation_reserve(client, headers)["id"]' in api
    helper = api[api.index("def create_show_for_reservation_reserve") :]
    assert helper.index("create_show(client, headers)") < helper.index("call_open_sales_show(")
    env = {**os.environ, "PYTHONPATH": "src"}
    ran = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_services.py",
            "tests/test_api.py",
            "-k",
            "reservation or reserve",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stdout[-3000:]
    assert " passed" in ran.stdout and "skipped" not in ran.stdout


def test_a_unique_check_that_an_also_of_the_creating_command_keeps_it_from_is_reported(
    workspace: Path, generate: Generate
) -> None:
    """The uniqueness tests make a second reservation of the first one's show and seat: with
    one seat in the examples, allocating the show's seat refuses it before its uniqueness is
    checked, so the examples must allow two; a unique field that does not name the show
    gets a new show for the second reservation, and any example does."""
    spec = workspace / "specs/ticketing.yaml"
    spec.parent.mkdir()
    unique = TICKETING.replace(
        "  Reservation:\n", "  Reservation:\n    unique: [[showId, seatLabel]]\n"
    )
    spec.write_text(unique.replace("example: 10", "example: 1"))
    result = generate("validate", "specs/ticketing.yaml", cwd=workspace)
    assert result.code == 1
    assert result.err.splitlines() == [
        "specs/ticketing.yaml:29:9: aggregates.Reservation.commands.reserve: the uniqueness "
        "tests create a second Reservation with the Show of the first (showId), but "
        "Show.allocateSeat refuses it: its guard is false with the examples (allocateSeat:"
        ' available = 0, status = "onSale"); '
        "give available an example that allows two"
    ]
    spec.write_text(unique.replace("example: 10", "example: 2"))
    result = generate("validate", "specs/ticketing.yaml", cwd=workspace)
    assert result.code == 0, result.err
    label = TICKETING.replace("seatLabel: {type: str}", "seatLabel: {type: str, unique: true}")
    spec.write_text(label.replace("example: 10", "example: 1"))
    result = generate("validate", "specs/ticketing.yaml", cwd=workspace)
    assert result.code == 0, result.err


GENERATED_TESTS = ("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")


SYLLABI = """\
version: 2
name: syllabi
aggregates:
  Course:
    fields:
      title: {type: str}
    commands:
      open: {creates: true, params: [title], emits: CourseOpened}
  Syllabus:
    fields:
      courseId: {type: uuid, references: Course, unique: true}
      text: {type: str}
    commands:
      write: {creates: true, params: [courseId, text], emits: SyllabusWritten}
endpoints:
  - {method: POST, path: /api/v1/courses, command: Course.open}
  - {method: POST, path: /api/v1/syllabi, command: Syllabus.write}
  - {method: GET, path: "/api/v1/syllabi/{id}", query: Syllabus.get}
"""


def test_the_tests_of_a_unique_reference_make_the_aggregate_it_names(
    workspace: Path, generate: Generate
) -> None:
    """A reference that is unique (one syllabus per course) takes a new Course in each
    test, not a fixed id no Course has; its uniqueness is tested in the tenant only."""
    spec = workspace / "specs/syllabi.yaml"
    spec.parent.mkdir()
    spec.write_text(SYLLABI)
    assert generate("service", "syllabi", cwd=workspace).code == 0
    project = workspace / "apps/syllabi"
    ran_in(project, *GENERATED_TESTS)
    assert (
        "test_course_id_of_a_syllabus_is_unique_in_the_tenant"
        in (project / "tests/test_services.py").read_text()
    )


SHELVES = """\
version: 2
name: shelves
aggregates:
  Shelf:
    view_id: shelfId
    fields: {label: {type: str}}
    commands:
      build: {creates: true, params: [label], emits: ShelfBuilt}
  Book:
    view_id: bookId
    view_tenant: tenantId
    fields:
      shelfId: {type: uuid, references: Shelf}
      title: {type: str}
      pages: {type: int, min: 1, example: 100}
      lockCode: {type: str, hidden: true, example: "1234"}
    commands:
      shelve: {creates: true, params: [shelfId, title, pages, lockCode], emits: BookShelved}
      retitle: {params: [title, lockCode], emits: BookRetitled}
      discard: {deletes: true, emits: BookDiscarded}
read_models:
  Books: {of: Book}
endpoints:
  - {method: POST, path: /api/v1/shelves, command: Shelf.build, permission: "shelves:write"}
  - {method: GET, path: "/api/v1/shelves/{shelfId}", query: Shelf.get, permission: "shelves:read"}
  - {method: POST, path: "/api/v1/tenants/{tenantId}/books", command: Book.shelve,
     permission: "shelves:write", tenant: path}
  - {method: GET, path: "/api/v1/tenants/{tenantId}/books/{bookId}", query: Book.get,
     permission: "shelves:read", tenant: path}
  - {method: PATCH, path: "/api/v1/tenants/{tenantId}/books/{bookId}", command: Book.retitle,
     permission: "shelves:write", tenant: path}
  - {method: DELETE, path: "/api/v1/tenants/{tenantId}/books/{bookId}", command: Book.discard,
     permission: "shelves:write", tenant: path}
  - {method: GET, path: /api/v1/books, query: Books.list, filter: [pages], sort: [pages],
     page: true, permission: "shelves:read"}
"""


def test_a_view_names_its_id_shows_its_tenant_and_hides_hidden_fields(
    workspace: Path, generate: Generate
) -> None:
    """``view_id: bookId`` answers ``{"bookId": ...}`` in the aggregate's views and list
    rows, paths name ``{bookId}``; ``view_tenant: tenantId`` shows the request's tenant;
    a ``hidden`` field is set by requests and never shown. The generated tests
    (references, tenant paths, PATCH, DELETE, pages, filters) pass."""
    spec = workspace / "specs/shelves.yaml"
    spec.parent.mkdir()
    spec.write_text(SHELVES)
    assert generate("service", "shelves", cwd=workspace).code == 0
    project = workspace / "apps/shelves"
    schemas = (project / "src/shelves/infrastructure/schemas.py").read_text()
    assert 'id: str = Field(alias="bookId"' in schemas
    assert 'id: str = Field(alias="shelfId"' in schemas
    ran_in(project, *GENERATED_TESTS)
    probe = """
from fastapi.testclient import TestClient
from eaf.security import KeyRing, TokenIssuer
from iam_client import IamClient
from shelves.infrastructure.config import load_settings
from shelves.main import create_app
import sys

keys = KeyRing.generate()
issuer = TokenIssuer(keys, issuer="https://iam.test", default_audience="eaf")
token = issuer.issue(subject="u", client_id="c", tenant_id="acme",
                     permissions=["shelves:read", "shelves:write"]).token
iam = IamClient(jwks=keys.jwks(), issuer="https://iam.test", audience="eaf")
settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/s.db",
                          "BROKER_RELAY": "false", "SECURITY_REVOCATION_FEED": "false"})
with TestClient(create_app(settings, iam=iam)) as client:
    auth = {"Authorization": f"Bearer {token}"}
    shelf = client.post("/api/v1/shelves", json={"label": "A"}, headers=auth).json()
    assert "id" not in shelf and shelf["shelfId"], shelf
    made = client.post("/api/v1/tenants/acme/books", headers=auth,
                       json={"shelfId": shelf["shelfId"], "title": "T", "pages": 3,
                             "lockCode": "s3cret"})
    book = made.json()
    assert made.headers["Location"].endswith(book["bookId"]), made.headers
    assert book["tenantId"] == "acme" and "lockCode" not in book, book
    got = client.get(f"/api/v1/tenants/acme/books/{book['bookId']}", headers=auth).json()
    assert got == book and "id" not in got
    import time
    for _ in range(100):
        rows = client.get("/api/v1/books", headers=auth).json()["items"]
        if rows:
            break
        time.sleep(0.05)
    assert rows == [book], rows
    assert "s3cret" not in client.get("/openapi.json").text
print("ok")
"""
    ran_in(project, "-c", probe, str(workspace))


MEMBERS = """\
version: 2
name: members
enums:
  MemberStatus: [active, suspended, deleted]
aggregates:
  Member:
    gone_when: "status == 'deleted'"
    fields:
      email: {type: str, unique: true, example: a@example.com}
      status: {type: MemberStatus, default: active}
    commands:
      join: {creates: true, params: [email], emits: MemberJoined}
      suspend: {when: "status == 'active'", set: {status: suspended}, emits: MemberSuspended}
      leave: {set: {status: deleted}, emits: MemberLeft}
      changeStatus: {params: [status], emits: MemberStatusChanged}
read_models:
  Members: {of: Member}
endpoints:
  - {method: POST, path: /api/v1/members, command: Member.join}
  - {method: GET, path: "/api/v1/members/{id}", query: Member.get}
  - {method: POST, path: "/api/v1/members/{id}/suspend", command: Member.suspend}
  - {method: DELETE, path: "/api/v1/members/{id}", command: Member.leave}
  - {method: PATCH, path: "/api/v1/members/{id}", command: Member.changeStatus}
  - {method: GET, path: /api/v1/members, query: Members.list, order: [-email], consistent: true}
"""

MEMBERS_PROBE = """
import sys
from fastapi.testclient import TestClient
from members.infrastructure.config import load_settings
from members.main import create_app

settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/m.db", "BROKER_RELAY": "false"})


def listed(client, count):
    # consistent: the list holds every change made before the request, at once
    rows = client.get("/api/v1/members").json()
    assert len(rows) == count, rows
    return rows


with TestClient(create_app(settings)) as client:
    ann = client.post("/api/v1/members", json={"email": "ann@example.com"}).json()
    bob = client.post("/api/v1/members", json={"email": "bob@example.com"}).json()
    # the spec's order: by email, descending
    assert [row["email"] for row in listed(client, 2)] == ["bob@example.com", "ann@example.com"]
    left = client.delete(f"/api/v1/members/{ann['id']}")
    assert left.status_code == 204, left.text
    assert client.get(f"/api/v1/members/{ann['id']}").status_code == 404
    assert client.post(f"/api/v1/members/{ann['id']}/suspend").status_code == 404
    assert client.delete(f"/api/v1/members/{ann['id']}").status_code == 404
    # a state change that reaches the state makes it gone as well
    gone = client.patch(f"/api/v1/members/{bob['id']}", json={"status": "deleted"})
    assert gone.status_code == 200, gone.text
    assert client.get(f"/api/v1/members/{bob['id']}").status_code == 404
    # its unique email is free again
    again = client.post("/api/v1/members", json={"email": "ann@example.com"})
    assert again.status_code == 201, again.text
    rows = listed(client, 1)
    assert [row["id"] for row in rows] == [again.json()["id"]], rows
print("ok")
"""


def test_an_aggregate_in_its_gone_state_counts_as_deleted(
    workspace: Path, generate: Generate
) -> None:
    """``gone_when`` (a state over one field): once there, get answers 404, commands find
    no aggregate, its unique values are free again and the list leaves it out; a command
    that sets that state is served by DELETE (204). A list without ``?sort=`` is in its
    ``order``; a ``consistent`` one holds every change made before it. The generated
    tests pass."""
    spec = workspace / "specs/members.yaml"
    spec.parent.mkdir()
    spec.write_text(MEMBERS)
    assert generate("service", "members", cwd=workspace).code == 0
    project = workspace / "apps/members"
    ran_in(project, *GENERATED_TESTS)
    ran_in(project, "-c", MEMBERS_PROBE, str(workspace))
    ran_in(project, "-m", "mypy", "--strict", "src")


def test_an_aggregate_named_like_its_service_cannot_have_components(
    workspace: Path, generate: Generate
) -> None:
    """The composition root names an aggregate's use cases by its snake name: one named
    like the service's package would hide the package it imports components from."""
    spec = workspace / "specs/kiosk.yaml"
    spec.parent.mkdir()
    spec.write_text(
        "version: 2\nname: kiosk\n"
        "components:\n  tokens: {type: 'kiosk.wiring:Tokens', factory: 'kiosk.wiring:tokens'}\n"
        "aggregates:\n  Kiosk:\n    fields: {label: str}\n"
        "    commands: {add: {creates: true, params: [label], emits: KioskAdded}}\n"
    )
    result = generate("validate", "specs/kiosk.yaml", cwd=workspace)
    assert result.err.splitlines() == [
        "specs/kiosk.yaml:7:5: aggregates.Kiosk: Kiosk's use cases would be named 'kiosk' in"
        " the composition root, which imports the hand-written code from the package"
        " 'kiosk': rename the service (e.g. kiosks) or the aggregate"
    ]


ITEMS_BROKEN = """\
version: 2
name: shelf
values:
  Slot:
    fields:
      codes: {type: "list[str]", items: {min: 1}}
aggregates:
  Book:
    fields:
      title: {type: str, items: {max_length: 3}}
      slots: {type: "list[Slot]", default: [], items: {}}
      tags: {type: "list[str]", default: [ok, Bad],
             items: {pattern: "^[a-z]+$", messages: {max_length: Too long}}}
      codes: {type: "list[str]", default: [], items: {pattern: "^[a-z+$"}}
      scores: {type: "list[int]", example: [1, 20], items: {min: 1, max: 10, colour: red}}
      labels: {type: "map[str]", default: {a: toolong}, items: {max_length: 3}}
    commands:
      add: {creates: true, params: [title, scores], emits: BookAdded}
"""


def test_the_rules_of_items_are_checked_where_they_are_written(
    workspace: Path, generate: Generate
) -> None:
    """``items`` takes the rules of its item type, on a list or map of a scalar only; its
    messages name its rules; defaults and examples keep them."""
    spec = workspace / "specs/shelf.yaml"
    spec.parent.mkdir()
    spec.write_text(ITEMS_BROKEN)
    result = generate("validate", "specs/shelf.yaml", cwd=workspace)
    assert result.code == 1
    with_typo = result.err.splitlines()
    assert with_typo[0] == (
        "specs/shelf.yaml:15:78: aggregates.Book.fields.scores.items.colour: unknown key "
        "'colour' (expected one of: not_blank, contains, pattern, min, max, min_length, "
        "max_length, scale, messages)"
    )
    spec.write_text(ITEMS_BROKEN.replace(", colour: red", ""))
    result = generate("validate", "specs/shelf.yaml", cwd=workspace)
    assert result.code == 1
    assert with_typo[1:] == result.err.splitlines()
    assert result.err.splitlines() == [
        "specs/shelf.yaml:6:47: values.Slot.fields.codes.items.min: min applies to int, float "
        "and decimal, not str",
        "specs/shelf.yaml:10:33: aggregates.Book.fields.title.items: items applies to a list "
        "or map of a scalar or an enum (list[str], map[int]), not str",
        "specs/shelf.yaml:11:55: aggregates.Book.fields.slots.items: items applies to a list "
        "or map of a scalar or an enum (list[str], map[int]), not list[Slot]",
        "specs/shelf.yaml:13:66: aggregates.Book.fields.tags.items.messages.max_length: "
        "'max_length' is not a rule of the items (its rules: pattern)",
        "specs/shelf.yaml:12:42: aggregates.Book.fields.tags.default: ['ok', 'Bad'] does not "
        "fit tags: item 1 must match ^[a-z]+$",
        "specs/shelf.yaml:14:64: aggregates.Book.fields.codes.items.pattern: invalid regular "
        "expression: missing ]: [a-z+$",
        "specs/shelf.yaml:15:44: aggregates.Book.fields.scores.example: [1, 20] does not fit "
        "scores: item 1 must be at most 10",
        "specs/shelf.yaml:16:43: aggregates.Book.fields.labels.default: {'a': 'toolong'} does "
        "not fit labels: the value of 'a' allows at most 3 characters",
    ]


ITEMS = r"""
version: 2
name: tagged
values:
  Slot:
    fields:
      label: {type: str}
      codes:
        type: "list[str]"
        items: {pattern: "^[A-Z]{3}$", messages: {pattern: "Code {value} is not three capitals"}}
aggregates:
  Post:
    fields:
      title: {type: str, max_length: 40, messages: {max_length: "Title {value} is too long"}}
      tags:
        type: "list[str]"
        default: []
        items:
          pattern: "^[a-z][a-z0-9-]*$"
          max_length: 20
          messages: {pattern: "Tag {value} is not a slug ({value.__class__} {0} { value })"}
      scores: {type: "list[int]", min_length: 1, items: {min: 1, max: 10}}
      labels: {type: "map[str]", default: {}, items: {max_length: 8}}
      slots: {type: "list[Slot]", default: []}
    commands:
      write:
        creates: true
        params: [title, tags, scores, labels, slots]
        inputs:
          notes: {type: "map[int]", default: {}, items: {min: 0}}
        emits: PostWritten
      retag: {params: [tags], emits: PostRetagged}
endpoints:
  - {method: POST, path: /api/v1/posts, command: Post.write}
  - {method: GET, path: "/api/v1/posts/{id}", query: Post.get}
  - {method: PATCH, path: "/api/v1/posts/{id}", command: Post.retag}
"""

ITEMS_PROBE = r"""
import sys
from fastapi.testclient import TestClient
from tagged.infrastructure.config import load_settings
from tagged.main import create_app

settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/t.db", "BROKER_RELAY": "false"})
SLUG = "Tag {value} is not a slug ({value.__class__} {0} { value })"

with TestClient(create_app(settings)) as client:
    body = {
        "title": "T",
        "tags": ["ok", "Not a slug", "X" * 80],
        "scores": [0, 5, 11],
        "labels": {"a": "123456789"},
        "slots": [{"label": "s", "codes": ["ABC", "abcd"]}],
        "notes": {"n": -1},
    }
    answer = client.post("/api/v1/posts", json=body)
    assert answer.status_code == 422, answer.text
    errors = answer.json()["errors"]
    long = '"' + "X" * 62 + "\u2026"
    assert errors == [
        {"field": "tags.1", "message": SLUG.replace("{value}", '"Not a slug"')},
        {"field": "tags.2", "message": SLUG.replace("{value}", long)},
        {"field": "tags.2", "message": "Each of tags allows at most 20 characters"},
        {"field": "scores.0", "message": "Each of scores must be at least 1"},
        {"field": "scores.2", "message": "Each of scores must be at most 10"},
        {"field": "labels.a", "message": "Each value of labels allows at most 8 characters"},
        {"field": "slots.0.codes.1", "message": 'Code "abcd" is not three capitals'},
        {"field": "notes.n", "message": "Each value of notes must be at least 0"},
    ], errors
    assert errors[0]["message"].endswith(" ({value.__class__} {0} { value })")
    made = client.post("/api/v1/posts", json={"title": "T", "tags": ["ok"], "scores": [1]})
    assert made.status_code == 201, made.text
    post = made.json()["id"]
    patched = client.patch(f"/api/v1/posts/{post}", json={"tags": ["fine", "NOPE"]})
    assert patched.status_code == 422, patched.text
    assert patched.json()["errors"] == [
        {"field": "tags.1", "message": SLUG.replace("{value}", '"NOPE"')}
    ]
    title = client.post("/api/v1/posts", json={"title": "y" * 41, "scores": [1]})
    assert title.json()["errors"] == [
        {"field": "title", "message": "Title " + '"' + "y" * 41 + '"' + " is too long"}
    ], title.text
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    written = schemas["WritePostRequest"]["properties"]
    assert written["tags"]["items"] == {
        "type": "string", "maxLength": 20, "pattern": "^(?:[a-z][a-z0-9-]*)$"
    }, written["tags"]
    assert written["scores"]["items"]["minimum"] == 1, written["scores"]
    assert written["scores"]["items"]["maximum"] == 10, written["scores"]
    assert written["labels"]["additionalProperties"]["maxLength"] == 8, written["labels"]
    codes = schemas["SlotBody"]["properties"]["codes"]
    assert codes["items"]["pattern"] == "^(?:[A-Z]{3})$", codes
    patch = schemas["RetagPostPatch"]["properties"]["tags"]
    assert patch["items"]["pattern"] == "^(?:[a-z][a-z0-9-]*)$", patch
print("ok")
"""


def test_each_item_of_a_list_or_map_keeps_its_rules(workspace: Path, generate: Generate) -> None:
    """``items``: the domain checks every item, a broken one named by its path (``tags.1``,
    ``labels.a``, ``slots.0.codes.1``) with the spec's message, its ``{value}`` replaced by
    the item as JSON (at most 64 characters) and nothing else in it formatted; the OpenAPI
    document states the items' rules. The generated tests, mypy --strict and ruff pass."""
    spec = workspace / "specs/tagged.yaml"
    spec.parent.mkdir()
    spec.write_text(ITEMS)
    assert generate("service", "tagged", cwd=workspace).code == 0
    project = workspace / "apps/tagged"
    model = (project / "src/tagged/domain/model.py").read_text()
    assert "def check_tags_item(value: str, path: str) -> list[Violation]:" in model
    assert "({value.__class__} {0} { value })" in model  # written as text, never formatted
    tests = (project / "tests/test_api.py").read_text()
    assert "def test_write_post_rejects_scores_breaking_item_min(" in tests
    assert '"field": "scores.0"' in tests
    ran_in(project, *GENERATED_TESTS)
    ran_in(project, "-c", ITEMS_PROBE, str(workspace))
    ran_in(project, "-m", "mypy", "--strict", "src")
    ran_in(project, "-m", "ruff", "check", ".")
    ran_in(project, "-m", "ruff", "format", "--check", ".")


CLUB = """\
version: 2
name: club
aggregates:
  Member:
    fields:
      name: str
      newsletter: {type: bool, default: false}
    commands:
      join: {creates: true, params: [name], emits: MemberJoined}
      rename: {params: [name], emits: MemberRenamed}
  Mailing:
    fields:
      memberId: uuid
      wanted: bool
    commands:
      start: {creates: true, params: [memberId, wanted], emits: MailingStarted}
policies:
  StartMailing:
    on: MemberRenamed
    run: {command: Mailing.start, with: {memberId: event.memberId, wanted: event.newsletter}}
endpoints:
  - {method: POST, path: /api/v1/members, command: Member.join}
"""


def test_a_policy_reading_a_field_its_event_does_not_carry_is_told_how_to_carry_it() -> None:
    assert spec_problems(CLUB, "club.yaml") == [
        "club.yaml:20:76: policies.StartMailing.run.with.wanted: 'event.newsletter' is a field"
        " of Member that MemberRenamed does not carry: declare MemberRenamed under `events`"
        " with it (a command that does not set it fills it with the value the aggregate"
        " holds) (in 'event.newsletter')",
    ]
    declared = CLUB + (
        "events:\n  MemberRenamed:\n"
        "    fields: {memberId: uuid, name: str, newsletter: bool, occurredAt: datetime}\n"
    )
    assert spec_problems(declared, "club.yaml") == []


def test_a_value_set_computes_that_breaks_its_fields_rule_is_named() -> None:
    """The examples' bill would be refused by its own rule (422 for a value the client
    never sent): `validate` says so, and how to keep it."""
    spec = """\
version: 2
name: bills
aggregates:
  Bill:
    fields:
      price: {type: decimal, min: 0, scale: 2, example: "49.90"}
      discount: {type: decimal, min: 0, max: 100, scale: 1, example: "10.5"}
      total: {type: decimal, scale: 2, default: "0"}
    commands:
      issue:
        creates: true
        params: [price, discount]
        set: {total: "price * (100 - discount) / 100"}
        emits: BillIssued
"""
    assert spec_problems(spec, "bills.yaml") == [
        "bills.yaml:11:9: aggregates.Bill.commands.issue: with the examples, Bill.issue is"
        ' refused: it sets total to "44.6605", which allows at most 2 digits after the point'
        " (round it: round(..., 2)): a value `set` computes keeps the field's rules"
    ]
    rounded = spec.replace(
        '"price * (100 - discount) / 100"', '"round(price * (100 - discount) / 100, 2)"'
    )
    assert spec_problems(rounded, "bills.yaml") == []


def test_a_value_objects_field_is_neither_unique_nor_an_empty_reference() -> None:
    spec = """\
version: 2
name: moves
values:
  Line:
    fields:
      tag: {type: str, unique: true}
      ref: {type: uuid, references: ""}
aggregates:
  Move:
    fields:
      lines: {type: "list[Line]"}
    commands:
      make: {creates: true, params: [lines], emits: MoveMade}
"""
    assert spec_problems(spec, "moves.yaml") == [
        "moves.yaml:7:37: values.Line.fields.ref.references: references names an aggregate"
        " (`Member`: by its id) or the one field of its key (`Role.name`)",
        "moves.yaml:6:32: values.Line.fields.tag.unique: unique applies to an aggregate's"
        " fields (a value object is part of one: make the aggregate's field unique, or a"
        " combination)",
    ]


def test_an_invariant_message_cannot_show_a_value() -> None:
    """``{value}`` is replaced in a rule's message only: an invariant answered it as
    written (``Stage cost {value} too high``)."""
    spec = (
        "version: 2\nname: lab\naggregates:\n  Case:\n    fields:\n      cost: int\n"
        '    invariants:\n      - {check: "cost < 100", message: "Cost {value} too high"}\n'
        "    commands:\n      open: {creates: true, params: [cost], emits: CaseOpened}\n"
    )
    assert spec_problems(spec, "lab.yaml") == [
        "lab.yaml:8:40: aggregates.Case.invariants.0.message: {value} shows the value a"
        " field's rule refuses; an invariant's message is shown as written: say what it"
        " requires in words"
    ]
