"""`generate catalog`: the service and event catalog as a static site, opened in a real
browser (Debian's chromium driven by playwright), and each service's AsyncAPI 3.0 document,
validated against the official AsyncAPI schema (npm `@asyncapi/specs`)."""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlparse

import pytest
from helpers import REPO, Generate
from jsonschema import Draft7Validator

CHROMIUM = Path("/usr/bin/chromium")
ASYNCAPI_SCHEMA = REPO / "tests/asyncapi-schema/node_modules/@asyncapi/specs/schemas/3.0.0.json"

SHOP = """\
version: 2
name: shop
description: Orders of the shop
values:
  Line:
    fields:
      sku: {type: str}
      quantity: {type: int, min: 1}
enums:
  Channel: [web, store]
aggregates:
  Order:
    fields:
      customer: {type: str}
      total: {type: decimal, scale: 2}
      lines: {type: "list[Line]", default: []}
      channel: {type: Channel, default: web}
      note: {type: str, optional: true}
    commands:
      place: {creates: true, params: [customer, total, lines, channel, note], emits: OrderPlaced}
      cancel: {when: "note is None", emits: OrderCancelled}
events:
  OrderPlaced:
    version: 2
    description: An order was placed
    fields:
      orderId: uuid
      customer: str
      total: decimal
      lines: "list[Line]"
      channel: Channel
      note: {type: str, optional: true}
      occurredAt: datetime
    upcasts:
      1: {rename: {buyer: customer}, add: {channel: web}, decode: [lines]}
endpoints:
  - {method: POST, path: /api/v1/orders, command: Order.place, permission: "shop:write"}
  - {method: GET, path: "/api/v1/orders/{id}", query: Order.get, permission: "shop:read"}
"""

BILLING = """\
version: 2
name: billing
description: "Invoices </script><script>window.injected = 1</script> & <b>bold</b>"
aggregates:
  Invoice:
    fields:
      orderId: {type: str}
    commands:
      open: {creates: true, params: [orderId], emits: InvoiceOpened}
consumes:
  shop.OrderPlaced:
    fields: {orderId: str, total: decimal}
  warehouse.StockReserved:
    fields: {sku: str}
"""


@pytest.fixture(scope="module")
def asyncapi_validator() -> Draft7Validator:
    assert ASYNCAPI_SCHEMA.is_file(), "run `make test` (it installs tests/asyncapi-schema)"
    return Draft7Validator(json.loads(ASYNCAPI_SCHEMA.read_text(encoding="utf-8")))


@pytest.fixture
def shop(workspace: Path, generate: Generate) -> Path:
    specs = workspace / "specs"
    specs.mkdir()
    for name, text in (("shop", SHOP), ("billing", BILLING)):
        (specs / f"{name}.yaml").write_text(text, encoding="utf-8")
        made = generate("service", name, cwd=workspace)
        assert made.code == 0, made.err
    return workspace


