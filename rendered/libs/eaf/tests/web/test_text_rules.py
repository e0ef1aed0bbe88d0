"""The text rules of request fields: checked in time linear in the text (a pattern that
makes a backtracking engine run for ever answers at once), stated as the one pattern the
OpenAPI document carries."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Annotated

import pytest
import re2
from pydantic import ValidationError

from eaf.domain import matches
from eaf.web import Body, TextRule

NESTED = "^(?:(a+)+)$"  # Python's re takes 2**n steps to refuse "aaa...ab"


class Request(Body):
    code: Annotated[str, TextRule("^(?:(a+)+)$", pattern=NESTED)]
    name: Annotated[
        str, TextRule("^(?=[\\s\\S]*[^ ])(?=[\\s\\S]*@)", not_blank=True, contains="@")
    ] = "a@b"
    tags: list[Annotated[str, TextRule("^(?:[a-z]+)$", pattern="^(?:[a-z]+)$")]] = []


def _finishes(work: Callable[[], object], seconds: float = 60) -> bool:
    """Whether ``work`` returns within ``seconds``: a liveness check, not a
    measure (RE2 answers in well under a millisecond; backtracking would take years)."""
    done = threading.Event()

    def run() -> None:
        with contextlib.suppress(ValidationError):
            work()
        done.set()

    threading.Thread(target=run, daemon=True).start()
    return done.wait(seconds)


def test_a_nested_repetition_is_refused_without_backtracking() -> None:
    hostile = "a" * 100_000 + "b"

    assert _finishes(lambda: Request(code=hostile))
    assert not matches(NESTED, hostile)
    assert matches(NESTED, "aaaa")


def test_every_text_rule_is_checked_and_reported_as_a_pattern_mismatch() -> None:
    with pytest.raises(ValidationError) as raised:
        Request.model_validate({"code": "ab", "name": "   ", "tags": ["ok", "No"]})

    found = {(".".join(map(str, e["loc"])), e["type"]) for e in raised.value.errors()}
    assert found == {
        ("code", "string_pattern_mismatch"),
        ("name", "string_pattern_mismatch"),
        ("tags.1", "string_pattern_mismatch"),
    }
    with pytest.raises(ValidationError):
        Request.model_validate({"code": "a", "name": "no at sign"})
    assert Request.model_validate(
        {"code": "aa", "name": " x@y ", "tags": ["ok"]}
    ).tags == ["ok"]


def test_the_document_states_the_one_pattern() -> None:
    properties = Request.model_json_schema()["properties"]

    assert properties["code"]["pattern"] == "^(?:(a+)+)$"
    assert properties["name"]["pattern"] == "^(?=[\\s\\S]*[^ ])(?=[\\s\\S]*@)"
    assert properties["tags"]["items"]["pattern"] == "^(?:[a-z]+)$"


def test_a_pattern_is_whole_and_re2_syntax() -> None:
    assert not matches("^(?:a)$", "a\n")  # `$` is the end of the text, not of a line
    with pytest.raises(re2.error):
        matches("(?=a)a", "a")  # no lookarounds
