"""``like: <Aggregate or Value>.<field>``: a field that takes another's type and rules, so a
spec says them once (a call's or command's inputs mirroring an aggregate's fields)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Result, app_probe, cart_problems, ran_in, service_of

from generator.loading import load_spec_text
from generator.resolve import resolve

SIGNUP = """\
version: 2
name: signup
values:
  Contact:
    fields:
      email: {type: str, normalize: [trim, lower], contains: "@",
              messages: {contains: Email must be valid}}
aggregates:
  Member:
    fields:
      handle: {type: str, pattern: "^[a-z]{3,12}$",
               messages: {pattern: "Handle {value} is 3-12 letters"}}
      email: {like: Contact.email}
      nickname: {like: Member.handle, optional: true}
    commands:
      join: {creates: true, params: [handle, email, nickname], emits: MemberJoined}
      invite:
        inputs: {guest: {like: Member.handle, description: whom to invite}}
        emits: MemberInvited
events:
  MemberInvited:
    fields: {memberId: uuid, guest: {like: Member.handle}, occurredAt: datetime}
read_models:
  Members: {of: Member}
endpoints:
  - {method: POST, path: /api/v1/members, command: Member.join}
  - {method: POST, path: "/api/v1/members/{id}/invite", command: Member.invite}
"""

SIGNUP_PROBE = """
with TestClient(create_app(settings)) as client:
    answer = client.post("/api/v1/members", json={"handle": "A1", "email": "nope", "nickname": "B"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"] == [
        {"field": "handle", "message": 'Handle "A1" is 3-12 letters'},
        {"field": "email", "message": "Email must be valid"},
        {"field": "nickname", "message": 'Handle "B" is 3-12 letters'},
    ], answer.text
    made = client.post("/api/v1/members", json={"handle": "ada", "email": " Ada@X.org "})
    assert made.status_code == 201 and made.json()["email"] == "ada@x.org", made.text
    invited = client.post(f"/api/v1/members/{made.json()['id']}/invite", json={"guest": "X"})
    assert invited.json()["errors"] == [{"field": "guest", "message": 'Handle "X" is 3-12 letters'}]
"""


def test_a_field_like_another_takes_its_type_and_rules(
    workspace: Path, generate: Callable[..., Result]
) -> None:
    domain = resolve(load_spec_text(SIGNUP, "signup.yaml"))
    member = domain.aggregates["Member"]
    nickname = member.field("nickname")
    assert (
        nickname is not None
        and nickname.optional
        and nickname.rules == [("pattern", "^[a-z]{3,12}$")]
    )
    guest = domain.events["MemberInvited"].fields[1]
    assert (guest.name, str(guest.type), guest.rules) == ("guest", "str", [])
    project = service_of(workspace, generate, "signup", SIGNUP)
    ran_in(project, "-m", "mypy", "--strict", "src")
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    app_probe(project, SIGNUP_PROBE, workspace)


@pytest.mark.parametrize(
    ("field", "problem"),
    [
        ("{like: Cart.nam}", "aggregates.Cart.fields.tag.like: unknown field 'Cart.nam'"
         " (`like` names <Aggregate or Value>.<field>; expected one of: Cart.name, Cart.tag)"),
        ("{like: Cart.tag}", "aggregates.Cart.fields.tag.like: 'Cart.tag' takes its type from"
         " this field: `like` goes round"),
        ("{type: str, like: Cart.name}", "aggregates.Cart.fields.tag: a field names its `type`,"
         " or `like: <Aggregate or Value>.<field>`"),
        ("{optional: true}", "aggregates.Cart.fields.tag: a field names its `type` (or `like:"),
        ("{like: cart.name}", "aggregates.Cart.fields.tag.like: String should match pattern"),
    ],
)  # fmt: skip
def test_validate_names_a_like_that_names_no_field(field: str, problem: str) -> None:
    found = [line.split(": ", 1)[1] for line in cart_problems(field)]
    assert any(line.startswith(problem) for line in found), found
