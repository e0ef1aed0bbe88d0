"""``call: <component>.<method>``: an operation a hand-written component serves, its route,
body, rules, answer and guards rendered from the spec."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Result, ran_in, service_of, spec_problems

QUOTES = """\
version: 2
name: quotes
values:
  Quote:
    fields:
      sku: {type: str}
      quantity: {type: int}
      total: {type: decimal}
aggregates:
  Product:
    key: sku
    fields:
      sku: {type: str, pattern: "^[A-Z0-9-]{3,20}$", example: AB-100}
      price: {type: decimal, min: 0, scale: 2}
    commands:
      add: {params: [sku, price], creates: true, emits: ProductAdded}
read_models:
  Products: {of: Product}
components:
  pricing:
    type: quotes.application.pricing:Pricing
    needs: {products: product_repository, catalog: product}
    on_start: warm
endpoints:
  - {method: POST, path: /api/v1/products, command: Product.add, permission: "quotes:write"}
  - method: POST
    path: /api/v1/quotes
    call: pricing.quote
    permission: "quotes:read"
    summary: The price of a quantity of a product
    inputs:
      sku: {type: str, pattern: "^[A-Z0-9-]{3,20}$", normalize: [trim, upper], example: AB-100}
      quantity:
        type: int
        min: 1
        max: 1000
        messages: {max: "At most 1000 at once, not {value}"}
    response: Quote
  - {method: GET, path: "/api/v1/catalog/{sku}", call: pricing.product,
     inputs: {sku: {type: str, pattern: "^[A-Z0-9-]{3,20}$", example: AB-100}}, response: Product,
     permission: "quotes:read"}
  - {method: GET, path: /api/v1/catalog, call: pricing.products, response: "list[Product]",
     permission: "quotes:read"}
  - {method: GET, path: "/api/v1/bundles/{size}", call: pricing.bundle, response: "list[Quote]",
     permission: "quotes:read",
     inputs: {size: {type: int, min: 1, max: 9, messages: {min: "A bundle holds one or more"}}}}
  - {method: POST, path: /api/v1/prices/reset, call: pricing.reset, platform_only: true,
     permission: "quotes:admin", request: PriceReset,
     inputs: {reason: {type: str, not_blank: true}}}
  # every input has a default: the body may be left out
  - {method: POST, path: /api/v1/bundles, call: pricing.bundle, response: "list[Quote]",
     permission: "quotes:read", inputs: {size: {type: int, default: 2, min: 1, max: 9}}}
cli:
  description: Quotes operator commands
  commands:
    reprice:
      call: pricing.reprice
      summary: set a product's price
      tenant: true
      prompt: [pin]
      inputs:
        sku: {type: str, pattern: "^[A-Z0-9-]{3,20}$", example: AB-100}
        price: {type: decimal, min: 0, scale: 2, example: "3.50"}
        dryRun: {type: bool, default: false}
        note: {type: str, optional: true, max_length: 20}
        pin: {type: str, min_length: 4, example: "1234"}
    # reads the read model: on a database no server has run on yet too
    count: {call: pricing.count, tenant: true}
    purge:
      call: pricing.purge
      inputs:
        email: {type: str, normalize: [trim, lower], contains: "@", example: ops@example.org}
        before: {type: datetime, example: "2030-01-01T00:00:00Z"}
        command: {type: str, optional: true}
        context: {type: str, optional: true}
