"""Decimals in request bodies: a JSON number is read as written (not through a float,
which rounded a value past its `max` or `scale` into one the rules took), and the rules of
a list or map of decimals answer with the spec's messages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from helpers import Result, app_probe, ran_in, service_of

LEDGER = """\
version: 2
name: ledger
aggregates:
  Buyer:
    fields:
      handle: {type: str, pattern: "^[a-z]{3,20}$", example: ada}
      creditLimit: {type: decimal, scale: 2, min: 0, max: 10000, example: "500.00"}
      rate: {type: float, min: 0, default: 1.5}
      weights:
        type: "list[decimal]"
        max_length: 2
        items: {scale: 3}
        default: []
        messages: {max_length: Too many weights}
      shares: {type: "map[decimal]", max_length: 1, items: {scale: 3}, default: {}}
      # computed to the cent: half to the even digit, as Python rounds
      fee: {type: decimal, scale: 2, default: "0"}
    computed:
      # answered in plain notation (round to hundreds gives 1.00E+4)
      hundreds: {type: decimal, value: "round(creditLimit, -2)"}
    commands:
      signUp: {creates: true, params: [handle, creditLimit, rate, weights, shares],
               set: {fee: "round(creditLimit * 0.0125, 2)"}, emits: BuyerSignedUp}
endpoints:
  - {method: POST, path: /api/v1/buyers, command: Buyer.signUp}
"""

LEDGER_PROBE = """
import json
with TestClient(create_app(settings)) as client:
    def sent(**values):
        body = {"handle": "ada", "creditLimit": 10, **values}
        text = json.dumps(body)
        for name, number in values.items():
            if isinstance(number, str) and number.startswith("="):
                text = text.replace(json.dumps(number), number[1:])
        return client.post(
            "/api/v1/buyers", content=text, headers={"Content-Type": "application/json"}
        )

    over = sent(creditLimit="=10000.000000000000000001")
    assert over.status_code == 422, over.text
    assert {e["field"] for e in over.json()["errors"]} == {"creditLimit"}, over.text
    fine = sent(creditLimit="=1.0000000000000001")
    assert fine.status_code == 422, fine.text
    kept = sent(creditLimit="=9999.99", rate="=2.25")
    assert kept.status_code == 201, kept.text
    assert (kept.json()["creditLimit"], kept.json()["rate"]) == ("9999.99", 2.25), kept.text
    assert kept.json()["fee"] == "125.00", kept.text
    assert kept.json()["hundreds"] == "10000", kept.text
    # a decimal is judged by value: 12.500 needs one place, as the document's multipleOf says
    zeros = sent(creditLimit="=12.500")
    assert zeros.status_code == 201, zeros.text
    assert zeros.json()["fee"] == "0.16", zeros.text
    # a number too large or too small to write out is answered at once, not stored
    huge = sent(creditLimit="=1e9999999")
    assert huge.status_code == 422, huge.text
    assert huge.json()["errors"][0]["message"].startswith(
        "The body holds a number out of range: 1e9999999"
    ), huge.text
    sized = sent(weights=[1, 2.5, 3], shares={"a": 1, "b": 2})
    assert sized.json()["errors"] == [
        {"field": "weights", "message": "Too many weights"},
        {"field": "shares", "message": "Shares allows at most 1 item"},
    ], sized.text
"""


def test_a_decimal_is_read_as_written_and_its_lists_rules_say_the_specs_messages(
    workspace: Path, generate: Callable[..., Result]
) -> None:
    project = service_of(workspace, generate, "ledger", LEDGER)
    ran_in(project, "-m", "mypy", "--strict", "src")
    ran_in(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    app_probe(project, LEDGER_PROBE, workspace)