@pytest.fixture(scope="module")
def repository_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The catalog of this repository's own specs and rendered services."""
    import subprocess

    from helpers import GENERATE

    out = tmp_path_factory.mktemp("catalog") / "site"
    done = subprocess.run(
        [str(GENERATE), "catalog", "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return out


def test_the_catalog_lists_services_events_flows_and_findings(
    shop: Path, generate: Generate
) -> None:
    out = shop / "site"
    made = generate("catalog", "--out", str(out), cwd=shop)
    assert made.code == 0, made.err
    assert "AsyncAPI for billing, shop, OpenAPI for billing, shop" in made.out
    assert (
        "warning: specs/billing.yaml: consumes.warehouse.StockReserved: billing consumes "
        "warehouse.StockReserved, but the workspace has no valid spec named warehouse" in made.err
    )
    event = (out / "event-shop.OrderPlaced.html").read_text(encoding="utf-8")
    assert "v1 → v2" in event and "rename buyer -&gt; customer" in event
    assert "decode lines (stored as JSON text)" in event
    assert "billing-shop-order-placed" in event  # the durable consumer group
    assert "events.{tenant}.shop.OrderPlaced" in event
    service = (out / "service-shop.html").read_text(encoding="utf-8")
    assert "/api/v1/orders/{id}" in service and "shop:read" in service
    assert "OrderCancelled" in service and "guarded" in service
    openapi = json.loads((out / "openapi-shop.json").read_text(encoding="utf-8"))
    assert "/api/v1/orders" in openapi["paths"]


def test_a_breaking_event_change_is_a_finding_naming_its_consumer(
    shop: Path, generate: Generate
) -> None:
    spec = shop / "specs/shop.yaml"
    retyped = SHOP.replace("      total: decimal\n", "      total: int\n").replace(
        "total: {type: decimal, scale: 2}", "total: {type: int}"
    )
    spec.write_text(retyped, encoding="utf-8")
    made = generate("catalog", "--out", str(shop / "site"), cwd=shop)
    assert made.code == 0, made.err
    assert "events.OrderPlaced.fields.total.type: 'total' was decimal, now int" in made.err
    assert "it would break billing" in made.err
    index = (shop / "site/index.html").read_text(encoding="utf-8")
    assert "it would break billing" in index
    checked = generate("check", "--all", cwd=shop)
    assert checked.code == 1
    assert "it would break billing, which consume shop.OrderPlaced" in checked.err


def test_the_catalog_refuses_to_replace_a_directory_it_did_not_write(
    shop: Path, generate: Generate
) -> None:
    keep = shop / "docs" / "keep.txt"
    keep.parent.mkdir()
    keep.write_text("mine", encoding="utf-8")
    made = generate("catalog", "--out", str(keep.parent), cwd=shop)
    assert made.code == 1
    assert "is not a catalog `generate catalog` wrote" in made.err
    assert keep.read_text(encoding="utf-8") == "mine"
    again = generate("catalog", "--out", str(shop / "site"), cwd=shop)
    twice = generate("catalog", "--out", str(shop / "site"), cwd=shop)
    assert again.code == twice.code == 0, twice.err


def test_asyncapi_documents_validate_against_the_official_schema(
    shop: Path, generate: Generate, repository_catalog: Path, asyncapi_validator: Draft7Validator
) -> None:
    made = generate("catalog", "--out", str(shop / "site"), cwd=shop)
    assert made.code == 0, made.err
    documents = [
        *sorted((shop / "site").glob("asyncapi-*.json")),
        *sorted(repository_catalog.glob("asyncapi-*.json")),
    ]
    assert {d.name for d in documents} >= {
        "asyncapi-shop.json",
        "asyncapi-billing.json",
        "asyncapi-iam.json",
        "asyncapi-user-profile.json",
    }
    for document in documents:
        data = json.loads(document.read_text(encoding="utf-8"))
        errors = [
            f"{list(e.absolute_path)}: {e.message}" for e in asyncapi_validator.iter_errors(data)
        ]
        assert errors == [], document.name
    billing = json.loads((shop / "site/asyncapi-billing.json").read_text(encoding="utf-8"))
    receive = billing["operations"]["receiveShopOrderPlaced"]
    assert receive["action"] == "receive"
    assert receive["bindings"]["nats"]["queue"] == "billing-shop-order-placed"
    read = billing["components"]["messages"]["shop_OrderPlaced"]["payload"]
    shop_doc = json.loads((shop / "site/asyncapi-shop.json").read_text(encoding="utf-8"))
    placed = shop_doc["components"]["messages"]["OrderPlaced"]
    # billing reads two of the keys shop publishes (the payload keys are the Python names)
    assert len(read["properties"]) == 2
    assert set(read["properties"]) < set(placed["payload"]["properties"])
    assert "order_id" in read["properties"]
    assert placed["x-schema-version"] == 2
    assert placed["payload"]["properties"]["lines"]["items"] == {
        "$ref": "#/components/schemas/Line"
    }
    assert shop_doc["components"]["schemas"]["Channel"]["enum"] == ["web", "store"]
    assert shop_doc["channels"]["OrderPlaced"]["address"] == "events.{tenant}.shop.OrderPlaced"


def test_the_official_schema_refuses_a_broken_document(
    repository_catalog: Path, asyncapi_validator: Draft7Validator
) -> None:
    """The validation above can fail: a document with a wrong operation is refused."""
    data = json.loads((repository_catalog / "asyncapi-iam.json").read_text(encoding="utf-8"))
    operation = next(iter(data["operations"].values()))
    operation["action"] = "publish"  # AsyncAPI 2's word, not 3's
    assert list(asyncapi_validator.iter_errors(data))


# --- in a real browser ----------------------------------------------------------------


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def serve() -> Iterator[Callable[[Path], str]]:
    servers: list[http.server.ThreadingHTTPServer] = []

    def start(directory: Path) -> str:
        handler = functools.partial(_Quiet, directory=str(directory))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_port}/"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.is_file(), "Debian's chromium is needed (make test installs it)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
            ],
        )
        try:
            yield launched
        finally:
            launched.close()


