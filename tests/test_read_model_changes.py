"""An event that changes several rows of a read model: ``on: {Event: [change, change]}``,
each change with its own key (a match played: its home team's row and its away team's),
run in order by the event's one handler; what `validate` says of each, at its index."""

from __future__ import annotations

from pathlib import Path

from helpers import Generate, app_probe, ran_in, service_of, spec_problems

LEAGUE = """\
version: 2
name: league
aggregates:
  Match:
    fields:
      home: {type: str, pattern: "^[A-Z]{3}$", example: ARS}
      away: {type: str, pattern: "^[A-Z]{3}$", example: CHE}
      homeGoals: {type: int, min: 0, default: 0}
      awayGoals: {type: int, min: 0, default: 0}
      played: {type: bool, default: false}
    invariants:
      - {check: "home != away", message: A team plays another, field: away}
    commands:
      schedule: {creates: true, params: [home, away], emits: MatchScheduled}
      finish:
        params: [homeGoals, awayGoals]
        when: "not played"
        set: {played: true}
        emits: MatchPlayed
events:
  # the teams too: the rows it changes are theirs
  MatchPlayed:
    fields: {matchId: uuid, home: str, away: str, homeGoals: int, awayGoals: int, played: bool,
             occurredAt: datetime}
read_models:
  # a row per team: one match changes two of them
  Standings:
    key: team
    fields:
      team: str
      played: {type: int, default: 0}
      points: {type: int, default: 0}
      goalsFor: {type: int, default: 0}
      goalsAgainst: {type: int, default: 0}
    computed:
      difference: {type: int, value: goalsFor - goalsAgainst}
    on:
      MatchPlayed:
        - key: {team: event.home}
          create: true
          set:
            played: played + 1
            points: >-
              points + (3 if event.homeGoals > event.awayGoals
              else 1 if event.homeGoals == event.awayGoals else 0)
            goalsFor: goalsFor + event.homeGoals
            goalsAgainst: goalsAgainst + event.awayGoals
        - key: {team: event.away}
          create: true
          set:
            played: played + 1
            points: >-
              points + (3 if event.awayGoals > event.homeGoals
              else 1 if event.homeGoals == event.awayGoals else 0)
            goalsFor: goalsFor + event.awayGoals
            goalsAgainst: goalsAgainst + event.homeGoals
endpoints:
  - {method: POST, path: /api/v1/matches, command: Match.schedule}
  - {method: POST, path: "/api/v1/matches/{id}/result", command: Match.finish}
  - {method: GET, path: /api/v1/standings, query: Standings.list, order: [-points, team],
     consistent: true}
"""

PROBE = """
def play(home, away, home_goals, away_goals):
    made = client.post("/api/v1/matches", json={"home": home, "away": away})
    assert made.status_code == 201, made.text
    path = "/api/v1/matches/" + made.json()["id"] + "/result"
    played = client.post(path, json={"homeGoals": home_goals, "awayGoals": away_goals})
    assert played.status_code == 200, played.text

with TestClient(create_app(settings)) as client:
    play("ARS", "CHE", 2, 1)
    play("CHE", "LIV", 0, 0)
    play("LIV", "ARS", 3, 0)
    # read your writes: both rows of each match, at once
    table = client.get("/api/v1/standings").json()
    rows = [(r["team"], r["played"], r["points"], r["goalsFor"], r["goalsAgainst"],
             r["difference"]) for r in table]
    assert rows == [
        ("LIV", 2, 4, 3, 0, 3),
        ("ARS", 2, 3, 2, 4, -2),
        ("CHE", 2, 1, 1, 2, -1),
    ], rows
print("ok")
"""


def test_one_event_changes_a_row_per_change(workspace: Path, generate: Generate) -> None:
    """Each change of a match played finds its own row (the home team's, the away team's),
    made on its first match: the table holds every match twice over, in its order; the
    project passes mypy --strict and its own tests."""
    project = service_of(workspace, generate, "league", LEAGUE)
    projections = (project / "src/league/infrastructure/projections.py").read_text()
    assert "async def _match_played_standings_2(" in projections
    app_probe(project, PROBE, workspace)
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")


def test_each_change_is_checked_at_its_index() -> None:
    spec = LEAGUE.replace(
        "        - key: {team: event.away}\n          create: true\n",
        "        - key: {team: event.away}\n          create: true\n          delete: true\n",
    ).replace("goalsFor: goalsFor + event.awayGoals", "goalsFor: goalsFor + event.awayGoal")
    assert spec_problems(spec, "league.yaml") == [
        "league.yaml:48:11: read_models.Standings.on.MatchPlayed.1: an event does one of:"
        " upsert, set or delete"
    ]
    typo = LEAGUE.replace("goalsFor: goalsFor + event.awayGoals", "goalsFor: event.awayGoal")
    problems = spec_problems(typo, "league.yaml")
    assert len(problems) == 1, problems
    assert problems[0].startswith(
        "league.yaml:55:23: read_models.Standings.on.MatchPlayed.1.set.goalsFor: unknown name"
    ), problems


