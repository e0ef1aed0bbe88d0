"""``normalize``: a request's text trimmed and put in one case before its rules are checked
and it is kept, in bodies, path parameters and filters alike."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Result, app_probe, cart_problems, ran_in, service_of

CLUB = """\
version: 2
name: club
values:
  Contact:
    fields:
      phone: {type: str, normalize: [trim], pattern: "^[0-9+ ]+$", example: "+33 1 23"}
aggregates:
  Member:
    key: [handle]
    fields:
      handle: {type: str, normalize: [trim, lower], pattern: "^[a-z][a-z0-9_]*$", max_length: 20}
      email: {type: str, normalize: [trim, lower], contains: "@", unique: true}
      name: {type: str, normalize: [trim], not_blank: true, max_length: 40}
      code: {type: str, normalize: [upper], optional: true, max_length: 5}
      contact: {type: Contact, optional: true}
    commands:
      join: {creates: true, params: [handle, email, name, code, contact], emits: MemberJoined}
      rename: {params: [name], emits: MemberRenamed}
read_models:
  Members: {of: Member}
  # rows of their own, keyed by the normalized email the event carries
  Joins:
    key: email
    fields: {email: str, name: str}
    on: {MemberJoined: upsert}
endpoints:
  - {method: POST, path: /api/v1/members, command: Member.join}
  - {method: GET, path: "/api/v1/members/{handle}", query: Member.get}
  - {method: PATCH, path: "/api/v1/members/{handle}", command: Member.rename}
  - {method: GET, path: /api/v1/members, query: Members.list, filter: [email, code],
     consistent: true}
  - {method: GET, path: /api/v1/joins, query: Joins.list, filter: [email], consistent: true}
  - {method: GET, path: "/api/v1/joins/{email}", query: Joins.get, consistent: true}
"""

CLUB_PROBE = """
with TestClient(create_app(settings)) as client:
    body = {"handle": " Ada_L ", "email": " Ada@Example.ORG ", "name": "  Ada  ", "code": "ab",
            "contact": {"phone": " +33 1 "}}
    made = client.post("/api/v1/members", json=body)
    assert made.status_code == 201, made.text
    member = made.json()
    assert (member["handle"], member["email"], member["name"], member["code"]) == (
        "ada_l", "ada@example.org", "Ada", "AB"), member
    assert member["contact"] == {"phone": "+33 1"}, member
    # one spelling for the unique value, the key in the path and the filters
    twin = client.post("/api/v1/members", json={"handle": "bob", "email": "ADA@example.org",
                                               "name": "Bob"})
    assert twin.status_code == 409, twin.text
    assert client.get("/api/v1/members/ADA_L").status_code == 200
    renamed = client.patch("/api/v1/members/Ada_L", json={"name": " Ada L. "})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Ada L.", renamed.text
    assert len(client.get("/api/v1/members?email=ADA@EXAMPLE.org").json()) == 1
    assert len(client.get("/api/v1/members?code=ab").json()) == 1
    # so are a read model's own columns the events fill with a normalized field
    assert len(client.get("/api/v1/joins?email= ADA@EXAMPLE.org").json()) == 1
    assert client.get("/api/v1/joins/ADA@Example.org").json()["name"] == "Ada"
    # the rules hold for the normalized text: blank once trimmed
    answer = client.post("/api/v1/members", json={"handle": " ", "email": "x@y", "name": "  "})
    assert answer.status_code == 422, answer.text
    assert [e["field"] for e in answer.json()["errors"]] == ["handle", "name"], answer.text
"""


def test_requests_text_is_normalized_before_its_rules_and_kept_so(
    workspace: Path, generate: Callable[..., Result]
) -> None:
    project = service_of(workspace, generate, "club", CLUB)
    api_tests = (project / "tests/test_api.py").read_text()
    assert "def test_join_member_keeps_email_normalized(" in api_tests
    ran_in(project, "-m", "ruff", "check", "src", "tests")
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    app_probe(project, CLUB_PROBE, workspace)


@pytest.mark.parametrize(
    ("field", "problem"),
    [
        ("{type: int, normalize: [trim]}",
         "aggregates.Cart.fields.tag.normalize: normalize applies to str fields, not int"),
        ("{type: str, normalize: [lower, upper]}",
         "aggregates.Cart.fields.tag.normalize: each step once, and lower or upper, not both"),
        ("{type: str, secret: true, normalize: [trim]}",
         "aggregates.Cart.fields.tag.normalize: a secret is kept as it is given: it is not"
         " normalized"),
        ("{type: str, normalize: [lower], example: ABC, pattern: '^[A-Z]+$'}",
         "aggregates.Cart.fields.tag.example: 'ABC' (normalized: 'abc') does not fit tag: must"),
    ],
)  # fmt: skip
def test_validate_names_normalizing_that_cannot_hold(field: str, problem: str) -> None:
    found = [line.split(": ", 1)[1] for line in cart_problems(field)]
    assert any(line.startswith(problem) for line in found), found
