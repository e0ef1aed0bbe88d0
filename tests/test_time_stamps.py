"""An aggregate's ``createdAt`` and ``updatedAt`` in expressions: guards, ``set``,
invariants and computed values read them as the times of its first and last events."""

from __future__ import annotations

from pathlib import Path

from helpers import Generate, app_probe, ran_in, service_of, spec_problems

DESK = """\
version: 2
name: desk
aggregates:
  Booking:
    fields:
      seat: {type: str, max_length: 10, example: A1}
      note: {type: str, default: ""}
      firstSeen: {type: datetime, optional: true}
    computed:
      editable: {type: bool, value: "now - createdAt < minutes(15)"}
      touched: {type: bool, value: "updatedAt > createdAt"}
      bookedOn: {type: date, value: "date(createdAt)"}
    invariants:
      - {check: "updatedAt >= createdAt", message: "Stamps are in order"}
    commands:
      book: {creates: true, params: [seat], emits: BookingMade}
      amend:
        params: [note]
        when: "now - createdAt < hours(24)"
        set: {firstSeen: createdAt}
        emits: BookingAmended
endpoints:
  - {method: POST, path: /api/v1/bookings, command: Booking.book}
  - {method: GET, path: "/api/v1/bookings/{id}", query: Booking.get}
  - {method: POST, path: "/api/v1/bookings/{id}/amend", command: Booking.amend}
"""

PROBE = """
from datetime import UTC, datetime, timedelta

class Clock:
    at = datetime(2030, 5, 1, 9, 0, tzinfo=UTC)

    def now(self):
        return self.at

clock = Clock()
with TestClient(create_app(settings, clock=clock)) as client:
    made = client.post("/api/v1/bookings", json={"seat": "B2"})
    assert made.status_code == 201, made.text
    booking = made.json()
    assert booking["createdAt"] == "2030-05-01T09:00:00Z", booking
    assert (booking["touched"], booking["bookedOn"]) == (False, "2030-05-01"), booking
    assert booking["editable"] is True, booking
    url = "/api/v1/bookings/" + booking["id"]
    clock.at += timedelta(minutes=14)
    assert client.get(url).json()["editable"] is True
    clock.at += timedelta(minutes=1)
    # computed at the service's clock, as the guards are (not the system's, years off)
    assert client.get(url).json()["editable"] is False
    clock.at += timedelta(minutes=105)
    amended = client.post(url + "/amend", json={"note": "window"})
    assert amended.status_code == 200, amended.text
    assert amended.json()["firstSeen"] == "2030-05-01T09:00:00Z", amended.text
    assert amended.json()["touched"] is True, amended.text
    clock.at += timedelta(hours=23)
    late = client.post(url + "/amend", json={"note": "aisle"})
    assert late.status_code == 409, late.text
    assert client.get(url).json()["note"] == "window"
print("ok")
"""


def test_guards_sets_invariants_and_computed_values_read_the_time_stamps(
    workspace: Path, generate: Generate
) -> None:
    """``createdAt`` is the first event's time, ``updatedAt`` the last one's: a guard
    refuses an amendment a day after the booking (409, nothing stored), ``set`` copies the
    creation time, the computed values compare the two, and ``now`` in one is the
    service's clock; the project passes mypy --strict and its own tests."""
    project = service_of(workspace, generate, "desk", DESK)
    app_probe(project, PROBE, workspace)
    ran_in(project, "-m", "mypy", "--strict", "src", "tests")
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")


def test_an_input_may_not_take_the_name_of_a_time_stamp() -> None:
    spec = DESK.replace(
        "params: [note]\n", "params: [note]\n        inputs: {updatedAt: datetime}\n"
    )
    assert spec_problems(spec, "desk.yaml") == [
        "desk.yaml:19:29: aggregates.Booking.commands.amend.inputs.updatedAt: 'updatedAt' is"
        " the Booking's own time stamp (expressions read it): name the input otherwise"
    ]