def test_a_change_of_another_shape_is_named_once() -> None:
    """A change that is neither a mapping, a shorthand nor a list of them is named at its
    place, once, saying what it may be (not as the union of types the spec reads)."""
    spec = LEAGUE.replace(
        "      MatchPlayed:\n        - key: {team: event.home}",
        "      MatchScheduled: 5\n      MatchPlayed:\n        - upsert\n        - 3\n"
        "        - key: {team: event.home}",
    )
    assert spec_problems(spec, "league.yaml") == [
        "league.yaml:38:23: read_models.Standings.on.MatchScheduled: expected upsert, delete,"
        " or a mapping of upsert, set, delete, key, create (or a list of such changes)",
        "league.yaml:41:11: read_models.Standings.on.MatchPlayed.1: expected upsert, delete,"
        " or a mapping of upsert, set, delete, key, create",
    ]


SALES = """\
version: 2
name: sales
values:
  Line:
    fields:
      section: {type: str, pattern: "^[A-Z]$", example: A}
      quantity: {type: int, min: 1, max: 10, example: 2}
aggregates:
  Order:
    fields:
      lines: {type: "list[Line]", min_length: 1}
      cancelled: {type: bool, default: false}
    commands:
      place: {creates: true, params: [lines], emits: OrderPlaced}
      cancel: {when: "not cancelled", set: {cancelled: true}, emits: OrderCancelled}
events:
  # its lines too: the rows it changes are theirs
  OrderCancelled:
    fields: {orderId: uuid, lines: "list[Line]", cancelled: bool, occurredAt: datetime}
read_models:
  # a row per section: an order changes as many as it has lines
  Sections:
    key: section
    fields: {section: str, sold: {type: int, default: 0}, orders: {type: int, default: 0}}
    on:
      OrderPlaced:
        each: {line: event.lines}
        key: {section: line.section}
        set: {sold: sold + line.quantity, orders: orders + 1}
        create: true
      OrderCancelled:
        each: {line: event.lines}
        key: {section: line.section}
        set: {sold: sold - line.quantity, orders: orders - 1}
endpoints:
  - {method: POST, path: /api/v1/orders, command: Order.place}
  - {method: POST, path: "/api/v1/orders/{id}/cancel", command: Order.cancel, status: 200}
  - {method: GET, path: /api/v1/sections, query: Sections.list, order: [section],
     consistent: true}
"""

SALES_PROBE = """
def line(section, quantity):
    return {"section": section, "quantity": quantity}

with TestClient(create_app(settings)) as client:
    first = client.post("/api/v1/orders", json={"lines": [line("A", 2), line("B", 1)]})
    second = client.post("/api/v1/orders", json={"lines": [line("B", 3), line("C", 4)]})
    assert first.status_code == second.status_code == 201, (first.text, second.text)
    cancelled = client.post("/api/v1/orders/" + first.json()["id"] + "/cancel")
    assert cancelled.status_code == 200, cancelled.text
    rows = [(r["section"], r["sold"], r["orders"]) for r in client.get("/api/v1/sections").json()]
    assert rows == [("A", 0, 0), ("B", 3, 1), ("C", 4, 1)], rows
print("ok")
"""


def test_a_change_is_made_once_for_each_item_of_the_event(
    workspace: Path, generate: Generate
) -> None:
    """``each: {line: event.lines}`` makes the change once per line of an order, the line
    read by its name: a row per section, counted up by an order and down by its
    cancellation; the project passes mypy --strict and its own tests."""
    project = service_of(workspace, generate, "sales", SALES)
    projections = (project / "src/sales/infrastructure/projections.py").read_text()
    assert "for each_line in event.lines:" in projections
    app_probe(project, SALES_PROBE, workspace)
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")


def test_each_goes_over_a_list_of_the_event() -> None:
    spec = SALES.replace("each: {line: event.lines}", "each: {line: event.cancelled}", 1)
    assert spec_problems(spec, "sales.yaml") == [
        "sales.yaml:27:22: read_models.Sections.on.OrderPlaced.each.line: each goes over a"
        " list of the event, not bool (in 'event.cancelled')"
    ]
    named = SALES.replace("each: {line: event.lines}", "each: {event: event.lines}", 1)
    assert spec_problems(named, "sales.yaml")[0].endswith(
        "the item's name is camelCase, neither `event` nor a column ('event')"
    )
