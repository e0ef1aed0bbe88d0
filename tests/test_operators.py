"""Endpoints for platform operators (``platform_only: true``) and commands on a tenant's own
record (the aggregate whose id is the tenant): what `validate` refuses, and a rendered
service where a tenant's token, whatever its permissions, is refused where only platform
operators may call, while its own generated tests reach those endpoints as an operator."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Generate, ran_in, spec_problems

CONSOLE = """\
version: 2
name: console
enums:
  Standing: [good, suspended]
aggregates:
  Plan:
    fields:
      name: {type: str, not_blank: true, example: Gold}
      seats: {type: int, min: 1, max: 1000, example: 10}
    commands:
      grant: {creates: true, params: [name, seats], emits: PlanGranted}
      resize: {params: [seats], emits: PlanResized}
  # a tenant's own record: its id is the tenant (made by the service's own code)
  Account:
    view_id: tenantId
    fields:
      standing: {type: Standing, default: good}
    commands:
      open: {creates: true, params: [standing], emits: AccountOpened}
      stand: {params: [standing], emits: AccountStood}
endpoints:
  - {method: POST, path: "/api/v1/tenants/{tenantId}/plans", command: Plan.grant,
     permission: "console:write", tenant: path, platform_only: true}
  - {method: PATCH, path: "/api/v1/tenants/{tenantId}/plans/{id}", command: Plan.resize,
     permission: "console:write", tenant: path, platform_only: true}
  - {method: GET, path: "/api/v1/tenants/{tenantId}/plans/{id}", query: Plan.get,
     permission: "console:read", tenant: path}
  - {method: GET, path: "/api/v1/tenants/{tenantId}", query: Account.get,
     permission: "console:read", tenant: path}
  - {method: PATCH, path: "/api/v1/tenants/{tenantId}", command: Account.stand,
     permission: "console:write", tenant: path, platform_only: true}
  # every tenant's record, for operators: the suspended ones first
  - {method: GET, path: /api/v1/accounts, query: Account.list, order: [-standing],
     permission: "console:read", platform_only: true}
"""


def problems(text: str) -> list[str]:
    return spec_problems(text, "console.yaml")


def test_the_spec_with_operator_endpoints_is_valid() -> None:
    assert problems(CONSOLE) == []


@pytest.mark.parametrize(
    ("replaced", "replacement", "expected"),
    [
        (
            '"/api/v1/tenants/{tenantId}/plans", command: Plan.grant,\n'
            '     permission: "console:write", tenant: path, platform_only: true}',
            "/api/v1/plans, command: Plan.grant,\n"
            '     permission: "console:write", platform_only: true}',
            "console.yaml:23:50: endpoints.0.platform_only: an endpoint for platform operators"
            " names the tenant it acts in: add tenant: path (a platform operator's token has"
            " no tenant)",
        ),
        (
            "    view_id: tenantId\n",
            "",
            "console.yaml:27:25: endpoints.3.path: a `get` query takes {id}, a unique field or"
            " the one field of a key in its path (or, on a tenant path, is of the aggregate"
            " whose id is the tenant: its view_id or event_id tenantId);"
            "console.yaml:29:27: endpoints.4.path: command 'stand' needs the path parameter"
            " {id};"
            "console.yaml:32:50: endpoints.5.query: a `list` query reads a read model: declare"
            " one `of: Account`",
        ),
        (
            'order: [-standing],\n     permission: "console:read", platform_only: true}',
            'order: [-standing],\n     permission: "console:read"}',
            "console.yaml:33:50: endpoints.5.query: Account is a tenant's own record: its list"
            " is every tenant's, for platform operators (platform_only: true, no tenant or"
            " parameter in the path), or a read model `of: Account` lists a tenant's",
        ),
        (
            'permission: "console:read", platform_only: true}',
            "platform_only: true}",
            "console.yaml:34:21: endpoints.5.platform_only: an endpoint for platform operators"
            " needs a `permission`: who is one is known from bearer tokens only",
        ),
        (
            "order: [-standing],",
            "order: [-standing, seats], filter: [standing],",
            "console.yaml:33:99: endpoints.5.filter: filter is not for the list of every"
            " tenant's record (it takes `order`);"
            "console.yaml:33:83: endpoints.5.order.1: Account cannot be ordered by 'seats': the"
            " order takes required str, int, float, date, datetime and enum fields that are"
            " not hidden",
        ),
    ],
)
def test_each_mistake_is_located(replaced: str, replacement: str, expected: str) -> None:
    assert replaced in CONSOLE
    assert problems(CONSOLE.replace(replaced, replacement)) == expected.split(";")


PROBE = """
import sys
from datetime import UTC, datetime
from eaf import context
from fastapi.testclient import TestClient
from console.domain.model import Account
from console.domain.types import Standing
from console.infrastructure.persistence import EventSourcedAccountRepository
from eaf.security import KeyRing, TokenIssuer
from iam_client import IamClient
from console.infrastructure.config import load_settings
from console.main import create_app