"""

PRICING = '''\
"""Quotes: the price of a quantity of a product."""

from datetime import datetime
from decimal import Decimal

from eaf import context

from quotes.application.ports.inbound import ProductUseCases
from quotes.application.ports.outbound import ProductRepository
from quotes.domain.errors import DomainValidationError, NotFoundError
from quotes.domain.model import Product
from quotes.domain.types import Quote

RESETS: list[str] = []
PURGES: list[str] = []


class Pricing:
    def __init__(self, *, products: ProductRepository, catalog: ProductUseCases) -> None:
        self._products = products
        self._catalog = catalog
        self.starts = 0

    async def count(self) -> int:
        return len(await self._catalog.list())

    async def warm(self) -> None:
        self.starts += 1

    async def _product(self, sku: str) -> Product:
        for product in await self._products.all():
            if product.sku == sku:
                return product
        raise NotFoundError(f"No product {sku}")

    async def quote(self, *, sku: str, quantity: int) -> Quote:
        product = await self._product(sku)
        if product.price == 0 and quantity > 10:
            raise DomainValidationError("quantity", "At most 10 free ones")
        return Quote(sku=sku, quantity=quantity, total_=product.price * Decimal(quantity))

    async def product(self, *, sku: str) -> Product:
        return await self._product(sku)

    async def products(self) -> list[Product]:
        return sorted(await self._products.all(), key=lambda product: product.sku)

    async def reset(self, *, reason: str) -> None:
        caller = context.current()
        RESETS.append(f"{reason} by {caller.user_id} platform={caller.platform}")

    async def bundle(self, *, size: int) -> list[Quote]:
        return [Quote(sku="B", quantity=n, total_=Decimal(n)) for n in range(1, size + 1)]

    async def purge(
        self, *, email: str, before: datetime, command: str | None, context: str | None
    ) -> None:
        PURGES.append(f"{email} {before.isoformat()} {command} {context}")

    async def reprice(
        self, *, sku: str, price: Decimal, dry_run: bool, note: str | None, pin: str
    ) -> str:
        caller = context.current()
        verb = "would reprice" if dry_run else "repriced"
        return f"{verb} {sku} to {price} in {caller.tenant_id} by {caller.user_id} ({note}, {pin})"
'''

# What a user observes over HTTP, with the service's own test fixtures (tokens of a tenant
# and of a platform operator).
PROBE = """\
from collections.abc import Callable

from fastapi.testclient import TestClient

from quotes.application.pricing import RESETS


def test_the_calls_answer_what_the_component_returns(
    client: TestClient, as_platform: Callable[[list[str]], dict[str, str]]
) -> None:
    # on_start: awaited once, as the application started
    assert client.app.state.pricing.starts == 1  # type: ignore[attr-defined]
    made = client.post("/api/v1/products", json={"sku": "AB-100", "price": "2.50"})
    assert made.status_code == 201, made.text
    client.post("/api/v1/products", json={"sku": "FREE-1", "price": "0"})

    quote = client.post("/api/v1/quotes", json={"sku": " ab-100 ", "quantity": 4})
    assert quote.status_code == 200, quote.text
    assert quote.json() == {"sku": "AB-100", "quantity": 4, "total": "10.00"}

    # the inputs' rules first, with the spec's messages, every one at once
    bad = client.post("/api/v1/quotes", json={"sku": "a b", "quantity": 5000})
    assert bad.status_code == 422
    assert {(e["field"], e["message"]) for e in bad.json()["errors"]} == {
        ("sku", "Sku must match ^[A-Z0-9-]{3,20}$"),
        ("quantity", "At most 1000 at once, not 5000"),
    }, bad.text
    # then what the component refuses, as the domain's problems
    free = client.post("/api/v1/quotes", json={"sku": "FREE-1", "quantity": 11})
    assert free.status_code == 422, free.text
    assert free.json()["errors"] == [{"field": "quantity", "message": "At most 10 free ones"}]
    missing = client.post("/api/v1/quotes", json={"sku": "NONE-1", "quantity": 1})
    assert missing.status_code == 404, missing.text
    assert missing.json()["detail"] == "No product NONE-1"

    # a path parameter is an input like another: checked by its rules, stated in the document
    unnamed = client.get("/api/v1/catalog/no%20such")
    assert unnamed.status_code == 422, unnamed.text
    assert unnamed.json()["errors"] == [
        {"field": "sku", "message": "Sku must match ^[A-Z0-9-]{3,20}$"}
    ]
    bundle = client.get("/api/v1/bundles/0")
    assert bundle.json()["errors"] == [{"field": "size", "message": "A bundle holds one or more"}]
    assert [q["quantity"] for q in client.get("/api/v1/bundles/2").json()] == [1, 2]
    defaults = client.post("/api/v1/bundles")
    assert [q["quantity"] for q in defaults.json()] == [1, 2], defaults.text
    assert len(client.post("/api/v1/bundles", json={"size": 3}).json()) == 3
    assert client.post("/api/v1/bundles", json={"size": 0}).status_code == 422
    product = client.get("/api/v1/catalog/FREE-1")
    assert product.status_code == 200, product.text
    assert product.json()["sku"] == "FREE-1" and product.headers.get("ETag") is None
    listed = client.get("/api/v1/catalog")
    assert [p["sku"] for p in listed.json()] == ["AB-100", "FREE-1"], listed.text

    # a platform operation: an operator's token, a tenant's refused whatever it holds
    tenant = client.post("/api/v1/prices/reset", json={"reason": "yearly"})
    assert tenant.status_code == 403, tenant.text
    reset = client.post(
        "/api/v1/prices/reset", json={"reason": "yearly"}, headers=as_platform(["quotes:admin"])
    )
    assert reset.status_code == 204, reset.text
    assert RESETS == ["yearly by platform-operator platform=True"]


