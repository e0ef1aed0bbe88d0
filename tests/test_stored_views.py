"""A view shows what is stored, as it is: a value object's rule narrowed since the value
was stored fails the next command that does not set a valid one (422), never a read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from helpers import Result, probed_json, ran_in, service_of

BOX = """\
version: 2
name: box
values:
  Seat:
    fields:
      aisle: {type: str, pattern: "^[A-Z]$"}
      number: {type: int, min: 1, max: 100}
aggregates:
  Ticket:
    fields:
      holder: {type: str, not_blank: true}
      seat: {type: Seat}
      moves: {type: "list[Seat]", default: []}
    commands:
      buy: {creates: true, params: [holder, seat, moves], emits: TicketHeld}
read_models:
  Tickets: {of: Ticket}
endpoints:
  - {method: POST, path: /api/v1/tickets, command: Ticket.buy}
  - {method: GET, path: "/api/v1/tickets/{id}", query: Ticket.get}
  - {method: GET, path: /api/v1/tickets, query: Tickets.list}
"""

# a ticket holding seats stored when the rules took them (aisle CD, number 300)
PROBE = """\
import json
import sys
from dataclasses import replace
from datetime import UTC, datetime

from fastapi.testclient import TestClient

from box.domain.model import Ticket
from box.domain.types import Seat
from box.infrastructure import web
from box.infrastructure.config import load_settings
from box.main import create_app

now = datetime.now(UTC)
made = Ticket.buy(holder="ann", seat=Seat(aisle="C", number=3), moves=[], now=now)
stored = replace(made, seat=Seat(aisle="CD", number=300), moves=[Seat(aisle="EF", number=0)])
shown = web.ticket_view(stored, now).model_dump(mode="json", by_alias=True)
settings = load_settings({"DATABASE_URL": f"sqlite:///{sys.argv[1]}/box.db",
                          "BROKER_RELAY": "false"})
with TestClient(create_app(settings)) as client:
    refused = client.post("/api/v1/tickets", json={"holder": "bo", "seat": {"aisle": "CD",
                                                                             "number": 3}})
    document = client.get("/openapi.json").json()
schemas = document["components"]["schemas"]
print(json.dumps({
    "shown": [shown["seat"], shown["moves"]],
    "refused": [refused.status_code, [e["field"] for e in refused.json()["errors"]]],
    "request": schemas["SeatBody"]["properties"]["aisle"].get("pattern"),
    "view": sorted(schemas["Ticket"]["properties"]["seat"].get("$ref", "").split("/")[-1:]),
}))
"""


def test_a_view_shows_a_value_object_stored_before_its_rule_narrowed(
    workspace: Path, generate: Callable[..., Result]
) -> None:
    project = service_of(workspace, generate, "box", BOX)
    ran_in(project, "-m", "mypy", "--strict", "src")
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    seen = probed_json(project, PROBE, workspace)
    assert seen["shown"] == [{"aisle": "CD", "number": 300}, [{"aisle": "EF", "number": 0}]]
    # requests keep every rule, and the document states them there
    assert seen["refused"] == [422, ["seat.aisle"]]
    assert seen["request"] == "^(?:[A-Z])$"
    assert seen["view"] == ["SeatView"]
