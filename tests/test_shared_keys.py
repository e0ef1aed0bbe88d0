"""``key: {shared_with: [...]}``: a value taken once among the keys of several aggregates
(a login held by a person's account or by an organization, whichever has it first)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Result, app_probe, ran_in, service_of, spec_problems

from generator.loading import load_spec_text
from generator.resolve import resolve

LOGINS = """\
version: 2
name: logins
aggregates:
  Account:
    key: {fields: [login], ignore_case: true, shared_with: [Organization, Bot]}
    fields:
      login: {type: str, pattern: "^[A-Za-z0-9-]{2,39}$", normalize: [trim],
              messages: {pattern: "Login {value} is 2-39 letters, digits or -"}}
      name: {type: str, default: ""}
    commands:
      open: {creates: true, params: [login, name], emits: AccountOpened}
  # said on both sides: one sharing; its owner is an account (the tests make one first)
  Organization:
    key: {fields: [login], ignore_case: true, shared_with: [Account]}
    fields:
      login: {like: Account.login}
      billingEmail: {type: str, contains: "@", example: billing@example.com}
      ownerId: {type: uuid, references: Account}
    commands:
      found: {creates: true, params: [login, billingEmail, ownerId], emits: OrganizationFounded}
      bill: {params: [billingEmail, ownerId], emits: BillingChanged}
  # shares with Account, so with Organization too
  Bot:
    key: {fields: [login], ignore_case: true}
    fields:
      login: {like: Account.login}
    commands:
      register: {creates: true, params: [login], emits: BotRegistered}
read_models:
  Accounts: {of: Account}
endpoints:
  - {method: POST, path: /api/v1/accounts, command: Account.open}
  - {method: GET, path: "/api/v1/accounts/{id}", query: Account.get}
  - {method: PUT, path: "/api/v1/organizations/{login}", command: Organization.bill,
     create: Organization.found}
  - {method: POST, path: /api/v1/bots, command: Bot.register}
"""

LOGINS_PROBE = """
with TestClient(create_app(settings)) as client:
    ada = client.post("/api/v1/accounts", json={"login": "ada"})
    assert ada.status_code == 201, ada.text
    body = {"billingEmail": "b@x.org", "ownerId": ada.json()["id"]}
    taken = client.put("/api/v1/organizations/ADA", json=body)
    assert taken.status_code == 409, taken.text
    snake = client.put("/api/v1/organizations/acme", json={**body, "billing_email": "b@x.org"})
    assert snake.status_code == 422, snake.text  # the API's names are camelCase only
    assert [e["field"] for e in snake.json()["errors"]] == ["billing_email"], snake.text
    acme = client.put("/api/v1/organizations/acme", json=body)
    assert acme.status_code == 201, acme.text
    again = client.put("/api/v1/organizations/acme", json={**body, "billingEmail": "c@x.org"})
    assert again.status_code == 200, again.text
    bot = client.post("/api/v1/bots", json={"login": "Acme"})
    assert bot.json()["errors"] == [
        {"field": "login", "message": "An Organization has this login"}
    ], bot.text
    person = client.post("/api/v1/accounts", json={"login": " Acme "})
    assert person.status_code == 409, person.text
    assert person.json()["errors"] == [
        {"field": "login", "message": "An Organization has this login"}
    ], person.text
"""


def test_a_key_shared_with_another_aggregate_is_taken_once_among_them(
    workspace: Path, generate: Callable[..., Result]
) -> None:
    domain = resolve(load_spec_text(LOGINS, "logins.yaml"))
    shared = {name: a.key_shared for name, a in domain.aggregates.items()}
    # both ways, and through Account to Bot
    assert shared == {
        "Account": ["Organization", "Bot"],
        "Organization": ["Account", "Bot"],
        "Bot": ["Account", "Organization"],
    }
    project = service_of(workspace, generate, "logins", LOGINS)
    tests = (project / "tests/test_services.py").read_text()
    assert "async def test_the_key_of_a_organization_is_free_only_if_no_account_has_it" in tests
    ran_in(project, "-m", "mypy", "--strict", "src")
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    app_probe(project, LOGINS_PROBE, workspace)


def _shared(account_key: str, organization: str) -> list[str]:
    spec = (
        "version: 2\nname: logins\naggregates:\n"
        f"  Account:\n    key: {account_key}\n"
        "    fields: {login: str, code: int}\n"
        "    commands: {open: {creates: true, params: [login, code], emits: Opened}}\n"
        f"  Organization:\n{organization}"
        "    commands: {found: {creates: true, params: [login], emits: Founded}}\n"
    )
    return [line.split(": ", 1)[1] for line in spec_problems(spec, "logins.yaml")]


ORG = "    key: login\n    fields: {login: str}\n"


@pytest.mark.parametrize(
    ("account_key", "organization", "problem"),
    [
        ("{fields: [login], shared_with: [Team]}", ORG,
         "unknown aggregate 'Team' (aggregates with a key: Account, Organization)"),
        ("{fields: [login], shared_with: [Account]}", ORG,
         "'Account' is this aggregate: its key is taken once already"),
        ("{fields: [login], shared_with: [Organization]}", "    fields: {login: str}\n",
         "Organization has no key (or its key has a problem) to share"),
        ("{fields: [login, code], shared_with: [Organization]}", ORG,
         "Organization's key has 1 field(s), this one 2: the keys' fields pair in order"),
        ("{fields: [code], shared_with: [Organization]}", ORG,
         "Account.code is of type int, Organization.login of type str"),
        ("{fields: [login], shared_with: [Organization]}",
         "    key: login\n    fields: {login: {type: str, max_length: 9}}\n",
         "Account.login and Organization.login have different rules (or normalize): a"
         " shared key's values are valid for both (say `like: Organization.login`)"),
        ("{fields: [login], ignore_case: true, shared_with: [Organization]}", ORG,
         "Organization's key keeps case, this one ignores it: both ignore case or neither does"),
        ("{fields: [login], shared_with: [Organization, Organization]}", ORG,
         "'Organization' is named twice"),
    ],
)  # fmt: skip
def test_validate_names_a_key_that_cannot_be_shared(
    account_key: str, organization: str, problem: str
) -> None:
    found = _shared(account_key, organization)
    assert any("key.shared_with" in line and problem in line for line in found), found