def test_the_openapi_document_states_the_inputs_and_answers(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    assert schemas["QuoteRequest"]["properties"]["quantity"]["maximum"] == 1000
    assert schemas["PriceReset"]["required"] == ["reason"]
    quote = document["paths"]["/api/v1/quotes"]["post"]
    assert quote["summary"] == "The price of a quantity of a product"
    answer = quote["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/QuoteBody"}
    assert "204" in document["paths"]["/api/v1/prices/reset"]["post"]["responses"]
    (sku,) = document["paths"]["/api/v1/catalog/{sku}"]["get"]["parameters"]
    assert sku["schema"]["pattern"] == "^(?:[A-Z0-9-]{3,20})$"
"""


def test_a_call_serves_a_hand_written_method_with_rendered_rules_answers_and_guards(
    workspace: Path, generate: Callable[..., Result]
) -> None:
    project = service_of(workspace, generate, "quotes", QUOTES)
    hints = generate("render", "quotes", cwd=workspace)
    assert (
        "endpoints.1.call: write src/quotes/application/pricing.py with class Pricing with"
        " async def quote(self, *, sku, quantity)"
    ) in hints.out
    (project / "src/quotes/application/pricing.py").write_text(PRICING)
    (project / "tests/test_probe.py").write_text(PROBE)
    api_tests = (project / "tests/test_api.py").read_text()
    assert "def test_pricing_quote_rejects_quantity_breaking_max(" in api_tests
    assert "def test_pricing_reset_names_every_missing_field(" in api_tests
    ran_in(project, "-m", "ruff", "check", "src", "tests")
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")


def _cli(project: Path, stdin: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "quotes.cli", *arguments],
        cwd=project,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": "src", "DATABASE_URL": "sqlite:///cli.db"},
        check=False,
        timeout=120,
    )


def test_a_cli_command_checks_its_options_then_awaits_the_method_in_its_tenant(
    workspace: Path, generate: Callable[..., Result]
) -> None:
    project = service_of(workspace, generate, "quotes", QUOTES)
    (project / "src/quotes/application/pricing.py").write_text(PRICING)
    pyproject = (project / "pyproject.toml").read_text()
    assert 'quotes-admin = "quotes.cli:main"' in pyproject
    assert (
        "def test_reprice_refuses_price_breaking_min("
        in (project / "tests/test_cli.py").read_text()
    )

    # every broken option at once, each named, before the database is opened
    bad = _cli(project, "", "reprice", "--tenant", "a/b", "--sku", "a b", "--price", "-1",
               "--note", "x" * 21)  # fmt: skip
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.splitlines() == [
        "quotes-admin: error: Sku must match ^[A-Z0-9-]{3,20}$ (--sku)",
        "quotes-admin: error: Price must be at least 0 (--price)",
        "quotes-admin: error: Note allows at most 20 characters (--note)",
        "quotes-admin: error: no pin given (type it, or pipe it on stdin)",
        "quotes-admin: error: A tenant is 1 to 64 letters, digits, _ or - (--tenant)",
    ]
    assert not (project / "cli.db").exists()
    # the read models are made and brought up to date before the method reads one
    counted = _cli(project, "", "count", "--tenant", "acme")
    assert (counted.returncode, counted.stdout, counted.stderr) == (0, "0\n", ""), counted.stderr
    done = _cli(project, "4321\n", "reprice", "--tenant", "acme", "--sku", "AB-1", "--price", "3.5")
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "repriced AB-1 to 3.5 in acme by quotes-admin (None, 4321)\n",
        "",
    ), done.stderr
    dry = _cli(project, "4321\n", "reprice", "--tenant", "acme", "--sku", "AB-1", "--price", "1",
               "--dry-run", "--note", "spring")  # fmt: skip
    assert dry.stdout.startswith("would reprice AB-1 to 1 in acme"), dry.stderr
    # numbers are finite, a datetime has its offset (kept in UTC), text is normalized
    for option, value, why in (
        ("--price", "abc", "'abc' is not a decimal number"),
        ("--price", "Infinity", "'Infinity' is not a decimal number"),
        ("--price", "NaN", "'NaN' is not a decimal number"),
        ("--price", "1e2", "'1e2' is not a decimal number"),  # nor over HTTP
    ):
        refused = _cli(project, "4321\n", "reprice", "--tenant", "acme", "--sku", "AB-1",
                       option, value)  # fmt: skip
        assert refused.returncode == 2 and f"argument {option}: {why}" in refused.stderr
    naive = _cli(project, "", "purge", "--email", "a@b", "--before", "2030-01-01T10:00:00")
    assert naive.returncode == 2 and "with its offset" in naive.stderr, naive.stderr
    beyond = _cli(project, "", "purge", "--email", "a@b", "--before", "9999-12-31T23:59:59-05:00")
    assert beyond.returncode == 2 and "between the years 1 and 9999" in beyond.stderr, beyond.stderr
    purged = _cli(project, "", "purge", "--email", " Ops@Example.ORG ", "--before",
                  "2030-01-01T10:00:00+02:00", "--command", "x", "--context", "y")  # fmt: skip
    assert (purged.returncode, purged.stdout, purged.stderr) == (0, "", "")
    never = _cli(project, "", "reprice", "--tenant", "acme", "--sku", "AB-1", "--price", "1",
                 "--pin", "4321")  # fmt: skip
    assert never.returncode == 2 and "unrecognized arguments: --pin" in never.stderr
    usage = _cli(project, "", "purge", "--help").stdout
    assert "--command COMMAND" in usage and "--before BEFORE" in usage, usage
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_cli.py")


def test_render_names_a_call_s_method_that_cannot_be_awaited(
    workspace: Path, generate: Callable[..., Result]
) -> None:
    project = service_of(workspace, generate, "quotes", QUOTES)
    wrong = PRICING.replace("async def products(self)", "def products(self)").replace(
        "async def reset(self, *, reason: str)", "async def reset(self, *, why: str)"
    )
    (project / "src/quotes/application/pricing.py").write_text(wrong)
    out = generate("render", "quotes", cwd=workspace).out
    assert (
        "endpoints.3.call: src/quotes/application/pricing.py: Pricing.products is awaited:"
        " make it async def products(self)"
    ) in out
    assert (
        "endpoints.5.call: src/quotes/application/pricing.py: Pricing.reset() needs why,"
        " which the call's `inputs` does not list"
    ) in out


def _call(endpoint: str, extra: str = "") -> str:
    return (
        "version: 2\nname: shop\nvalues:\n  Price:\n    fields:\n      amount: decimal\n"
        "aggregates:\n  Cart:\n    fields:\n      name: str\n    commands:\n"
        "      open: {creates: true, params: [name], emits: CartOpened}\n"
        "components:\n  pricing: {type: 'shop.application.pricing:Pricing'}\n"
        f"{extra}endpoints:\n  - {endpoint}\n"
    )


@pytest.mark.parametrize(
    ("cli", "problem"),
    [
        ("{commands: {reprice: {call: prices.quote}}}",
         "cli.commands.reprice.call: unknown component 'prices'"),
        ("{commands: {Reprice: {call: pricing.quote}}}",
         "cli.commands.Reprice: a command is lower-case words with dashes"),
        ("{commands: {reprice: {call: pricing.quote, inputs: {tags: 'list[str]'}}}}",
         "cli.commands.reprice.inputs.tags.type: an option is one value: bool, date, datetime,"
         " decimal, float, int, str, uuid or an enum, not list[str]"),
        ("{name: shop, commands: {reprice: {call: pricing.quote}}}",
         "cli.name: 'shop' is also a script of the service"),
        ("{commands: {reprice: {call: pricing.quote, tenant: true, inputs: {tenant: str}}}}",
         "cli.commands.reprice.inputs.tenant: 'tenant' would be the option --tenant, which is"
         " --tenant, of `tenant: true`: name the input otherwise"),
        ("{commands: {reprice: {call: pricing.quote, inputs: {help: bool}}}}",
         "cli.commands.reprice.inputs.help: 'help' would be the option --help, which is --help"),
        ("{commands: {reprice: {call: pricing.quote, inputs: {pin: int, code: str},"
         " prompt: [pin]}}}",
         "cli.commands.reprice.prompt.0: 'pin' is no required str input: a prompt reads one from"
         " the terminal (expected one of: code)"),
    ],
)  # fmt: skip
def test_validate_names_a_cli_command_that_cannot_run(cli: str, problem: str) -> None:
    spec = _call("{method: GET, path: /p, query: Cart.get}", f"cli: {cli}\n")
    found = [line.split(": ", 1)[1] for line in spec_problems(spec, "shop.yaml")]
    assert any(line.startswith(problem) for line in found), found


@pytest.mark.parametrize(
    ("endpoint", "problem"),
    [
        ("{method: POST, path: /p, call: prices.quote}",
         "endpoints.0.call: unknown component 'prices' (a call names <component>.<method>;"
         " expected one of: pricing)"),
        ("{method: POST, path: /p, call: pricing.Quote}",
         "endpoints.0.call: 'Quote' is no method name"),
        ("{method: POST, path: /p, command: Cart.open, response: Price}",
         "endpoints.0.response: response belongs to a call"),
        ("{method: POST, path: /p, call: pricing.quote, response: Money}",
         "endpoints.0.response: unknown type 'Money': a call answers an aggregate (its view),"
         " a value object, or list[...] of one (expected one of: Cart, Price)"),
        ("{method: GET, path: /p, call: pricing.quote, inputs: {sku: str}, response: Price}",
         "endpoints.0.inputs: a GET has no body: its inputs are the path's parameters"
         " (sku are not in the path)"),
        ("{method: GET, path: '/p/{sku}', call: pricing.quote, response: Price}",
         "endpoints.0.path: {sku} is no input of the call"),
        ("{method: GET, path: '/p/{sku}', call: pricing.quote, inputs: {sku: 'list[str]'},"
         " response: Price}",
         "endpoints.0.inputs.sku.type: 'sku' is in the path: a required str, int, uuid or date"),
        ("{method: POST, path: /p, call: pricing.reset, platform_only: true}",
         "endpoints.0.platform_only: an endpoint for platform operators needs a `permission`"),
        ("{method: POST, path: /p, call: pricing.quote, status: 201}",
         "endpoints.0.status: 204 answers no content: a call without `response` answers 204"),
        ("{method: POST, path: /p, call: pricing.quote, inputs: {sku: {type: str,"
         " unique: true}}}",
         "endpoints.0.inputs.sku.unique: unique applies to the fields of aggregates and"
         " commands: a call's inputs go to its method as given"),
        ("{method: POST, path: /p, call: pricing.quote, inputs: {cart: {type: uuid,"
         " references: Cart}}}",
         "endpoints.0.inputs.cart.references: references applies to the fields of aggregates"),
        ("{method: POST, path: /p, call: pricing.quote, page: true, response: 'list[Price]'}",
         "endpoints.0.page: page is not for a call"),
        ("{method: POST, path: /p, call: pricing.quote, query: Cart.get}",
         "endpoints.0: an endpoint names exactly one of `command`, `query` or `call`"),
    ],
)  # fmt: skip
def test_validate_names_a_call_that_cannot_be_served(endpoint: str, problem: str) -> None:
    found = [line.split(": ", 1)[1] for line in spec_problems(_call(endpoint), "shop.yaml")]
    assert any(line.startswith(problem) for line in found), found