keys = KeyRing.generate()
issuer = TokenIssuer(keys, issuer="https://iam.test", default_audience="eaf")
iam = IamClient(jwks=keys.jwks(), issuer="https://iam.test", audience="eaf")
settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/c.db",
                          "BROKER_RELAY": "false", "SECURITY_REVOCATION_FEED": "false"})
everything = ["console:read", "console:write"]

def tenant(name):
    token = issuer.issue(subject="admin", client_id="c", tenant_id=name, permissions=["*"])
    return {"Authorization": f"Bearer {token.token}"}

operator = {"Authorization": "Bearer " + issuer.issue(
    subject="op", client_id="console", tenant_id=None, platform=True,
    permissions=everything).token}
plan = {"name": "Gold", "seats": 10}
with TestClient(create_app(settings, iam=iam)) as client:
    refused = client.post("/api/v1/tenants/acme/plans", json=plan, headers=tenant("acme"))
    assert refused.status_code == 403, refused.text
    assert refused.json()["detail"] == "platform operators only", refused.text
    granted = client.post("/api/v1/tenants/acme/plans", json=plan, headers=operator)
    assert granted.status_code == 201, granted.text
    path = "/api/v1/tenants/acme/plans/" + granted.json()["id"]
    # the tenant reads its plan, but cannot resize it
    assert client.get(path, headers=tenant("acme")).json()["seats"] == 10
    assert client.patch(path, json={"seats": 99}, headers=tenant("acme")).status_code == 403
    resized = client.patch(path, json={"seats": 20}, headers=operator)
    assert resized.status_code == 200 and resized.json()["seats"] == 20, resized.text
    assert client.get(path, headers=tenant("globex")).status_code == 404
    # the tenant's own record, made with the tenant as its id (a uuid), changed by its path
    acme = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
    async def open_account():
        with context.use(context.SecurityContext(tenant_id=acme)):
            account = Account.open_(standing=Standing.GOOD, now=datetime.now(UTC), id=acme)
            await EventSourcedAccountRepository(client.app.state.store).save(account)
    client.portal.call(open_account)
    account = client.get("/api/v1/tenants/" + acme, headers=tenant(acme))
    assert account.json()["tenantId"] == acme, account.text
    assert client.patch("/api/v1/tenants/" + acme, json={"standing": "suspended"},
                        headers=tenant(acme)).status_code == 403
    stood = client.patch("/api/v1/tenants/" + acme, json={"standing": "suspended"},
                         headers=operator)
    assert stood.status_code == 200 and stood.json()["standing"] == "suspended", stood.text
    missing = client.patch("/api/v1/tenants/globex", json={"standing": "good"},
                           headers=operator)
    assert missing.status_code == 404, missing.text
    # every tenant's record, read across the tenants by an operator only, in its order
    globex = "9b2f3f9e-6f0b-5a53-8b61-3c1f0e4c2a10"
    async def open_globex():
        with context.use(context.SecurityContext(tenant_id=globex)):
            account = Account.open_(standing=Standing.GOOD, now=datetime.now(UTC), id=globex)
            await EventSourcedAccountRepository(client.app.state.store).save(account)
    client.portal.call(open_globex)
    listed = client.get("/api/v1/accounts", headers=operator)
    assert [(a["tenantId"], a["standing"]) for a in listed.json()] == [
        (acme, "suspended"), (globex, "good")], listed.text
    assert client.get("/api/v1/accounts", headers=tenant(acme)).status_code == 403
print("ok")
"""


def test_only_platform_operators_call_these_endpoints(workspace: Path, generate: Generate) -> None:
    """The rendered service answers a tenant's token 403 where only operators may call
    (even one holding every permission), lets an operator act in the tenant the path
    names, changes a tenant's own record by its path, and passes its own tests (which
    call those endpoints as an operator) and ``mypy --strict``."""
    spec = workspace / "specs/console.yaml"
    spec.parent.mkdir()
    spec.write_text(CONSOLE)
    assert generate("service", "console", cwd=workspace).code == 0
    project = workspace / "apps/console"
    security = (project / "tests/test_security.py").read_text()
    assert "def test_a_tenant_s_token_is_refused_where_only_platform_operators_call" in security
    ran_in(project, "-c", PROBE, str(workspace))
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")