def _open(browser: Any, url: str) -> tuple[Any, list[str]]:
    """A page at ``url`` and the list its console errors and failed requests go to."""
    page = browser.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("requestfailed", lambda request: problems.append(f"failed: {request.url}"))
    response = page.goto(url)
    assert response is not None and response.ok, url
    return page, problems


def test_every_page_loads_without_errors_and_every_link_resolves(
    repository_catalog: Path, serve: Callable[[Path], str], browser: Any
) -> None:
    base = serve(repository_catalog)
    seen: set[str] = set()
    queue = [urljoin(base, "index.html")]
    pages = 0
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        page, problems = _open(browser, url)
        if url.endswith(".html"):
            pages += 1
            hrefs = page.eval_on_selector_all(
                "a[href]", "links => links.map(a => a.getAttribute('href'))"
            )
            for href in hrefs:
                target = urljoin(url, href)
                assert urlparse(target).netloc == urlparse(base).netloc, href
                anchor = urlparse(target).fragment
                document = target.split("#")[0]
                if anchor and document == url:
                    assert page.locator(f"#{anchor}").count() == 1, f"{url}: #{anchor}"
                queue.append(document)
        assert problems == [], url
        page.close()
    assert pages == len(list(repository_catalog.glob("*.html")))
    assert any(url.endswith("openapi-iam.json") for url in seen)
    assert any(url.endswith("asyncapi-user-profile.json") for url in seen)


def test_search_finds_an_event_and_leads_to_its_page(
    repository_catalog: Path, serve: Callable[[Path], str], browser: Any
) -> None:
    page, problems = _open(browser, serve(repository_catalog) + "service-user-profile.html")
    page.fill("#search", "tenant created")
    results = page.locator("#search-results a")
    results.first.wait_for()
    assert results.first.inner_text().endswith("iam.TenantCreatedEvent")
    page.keyboard.press("Enter")
    page.wait_for_url("**/event-iam.TenantCreatedEvent.html")
    assert page.locator("h1").inner_text().startswith("TenantCreatedEvent")
    assert "user-profile-iam-tenant-created-event" in page.content()
    page.fill("#search", "no such thing anywhere")
    assert page.locator("#search-results").inner_text() == "Nothing matches."
    assert problems == []


def test_the_diagram_draws_each_service_and_flow(
    repository_catalog: Path, serve: Callable[[Path], str], browser: Any
) -> None:
    page, problems = _open(browser, serve(repository_catalog) + "index.html")
    diagram = page.locator("#flow-diagram")
    box = diagram.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 40
    nodes = page.locator("#flow-diagram a.node")
    # Every app publishes its events: each is drawn (the IAM and the sample among them).
    apps = sorted(
        p.name for p in (REPO / "rendered/apps").iterdir() if (p / "project.json").is_file()
    )
    drawn = sorted(nodes.evaluate_all("ns => ns.map(n => n.dataset.service)"))
    assert drawn == apps and {"iam", "user-profile"} <= set(drawn)
    for index in range(nodes.count()):
        rect = nodes.nth(index).locator("rect").bounding_box()
        assert rect is not None and rect["width"] > 100
    edge = page.locator('#flow-diagram g.edge[data-producer="iam"][data-consumer="user-profile"]')
    assert edge.count() == 1
    assert "TenantCreatedEvent" in (edge.locator("text").text_content() or "")
    line = edge.locator("line").bounding_box()
    assert line is not None and line["width"] > 50  # producer left, consumer right
    iam = nodes.filter(has_text="iam").first.bounding_box()
    profile = nodes.filter(has_text="user-profile").first.bounding_box()
    assert iam is not None and profile is not None and iam["x"] < profile["x"]
    nodes.filter(has_text="user-profile").first.click()
    page.wait_for_url("**/service-user-profile.html")
    assert problems == []


def test_spec_text_is_shown_as_text_never_run(
    shop: Path, generate: Generate, serve: Callable[[Path], str], browser: Any
) -> None:
    made = generate("catalog", "--out", str(shop / "site"), cwd=shop)
    assert made.code == 0, made.err
    base = serve(shop / "site")
    for name in ("index.html", "service-billing.html"):
        page, problems = _open(browser, base + name)
        assert page.evaluate("() => window.injected") is None
        assert "</script><script>window.injected = 1</script> & <b>bold</b>" in page.inner_text(
            "main"
        )
        page.fill("#search", "injected")
        assert page.locator("#search-results a").first.inner_text().endswith("billing")
        assert problems == []
        page.close()
